"""The docs check finds the build machine's absolute paths in a built page."""

import importlib.util
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "tools" / "check_docs_build.py"
_spec = importlib.util.spec_from_file_location("check_docs_build", TOOL)
check_docs_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_docs_build)


def test_absolute_paths_of_the_build_machine_are_found():
    machine = check_docs_build._machine_paths()
    root = str(Path(__file__).resolve().parents[1])
    warning = ("<pre>/opt/env/lib/python3.11/site-packages/sklearn/utils/"
               "_param_validation.py:218: UserWarning: ...</pre>")
    assert check_docs_build.absolute_paths(warning, machine) == [
        "/opt/env/lib/python3.11/site-packages/"]
    assert root in check_docs_build.absolute_paths(f"<pre>{root}/examples/a.py:3:</pre>",
                                                   machine)
    # Words and relative links are not paths of the machine.
    assert check_docs_build.absolute_paths(
        '<p>site-packages</p><a href="../_static/x.png">', machine) == []
