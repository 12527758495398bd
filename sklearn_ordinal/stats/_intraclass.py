r"""Confidence intervals of the intraclass correlations.

``method="f"``: the F-distribution intervals of Shrout and Fleiss (1979) and
McGraw and Wong (1996), with Satterthwaite's degrees of freedom for the forms 2.
The bootstrap draws the units with replacement: a resample's mean squares are one
weighted sum of the units' sums (``metrics/_intraclass._unit_sums``), for a batch
of resamples at once.
"""

from numbers import Integral, Real
from typing import Literal, Optional, Union

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats
from sklearn.utils import check_random_state

from .._compat import Interval, StrOptions, validate_params
from .._validation import UndefinedMeasureError
from ..metrics._intraclass import (
    _FORM_OF,
    _complete_table,
    _icc,
    _mean_squares,
    _unit_sums,
    resolve_form,
)
from ._resampling import (
    DEFAULT_N_RESAMPLES,
    ConfidenceInterval,
    ScoreInterval,
    check_n_resamples,
    interval,
)

_MAX_FLOATS_PER_BATCH = 2_000_000


def _f_interval(squares, form, estimate, confidence_level):
    """The F-based ends of Shrout and Fleiss (1979) / McGraw and Wong (1996)."""
    r, c, e, w, n, k = squares
    tail = 1 - (1 - confidence_level) / 2
    single = form.endswith(",1)")
    if form.startswith("ICC(2"):
        # Satterthwaite's degrees of freedom for the denominator (McGraw and Wong
        # 1996, table 7; Shrout and Fleiss 1979, eq. 11), read at the single rating's ICC.
        rho = float(_icc(squares, "ICC(2,1)"))
        f_columns = c / e
        numerator = (k - 1) * (n - 1) * (k * rho * f_columns + n * (1 + (k - 1) * rho)
                                         - k * rho) ** 2
        denominator = ((n - 1) * k**2 * rho**2 * f_columns**2
                       + (n * (1 + (k - 1) * rho) - k * rho) ** 2)
        v = numerator / denominator
        f_low = stats.f.ppf(tail, n - 1, v)
        f_high = stats.f.ppf(tail, v, n - 1)
        low = n * (r - f_low * e) / (f_low * (k * c + (k * n - k - n) * e) + n * r)
        high = n * (f_high * r - e) / (k * c + (k * n - k - n) * e + n * f_high * r)
        if not single:
            low, high = low * k / (1 + low * (k - 1)), high * k / (1 + high * (k - 1))
        return low, high
    if form.startswith("ICC(1"):
        f_value, df_error = r / w, n * (k - 1)
    else:
        f_value, df_error = r / e, (n - 1) * (k - 1)
    f_low = f_value / stats.f.ppf(tail, n - 1, df_error)
    f_high = f_value * stats.f.ppf(tail, df_error, n - 1)
    if single:
        return (f_low - 1) / (f_low + k - 1), (f_high - 1) / (f_high + k - 1)
    return 1 - 1 / f_low, 1 - 1 / f_high


def _bootstrap(sums, form, n_resamples, rng):
    n_units = len(sums)
    batch = max(1, _MAX_FLOATS_PER_BATCH // n_units)
    values = []
    for start in range(0, n_resamples, batch):
        draws = rng.multinomial(n_units, np.full(n_units, 1 / n_units),
                                size=min(batch, n_resamples - start))
        values.append(_icc(_mean_squares(draws @ sums), form))
    return np.concatenate(values)


@validate_params(
    {
        "ratings": ["array-like"],
        "form": [StrOptions(set(_FORM_OF))],
        "labels": ["array-like", None],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "method": [StrOptions({"f", "bca", "percentile", "basic"})],
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def intraclass_correlation_interval(
    ratings: ArrayLike,
    *,
    form: str = "ICC(2,1)",
    labels: Optional[ArrayLike] = None,
    confidence_level: float = 0.95,
    method: Literal["f", "bca", "percentile", "basic"] = "f",
    n_resamples: int = DEFAULT_N_RESAMPLES,
    random_state: Union[int, np.random.RandomState, None] = None,
) -> ScoreInterval:
    r"""An intraclass correlation with its confidence interval.

    ``method="f"``: the exact F intervals of the forms 1 and 3 and the approximate
    one of the forms 2 (Satterthwaite's degrees of freedom), as Shrout and Fleiss
    (1979) and McGraw and Wong (1996) give them, under their normal models. With
    :math:`F = MS_R / MS_E` (:math:`MS_W` for form 1), :math:`F_L = F /
    F_{1-\alpha/2}(n - 1, \nu)` and :math:`F_U = F \, F_{1-\alpha/2}(\nu, n - 1)`,
    the single-rating forms' ends are :math:`(F_L - 1) / (F_L + k - 1)` and
    :math:`(F_U - 1) / (F_U + k - 1)`, the averaged forms' :math:`1 - 1/F_L` and
    :math:`1 - 1/F_U`. ``"bca"``, ``"percentile"``, ``"basic"``: the units drawn
    with replacement, no model assumed.

    Parameters
    ----------
    ratings : array-like of shape (n_annotators, n_units)
        As for :func:`~sklearn_ordinal.metrics.intraclass_correlation`.
    form : str, default="ICC(2,1)"
        As for :func:`~sklearn_ordinal.metrics.intraclass_correlation`.
    labels : array-like of shape (n_values,), default=None
        The order of text values.
    confidence_level : float, default=0.95
        In (0, 1).
    method : {"f", "bca", "percentile", "basic"}, default="f"
        The F-based interval, or a bootstrap interval over the units.
    n_resamples : int, default=9999
        Bootstrap resamples (unused by ``"f"``).
    random_state : int, RandomState instance or None, default=None
        Seeds the resampling.

    Returns
    -------
    result : ScoreInterval
        ``estimate``, ``confidence_interval``, ``standard_error`` (NaN for
        ``"f"``, which gives none), ``bootstrap_distribution``, ``method``.

    Raises
    ------
    UndefinedMeasureError
        A ValueError: every rating is the same.

    References
    ----------
    .. [1] P. E. Shrout and J. L. Fleiss, "Intraclass correlations: uses in
       assessing rater reliability", Psychological Bulletin 86 (1979) 420-428.
    .. [2] K. O. McGraw and S. P. Wong, "Forming inferences about some intraclass
       correlation coefficients", Psychological Methods 1 (1996) 30-46.

    Examples
    --------
    >>> from sklearn_ordinal.stats import intraclass_correlation_interval
    >>> judges = [[9, 6, 8, 7, 10, 6], [2, 1, 4, 1, 5, 2],
    ...           [5, 3, 6, 2, 6, 4], [8, 2, 8, 6, 9, 7]]
    >>> result = intraclass_correlation_interval(judges, form="ICC(3,1)")
    >>> round(result.estimate, 2), [round(end, 2) for end in result.confidence_interval]
    (0.71, [0.34, 0.95])
    """
    if method != "f":
        check_n_resamples(n_resamples, confidence_level)
    form = resolve_form(form)
    table = _complete_table(ratings, labels)
    if table.shape[0] < 2:
        raise ValueError("An intraclass correlation needs two units or more; got "
                         f"{table.shape[0]}.")
    sums = _unit_sums(table)
    squares = _mean_squares(sums.sum(axis=0))
    estimate = float(_icc(squares, form))
    if np.isnan(estimate):
        raise UndefinedMeasureError("The intraclass correlation is undefined: every rating "
                                    "is the same; no interval can be given.")
    if method == "f":
        with np.errstate(divide="ignore", invalid="ignore"):
            low, high = _f_interval(squares, form, estimate, confidence_level)
        return ScoreInterval(estimate=estimate,
                             confidence_interval=ConfidenceInterval(float(low), float(high)),
                             standard_error=np.nan, bootstrap_distribution=np.empty(0),
                             method="f", confidence_level=confidence_level)
    rng = check_random_state(random_state)
    distribution = _bootstrap(sums, form, n_resamples, rng)
    undefined = np.isnan(distribution)
    defined = distribution[~undefined]
    jackknife_values = None
    if method == "bca":
        jackknife_values = _icc(_mean_squares(sums.sum(axis=0) - sums), form)
    low, high = interval(estimate, defined, method, confidence_level, jackknife_values,
                         np.ones(len(sums), dtype=np.int64))
    return ScoreInterval(
        estimate=estimate,
        confidence_interval=ConfidenceInterval(float(min(low, 1.0)), float(min(high, 1.0))),
        standard_error=float(np.std(defined, ddof=1)) if len(defined) > 1 else np.nan,
        bootstrap_distribution=distribution, method=method,
        confidence_level=confidence_level, n_undefined=int(undefined.sum()))
