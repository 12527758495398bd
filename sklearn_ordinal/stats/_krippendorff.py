"""The bootstrap interval of Krippendorff's alpha, resampling the units.

Alpha is a function of the coincidence matrix, and each pairable unit adds a fixed
K x K matrix to it (its *contribution*). Units with the same value counts add the
same one, so they are one *cell* with a count, as items are in ``_resampling.py``:
drawing the units with replacement is one multinomial draw of the cell counts, and
a resample's coincidence matrix is that draw times the cells' contributions, for a
whole batch of resamples at once.
"""

from numbers import Integral, Real
from typing import Literal, Optional, Union

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse
from sklearn.utils import check_random_state

from .._compat import Interval, StrOptions, validate_params
from .._validation import UndefinedMeasureError
from .._warnings import warn_user
from ..metrics._krippendorff import (
    LEVELS,
    _alpha_from_coincidences,
    _check_level_data,
    _coincidences,
    _reliability_counts,
)
from ._resampling import (
    DEFAULT_N_RESAMPLES,
    ConfidenceInterval,
    ScoreInterval,
    check_n_resamples,
    interval,
)

# Numbers held at once by a batch of resamples (draws, or coincidence matrices).
_MAX_FLOATS_PER_BATCH = 2_000_000


def _cells(counts, n_annotators):
    """``(cells, multiplicity)``: the distinct rows of the units' value counts, in
    increasing order, and how many units have each."""
    k = counts.shape[1]
    if float(n_annotators + 1) ** k < 2.0**62:
        # The counts as the digits of one int64 in base n_annotators + 1: one sort of
        # integers instead of np.unique over rows.
        key = counts @ (n_annotators + 1) ** np.arange(k - 1, -1, -1, dtype=np.int64)
        _, first, multiplicity = np.unique(key, return_index=True, return_counts=True)
        return counts[first], multiplicity
    return np.unique(counts, axis=0, return_counts=True)


def _contributions(cells):
    """``(C, K * K)`` sparse: the flattened coincidence matrix each cell's unit adds,
    ``(n_c n_k - [c = k] n_c) / (m - 1)``, from the pairs of its non-zero counts."""
    n_cells, k = cells.shape
    rows, columns = np.nonzero(cells)
    counts = cells[rows, columns].astype(np.float64)
    per_row = np.bincount(rows, minlength=n_cells)
    starts = np.cumsum(per_row) - per_row
    # Every non-zero count of a row pairs with every non-zero count of the same row.
    repeats = per_row[rows]
    first = np.repeat(np.arange(len(rows)), repeats)
    offset = np.arange(len(first)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
    second = starts[rows[first]] + offset
    pairs = counts[first] * counts[second] - np.where(first == second, counts[first], 0.0)
    values = pairs / (cells.sum(axis=1)[rows[first]] - 1.0)
    return sparse.csr_matrix(
        (values, (rows[first], columns[first] * k + columns[second])), shape=(n_cells, k * k)
    )


def _bootstrap_alphas(contributions, multiplicity, values, level, n_resamples, rng):
    """Alpha on each of ``n_resamples`` bootstrap resamples of the units, batched."""
    n_cells, size = contributions.shape
    k = len(values)
    n_units = int(multiplicity.sum())
    p = multiplicity / n_units
    transposed = contributions.T.tocsr()
    batch = max(1, _MAX_FLOATS_PER_BATCH // max(n_cells, size))
    alphas = []
    for start in range(0, n_resamples, batch):
        draws = rng.multinomial(n_units, p, size=min(batch, n_resamples - start))
        totals = np.asarray((transposed @ draws.T.astype(np.float64)).T)
        alphas.append(_alpha_from_coincidences(totals.reshape(-1, k, k), values, level))
    return np.concatenate(alphas)


def _jackknife_alphas(contributions, total, values, level):
    """Alpha with one unit of each cell left out: one value per cell, batched."""
    n_cells, size = contributions.shape
    k = len(values)
    step = max(1, _MAX_FLOATS_PER_BATCH // size)
    return np.concatenate([
        _alpha_from_coincidences(
            (total - contributions[start:start + step].toarray()).reshape(-1, k, k),
            values, level)
        for start in range(0, n_cells, step)
    ])


@validate_params(
    {
        "reliability_data": ["array-like"],
        "level": [StrOptions(set(LEVELS))],
        "labels": ["array-like", None],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "method": [StrOptions({"bca", "percentile", "basic"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def krippendorff_alpha_interval(
    reliability_data: ArrayLike,
    *,
    level: Literal["nominal", "ordinal", "interval", "ratio"] = "ordinal",
    labels: Optional[ArrayLike] = None,
    confidence_level: float = 0.95,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    method: Literal["bca", "percentile", "basic"] = "bca",
    random_state: Union[int, np.random.RandomState, None] = None,
) -> ScoreInterval:
    r"""Krippendorff's alpha with a bootstrap confidence interval over the units.

    The units are the resampling units: the ``N`` pairable units (those with two
    annotations or more; the others pair with nothing) are drawn with replacement,
    ``n_resamples`` times, and alpha is computed on each resample, the annotators
    of a unit moving with it. Unit :math:`u` adds a fixed matrix :math:`x_u` to the
    coincidence matrix (see :func:`~sklearn_ordinal.metrics.krippendorff_alpha`),
    and units with the same value counts add the same one, so with :math:`m_c`
    units in cell :math:`c` a resample is one multinomial draw

    .. math::

        (m^*_1, \dots, m^*_C) \sim \mathrm{Multinomial}\Big(N; \frac{m_1}{N},
        \dots, \frac{m_C}{N}\Big), \qquad o^* = \sum_c m^*_c \, x_c,

    the distribution of alpha on units drawn with replacement, at a cost that
    grows with the number of distinct cells, not of units. The ordinal level's
    differences are recomputed from each resample's own marginals.

    The ends are those of :func:`~sklearn_ordinal.stats.score_interval` (the
    formulas of :func:`scipy.stats.bootstrap`): ``"percentile"``,
    ``"basic"``, or ``"bca"`` with the acceleration from the jackknife values of
    alpha with one unit left out (one per cell, weighted by its count). The high
    end is clipped to 1, alpha's largest value.

    Parameters
    ----------
    reliability_data : array-like of shape (n_annotators, n_units)
        As for :func:`~sklearn_ordinal.metrics.krippendorff_alpha`.
    level : {"nominal", "ordinal", "interval", "ratio"}, default="ordinal"
        The level of measurement of the values.
    labels : array-like of shape (n_values,), default=None
        The possible values in increasing order, as for
        :func:`~sklearn_ordinal.metrics.krippendorff_alpha`.
    confidence_level : float, default=0.95
        In (0, 1).
    n_resamples : int, default=9999
        Bootstrap resamples. Too few to leave one resample beyond each end of the
        interval is a ValueError.
    method : {"bca", "percentile", "basic"}, default="bca"
        The interval's ends.
    random_state : int, RandomState instance or None, default=None
        Seeds the resampling: the same seed gives the same numbers.

    Returns
    -------
    result : ScoreInterval
        ``estimate`` (alpha on the data), ``confidence_interval`` (``low``,
        ``high``), ``standard_error``, ``bootstrap_distribution``,
        ``n_undefined`` (resamples with one value only, left out).

    Raises
    ------
    UndefinedMeasureError
        A ValueError: alpha is undefined on the data themselves (no unit with two
        annotations, or a single value throughout).

    Warns
    -----
    UserWarning
        When alpha is undefined on some resamples (every pairable value the same:
        they are left out, and counted in ``n_undefined``).
    scipy.stats.DegenerateDataWarning
        When every resample gives the same value (e.g. perfect agreement): the
        interval is that point.

    Notes
    -----
    The unit bootstrap treats the units as a sample from a population of units and
    the annotators as fixed, the design of a gold standard annotated once; Hayes
    and Krippendorff (2007) bootstrap the pairable values instead. Complexity: the
    point estimate's (one pass over the annotations), one sort of the ``N`` units'
    value counts to find the ``C`` cells, then ``O(B (C + K^2))`` for ``B``
    resamples and ``O(C K^2)`` for the jackknife.

    References
    ----------
    .. [1] B. Efron and R. J. Tibshirani, "An Introduction to the Bootstrap",
       Chapman & Hall, 1993, chapters 13-14.
    .. [2] A. F. Hayes and K. Krippendorff, "Answering the call for a standard
       reliability measure for coding data", Communication Methods and Measures 1
       (2007) 77-89.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ordinal.stats import krippendorff_alpha_interval
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(1, 6, size=200)
    >>> grades = np.clip(truth + rng.integers(-1, 2, size=(3, 200)), 1, 5)
    >>> result = krippendorff_alpha_interval(grades, random_state=0)
    >>> low, high = result.confidence_interval
    >>> bool(low < result.estimate < high)
    True
    """
    check_n_resamples(n_resamples, confidence_level)
    reliability = _reliability_counts(reliability_data, labels)
    values = _check_level_data(reliability, level)
    estimate = float(_alpha_from_coincidences(_coincidences(reliability.counts), values, level))
    if np.isnan(estimate):
        raise UndefinedMeasureError(
            "Krippendorff's alpha is undefined on these data (no unit has two "
            "annotations, or every pairable annotation has the same value), so no "
            "interval can be given."
        )
    cells, multiplicity = _cells(reliability.counts, reliability.n_annotators)
    contributions = _contributions(cells)
    rng = check_random_state(random_state)
    distribution = _bootstrap_alphas(contributions, multiplicity, values, level,
                                     n_resamples, rng)
    undefined = np.isnan(distribution)
    n_undefined = int(undefined.sum())
    if n_undefined == n_resamples:
        raise ValueError(
            f"Krippendorff's alpha is undefined on every one of the {n_resamples} "
            "bootstrap resamples (each holds a single value); no interval can be given."
        )
    if n_undefined:
        warn_user(
            f"Krippendorff's alpha is undefined (NaN) on {n_undefined} of {n_resamples} "
            "bootstrap resamples (each holds a single value); they are left out of the "
            "interval and the standard error.",
            UserWarning,
        )
    defined = distribution[~undefined]
    jackknife_values = None
    if method == "bca":
        total = np.asarray(contributions.T @ multiplicity.astype(np.float64)).ravel()
        jackknife_values = _jackknife_alphas(contributions, total, values, level)
    low, high = interval(estimate, defined, method, confidence_level, jackknife_values,
                         multiplicity)
    return ScoreInterval(
        estimate=estimate,
        confidence_interval=ConfidenceInterval(float(min(low, 1.0)), float(min(high, 1.0))),
        standard_error=float(np.std(defined, ddof=1)) if len(defined) > 1 else np.nan,
        bootstrap_distribution=distribution,
        method=method,
        confidence_level=confidence_level,
        n_undefined=n_undefined,
    )
