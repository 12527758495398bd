"""Issue #34, item 9: three identities of the resampling the suite did not hold.

Each was found by breaking the code on purpose: ``np.tile`` for ``np.repeat`` where a
grouped resampling unit's contributions are laid out, a truncated index for the
percentile interval's quantile, and BCa's bias correction counting ties at the
estimate wholly on one side. Each test below fails under that break.
"""

import numpy as np
import pandas as pd
import pytest
from scipy.special import ndtr, ndtri

from sklearn_ordinal.metrics import (
    macro_mean_absolute_error,
    mean_absolute_error,
    ranked_probability_score_loss,
)
from sklearn_ordinal.stats import score_interval
from sklearn_ordinal.metrics._registry import resolve as _resolve
from sklearn_ordinal.stats._intervals import _data_statistic, _layout
from sklearn_ordinal.stats._resampling import interval, jackknife


def _grouped_task(seed=0, n=120, n_groups=25, n_classes=4):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, n)
    y_a = np.clip(y_true + rng.integers(-1, 2, n), 0, n_classes - 1)
    y_b = np.clip(y_true + rng.integers(-2, 3, n), 0, n_classes - 1)
    groups = rng.integers(0, n_groups, n) * 7 + 100  # labels that are not codes
    return rng, y_true, y_a, y_b, groups


def _leave_one_group_out(statistic, units, groups, measure_without):
    """The jackknife of the units against the measure recomputed without each group."""
    values = jackknife(statistic, units)
    codes, distinct = pd.factorize(groups)
    assert len(values) == len(distinct)  # one unit per group
    for code, group in enumerate(distinct):
        keep = groups != group
        assert values[code] == pytest.approx(measure_without(keep), rel=1e-12, abs=1e-12)


def test_grouped_jackknife_of_a_paired_comparison_leaves_out_one_group():
    _, y_true, y_a, y_b, groups = _grouped_task()
    spec = _resolve("neg_macro_mean_absolute_error", {})
    units, parts = _layout(spec, y_true, [y_a, y_b], np.arange(4), None, None, groups)
    difference = _data_statistic(parts)

    def without(keep):
        return (macro_mean_absolute_error(y_true[keep], y_a[keep], labels=np.arange(4))
                - macro_mean_absolute_error(y_true[keep], y_b[keep], labels=np.arange(4)))

    _leave_one_group_out(difference, units, groups, without)


def test_grouped_jackknife_of_real_valued_mae_leaves_out_one_group():
    rng, y_true, _, _, groups = _grouped_task(seed=1)
    real = y_true + rng.normal(0, 0.7, len(y_true))
    weights = rng.uniform(0.5, 2.0, len(y_true))
    spec = _resolve(mean_absolute_error, {})
    units, parts = _layout(spec, y_true, [real], np.arange(4), None, weights, groups)
    statistic = _data_statistic(parts)

    def without(keep):
        return mean_absolute_error(y_true[keep], real[keep], labels=np.arange(4),
                                   sample_weight=weights[keep])

    _leave_one_group_out(statistic, units, groups, without)


def test_grouped_jackknife_of_rps_leaves_out_one_group():
    rng, y_true, _, _, groups = _grouped_task(seed=2)
    proba = rng.dirichlet(np.ones(4), len(y_true))
    spec = _resolve(ranked_probability_score_loss, {})
    units, parts = _layout(spec, y_true, [proba], np.arange(4), None, None, groups)
    statistic = _data_statistic(parts)

    def without(keep):
        return ranked_probability_score_loss(y_true[keep], proba[keep], labels=np.arange(4))

    _leave_one_group_out(statistic, units, groups, without)


@pytest.mark.parametrize("confidence_level", [0.9, 0.95, 0.99])
@pytest.mark.parametrize("n", [999, 1000, 4001])
def test_percentile_interval_is_numpys_quantile_at_the_tail_levels(confidence_level, n):
    # A fixed continuous distribution: distinct values, so every index error shows.
    distribution = np.random.default_rng(n).gamma(2.0, size=n)
    alpha = (1 - confidence_level) / 2
    low, high = interval(np.median(distribution), distribution, "percentile", confidence_level)
    expected = np.quantile(distribution, [alpha, 1 - alpha])
    assert (low, high) == (expected[0], expected[1])


def test_percentile_interval_of_a_measure_is_the_quantile_of_its_resamples():
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 5, 300)
    real = y_true + rng.normal(0, 0.8, 300)  # real-valued MAE: a continuous distribution
    result = score_interval(mean_absolute_error, y_true, real, method="percentile",
                            confidence_level=0.9, n_resamples=999, random_state=0)
    alpha = (1 - 0.9) / 2  # the tail level as the interval computes it (not 0.05)
    expected = np.quantile(result.bootstrap_distribution, [alpha, 1 - alpha])
    np.testing.assert_array_equal(tuple(result.confidence_interval), expected)


@pytest.mark.parametrize("below, tied, above", [(100, 800, 100), (300, 600, 100),
                                                (50, 500, 450)])
def test_bca_bias_correction_splits_ties_at_the_estimate_in_half(below, tied, above):
    rng = np.random.default_rng(below)
    estimate = 0.5
    distribution = np.concatenate([
        rng.uniform(0.0, 0.49, below), np.full(tied, estimate), rng.uniform(0.51, 1.0, above)
    ])
    n = len(distribution)
    # No acceleration: every unit alike to the jackknife.
    low, high = interval(estimate, distribution, "bca", 0.9,
                         jackknife_values=np.zeros(3), counts=np.ones(3, dtype=np.int64))
    z0 = ndtri((below + tied / 2) / n)  # half the ties below the estimate
    z = ndtri(np.array([0.05, 0.95]))
    expected = np.quantile(distribution, ndtr(2 * z0 + z))
    assert (low, high) == pytest.approx(tuple(expected), rel=1e-12)
    if below == above:  # symmetric ties: no bias to correct, BCa is the percentile
        assert (low, high) == pytest.approx(
            tuple(interval(estimate, distribution, "percentile", 0.9)), rel=1e-12)
