"""What the commands of ``python -m sklearn_ordinal`` share: the types of their
options, and how a command's errors and warnings reach the terminal."""

import argparse
import json
import sys
import warnings
from collections import Counter
from pathlib import Path

# Of a result written with --output FILE and no --format; text otherwise.
FORMAT_OF_SUFFIX = {".md": "markdown", ".csv": "csv", ".json": "json", ".txt": "text",
                    ".html": "html", ".htm": "html"}


def whole_number(text):
    """An option's whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def positive(text):
    """An option's whole number of at least 1."""
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"needs a positive whole number; got {value}")
    return value


def fraction(text):
    """An option's number strictly between 0 and 1 (a level, an alpha)."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"needs a number between 0 and 1; got {text!r}")
    return value


def comma_names(text):
    """An option's names separated by commas (``low,mid,high``), none of them empty."""
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"an empty name in {text!r}; separate names by "
                                         "commas, as in low,mid,high")
    return names


def class_names(text):
    """Every command's ``--labels``: ``low,mid,high``; a JSON list (``["a, b", "c"]``),
    for class names that hold commas; or ``@FILE``, a file of one class per line (or
    of a JSON list)."""
    if text.startswith("@"):
        path = Path(text[1:])
        try:
            # utf-8-sig: a byte-order mark (Windows editors write one) is no part of
            # the first class's name.
            text = path.read_text(encoding="utf-8-sig")
        except OSError as error:
            raise argparse.ArgumentTypeError(f"cannot read {path}: {error.strerror}") from None
        if not text.lstrip().startswith("["):
            names = [line.strip() for line in text.splitlines() if line.strip()]
            if not names:
                raise argparse.ArgumentTypeError(f"{path} holds no class (one per line)")
            return names
    if text.lstrip().startswith("["):
        try:
            names = json.loads(text)
        except json.JSONDecodeError as error:
            raise argparse.ArgumentTypeError(f"not a JSON list: {error.msg}") from None
        if not isinstance(names, list) or not names or not all(
                isinstance(name, (str, int, float)) and not isinstance(name, bool)
                for name in names):
            raise argparse.ArgumentTypeError(
                "a JSON list of class names (strings or numbers), e.g. [\"low\", \"mid\"]")
        return [str(name) for name in names]
    return comma_names(text)


# Options whose value may start with a minus sign: class lists such as -1,0,1.
_LIST_OPTIONS = ("--labels",)


def joined_label_lists(argv):
    """``argv`` with ``--labels -1,0,1`` written ``--labels=-1,0,1``.

    argparse takes a value that starts with ``-`` for an option unless it is one
    negative number, so a list of classes that starts with a negative one was
    refused ("expected one argument"); a value of such an option that starts with
    ``-`` and a digit or a dot is that option's value.
    """
    argv = list(argv)
    joined = []
    position = 0
    while position < len(argv):
        current = argv[position]
        following = argv[position + 1] if position + 1 < len(argv) else None
        if (current in _LIST_OPTIONS and isinstance(following, str)
                and len(following) > 1 and following[0] == "-"
                and (following[1].isdigit() or following[1] == ".")):
            joined.append(f"{current}={following}")
            position += 2
        else:
            joined.append(current)
            position += 1
    return joined


def tell(command, what, message):
    """One line on standard error: ``python -m sklearn_ordinal COMMAND: WHAT: message``."""
    message = " ".join(str(message).split())
    print(f"python -m sklearn_ordinal {command}: {what}: {message}", file=sys.stderr)


def run_command(command, run, args, advice=str):
    """``run(args)``, its exit code: 0, or 2 for a ValueError or OSError, told on one
    line of standard error (``advice`` rewords its message for the command line).

    Warnings become one line each too, said once with their count: a report of many
    systems and measures may repeat one warning dozens of times.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            run(args)
            code = 0
        except (ValueError, OSError) as error:
            tell(command, "error", advice(str(error)))
            code = 2
    counts = Counter(" ".join(str(warning.message).split()) for warning in caught)
    for message, count in counts.items():
        tell(command, "warning", message + (f" (said {count} times)" if count > 1 else ""))
    return code


def reworded(pairs):
    """``advice`` for :func:`run_command`: a message with each Python spelling of
    ``pairs`` (``(python, option)``) replaced by its option, so that an error of the
    package speaks of the command's options (``--labels``, not ``labels=``)."""

    def advice(message):
        for python, option in pairs:
            message = message.replace(python, option)
        return message

    return advice


def check_output_folders(args):
    """--output and --plot name files in folders that exist: said before the work, not
    after minutes of resampling."""
    for option in ("output", "plot"):
        path = getattr(args, option, None)
        if path is not None and not path.parent.is_dir():
            raise ValueError(f"--{option} {path}: the folder {path.parent} does not exist.")


def output_format(args, formats):
    """--format, else the one of --output's extension if the command writes it (one of
    ``formats``), else text."""
    suffix = args.output.suffix.lower() if args.output else ""
    found = FORMAT_OF_SUFFIX.get(suffix, "text")
    return args.format or (found if found in formats else "text")


def write_output(text, path):
    """``text`` (ended by a newline) to the file ``path``, or to standard output."""
    text = text if text.endswith("\n") else text + "\n"
    if path:
        path.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def plotting():
    """matplotlib, set to draw without a window (the figure goes to a file, also on
    machines without a display); a ValueError naming the install if it is missing."""
    try:
        import matplotlib
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install matplotlib") from None
    matplotlib.use("Agg")
    return matplotlib
