"""The evaluation report as people read it: text within 80 columns, the HTML page,
and the modules' imports pointing down (the chart never imports the report)."""

import ast
from pathlib import Path

import sklearn_ordinal.evaluation as evaluation_package

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

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sklearn_ordinal.evaluation._interval_pvalue import percentile_interval_pvalue


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
