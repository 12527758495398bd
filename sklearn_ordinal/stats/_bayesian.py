"""The Bayesian signed-rank test of two systems over data sets (Benavoli et al. 2017)."""

from __future__ import annotations

import numbers
from typing import Any
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from sklearn.utils import check_random_state

from .._compat import Interval, validate_params
from ._across_datasets import _direction

# Posterior samples drawn at once: bounds the (batch x (N + 1)) arrays.
_BATCH = 5000


@dataclass
class BayesianSignedRankResult:
    """Posterior probabilities that one system is practically better, or equivalent.

    Returned by :func:`bayesian_signed_rank_test`.

    Parameters
    ----------
    left : float
        Probability that ``b`` is practically better than ``a``: the posterior share
        of the mass of pairwise mean differences below ``-rope``.
    rope : float
        Probability that the two are practically equivalent (within the region of
        practical equivalence).
    right : float
        Probability that ``a`` is practically better than ``b``.
    posterior : ndarray of shape (n_samples, 3)
        The sampled ``(left, rope, right)`` masses; each probability is the share of
        samples in which that mass is the largest.
    rope_width : float
        The half-width of the region of practical equivalence, in the measure's
        units.
    greater_is_better : bool
        The direction the differences were taken in.

    See Also
    --------
    bayesian_signed_rank_test : Makes it.

    Examples
    --------
    Two systems whose errors differ by less than the region of practical equivalence:

    >>> from sklearn_ordinal.stats import bayesian_signed_rank_test
    >>> mae_a = [0.40, 0.52, 0.31, 0.60, 0.45, 0.38, 0.50, 0.47]
    >>> mae_b = [0.42, 0.50, 0.33, 0.61, 0.45, 0.40, 0.49, 0.47]
    >>> result = bayesian_signed_rank_test(mae_a, mae_b, rope=0.02,
    ...                                    measure="mean_absolute_error",
    ...                                    n_samples=1000, random_state=0)
    >>> result.rope > 0.95  # practically equivalent
    True
    >>> round(result.left + result.rope + result.right, 10)
    1.0
    >>> result.posterior.shape, result.rope_width, result.greater_is_better
    ((1000, 3), 0.02, False)
    """

    left: float
    rope: float
    right: float
    posterior: np.ndarray
    rope_width: float
    greater_is_better: bool

    def __repr__(self) -> str:
        return (f"BayesianSignedRankResult(left={self.left:.4f}, rope={self.rope:.4f}, "
                f"right={self.right:.4f})")


def _posterior_masses(
    differences: npt.NDArray[np.float64],
    rope: float,
    prior: float,
    n_samples: int,
    rng: np.random.RandomState,
) -> npt.NDArray[np.float64]:
    """``(n_samples, 3)`` sampled masses below ``-rope``, within, and above ``rope``.

    The Dirichlet process posterior of the differences, with a pseudo-observation at
    0 of weight ``prior``, is sampled as Dirichlet weights ``w`` over the pseudo-
    observation and the ``N`` differences ``z``; each sample's mass of the pairwise
    means ``(z_i + z_j) / 2`` below ``-rope`` is ``w^T [z_i + z_j < -2 rope] w``
    (Benavoli et al. 2017, section 4).
    """
    z = np.concatenate([[0.0], differences])
    sums = z[:, None] + z[None, :]
    below = (sums < -2 * rope).astype(np.float64)
    above = (sums > 2 * rope).astype(np.float64)
    concentration = np.concatenate([[prior], np.ones(len(differences))])
    masses = np.empty((n_samples, 3))
    for start in range(0, n_samples, _BATCH):
        weights = rng.dirichlet(concentration, min(_BATCH, n_samples - start))
        stop = start + len(weights)
        masses[start:stop, 0] = np.einsum("si,ij,sj->s", weights, below, weights)
        masses[start:stop, 2] = np.einsum("si,ij,sj->s", weights, above, weights)
    masses[:, 1] = 1 - masses[:, 0] - masses[:, 2]
    return masses


@validate_params(
    {
        "scores_a": ["array-like"],
        "scores_b": ["array-like"],
        "rope": [Interval(numbers.Real, 0, None, closed="left")],
        "measure": [str, None],
        "greater_is_better": ["boolean", None],
        "prior": [Interval(numbers.Real, 0, None, closed="neither")],
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def bayesian_signed_rank_test(
    scores_a: npt.ArrayLike,
    scores_b: npt.ArrayLike,
    *,
    rope: float,
    measure: str | None = None,
    greater_is_better: bool | None = None,
    prior: float = 0.5,
    n_samples: int = 50_000,
    random_state: int | np.random.RandomState | None = None,
) -> BayesianSignedRankResult:
    r"""Bayesian signed-rank test: whether ``a`` is practically better than ``b``, or equivalent.

    The differences :math:`z_i` of the two systems' scores on the ``N`` data sets,
    oriented so that a positive one favours ``a``, get a Dirichlet process posterior
    with a pseudo-observation at 0 of strength ``prior``. In each of ``n_samples``
    posterior draws, Dirichlet weights :math:`w` over :math:`(0, z_1, \dots, z_N)` give
    the masses of the pairwise means :math:`(z_i + z_j)/2` below :math:`-r`
    (``left``: ``b`` better), within :math:`[-r, r]` (``rope``) and above :math:`r`
    (``right``: ``a`` better):

    .. math::

        \theta_{left} = \sum_{i,j} w_i w_j [z_i + z_j < -2r], \quad
        \theta_{right} = \sum_{i,j} w_i w_j [z_i + z_j > 2r].

    The probability of each outcome is the share of draws in which its mass is the
    largest. Unlike a p-value it can say that two systems are practically
    *equivalent*, and it does not depend on which other systems are compared.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n_datasets,)
        The two systems' scores on the same data sets.
    rope : float
        Half-width of the region of practical equivalence, in the measure's units
        (0.01 on a 0-1 scale: differences below one point do not matter).
    measure : str, default=None
        The name the scores were recorded under, which gives their direction, as in
        :func:`compare_across_datasets`.
    greater_is_better : bool, default=None
        The direction, for a measure the package does not know.
    prior : float, default=0.5
        Strength of the pseudo-observation at 0.
    n_samples : int, default=50000
        Posterior draws.
    random_state : int, RandomState instance or None, default=None
        Seed of the draws, for probabilities that repeat exactly.

    Returns
    -------
    result : BayesianSignedRankResult
        ``left``, ``rope`` and ``right`` sum to 1.

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a change: a
       tutorial for comparing multiple classifiers through Bayesian analysis",
       Journal of Machine Learning Research 18(77), 2017, pp. 1-36.

    Examples
    --------
    >>> from sklearn_ordinal.stats import bayesian_signed_rank_test
    >>> mae_a = [0.40, 0.52, 0.31, 0.60, 0.45, 0.38, 0.50, 0.47]
    >>> mae_b = [0.48, 0.60, 0.35, 0.66, 0.52, 0.47, 0.55, 0.49]
    >>> bayesian_signed_rank_test(mae_a, mae_b, rope=0.01, measure="mean_absolute_error",
    ...                           random_state=0)
    BayesianSignedRankResult(left=0.0000, rope=0.0000, right=1.0000)
    """
    a = np.asarray(scores_a, dtype=np.float64)
    b = np.asarray(scores_b, dtype=np.float64)
    if a.ndim != 1 or a.shape != b.shape:
        raise ValueError(
            "scores_a and scores_b must be 1-D, one score per data set, of the same "
            f"length; got shapes {a.shape} and {b.shape}."
        )
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("scores_a and scores_b must be finite; a missing score is NaN.")
    direction = _direction(measure, greater_is_better, None)
    differences = a - b if direction else b - a
    masses = _posterior_masses(differences, rope, prior, n_samples,
                               check_random_state(random_state))
    winners = np.bincount(np.argmax(masses, axis=1), minlength=3) / n_samples
    return BayesianSignedRankResult(
        left=float(winners[0]), rope=float(winners[1]), right=float(winners[2]),
        posterior=masses, rope_width=float(rope), greater_is_better=direction,
    )
