"""Sensitivity measures: the recall of the worst class, of all classes, of the extremes.

The sensitivity (recall) of class :math:`c_k` is the weight of its items predicted
correctly over its weight, :math:`S_k = M_{kk} / n_k`. Ordinal practitioners report,
next to the error measures, the lowest sensitivity (Cruz-Ramírez et al. 2014), the
geometric mean of the sensitivities (Kubat and Matwin 1997, as imbalanced-learn's
``geometric_mean_score``) and, for ordinal scales whose extreme classes matter most,
the geometric (GMSEC) and arithmetic (MES) mean of the sensitivities of the first
and the last class (Vargas et al. 2024). Each is a small function of the weighted
confusion matrix.

A class with no true item has no sensitivity. Here it is left out, with a warning,
as the macro averages leave it out (``docs/user_guide/error_measures.rst``); peers differ (see the
docstrings), and the tests hold each measure against them where they agree.
"""

# Annotations stay text: help() and the signature show ArrayLike, not its expansion.
from __future__ import annotations

from typing import Optional

import numpy as np
from numpy.typing import ArrayLike

from .._compat import validate_params
from .._confusion import _one_or_many, _warn_for_matrices
from ._agreement import _confusion

_CONSTRAINTS = {
    "y_true": ["array-like"],
    "y_pred": ["array-like"],
    "labels": ["array-like", None],
    "sample_weight": ["array-like", None],
}


def _sensitivities(confusion, classes, name):
    """``(recalls, present)``: ``M_kk / n_k`` of the chosen class positions, and which
    of them have a true item (shapes ``(..., len(classes))`` for a stack).

    The others have no sensitivity: they are left out, with a warning (the measure
    is NaN when none of them has a true item).
    """
    matrix = confusion.matrix
    n_true = matrix.sum(axis=-1)[..., classes]
    present = n_true > 0
    some_absent = ~present.all(axis=-1)
    none_present = ~present.any(axis=-1)
    for affected, fate in (
        (some_absent & ~none_present, f"hence no sensitivity: they are left out of {name}."),
        (none_present, f"so {name} is undefined; returning NaN."),
    ):
        _warn_for_matrices(
            affected,
            "Classes {classes} have no true item{where}, " + fate,
            classes=confusion.classes[classes],
            class_mask=~present,
        )
    diagonal = matrix.diagonal(axis1=-2, axis2=-1)[..., classes]
    return np.divide(diagonal, n_true, out=np.zeros(n_true.shape), where=present), present


def _all_classes(confusion):
    return np.arange(len(confusion.classes))


def _extreme_classes(confusion):
    return np.unique([0, len(confusion.classes) - 1])


def _geometric_mean(recalls, present):
    """The geometric mean of the present recalls, through logarithms (a product of
    many recalls underflows); 0 when one is 0, NaN when none is present."""
    positive = recalls > 0
    log = np.log(recalls, out=np.zeros(recalls.shape), where=positive)
    mean = np.exp(np.sum(log, axis=-1) / np.count_nonzero(present, axis=-1))
    return np.where(np.all(positive | ~present, axis=-1), mean, 0.0)


def _minimum_sensitivity_score_from_confusion(confusion):
    # Never empty: a kept item has a positive weight, so its true class has a recall.
    recalls, present = _sensitivities(confusion, _all_classes(confusion), "the minimum")
    return _one_or_many(np.min(recalls, axis=-1, where=present, initial=np.inf))


def _geometric_mean_score_from_confusion(confusion):
    return _one_or_many(
        _geometric_mean(*_sensitivities(confusion, _all_classes(confusion), "the geometric mean"))
    )


def _gmsec_score_from_confusion(confusion):
    recalls, present = _sensitivities(confusion, _extreme_classes(confusion), "GMSEC")
    with np.errstate(invalid="ignore"):  # 0 / 0 recalls: no extreme class has a true item
        return _one_or_many(_geometric_mean(recalls, present))


def _mes_score_from_confusion(confusion):
    recalls, present = _sensitivities(confusion, _extreme_classes(confusion), "MES")
    with np.errstate(invalid="ignore"):
        mean = np.sum(recalls, axis=-1) / np.count_nonzero(present, axis=-1)
    return _one_or_many(mean)


@validate_params(_CONSTRAINTS, prefer_skip_nested_validation=True)
def minimum_sensitivity_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Minimum sensitivity: the recall of the class recognised worst.

    With :math:`M` the weighted confusion matrix and :math:`n_k` the weight of the
    items of true class :math:`c_k`:

    .. math::

        \mathrm{MS} = \min_{k: n_k > 0} \frac{M_{kk}}{n_k}

    It is 0 as soon as one class is never recognised, and equals one minus the
    largest per-class zero-one error (``mean_zero_one_error(average="max")``).
    The order of the classes plays no part, so string labels need no order.

    **A class with no true item** (named in ``labels``, or only predicted) has no
    recall: it is left out of the minimum, with an ``UndefinedMetricWarning``, as
    skordinal's ``minimum_sensitivity`` leaves it out. (dlordinal, through
    scikit-learn's ``recall_score``, counts a class that is only predicted as a
    recall of 0.)

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes. Default: the labels of ``y_true`` and ``y_pred``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    score : float
        Between 0 and 1; higher is better.

    Warns
    -----
    UndefinedMetricWarning
        When a class has no true item: it is left out.

    See Also
    --------
    geometric_mean_score : All the recalls at once.
    mean_zero_one_error : ``average="max"`` gives one minus this score.

    References
    ----------
    .. [1] M. Cruz-Ramírez, C. Hervás-Martínez, J. Sánchez-Monedero and P. A.
       Gutiérrez, "Metrics to guide a multi-objective evolutionary algorithm for
       ordinal classification", Neurocomputing 135, 2014, pp. 21-31.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import minimum_sensitivity_score
    >>> y_true = [0, 0, 1, 2, 3, 0, 0]
    >>> y_pred = [0, 1, 1, 2, 3, 0, 1]
    >>> minimum_sensitivity_score(y_true, y_pred)
    0.5
    """
    confusion = _confusion(
        y_true,
        y_pred,
        labels,
        sample_weight,
        need_order=False,
        measure="minimum_sensitivity_score",
    )
    return _minimum_sensitivity_score_from_confusion(confusion)


@validate_params(_CONSTRAINTS, prefer_skip_nested_validation=True)
def geometric_mean_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Geometric mean of the per-class sensitivities (recalls).

    Over the :math:`r` classes with a true item:

    .. math::

        \mathrm{GM} = \Bigl(\prod_{k: n_k > 0} \frac{M_{kk}}{n_k}\Bigr)^{1/r}

    This is imbalanced-learn's ``geometric_mean_score`` with
    ``average="multiclass"`` (and no ``correction``): a single class never
    recognised (a recall of 0) makes it 0. The order of the classes plays no
    part, so string labels need no order.

    **A class with no true item** (named in ``labels``, or only predicted) has no
    recall: it is left out of the product, with an ``UndefinedMetricWarning``,
    as skordinal's ``geometric_mean`` and this package's macro averages leave it
    out. imbalanced-learn instead counts it as a recall of 0, so that a class
    predicted but never true makes its G-mean 0; the two agree whenever every
    class has a true item.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes. Default: the labels of ``y_true`` and ``y_pred``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    score : float
        Between 0 and 1; higher is better.

    Warns
    -----
    UndefinedMetricWarning
        When a class has no true item: it is left out.

    See Also
    --------
    minimum_sensitivity_score : The lowest recall.
    sklearn.metrics.balanced_accuracy_score : The arithmetic mean of the recalls.

    References
    ----------
    .. [1] M. Kubat and S. Matwin, "Addressing the curse of imbalanced training
       sets: one-sided selection", Proc. ICML 1997, pp. 179-186.
    .. [2] R. Barandela, J. S. Sánchez, V. García and E. Rangel, "Strategies for
       learning in class imbalance problems", Pattern Recognition 36(3), 2003,
       pp. 849-851.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import geometric_mean_score
    >>> y_true = [0, 0, 1, 2, 3, 0, 0]
    >>> y_pred = [0, 1, 1, 2, 3, 0, 1]
    >>> round(geometric_mean_score(y_true, y_pred), 6)  # (0.5 * 1 * 1 * 1) ** (1/4)
    0.840896
    """
    confusion = _confusion(
        y_true, y_pred, labels, sample_weight, need_order=False, measure="geometric_mean_score"
    )
    return _geometric_mean_score_from_confusion(confusion)



@validate_params(_CONSTRAINTS, prefer_skip_nested_validation=True)
def gmsec_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""GMSEC: geometric mean of the sensitivities of the two extreme classes.

    .. math::

        \mathrm{GMSEC} = \sqrt{\frac{M_{11}}{n_1} \cdot \frac{M_{KK}}{n_K}}

    The first and the last class of an ordinal scale are often the rarest and
    the most important (e.g. the healthiest and the most severe grade); a
    classifier that never predicts one of them gets 0.

    The extreme classes are the first and the last class of the ordered class set
    (``labels``, else the categories of an ordered ``Categorical``, else the sorted
    numeric labels of ``y_true`` and ``y_pred``), so the order is needed: string
    labels without one are a ``ValueError``.

    **An extreme class with no true item** (named in ``labels``, or only
    predicted) has no recall: it is left out, with an
    ``UndefinedMetricWarning``, and the score is the recall of the other extreme
    class; NaN (with the warning) when neither has a true item. skordinal takes
    the extreme classes among those with a true item instead; dlordinal, through
    scikit-learn's ``recall_score``, counts a class only predicted as a recall
    of 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    score : float
        Between 0 and 1; higher is better.

    Warns
    -----
    UndefinedMetricWarning
        When an extreme class has no true item: it is left out.

    See Also
    --------
    mes_score : The arithmetic mean of the same two recalls.

    References
    ----------
    .. [1] V. M. Vargas, P. A. Gutiérrez, J. Barbero-Gómez and C.
       Hervás-Martínez, "Improving the classification of extreme classes by means
       of loss regularisation and generalised beta distributions",
       arXiv:2407.12417, 2024.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import gmsec_score
    >>> y_true = [0, 0, 1, 2, 3, 0, 0]
    >>> y_pred = [0, 1, 1, 2, 3, 0, 1]
    >>> gmsec_score(y_true, y_pred)  # sqrt(0.5 * 1.0)
    0.7071067811865476
    """
    confusion = _confusion(
        y_true, y_pred, labels, sample_weight, need_order=True, measure="gmsec_score"
    )
    return _gmsec_score_from_confusion(confusion)


@validate_params(_CONSTRAINTS, prefer_skip_nested_validation=True)
def mes_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""MES: mean of the sensitivities of the two extreme classes.

    .. math::

        \mathrm{MES} = \frac{1}{2} \Bigl(\frac{M_{11}}{n_1} + \frac{M_{KK}}{n_K}\Bigr)

    The arithmetic counterpart of :func:`gmsec_score`: missing one extreme class
    entirely costs half the score instead of all of it.

    The extreme classes are the first and the last class of the ordered class set
    (``labels``, else the categories of an ordered ``Categorical``, else the sorted
    numeric labels of ``y_true`` and ``y_pred``), so the order is needed: string
    labels without one are a ``ValueError``.

    **An extreme class with no true item** (named in ``labels``, or only
    predicted) has no recall: it is left out, with an
    ``UndefinedMetricWarning``, and the score is the recall of the other extreme
    class; NaN (with the warning) when neither has a true item. skordinal takes
    the extreme classes among those with a true item instead; dlordinal, through
    scikit-learn's ``recall_score``, counts a class only predicted as a recall
    of 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    score : float
        Between 0 and 1; higher is better.

    Warns
    -----
    UndefinedMetricWarning
        When an extreme class has no true item: it is left out.

    See Also
    --------
    gmsec_score : The geometric mean of the same two recalls.

    References
    ----------
    .. [1] V. M. Vargas, P. A. Gutiérrez, J. Barbero-Gómez and C.
       Hervás-Martínez, "Improving the classification of extreme classes by means
       of loss regularisation and generalised beta distributions",
       arXiv:2407.12417, 2024 (MES is reported by skordinal and dlordinal next
       to GMSEC).

    Examples
    --------
    >>> from sklearn_ordinal.metrics import mes_score
    >>> y_true = [0, 0, 1, 2, 3, 0, 0]
    >>> y_pred = [0, 1, 1, 2, 3, 0, 1]
    >>> mes_score(y_true, y_pred)  # (0.5 + 1.0) / 2
    0.75
    """
    confusion = _confusion(
        y_true, y_pred, labels, sample_weight, need_order=True, measure="mes_score"
    )
    return _mes_score_from_confusion(confusion)
