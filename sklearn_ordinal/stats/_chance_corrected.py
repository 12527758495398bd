r"""Confidence intervals of the chance-corrected agreement coefficients.

Two ways, as ``method=`` says. ``"normal"`` (the name the package's other
intervals give their linearized, delta-method variance): Gwet's (2008, 2014)
linearized variance over the units, the standard error irrCAC publishes, with Student's
:math:`t` on :math:`n - 1` degrees of freedom. The bootstrap (``"bca"``,
``"percentile"``, ``"basic"``): the units are drawn with replacement, as for
alpha (``_krippendorff.py``); units with the same annotations are one cell, a
resample is one multinomial draw of the cell counts, and its coefficient is the
same function of the summed per-unit statistics as the estimate's
(``metrics/_chance_corrected._coefficient_from_totals``), for a batch of
resamples at once.
"""

from numbers import Integral, Real
from typing import Literal, Optional, Union

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats
from sklearn.utils import check_random_state

from .._compat import Interval, StrOptions, validate_params
from .._validation import UndefinedMeasureError
from .._warnings import warn_user
from ..metrics._agreement_weights import WEIGHTS
from ..metrics._chance_corrected import (
    _NAMES,
    COEFFICIENTS,
    _agreements,
    _annotator_counts,
    _coefficient_from_totals,
    _ratings,
    _totals,
    _unit_statistics,
)
from ._resampling import (
    DEFAULT_N_RESAMPLES,
    ConfidenceInterval,
    ScoreInterval,
    check_n_resamples,
    interval,
)

# Numbers held at once by a batch of resamples.
_MAX_FLOATS_PER_BATCH = 2_000_000


def _per_unit_chance(coefficient, ratings, statistics, p_e):
    """Each unit's term ``p_e|i`` of the linearized variance (irrCAC's ``pe.ivec``);
    ``p_e`` itself for the coefficients whose chance agreement is a constant."""
    weights = ratings.weights
    k = len(ratings.classes)
    n_units = len(statistics.pairable)
    shares = statistics.shares
    pi = shares.mean(axis=0)
    if coefficient == "gwet_ac":
        return weights.sum() / (k * (k - 1)) * (shares @ (1 - pi))
    if coefficient == "fleiss_kappa":
        return shares @ ((weights @ pi + weights.T @ pi) / 2)
    if coefficient == "conger_kappa":
        counts = _annotator_counts(ratings.codes, k).astype(np.float64)
        n_annotators = counts.shape[0]
        rated = counts.sum(axis=1)
        p = counts / rated[:, np.newaxis]
        centred = n_annotators * p.mean(axis=0) - p
        # Gwet (2014) eq. of lambda_ig: each annotator's term, gathered at the value
        # they gave the unit (zero where they gave none).
        v = centred @ weights
        gathered = np.take_along_axis(np.hstack([v, np.zeros((n_annotators, 1))]),
                                      ratings.codes, axis=1)
        present = (ratings.codes < k).astype(np.float64)
        expected = (p * v).sum(axis=1)
        terms = (n_units / rated)[:, np.newaxis] * (
            gathered - (present - (rated / n_units)[:, np.newaxis]) * expected[:, np.newaxis])
        return terms.sum(axis=0) / (n_annotators * (n_annotators - 1))
    return np.full(n_units, p_e)


def _analytic_standard_error(coefficient, ratings, estimate):
    """Gwet's linearized standard error (irrCAC's ``coeff.se``, with no finite
    population correction)."""
    statistics = _unit_statistics(ratings.counts, ratings.weights)
    n = len(statistics.pairable)
    n_pairable = statistics.pairable.sum()
    _, p_e = _agreements(_totals(ratings, coefficient), coefficient, ratings.weights,
                         ratings.codes.shape[0])
    if coefficient == "percent_agreement":
        per_unit = n / n_pairable * statistics.agreement
    else:
        per_unit = (n / n_pairable * (statistics.agreement - p_e * statistics.pairable)
                    / (1 - p_e))
        chance = _per_unit_chance(coefficient, ratings, statistics, p_e)
        per_unit = per_unit - 2 * (1 - estimate) * (chance - p_e) / (1 - p_e)
    return float(np.sqrt(((per_unit - estimate) ** 2).sum() / (n * (n - 1))))


def _cells(ratings, coefficient):
    """``(statistics, multiplicity)``: per distinct unit, the statistics whose sums
    :func:`_totals` gives, and how many units share them."""
    k = len(ratings.classes)
    # Conger's kappa reads who gave which value; the others only the value counts.
    rows = ratings.codes.T if coefficient == "conger_kappa" else ratings.counts
    distinct, first, multiplicity = np.unique(rows, axis=0, return_index=True,
                                              return_counts=True)
    counts = ratings.counts[first]
    statistics = _unit_statistics(counts, ratings.weights)
    parts = [np.ones((len(first), 1)), statistics.pairable[:, np.newaxis],
             statistics.agreement[:, np.newaxis], statistics.shares]
    if coefficient == "conger_kappa":
        codes = distinct.T
        n_annotators = codes.shape[0]
        one_hot = np.zeros((len(first), n_annotators, k + 1))
        np.put_along_axis(one_hot, codes.T[:, :, np.newaxis], 1.0, axis=2)
        parts.append(one_hot[:, :, :k].reshape(len(first), -1))
    return np.hstack([np.asarray(part, dtype=np.float64) for part in parts]), multiplicity


def _bootstrap(cells, multiplicity, coefficient, weights, n_annotators, n_resamples, rng):
    n_units = int(multiplicity.sum())
    p = multiplicity / n_units
    batch = max(1, _MAX_FLOATS_PER_BATCH // max(cells.shape))
    values = []
    for start in range(0, n_resamples, batch):
        draws = rng.multinomial(n_units, p, size=min(batch, n_resamples - start))
        totals = draws @ cells
        values.append(_coefficient_from_totals(totals, coefficient, weights, n_annotators))
    return np.concatenate(values)


@validate_params(
    {
        "reliability_data": ["array-like"],
        "coefficient": [StrOptions(set(COEFFICIENTS))],
        "weights": [StrOptions(set(WEIGHTS)), "array-like"],
        "labels": ["array-like", None],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "method": [StrOptions({"normal", "bca", "percentile", "basic"})],
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def agreement_interval(
    reliability_data: ArrayLike,
    *,
    coefficient: Literal["gwet_ac", "fleiss_kappa", "conger_kappa", "brennan_prediger",
                         "percent_agreement"] = "gwet_ac",
    weights: Union[str, ArrayLike] = "identity",
    labels: Optional[ArrayLike] = None,
    confidence_level: float = 0.95,
    method: Literal["normal", "bca", "percentile", "basic"] = "normal",
    n_resamples: int = DEFAULT_N_RESAMPLES,
    random_state: Union[int, np.random.RandomState, None] = None,
) -> ScoreInterval:
    r"""An agreement coefficient with its confidence interval over the units.

    ``method="normal"`` gives Gwet's (2008; 2014, chapter 5) linearized
    variance, irrCAC's standard error: with :math:`n` the units that have an
    annotation, :math:`n'` those with two or more, :math:`p_{a|i}` unit
    :math:`i`'s observed agreement (0 when it has fewer than two) and
    :math:`p_{e|i}` its share of the chance agreement,

    .. math::

        \kappa^\star_i = \frac{n}{n'} \frac{p_{a|i} - p_e [r_i \ge 2]}{1 - p_e}
        - 2 (1 - \kappa) \frac{p_{e|i} - p_e}{1 - p_e}, \qquad
        \widehat{\mathrm{Var}}(\kappa) = \frac{1}{n (n - 1)}
        \sum_i (\kappa^\star_i - \kappa)^2,

    and the interval :math:`\kappa \pm t_{n-1, 1 - (1 - \gamma)/2} \, \mathrm{se}`,
    its high end clipped to 1. Conditional on the annotators, it treats the units
    as a sample. ``"bca"``, ``"percentile"`` and ``"basic"`` draw the units with
    replacement ``n_resamples`` times (the annotators of a unit moving with it), as
    :func:`krippendorff_alpha_interval` does.

    Parameters
    ----------
    reliability_data : array-like of shape (n_annotators, n_units)
        As for :func:`~sklearn_ordinal.metrics.gwet_ac`.
    coefficient : str, default="gwet_ac"
        ``"gwet_ac"``, ``"fleiss_kappa"``, ``"conger_kappa"``,
        ``"brennan_prediger"`` or ``"percent_agreement"``: the function of that
        name in :mod:`sklearn_ordinal.metrics`.
    weights : str or array-like of shape (n_values, n_values), default="identity"
        As for :func:`~sklearn_ordinal.metrics.gwet_ac`.
    labels : array-like of shape (n_values,), default=None
        Every possible value, lowest first.
    confidence_level : float, default=0.95
        In (0, 1).
    method : {"normal", "bca", "percentile", "basic"}, default="normal"
        Gwet's variance, or a bootstrap interval.
    n_resamples : int, default=9999
        Bootstrap resamples (unused by ``"normal"``).
    random_state : int, RandomState instance or None, default=None
        Seeds the resampling.

    Returns
    -------
    result : ScoreInterval
        ``estimate``, ``confidence_interval``, ``standard_error`` (Gwet's, or the
        bootstrap distribution's), ``bootstrap_distribution`` (empty for
        ``"normal"``), ``method``, ``n_undefined``.

    Raises
    ------
    UndefinedMeasureError
        A ValueError: the coefficient is undefined on the data.

    References
    ----------
    .. [1] K. L. Gwet, "Computing inter-rater reliability and its variance in the
       presence of high agreement", British Journal of Mathematical and Statistical
       Psychology 61 (2008) 29-48.
    .. [2] K. L. Gwet, "Handbook of Inter-Rater Reliability", 4th edition, 2014.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ordinal.stats import agreement_interval
    >>> nan = np.nan
    >>> ratings = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...            [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, nan],
    ...            [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    ...            [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> result = agreement_interval(ratings, coefficient="gwet_ac")
    >>> round(result.estimate, 5), round(result.standard_error, 5)  # irrCAC
    (0.77544, 0.14295)
    >>> [round(end, 3) for end in result.confidence_interval]  # irrCAC: (0.461, 1)
    [0.461, 1.0]
    """
    if method != "normal":
        check_n_resamples(n_resamples, confidence_level)
    ratings = _ratings(reliability_data, labels, weights)
    n_annotators = ratings.codes.shape[0]
    estimate = float(_coefficient_from_totals(_totals(ratings, coefficient), coefficient,
                                              ratings.weights, n_annotators))
    if np.isnan(estimate):
        raise UndefinedMeasureError(
            f"{_NAMES[coefficient]} is undefined on these data (no unit has two "
            "annotations, or chance agreement is 1), so no interval can be given.")
    if method == "normal":
        n_units = ratings.codes.shape[1]
        if n_units < 2:
            raise ValueError("An interval needs two units with an annotation or more.")
        error = _analytic_standard_error(coefficient, ratings, estimate)
        half = error * stats.t.ppf(1 - (1 - confidence_level) / 2, n_units - 1)
        return ScoreInterval(
            estimate=estimate,
            confidence_interval=ConfidenceInterval(float(estimate - half),
                                                   float(min(estimate + half, 1.0))),
            standard_error=error, bootstrap_distribution=np.empty(0), method="normal",
            confidence_level=confidence_level)
    cells, multiplicity = _cells(ratings, coefficient)
    rng = check_random_state(random_state)
    distribution = _bootstrap(cells, multiplicity, coefficient, ratings.weights,
                              n_annotators, n_resamples, rng)
    undefined = np.isnan(distribution)
    n_undefined = int(undefined.sum())
    if n_undefined == n_resamples:
        raise ValueError(f"{_NAMES[coefficient]} is undefined on every bootstrap resample; "
                         "no interval can be given.")
    if n_undefined:
        warn_user(
            f"{_NAMES[coefficient]} is undefined (NaN) on {n_undefined} of {n_resamples} "
            "bootstrap resamples; they are left out of the interval and the standard error.",
            UserWarning)
    defined = distribution[~undefined]
    jackknife_values = None
    if method == "bca":
        total = multiplicity @ cells
        jackknife_values = _coefficient_from_totals(total - cells, coefficient,
                                                    ratings.weights, n_annotators)
    low, high = interval(estimate, defined, method, confidence_level, jackknife_values,
                         multiplicity)
    return ScoreInterval(
        estimate=estimate,
        confidence_interval=ConfidenceInterval(float(min(low, 1.0)), float(min(high, 1.0))),
        standard_error=float(np.std(defined, ddof=1)) if len(defined) > 1 else np.nan,
        bootstrap_distribution=distribution, method=method,
        confidence_level=confidence_level, n_undefined=n_undefined)
