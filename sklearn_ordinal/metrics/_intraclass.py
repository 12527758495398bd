r"""Intraclass correlations: the agreement of annotators whose ratings are read as numbers.

The six forms of Shrout and Fleiss (1979), with McGraw and Wong's (1996) names,
are ratios of the mean squares of one two-way analysis of variance of the
complete units x annotators table. Those mean squares are functions of a few sums
over the units (:func:`_unit_sums`), so a bootstrap resample of the units is one
weighted sum, as for the other agreement coefficients.
"""

from typing import NamedTuple, Optional

import numpy as np
from numpy.typing import ArrayLike
from sklearn.exceptions import UndefinedMetricWarning

from .._compat import StrOptions, validate_params
from .._warnings import warn_user
from ._krippendorff import _annotation_codes, _level_values

# Shrout and Fleiss's names, and the other names each form goes by (McGraw and
# Wong's, and pingouin's).
FORMS = {
    "ICC(1,1)": ("ICC1",),
    "ICC(2,1)": ("ICC(A,1)", "ICC2"),
    "ICC(3,1)": ("ICC(C,1)", "ICC3"),
    "ICC(1,k)": ("ICC1k",),
    "ICC(2,k)": ("ICC(A,k)", "ICC2k"),
    "ICC(3,k)": ("ICC(C,k)", "ICC3k"),
}
_FORM_OF = {alias: form for form, aliases in FORMS.items() for alias in (form,) + aliases}


def resolve_form(form):
    """The Shrout-Fleiss name of ``form`` (any of its names)."""
    return _FORM_OF[form]


class MeanSquares(NamedTuple):
    """The two-way analysis of variance of an ``(n_units, k)`` table."""

    rows: np.ndarray
    """Between units (``MSR``, ``n - 1`` degrees of freedom)."""
    columns: np.ndarray
    """Between annotators (``MSC``, ``k - 1``)."""
    error: np.ndarray
    """Residual (``MSE``, ``(n - 1)(k - 1)``)."""
    within: np.ndarray
    """Within units (``MSW``, ``n (k - 1)``: annotators and residual together)."""
    n_units: np.ndarray
    n_annotators: int


def _complete_table(ratings, labels):
    """``(n_units, k)`` float64 ratings: the values, or text values' positions."""
    classes, codes, _, ordered = _annotation_codes(ratings, labels)
    k = len(classes)
    if (codes == k).any():
        annotator, unit = np.argwhere(codes == k)[0]
        raise ValueError(
            f"ratings has missing values (the first: annotator {annotator}, unit {unit}); "
            "the intraclass correlations need every annotator's rating of every unit. "
            "Keep the complete units (e.g. ratings[:, ~np.isnan(ratings).any(axis=0)]), or "
            "use krippendorff_alpha(level='interval'), which allows missing ratings."
        )
    if not ordered:
        raise ValueError(
            "ratings holds text values, whose order cannot be guessed; the intraclass "
            "correlations read the ratings as numbers. Give the order with labels=[...] "
            "(lowest first: the values are then 1, 2, ... in that order).")
    values = _level_values(classes, "interval")
    return values[codes].T


def _unit_sums(table):
    """Per unit: ``[1, (row sum)^2 / k, sum of squares, the k ratings]``, centred on the
    grand mean (for accuracy); their sums over the units give the mean squares."""
    centred = table - table.mean()
    k = table.shape[1]
    row_sums = centred @ np.ones(k)
    return np.hstack([np.ones((len(table), 1)), (row_sums**2 / k)[:, np.newaxis],
                      (centred**2 @ np.ones(k))[:, np.newaxis], centred])


def _mean_squares(totals):
    """:class:`MeanSquares` of the summed :func:`_unit_sums` ``(..., 3 + k)``."""
    n, rows, squares = totals[..., 0], totals[..., 1], totals[..., 2]
    columns = totals[..., 3:]
    k = columns.shape[-1]
    correction = columns.sum(axis=-1) ** 2 / (n * k)
    total = squares - correction
    between_rows = rows - correction
    between_columns = (columns**2).sum(axis=-1) / n - correction
    error = total - between_rows - between_columns
    with np.errstate(divide="ignore", invalid="ignore"):
        return MeanSquares(between_rows / (n - 1), between_columns / (k - 1),
                           error / ((n - 1) * (k - 1)), (total - between_rows) / (n * (k - 1)),
                           n, k)


def _icc(squares, form):
    """The intraclass correlation of ``form`` from :class:`MeanSquares`; NaN where its
    denominator is 0."""
    r, c, e, w, n, k = squares
    numerator, denominator = {
        "ICC(1,1)": (r - w, r + (k - 1) * w),
        "ICC(2,1)": (r - e, r + (k - 1) * e + k * (c - e) / n),
        "ICC(3,1)": (r - e, r + (k - 1) * e),
        "ICC(1,k)": (r - w, r),
        "ICC(2,k)": (r - e, r + (c - e) / n),
        "ICC(3,k)": (r - e, r),
    }[form]
    with np.errstate(divide="ignore", invalid="ignore"):
        value = numerator / denominator
    return np.where(denominator != 0, value, np.nan)


@validate_params(
    {
        "ratings": ["array-like"],
        "form": [StrOptions(set(_FORM_OF))],
        "labels": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def intraclass_correlation(
    ratings: ArrayLike,
    *,
    form: str = "ICC(2,1)",
    labels: Optional[ArrayLike] = None,
) -> float:
    r"""Intraclass correlation: the six forms of Shrout and Fleiss (1979).

    The ratings are read as numbers on an interval scale (text values in the
    order of ``labels`` as 1, 2, ...). From the two-way analysis of variance of
    the complete :math:`n` units x :math:`k` annotators table, with mean squares
    between units :math:`MS_R`, between annotators :math:`MS_C`, residual
    :math:`MS_E`, and within units :math:`MS_W` (annotators and residual):

    =============  ===============================  ==================================================================
    form           also called                      formula
    =============  ===============================  ==================================================================
    ``ICC(1,1)``   ``ICC1``                         :math:`\frac{MS_R - MS_W}{MS_R + (k-1) MS_W}`
    ``ICC(2,1)``   ``ICC(A,1)``, ``ICC2``           :math:`\frac{MS_R - MS_E}{MS_R + (k-1) MS_E + k (MS_C - MS_E)/n}`
    ``ICC(3,1)``   ``ICC(C,1)``, ``ICC3``           :math:`\frac{MS_R - MS_E}{MS_R + (k-1) MS_E}`
    ``ICC(1,k)``   ``ICC1k``                        :math:`\frac{MS_R - MS_W}{MS_R}`
    ``ICC(2,k)``   ``ICC(A,k)``, ``ICC2k``          :math:`\frac{MS_R - MS_E}{MS_R + (MS_C - MS_E)/n}`
    ``ICC(3,k)``   ``ICC(C,k)``, ``ICC3k``          :math:`\frac{MS_R - MS_E}{MS_R}`
    =============  ===============================  ==================================================================

    ``(·,1)`` is the reliability of one annotator's rating, ``(·,k)`` of the mean of
    the :math:`k`; form 1 has each unit rated by different annotators (one-way
    model), form 2 the same annotators drawn at random and absolute agreement
    (McGraw and Wong's A), form 3 the same fixed annotators and consistency (C:
    an annotator's constant offset is no disagreement).

    Parameters
    ----------
    ratings : array-like of shape (n_annotators, n_units)
        One row per annotator and one column per unit, as for
        :func:`krippendorff_alpha`, with no missing rating.
    form : str, default="ICC(2,1)"
        One of the names above.
    labels : array-like of shape (n_values,), default=None
        The order of text values (lowest first).

    Returns
    -------
    icc : float
        At most 1; may be negative. NaN, with an ``UndefinedMetricWarning``, when
        every rating is the same.

    Raises
    ------
    ValueError
        A missing rating, or text values without ``labels``.

    See Also
    --------
    sklearn_ordinal.stats.intraclass_correlation_interval : With its F-based or
        bootstrap interval.
    krippendorff_alpha : With ``level="interval"``, allows missing ratings.

    References
    ----------
    .. [1] P. E. Shrout and J. L. Fleiss, "Intraclass correlations: uses in
       assessing rater reliability", Psychological Bulletin 86 (1979) 420-428.
    .. [2] K. O. McGraw and S. P. Wong, "Forming inferences about some intraclass
       correlation coefficients", Psychological Methods 1 (1996) 30-46.

    Examples
    --------
    Shrout and Fleiss's (1979) Table 4: four judges rate six targets.

    >>> from sklearn_ordinal.metrics import intraclass_correlation
    >>> judges = [[9, 6, 8, 7, 10, 6], [2, 1, 4, 1, 5, 2],
    ...           [5, 3, 6, 2, 6, 4], [8, 2, 8, 6, 9, 7]]
    >>> [round(intraclass_correlation(judges, form=form), 2)
    ...  for form in ["ICC(1,1)", "ICC(2,1)", "ICC(3,1)", "ICC(1,k)", "ICC(2,k)", "ICC(3,k)"]]
    [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]
    """
    table = _complete_table(ratings, labels)
    value = float(_icc(_mean_squares(_unit_sums(table).sum(axis=0)), resolve_form(form)))
    if np.isnan(value):
        warn_user("The intraclass correlation is undefined: every rating is the same "
                  "(no variance to share); returning nan.", UndefinedMetricWarning)
    return value
