"""Check the HTML evaluation report in a real headless browser (Chromium).

    python tools/check_html_report.py [--html REPORT.html --json REPORT.json]
                                      [--screenshot OUT.png]

Without ``--html``, the report of the shipped example (``sklearn_ordinal/evaluation/
data``) is written as HTML and as JSON by ``python -m sklearn_ordinal evaluate`` into a
scratch folder. Chromium then opens the page from ``file://``, and the check fails
(exit code 1, one line per problem) when

- the page logs anything to the console (an error, a warning, an uncaught exception:
  the page itself logs nothing), or its script did not run to its end;
- the page makes a network request (Chromium's network log is read; the browser's
  own background traffic, whose initiator is "not an origin", is not the page's);
- a number of the leaderboard, of the comparison matrices, of a confusion matrix or
  of the calibration table (the RPS's MCB, DSC, UNC), read from the page as the
  browser built it, differs from the JSON report, or the leaderboard lacks a
  (system, measure) of the JSON;
- a system of the JSON's reliability diagrams has no diagram on the page, or it
  draws another number of thresholds.

The shipped example gives class labels only; a second report, of two systems'
class probabilities (one calibrated, one not), covers the calibration section.

Needs Debian's Chromium: ``apt-get update && apt-get install -y chromium``; exits
with code 2 when it is absent. ``--screenshot`` also saves a PNG of the page (the one
in ``docs/_static/`` is made this way).
"""

import argparse
import json
import math
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "sklearn_ordinal" / "evaluation" / "data"
EXAMPLE_FILES = ("gold.tsv", "logistic.tsv", "ridge.tsv")
# The example's grades are words: their order, lowest first.
EXAMPLE_LABELS = "very_low,low,moderate,high,very_high"

FLAGS = (
    "--headless",
    "--no-sandbox",  # Chromium refuses to run as root with its sandbox
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    # The page's console, on standard error.
    "--enable-logging=stderr",
    "--v=0",
)

# The initiator of Chromium's own requests (updates, accounts) in its network log.
_BROWSER_OWN = "not an origin"


def browser():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _run_browser(executable, page, *extra, folder):
    profile = tempfile.mkdtemp(dir=folder)
    command = [executable, *FLAGS, f"--user-data-dir={profile}", *extra, page.as_uri()]
    return subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)


class _Cells(HTMLParser):
    """Every table cell's data-value and text, with its table's caption (the h3 above)."""

    def __init__(self):
        super().__init__()
        self.tables, self.heading, self._in = [], None, None
        self.diagrams, self._diagram = {}, None
        self.ready = False
        self._text = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body" and attrs.get("data-ready") == "yes":
            self.ready = True
        if tag in ("h2", "h3"):
            self._in, self._text = tag, []
        elif tag == "table":
            self.tables.append({"heading": self.heading, "rows": []})
        elif tag == "svg" and "reliability" in (attrs.get("class") or ""):
            self.diagrams[attrs.get("data-system")] = 0
            self._diagram = attrs.get("data-system")
        elif tag == "polyline" and "threshold" in (attrs.get("class") or ""):
            self.diagrams[self._diagram] += 1
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th") and self.tables:
            self.tables[-1]["rows"][-1].append(attrs.get("data-value"))

    def handle_endtag(self, tag):
        if tag == self._in:
            self.heading = "".join(self._text).strip()
            self._in = None

    def handle_data(self, data):
        if self._in:
            self._text.append(data)


def _same(page_value, json_value):
    if json_value is None:
        return page_value in ("", None)
    return page_value not in ("", None) and math.isclose(float(page_value), json_value,
                                                          rel_tol=0, abs_tol=0)


def check_numbers(dom, content):
    """Problems: the page's numbers against the JSON report's."""
    cells = _Cells()
    cells.feed(dom)
    problems = []
    if not cells.ready:
        problems.append("the page's script did not run to its end (body lacks data-ready)")
    measures = [measure["name"] for measure in content["settings"]["measures"]]
    board = next((t for t in cells.tables if t["heading"] == "Leaderboard"), None)
    if board is None:
        return problems + ["no leaderboard table"], 0
    header = board["rows"][0]
    if len(header) != len(measures) + 1:
        problems.append(f"the leaderboard has {len(header) - 1} measure columns, the JSON "
                        f"{len(measures)}")
    rows = {row[0]: row[1:] for row in board["rows"][1:]}
    for record in content["scores"]:
        row = rows.get(record["system"])
        if row is None:
            problems.append(f"the leaderboard lacks the system {record['system']!r}")
            continue
        value = row[measures.index(record["measure"])]
        if not _same(value, record["estimate"]):
            problems.append(f"leaderboard {record['system']}, {record['measure']}: the page "
                            f"shows {value!r}, the JSON {record['estimate']!r}")
    n_checked = len(content["scores"])
    # Comparison matrices: the row system minus the column system.
    by_heading = {t["heading"]: t for t in cells.tables}
    for record in content["comparisons"]:
        direction = next(m["greater_is_better"] for m in content["settings"]["measures"]
                         if m["name"] == record["measure"])
        heading = f"{record['measure']} ({'higher' if direction else 'lower'})"
        table = by_heading.get(heading)
        if table is None:
            problems.append(f"no comparison matrix {heading!r}")
            continue
        names = table["rows"][0][1:]
        matrix = {row[0]: dict(zip(names, row[1:])) for row in table["rows"][1:]}
        for first, second, sign in ((record["system_a"], record["system_b"], 1),
                                    (record["system_b"], record["system_a"], -1)):
            value = matrix.get(first, {}).get(second)
            expected = None if record["difference"] is None else sign * record["difference"]
            if not _same(value, expected):
                problems.append(f"comparison {heading}, {first} - {second}: the page shows "
                                f"{value!r}, the JSON {expected!r}")
            n_checked += 1
    # Confusion matrices, under each system's heading.
    for record in content.get("confusion_matrices") or []:
        table = by_heading.get(record["system"])
        if table is None:
            problems.append(f"no confusion matrix of {record['system']!r}")
            continue
        classes = [str(label) for label in content["classes"]]
        row = next(row for row in table["rows"][1:] if row[0] == str(record["true"]))
        value = row[1 + classes.index(str(record["predicted"]))]
        if not _same(value, record["count"]):
            problems.append(f"confusion matrix {record['system']}: the page shows {value!r} "
                            f"for ({record['true']}, {record['predicted']}), the JSON "
                            f"{record['count']!r}")
        n_checked += 1
    # The calibration table and each system's reliability diagrams.
    calibration = content.get("calibration") or []
    table = by_heading.get("Calibration of the class probabilities")
    if calibration and table is None:
        problems.append("no calibration table")
    elif calibration:
        rows = {row[0]: row[1:] for row in table["rows"][1:]}
        columns = ["score", "miscalibration", "discrimination", "uncertainty"]
        for record in calibration:
            row = rows.get(record["system"])
            for position, column in enumerate(columns):
                value = None if row is None else row[position]
                if not _same(value, record[column]):
                    problems.append(f"calibration {record['system']}, {column}: the page "
                                    f"shows {value!r}, the JSON {record[column]!r}")
                n_checked += 1
    for system, diagram in (content.get("reliability_diagrams") or {}).items():
        drawn = cells.diagrams.get(system)
        if drawn != len(diagram["thresholds"]):
            problems.append(f"reliability diagram of {system!r}: {drawn} thresholds drawn, "
                            f"{len(diagram['thresholds'])} in the JSON")
        n_checked += 1
    return problems, n_checked


def write_probability_example(folder):
    """A report of class probabilities: one system calibrated, one overconfident."""
    import numpy as np

    from sklearn_ordinal import evaluate

    rng = np.random.RandomState(0)
    y_proba = rng.dirichlet([2, 2, 2, 2], size=400)
    y_true = (rng.uniform(size=(400, 1)) > np.cumsum(y_proba, axis=1)).sum(axis=1)
    sharp = y_proba**3 / (y_proba**3).sum(axis=1, keepdims=True)
    report = evaluate(y_true.clip(0, 3), {"calibrated": y_proba, "overconfident": sharp},
                      labels=[0, 1, 2, 3], n_resamples=199, random_state=0)
    paths = (Path(folder) / "proba.html", Path(folder) / "proba.json")
    report.to_html(paths[0])
    report.to_json(paths[1])
    return paths


def page_requests(net_log, page):
    """The URLs the page requested, read from Chromium's network log."""
    log = json.loads(net_log.read_text(encoding="utf-8"))
    start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    urls = []
    for event in log["events"]:
        params = event.get("params", {})
        if event["type"] != start or "url" not in params:
            continue
        if params.get("initiator") == _BROWSER_OWN or params["url"] == page.as_uri():
            continue
        urls.append(params["url"])
    return urls


def console_lines(stderr):
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def check(html_path, json_path, screenshot=None):
    """Problems found (an empty list when the page passes), and the numbers checked."""
    executable = browser()
    if executable is None:
        raise FileNotFoundError("Chromium not found: apt-get update && apt-get install -y "
                                "chromium")
    with tempfile.TemporaryDirectory() as folder:
        net_log = Path(folder) / "net.json"
        result = _run_browser(executable, html_path, f"--log-net-log={net_log}",
                              "--dump-dom", folder=folder)
        problems = [f"console: {line}" for line in console_lines(result.stderr)]
        if result.returncode != 0:
            problems.append(f"Chromium exited with {result.returncode}: "
                            f"{result.stderr.strip()[-300:]}")
        problems += [f"network request: {url}" for url in page_requests(net_log, html_path)]
        content = json.loads(Path(json_path).read_text(encoding="utf-8"))
        found, n_checked = check_numbers(result.stdout, content)
        problems += found
        if screenshot is not None:
            shot = _run_browser(executable, html_path, f"--screenshot={Path(screenshot)}",
                                "--window-size=1280,1500", folder=folder)
            if shot.returncode != 0 or not Path(screenshot).is_file():
                problems.append(f"no screenshot: {shot.stderr.strip()[-300:]}")
    return problems, n_checked


def write_example(folder):
    """The shipped example's report, as HTML and as JSON, by the command line."""
    paths = {}
    for suffix in ("html", "json"):
        paths[suffix] = Path(folder) / f"report.{suffix}"
        subprocess.run(
            [sys.executable, "-m", "sklearn_ordinal", "evaluate",
             *(str(EXAMPLE / name) for name in EXAMPLE_FILES), "--labels", EXAMPLE_LABELS,
             "--seed", "0", "--n-resamples", "999", "--output", str(paths[suffix])],
            check=True, cwd=ROOT, capture_output=True, text=True,
        )
    return paths["html"], paths["json"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--html", type=Path, help="the page (default: the example's)")
    parser.add_argument("--json", type=Path, help="the same report as JSON")
    parser.add_argument("--screenshot", type=Path, help="save a PNG of the page here")
    args = parser.parse_args(argv)
    if (args.html is None) != (args.json is None):
        parser.error("give both --html and --json, or neither")
    if browser() is None:
        print("Chromium not found: apt-get update && apt-get install -y chromium",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        html_path, json_path = ((args.html, args.json) if args.html
                                else write_example(folder))
        problems, n_checked = check(html_path.resolve(), json_path, args.screenshot)
        if args.html is None:
            html_path, json_path = write_probability_example(folder)
            more, n_more = check(html_path.resolve(), json_path)
            problems, n_checked = problems + more, n_checked + n_more
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"OK: no console message, no network request, {n_checked} numbers as in the JSON"
          + (f"; screenshot {args.screenshot}" if args.screenshot else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
