"""The evaluation report as people read it: text within 80 columns, the HTML page,
and the modules' imports pointing down (the chart never imports the report)."""

import ast
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sklearn_ordinal.evaluation as evaluation_package
from sklearn_ordinal import evaluate
from sklearn_ordinal.stats._interval_pvalue import percentile_interval_pvalue
from sklearn_ordinal.evaluation._trivial_row import TRIVIAL

EVALUATION = Path(evaluation_package.__file__).parent


def _imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.module for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None
    }


def test_the_chart_does_not_import_the_report():
    # _report imports _plot (report.plot draws with it); the other way would be a circle.
    assert "_report" not in _imported_modules(EVALUATION / "_plot.py")
    assert "_trivial_row" in _imported_modules(EVALUATION / "_plot.py")
    assert "_plot" in _imported_modules(EVALUATION / "_report.py")


# --- The comparison's p-value agrees with its interval --------------------------------


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(st.integers(-6, 6), min_size=2, max_size=40),
    scale=st.sampled_from([1.0, 0.1, 1e-3]),
    alpha=st.floats(0.001, 0.999),
)
def test_pvalue_below_alpha_exactly_when_the_interval_excludes_zero(values, scale, alpha):
    # Brute force: NumPy's own percentile interval at the level 1 - alpha.
    distribution = np.asarray(values, dtype=float) * scale
    pvalue = percentile_interval_pvalue(distribution)
    low, high = np.quantile(distribution, [alpha / 2, 1 - alpha / 2])
    if abs(pvalue - alpha) > 1e-9:  # at alpha = p an end is 0 itself
        assert (low > 0 or high < 0) == (pvalue < alpha)


def test_pvalue_of_identical_and_of_one_sided_resamples():
    assert percentile_interval_pvalue(np.zeros(99)) == 1.0
    assert percentile_interval_pvalue(np.arange(1.0, 100.0)) == 0.0
    assert percentile_interval_pvalue(-np.arange(1.0, 100.0)) == 0.0
    # Symmetric around 0: the median, p = 1; NaN resamples are left out.
    assert percentile_interval_pvalue(np.r_[np.arange(-49.0, 50.0), np.nan]) == 1.0
    # 0 at the level 10/98 of 99 sorted resamples -10..88: p = 2 * 10 / 98.
    assert np.isclose(percentile_interval_pvalue(np.arange(-10.0, 89.0)), 20 / 98)


# --- Statistics a reader can trust ------------------------------------------------------


Y = np.repeat([0, 1, 2, 3, 4], [30, 25, 20, 15, 10])


def _systems(n_systems, seed=0):
    """Systems of graded quality: each item right with probability 0.4 to 0.8."""
    rng = np.random.default_rng(seed)
    systems = {}
    for k in range(n_systems):
        noise = rng.integers(-1, 2, size=len(Y))
        right = rng.random(len(Y)) < 0.4 + 0.4 * k / max(n_systems - 1, 1)
        systems[f"system_{k:02d}"] = np.clip(np.where(right, Y, Y + noise), 0, 4)
    return systems


def test_identical_predictions_get_identical_intervals_wherever_they_are():
    systems = _systems(3)
    systems["copy of system_00"] = systems["system_00"].copy()
    report = evaluate(Y, systems, measures=["neg_macro_mean_absolute_error", "cem_ord"],
                      n_resamples=199, random_state=0)
    pd.testing.assert_series_equal(report.scores.loc["system_00"],
                                   report.scores.loc["copy of system_00"], check_names=False)
    row = report.comparisons.loc[("cem_ord", "system_00", "copy of system_00")]
    assert (row["difference"], row["low"], row["high"], row["pvalue"]) == (0, 0, 0, 1)
    assert row["better"] == "no difference"


def test_better_is_named_only_below_the_level_after_holm():
    report = evaluate(Y, _systems(4), measures=["neg_mean_absolute_error", "accuracy"],
                      n_resamples=499, random_state=1)
    comparisons = report.comparisons
    alpha = 1 - report.settings["confidence_level"]
    named = comparisons["better"] != "no difference"
    assert (comparisons.loc[named, "pvalue_holm"] < alpha).all()
    assert (comparisons.loc[~named, "pvalue_holm"] >= alpha).all()
    assert named.any() and (~named).any()  # the test can fail both ways
    # The interval of the difference excludes 0 exactly when its own p is below alpha.
    excludes = (comparisons["low"] > 0) | (comparisons["high"] < 0)
    assert (excludes == (comparisons["pvalue"] < alpha)).all()
    # The named system is the one with the better value.
    for (measure, a, b), row in comparisons[named].iterrows():
        sign = 1 if report.greater_is_better[measure] else -1
        assert row["better"] == (a if sign * row["difference"] > 0 else b)
    # Every system is compared with the trivial classifier of each measure too.
    trivial_rows = comparisons.xs(TRIVIAL, level="system_b")
    assert len(trivial_rows) == 2 * 4


def test_worse_than_the_trivial_classifier_is_said():
    # A system wrong on most items loses to the majority class under accuracy.
    bad = np.where(Y == 0, 4, 0)
    report = evaluate(Y, {"bad": bad}, measures=["accuracy"], n_resamples=199,
                      random_state=0)
    assert report.comparisons.loc[("accuracy", "bad", TRIVIAL), "better"] == TRIVIAL
    text = report.to_string()
    assert re.search(r"^bad +\(trivial\) .* worse$", text, re.MULTILINE)


def test_warnings_are_summarized_once_per_measure():
    # A constant system gives every resample the same macro MAE: one warning, summarized.
    systems = {"constant": np.full(len(Y), 2), "other": _systems(1)["system_00"]}
    with pytest.warns(UserWarning) as caught:
        report = evaluate(Y, systems, measures=["neg_macro_mean_absolute_error"],
                          n_resamples=199, random_state=0)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1 and messages[0].startswith("macro_mean_absolute_error: 1 ")
    assert list(report.warnings["system"]) == ["constant"]


# --- A report people read ------------------------------------------------------------


@pytest.mark.parametrize("n_systems", [3, 5, 20])
def test_text_fits_80_columns_for_any_number_of_systems(n_systems):
    groups = np.tile(np.arange(4), len(Y) // 4 + 1)[:len(Y)]
    report = evaluate(Y, _systems(n_systems), groups=groups,
                      measures=["neg_macro_mean_absolute_error", "cem_ord"],
                      n_resamples=99, random_state=0)
    text = report.to_string()
    assert max(len(line) for line in text.splitlines()) <= 80
    # Every system's every cell is there, in its measure's rows.
    for system in report.scores.index:
        for measure in report.measures:
            cell = report.scores.loc[system, measure]
            assert f"{cell['estimate']:.3f} [{cell['low']:.3f}, {cell['high']:.3f}]" in text
    assert "Pooled over the items" in text
    assert str(report) == text and text.endswith("\n")


def test_json_round_trip_keeps_the_new_tables():
    from sklearn_ordinal.evaluation import EvaluationReport

    report = evaluate(Y, _systems(2), measures=["accuracy"], n_resamples=99, random_state=0)
    report.input_note = "Missing predictions: none allowed."
    again = EvaluationReport.from_json(report.to_json())
    assert again.input_note == report.input_note
    assert again.comparisons.equals(report.comparisons)
    for system, matrix in report.confusion_matrices.items():
        np.testing.assert_array_equal(again.confusion_matrices[system].to_numpy(),
                                      matrix.to_numpy())
        assert matrix.to_numpy().sum() == len(Y)
    assert json.loads(report.to_json())["format_version"] == 2
