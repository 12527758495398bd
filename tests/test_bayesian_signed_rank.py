"""The Bayesian signed-rank test (Benavoli et al. 2017): brute force, the posterior
mean in closed form, symmetry, direction and the seed."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils import check_random_state

from sklearn_ordinal.stats import BayesianSignedRankResult, bayesian_signed_rank_test
from sklearn_ordinal.stats._bayesian import _posterior_masses


def _differences(seed, n):
    return np.round(np.random.default_rng(seed).normal(0.01, 0.03, n), 3)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 12),
       rope=st.sampled_from([0.0, 0.005, 0.01, 0.05]), prior=st.sampled_from([0.5, 1.0]))
def test_masses_by_brute_force(seed, n, rope, prior):
    z = _differences(seed, n)
    masses = _posterior_masses(z, rope, prior, 7, check_random_state(seed))
    weights = check_random_state(seed).dirichlet(np.r_[prior, np.ones(n)], 7)
    points = np.r_[0.0, z]
    for sample, w in zip(masses, weights):
        left = sum(w[i] * w[j] for i in range(n + 1) for j in range(n + 1)
                   if (points[i] + points[j]) / 2 < -rope)
        right = sum(w[i] * w[j] for i in range(n + 1) for j in range(n + 1)
                    if (points[i] + points[j]) / 2 > rope)
        np.testing.assert_allclose(sample, [left, 1 - left - right, right], atol=1e-12)


def test_posterior_mean_in_closed_form():
    # E[w_i w_j] of a Dirichlet(alpha) with total A: alpha_i alpha_j / (A (A + 1)),
    # plus alpha_i / (A (A + 1)) on the diagonal.
    z = _differences(3, 9)
    alpha = np.r_[0.5, np.ones(9)]
    total = alpha.sum()
    moments = (np.outer(alpha, alpha) + np.diag(alpha)) / (total * (total + 1))
    points = np.r_[0.0, z]
    above = (points[:, None] + points[None, :]) > 2 * 0.01
    masses = _posterior_masses(z, 0.01, 0.5, 200_000, check_random_state(0))
    standard_error = masses[:, 2].std() / np.sqrt(len(masses))
    assert masses[:, 2].mean() == pytest.approx(np.sum(moments * above),
                                                abs=5 * standard_error)


def test_probabilities_symmetry_direction_and_seed():
    a = np.array([0.61, 0.55, 0.70, 0.66, 0.58, 0.72, 0.64, 0.59, 0.68, 0.63])
    b = a - np.array([0.02, 0.01, 0.03, -0.005, 0.02, 0.015, 0.0, 0.025, 0.01, 0.02])
    result = bayesian_signed_rank_test(a, b, rope=0.01, greater_is_better=True,
                                       n_samples=20_000, random_state=0)
    assert isinstance(result, BayesianSignedRankResult)
    assert result.left + result.rope + result.right == pytest.approx(1)
    assert result.right > 0.5  # a is about 1.5 points better
    swapped = bayesian_signed_rank_test(b, a, rope=0.01, greater_is_better=True,
                                        n_samples=20_000, random_state=0)
    np.testing.assert_array_equal(swapped.posterior, result.posterior[:, ::-1])
    assert (swapped.left, swapped.right) == (result.right, result.left)
    # A loss: lower is better, so a's higher scores make b the better one.
    loss = bayesian_signed_rank_test(a, b, rope=0.01, measure="mean_absolute_error",
                                     n_samples=20_000, random_state=0)
    assert (loss.left, loss.rope, loss.right) == (result.right, result.rope, result.left)
    again = bayesian_signed_rank_test(a, b, rope=0.01, greater_is_better=True,
                                      n_samples=20_000, random_state=0)
    np.testing.assert_array_equal(again.posterior, result.posterior)
    wide = bayesian_signed_rank_test(a, b, rope=1.0, greater_is_better=True,
                                     n_samples=1000, random_state=0)
    assert wide.rope == 1.0
    assert repr(result).startswith("BayesianSignedRankResult(left=")


def test_bad_input():
    with pytest.raises(ValueError, match="of the same length"):
        bayesian_signed_rank_test([0.1, 0.2], [0.1], rope=0.01, greater_is_better=True)
    with pytest.raises(ValueError, match="must be finite"):
        bayesian_signed_rank_test([0.1, np.nan], [0.1, 0.2], rope=0.01,
                                  greater_is_better=True)
    with pytest.raises(ValueError, match="direction of the scores is unknown"):
        bayesian_signed_rank_test([0.1, 0.2], [0.1, 0.3], rope=0.01)
    with pytest.raises(ValueError, match="rope"):
        bayesian_signed_rank_test([0.1, 0.2], [0.1, 0.3], rope=-1, greater_is_better=True)
