"""Calibration of ordinal class probabilities: the CORP decomposition of the ranked
probability score and the reliability diagram of each cumulative forecast.

The RPS is the sum over the thresholds ``k = 1 .. K - 1`` of the Brier scores of the
cumulative forecasts :math:`F_k = P(Y \\le c_k)` against :math:`1[y \\le c_k]`. The
CORP approach of Dimitriadis, Gneiting and Jordan (2021) recalibrates each of these
binary forecasts by isotonic regression (the pool-adjacent-violators algorithm,
SciPy's or scikit-learn's), which splits its mean score exactly into miscalibration
minus discrimination plus uncertainty; the RPS's split is the sum of its
thresholds'. One sort and one isotonic fit per threshold.

Layer: measures (3).
"""

# Annotations stay text: help() and the signature show ArrayLike, not its expansion.
from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any, NamedTuple, Optional

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray
from sklearn.utils import check_random_state

from .._compat import Interval, isotonic_regression, validate_params
from .._validation import _refuse_dask
from ._probabilistic import _cumulative_forecasts

# Forecasts closer than this are one forecast value. Cumulative sums of the same
# probabilities added in another order differ in the last place (0.1 + 0.2 is
# 0.30000000000000004; a row's cumulative sum may end at 0.9999999999999999 beside
# another's 1.0): they are the same forecast and CORP pools them. scikit-learn's
# IsotonicRegression merges such values too, but then predicts NaN for the value it
# dropped at the top of its range; pooling here, before the fit, avoids that.
_SAME_FORECAST = 1e-12

# Sequences fitted together by one isotonic call (see _isotonic_by_row): the shift of
# the last one, 2 x 64, costs at most 128 ulp of 1 (3e-14) in the fitted values.
_ROWS_PER_CALL = 64

_PARAMETERS = {
    "y_true": ["array-like"],
    "y_proba": ["array-like"],
    "labels": ["array-like", None],
    "sample_weight": ["array-like", None],
}


class _Fit(NamedTuple):
    """CORP on one threshold: the data pooled by forecast value and its isotonic fit."""

    values: NDArray[np.float64]  # (n,) the items' forecasts
    forecast: NDArray[np.float64]  # (G,) each pooled value's smallest forecast
    weight: NDArray[np.float64]  # (G,) its total weight
    positive: NDArray[np.float64]  # (G,) its weight of items with y <= c_k
    recalibrated: NDArray[np.float64]  # (G,) the isotonic fit of positive / weight
    score: float  # mean Brier score of the forecast
    recalibrated_score: float  # mean Brier score of the recalibrated forecast
    uncertainty: float  # mean Brier score of the base rate

    def groups(self) -> NDArray[np.intp]:
        """The pooled value (0 .. G - 1) of each item, in the items' order."""
        order = np.argsort(self.values)
        group = np.empty(len(order), dtype=np.intp)
        group[order] = np.cumsum(_starts_of_values(self.values[order])) - 1
        return group


def _starts_of_values(sorted_values):
    """Whether each of the sorted values starts a new forecast value (see
    :data:`_SAME_FORECAST`)."""
    first = np.empty(len(sorted_values), dtype=bool)
    first[:1] = True
    np.greater(np.diff(sorted_values), _SAME_FORECAST, out=first[1:])
    return first


def _brier_of_groups(value, weight, positive):
    """``sum_g`` of the weighted Brier scores of forecast ``value[g]`` on ``weight[g]``
    items, ``positive[g]`` of them positive (each term non-negative)."""
    return float(np.sum(positive * (1 - value) ** 2 + (weight - positive) * value**2))


def _corp(forecast, outcome, weights):
    """CORP of one binary forecast: ``forecast`` (n,), ``outcome`` (n,) booleans,
    ``weights`` (n,) positive or None."""
    if weights is None:
        # One sort of integers instead of an argsort (several times slower): the
        # bits of a non-negative double below 2 order as the double and leave the
        # top bit free, which takes the outcome, so the sorted keys give the sorted
        # forecasts and, beside them, their outcomes. (+ 0.0 turns -0.0 into 0.0.)
        keys = np.sort(((forecast + 0.0).view(np.int64) << 1) | outcome)
        sorted_forecast = (keys >> 1).view(np.float64)
        starts = np.flatnonzero(_starts_of_values(sorted_forecast))
        bounds = sorted_forecast[starts]
        weight = np.diff(np.append(starts, len(forecast))).astype(np.float64)
        positive = np.add.reduceat(keys & 1, starts).astype(np.float64)
        score = float(np.mean((forecast - outcome) ** 2))
    else:
        order = np.argsort(forecast)
        sorted_forecast = forecast[order]
        starts = np.flatnonzero(_starts_of_values(sorted_forecast))
        bounds = sorted_forecast[starts]
        sorted_weights = weights[order]
        weight = np.add.reduceat(sorted_weights, starts)
        positive = np.add.reduceat(sorted_weights * outcome[order], starts)
        score = float(np.average((forecast - outcome) ** 2, weights=weights))
    recalibrated = isotonic_regression(positive / weight, weight)
    total, base_rate = weight.sum(), positive.sum() / weight.sum()
    return _Fit(
        values=forecast,
        forecast=bounds,
        weight=weight,
        positive=positive,
        recalibrated=recalibrated,
        score=score,
        recalibrated_score=_brier_of_groups(recalibrated, weight, positive) / total,
        uncertainty=_brier_of_groups(base_rate, total, positive.sum()) / total,
    )


def _corp_fits(y_true, y_proba, labels, sample_weight, measure):
    """``(classes, codes, F, weights, fits)``: the checked data and the CORP fit of
    each threshold's cumulative forecast."""
    _refuse_dask(measure, y_true, y_proba)
    classes, codes, cumulative, weights = _cumulative_forecasts(
        y_true, y_proba, labels, sample_weight, measure
    )
    if weights is not None:
        weights = np.asarray(weights, dtype=np.float64)
    # One contiguous row per threshold: a column of F would be read with a stride.
    fits = [_corp(column, codes <= k, weights)
            for k, column in enumerate(np.ascontiguousarray(cumulative.T))]
    return classes, codes, cumulative, weights, fits


def _isotonic_by_row(row, values, weights):
    """Isotonic fits of many sequences in few calls: entry ``i`` of the flat arrays
    belongs to sequence ``row[i]`` (``row`` non-decreasing), ``values`` in [0, 1].

    Shifted by 2 per sequence, each sequence lies above the one before, so the
    least-squares fit of the whole never pools across two of them (a sequence's fit
    stays within the range of its values) and is the fits of the sequences side by
    side; :data:`_ROWS_PER_CALL` sequences per call bound the rounding of the shift.
    """
    fitted = np.empty(len(values))
    bounds = np.searchsorted(row, np.arange(row[0], row[-1] + 1, _ROWS_PER_CALL))
    for start, stop in zip(bounds, np.append(bounds[1:], len(row))):
        shift = 2.0 * (row[start:stop] - row[start])
        fitted[start:stop] = isotonic_regression(values[start:stop] + shift,
                                                 weights[start:stop]) - shift
    return fitted


@dataclass(frozen=True, eq=False)
class ScoreDecomposition:
    """The CORP decomposition of the ranked probability score, per threshold and summed.

    ``score = miscalibration - discrimination + uncertainty``, for the sums and for
    every threshold; returned by
    :func:`~sklearn_ordinal.metrics.ranked_probability_score_decomposition`.

    Parameters
    ----------
    score : float
        The ranked probability score, the sum of the thresholds' Brier scores.
    miscalibration : float
        MCB: how much recalibrating each threshold's forecast would lower the score
        (non-negative; 0 for a calibrated forecast).
    discrimination : float
        DSC: how much the recalibrated forecasts beat the base rates (non-negative;
        0 for a forecast that gives every item the same probabilities).
    uncertainty : float
        UNC: the score of the base rates :math:`\\bar o_k (1 - \\bar o_k)`, a
        property of the gold standard alone.
    per_threshold : pandas.DataFrame
        One row per threshold, indexed by the class :math:`c_k` of the forecast
        :math:`P(Y \\le c_k)`, with the columns ``score``, ``miscalibration``,
        ``discrimination`` and ``uncertainty``; its columns add up to the sums.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import ranked_probability_score_decomposition
    >>> result = ranked_probability_score_decomposition(
    ...     [0, 1, 1, 2], [[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.0, 0.5, 0.5]])
    >>> result.per_threshold.index.tolist()
    [0, 1]
    >>> round(result.miscalibration - result.discrimination + result.uncertainty, 10)
    0.25
    >>> round(result.score, 10)
    0.25
    """

    score: float
    miscalibration: float
    discrimination: float
    uncertainty: float
    per_threshold: pd.DataFrame = field(repr=False)


def _decomposition(classes, fits, scale):
    rows = pd.DataFrame(
        {
            "score": [fit.score for fit in fits],
            "miscalibration": [fit.score - fit.recalibrated_score for fit in fits],
            "discrimination": [fit.uncertainty - fit.recalibrated_score for fit in fits],
            "uncertainty": [fit.uncertainty for fit in fits],
        },
        index=pd.Index(classes[:-1], name="y <="),
    ) * scale
    sums = rows.sum()
    return ScoreDecomposition(
        score=float(sums["score"]),
        miscalibration=float(sums["miscalibration"]),
        discrimination=float(sums["discrimination"]),
        uncertainty=float(sums["uncertainty"]),
        per_threshold=rows,
    )


@validate_params({**_PARAMETERS, "normalize": ["boolean"]}, prefer_skip_nested_validation=True)
def ranked_probability_score_decomposition(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
    normalize: bool = False,
) -> ScoreDecomposition:
    r"""The ranked probability score split into miscalibration, discrimination, uncertainty.

    The CORP decomposition, per threshold and summed.

    The RPS (:func:`ranked_probability_score_loss`) is the sum over the thresholds
    :math:`k = 1, \dots, K - 1` of the mean Brier score
    :math:`S_k(F) = \frac{1}{W} \sum_d w_d (F_{dk} - o_{dk})^2` of the cumulative
    forecast :math:`F_{dk} = P(Y_d \le c_k)` against :math:`o_{dk} = 1[y_d \le c_k]`.
    For each threshold, CORP (Dimitriadis, Gneiting and Jordan 2021) recalibrates
    the forecast by the isotonic (pool-adjacent-violators) regression
    :math:`\hat F_{dk}` of the outcomes on the forecast, equal forecasts pooled,
    and splits the score exactly:

    .. math::

        S_k(F) = \underbrace{S_k(F) - S_k(\hat F)}_{\mathrm{MCB}_k}
               - \underbrace{(S_k(\bar o_k) - S_k(\hat F))}_{\mathrm{DSC}_k}
               + \underbrace{S_k(\bar o_k)}_{\mathrm{UNC}_k},

    with :math:`\bar o_k` the weighted share of items at most :math:`c_k`, so
    :math:`\mathrm{UNC}_k = \bar o_k (1 - \bar o_k)`. Summed over the thresholds,
    :math:`\mathrm{RPS} = \mathrm{MCB} - \mathrm{DSC} + \mathrm{UNC}`. MCB and DSC
    are non-negative: MCB is 0 when the forecast is its own recalibration
    (calibrated), DSC is 0 when the forecast cannot tell items apart (a constant
    forecast). Forecasts that differ by at most 1e-12 are pooled as one value:
    cumulative sums of equal probabilities differ in the last place.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_proba : array-like of shape (n_samples, n_classes)
        Predicted probabilities, one column per class in class order: each row is
        non-negative and sums to 1 (within 1e-6).
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order, one per column of ``y_proba`` (see
        :func:`ranked_probability_score_loss`).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights; a weight of 2 counts as the item twice.
    normalize : bool, default=False
        Divide every component by :math:`K - 1`, as
        :func:`ranked_probability_score_loss` does.

    Returns
    -------
    decomposition : ScoreDecomposition
        ``score``, ``miscalibration``, ``discrimination`` and ``uncertainty`` summed
        over the thresholds, and ``per_threshold``, a DataFrame of the thresholds'.

    See Also
    --------
    ranked_probability_score_loss : The score decomposed.
    ordinal_calibration_curve : The recalibrated forecasts, threshold by threshold.
    OrdinalCalibrationDisplay : Their reliability diagrams.
    sklearn_ordinal.stats.decomposition_interval : Intervals for MCB, DSC and UNC.

    Notes
    -----
    One sort and one isotonic regression per threshold: ``O(K n log n)``.
    SciPy's :func:`scipy.optimize.isotonic_regression` fits it (scikit-learn's
    :func:`sklearn.isotonic.isotonic_regression` before SciPy 1.12).

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), 2021, e2016191118.
    .. [2] E. S. Epstein, "A scoring system for probability forecasts of ranked
       categories", Journal of Applied Meteorology 8(6), 1969, pp. 985-987.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import ranked_probability_score_decomposition
    >>> y_true = [0, 0, 1, 2, 2, 2]
    >>> y_proba = [[0.8, 0.2, 0.0], [0.6, 0.2, 0.2], [0.2, 0.6, 0.2],
    ...            [0.0, 0.2, 0.8], [0.2, 0.2, 0.6], [0.6, 0.2, 0.2]]
    >>> result = ranked_probability_score_decomposition(y_true, y_proba)
    >>> round(result.score, 4), round(result.miscalibration, 4)
    (0.26, 0.0656)
    >>> round(result.discrimination, 4), round(result.uncertainty, 4)
    (0.2778, 0.4722)
    >>> result.per_threshold.round(4)
           score  miscalibration  discrimination  uncertainty
    y <=
    0     0.1067          0.0233          0.1389       0.2222
    1     0.1533          0.0422          0.1389       0.2500
    """
    classes, _, _, _, fits = _corp_fits(
        y_true, y_proba, labels, sample_weight, "ranked_probability_score_decomposition"
    )
    return _decomposition(classes, fits, 1 / (len(classes) - 1) if normalize else 1.0)


@dataclass(frozen=True, eq=False)
class OrdinalCalibrationCurve:
    """The reliability diagram of each cumulative forecast :math:`P(Y \\le c_k)`.

    Returned by :func:`~sklearn_ordinal.metrics.ordinal_calibration_curve`; lists
    hold one array per threshold, in class order.

    Parameters
    ----------
    thresholds : ndarray of shape (n_classes - 1,)
        The class :math:`c_k` of each threshold's forecast :math:`P(Y \\le c_k)`.
    forecast : list of ndarray
        The distinct forecast values, increasing.
    recalibrated : list of ndarray
        Their CORP recalibrated values: the isotonic regression of the outcome
        :math:`1[y \\le c_k]` on the forecast, non-decreasing.
    weight : list of ndarray
        The total weight of the items at each forecast value.
    band_forecast : list of ndarray or None
        The forecast values at which the consistency band is given (every value,
        or 200 of them spread over the items); None without a band.
    band_low, band_high : list of ndarray or None
        The consistency band at ``band_forecast``: the quantiles
        ``(1 - confidence_level) / 2`` and ``(1 + confidence_level) / 2`` of the
        recalibrated values of outcomes drawn as if the forecast were calibrated.
    confidence_level : float or None
        The level of the band.
    decomposition : ScoreDecomposition
        The score's MCB, DSC and UNC, per threshold and summed.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import ordinal_calibration_curve
    >>> curve = ordinal_calibration_curve(
    ...     [0, 1, 1, 2], [[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.0, 0.5, 0.5]],
    ...     n_resamples=0)
    >>> curve.forecast[1], curve.recalibrated[1]
    (array([0.5, 1. ]), array([0.5, 1. ]))
    >>> curve.band_low is None
    True
    """

    thresholds: NDArray[Any]
    forecast: list[NDArray[np.float64]]
    recalibrated: list[NDArray[np.float64]]
    weight: list[NDArray[np.float64]]
    band_forecast: Optional[list[NDArray[np.float64]]]
    band_low: Optional[list[NDArray[np.float64]]]
    band_high: Optional[list[NDArray[np.float64]]]
    confidence_level: Optional[float]
    decomposition: ScoreDecomposition


# The band is drawn at most at this many forecast values per threshold (the
# resampled fits are kept there only): enough for a smooth band.
_BAND_POINTS = 200
# Resampled fits kept at once: bounds memory to about 80 MB.
_BAND_VALUES_PER_BATCH = 10_000_000


def _consistency_band(fit, weights, n_resamples, confidence_level, rng):
    """``(at, low, high)``: the pointwise quantiles of CORP's recalibrated values at
    the forecast values ``at`` when the outcomes are drawn, item by item, as
    Bernoulli(forecast): the resampling consistency band of Dimitriadis et al.

    Items of one pooled value and one weight form a cell whose positive weight is
    ``weight x Binomial(items, forecast)``: one draw per cell and resample.
    """
    n_values = len(fit.forecast)
    group = fit.groups()
    item_weights = np.ones(len(group)) if weights is None else weights
    cells, counts = np.unique(np.column_stack([group, item_weights]), axis=0,
                              return_counts=True)
    cell_group = cells[:, 0].astype(np.intp)
    cell_weight = cells[:, 1]
    cell_starts = np.flatnonzero(np.r_[True, np.diff(cell_group) > 0])
    chance = np.clip(fit.forecast[cell_group], 0.0, 1.0)
    at = (np.arange(n_values) if n_values <= _BAND_POINTS
          else np.unique(np.searchsorted(np.cumsum(fit.weight) / fit.weight.sum(),
                                         np.linspace(0, 1, _BAND_POINTS), side="left")
                         .clip(0, n_values - 1)))
    kept = np.empty((n_resamples, len(at)))
    batch = max(1, _BAND_VALUES_PER_BATCH // max(len(cells), n_values))
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        drawn = rng.binomial(counts, chance, size=(size, len(cells))) * cell_weight
        positive = np.add.reduceat(drawn, cell_starts, axis=1)
        rows = np.repeat(np.arange(size), n_values)
        fitted = _isotonic_by_row(rows, (positive / fit.weight).ravel(),
                                  np.tile(fit.weight, size))
        kept[start:start + size] = fitted.reshape(size, n_values)[:, at]
    tail = (1 - confidence_level) / 2
    low, high = np.quantile(kept, [tail, 1 - tail], axis=0)
    return fit.forecast[at], low, high


@validate_params(
    {
        **_PARAMETERS,
        "n_resamples": [Interval(Integral, 0, None, closed="left")],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def ordinal_calibration_curve(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
    n_resamples: int = 1000,
    confidence_level: float = 0.9,
    random_state: Optional[int | np.random.RandomState] = None,
) -> OrdinalCalibrationCurve:
    r"""CORP reliability diagrams of the cumulative forecasts, with consistency bands.

    For each threshold :math:`k = 1, \dots, K - 1`, the cumulative forecast
    :math:`F_k = P(Y \le c_k)` is a binary forecast of :math:`1[y \le c_k]`. Its
    CORP reliability diagram (Dimitriadis, Gneiting and Jordan 2021) plots each
    distinct forecast value against its recalibrated value, the isotonic
    (pool-adjacent-violators) regression of the outcomes on the forecasts: the
    conditional event probability given the forecast, estimated without any
    choice of bins. A calibrated forecast lies on the diagonal.

    The consistency band shows how far from the diagonal a calibrated forecast's
    diagram strays by chance: ``n_resamples`` times, each item's outcome is drawn
    as Bernoulli(its forecast) (the hypothesis of calibration), the isotonic fit
    is recomputed, and the band is the pointwise ``(1 -+ confidence_level) / 2``
    quantiles of the fits. Where the diagram leaves the band, the data speak
    against calibration there.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_proba : array-like of shape (n_samples, n_classes)
        Predicted probabilities, one column per class in class order: each row is
        non-negative and sums to 1 (within 1e-6).
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order, one per column of ``y_proba``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights; a weight of 2 counts as the item twice.
    n_resamples : int, default=1000
        Resamples of the consistency band; 0 computes none.
    confidence_level : float, default=0.9
        The level of the pointwise band, in (0, 1) (the paper's 90%).
    random_state : int, RandomState instance or None, default=None
        Seeds the resampling.

    Returns
    -------
    curve : OrdinalCalibrationCurve
        Per threshold, the forecast values, their recalibrated values and weights,
        the band, and the score's decomposition.

    See Also
    --------
    ranked_probability_score_decomposition : MCB, DSC and UNC alone.
    OrdinalCalibrationDisplay : Draws these diagrams.
    sklearn.calibration.calibration_curve : The binned diagram of a binary forecast.

    Notes
    -----
    One sort and one isotonic regression per threshold for the diagram; the band
    fits ``n_resamples`` isotonic regressions per threshold, 64 at a time in one
    call (``O(n_resamples n)``). Above 200 distinct forecast values, the band is
    kept at 200 of them, spread evenly over the items' weight.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), 2021, e2016191118.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import ordinal_calibration_curve
    >>> y_true = [0, 0, 1, 2, 2, 2]
    >>> y_proba = [[0.8, 0.2, 0.0], [0.6, 0.2, 0.2], [0.2, 0.6, 0.2],
    ...            [0.0, 0.2, 0.8], [0.2, 0.2, 0.6], [0.6, 0.2, 0.2]]
    >>> curve = ordinal_calibration_curve(y_true, y_proba, random_state=0)
    >>> curve.thresholds
    array([0, 1])
    >>> curve.forecast[0]
    array([0. , 0.2, 0.6, 0.8])
    >>> curve.recalibrated[0]
    array([0. , 0. , 0.5, 1. ])
    """
    measure = "ordinal_calibration_curve"
    classes, _, _, weights, fits = _corp_fits(y_true, y_proba, labels, sample_weight, measure)
    bands = None
    if n_resamples:
        rng = check_random_state(random_state)
        bands = [_consistency_band(fit, weights, n_resamples, confidence_level, rng)
                 for fit in fits]
    return OrdinalCalibrationCurve(
        thresholds=classes[:-1],
        forecast=[fit.forecast for fit in fits],
        recalibrated=[fit.recalibrated for fit in fits],
        weight=[fit.weight for fit in fits],
        band_forecast=None if bands is None else [band[0] for band in bands],
        band_low=None if bands is None else [band[1] for band in bands],
        band_high=None if bands is None else [band[2] for band in bands],
        confidence_level=confidence_level if bands is not None else None,
        decomposition=_decomposition(classes, fits, 1.0),
    )
