"""The demo, ``python -m sklearn_ordinal``: it runs, prints its tables, and explains itself."""

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sklearn_ordinal.__main__ import TRIPADVISOR_SHARES, diabetes_grades, main
from sklearn_ordinal.metrics import get_scorer_names, make_ordinal_scorer, mean_zero_one_error
from sklearn_ordinal.metrics._scorer import _SCORERS


def _run(argv):
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        assert main(argv) == 0
    return output.getvalue()


@pytest.fixture(scope="module")
def demo_output():
    return _run([])  # what the README's first command runs


def _rows(output, measure):
    """The comparison rows of one measure: (model, trivial, trivial class, improvement)."""
    pattern = rf"^  {measure} +(-?\d+\.\d+) +(-?\d+\.\d+) +(\S+) +([+-]\d+\.\d)%$"
    return [
        (float(model), float(trivial), classes, float(improvement))
        for model, trivial, classes, improvement in re.findall(pattern, output, re.M)
    ]


def test_task_has_tripadvisor_class_sizes():
    X, y = diabetes_grades()
    assert X.shape == (442, 10)
    counts = np.bincount(y, minlength=6)[1:]
    assert counts.tolist() == [17, 31, 43, 151, 200]
    np.testing.assert_allclose(counts / counts.sum(), TRIPADVISOR_SHARES, atol=0.01)


def test_demo_prints_selection_and_comparison_tables(demo_output):
    assert "Each measure selects" in demo_output
    assert re.search(r"^  neg_macro_mean_absolute_error +-\d\.\d{3}  C=", demo_output, re.M)
    assert "cem_ord" in demo_output or "cem_ord" not in get_scorer_names()
    # One comparison table per distinct selected model, one row per measure.
    n_models = demo_output.count("cross-validated against the trivial classifier")
    assert n_models >= 1
    micro = _rows(demo_output, "neg_mean_absolute_error")
    macro = _rows(demo_output, "neg_macro_mean_absolute_error")
    assert len(micro) == len(macro) == n_models
    # SPEC 2 on the demo's data: the trivial class for MAE^M is the middle grade with
    # MAE^M 1.2; for MAE^mu it is grade 4, as on TripAdvisor-15763.
    assert all(row[1:3] == (-1.2, "3") for row in macro)
    assert all(row[2] == "4" for row in micro)
    for model, trivial, _, improvement in micro + macro:
        assert improvement == pytest.approx(100 * (model - trivial) / abs(trivial), abs=0.2)
    assert "Finished in" in demo_output


def test_demo_shows_what_the_readme_says(demo_output):
    # README and user guide: the micro MAE selects a model that loses to the trivial
    # classifier under the macro MAE, and rates the model the macro MAE selects as
    # worse than predicting grade 4 for everyone.
    sections = demo_output.split("\nModel ")[1:]
    by_selector = {}
    for section in sections:
        selector = re.search(r"selected by ([^)]*)\)", section).group(1)
        for name in selector.split(", "):
            by_selector[name] = section
    micro, macro = "neg_mean_absolute_error", "neg_macro_mean_absolute_error"
    assert by_selector[micro] != by_selector[macro]
    assert _rows(by_selector[micro], macro)[0][3] < 0 < _rows(by_selector[micro], micro)[0][3]
    assert _rows(by_selector[macro], micro)[0][3] < 0 < _rows(by_selector[macro], macro)[0][3]


def test_demo_picks_up_new_measures_from_the_registry(monkeypatch):
    # cem_ord is the third measure as soon as the registry holds it.
    fake = make_ordinal_scorer(mean_zero_one_error, greater_is_better=False)
    monkeypatch.setitem(_SCORERS, "cem_ord", fake)
    output = _run(["--cv", "2"])
    assert re.search(r"^\[3/3\] GridSearchCV under cem_ord", output, re.M)
    assert len(_rows(output, "cem_ord")) >= 1


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--cv", "1"], "needs 2 to 17 folds"),
        (["--cv", "1000"], "the smallest grade has 17 patients"),
        (["--cv", "five"], "not a whole number"),
        (["--n-jobs", "0"], "positive number of jobs, or -1"),
        (["--n-jobs", "-3"], "positive number of jobs, or -1"),
    ],
)
def test_bad_option_is_a_usage_error(capsys, argv, message):
    # argparse's exit 2 with a one-line message, never a traceback from deep inside.
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_help_from_the_command_line():
    result = subprocess.run(
        [sys.executable, "-m", "sklearn_ordinal", "--help"],
        capture_output=True, text=True, check=True, timeout=120,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert result.stdout.startswith("usage: python -m sklearn_ordinal")
    assert "trivial classifier" in result.stdout
    assert "TripAdvisor-15763" in result.stdout
