"""Krippendorff's alpha: how far the annotators who made a gold standard agree.

The measures of ``_agreement.py`` compare one system's predictions with the gold
labels. Alpha asks the question before that one: how reliable the gold labels
themselves are, from several annotators' labels of the same units, with missing
annotations. It is a function of one small intermediate, the K x K *coincidence
matrix* of the pairable values, as the label measures are of the confusion matrix:
each unit's value counts are found by one ``np.bincount`` over all the annotations,
and the matrix is their weighted product, with no loop over units.
"""

from typing import Literal, NamedTuple, Optional

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.exceptions import UndefinedMetricWarning

from .._compat import StrOptions, validate_params
from .._warnings import warn_user

LEVELS = ("nominal", "ordinal", "interval", "ratio")


class ReliabilityCounts(NamedTuple):
    """Reliability data reduced to what alpha reads: the value counts of each unit."""

    classes: np.ndarray
    """The values in order (numbers in their own order, or ``labels``)."""
    counts: np.ndarray
    """``(n_pairable_units, K)`` int64: how many annotators gave each unit each
    value, for the units with two values or more (the others pair with nothing)."""
    n_annotators: int
    n_units: int
    """Units in the data, pairable or not."""
    n_values: int
    """Non-missing annotations in the data, pairable or not."""
    ordered: bool
    """Whether the order of the classes is known: numbers, ``labels``, or ordered
    Categoricals (text otherwise, which only the nominal level may read)."""


def _is_text(values):
    return any(isinstance(value, (str, bytes)) for value in values)


def _is_real_number(value):
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_))


def _ordered_categories(frame):
    """The shared categories of a DataFrame whose columns are all ordered Categoricals."""
    dtypes = [dtype for dtype in frame.dtypes if isinstance(dtype, pd.CategoricalDtype)]
    if not dtypes or not all(dtype.ordered for dtype in dtypes):
        return None
    if len(dtypes) != frame.shape[1] or any(
            not dtype.categories.equals(dtypes[0].categories) for dtype in dtypes):
        raise ValueError(
            "reliability_data has ordered Categorical columns with different categories (or "
            "other columns beside them), so the order of the values is not one; give it "
            "with labels=[...] (lowest value first)."
        )
    return np.asarray(dtypes[0].categories)


def _check_labels(labels):
    labels = np.asarray(labels)
    if labels.ndim != 1 or len(labels) == 0:
        raise ValueError(
            f"labels must be a non-empty 1-D list of the values in order; got shape "
            f"{labels.shape}."
        )
    if pd.isna(labels).any():
        raise ValueError("labels contains a missing value (NaN or None); list the values only.")
    index = pd.Index(labels)
    if not index.is_unique:
        repeated = index[index.duplicated()].unique().tolist()
        raise ValueError(f"labels lists {repeated} more than once; give each value once.")
    if labels.dtype == object and all(_is_real_number(label) for label in labels):
        labels = labels.astype(np.float64)
    return labels


# A DataFrame's axis named one of these (ignoring case) holds the annotators or the
# units: its orientation is then read from its labels, not from its shape.
_ANNOTATOR_AXES = ("annotator", "annotators", "coder", "coders", "rater", "raters",
                   "judge", "judges", "observer", "observers")
_UNIT_AXES = ("unit", "units", "item", "items", "id", "ids", "subject", "subjects")


def _axis_kind(name):
    key = "".join(str(name).split()).casefold() if name is not None else ""
    return "annotators" if key in _ANNOTATOR_AXES else "units" if key in _UNIT_AXES else None


def _oriented(frame):
    """The DataFrame with one row per annotator: transposed when its labelled axes
    say its columns are the annotators (``columns.name`` ``"annotator"``, or
    ``index.name`` ``"unit"``). Unlabelled, a frame of more rows than columns is
    ambiguous (a table of one row per unit is the commonest layout in pandas, and
    read as it is gives a wrong number): it is refused."""
    rows, columns = _axis_kind(frame.index.name), _axis_kind(frame.columns.name)
    if rows == "annotators" or columns == "units":
        if rows == columns:
            raise ValueError(
                "reliability_data's index and columns are both named as annotators or as "
                "units; name the annotators' axis 'annotator' and the units' 'unit'.")
        return frame
    if rows == "units" or columns == "annotators":
        return frame.T
    if frame.shape[0] > frame.shape[1] >= 2:
        raise ValueError(
            f"reliability_data is a DataFrame of {frame.shape[0]} rows and "
            f"{frame.shape[1]} columns with unnamed axes: read as one row per annotator "
            "it has more annotators than units, as a table of one row per unit would. "
            "Say which axis holds the annotators: name it (frame.columns.name = "
            "'annotator' for one column per annotator, or frame.index.name = "
            "'annotator'), or pass frame.T.")
    return frame


def _as_matrix(reliability_data):
    """``(array, missing, categories)`` of the data: a 2-D array, its mask of missing
    annotations, and the order of ordered Categorical columns (or None)."""
    categories = None
    if isinstance(reliability_data, pd.DataFrame):
        # The categories are the whole frame's, whichever way it is turned.
        categories = _ordered_categories(reliability_data)
        reliability_data = _oriented(reliability_data)
        array = reliability_data.to_numpy(
            dtype=object if categories is not None else None)
    elif isinstance(reliability_data, np.ndarray):
        array = reliability_data
    else:
        # Objects, so that NumPy does not write a NaN among text as the text "nan".
        array = np.asarray(reliability_data, dtype=object)
    if array.ndim != 2 or array.shape[0] < 2 or array.shape[1] < 1:
        raise ValueError(
            "reliability_data must be 2-D, one row per annotator (at least two) and one "
            f"column per unit; got shape {array.shape}. Transpose a table with one column "
            "per annotator."
        )
    if array.shape[0] > array.shape[1] >= 2:
        # Gold standards have far more units than annotators; a table read with one
        # row per unit is the commonest mistake, and gives a wrong number silently.
        # (One unit is no such table: its transpose would have one annotator.)
        warn_user(
            f"reliability_data has {array.shape[0]} rows (annotators) and "
            f"{array.shape[1]} columns (units): more annotators than units. If its rows "
            "are the units, pass its transpose (reliability_data.T).",
            UserWarning,
        )
    if array.dtype.kind in "biuf":
        array = array.astype(np.float64, copy=False)
        missing = np.isnan(array)
    elif array.dtype.kind in "OUS":
        missing = np.asarray(pd.isna(array), dtype=bool)
        if array.dtype.kind in "US":
            # NumPy's text arrays hold a NaN as the text "nan".
            missing |= array == array.dtype.type("nan")
        present = array[~missing]
        if array.dtype.kind == "O" and all(_is_real_number(value) for value in present):
            array = np.where(missing, np.nan, array).astype(np.float64)
    else:
        raise ValueError(
            f"reliability_data holds values of dtype {array.dtype}; give numbers or text "
            "(missing annotations as NaN or None)."
        )
    if array.dtype.kind == "f" and np.isinf(array).any():
        raise ValueError(
            "reliability_data holds an infinite value; give finite numbers, and mark a "
            "missing annotation with NaN or None."
        )
    return array, missing, categories


def _codes_of(flat, missing, labels):
    """``(classes, codes)``: the position of each annotation in the class order, or
    ``K`` (one past the last class) where it is missing."""
    if labels is not None:
        codes = pd.Index(labels).get_indexer(np.where(missing, None, flat)
                                             if flat.dtype == object else flat)
        unknown = (codes < 0) & ~missing
        if unknown.any():
            shown = pd.unique(flat[unknown])[:5].tolist()
            raise ValueError(
                f"reliability_data holds values that are not in labels: {shown}"
                f"{' and more' if len(pd.unique(flat[unknown])) > 5 else ''}. List every "
                "value in labels=[...] (lowest first), or mark a missing annotation with "
                "NaN or None."
            )
        np.putmask(codes, missing, len(labels))
        return labels, codes
    # One pass with a hash table, then the few distinct values put in order.
    codes, uniques = pd.factorize(flat, use_na_sentinel=True)
    uniques = np.asarray(uniques)
    if uniques.dtype.kind == "f":
        order = np.argsort(uniques, kind="stable")
        # The rank of each value, and K at the last entry, which the code -1 of a
        # missing value reads.
        rank = np.empty(len(order) + 1, dtype=np.intp)
        rank[order] = np.arange(len(order))
        rank[-1] = len(order)
        return uniques[order], rank[codes]
    # Text with no labels: the first-seen order, which only the nominal level may use.
    np.putmask(codes, missing, len(uniques))
    return uniques, codes


def _annotation_codes(reliability_data, labels=None):
    """``(classes, codes, n_values, ordered)`` of reliability data: the values in
    order, the ``(n_annotators, n_units)`` position of each annotation in them (``K``
    where it is missing), the non-missing annotations, and whether the order is known.
    The one reading of reliability data that alpha and the other agreement
    coefficients (``_chance_corrected.py``) share."""
    array, missing, categories = _as_matrix(reliability_data)
    labels = categories if labels is None else _check_labels(labels)
    n_annotators, n_units = array.shape
    flat = array.ravel()
    missing = missing.ravel()
    if flat.dtype == object and labels is None:
        present = flat[~missing]
        if _is_text(present) and not all(isinstance(value, str) for value in present):
            numbers = [value for value in present if not isinstance(value, str)][:3]
            raise ValueError(
                f"reliability_data mixes text with other values ({numbers}); code every "
                "annotation the same way, or list the values in labels=[...]."
            )
    if missing.all() and labels is None:
        # Nothing to order: no value at all (alpha is then undefined).
        flat = np.full(len(flat), np.nan)
    classes, codes = _codes_of(flat, missing, labels)
    classes = np.asarray(classes)
    ordered = labels is not None or classes.dtype.kind in "biuf"
    return (classes, codes.reshape(n_annotators, n_units), len(flat) - int(missing.sum()),
            ordered)


def _reliability_counts(reliability_data, labels=None):
    """:class:`ReliabilityCounts` of reliability data (annotators x units): what
    :func:`krippendorff_alpha` and its interval read."""
    classes, keys, n_values, ordered = _annotation_codes(reliability_data, labels)
    n_annotators, n_units = keys.shape
    k = len(classes)
    # Each annotation adds one to the count of (its unit, its value): one bincount
    # of unit * (K + 1) + value, missing annotations counted in column K.
    keys += (k + 1) * np.arange(n_units, dtype=keys.dtype)
    counts = np.bincount(keys.ravel(), minlength=n_units * (k + 1)).reshape(n_units, k + 1)
    pairable = counts[:, k] <= n_annotators - 2
    return ReliabilityCounts(classes, counts[pairable, :k], n_annotators, n_units,
                             n_values, ordered)


def _level_values(classes, level):
    """The values alpha's difference function reads at ``level``; refuses a level the
    classes cannot have."""
    text = classes.dtype.kind not in "biuf"
    if level == "ratio" and text:
        raise ValueError(
            "The ratio level needs numbers with a true zero, and text values have none "
            "(their positions would put the zero anywhere). Code the values as numbers, "
            "or choose level='interval' or 'ordinal'."
        )
    if level == "ratio" and (classes < 0).any():
        # ((c - k) / (c + k))^2 has c + k = 0 for -1 and 1, and is no distance there.
        raise ValueError(
            f"The ratio level needs non-negative values (amounts with a true zero); the "
            f"values include {classes[classes < 0][:3].tolist()}. Choose "
            "level='interval' for values on both sides of zero."
        )
    if text:
        # Text classes in the order labels gives are equally spaced, as everywhere
        # in the package (docs/user_guide/conventions.rst).
        return np.arange(len(classes), dtype=np.float64)
    return classes.astype(np.float64)


def _coincidences(counts):
    r"""The coincidence matrix ``o`` of the pairable units' value counts ``n_uc``:
    ``o_ck = sum_u (n_uc n_uk - [c = k] n_uc) / (m_u - 1)``."""
    counts = counts.astype(np.float64)
    # Products with a vector rather than sums along the short rows: several times
    # faster on a tall (n_units, K) array.
    weights = 1.0 / (counts @ np.ones(counts.shape[1]) - 1.0)
    weighted = counts * weights[:, np.newaxis]
    return weighted.T @ counts - np.diag(weights @ counts)


def _squared_differences(values, marginals, level):
    r"""``delta^2_ck`` of Krippendorff (2011); shape ``(K, K)``, or ``(..., K, K)`` for
    the ordinal level, whose differences depend on the marginals ``(..., K)``."""
    if level == "nominal":
        return 1.0 - np.eye(len(values))
    if level == "ordinal":
        # sum_{g=c}^{k} n_g - (n_c + n_k) / 2 = N_k - N_c + (n_c - n_k) / 2, N cumulative.
        cumulative = np.cumsum(marginals, axis=-1)
        half = marginals / 2
        difference = (cumulative[..., np.newaxis, :] - cumulative[..., :, np.newaxis]
                      + half[..., :, np.newaxis] - half[..., np.newaxis, :])
        return difference**2
    difference = values[:, np.newaxis] - values[np.newaxis, :]
    if level == "interval":
        return difference**2
    total = values[:, np.newaxis] + values[np.newaxis, :]
    # Two zeros do not differ (0/0 is taken as 0, as Krippendorff's ratio metric).
    ratio = np.divide(difference, total, out=np.zeros_like(difference), where=total != 0)
    return ratio**2


def _alpha_from_coincidences(coincidences, values, level):
    """Alpha of a coincidence matrix, or of a stack of them ``(..., K, K)``; NaN where
    no disagreement is expected (no pairable value, or one value only)."""
    marginals = coincidences.sum(axis=-1)
    n = marginals.sum(axis=-1)
    delta = _squared_differences(values, marginals, level)
    observed = (coincidences * delta).sum(axis=(-2, -1))
    expected = np.einsum("...c,...ck,...k->...", marginals, delta, marginals)
    defined = expected > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = 1.0 - (n - 1.0) * observed / expected
    return np.where(defined, alpha, np.nan)


def _warn_undefined(counts):
    if len(counts) == 0:
        reason = ("no unit has two annotations or more, so there is no pair of values to "
                  "compare")
    else:
        reason = ("every pairable annotation has the same value, so no disagreement is "
                  "expected by chance (D_e = 0)")
    warn_user(f"Krippendorff's alpha is undefined: {reason}; returning nan.",
              UndefinedMetricWarning)


def _check_level_data(reliability, level):
    """The values at ``level``, after refusing text without an order at a level that
    needs one."""
    if level != "nominal" and not reliability.ordered:
        raise ValueError(
            f"reliability_data holds text values, whose order cannot be guessed (sorting "
            f"them alphabetically would put 'high' before 'low'), and the {level} level "
            "depends on the order of the values. Give the order with labels=[...] (lowest "
            "value first), or choose level='nominal'."
        )
    return _level_values(reliability.classes, level)


@validate_params(
    {
        "reliability_data": ["array-like"],
        "level": [StrOptions(set(LEVELS))],
        "labels": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def krippendorff_alpha(
    reliability_data: ArrayLike,
    *,
    level: Literal["nominal", "ordinal", "interval", "ratio"] = "ordinal",
    labels: Optional[ArrayLike] = None,
) -> float:
    r"""Krippendorff's alpha: the agreement of several annotators, missing labels allowed.

    Of the values that the annotators gave the same unit, every ordered pair of two
    annotators' values is a *pairable* pair; a unit with :math:`m_u \ge 2` values
    has :math:`m_u (m_u - 1)` of them, each counted with weight
    :math:`1 / (m_u - 1)` in the *coincidence matrix*

    .. math::

        o_{ck} = \sum_u \frac{n_{uc} n_{uk} - [c = k] \, n_{uc}}{m_u - 1},

    with :math:`n_{uc}` the annotators who gave unit :math:`u` the value :math:`c`.
    Units with fewer than two values pair with nothing and are left out. With the
    marginals :math:`n_c = \sum_k o_{ck}` and :math:`n = \sum_c n_c` (the pairable
    values), alpha is one minus the observed disagreement over the disagreement
    expected by chance (Krippendorff 2011):

    .. math::

        \alpha = 1 - \frac{D_o}{D_e} = 1 - (n - 1)
        \frac{\sum_{c,k} o_{ck} \, \delta^2_{ck}}{\sum_{c,k} n_c n_k \, \delta^2_{ck}},

    where the squared difference :math:`\delta^2_{ck}` of two values is, by level:

    - ``"nominal"``: :math:`[c \ne k]`;
    - ``"ordinal"``: :math:`\big(\sum_{g=c}^{k} n_g - \frac{n_c + n_k}{2}\big)^2`, the
      values' distance in ranks of the pairable values (for :math:`c \le k`, by
      symmetry otherwise), so that only the order of the values counts;
    - ``"interval"``: :math:`(c - k)^2`;
    - ``"ratio"``: :math:`\big(\frac{c - k}{c + k}\big)^2` (0 for two zeros), for
      non-negative values only (negative values are refused: for -1 and 1 the
      denominator is 0 and the formula is no distance).

    1 is perfect agreement, 0 the agreement of chance; it can be negative.

    Parameters
    ----------
    reliability_data : array-like of shape (n_annotators, n_units)
        The value each annotator gave each unit: numbers, or text; a missing
        annotation as NaN or None (in a NumPy array of text, where NumPy writes NaN
        as ``"nan"``, that text). A pandas DataFrame whose columns are all
        ordered Categoricals with the same categories gives their order. A
        DataFrame is turned by its labelled axes: ``columns.name`` (or
        ``index.name``) ``"annotator"`` (or ``"coder"``, ``"rater"``, ``"judge"``)
        marks the annotators' axis, ``"unit"`` (or ``"item"``, ``"id"``) the
        units'; unlabelled, a DataFrame of more rows than columns (two or more) is
        refused as ambiguous. An array with one column per annotator is the
        transpose of this.
    level : {"nominal", "ordinal", "interval", "ratio"}, default="ordinal"
        The level of measurement of the values.
    labels : array-like of shape (n_values,), default=None
        The possible values in increasing order. Default: numbers in their own
        order; the categories of ordered Categorical columns. Text values need it
        for every level but ``"nominal"`` (their order is never guessed); at the
        interval level, text values in this order are taken as equally spaced,
        and the ratio level takes numbers only. Values listed but never given
        change nothing for numbers, nor at the nominal and ordinal levels; text
        values at the interval level are their positions in ``labels``, so a
        value listed between two given ones moves them apart and changes alpha.

    Returns
    -------
    alpha : float
        At most 1; NaN, with an ``UndefinedMetricWarning``, when no unit has two
        values or every pairable value is the same (:math:`D_e = 0`).

    Warns
    -----
    UndefinedMetricWarning
        When alpha is undefined (NaN is returned).
    UserWarning
        When an array has more rows (annotators) than columns (units, two or
        more): a table with one row per unit passed as it is gives a wrong number,
        so the warning says to transpose it.

    See Also
    --------
    sklearn_ordinal.stats.krippendorff_alpha_interval : Its bootstrap interval.
    weighted_kappa_score : The agreement of one system with the gold labels.

    Notes
    -----
    Costs one ``np.bincount`` over the ``n_annotators x n_units`` annotations (the
    value counts of each unit), a hash of the values to order them (or to find them
    in ``labels``), and one ``(K, n_units) x (n_units, K)`` product for the
    coincidence matrix; then :math:`O(K^2)`.

    References
    ----------
    .. [1] K. Krippendorff, "Computing Krippendorff's Alpha-Reliability", Annenberg
       School for Communication, University of Pennsylvania, 2011 (the worked
       example: 4 observers, 12 units, missing values).
    .. [2] K. Krippendorff, "Content Analysis: An Introduction to Its Methodology",
       3rd ed., Sage, 2013, chapter 12.
    .. [3] A. F. Hayes and K. Krippendorff, "Answering the call for a standard
       reliability measure for coding data", Communication Methods and Measures 1
       (2007) 77-89.

    Examples
    --------
    Three annotators grade five units from 1 to 4; the second did not see the last
    unit.

    >>> import numpy as np
    >>> from sklearn_ordinal.metrics import krippendorff_alpha
    >>> grades = [[1, 2, 3, 3, 4],
    ...           [1, 2, 4, 3, np.nan],
    ...           [2, 2, 3, 3, 4]]
    >>> round(krippendorff_alpha(grades), 3)
    0.889
    >>> round(krippendorff_alpha(grades, level="nominal"), 3)
    0.634

    Text values take their order from ``labels``:

    >>> names = [["low", "mid", "high"], ["low", "high", "high"]]
    >>> round(krippendorff_alpha(names, labels=["low", "mid", "high"]), 3)
    0.778
    """
    reliability = _reliability_counts(reliability_data, labels)
    values = _check_level_data(reliability, level)
    alpha = _alpha_from_coincidences(_coincidences(reliability.counts), values, level)
    if np.isnan(alpha):
        _warn_undefined(reliability.counts)
    return float(alpha)
