"""Every ``python`` code block of the documentation and the README runs.

The doctest-style blocks (``>>>``) are run by pytest's ``--doctest-glob=*.rst``; this
file runs the others: ``.. code-block:: python`` in ``docs/`` and the fenced
``python`` blocks of ``README.md``, so that no snippet a reader copies can rot.

The blocks of one page run in order in one namespace, as a reader would paste them.
Two reST comments (invisible in the built pages) steer a block:

- ``.. snippet-setup:`` followed by an indented body: code run before the next
  block, to define what the page's prose has already introduced (``X``, ``scores``);
- ``.. snippet-skip: <reason>``: the next block is not run (it needs a cluster, the
  network or the reader's files); the reason shows in the test report.

In the README, ``<!-- snippet-skip: <reason> -->`` before a fence does the same.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

_DIRECTIVE = re.compile(r"^(\s*)\.\. code(?:-block)?::\s*python\s*$")
_SETUP = re.compile(r"^(\s*)\.\. snippet-setup:\s*$")
_SKIP = re.compile(r"^\s*\.\. snippet-skip:\s*(.+?)\s*$")
_MD_SKIP = re.compile(r"^<!--\s*snippet-skip:\s*(.+?)\s*-->\s*$")


class Snippet:
    def __init__(self, source, line, code, kind="block", skip=None):
        self.source, self.line, self.code, self.kind, self.skip = (
            source, line, code, kind, skip)


def _indented_body(lines, start, indent):
    """The lines after ``start`` indented deeper than ``indent``, dedented."""
    body, i = [], start + 1
    while i < len(lines):
        line = lines[i]
        if line.strip() and len(line) - len(line.lstrip()) <= len(indent):
            break
        body.append(line)
        i += 1
    while body and not body[-1].strip():
        body.pop()
    # Options of the directive (":caption: ...") come first.
    while body and body[0].strip().startswith(":"):
        body.pop(0)
    text = "\n".join(body)
    width = min((len(b) - len(b.lstrip()) for b in body if b.strip()), default=0)
    return "\n".join(b[width:] for b in text.split("\n")), i


def rst_snippets(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    snippets, skip, i = [], None, 0
    while i < len(lines):
        line = lines[i]
        if match := _SKIP.match(line):
            skip = match.group(1)
        elif match := _SETUP.match(line):
            code, i = _indented_body(lines, i, match.group(1))
            snippets.append(Snippet(path, i, code, kind="setup"))
            continue
        elif match := _DIRECTIVE.match(line):
            code, end = _indented_body(lines, i, match.group(1))
            if ">>>" not in code:  # doctest-style: run by --doctest-glob
                snippets.append(Snippet(path, i + 1, code, skip=skip))
            skip, i = None, end
            continue
        i += 1
    return snippets


def markdown_snippets(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    snippets, skip, i = [], None, 0
    while i < len(lines):
        if match := _MD_SKIP.match(lines[i]):
            skip = match.group(1)
        elif lines[i].strip() == "```python":
            end = i + 1
            while lines[end].strip() != "```":
                end += 1
            snippets.append(Snippet(path, i + 1, "\n".join(lines[i + 1:end]), skip=skip))
            skip, i = None, end
        i += 1
    return snippets


def pages():
    found = [path for path in sorted(DOCS.rglob("*.rst"))
             if not {"_build", "auto_examples"} & set(path.relative_to(DOCS).parts)]
    return [*found, ROOT / "README.md"]


def snippets_of(path):
    return markdown_snippets(path) if path.suffix == ".md" else rst_snippets(path)


PAGES = [path for path in pages() if any(s.kind == "block" for s in snippets_of(path))]


def test_the_runner_finds_the_snippets():
    # A parser that silently finds nothing would pass every page.
    names = {path.name for path in PAGES}
    assert {"README.md", "across_datasets.rst", "chunks.rst"} <= names
    readme = [s for s in markdown_snippets(ROOT / "README.md") if s.kind == "block"]
    assert len(readme) >= 2


@pytest.mark.parametrize("path", PAGES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_python_block_runs(path, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib").use("Agg")
    monkeypatch.chdir(tmp_path)  # a snippet that writes a file writes it here
    namespace = {"__name__": "__snippet__"}
    for snippet in snippets_of(path):
        where = f"{path.relative_to(ROOT)}:{snippet.line}"
        if snippet.skip is not None:
            continue  # reported by test_skipped_blocks_say_why
        try:
            exec(compile(snippet.code, where, "exec"), namespace)
        except Exception as error:
            raise AssertionError(f"the {snippet.kind} at {where} fails:\n{snippet.code}") \
                from error


SKIPPED = [snippet for path in pages() for snippet in snippets_of(path)
           if snippet.skip is not None]


@pytest.mark.parametrize(
    "snippet", SKIPPED, ids=lambda s: f"{s.source.relative_to(ROOT)}:{s.line}")
def test_skipped_blocks_say_why(snippet):
    # One visible skip per block not run, with its reason (pytest -ra lists them).
    assert snippet.skip.strip(), "a snippet-skip needs a reason"
    pytest.skip(f"{snippet.source.relative_to(ROOT)}:{snippet.line}: {snippet.skip}")


def test_the_gallery_sections_are_the_example_folders():
    # docs/contributing.rst lists the sections; conf.py's order must name every folder.
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    order = re.findall(r'"\.\./examples/(\w+)"', conf)
    folders = sorted(path.parent.name for path in (ROOT / "examples").glob("*/README.rst"))
    assert sorted(order) == folders
    contributing = (DOCS / "contributing.rst").read_text(encoding="utf-8")
    sentence = contributing[contributing.index("The sections are"):]
    sentence = sentence[:sentence.index(", in the order")]
    assert re.findall(r"``(\w+)``", sentence) == order
