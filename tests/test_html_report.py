"""The HTML report in a real headless browser: no console message, no network
request, the numbers of the JSON report. Skipped without Chromium
(``apt-get install -y chromium``); ``tools/check_html_report.py`` is the check."""

import importlib.util
from pathlib import Path

import pytest

from sklearn_ordinal import evaluate

TOOL = Path(__file__).resolve().parents[1] / "tools" / "check_html_report.py"
_spec = importlib.util.spec_from_file_location("check_html_report", TOOL)
check_html_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_html_report)

pytestmark = pytest.mark.skipif(check_html_report.browser() is None,
                                reason="Chromium is not installed")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("html")
    y = [0] * 12 + [1] * 10 + [2] * 8
    systems = {"near": [0] * 10 + [1] * 2 + [1] * 9 + [2] + [2] * 7 + [1],
               "far": [0] * 6 + [2] * 6 + [0] * 5 + [1] * 5 + [2] * 8,
               "copy of near": [0] * 10 + [1] * 2 + [1] * 9 + [2] + [2] * 7 + [1]}
    report = evaluate(y, systems, measures=["neg_macro_mean_absolute_error", "accuracy"],
                      n_resamples=199, random_state=0)
    report.to_html(folder / "report.html")
    report.to_json(folder / "report.json")
    return folder


def test_the_page_loads_quietly_and_holds_the_json_numbers(pages):
    problems, n_checked = check_html_report.check(pages / "report.html",
                                                  pages / "report.json")
    assert problems == []
    # 4 rows x 2 measures, 6 comparisons x 2 measures both ways, 3 matrices of 9.
    assert n_checked == 8 + 24 + 27


def test_the_check_fails_on_a_console_error_a_request_and_a_wrong_number(pages):
    page = (pages / "report.html").read_text(encoding="utf-8")
    json_text = (pages / "report.json").read_text(encoding="utf-8")
    # A number of the leaderboard changed in the page only.
    estimate = repr(float(__import__("json").loads(json_text)["scores"][0]["estimate"]))
    assert f'data-value="{estimate}"' in page
    broken = page.replace(f'data-value="{estimate}"', 'data-value="0.5"', 1)
    # A script error, and a request: the policy that forbids it removed first.
    broken = broken.replace('<meta http-equiv="Content-Security-Policy"', "<meta x=")
    broken = broken.replace("</body>", '<img src="http://127.0.0.1:9/x.png">'
                            "<script>undefinedFunction();</script></body>")
    (pages / "broken.html").write_text(broken, encoding="utf-8")
    problems, _ = check_html_report.check(pages / "broken.html", pages / "report.json")
    assert any(problem.startswith("console:") and "undefinedFunction" in problem
               for problem in problems)
    assert "network request: http://127.0.0.1:9/x.png" in problems
    assert any(problem.startswith("leaderboard near,") for problem in problems)
