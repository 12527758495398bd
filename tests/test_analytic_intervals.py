"""The analytic interval (method="normal") and method="auto" (#45).

Each analytic variance is checked against the variance of the influence values
computed directly through the public measure (the derivative of the measure when
one item's weight grows, Efron's infinitesimal jackknife), against the jackknife,
and against the bootstrap's variance within Monte Carlo error.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.special import ndtr, ndtri
from scipy.stats import DegenerateDataWarning

from sklearn_ordinal.metrics._registry import resolve
from sklearn_ordinal.stats import compare_scores, score_interval
from sklearn_ordinal.stats._method import (
    _SMALLEST_CLASS,
    AUTO_ANALYTIC_FROM,
    auto_method,
    smallest_class,
)

LABELS = np.arange(5)


def _data(n, seed, kind):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 5, n)
    y[:5] = LABELS  # every class present
    real = y + rng.normal(0, 1.0, n) + 0.3 * rng.standard_exponential(n)
    if kind == "labels":
        return y, np.clip(np.rint(real), 0, 4).astype(int)
    if kind == "real":
        return y, real
    logits = -((LABELS[None, :] - real[:, None]) ** 2) / 2
    proba = np.exp(logits)
    return y, proba / proba.sum(axis=1, keepdims=True)


CASES = [
    ("neg_mean_absolute_error", "real"),
    ("neg_macro_mean_absolute_error", "real"),
    ("neg_root_mean_squared_error", "real"),
    ("neg_macro_root_mean_squared_error", "real"),
    ("neg_ranked_probability_score", "proba"),
    ("neg_macro_mean_absolute_error", "labels"),
    ("quadratic_weighted_kappa", "labels"),
    ("cem_ord", "labels"),
    ("accuracy", "labels"),
    ("linear_weighted_kappa", "labels"),
    ("neg_macro_mean_zero_one_error", "labels"),
]


def _measure(name, y, output, weight):
    spec = resolve(name, {})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(spec.function(y, output, labels=LABELS, sample_weight=weight))


def _influence_values(name, y, output, eps=1e-5, sample_weight=None):
    """``U_i``: the derivative of the measure as the data's distribution moves towards
    item ``i``, by the public measure with each item's weight ``w_j`` times
    ``(1 - e) + e N [j = i]`` (a weighted item is one unit, as the bootstrap draws it)."""
    n = len(y)
    base = np.ones(n) if sample_weight is None else np.asarray(sample_weight, float)
    values = np.empty(n)
    for i in range(n):
        moved = []
        for e in (eps, -eps):
            weight = np.full(n, 1 - e)
            weight[i] += e * n
            moved.append(_measure(name, y, output, weight * base))
        values[i] = (moved[0] - moved[1]) / (2 * eps)
    return values


@pytest.mark.parametrize("name, kind", CASES)
def test_the_variance_is_that_of_the_influence_values_computed_directly(name, kind):
    y, output = _data(60, 0, kind)
    result = score_interval(name, y, output, labels=LABELS, method="normal")
    u = _influence_values(name, y, output)
    n = len(y)
    assert result.method == "normal"
    assert result.bootstrap_distribution.size == 0
    assert result.standard_error**2 == pytest.approx(np.sum(u**2) / (n * (n - 1)), rel=1e-5)
    z = ndtri(0.975)
    low, high = result.confidence_interval
    spec = resolve(name, {})
    assert low == pytest.approx(max(result.estimate - z * result.standard_error,
                                    spec.value_range[0]), rel=1e-12, abs=1e-12)
    assert high == pytest.approx(min(result.estimate + z * result.standard_error,
                                     spec.value_range[1]), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("name, kind", CASES)
def test_a_weighted_item_is_one_unit_of_the_variance(name, kind):
    y, output = _data(40, 1, kind)
    weight = np.random.default_rng(2).uniform(0.2, 3.0, len(y))
    result = score_interval(name, y, output, labels=LABELS, sample_weight=weight,
                            method="normal")
    u = _influence_values(name, y, output, sample_weight=weight)
    n = len(y)
    assert result.standard_error**2 == pytest.approx(np.sum(u**2) / (n * (n - 1)), rel=1e-5)


@pytest.mark.parametrize("name, kind", [("neg_mean_absolute_error", "real"),
                                        ("neg_ranked_probability_score", "proba"),
                                        ("accuracy", "labels")])
def test_a_mean_over_items_has_the_jackknife_variance_exactly(name, kind):
    # Linear in the units: the jackknife's variance is s^2 / N, and so is the analytic.
    y, output = _data(80, 3, kind)
    n = len(y)
    leave_one_out = np.array([_measure(name, np.delete(y, i), np.delete(output, i, axis=0),
                                       None) for i in range(n)])
    jackknife = (n - 1) / n * np.sum((leave_one_out - leave_one_out.mean()) ** 2)
    result = score_interval(name, y, output, labels=LABELS, method="normal")
    assert result.standard_error**2 == pytest.approx(jackknife, rel=1e-6)


@pytest.mark.parametrize("name, kind", CASES)
def test_the_jackknife_agrees_to_first_order(name, kind):
    y, output = _data(300, 4, kind)
    n = len(y)
    leave_one_out = np.array([_measure(name, np.delete(y, i), np.delete(output, i, axis=0),
                                       None) for i in range(n)])
    jackknife = (n - 1) / n * np.sum((leave_one_out - leave_one_out.mean()) ** 2)
    result = score_interval(name, y, output, labels=LABELS, method="normal")
    assert result.standard_error**2 == pytest.approx(jackknife, rel=0.05)


@pytest.mark.parametrize("name, kind", CASES)
def test_the_bootstrap_variance_agrees_within_monte_carlo_error(name, kind):
    y, output = _data(800, 5, kind)
    analytic = score_interval(name, y, output, labels=LABELS, method="normal")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bootstrap = score_interval(name, y, output, labels=LABELS, method="percentile",
                                   n_resamples=4000, random_state=0)
    # The variance of 4000 resamples has a relative sd of sqrt(2 / 4000) = 2.2 %.
    assert analytic.standard_error**2 == pytest.approx(bootstrap.standard_error**2, rel=0.12)


@pytest.mark.parametrize("name, kind", CASES)
def test_identical_systems_differ_with_no_variance(name, kind):
    y, output = _data(100, 6, kind)
    with pytest.warns(DegenerateDataWarning, match="no sampling variation"):
        result = compare_scores(name, y, output, output.copy(), labels=LABELS,
                                method="normal")
    assert result.estimate == 0
    assert result.standard_error == 0
    assert result.pvalue == 1.0
    assert tuple(result.confidence_interval) == (0.0, 0.0)


@pytest.mark.parametrize("name, kind", CASES)
def test_the_paired_variance_is_that_of_the_paired_influence_values(name, kind):
    y, a = _data(60, 7, kind)
    _, b = _data(60, 8, kind)
    b = b if kind == "proba" else np.where(np.arange(60) % 3 == 0, a, b)
    y = _data(60, 7, kind)[0]
    result = compare_scores(name, y, a, b, labels=LABELS, method="normal")
    u = _influence_values(name, y, a) - _influence_values(name, y, b)
    n = len(y)
    assert result.standard_error**2 == pytest.approx(np.sum(u**2) / (n * (n - 1)), rel=1e-5)
    assert result.test == "normal"
    assert result.pvalue == pytest.approx(
        2 * ndtr(-abs(result.estimate) / result.standard_error), rel=1e-12)
    assert result.estimate == pytest.approx(result.estimate_a - result.estimate_b)


@pytest.mark.parametrize("name", ["neg_mean_absolute_error", "neg_root_mean_squared_error"])
def test_independent_systems_add_their_variances(name):
    # Two regressors whose errors are independent of each other and of the class:
    # the covariance of their influence values is 0 up to its sampling error
    # (1 / sqrt(n) of the product of the sds, 0.5 % here).
    rng = np.random.default_rng(9)
    n = 40000
    y = rng.integers(0, 5, n)
    a, b = (y + rng.normal(0, s, n) for s in (0.8, 1.2))
    alone = [score_interval(name, y, s, method="normal").standard_error ** 2 for s in (a, b)]
    paired = compare_scores(name, y, a, b, method="normal")
    assert paired.standard_error**2 == pytest.approx(sum(alone), rel=0.03)
    # And a system paired with a shifted copy of itself is as variable as the shift.
    shifted = compare_scores("neg_mean_absolute_error", y, a, a + 5.0, method="normal")
    assert shifted.standard_error**2 == pytest.approx(
        np.var(np.abs(a - y) - np.abs(a + 5.0 - y), ddof=1) / n, rel=1e-6)


def test_a_paired_label_comparison_is_the_same_on_the_fast_and_general_paths():
    y, a = _data(200, 10, "labels")
    _, b = _data(200, 11, "labels")
    fast = compare_scores("quadratic_weighted_kappa", y, a, b, method="normal")
    general = compare_scores("quadratic_weighted_kappa", y, a, b, method="normal",
                             sample_weight=np.ones(len(y)))
    assert fast.standard_error == pytest.approx(general.standard_error, rel=1e-6)


def test_groups_are_the_units_of_the_variance():
    y, output = _data(120, 12, "real")
    groups = np.arange(120) // 4
    result = score_interval("neg_mean_absolute_error", y, output, groups=groups,
                            method="normal")
    errors = np.abs(output - y)
    per_group = np.bincount(groups, errors)
    size = np.bincount(groups)
    mean = errors.mean()
    g = len(size)
    # The ratio estimator's linearization: (sum_g e_g - mean n_g) / N.
    u = g * (per_group - mean * size) / len(y)
    assert result.standard_error**2 == pytest.approx(np.sum(u**2) / (g * (g - 1)), rel=1e-5)


def test_the_ranking_measures_normal_interval_is_delong():
    rng = np.random.default_rng(13)
    y = rng.integers(0, 4, 400)
    score = y + rng.normal(0, 1, 400)
    normal = score_interval("vus", y, score, method="normal")
    delong = score_interval("vus", y, score, method="delong")
    assert normal.method == "normal" and delong.method == "delong"
    assert normal.standard_error == delong.standard_error
    assert normal.confidence_interval == delong.confidence_interval


def test_delong_is_refused_for_the_other_measures():
    y, output = _data(50, 14, "real")
    with pytest.raises(ValueError, match="has none. Use method='normal'"):
        score_interval("neg_mean_absolute_error", y, output, method="delong")


def test_auto_takes_the_analytic_interval_on_large_data_only():
    start = AUTO_ANALYTIC_FROM["real-valued distance"]
    y, output = _data(start - 1, 15, "real")
    assert score_interval("neg_mean_absolute_error", y, output, n_resamples=99,
                          random_state=0).method == "bca"
    y, output = _data(start, 15, "real")
    assert score_interval("neg_mean_absolute_error", y, output).method == "normal"
    assert compare_scores("neg_mean_absolute_error", y, output, output + 0.1).method == "normal"
    # A class of fewer items than the rule asks: BCa, whatever the size.
    y[y == 0] = 1
    y[:_SMALLEST_CLASS["real-valued distance"] - 1] = 0
    assert score_interval("neg_macro_mean_absolute_error", y, output, n_resamples=99,
                          random_state=0).method == "bca"


def test_auto_follows_the_rule_of_each_family():
    for name, kind, family in [("cem_ord", "labels", "label"),
                               ("neg_ranked_probability_score", "proba", "probabilistic")]:
        start = AUTO_ANALYTIC_FROM[family]
        spec = resolve(name, {})
        assert auto_method(spec, start - 1, 10**6, False) == "bca"
        assert auto_method(spec, start, 10**6, False) == "normal"
        assert auto_method(spec, start, _SMALLEST_CLASS[family] - 1, False) == "bca"


def test_auto_keeps_the_bootstrap_for_maxima_and_minima_over_classes():
    for name in ("minimum_sensitivity", "neg_max_mean_absolute_error"):
        assert auto_method(resolve(name, {}), 10**6, 10**5, False) == "bca"
    assert auto_method(resolve("vus", {}), 10**6, 10**5, True) == "bca"
    assert auto_method(resolve("vus", {}), 10**6, 10**5, False) == "delong"
    assert auto_method(resolve("cem_ord", {}), 10**6, 10**5, True) == "normal"


def test_compare_to_trivial_takes_the_analytic_comparison():
    from sklearn.linear_model import LinearRegression

    from sklearn_ordinal.model_selection import compare_to_trivial

    rng = np.random.default_rng(16)
    X = rng.normal(size=(600, 3))
    y = np.clip(np.rint(X[:, 0] + 2 + rng.normal(0, 0.7, 600)), 0, 4).astype(int)
    tables = {method: compare_to_trivial(
        LinearRegression(), X, y, scoring="neg_mean_absolute_error", cv=3,
        confidence_level=0.95, n_resamples=999, random_state=0, method=method)
        for method in ("normal", "percentile")}
    normal, percentile = (tables[m].iloc[0] for m in ("normal", "percentile"))
    assert normal["difference"] == percentile["difference"]
    # Symmetric about the difference, with the z test's p-value.
    half = normal["difference_high"] - normal["difference"]
    assert normal["difference"] - normal["difference_low"] == pytest.approx(half)
    se = half / ndtri(0.975)
    assert normal["pvalue"] == pytest.approx(2 * ndtr(-abs(normal["difference"]) / se))
    assert half == pytest.approx(
        (percentile["difference_high"] - percentile["difference_low"]) / 2, rel=0.15)


def test_smallest_class_counts_items_and_effective_items_under_weights():
    assert smallest_class([0, 0, 1, 2, 2, 2], None) == 1
    # Kish's (sum w)^2 / sum w^2 per class: class 0 (1, 2) holds 9/5 items, class 1
    # one, class 2 one; a class of zero weight is not held.
    assert smallest_class([0, 0, 1, 2], [1.0, 2.0, 5.0, 0.5]) == 1.0
    assert smallest_class(["a", "b", "b"], [0.0, 1.0, 1.0]) == 2.0
    assert smallest_class([0, 0, 1, 1, 1], [1.0, 3.0, 2.0, 2.0, 2.0]) == pytest.approx(1.6)
    # Equal weights: the count, whatever their scale (the total weight would give 0.3
    # or 3e300 items).
    y = np.repeat([0, 1, 2], [40, 30, 50])
    for scale in (1 / 120, 1.0, 1e300, 1e-300):
        assert smallest_class(y, np.full(120, scale)) == pytest.approx(30)
    # A class carried by one heavy item counts as about one item.
    weights = np.ones(120)
    weights[40] = 1e6
    assert smallest_class(y, weights) == pytest.approx(1.0, abs=1e-3)


def test_auto_reads_the_gold_as_the_measures_do():
    # An ordered Categorical in a Series or a one-column DataFrame, int8 and uint64
    # labels: the smallest class and the interval of the 1-D array (a DataFrame got
    # pandas' "Buffer has wrong number of dimensions" under method="auto").
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 400)
    pred = np.clip(y + rng.integers(-1, 2, 400), 0, 2)
    names = np.array(["lo", "mid", "hi"])
    order = ["lo", "mid", "hi"]
    gold = pd.Categorical(names[y], categories=order, ordered=True)
    predicted = pd.Categorical(names[pred], categories=order, ordered=True)
    expected = score_interval("neg_macro_mean_absolute_error", y, pred, n_resamples=199,
                              random_state=0)
    for y_true, y_pred in ((pd.Series(gold), predicted), (pd.DataFrame({"y": gold}), predicted),
                           (y.astype(np.int8), pred.astype(np.int8)),
                           (y.astype(np.uint64), pred.astype(np.uint64))):
        assert smallest_class(y_true, None) == np.bincount(y).min()
        result = score_interval("neg_macro_mean_absolute_error", y_true, y_pred,
                                n_resamples=199, random_state=0)
        assert (result.method, result.estimate) == (expected.method, expected.estimate)
        assert result.confidence_interval == pytest.approx(expected.confidence_interval)


def test_auto_picks_the_same_method_whatever_the_weights_scale():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 600)
    pred = np.clip(y + rng.integers(-1, 2, 600), 0, 2)
    methods = set()
    for scale in (1 / 600, 1.0, 1e250):
        methods.add(score_interval("neg_macro_mean_absolute_error", y, pred,
                                   sample_weight=np.full(600, scale), n_resamples=199,
                                   random_state=0).method)
    assert methods == {"normal"}


