r"""The chance-corrected agreement coefficients of several annotators beside alpha.

Gwet's AC1 and AC2, Fleiss' kappa, Conger's kappa, Brennan and Prediger's
coefficient and the percent agreement share one form (Gwet 2014, chapters 2-5),

.. math::

    \kappa = \frac{p_a - p_e}{1 - p_e},

with the same weighted observed agreement :math:`p_a` and a chance agreement
:math:`p_e` of their own. They read the same reliability data as
:func:`~sklearn_ordinal.metrics.krippendorff_alpha` (annotators x units, missing
annotations allowed), reduced by one ``np.bincount`` to each unit's value counts
(and, for Conger's kappa, to each annotator's value counts); every coefficient, on
the data or on a bootstrap resample of the units, is one function of the sums over
the units of a few per-unit statistics (:func:`_coefficient_from_totals`).
"""

from typing import NamedTuple, Optional, Union

import numpy as np
from numpy.typing import ArrayLike
from sklearn.exceptions import UndefinedMetricWarning

from .._compat import StrOptions, validate_params
from .._warnings import warn_user
from ._agreement_weights import WEIGHTS, agreement_weights
from ._krippendorff import _annotation_codes

COEFFICIENTS = ("gwet_ac", "fleiss_kappa", "conger_kappa", "brennan_prediger",
                "percent_agreement")

_NAMES = {
    "gwet_ac": "Gwet's AC",
    "fleiss_kappa": "Fleiss' kappa",
    "conger_kappa": "Conger's kappa",
    "brennan_prediger": "Brennan-Prediger",
    "percent_agreement": "percent agreement",
}


class Ratings(NamedTuple):
    """Reliability data reduced to what the coefficients read."""

    classes: np.ndarray
    """The values in order."""
    codes: np.ndarray
    """``(n_annotators, n_units)``: each annotation's position in ``classes``, ``K``
    where it is missing; only the units with at least one annotation."""
    counts: np.ndarray
    """``(n_units, K)``: how many annotators gave each unit each value."""
    weights: np.ndarray
    """``(K, K)`` agreement weights."""
    n_unrated: int
    """Units of the data with no annotation at all (left out: they hold no rating)."""


def _ratings(reliability_data, labels, weights):
    classes, codes, _, ordered = _annotation_codes(reliability_data, labels)
    k = len(classes)
    matrix = agreement_weights(weights, classes, ordered)
    n_annotators, n_units = codes.shape
    keys = codes + (k + 1) * np.arange(n_units, dtype=codes.dtype)
    counts = np.bincount(keys.ravel(), minlength=n_units * (k + 1)).reshape(n_units, k + 1)
    rated = counts[:, k] < n_annotators
    return Ratings(classes, codes[:, rated], counts[rated, :k], matrix,
                   int(n_units - rated.sum()))


class UnitStatistics(NamedTuple):
    """Per-unit terms whose sums over the units give every coefficient."""

    pairable: np.ndarray
    """``(n_units,)`` bool: the unit has two annotations or more."""
    agreement: np.ndarray
    """``(n_units,)``: the unit's weighted observed agreement
    ``sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))``, 0 where not pairable."""
    shares: np.ndarray
    """``(n_units, K)``: the share ``r_ik / r_i`` of the unit's annotations with
    each value."""


def _unit_statistics(counts, weights):
    counts = counts.astype(np.float64)
    per_unit = counts @ np.ones(counts.shape[1])
    # r*_ik = sum_l w_kl r_il. einsum, not ``counts @ weights.T``: a tall matrix times a
    # K x K one is ten times slower through BLAS.
    weighted = np.einsum("nl,kl->nk", counts, weights)
    pairable = per_unit >= 2
    agreeing = ((counts * (weighted - 1)) @ np.ones(counts.shape[1]))
    pairs = np.where(pairable, per_unit * (per_unit - 1), 1.0)
    agreement = np.where(pairable, agreeing / pairs, 0.0)
    return UnitStatistics(pairable, agreement, counts / per_unit[:, np.newaxis])


def _annotator_counts(codes, k):
    """``(n_annotators, K)``: how many units each annotator gave each value."""
    n_annotators = codes.shape[0]
    keys = codes + (k + 1) * np.arange(n_annotators, dtype=codes.dtype)[:, np.newaxis]
    counts = np.bincount(keys.ravel(), minlength=n_annotators * (k + 1))
    return counts.reshape(n_annotators, k + 1)[:, :k]


def _totals(ratings, coefficient):
    """The sums over the units of the per-unit statistics: ``[n, n_pairable,
    sum of agreements, sum of shares (K)]``, and for Conger's kappa the annotators'
    value counts ``(n_annotators * K)``."""
    statistics = _unit_statistics(ratings.counts, ratings.weights)
    parts = [np.array([len(statistics.pairable), statistics.pairable.sum(),
                       statistics.agreement.sum()], dtype=np.float64),
             statistics.shares.sum(axis=0)]
    if coefficient == "conger_kappa":
        parts.append(_annotator_counts(ratings.codes, len(ratings.classes)).ravel())
    return np.concatenate(parts)


def _chance_agreement(coefficient, weights, shares, annotator_counts=None):
    """``p_e`` of each coefficient, for ``shares`` ``(..., K)`` (the mean share of each
    value over the units) and Conger's annotator value counts ``(..., R, K)``."""
    k = weights.shape[0]
    if coefficient == "percent_agreement":
        return np.zeros(shares.shape[:-1])
    if coefficient == "brennan_prediger":
        return np.full(shares.shape[:-1], weights.sum() / k**2)
    if coefficient == "gwet_ac":
        if k < 2:
            return np.full(shares.shape[:-1], np.nan)
        return weights.sum() / (k * (k - 1)) * (shares * (1 - shares)).sum(axis=-1)
    if coefficient == "fleiss_kappa":
        return np.einsum("...k,kl,...l->...", shares, weights, shares)
    # Conger: each annotator's own value distribution p_gk, their mean and their
    # covariance across annotators.
    n_annotators = annotator_counts.shape[-2]
    with np.errstate(divide="ignore", invalid="ignore"):
        p = annotator_counts / annotator_counts.sum(axis=-1, keepdims=True)
    mean = p.mean(axis=-2)
    outer = mean[..., :, np.newaxis] * mean[..., np.newaxis, :]
    covariance = (np.swapaxes(p, -1, -2) @ p - n_annotators * outer) / (n_annotators - 1)
    return (weights * (outer - covariance / n_annotators)).sum(axis=(-2, -1))


def _agreements(totals, coefficient, weights, n_annotators):
    """``(p_a, p_e)`` of the per-unit sums ``totals`` ``(..., d)`` (see :func:`_totals`)."""
    k = weights.shape[0]
    n, pairable, agreement = totals[..., 0], totals[..., 1], totals[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        p_a = agreement / pairable
        shares = totals[..., 3:3 + k] / n[..., np.newaxis]
        annotator_counts = None
        if coefficient == "conger_kappa":
            annotator_counts = totals[..., 3 + k:].reshape(totals.shape[:-1] + (n_annotators, k))
        return p_a, _chance_agreement(coefficient, weights, shares, annotator_counts)


def _coefficient_from_totals(totals, coefficient, weights, n_annotators):
    """The coefficient of the per-unit sums ``totals`` ``(..., d)``: the one formula of
    the point estimate, the bootstrap and the jackknife. NaN where it is undefined
    (no pairable unit, or ``p_e = 1``)."""
    p_a, p_e = _agreements(totals, coefficient, weights, n_annotators)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = (p_a - p_e) / (1 - p_e)
    return np.where(np.isfinite(value) & (p_e < 1), value, np.nan)


def _warn_undefined(coefficient, ratings):
    statistics = _unit_statistics(ratings.counts, ratings.weights)
    if not statistics.pairable.any():
        reason = "no unit has two annotations or more, so there is no pair to compare"
    elif coefficient == "gwet_ac" and len(ratings.classes) < 2:
        reason = "the scale has a single value (list the others in labels=[...])"
    elif coefficient == "conger_kappa" and (
            _annotator_counts(ratings.codes, len(ratings.classes)).sum(axis=1) == 0).any():
        reason = ("an annotator gave no rating at all, so their distribution of values "
                  "is undefined (leave that annotator out)")
    else:
        reason = ("the agreement expected by chance is 1 (every annotation has the same "
                  "value, or the weights make every pair agree)")
    warn_user(f"{_NAMES[coefficient]} is undefined: {reason}; returning nan.",
              UndefinedMetricWarning)


def agreement_coefficient(reliability_data, coefficient, *, weights="identity", labels=None):
    """The value of ``coefficient`` (one of :data:`COEFFICIENTS`) on the data, a float;
    NaN with an ``UndefinedMetricWarning`` where it is undefined."""
    ratings = _ratings(reliability_data, labels, weights)
    value = float(_coefficient_from_totals(_totals(ratings, coefficient), coefficient,
                                           ratings.weights, ratings.codes.shape[0]))
    if np.isnan(value):
        _warn_undefined(coefficient, ratings)
    return value


_PARAMETERS = {
    "reliability_data": ["array-like"],
    "weights": [StrOptions(set(WEIGHTS)), "array-like"],
    "labels": ["array-like", None],
}

_WEIGHTS_DOC = """weights : {"identity", "linear", "quadratic", "ordinal", "radical", "ratio"} \
or array-like of shape (n_values, n_values), default="identity"
        How much two values agree, :math:`w_{kl} \\in [0, 1]` with 1 on the
        diagonal (Gwet 2014, chapter 3; irrCAC's weights). With
        :math:`x_k` the values (their positions 1, ..., K for text in the order of
        ``labels``) and :math:`d = x_{\\max} - x_{\\min}`: linear
        :math:`1 - |x_k - x_l| / d`, quadratic :math:`1 - (x_k - x_l)^2 / d^2`,
        radical :math:`1 - \\sqrt{|x_k - x_l|} / \\sqrt{d}`, ratio
        :math:`1 - ((x_k - x_l) / (x_k + x_l))^2 / (d / (x_{\\max} + x_{\\min}))^2`,
        and Gwet's ordinal :math:`1 - \\binom{m_{kl}}{2} / \\binom{K}{2}` with
        :math:`m_{kl} = |k - l| + 1` the values from :math:`k` to :math:`l`
        (numbers' spacing plays no part). A matrix gives custom weights, one row
        and column per value in order."""


def _doc(function):
    """Fill in the parameters' text the coefficients share."""
    function.__doc__ = (function.__doc__.replace("%(weights)s", _WEIGHTS_DOC)
                        .replace("%(example)s", _EXAMPLE_DATA.lstrip()))
    return function


_EXAMPLE_DATA = """    >>> import numpy as np
    >>> nan = np.nan
    >>> # irrCAC's cac.raw4raters (Krippendorff 2011): 4 annotators x 12 units.
    >>> ratings = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...            [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, nan],
    ...            [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    ...            [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]"""


@_doc
@validate_params(_PARAMETERS, prefer_skip_nested_validation=True)
def gwet_ac(
    reliability_data: ArrayLike,
    *,
    weights: Union[str, ArrayLike] = "identity",
    labels: Optional[ArrayLike] = None,
) -> float:
    r"""Gwet's AC1 (unweighted) and AC2 (weighted): agreement robust to skewed values.

    With :math:`r_{ik}` the annotators who gave unit :math:`i` the value :math:`k`,
    :math:`r_i = \sum_k r_{ik}` and :math:`r^\star_{ik} = \sum_l w_{kl} r_{il}`, the
    observed agreement is the mean over the :math:`n'` units with two annotations
    or more

    .. math::

        p_a = \frac{1}{n'} \sum_{i: r_i \ge 2} \sum_k
        \frac{r_{ik} (r^\star_{ik} - 1)}{r_i (r_i - 1)},

    and, with :math:`\pi_k = \frac{1}{n} \sum_i r_{ik} / r_i` over the :math:`n`
    units with an annotation and :math:`T_w = \sum_{k,l} w_{kl}`, the chance
    agreement of Gwet (2008, 2014)

    .. math::

        p_e = \frac{T_w}{K (K - 1)} \sum_k \pi_k (1 - \pi_k), \qquad
        \mathrm{AC} = \frac{p_a - p_e}{1 - p_e}.

    Unlike kappa's, this chance agreement falls when one value dominates, so that
    high agreement on skewed data is not called poor (the "paradoxes" of kappa).
    Units with no annotation are left out; a unit with one annotation adds to
    :math:`\pi` only.

    Parameters
    ----------
    reliability_data : array-like of shape (n_annotators, n_units)
        One row per annotator and one column per unit, as for
        :func:`~sklearn_ordinal.metrics.krippendorff_alpha`: numbers, text, or
        ordered Categorical columns; a missing annotation is NaN or None.
    %(weights)s
    labels : array-like of shape (n_values,), default=None
        Every possible value, lowest first: the order of text values, and values
        no annotator used (they change :math:`K`, and the weights' range).

    Returns
    -------
    coefficient : float
        At most 1. NaN, with an ``UndefinedMetricWarning``, when no unit has two
        annotations or the scale has one value.

    See Also
    --------
    sklearn_ordinal.stats.agreement_interval : Its confidence interval (Gwet's
        variance, or the bootstrap over the units).
    fleiss_kappa, krippendorff_alpha

    References
    ----------
    .. [1] K. L. Gwet, "Computing inter-rater reliability and its variance in the
       presence of high agreement", British Journal of Mathematical and Statistical
       Psychology 61 (2008) 29-48.
    .. [2] K. L. Gwet, "Handbook of Inter-Rater Reliability", 4th edition, Advanced
       Analytics, 2014; and its R package irrCAC (``gwet.ac1.raw``).

    Examples
    --------
    %(example)s
    >>> from sklearn_ordinal.metrics import gwet_ac
    >>> round(gwet_ac(ratings), 5)  # irrCAC: 0.77544
    0.77544
    >>> round(gwet_ac(ratings, weights="quadratic"), 3)  # AC2
    0.914
    """
    return agreement_coefficient(reliability_data, "gwet_ac", weights=weights, labels=labels)


@_doc
@validate_params(_PARAMETERS, prefer_skip_nested_validation=True)
def fleiss_kappa(
    reliability_data: ArrayLike,
    *,
    weights: Union[str, ArrayLike] = "identity",
    labels: Optional[ArrayLike] = None,
) -> float:
    r"""Fleiss' kappa, weighted and with missing annotations (Gwet's generalization).

    The observed agreement :math:`p_a` is that of :func:`gwet_ac`; the chance
    agreement is that of two annotations drawn from the pooled distribution of
    values :math:`\pi_k = \frac{1}{n} \sum_i r_{ik} / r_i`:

    .. math::

        p_e = \sum_{k,l} w_{kl} \, \pi_k \pi_l, \qquad
        \kappa_F = \frac{p_a - p_e}{1 - p_e}.

    With identity weights and every unit rated by the same number of annotators
    it is Fleiss' (1971) kappa.

    Parameters
    ----------
    reliability_data : array-like of shape (n_annotators, n_units)
        As for :func:`gwet_ac`.
    %(weights)s
    labels : array-like of shape (n_values,), default=None
        Every possible value, lowest first.

    Returns
    -------
    coefficient : float
        At most 1. NaN, with an ``UndefinedMetricWarning``, when no unit has two
        annotations or every annotation has the same value.

    See Also
    --------
    sklearn_ordinal.stats.agreement_interval : Its confidence interval.
    conger_kappa, gwet_ac

    References
    ----------
    .. [1] J. L. Fleiss, "Measuring nominal scale agreement among many raters",
       Psychological Bulletin 76 (1971) 378-382.
    .. [2] K. L. Gwet, "Handbook of Inter-Rater Reliability", 4th edition, 2014
       (``fleiss.kappa.raw`` of irrCAC).

    Examples
    --------
    %(example)s
    >>> from sklearn_ordinal.metrics import fleiss_kappa
    >>> round(fleiss_kappa(ratings), 5)  # irrCAC: 0.76117
    0.76117
    """
    return agreement_coefficient(reliability_data, "fleiss_kappa", weights=weights,
                                 labels=labels)


@_doc
@validate_params(_PARAMETERS, prefer_skip_nested_validation=True)
def conger_kappa(
    reliability_data: ArrayLike,
    *,
    weights: Union[str, ArrayLike] = "identity",
    labels: Optional[ArrayLike] = None,
) -> float:
    r"""Conger's kappa: Cohen's kappa for several annotators, each with their own marginals.

    The observed agreement :math:`p_a` is that of :func:`gwet_ac`. With
    :math:`p_{gk}` the share of annotator :math:`g`'s ratings with value
    :math:`k`, :math:`\bar p_k` its mean over the :math:`R` annotators and
    :math:`s^2_{kl}` the covariance of :math:`p_{gk}` and :math:`p_{gl}` across
    annotators (divisor :math:`R - 1`):

    .. math::

        p_e = \sum_{k,l} w_{kl} \Big(\bar p_k \bar p_l - \frac{s^2_{kl}}{R}\Big),
        \qquad \kappa_C = \frac{p_a - p_e}{1 - p_e}.

    With two annotators and no missing rating it is Cohen's kappa.

    Parameters
    ----------
    reliability_data : array-like of shape (n_annotators, n_units)
        As for :func:`gwet_ac`. Every annotator must rate at least one unit.
    %(weights)s
    labels : array-like of shape (n_values,), default=None
        Every possible value, lowest first.

    Returns
    -------
    coefficient : float
        At most 1. NaN, with an ``UndefinedMetricWarning``, when no unit has two
        annotations, an annotator rated no unit, or chance agreement is 1.

    See Also
    --------
    sklearn_ordinal.stats.agreement_interval : Its confidence interval.
    fleiss_kappa, sklearn.metrics.cohen_kappa_score

    References
    ----------
    .. [1] A. J. Conger, "Integration and generalization of kappas for multiple
       raters", Psychological Bulletin 88 (1980) 322-328.
    .. [2] K. L. Gwet, "Handbook of Inter-Rater Reliability", 4th edition, 2014
       (``conger.kappa.raw`` of irrCAC).

    Examples
    --------
    %(example)s
    >>> from sklearn_ordinal.metrics import conger_kappa
    >>> round(conger_kappa(ratings), 5)  # irrCAC: 0.76282
    0.76282
    """
    return agreement_coefficient(reliability_data, "conger_kappa", weights=weights,
                                 labels=labels)


@_doc
@validate_params(_PARAMETERS, prefer_skip_nested_validation=True)
def brennan_prediger(
    reliability_data: ArrayLike,
    *,
    weights: Union[str, ArrayLike] = "identity",
    labels: Optional[ArrayLike] = None,
) -> float:
    r"""Brennan and Prediger's coefficient: chance agreement of uniformly random values.

    The observed agreement :math:`p_a` is that of :func:`gwet_ac`; chance is two
    values drawn uniformly from the :math:`K` values:

    .. math::

        p_e = \frac{1}{K^2} \sum_{k,l} w_{kl}, \qquad
        \mathrm{BP} = \frac{p_a - p_e}{1 - p_e}.

    :math:`K` counts the values of ``labels`` (or those used), so list every
    possible value.

    Parameters
    ----------
    reliability_data : array-like of shape (n_annotators, n_units)
        As for :func:`gwet_ac`.
    %(weights)s
    labels : array-like of shape (n_values,), default=None
        Every possible value, lowest first.

    Returns
    -------
    coefficient : float
        At most 1. NaN, with an ``UndefinedMetricWarning``, when no unit has two
        annotations or the scale has one value.

    See Also
    --------
    sklearn_ordinal.stats.agreement_interval : Its confidence interval.
    percent_agreement

    References
    ----------
    .. [1] R. L. Brennan and D. J. Prediger, "Coefficient kappa: some uses, misuses,
       and alternatives", Educational and Psychological Measurement 41 (1981)
       687-699.
    .. [2] K. L. Gwet, "Handbook of Inter-Rater Reliability", 4th edition, 2014
       (``bp.coeff.raw`` of irrCAC).

    Examples
    --------
    %(example)s
    >>> from sklearn_ordinal.metrics import brennan_prediger
    >>> round(brennan_prediger(ratings), 5)  # irrCAC: 0.77273
    0.77273
    """
    return agreement_coefficient(reliability_data, "brennan_prediger", weights=weights,
                                 labels=labels)


@_doc
@validate_params(_PARAMETERS, prefer_skip_nested_validation=True)
def percent_agreement(
    reliability_data: ArrayLike,
    *,
    weights: Union[str, ArrayLike] = "identity",
    labels: Optional[ArrayLike] = None,
) -> float:
    r"""The (weighted) share of agreeing pairs of annotations, with no chance correction.

    The observed agreement :math:`p_a` of :func:`gwet_ac`: the mean over the units
    with two annotations or more of the weighted share of their pairs of
    annotations that agree,

    .. math::

        p_a = \frac{1}{n'} \sum_{i: r_i \ge 2} \sum_k
        \frac{r_{ik} (r^\star_{ik} - 1)}{r_i (r_i - 1)}.

    Parameters
    ----------
    reliability_data : array-like of shape (n_annotators, n_units)
        As for :func:`gwet_ac`.
    %(weights)s
    labels : array-like of shape (n_values,), default=None
        Every possible value, lowest first.

    Returns
    -------
    agreement : float
        In [0, 1]. NaN, with an ``UndefinedMetricWarning``, when no unit has two
        annotations.

    See Also
    --------
    sklearn_ordinal.stats.agreement_interval : Its confidence interval.
    gwet_ac : The same agreement, corrected for chance.

    References
    ----------
    .. [1] K. L. Gwet, "Handbook of Inter-Rater Reliability", 4th edition, 2014
       (``pa.coeff.raw`` of irrCAC).

    Examples
    --------
    %(example)s
    >>> from sklearn_ordinal.metrics import percent_agreement
    >>> round(percent_agreement(ratings), 7)  # irrCAC: 0.8181818
    0.8181818
    """
    return agreement_coefficient(reliability_data, "percent_agreement", weights=weights,
                                 labels=labels)
