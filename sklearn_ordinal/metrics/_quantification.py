"""Ordinal quantification: how far estimated class prevalences are from the true ones.

A *quantifier* estimates, for a group of items (the tweets about one topic, one
sample of a shared task), the share of its items in each class. On an ordinal scale
putting prevalence on a neighbouring class costs less than putting it on a distant
one, so the measures compare cumulative prevalences (the match distance, the Earth
Mover's Distance on the ordinal scale) or weigh squared differences by the distance
between classes (the order-aware divergence). The measures take prevalence arrays of
shape ``(n_samples, K)``, one row per group with the columns in class order, and
average over the rows, as SemEval-2016 Task 4 (subtask E) and LeQua 2024 (task T3)
do. :func:`prevalences` makes these rows from items, by classify and count (labels)
or by the mean probability (class probabilities).
"""

from typing import Any, Callable, Optional

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray
from scipy import sparse

from .._compat import validate_params
from .._validation import _on_the_host, _python_values, check_ordinal_targets, group_codes
from ._probabilistic import _check_proba

# Rows of prevalences written with three decimals miss 1 by up to 1e-3 (1/3 as
# 0.333): LeQua 2024's evaluate.py accepts this slack (isclose(sum, 1, rtol=1e-3)).
# SemEval-2016's Perl scorer tests |sum - 1| > 0.001 on the float sum, so that of
# two rows summing to 0.999 in decimal one passes and the other fails, by how their
# floats round; here that rounding is allowed for (_FLOAT_SLACK).
ROW_SUM_TOLERANCE = 1e-3
# The float sum of K shares written in decimal is off their decimal sum by a few
# units in the last place (K * 2**-52 ~ 1e-15): far below this slack, which is far
# below any decimal a share is written with.
_FLOAT_SLACK = 1e-9


def check_prevalences(prevalence: ArrayLike, name: str, *,
                      tolerance: Any = ROW_SUM_TOLERANCE,
                      row_names: Optional[Any] = None,
                      why: str = "") -> NDArray[np.float64]:
    """``prevalence`` as a 2-D float array of prevalence rows, or a ValueError.

    Each row must sum to 1 within ``tolerance`` (a number, or one per row), give or
    take the rounding of a float sum; ``row_names`` and ``why`` word the message of
    a file's rows (their lines, how the tolerance was derived).
    """
    array = np.asarray(prevalence)
    if array.ndim == 1:
        array = array[np.newaxis, :]
    if array.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D, one row per sample (group) and one column per class "
            f"in class order; got shape {array.shape}."
        )
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold real numbers; got dtype {array.dtype}.")
    array = array.astype(np.float64, copy=False)
    if array.shape[0] == 0:
        raise ValueError(f"{name} has no row; give one prevalence row per sample.")
    if array.shape[1] < 2:
        raise ValueError(
            f"{name} has {array.shape[1]} column; prevalences need at least 2 classes."
        )
    if not np.isfinite(array).all():
        raise ValueError(f"{name} contains NaN or infinity; prevalences must be finite.")
    if (array < 0).any():
        row = int(np.flatnonzero((array < 0).any(axis=1))[0])
        raise ValueError(
            f"{name} row {row} holds a negative value; prevalences are non-negative."
        )
    sums = array.sum(axis=1)
    allowed = np.broadcast_to(np.asarray(tolerance, dtype=np.float64), sums.shape)
    off = np.abs(sums - 1) > allowed + _FLOAT_SLACK
    if off.any():
        row = int(np.flatnonzero(off)[0])
        where = f"row {row}" if row_names is None else row_names[row]
        raise ValueError(
            f"Each row of {name} must sum to 1 within {float(allowed[row]):g}{why}; "
            f"{where} sums to {float(sums[row]):.10g}. Give the share of each class, "
            "not counts."
        )
    return array


def _check_pair(p_true, p_pred, sample_weight):
    p_true = check_prevalences(p_true, "p_true")
    p_pred = check_prevalences(p_pred, "p_pred")
    if p_true.shape != p_pred.shape:
        raise ValueError(
            f"p_true has shape {p_true.shape} and p_pred {p_pred.shape}; give one "
            "predicted row per true row, with the same classes."
        )
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight, dtype=np.float64)
        if sample_weight.shape != (p_true.shape[0],):
            raise ValueError(
                f"sample_weight must hold one weight per row ({p_true.shape[0]}); got "
                f"shape {sample_weight.shape}."
            )
        if not np.isfinite(sample_weight).all() or (sample_weight < 0).any():
            raise ValueError("sample_weight must be finite and non-negative.")
        if sample_weight.sum() == 0:
            raise ValueError("sample_weight is zero everywhere; one row must weigh more.")
    return p_true, p_pred, sample_weight


# Kernels on arrays of shape (..., K): one value per row, for the functions below and
# for the resampling of groups (evaluation), which averages them.
def _match_distance_rows(p_true, p_pred):
    """``sum_{j < K} |P_j - Q_j|`` of the cumulative prevalences, per row."""
    cumulative = np.cumsum(p_pred - p_true, axis=-1)[..., :-1]
    return np.abs(cumulative).sum(axis=-1)


def _normalized_match_distance_rows(p_true, p_pred):
    return _match_distance_rows(p_true, p_pred) / (p_true.shape[-1] - 1)


def _rnod_rows(p_true, p_pred):
    """``sqrt(OD / (K - 1))`` per row, ``OD`` averaged over the true row's classes."""
    n_classes = p_true.shape[-1]
    positions = np.arange(n_classes)
    distance = np.abs(positions[:, np.newaxis] - positions).astype(np.float64)
    # DW_i = sum_j |i - j| (q_j - p_j)^2 for every class i, at once.
    weighted = ((p_pred - p_true) ** 2) @ distance
    present = p_true > 0
    divergence = (weighted * present).sum(axis=-1) / present.sum(axis=-1)
    return np.sqrt(divergence / (n_classes - 1))


def _mean(rows, sample_weight):
    return float(np.average(rows, weights=sample_weight))


_PARAMETERS = {
    "p_true": ["array-like"],
    "p_pred": ["array-like"],
    "sample_weight": ["array-like", None],
}


@validate_params(_PARAMETERS, prefer_skip_nested_validation=True)
def match_distance(
    p_true: ArrayLike, p_pred: ArrayLike, *, sample_weight: Optional[ArrayLike] = None
) -> float:
    r"""Match distance (Earth Mover's Distance on the ordinal scale) of prevalences.

    With :math:`p_{gk}` the true and :math:`q_{gk}` the predicted share of class
    :math:`c_k` in sample (group) :math:`g`, and :math:`P_{gj} = \sum_{k \le j}
    p_{gk}`, :math:`Q_{gj} = \sum_{k \le j} q_{gk}` the cumulative prevalences:

    .. math::

        \mathrm{MD} = \frac{1}{G} \sum_{g=1}^{G} \sum_{j=1}^{K-1} |P_{gj} - Q_{gj}|

    the least prevalence mass times the number of classes it must move to turn the
    predicted distribution into the true one, when neighbouring classes are one step
    apart; averaged over the :math:`G` rows (topics). Lower is better: 0 for a
    perfect quantifier, at most :math:`K - 1` (all the mass on one extreme class
    instead of the other). Symmetric in its two arguments.

    **Source.** The Earth Mover's Distance of SemEval-2016 Task 4, subtask E (Nakov
    et al. 2016, section 5.5: :math:`\mathrm{EMD}(\hat p, p) = \sum_{j=1}^{K-1}
    |\sum_{i \le j} \hat p(c_i) - \sum_{i \le j} p(c_i)|`, averaged over topics);
    the match distance of LeQua 2024's ``evaluate.py`` (``match_distance``) and of
    QuaPy (``quapy.error.md``), the Earth Mover's Distance of Sakai (2021). Note that
    the Perl scorer distributed with SemEval-2016 Task 4
    (``score-semeval2016-task4-subtaskE.pl``, version of 9 Nov. 2015) sums
    :math:`\sum_{j=1}^{K-1} \sum_{i \le j} |\hat p(c_i) - p(c_i)|`, the absolute
    value inside the inner sum, which is not the task paper's formula: it equals the
    match distance only when the prevalence differences of the first :math:`K - 1`
    classes all have one sign, and exceeds it otherwise (the user guide,
    :ref:`quantification`, shows an example).

    Parameters
    ----------
    p_true : array-like of shape (n_samples, n_classes)
        True prevalences, one row per sample (group), columns in class order; each
        row non-negative and summing to 1 within 1e-3 (rows of shares written with
        three decimals, such as 0.999 and 1.001, pass whatever their float rounding);
        a row is scored as given, not rescaled. A 1-D array is one sample.
    p_pred : array-like of shape (n_samples, n_classes)
        Predicted prevalences, likewise.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the rows in the mean. Default: every sample alike, as both shared
        tasks average.

    Returns
    -------
    distance : float
        In :math:`[0, K - 1]`; lower is better.

    See Also
    --------
    normalized_match_distance : Divided by :math:`K - 1`, in [0, 1].
    root_normalized_order_aware_divergence : Weighs squared differences by the
        distance between classes.
    prevalences : Prevalence rows from items.

    References
    ----------
    .. [1] P. Nakov, A. Ritter, S. Rosenthal, F. Sebastiani and V. Stoyanov,
       "SemEval-2016 Task 4: Sentiment analysis in Twitter", Proc. SemEval 2016,
       pp. 1-18.
    .. [2] T. Sakai, "Evaluating evaluation measures for ordinal classification and
       ordinal quantification", Proc. ACL-IJCNLP 2021, pp. 2759-2769.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import match_distance
    >>> p_true = [[0.2, 0.25, 0.5, 0.05, 0.0]]
    >>> p_pred = [[0.0, 0.25, 0.4, 0.15, 0.2]]
    >>> round(match_distance(p_true, p_pred), 6)  # 0.2 + 0.2 + 0.3 + 0.2
    0.9
    """
    p_true, p_pred, sample_weight = _check_pair(p_true, p_pred, sample_weight)
    return _mean(_match_distance_rows(p_true, p_pred), sample_weight)


@validate_params(_PARAMETERS, prefer_skip_nested_validation=True)
def normalized_match_distance(
    p_true: ArrayLike, p_pred: ArrayLike, *, sample_weight: Optional[ArrayLike] = None
) -> float:
    r"""Normalized match distance (NMD) of prevalences.

    The :func:`match_distance` of each row divided by :math:`K - 1`, averaged over
    the rows:

    .. math::

        \mathrm{NMD} = \frac{1}{G} \sum_{g=1}^{G} \frac{1}{K - 1}
        \sum_{j=1}^{K-1} |P_{gj} - Q_{gj}|

    In [0, 1]; lower is better, 0 for a perfect quantifier.

    **Source.** Sakai (2021), section 3; LeQua 2024's ``evaluate.py``
    (``normalized_match_distance``, the official measure of task T3, averaged over
    samples) and QuaPy (``quapy.error.nmd``): the same number.

    Parameters
    ----------
    p_true : array-like of shape (n_samples, n_classes)
        True prevalences, one row per sample (group), columns in class order; each
        row non-negative and summing to 1 (within 1e-3).
    p_pred : array-like of shape (n_samples, n_classes)
        Predicted prevalences, likewise.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the rows in the mean.

    Returns
    -------
    distance : float
        In [0, 1]; lower is better.

    See Also
    --------
    match_distance : The same without the division.

    References
    ----------
    .. [1] T. Sakai, "Evaluating evaluation measures for ordinal classification and
       ordinal quantification", Proc. ACL-IJCNLP 2021, pp. 2759-2769.
    .. [2] A. Esuli, A. Moreo, F. Sebastiani and G. Sperduti, "A detailed overview
       of LeQua@CLEF 2022: learning to quantify", CLEF 2022; LeQua 2024 task T3.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import normalized_match_distance
    >>> p_true = [[0.2, 0.25, 0.5, 0.05, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0]]
    >>> p_pred = [[0.0, 0.25, 0.4, 0.15, 0.2], [0.0, 0.0, 1.0, 0.0, 0.0]]
    >>> round(normalized_match_distance(p_true, p_pred), 6)  # (0.9 / 4 + 0) / 2
    0.1125
    """
    p_true, p_pred, sample_weight = _check_pair(p_true, p_pred, sample_weight)
    return _mean(_normalized_match_distance_rows(p_true, p_pred), sample_weight)


@validate_params(_PARAMETERS, prefer_skip_nested_validation=True)
def root_normalized_order_aware_divergence(
    p_true: ArrayLike, p_pred: ArrayLike, *, sample_weight: Optional[ArrayLike] = None
) -> float:
    r"""Root normalized order-aware divergence (RNOD) of prevalences.

    For each row, with :math:`C^* = \{i : p_i > 0\}` the classes present in the true
    prevalences and :math:`|i - j|` the distance between classes :math:`c_i` and
    :math:`c_j`:

    .. math::

        \mathrm{DW}_i = \sum_{j=1}^{K} |i - j| \, (q_j - p_j)^2, \qquad
        \mathrm{OD} = \frac{1}{|C^*|} \sum_{i \in C^*} \mathrm{DW}_i, \qquad
        \mathrm{RNOD} = \sqrt{\frac{\mathrm{OD}}{K - 1}}

    averaged over the rows. In [0, 1]; lower is better, 0 for a perfect quantifier.
    Not symmetric: the true prevalences choose the classes :math:`C^*`.

    **Source.** Sakai (2021), section 3 (OD from Sakai 2018); mlquantify's ``RNOD``
    computes the same per row. LeQua 2024's ``evaluate.py`` and QuaPy 0.2.3 have no
    RNOD.

    Parameters
    ----------
    p_true : array-like of shape (n_samples, n_classes)
        True prevalences, one row per sample (group), columns in class order; each
        row non-negative and summing to 1 (within 1e-3).
    p_pred : array-like of shape (n_samples, n_classes)
        Predicted prevalences, likewise.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the rows in the mean.

    Returns
    -------
    divergence : float
        In [0, 1]; lower is better.

    See Also
    --------
    normalized_match_distance : The cumulative (Earth Mover's) view.

    References
    ----------
    .. [1] T. Sakai, "Evaluating evaluation measures for ordinal classification and
       ordinal quantification", Proc. ACL-IJCNLP 2021, pp. 2759-2769.
    .. [2] T. Sakai, "Comparing two binary classifiers in terms of the order-aware
       divergence" (ordinal quantification measures), Proc. NTCIR-14 / EVIA, 2018.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import root_normalized_order_aware_divergence
    >>> # C* = {class 0}: DW_0 = 1 * 0.5 ** 2 = 0.25, OD = 0.25, RNOD = sqrt(0.25 / 2)
    >>> round(root_normalized_order_aware_divergence([1, 0, 0], [0.5, 0.5, 0]), 6)
    0.353553
    """
    p_true, p_pred, sample_weight = _check_pair(p_true, p_pred, sample_weight)
    return _mean(_rnod_rows(p_true, p_pred), sample_weight)


# Kernels by function, for the registry's prevalence records.
ROW_KERNELS: dict[Callable[..., float], Callable[..., Any]] = {
    match_distance: _match_distance_rows,
    normalized_match_distance: _normalized_match_distance_rows,
    root_normalized_order_aware_divergence: _rnod_rows,
}


def class_sums(codes, values, n_groups, n_classes, weight):
    """``(G, K)`` weighted sums per group: of one-hot classes (``values`` None, class
    ``codes[1]``) or of probability rows ``values``; ``codes[0]`` the groups."""
    groups, classes = codes
    n_items = len(groups)
    weight = np.ones(n_items) if weight is None else weight
    if values is None:
        flat = np.bincount(groups * n_classes + classes, weights=weight,
                           minlength=n_groups * n_classes)
        return flat.reshape(n_groups, n_classes)
    # One sparse product: the (G x n) weighted membership times the (n x K) rows.
    membership = sparse.csr_matrix((weight, (groups, np.arange(n_items))),
                                   shape=(n_groups, n_items))
    return np.asarray(membership @ values)


def outside_scale(y_pred: Any, classes: NDArray[Any], who: str) -> Optional[str]:
    """The message for predicted labels outside ``classes`` (the gold's), or None.

    The scale of the prevalences is the gold standard's (or ``labels``): widening it
    to take in a prediction outside it changes every system's value (NMD divides by
    K - 1, and a class of zero shares moves the cumulative sums) without a word.
    """
    found = pd.unique(np.asarray(y_pred, dtype=object).ravel())
    outside = found[pd.Index(classes).get_indexer(found) < 0]
    if len(outside) == 0:
        return None
    shown = _python_values(outside[:5])
    return (f"{who} predicts the label(s) {shown}, outside the gold labels' scale "
            f"{classes.tolist()}; the prevalences' scale comes from the gold standard, and "
            "widening it would change every system's value. Give the whole scale with "
            "labels=[...], or correct the predictions.")


def item_prevalences(y_true, y_pred, groups, labels, sample_weight):
    """``(classes, group names, gold sums, predicted sums)`` of items: the ``(G, K)``
    weighted class counts of the gold labels and of the predictions (labels: counts;
    probabilities: sums of rows) per group, groups in order of first appearance.
    ``y_pred`` None: the gold alone (predicted sums None)."""
    y_true, y_pred, groups, sample_weight = _on_the_host(
        "quantification_error", y_true, y_pred, groups, sample_weight)
    # An ordered Categorical (or a Series of one) keeps its order: not np.asarray.
    if not isinstance(y_true, (pd.Series, pd.Categorical)):
        y_true = np.asarray(y_true)
    n_items = len(y_true)
    codes, names = group_codes(groups, n_items)
    proba = None
    if y_pred is not None:
        y_pred_array = np.asarray(y_pred)
        if y_pred_array.ndim == 2:
            proba = y_pred_array
            y_pred = None
        if len(y_pred_array) != n_items:
            raise ValueError(
                f"y_pred has {len(y_pred_array)} rows for {n_items} gold items."
            )
    if sample_weight is not None:
        # Zero-weight items are dropped by the class checks: drop them everywhere.
        weight = np.asarray(sample_weight, dtype=np.float64)
        if weight.shape != (n_items,):
            raise ValueError(
                f"sample_weight has shape {weight.shape} but there are {n_items} items."
            )
        kept = weight > 0
        if not kept.all():
            codes = codes[kept]
            y_true = y_true[kept]
            sample_weight = weight[kept]
            y_pred = None if y_pred is None else np.asarray(y_pred)[kept]
            proba = None if proba is None else proba[kept]
    if labels is None and y_pred is not None:
        # The scale is the gold's: a prediction outside it is refused, not added.
        labels = check_ordinal_targets(y_true, sample_weight=sample_weight,
                                       measure="prevalences")[0]
        outside = outside_scale(y_pred, labels, "y_pred")
        if outside is not None:
            raise ValueError(outside)
    classes, true_codes, pred_codes, weight = check_ordinal_targets(
        y_true, y_pred, labels=labels, sample_weight=sample_weight,
        measure="prevalences",
    )
    n_groups, n_classes = len(names), len(classes)
    empty = np.setdiff1d(np.arange(n_groups), codes)
    if len(empty):
        raise ValueError(
            f"Group {names[empty[0]]!r} has no item of positive weight, so its "
            "prevalences are undefined; give its items weight, or leave the group out."
        )
    gold = class_sums((codes, true_codes), None, n_groups, n_classes, weight)
    predicted = None
    if pred_codes is not None:
        predicted = class_sums((codes, pred_codes), None, n_groups, n_classes, weight)
    elif proba is not None:
        proba = _check_proba(proba)
        if proba.shape[1] != n_classes:
            raise ValueError(
                f"y_pred has {proba.shape[1]} probability columns but there are "
                f"{n_classes} classes {classes.tolist()}; give labels=[...] naming the "
                "class of each column, in class order."
            )
        predicted = class_sums((codes, None), proba, n_groups, n_classes, weight)
    return classes, names, gold, predicted


def _as_prevalences(sums):
    return sums / sums.sum(axis=1, keepdims=True)


@validate_params(
    {
        "y": ["array-like"],
        "groups": ["array-like"],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def prevalences(
    y: ArrayLike,
    groups: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> pd.DataFrame:
    r"""The share of each class in each group, from items.

    From class labels, the weighted share of the group's items in each class
    (*classify and count*); from class probabilities (a 2-D ``y``), the weighted
    mean probability of each class over the group's items (*probabilistic classify
    and count*):

    .. math::

        p_{gk} = \frac{\sum_{i \in g} w_i \, [y_i = c_k]}{\sum_{i \in g} w_i}
        \quad\text{or}\quad
        p_{gk} = \frac{\sum_{i \in g} w_i \, \pi_{ik}}{\sum_{i \in g} w_i}

    Parameters
    ----------
    y : array-like of shape (n_samples,) or (n_samples, n_classes)
        Class labels (numbers, strings with ``labels``, an ordered ``Categorical``),
        or class probabilities, one column per class in class order.
    groups : array-like of shape (n_samples,)
        The group (topic, sample) of each item.
    labels : array-like of shape (n_classes,), default=None
        The classes in order, lowest first: the columns. String labels need it; so
        do probabilities whose columns should be named. A class no item has gets
        prevalence 0 only if ``labels`` names it.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    prevalences : pandas.DataFrame of shape (n_groups, n_classes)
        One row per group, in order of first appearance, one column per class in
        class order; rows sum to 1. ``.to_numpy()`` is what :func:`match_distance`
        and the other prevalence measures take.

    See Also
    --------
    quantification_error : Scores a quantifier from items.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import prevalences
    >>> prevalences([0, 2, 2, 1, 1, 1], ["a", "a", "a", "b", "b", "b"],
    ...             labels=[0, 1, 2]).round(3)
    class      0    1      2
    group
    a      0.333  0.0  0.667
    b      0.000  1.0  0.000
    >>> prevalences([[0.2, 0.8], [0.4, 0.6], [1.0, 0.0]], [1, 1, 2],
    ...             labels=["low", "high"], sample_weight=[1, 3, 1])
    class   low  high
    group
    1      0.35  0.65
    2      1.00  0.00
    """
    y, groups, sample_weight = _on_the_host("prevalences", y, groups, sample_weight)
    y_array = np.asarray(y)
    if y_array.ndim == 2:
        proba = y_array
        n_items = len(proba)
        codes, names = group_codes(groups, n_items)
        proba = _check_proba(proba)
        n_classes = proba.shape[1]
        columns = (np.arange(n_classes) if labels is None else np.asarray(labels))
        if len(columns) != n_classes:
            raise ValueError(
                f"labels names {len(columns)} classes but y has {n_classes} probability "
                "columns; name one class per column, in class order."
            )
        weight = None
        if sample_weight is not None:
            weight = np.asarray(sample_weight, dtype=np.float64)
            if weight.shape != (n_items,) or (weight < 0).any() or not np.isfinite(weight).all():
                raise ValueError(
                    f"sample_weight must hold {n_items} finite non-negative weights."
                )
        sums = class_sums((codes, None), proba, len(names), n_classes, weight)
        empty = sums.sum(axis=1) == 0
        if empty.any():
            raise ValueError(
                f"Group {names[np.flatnonzero(empty)[0]]!r} has no item of positive "
                "weight, so its prevalences are undefined."
            )
        classes = columns
    else:
        classes, names, sums, _ = item_prevalences(y, None, groups, labels, sample_weight)
    return pd.DataFrame(_as_prevalences(sums), index=pd.Index(names, name="group"),
                        columns=pd.Index(classes, name="class"))
