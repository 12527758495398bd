"""The command line run as a test runs it: ``main``'s exit code, usage errors
included (argparse exits), and what it wrote."""

from sklearn_ordinal.__main__ import main


def run_main(capsys, *argv):
    """``(code, out, err)`` of ``python -m sklearn_ordinal *argv``, in process."""
    try:
        code = main([str(arg) for arg in argv])
    except SystemExit as exit_info:  # argparse's usage errors
        code = exit_info.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err
