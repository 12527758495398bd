"""UIR and coverage against brute-force loops written here from the paper's definitions."""

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.stats import rankdata, spearmanr
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_ordinal.metaeval import coverage, unanimous_improvement_ratio
from sklearn_ordinal.metaeval._uir import _mid_ranks


def brute_force_uir(a, b):
    """Amigó et al. (2020), section 5.1, one test case at a time."""
    a_wins = b_wins = 0
    for t in range(len(a)):
        a_wins += all(a[t][m] >= b[t][m] for m in range(len(a[t])))
        b_wins += all(b[t][m] >= a[t][m] for m in range(len(a[t])))
    return (a_wins - b_wins) / len(a)


def brute_force_coverage(metric_scores, reference_scores):
    differences, uirs = [], []
    for s, s2 in itertools.permutations(range(len(metric_scores)), 2):
        differences.append(np.mean(metric_scores[s]) - np.mean(metric_scores[s2]))
        uirs.append(brute_force_uir(reference_scores[s], reference_scores[s2]))
    return spearmanr(differences, uirs).statistic


# Few distinct values, so that ties (and unanimous ties) are frequent.
scores_2d = arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 4)),
                   elements=st.sampled_from([0.0, 0.25, 0.5, 1.0]))


@given(scores_2d, st.data())
def test_uir_matches_brute_force(a, data):
    b = data.draw(arrays(np.float64, a.shape, elements=st.sampled_from([0.0, 0.25, 0.5, 1.0])))
    uir = unanimous_improvement_ratio(a, b)
    assert uir == pytest.approx(brute_force_uir(a.tolist(), b.tolist()))
    assert -1 <= uir <= 1
    assert unanimous_improvement_ratio(b, a) == pytest.approx(-uir)
    assert isinstance(uir, float)


def test_uir_known_values():
    a = [[0.9, 0.8], [0.5, 0.7], [0.6, 0.6], [0.9, 0.9]]
    b = [[0.8, 0.7], [0.6, 0.6], [0.6, 0.6], [0.1, 0.1]]
    # a wins cases 0 and 3, case 1 is split, case 2 is a tie that cancels.
    assert unanimous_improvement_ratio(a, b) == 0.5
    assert unanimous_improvement_ratio(a, a) == 0.0
    assert unanimous_improvement_ratio([[1.0]], [[0.0]]) == 1.0


@pytest.mark.parametrize(
    "a, b, match",
    [
        ([[1, 2]], [[1, 2, 3]], "same shape"),
        ([1, 2], [1, 2], "2-D"),
        ([[np.nan, 1]], [[1, 1]], "NaN or infinity"),
        (np.zeros((0, 2)), np.zeros((0, 2)), "empty"),
        ([["a", "b"]], [[1, 2]], "numbers"),
    ],
)
def test_uir_bad_input(a, b, match):
    with pytest.raises(ValueError, match=match):
        unanimous_improvement_ratio(a, b)


@given(st.integers(3, 7), st.integers(1, 5), st.integers(1, 3), st.integers(0, 2**16))
def test_coverage_matches_brute_force(n_systems, n_test_cases, n_metrics, seed):
    rng = np.random.RandomState(seed)
    # Coarse values: ties within the metric and unanimous ties in the reference.
    metric = rng.randint(0, 4, size=(n_systems, n_test_cases)) / 4
    reference = rng.randint(0, 3, size=(n_systems, n_test_cases, n_metrics)) / 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = brute_force_coverage(metric, reference)
        result = coverage(metric, reference)
    if np.isnan(expected):
        assert np.isnan(result)
    else:
        assert result == pytest.approx(expected)
        # Listing the systems in another order changes nothing.
        order = rng.permutation(n_systems)
        assert coverage(metric[order], reference[order]) == pytest.approx(result)


def test_coverage_of_a_reference_metric_alone_is_high():
    rng = np.random.RandomState(0)
    quality = np.linspace(0, 1, 10)
    reference = quality[:, None, None] + rng.normal(0, 0.3, size=(10, 30, 1))
    assert coverage(reference[:, :, 0], reference) > 0.9
    assert coverage(-reference[:, :, 0], reference) < -0.9


def test_coverage_undefined_warns_and_returns_nan():
    reference = np.random.RandomState(0).rand(4, 5, 2)
    with pytest.warns(UndefinedMetricWarning, match="metric differences are the same"):
        assert np.isnan(coverage(np.ones((4, 5)), reference))
    with pytest.warns(UndefinedMetricWarning, match="UIR values are the same"):
        assert np.isnan(coverage(np.random.rand(4, 5), np.ones((4, 5, 2))))


@pytest.mark.parametrize(
    "metric_shape, reference_shape, match",
    [
        ((4, 5), (4, 6, 2), "same systems and test cases"),
        ((4, 5), (4, 5), "3-D"),
        ((2, 5), (2, 5, 3), "at least 3 systems"),
    ],
)
def test_coverage_bad_shapes(metric_shape, reference_shape, match):
    with pytest.raises(ValueError, match=match):
        coverage(np.zeros(metric_shape), np.zeros(reference_shape))


def test_coverage_rejects_nan():
    metric = np.random.rand(4, 5)
    metric[1, 2] = np.nan
    with pytest.raises(ValueError, match="metric_scores contains NaN"):
        coverage(metric, np.random.rand(4, 5, 3))


@given(
    arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 30)),
           elements=st.sampled_from([-np.inf, -2.0, -0.0, 0.0, 0.5, 1.0, 1e300, np.inf])),
)
@example(np.array([[1.0, 1.0, 1.0], [3.0, 2.0, 1.0]]))
def test_mid_ranks_of_every_row_are_the_definition(x):
    # Heavy ties, signed zeros and infinities (the coverage ranks undefined pairs as +inf).
    # The mean rank of a tie run: the items below it, plus the middle of the run.
    # (SciPy 1.12's rankdata returns NaN for [inf, -inf], so it is no reference.)
    row = x[..., :, np.newaxis]
    other = x[..., np.newaxis, :]
    expected = (row > other).sum(axis=-1) + ((row == other).sum(axis=-1) + 1) / 2
    np.testing.assert_array_equal(_mid_ranks(x), expected)
    np.testing.assert_array_equal(_mid_ranks(x[0]), expected[0])
    # On finite rows it is SciPy's, as the coverage's Spearman correlation promises.
    for finite_row in x[np.isfinite(x).all(axis=-1)]:
        np.testing.assert_array_equal(_mid_ranks(finite_row), rankdata(finite_row))
