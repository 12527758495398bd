"""Error measures for ordinal classification: micro, macro and worst-class averages.

Baccianella, Esuli and Sebastiani (2009) show that the usual, micro-averaged, error
measures reward a classifier that puts every item into one class when the data are
imbalanced, and propose averaging the error over the classes instead
(``docs/user_guide/error_measures.rst``). Cruz-Ramírez et al. (2014) report the error
of the worst class as well
(``average="max"``, e.g. the maximum MAE). Each measure here is a small function of
the weighted confusion matrix.
"""

# Annotations stay text: help() and the signature show ArrayLike, not its expansion.
from __future__ import annotations

from typing import Literal, Optional, Union, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._compat import StrOptions, validate_params
from .._confusion import (
    ClassErrors,
    OrdinalConfusion,
    _one_or_many,
    _value_scale,
    _warn_for_matrices,
    confusion_or_errors,
    ordinal_confusion,
)

_COMMON_CONSTRAINTS = {
    "y_true": ["array-like"],
    "y_pred": ["array-like"],
    "average": [StrOptions({"macro", "micro", "max"}), None],
    "labels": ["array-like", None],
    "sample_weight": ["array-like", None],
}
_DISTANCE_CONSTRAINTS = {**_COMMON_CONSTRAINTS, "class_values": ["array-like", None]}
# With the overloads of each averaged measure, a type checker knows that
# ``average=None`` gives the per-class errors and any other average one number.
_Average = Literal["micro", "macro", "max"]


_ABSENT_CLASS_FATE = {
    None: "their error is NaN.",
    "macro": "they are left out of the macro average.",
    "max": "they are left out of the maximum.",
}


def _average(errors, average, root=False):
    """Average per-class error sums over items or over true classes.

    ``errors`` holds the classes, their weights ``n_j`` and error sums ``S_j``
    (arrays of shape ``(..., K)`` for a stack of data sets). ``micro``:
    ``sum_j S_j / N``. ``macro``: the plain mean over classes with ``n_j > 0`` of
    ``E_j = S_j / n_j``. ``max``: the largest of these ``E_j`` (Cruz-Ramirez et al.
    2014). ``None``: the ``E_j``. ``root``: the square root of each of these (RMSE),
    taken before the errors of huge class values leave their power-of-two units.
    """
    exponent = errors.exponent // 2 if root else errors.exponent
    finish = np.sqrt if root else (lambda error: error)
    n_true, class_errors = errors.class_weights, errors.class_errors
    if average == "micro":
        return _unscaled(finish(class_errors.sum(axis=-1) / n_true.sum(axis=-1)), exponent)
    present = n_true > 0
    _warn_for_matrices(
        ~present.all(axis=-1),
        "Classes {classes} have no true item{where}: " + _ABSENT_CLASS_FATE[average],
        classes=errors.classes,
        class_mask=~present,
    )
    per_class = np.divide(
        class_errors, n_true, out=np.full(np.shape(n_true), np.nan), where=present
    )
    if average is None:
        return _unscaled(finish(per_class), exponent, one=False)
    if average == "max":
        worst = np.max(per_class, axis=-1, where=present, initial=-np.inf)
        return _unscaled(finish(worst), exponent)
    return _unscaled(finish(np.mean(per_class, axis=-1, where=present)), exponent)


def _unscaled(error, exponent, one=True):
    """``error * 2 ** exponent`` (the errors of huge class values were summed in units
    of a power of two); a ValueError when the mean error itself exceeds float64."""
    if exponent:
        finite = np.isfinite(error)
        with np.errstate(over="ignore"):  # an overflow is refused below
            error = np.ldexp(error, exponent)
        if np.any(finite & ~np.isfinite(error)):
            raise ValueError(
                "The mean error exceeds the largest float64 (about 1.8e308): the class "
                "values (or predictions) are too far apart. Rescale them, e.g. pass "
                "class_values= in smaller units."
            )
    return _one_or_many(error) if one else error


def _distance_errors(confusion, power):
    """Per-class sums of ``|v(pred) - v(true)| ** power`` from the confusion matrix."""
    values, matrix = confusion.values, confusion.matrix
    exponent = _value_scale(values)
    if exponent:
        values = np.ldexp(values, -exponent)  # exact: no distance overflows
    distance = np.abs(values[np.newaxis, :] - values[:, np.newaxis]) ** power
    # einsum sums a row in the order sum(axis=-1) does, several times faster on a
    # stack of small matrices (no temporary, no reduction set up per row).
    return ClassErrors(
        confusion.classes, np.einsum("...ij->...i", matrix),
        np.einsum("...ij,ij->...i", matrix, distance), exponent * power,
    )


def _distance_error(y_true, y_pred, power, average, labels, class_values, sample_weight, measure,
                    root=False):
    """Mean of ``|v(pred) - v(true)| ** power`` (its square root with ``root``): from the
    confusion matrix for class predictions, from the items for a regressor's
    real-valued ones (docs/user_guide/conventions.rst)."""
    counted = confusion_or_errors(
        y_true,
        y_pred,
        power,
        labels=labels,
        class_values=class_values,
        sample_weight=sample_weight,
        measure=measure,
    )
    if isinstance(counted, OrdinalConfusion):
        counted = _distance_errors(counted, power)
    return _average(counted, average, root=root)


# Each measure as a function of the confusion matrix (for resampling, chunks and
# stacks of matrices).


def _mean_absolute_error_from_confusion(confusion, average="micro"):
    return _average(_distance_errors(confusion, 1), average)


def _mean_squared_error_from_confusion(confusion, average="micro"):
    return _average(_distance_errors(confusion, 2), average)


def _root_mean_squared_error_from_confusion(confusion, average="micro"):
    return _average(_distance_errors(confusion, 2), average, root=True)


def _mean_zero_one_error_from_confusion(confusion, average="micro"):
    matrix = confusion.matrix
    weights = np.einsum("...ij->...i", matrix)  # row sums, as in _distance_errors
    errors = ClassErrors(
        confusion.classes, weights, weights - matrix.diagonal(axis1=-2, axis2=-1)
    )
    return _average(errors, average)


# Each measure's cost of one item, given the gold class weights (for choosing cut
# points on a score, metrics/_thresholds.py): a micro or macro average is a weighted
# sum over items of a cost of (true class, predicted class); the worst class is not.


def _per_item_divisor(class_weights, average):
    """What an item's cost is divided by: ``N`` (micro) or ``n_i |{j: n_j > 0}|``
    (macro) for an item of true class ``i``; None for the other averages."""
    if average == "micro":
        return np.full(class_weights.shape, class_weights.sum())
    if average == "macro":
        present = class_weights > 0
        return np.where(present, class_weights * present.sum(), np.inf)
    return None


def _distance_item_costs(class_weights, values, average="micro", power=1):
    """``cost[i, j] = |v_j - v_i| ** power / divisor_i``: MAE (``power=1``) or MSE
    (and RMSE, its square root) is the sum of these over the items; None for
    ``average="max"`` or ``None``."""
    divisor = _per_item_divisor(class_weights, average)
    if divisor is None:
        return None
    return np.abs(values[np.newaxis, :] - values[:, np.newaxis]) ** power / divisor[:, np.newaxis]


def _zero_one_item_costs(class_weights, values, average="micro"):
    """``cost[i, j] = [i != j] / divisor_i``, the zero-one error of one item."""
    divisor = _per_item_divisor(class_weights, average)
    if divisor is None:
        return None
    return (~np.eye(len(class_weights), dtype=bool)) / divisor[:, np.newaxis]


@overload
def mean_absolute_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    average: _Average = ...,
    labels: Optional[ArrayLike] = ...,
    class_values: Optional[ArrayLike] = ...,
    sample_weight: Optional[ArrayLike] = ...,
) -> float: ...


@overload
def mean_absolute_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    average: None,
    labels: Optional[ArrayLike] = ...,
    class_values: Optional[ArrayLike] = ...,
    sample_weight: Optional[ArrayLike] = ...,
) -> NDArray[np.float64]: ...


@validate_params(_DISTANCE_CONSTRAINTS, prefer_skip_nested_validation=True)
def mean_absolute_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    average: Optional[_Average] = "micro",
    labels: Optional[ArrayLike] = None,
    class_values: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> Union[float, NDArray[np.float64]]:
    r"""Mean absolute error between ordinal classes, micro-averaged by default.

    The default is scikit-learn's number; :func:`macro_mean_absolute_error` and
    ``average="macro"`` give the macro average.

    With class values :math:`v` (see ``class_values``), item weights :math:`w_d`,
    :math:`n_j` the weight of the items of true class :math:`c_j` and :math:`N`
    the total weight:

    .. math::

        \mathrm{MAE}^\mu = \frac{1}{N} \sum_d w_d \, |v(\hat y_d) - v(y_d)|

        \mathrm{MAE}^M = \frac{1}{|\{j: n_j > 0\}|} \sum_{j: n_j > 0}
            \frac{1}{n_j} \sum_{d: y_d = c_j} w_d \, |v(\hat y_d) - v(c_j)|

    The macro average weighs every class alike, so a classifier that puts every
    item into one class cannot do well; on perfectly balanced data it equals the
    micro average. ``average="max"`` gives the error of the worst class, the
    maximum MAE (MMAE) of Cruz-Ramírez et al. [2]_:

    .. math::

        \mathrm{MMAE} = \max_{j: n_j > 0}
            \frac{1}{n_j} \sum_{d: y_d = c_j} w_d \, |v(\hat y_d) - v(c_j)|

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    average : {"micro", "macro", "max"} or None, default="micro"
        ``"macro"``: mean of the per-class errors over the classes with a true item.
        ``"micro"``: mean over items. ``"max"``: the largest per-class error over
        the classes with a true item. ``None``: the per-class errors (NaN for a
        class with no true item).
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order. Default: the categories of an ordered
        ``Categorical`` ``y_true``, else the sorted labels of ``y_true`` and ``y_pred``.
    class_values : array-like of shape (n_classes,), default=None
        Strictly increasing numbers standing for the classes. Default: the labels
        themselves if they are numbers, else their positions ``0, ..., K - 1``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    error : float or ndarray of shape (n_classes,)
        Non-negative; lower is better. An array when ``average=None``.

    Warns
    -----
    UndefinedMetricWarning
        When a class has no true item: it is left out of the macro average (and
        of the maximum).

    See Also
    --------
    macro_mean_absolute_error : The macro average, robust to class imbalance.
    mean_squared_error : Penalises distant mistakes more.
    mean_zero_one_error : Ignores how far a mistake is.

    References
    ----------
    .. [1] S. Baccianella, A. Esuli and F. Sebastiani, "Evaluation measures for
       ordinal regression", Proc. ISDA 2009, pp. 283-287, eq. (1) and (4).
    .. [2] M. Cruz-Ramírez, C. Hervás-Martínez, J. Sánchez-Monedero and P. A.
       Gutiérrez, "Metrics to guide a multi-objective evolutionary algorithm for
       ordinal classification", Neurocomputing 135, 2014, pp. 21-31.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import mean_absolute_error
    >>> y_true = [1, 1, 1, 1, 2, 3]
    >>> y_pred = [1, 1, 1, 1, 1, 1]
    >>> mean_absolute_error(y_true, y_pred)
    0.5
    >>> mean_absolute_error(y_true, y_pred, average="macro")
    1.0
    >>> mean_absolute_error(y_true, y_pred, average="max")
    2.0
    >>> mean_absolute_error(y_true, y_pred, average=None)
    array([0., 1., 2.])
    """
    return _distance_error(
        y_true, y_pred, 1, average, labels, class_values, sample_weight, "mean_absolute_error"
    )


@overload
def mean_squared_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    average: _Average = ...,
    labels: Optional[ArrayLike] = ...,
    class_values: Optional[ArrayLike] = ...,
    sample_weight: Optional[ArrayLike] = ...,
) -> float: ...


@overload
def mean_squared_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    average: None,
    labels: Optional[ArrayLike] = ...,
    class_values: Optional[ArrayLike] = ...,
    sample_weight: Optional[ArrayLike] = ...,
) -> NDArray[np.float64]: ...


@validate_params(_DISTANCE_CONSTRAINTS, prefer_skip_nested_validation=True)
def mean_squared_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    average: Optional[_Average] = "micro",
    labels: Optional[ArrayLike] = None,
    class_values: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> Union[float, NDArray[np.float64]]:
    r"""Mean squared error between ordinal classes, micro-averaged by default.

    .. math::

        \mathrm{MSE}^\mu = \frac{1}{N} \sum_d w_d \, (v(\hat y_d) - v(y_d))^2

        \mathrm{MSE}^M = \frac{1}{|\{j: n_j > 0\}|} \sum_{j: n_j > 0}
            \frac{1}{n_j} \sum_{d: y_d = c_j} w_d \, (v(\hat y_d) - v(c_j))^2

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    average : {"micro", "macro", "max"} or None, default="micro"
        ``"macro"``: mean of the per-class errors over the classes with a true item.
        ``"micro"``: mean over items. ``"max"``: the largest per-class error over
        the classes with a true item (worst class). ``None``: the per-class errors.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order.
    class_values : array-like of shape (n_classes,), default=None
        Strictly increasing numbers standing for the classes. Default: the labels
        themselves if they are numbers, else their positions.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    error : float or ndarray of shape (n_classes,)
        Non-negative; lower is better.

    Warns
    -----
    UndefinedMetricWarning
        When a class has no true item: it is left out of the macro average (and
        of the maximum).

    See Also
    --------
    mean_absolute_error, root_mean_squared_error

    References
    ----------
    .. [1] S. Baccianella, A. Esuli and F. Sebastiani, "Evaluation measures for
       ordinal regression", Proc. ISDA 2009, pp. 283-287, eq. (2).

    Examples
    --------
    >>> from sklearn_ordinal.metrics import mean_squared_error
    >>> mean_squared_error([1, 1, 1, 1, 2, 3], [1, 1, 1, 1, 1, 1], average="macro")
    1.6666666666666667
    >>> mean_squared_error([1, 1, 1, 1, 2, 3], [1, 1, 1, 1, 1, 1])
    0.8333333333333334
    """
    return _distance_error(
        y_true, y_pred, 2, average, labels, class_values, sample_weight, "mean_squared_error"
    )


@overload
def root_mean_squared_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    average: _Average = ...,
    labels: Optional[ArrayLike] = ...,
    class_values: Optional[ArrayLike] = ...,
    sample_weight: Optional[ArrayLike] = ...,
) -> float: ...


@overload
def root_mean_squared_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    average: None,
    labels: Optional[ArrayLike] = ...,
    class_values: Optional[ArrayLike] = ...,
    sample_weight: Optional[ArrayLike] = ...,
) -> NDArray[np.float64]: ...


@validate_params(_DISTANCE_CONSTRAINTS, prefer_skip_nested_validation=True)
def root_mean_squared_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    average: Optional[_Average] = "micro",
    labels: Optional[ArrayLike] = None,
    class_values: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> Union[float, NDArray[np.float64]]:
    r"""Root mean squared error between ordinal classes, micro-averaged by default.

    The square root of :func:`mean_squared_error` with the same ``average``:
    :math:`\mathrm{RMSE}^M = \sqrt{\mathrm{MSE}^M}`,
    :math:`\mathrm{RMSE}^\mu = \sqrt{\mathrm{MSE}^\mu}`; with ``average=None``, the
    square roots of the per-class mean squared errors.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    average : {"micro", "macro", "max"} or None, default="micro"
        As in :func:`mean_squared_error`; ``"max"`` gives the largest per-class
        root mean squared error.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order.
    class_values : array-like of shape (n_classes,), default=None
        Strictly increasing numbers standing for the classes.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    error : float or ndarray of shape (n_classes,)
        Non-negative; lower is better.

    See Also
    --------
    mean_squared_error

    References
    ----------
    .. [1] S. Baccianella, A. Esuli and F. Sebastiani, "Evaluation measures for
       ordinal regression", Proc. ISDA 2009, pp. 283-287, section III.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import root_mean_squared_error
    >>> root_mean_squared_error([1, 2, 3, 4], [1, 2, 3, 2])
    1.0
    """
    return _distance_error(
        y_true, y_pred, 2, average, labels, class_values, sample_weight,
        "root_mean_squared_error", root=True,
    )


@overload
def mean_zero_one_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    average: _Average = ...,
    labels: Optional[ArrayLike] = ...,
    sample_weight: Optional[ArrayLike] = ...,
) -> float: ...


@overload
def mean_zero_one_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    average: None,
    labels: Optional[ArrayLike] = ...,
    sample_weight: Optional[ArrayLike] = ...,
) -> NDArray[np.float64]: ...


@validate_params(_COMMON_CONSTRAINTS, prefer_skip_nested_validation=True)
def mean_zero_one_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    average: Optional[_Average] = "micro",
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> Union[float, NDArray[np.float64]]:
    r"""Mean zero-one error (error rate), micro-averaged by default.

    .. math::

        \mathrm{MZOE}^\mu = \frac{1}{N} \sum_d w_d \, [\hat y_d \ne y_d]

        \mathrm{MZOE}^M = \frac{1}{|\{j: n_j > 0\}|} \sum_{j: n_j > 0}
            \frac{1}{n_j} \sum_{d: y_d = c_j} w_d \, [\hat y_d \ne c_j]

    The micro average is one minus accuracy; the macro average is one minus
    balanced accuracy. Distances between classes play no part, so class values
    are not needed.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    average : {"micro", "macro", "max"} or None, default="micro"
        ``"macro"``: mean of the per-class error rates over the classes with a true
        item. ``"micro"``: mean over items. ``"max"``: the largest per-class error
        rate over the classes with a true item (one minus the minimum
        sensitivity). ``None``: the per-class error rates.
    labels : array-like of shape (n_classes,), default=None
        The classes in order.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    error : float or ndarray of shape (n_classes,)
        Between 0 and 1; lower is better.

    See Also
    --------
    sklearn.metrics.balanced_accuracy_score : One minus the macro average.

    References
    ----------
    .. [1] S. Baccianella, A. Esuli and F. Sebastiani, "Evaluation measures for
       ordinal regression", Proc. ISDA 2009, pp. 283-287, eq. (3).

    Examples
    --------
    >>> from sklearn_ordinal.metrics import mean_zero_one_error
    >>> mean_zero_one_error(["low", "low", "low", "high"], ["low"] * 4)
    0.25
    >>> mean_zero_one_error(["low", "low", "low", "high"], ["low"] * 4, average="macro")
    0.5
    """
    confusion = ordinal_confusion(
        y_true,
        y_pred,
        labels=labels,
        sample_weight=sample_weight,
        need_values=False,
        need_order=False,
        measure="mean_zero_one_error",
    )
    return _mean_zero_one_error_from_confusion(confusion, average)


# --- The macro averages under their own names ---------------------------------------
#
# The measures Baccianella et al. (2009) recommend for imbalanced ordinal data. Their
# names say "macro", so that the scikit-learn names above keep scikit-learn's
# (micro-averaged) numbers and ``neg_macro_mean_absolute_error`` is minus
# ``macro_mean_absolute_error``.

_MACRO_CONSTRAINTS = {k: v for k, v in _DISTANCE_CONSTRAINTS.items() if k != "average"}
_MACRO_ZERO_ONE_CONSTRAINTS = {k: v for k, v in _COMMON_CONSTRAINTS.items() if k != "average"}


def _macro_mean_absolute_error_from_confusion(confusion):
    return _mean_absolute_error_from_confusion(confusion, "macro")


def _macro_mean_squared_error_from_confusion(confusion):
    return _mean_squared_error_from_confusion(confusion, "macro")


def _macro_root_mean_squared_error_from_confusion(confusion):
    return _root_mean_squared_error_from_confusion(confusion, "macro")


def _macro_mean_zero_one_error_from_confusion(confusion):
    return _mean_zero_one_error_from_confusion(confusion, "macro")


@validate_params(_MACRO_CONSTRAINTS, prefer_skip_nested_validation=True)
def macro_mean_absolute_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    class_values: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Macro-averaged mean absolute error: the mean over classes of each class's MAE.

    With class values :math:`v`, item weights :math:`w_d` and :math:`n_j` the weight
    of the items of true class :math:`c_j`:

    .. math::

        \mathrm{MAE}^M = \frac{1}{|\{j: n_j > 0\}|} \sum_{j: n_j > 0}
            \frac{1}{n_j} \sum_{d: y_d = c_j} w_d \, |v(\hat y_d) - v(c_j)|

    Every class weighs alike, so a classifier that puts every item into one class
    cannot do well on imbalanced data (Baccianella et al. [1]_); on perfectly
    balanced data it equals the micro average. The same as
    ``mean_absolute_error(..., average="macro")``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings (with ``labels``) or a pandas ordered
        ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels, or a regressor's real-valued predictions.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order. Default: the categories of an ordered
        ``Categorical`` ``y_true``, else the sorted labels of ``y_true`` and ``y_pred``
        (numbers only: strings need their order).
    class_values : array-like of shape (n_classes,), default=None
        Strictly increasing numbers standing for the classes. Default: the labels
        themselves if they are numbers, else their positions ``0, ..., K - 1``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    error : float
        Non-negative; lower is better.

    Warns
    -----
    UndefinedMetricWarning
        When a class of ``labels`` has no true item: it is left out of the average.

    See Also
    --------
    mean_absolute_error : The micro average (scikit-learn's number), per-class errors.

    References
    ----------
    .. [1] S. Baccianella, A. Esuli and F. Sebastiani, "Evaluation measures for
       ordinal regression", Proc. ISDA 2009, pp. 283-287, eq. (4).

    Examples
    --------
    >>> from sklearn_ordinal.metrics import macro_mean_absolute_error
    >>> macro_mean_absolute_error([1, 1, 1, 1, 2, 3], [1, 1, 1, 1, 1, 1])
    1.0
    """
    return _distance_error(y_true, y_pred, 1, "macro", labels, class_values, sample_weight,
                           "macro_mean_absolute_error")


@validate_params(_MACRO_CONSTRAINTS, prefer_skip_nested_validation=True)
def macro_mean_squared_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    class_values: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Macro-averaged mean squared error: the mean over classes of each class's MSE.

    .. math::

        \mathrm{MSE}^M = \frac{1}{|\{j: n_j > 0\}|} \sum_{j: n_j > 0}
            \frac{1}{n_j} \sum_{d: y_d = c_j} w_d \, (v(\hat y_d) - v(c_j))^2

    The same as ``mean_squared_error(..., average="macro")``; see
    :func:`macro_mean_absolute_error` for the notation and the arguments.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels, or a regressor's real-valued predictions.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order.
    class_values : array-like of shape (n_classes,), default=None
        Strictly increasing numbers standing for the classes.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    error : float
        Non-negative; lower is better.

    See Also
    --------
    mean_squared_error : The micro average (scikit-learn's number).

    References
    ----------
    .. [1] S. Baccianella, A. Esuli and F. Sebastiani, "Evaluation measures for
       ordinal regression", Proc. ISDA 2009, pp. 283-287.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import macro_mean_squared_error
    >>> macro_mean_squared_error([1, 1, 1, 1, 2, 3], [1, 1, 1, 1, 1, 1])
    1.6666666666666667
    """
    return _distance_error(y_true, y_pred, 2, "macro", labels, class_values, sample_weight,
                           "macro_mean_squared_error")


@validate_params(_MACRO_CONSTRAINTS, prefer_skip_nested_validation=True)
def macro_root_mean_squared_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    class_values: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Square root of the macro-averaged mean squared error.

    :math:`\sqrt{\mathrm{MSE}^M}` (see :func:`macro_mean_squared_error`); the same as
    ``root_mean_squared_error(..., average="macro")``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels, or a regressor's real-valued predictions.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order.
    class_values : array-like of shape (n_classes,), default=None
        Strictly increasing numbers standing for the classes.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    error : float
        Non-negative; lower is better.

    See Also
    --------
    root_mean_squared_error : The micro average (scikit-learn's number).

    References
    ----------
    .. [1] S. Baccianella, A. Esuli and F. Sebastiani, "Evaluation measures for
       ordinal regression", Proc. ISDA 2009, pp. 283-287.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import macro_root_mean_squared_error
    >>> macro_root_mean_squared_error([1, 1, 2, 2], [1, 1, 1, 2])
    0.5
    """
    return _distance_error(y_true, y_pred, 2, "macro", labels, class_values, sample_weight,
                           "macro_root_mean_squared_error", root=True)


@validate_params(_MACRO_ZERO_ONE_CONSTRAINTS, prefer_skip_nested_validation=True)
def macro_mean_zero_one_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Macro-averaged zero-one error: one minus the balanced accuracy.

    .. math::

        \mathrm{MZOE}^M = \frac{1}{|\{j: n_j > 0\}|} \sum_{j: n_j > 0}
            \frac{1}{n_j} \sum_{d: y_d = c_j} w_d \, [\hat y_d \ne c_j]

    The same as ``mean_zero_one_error(..., average="macro")``. It ignores the order
    of the classes, so string labels need no order.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    error : float
        Between 0 and 1; lower is better.

    See Also
    --------
    mean_zero_one_error : The micro average (the error rate).
    sklearn.metrics.balanced_accuracy_score : One minus this measure.

    References
    ----------
    .. [1] S. Baccianella, A. Esuli and F. Sebastiani, "Evaluation measures for
       ordinal regression", Proc. ISDA 2009, pp. 283-287.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import macro_mean_zero_one_error
    >>> macro_mean_zero_one_error(["low", "low", "low", "high"], ["low"] * 4)
    0.5
    """
    return mean_zero_one_error(y_true, y_pred, average="macro", labels=labels,
                               sample_weight=sample_weight)
