"""Every performance figure of the docs is a number that a benchmark script printed.

``docs/benchmarks.rst`` includes the recorded outputs of ``benchmarks/results/``
(``tools/record_benchmarks.py`` writes them). The other pages state costs as
complexity and ratios; a timing or a speed ratio written in their prose must appear
in one of the recorded outputs, so that no figure is typed in by hand and left to
go stale.
"""

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
PAGE = ROOT / "docs" / "benchmarks.rst"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


record_benchmarks = _load("record_benchmarks")
check_docs_build = _load("check_docs_build")

# A timing (12 ms, 4.2 s, 3 seconds, 36 minutes) or a speed ratio (6.5x, 160 times).
_FIGURE = re.compile(r"\b\d+(?:[.,]\d+)?(?:\s?(?:ms|s|seconds|minutes|times)\b|x\b)")
# A target or a goal just before a figure makes it a promise, not a measurement.
_PROMISE = re.compile(r"\b(?:target|goal)", re.IGNORECASE)


def performance_figures(text):
    """The timings and speed ratios stated in a text, with their line numbers."""
    figures = []
    for number, line in enumerate(text.splitlines(), 1):
        figures += [(number, match.group(0)) for match in _FIGURE.finditer(line)
                    if not _PROMISE.search(line[max(0, match.start() - 25):match.start()])]
    return figures


def user_pages():
    docs = ROOT / "docs"
    pages = [path for path in sorted(docs.rglob("*.rst"))
             if not {"_build", "auto_examples", "generated"} & set(path.relative_to(docs).parts)
             and path != PAGE]
    return [*pages, ROOT / "README.md", *sorted((ROOT / "examples").rglob("*.py"))]


def recorded_output():
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(RESULTS.glob("*.txt")))


def test_the_figure_finder_finds_timings_and_ratios():
    text = ("took 34 to 51 ms\nabout 6.5 times one call, 160x less than SciPy (target: 20 times)"
            "\n1280 x 2000 pixels")
    assert [figure for _, figure in performance_figures(text)] == ["51 ms", "6.5 times",
                                                                  "160x"]


@pytest.mark.parametrize("page", user_pages(), ids=lambda path: str(path.relative_to(ROOT)))
def test_a_page_states_only_recorded_figures(page):
    recorded = recorded_output()
    stale = [f"{page.relative_to(ROOT)}:{number}: {figure}"
             for number, figure in performance_figures(page.read_text(encoding="utf-8"))
             if figure.replace(" ", "") not in recorded.replace(" ", "")]
    assert not stale, ("performance figures not in benchmarks/results/ (state the cost as "
                       "complexity and link to the benchmarks page): " + "; ".join(stale))


def test_every_recorded_output_is_on_the_benchmarks_page():
    page = PAGE.read_text(encoding="utf-8")
    included = set(re.findall(r"literalinclude:: \.\./benchmarks/results/(\w+)\.txt", page))
    reproducing = (ROOT / "docs" / "user_guide" / "reproducing.rst").read_text(encoding="utf-8")
    included |= set(re.findall(r"benchmarks/results/(\w+)\.txt", reproducing))
    recorded = {path.stem for path in RESULTS.glob("*.txt")}
    assert recorded == set(record_benchmarks.RUNS)
    assert recorded <= included


@pytest.mark.parametrize("name", sorted(record_benchmarks.RUNS))
def test_a_recorded_output_says_how_it_was_made(name):
    text = (RESULTS / f"{name}.txt").read_text(encoding="utf-8")
    command, machine = text.splitlines()[:2]
    assert command == " ".join(["$ python", f"benchmarks/{record_benchmarks.script_of(name)}.py",
                                *record_benchmarks.RUNS[name]])
    assert re.match(r"# \d{4}-\d\d-\d\d \d\d:\d\d UTC; \d+ cores", machine)
    assert "Traceback" not in text, f"{name} failed when it was recorded"
    # No path of the machine it ran on: the docs include these files verbatim.
    assert check_docs_build.absolute_paths(text, check_docs_build._machine_paths()) == []
