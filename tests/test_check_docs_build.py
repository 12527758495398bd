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


def test_references_outside_the_repository_are_found():
    # Spelled in pieces so that this file does not cite what it tests for.
    spec, section, number, shared = ("SPEC" + ".md", "SPEC" + " section 2", "SPEC" + " 1",
                                     "../shared" + "/")
    text = f"see {spec}, ``{section}``, {number} and {shared}papers"
    assert check_docs_build.outside_references(text) == [spec, section, number, shared]
    assert check_docs_build.outside_references("SPECIAL 3, a spec, docs/shared.rst") == []


def test_no_source_points_outside_the_repository():
    assert check_docs_build.check_sources() == []


def test_the_source_scan_reads_the_package_and_the_docs():
    files = {path.relative_to(check_docs_build.ROOT).as_posix()
             for path in check_docs_build.source_files()}
    assert {"README.md", "docs/user_guide/conventions.rst",
            "sklearn_ordinal/metrics/_error.py", "tools/check_docs_build.py"} <= files
