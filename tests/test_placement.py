"""Placement values of VUS, DeLong's variance and the exact jackknife (issue 29).

Checked against tuple enumeration (placement values and VUS), leave-one-out by
recomputing the measure (to 1e-12), an independent O(n^2) DeLong implementation and
``sklearn.metrics.roc_auc_score`` for two classes, the bootstrap's standard error,
and a small seeded coverage simulation (the large one is in
``benchmarks/bench_intervals.py``).
"""

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats
from sklearn.metrics import roc_auc_score

from sklearn_ordinal._score_table import _build_score_table, _class_order
from sklearn_ordinal.metrics import (
    mean_absolute_error,
    u_cons_score,
    u_ovo_score,
    u_pairs_score,
    vus_score,
)
from sklearn_ordinal.metrics._registry import resolve
from sklearn_ordinal.stats import compare_scores, score_interval
from sklearn_ordinal.stats import _intervals
from sklearn_ordinal.stats._placement import (
    delong_variance_in_order,
    influence,
    item_values,
    placements_in_order,
    table_variance,
    vus_placements,
)

RANKING = [vus_score, u_pairs_score, u_ovo_score, u_cons_score]
from sklearn_ordinal.stats._resampling import jackknife


def _kernel(scores, ties):
    """The ranking guide's ties: a non-decreasing tuple counts prod_g 1 / m_g! over its tied
    groups."""
    if np.any(np.diff(scores) < 0):
        return 0.0
    if ties == "strict":
        return float(np.all(np.diff(scores) > 0))
    _, sizes = np.unique(scores, return_counts=True)
    return float(np.prod([1 / math.factorial(m) for m in sizes]))


def _brute_force(y, s, w, ties):
    """VUS and every item's placement value by enumerating all tuples."""
    classes = np.unique(y)
    members = [np.flatnonzero(y == c) for c in classes]
    n = np.array([w[i].sum() for i in members])
    total, through = 0.0, np.zeros(len(y))
    for tup in itertools.product(*members):
        h = _kernel(s[list(tup)], ties) * np.prod(w[list(tup)])
        total += h
        through[list(tup)] += h / w[list(tup)]
    for k, items in enumerate(members):
        through[items] /= np.prod(n) / n[k]
    return total / np.prod(n), through


def _data(seed, n, r, kind, weighted):
    rng = np.random.default_rng(seed)
    y = np.concatenate([np.arange(r), rng.integers(0, r, n - r)])
    s = rng.integers(0, 4, n).astype(float) if kind == "tied" else rng.normal(size=n)
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    return y, s, w


@pytest.mark.parametrize("ties", ["average", "strict"])
@pytest.mark.parametrize("kind", ["tied", "continuous"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_placements_equal_tuple_enumeration(seed, weighted, kind, ties):
    r = 2 + seed % 3
    y, s, w = _data(seed, 6 + seed % 7, r, kind, weighted)
    expected_vus, expected = _brute_force(y, s, np.ones(len(y)) if w is None else w, ties)
    table = _build_score_table(y, s, None, w, "vus_score")
    vus, placements = vus_placements(table, ties)
    assert vus == pytest.approx(expected_vus, abs=1e-12)
    assert vus == pytest.approx(vus_score(y, s, sample_weight=w, ties=ties), abs=1e-12)
    got = item_values(table, placements, y, s)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    items=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 3)),
        min_size=2, max_size=11,
    ),
    ties=st.sampled_from(["average", "strict"]),
)
def test_placements_property(items, ties):
    """Any small data set of up to four classes, scores on four levels (many ties
    across classes), integer weights: placement values and every measure's
    leave-one-out value equal enumeration and recomputation."""
    y, s, w = (np.array(column) for column in zip(*items))
    s = s.astype(float)
    w = w.astype(float)
    if len(np.unique(y)) < 2:
        return
    _, codes = np.unique(y, return_inverse=True)
    expected_vus, expected = _brute_force(codes, s, w, ties)
    table = _build_score_table(codes, s, None, w, "vus_score")
    vus, placements = vus_placements(table, ties)
    assert vus == pytest.approx(expected_vus, abs=1e-12)
    np.testing.assert_allclose(item_values(table, placements, codes, s), expected,
                               atol=1e-12)
    for measure in RANKING:
        found = influence(measure, table, ties)
        i = 0
        keep = np.arange(len(y)) != i
        cell = table.bounds[codes[i]] + np.searchsorted(
            table.scores[table.bounds[codes[i]]:table.bounds[codes[i] + 1]], s[i])
        got = found.leave_one_out(np.array([cell]), np.ldexp(w[:1], -table.weight_exponent))
        if np.sum(w[keep & (codes == codes[i])]) == 0:
            assert np.isnan(got[0])
        elif len(np.unique(codes[keep])) >= 2:
            assert got[0] == pytest.approx(
                measure(codes[keep], s[keep], sample_weight=w[keep], ties=ties), abs=1e-12)


def test_tie_blocks_of_many_classes():
    # All four classes tied at one score: 1/4! of the tuples through it.
    y = np.array([0, 1, 2, 3, 0, 1, 2, 3])
    s = np.array([1.0, 1, 1, 1, 0, 2, 3, 4])
    for ties in ("average", "strict"):
        expected_vus, expected = _brute_force(y, s, np.ones(8), ties)
        table = _build_score_table(y, s, None, None, "vus_score")
        vus, placements = vus_placements(table, ties)
        assert vus == pytest.approx(expected_vus, abs=1e-12)
        np.testing.assert_allclose(item_values(table, placements, y, s), expected,
                                   atol=1e-12)


@pytest.mark.parametrize("measure", RANKING)
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ties", ["average", "strict"])
def test_leave_one_out_equals_recomputing(measure, seed, ties):
    r = 2 + seed % 3
    y, s, w = _data(seed, 30, r, "tied" if seed % 2 else "continuous", seed >= 3)
    w = np.ones(len(y)) if w is None else w
    table = _build_score_table(y, s, None, w, "vus_score")
    found = influence(measure, table, ties)
    assert found.estimate == pytest.approx(
        measure(y, s, sample_weight=w, ties=ties), abs=1e-12)
    cells = np.array([table.bounds[k] + np.searchsorted(
        table.scores[table.bounds[k]:table.bounds[k + 1]], v) for k, v in zip(y, s)])
    # Weights are stored divided by 2 ** weight_exponent.
    got = found.leave_one_out(cells, np.ldexp(w, -table.weight_exponent))
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        if np.sum(w[keep & (y == y[i])]) == 0:
            assert np.isnan(got[i])
            continue
        expected = measure(y[keep], s[keep], sample_weight=w[keep], ties=ties)
        assert got[i] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("measure", RANKING)
@pytest.mark.parametrize("seed", range(4))
def test_gradient_equals_central_differences(measure, seed):
    """d estimate / d w of every cell against the kernel on tables with that cell's
    weight moved by -+ 1e-5."""
    y, s, w = _data(seed, 25, 2 + seed % 3, "tied" if seed % 2 else "continuous", True)
    table = _build_score_table(y, s, None, w, "vus_score")
    table = table._replace(weights=table.weights.astype(np.float64))
    kernel = resolve(measure, {}).from_table
    found = influence(measure, table)
    step = 1e-5
    for cell in range(len(table.weights)):
        moved = [table.weights.copy() for _ in range(2)]
        moved[0][cell] += step
        moved[1][cell] -= step
        difference = (kernel(table._replace(weights=moved[0]))
                      - kernel(table._replace(weights=moved[1]))) / (2 * step)
        assert found.gradient[cell] == pytest.approx(difference, abs=1e-8)


def _delong_quadratic(y, s, s_b=None):
    """DeLong et al. (1988) written out with the n0 x n1 matrix of pair kernels."""
    def components(score):
        neg, pos = score[y == 0], score[y == 1]
        psi = (pos[None, :] > neg[:, None]) + 0.5 * (pos[None, :] == neg[:, None])
        return psi.mean(), psi.mean(axis=0), psi.mean(axis=1)  # V10 (pos), V01 (neg)

    auc, v10, v01 = components(s)
    m, n = len(v10), len(v01)
    if s_b is None:
        return auc, np.var(v10, ddof=1) / m + np.var(v01, ddof=1) / n
    auc_b, v10_b, v01_b = components(s_b)
    s10 = np.cov(np.vstack([v10, v10_b]))
    s01 = np.cov(np.vstack([v01, v01_b]))
    contrast = np.array([1.0, -1.0])
    return auc - auc_b, contrast @ (s10 / m + s01 / n) @ contrast


@pytest.mark.parametrize("measure", RANKING)
@pytest.mark.parametrize("seed", range(5))
def test_two_classes_is_delong(measure, seed):
    rng = np.random.default_rng(seed)
    n = 60 + 40 * seed
    y = rng.integers(0, 2, n)
    s = y * 0.8 + rng.normal(size=n)
    if seed % 2:
        s = np.round(s, 1)  # ties between the classes
    auc, variance = _delong_quadratic(y, s)
    result = score_interval(measure, y, s, method="delong")
    assert result.estimate == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert result.estimate == pytest.approx(auc, abs=1e-12)
    assert result.standard_error**2 == pytest.approx(variance, rel=1e-10)
    z = stats.norm.ppf(0.975)
    assert result.confidence_interval.low == pytest.approx(
        auc - z * np.sqrt(variance), rel=1e-10)
    assert result.method == "delong"


@pytest.mark.parametrize("measure", RANKING)
@pytest.mark.parametrize("seed", range(4))
def test_paired_two_classes_is_delongs_test(measure, seed):
    rng = np.random.default_rng(seed)
    n = 80 + 30 * seed
    y = rng.integers(0, 2, n)
    a = y + rng.normal(size=n)
    b = np.round(a + rng.normal(0, 0.8, n), 1)
    difference, variance = _delong_quadratic(y, a, b)
    result = compare_scores(measure, y, a, b, method="delong")
    assert result.estimate == pytest.approx(difference, abs=1e-12)
    assert result.standard_error**2 == pytest.approx(variance, rel=1e-10)
    expected_p = 2 * stats.norm.sf(abs(difference) / np.sqrt(variance))
    assert result.pvalue == pytest.approx(expected_p, rel=1e-9)
    assert result.estimate_a == pytest.approx(roc_auc_score(y, a), abs=1e-12)


@pytest.mark.parametrize("measure", RANKING)
def test_weights_are_repeated_items(measure):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 50)
    s = np.round(y + rng.normal(size=50), 1)
    w = rng.integers(1, 4, 50)
    weighted = score_interval(measure, y, s, sample_weight=w, method="delong")
    repeated = score_interval(measure, np.repeat(y, w), np.repeat(s, w), method="delong")
    assert weighted.estimate == pytest.approx(repeated.estimate, abs=1e-12)
    assert weighted.standard_error == pytest.approx(repeated.standard_error, rel=1e-10)
    b = s + rng.normal(size=50)
    weighted = compare_scores(measure, y, s, b, sample_weight=w, method="delong")
    repeated = compare_scores(measure, np.repeat(y, w), np.repeat(s, w), np.repeat(b, w),
                              method="delong")
    assert weighted.standard_error == pytest.approx(repeated.standard_error, rel=1e-10)


def test_class_order_path_equals_table_path():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 4, 3000)
    s = y + rng.normal(size=3000)
    order = _class_order(np.arange(4), y, s)
    assert order is not None
    vus, sums, squares = placements_in_order(order)
    table = _build_score_table(y, s, None, None, "vus_score")
    found = influence(vus_score, table)
    assert vus == pytest.approx(found.estimate, abs=1e-12)
    assert delong_variance_in_order(order.counts, sums, squares, vus) == pytest.approx(
        table_variance(table, found.gradient), rel=1e-9)


@pytest.mark.parametrize("measure", RANKING)
@pytest.mark.parametrize("case", ["unweighted", "tied", "weighted", "paired", "paired_w"])
def test_bca_jackknife_equals_recomputing(measure, case):
    """The placement jackknife gives today's jackknife values, one per unit cell."""
    rng = np.random.default_rng(5)
    n = 150
    y = rng.integers(0, 3, n)
    s = y + rng.normal(size=n)
    tied = np.round(s, 1)
    w = rng.integers(1, 4, n).astype(float) if case.endswith("w") or case == "weighted" else None
    systems = {"unweighted": [s], "tied": [tied], "weighted": [tied], "paired": [s, tied],
               "paired_w": [tied, s]}[case]
    spec = resolve(measure, {})
    units, parts = _intervals._layout(spec, y, systems, None, None, w, None)
    statistic = _intervals._data_statistic(parts)
    fast = jackknife(statistic, units)
    del statistic.leave_one_out
    slow = jackknife(statistic, units)
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)


def test_last_item_of_a_class_left_out_is_recomputed():
    y = np.array([0, 0, 0, 1, 1, 1, 2])
    s = np.array([0.1, 0.5, 0.2, 0.4, 0.9, 0.6, 0.8])
    spec = resolve("vus", {})
    units, parts = _intervals._layout(spec, y, [s], None, None, None, None)
    statistic = _intervals._data_statistic(parts)
    fast = jackknife(statistic, units)
    del statistic.leave_one_out
    slow = jackknife(statistic, units)
    np.testing.assert_allclose(fast, slow, atol=1e-12, equal_nan=True)


# U_ovo, like VUS, has no across-class term: one of the two suffices here.
@pytest.mark.parametrize("measure", [vus_score, u_pairs_score, u_cons_score])
def test_standard_error_close_to_bootstrap(measure):
    """Imbalanced classes: U_pairs and U_cons then owe 8-12 % of their variance to
    the random class sizes (the across-class term), which the bootstrap includes."""
    rng = np.random.default_rng(6)
    y = rng.choice(4, 5000, p=[0.6, 0.25, 0.1, 0.05])
    s = y + rng.normal(0, 1.2, 5000)
    delong = score_interval(measure, y, s, method="delong")
    boot = score_interval(measure, y, s, method="percentile", n_resamples=3999,
                          random_state=0)
    # Monte Carlo sd of a bootstrap se from 3999 resamples: about 1.1 %.
    assert delong.standard_error == pytest.approx(boot.standard_error, rel=0.035)


def _population_vus(shift, noise):
    """P(X_0 < X_1 < X_2) for X_k ~ N(k shift, noise^2)."""
    def density(x):
        return (stats.norm.pdf(x, shift, noise) * stats.norm.cdf(x, 0, noise)
                * stats.norm.sf(x, 2 * shift, noise))
    return integrate.quad(density, -np.inf, np.inf)[0]


def test_coverage_small_simulation():
    """400 seeded test sets of 500 items: the 95 % interval covers 92-98 % (MC sd 1.1 %)."""
    truth = _population_vus(1.0, 1.5)
    rng = np.random.default_rng(2029)
    covered = 0
    for _ in range(400):
        y = rng.choice(3, 500, p=[0.5, 0.3, 0.2])
        s = y + rng.normal(0, 1.5, 500)
        low, high = score_interval("vus", y, s, method="delong").confidence_interval
        covered += low <= truth <= high
    assert 0.92 <= covered / 400 <= 0.98


def test_refusals():
    y = np.array([0, 1, 2, 0, 1, 2])
    s = np.array([0.1, 0.4, 0.3, 0.2, 0.5, 0.6])
    with pytest.raises(ValueError, match="mean_absolute_error has none"):
        score_interval(mean_absolute_error, y, y, average="macro", method="delong")
    with pytest.raises(ValueError, match="independent; with groups"):
        score_interval("vus", y, s, groups=[0, 0, 1, 1, 2, 2], method="delong")
    with pytest.raises(ValueError, match="more than one item"):
        score_interval("vus", [0, 1, 1, 2], [0.1, 0.2, 0.3, 0.4], method="delong")
    with pytest.raises(ValueError, match="takes no class_values"):
        score_interval("vus", y, s, class_values=[0, 1, 2], method="delong")


def test_ties_parameter_reaches_the_variance():
    y = np.array([0, 0, 1, 1, 2, 2, 0, 1, 2])
    s = np.array([0.1, 0.3, 0.3, 0.4, 0.5, 0.6, 0.2, 0.5, 0.9])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        average = score_interval("vus", y, s, method="delong")
        strict = score_interval("vus", y, s, method="delong", ties="strict")
    assert average.estimate == pytest.approx(vus_score(y, s), abs=1e-12)
    assert strict.estimate == pytest.approx(vus_score(y, s, ties="strict"), abs=1e-12)
