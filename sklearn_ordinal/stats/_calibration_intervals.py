"""Confidence intervals for the CORP components of the ranked probability score.

MCB, DSC and UNC are functions of the items through, per threshold, the weight and
the weight of positive items at each distinct forecast value (the isotonic fit is
a function of these): that table is the intermediate a resample redraws, as the
other measures' confusion matrix is (see :mod:`._resampling`), and each resample
refits the isotonic regressions, 64 resamples per call.

Layer: statistics (5).
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Literal, Optional

import numpy as np
import numpy.typing as npt
from sklearn.utils import check_random_state

from .._compat import Interval, StrOptions, validate_params
from ..metrics._calibration import _corp_fits, _decomposition, _isotonic_by_row
from ._influence import NORMAL, delta_variance, normal_interval, warn_if_no_variation
from ._intervals import _bootstrap, _check_same, _group_codes, _warn_few_groups
from ._resampling import (
    DEFAULT_N_RESAMPLES,
    ConfidenceInterval,
    Part,
    ScoreInterval,
    check_n_resamples,
    complete,
    units_from_items,
)

_COMPONENTS = ("miscalibration", "discrimination", "uncertainty")

# method="auto": the basic bootstrap interval, whose 2 theta - q corrects part of
# the upward bias of the isotonic estimates and covered best in
# benchmarks/bench_calibration.py --intervals; from this many units, the normal
# interval, as a bootstrap refitting every threshold would take minutes.
_AUTO_NORMAL_FROM = 100_000


def _frozen_values(component, codes, cumulative, fits):
    """Each item's share of the component with the isotonic fits held fixed: the
    component is their weighted mean, and its influence values theirs (the fit's own
    movement has no first-order effect on the score of a least-squares fit)."""
    values = np.zeros(len(codes))
    for k, fit in enumerate(fits):
        outcome = codes <= k
        base_rate = fit.positive.sum() / fit.weight.sum()
        recalibrated = fit.recalibrated[fit.groups()]
        if component != "uncertainty":
            values -= (recalibrated - outcome) ** 2
        if component == "miscalibration":
            values += (cumulative[:, k] - outcome) ** 2
        else:
            values += (base_rate - outcome) ** 2
    return values


def _statistic(component, fits, offsets, scale):
    """The component as a function of the intermediate: ``[W, sum w s, (W_g, P_g) of
    each threshold's forecast values ..., sum w a, W]`` (``s`` an item's score,
    ``a`` its frozen value, for the jackknife)."""

    def batched(stack):
        stack = np.atleast_2d(stack)
        total = stack[:, 0]
        value = stack[:, 1] / total if component == "miscalibration" else 0.0
        for k, fit in enumerate(fits):
            part = stack[:, offsets[k]:offsets[k + 1]]
            weight, positive = part[:, 0::2], part[:, 1::2]
            rows, columns = np.nonzero(weight > 0)
            kept_weight, kept_positive = weight[rows, columns], positive[rows, columns]
            fitted = _isotonic_by_row(rows, kept_positive / kept_weight, kept_weight)
            recalibrated = np.bincount(
                rows, kept_positive * (1 - fitted) ** 2 + (kept_weight - kept_positive)
                * fitted**2, minlength=len(stack)) / total
            base_rate = positive.sum(axis=1) / total
            if component != "uncertainty":
                value = value - recalibrated
            if component != "miscalibration":
                value = value + base_rate * (1 - base_rate)
        return value * scale

    def statistic(x):
        return float(batched(x[np.newaxis])[0])

    def leave_one_out(units):
        # The jackknife of the frozen values' weighted mean: the BCa acceleration
        # from the influence values, at O(n) instead of a refit per unit.
        sums, weights = units.contributions[:, -2:].toarray().T
        total_sum, total_weight = units.counts @ sums, units.counts @ weights
        with np.errstate(invalid="ignore", divide="ignore"):
            return (total_sum - sums) / (total_weight - weights) * scale

    statistic.batched = batched
    statistic.leave_one_out = leave_one_out
    return statistic


def _bootstrap_layout(component, codes, cumulative, weights, fits, frozen, groups, scale):
    """``(units, statistic)``: the items (or groups) as resampling units of the
    intermediate of :func:`_statistic`, and the component as its function."""
    # The intermediate: [W, sum w s] then, per threshold, (W_g, P_g) of each of its
    # forecast values, then [sum w a, W] for the jackknife.
    n_items = len(codes)
    sizes = [2 * len(fit.forecast) for fit in fits]
    offsets = np.concatenate([[2], 2 + np.cumsum(sizes)])
    size = int(offsets[-1]) + 2
    outcomes = codes[:, np.newaxis] <= np.arange(len(fits))
    scores = ((cumulative - outcomes) ** 2).sum(axis=1)
    columns = [np.zeros(n_items, dtype=np.intp), np.ones(n_items, dtype=np.intp)]
    values = [weights, weights * scores]
    for k, fit in enumerate(fits):
        position = offsets[k] + 2 * fit.groups()
        columns += [position, position + 1]
        values += [weights, weights * outcomes[:, k]]
    columns += [np.full(n_items, size - 2), np.full(n_items, size - 1)]
    values += [weights * frozen, weights]
    units = units_from_items(np.column_stack(columns), np.column_stack(values), size, groups)
    return units, _statistic(component, fits, offsets, scale)


_PARAMETERS = {
    "y_true": ["array-like"],
    "y_proba": ["array-like"],
    "component": [StrOptions(set(_COMPONENTS))],
    "confidence_level": [Interval(Real, 0, 1, closed="neither")],
    "n_resamples": [Interval(Integral, 1, None, closed="left")],
    "method": [StrOptions({"auto", "bca", "percentile", "basic", "normal"})],
    "labels": ["array-like", None],
    "sample_weight": ["array-like", None],
    "groups": ["array-like", None],
    "normalize": ["boolean"],
    "random_state": ["random_state"],
}


@validate_params(_PARAMETERS, prefer_skip_nested_validation=True)
def decomposition_interval(
    y_true: npt.ArrayLike,
    y_proba: npt.ArrayLike,
    *,
    component: Literal["miscalibration", "discrimination", "uncertainty"] = "miscalibration",
    confidence_level: float = 0.95,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    method: Literal["auto", "bca", "percentile", "basic", "normal"] = "auto",
    labels: Optional[npt.ArrayLike] = None,
    sample_weight: Optional[npt.ArrayLike] = None,
    groups: Optional[npt.ArrayLike] = None,
    normalize: bool = False,
    random_state: Optional[int | np.random.RandomState] = None,
) -> ScoreInterval:
    r"""A confidence interval for the MCB, DSC or UNC of the ranked probability score.

    The components, miscalibration (MCB), discrimination (DSC) and uncertainty
    (UNC), are those of
    :func:`~sklearn_ordinal.metrics.ranked_probability_score_decomposition`. A
    bootstrap resample draws the items (or ``groups``) with replacement and
    recomputes the component, its isotonic fits included; the intervals are those
    of :func:`score_interval` (``"bca"``, ``"percentile"``, ``"basic"``). The BCa
    acceleration comes from the influence values below rather than a refit per
    left-out item.

    ``"normal"`` is the delta-method interval: with the isotonic fits held fixed,
    each component is the weighted mean of item values :math:`a_d` (for MCB,
    :math:`\sum_k (F_{dk} - o_{dk})^2 - (\hat F_{dk} - o_{dk})^2`), and a
    least-squares fit moves the score by nothing to first order, so these are the
    items' influence values and :math:`\hat V` their variance of the mean.
    ``"auto"`` takes ``"basic"`` below :math:`10^5` items (or groups), the
    analytic ``"normal"`` from there (a bootstrap refitting every threshold on
    that many items costs minutes).

    **What the interval covers, and what it does not.** The sampling of the test
    items for a fixed forecaster (its training is not redone). Not the bias of the
    estimates: the isotonic fit follows the noise of the items, so MCB and DSC
    are estimated too high, MCB by about as much as its standard error at a few
    hundred items (the bias shrinks like :math:`n^{-2/3}` for continuous
    forecasts, the standard error like :math:`n^{-1/2}`). The percentile and BCa
    intervals of MCB then cover its population value almost never, the normal one
    rarely; the basic interval, :math:`2\hat\theta - q`, corrects part of the
    bias and covers best, yet below its level (the benchmarks page records the
    coverage study). Read MCB's interval as the spread of the estimate, not as a
    range for the population value. Where the forecast is calibrated, MCB sits at
    its boundary 0: whether it is calibrated is asked by the consistency bands of
    :func:`~sklearn_ordinal.metrics.ordinal_calibration_curve` instead. The
    difference of two systems' ranked probability scores, which is
    :math:`\Delta\mathrm{MCB} - \Delta\mathrm{DSC}` (UNC is the gold standard's),
    has its paired interval and test by :func:`compare_scores` with
    ``"ranked_probability_score_loss"``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels.
    y_proba : array-like of shape (n_samples, n_classes)
        Predicted probabilities, one column per class in class order.
    component : {"miscalibration", "discrimination", "uncertainty"}, default="miscalibration"
        The component, summed over the thresholds.
    confidence_level : float, default=0.95
        In (0, 1).
    n_resamples : int, default=9999
        Bootstrap resamples.
    method : {"auto", "bca", "percentile", "basic", "normal"}, default="auto"
        As above.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order, one per column of ``y_proba``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.
    groups : array-like of shape (n_samples,), default=None
        Group of each item: the groups are resampled.
    normalize : bool, default=False
        Divide by :math:`K - 1`, as the decomposition does.
    random_state : int, RandomState instance or None, default=None
        Seeds the resampling.

    Returns
    -------
    result : ScoreInterval
        ``estimate``, ``confidence_interval``, ``standard_error``,
        ``bootstrap_distribution`` (empty for ``"normal"``) and ``method``.

    See Also
    --------
    sklearn_ordinal.metrics.ranked_probability_score_decomposition : The components.
    compare_scores : The paired difference of two systems' ranked probability scores.

    Notes
    -----
    A resample costs one isotonic regression per threshold on the distinct
    forecast values it holds, fitted 64 resamples per call: ``O(B K n)`` for ``B``
    resamples of ``n`` items with distinct forecasts.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), 2021, e2016191118.
    .. [2] B. Efron and R. J. Tibshirani, "An Introduction to the Bootstrap",
       Chapman & Hall, 1993, chapters 14 and 21.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ordinal.stats import decomposition_interval
    >>> rng = np.random.RandomState(0)
    >>> y_proba = rng.dirichlet([1, 1, 1], size=300)
    >>> y_true = np.array([rng.choice(3, p=row ** 2 / (row ** 2).sum()) for row in y_proba])
    >>> result = decomposition_interval(y_true, y_proba, n_resamples=999, random_state=0)
    >>> result.method
    'basic'
    >>> round(result.estimate, 3)
    0.03
    >>> [round(end, 3) for end in result.confidence_interval]  # lower: the bias corrected
    [0.008, 0.029]
    """
    return _interval(y_true, y_proba, component, confidence_level, n_resamples, method,
                     labels, sample_weight, groups, normalize, random_state)


def _interval(y_true, y_proba, component, confidence_level, n_resamples, method, labels,
              sample_weight, groups, normalize, random_state):
    check_n_resamples(n_resamples, confidence_level)
    classes, codes, cumulative, weights, fits = _corp_fits(
        y_true, y_proba, labels, sample_weight, "decomposition_interval"
    )
    scale = 1 / (len(classes) - 1) if normalize else 1.0
    estimate = getattr(_decomposition(classes, fits, scale), component)
    n_items = len(codes)
    if groups is not None:
        # Zero-weight items are dropped there as by the decomposition.
        groups = _group_codes(groups, len(np.asarray(y_true)), sample_weight)
        _warn_few_groups(int(groups.max()) + 1)
    n_units = n_items if groups is None else int(groups.max()) + 1
    if method == "auto":
        method = NORMAL if n_units >= _AUTO_NORMAL_FROM else "basic"
    weights = np.ones(n_items) if weights is None else weights
    frozen = _frozen_values(component, codes, cumulative, fits) * scale
    bounds = (0.0, (len(classes) - 1) * scale)
    if method == NORMAL:
        units = units_from_items(np.tile([0, 1], (n_items, 1)),
                                 np.column_stack([weights, weights * frozen]), 2, groups,
                                 distinct=False)

        def mean(x):
            return x[..., 1] / x[..., 0]

        mean.batched = mean
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _check_same(estimate, mean(units.total), component)
        standard_error = float(np.sqrt(delta_variance(mean, units)))
        warn_if_no_variation(standard_error, estimate)
        return ScoreInterval(
            estimate=estimate,
            confidence_interval=normal_interval(estimate, standard_error, confidence_level,
                                                bounds),
            standard_error=standard_error,
            bootstrap_distribution=np.empty(0),
            method=NORMAL,
            confidence_level=confidence_level,
        )
    units, statistic = _bootstrap_layout(component, codes, cumulative, weights, fits, frozen,
                                         groups, scale)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _check_same(estimate, statistic(units.total), component)
    rng = check_random_state(random_state)
    fields = complete(_bootstrap(units, [Part(slice(None), statistic)], estimate,
                                 n_resamples, method, confidence_level, rng))
    low, high = np.clip(fields["confidence_interval"], *bounds)
    fields["confidence_interval"] = ConfidenceInterval(float(low), float(high))
    return ScoreInterval(**fields)
