"""The weighted confusion matrix of ordered classes: the label measures' intermediate.

Every label-based measure of the package is a function of the weighted confusion
matrix ``M`` (rows = true class, columns = predicted class, in class order) and of
the class values ``v``: :class:`OrdinalConfusion`. It adds up over chunks, so
NumPy input, chunks and Dask blocks (counted by :mod:`sklearn_ordinal._dask` with
this very code) give the same intermediate. Every measure's kernel also takes a
stack of matrices ``(..., K, K)``, giving one result per matrix: resampling and the
meta-evaluation score thousands of matrices in one call.

This module never looks a measure up by name: :meth:`OrdinalConfusion.score` reads
the kernel from the record the measure registry sets on each measure function.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt
from sklearn.exceptions import UndefinedMetricWarning

from . import _dask
from ._array_api import compress, host_views, namespace_of, on_device, scalar
from ._blocks import _common_scale
from ._records import record_of
from ._counting import _confusion_from_codes, _fast_confusion, _grid_confusion
from ._device_counting import (
    checked_device_items,
    first_real_value,
    host_labels,
    refuse_real_values,
)
from ._validation import (
    _add_to_zero,
    _any_dask,
    _check_same_classes,
    _class_values,
    _classes_and_codes,
    _is_real_valued,
    _real_valued_message,
    _refuse_scaling,
    _validate,
)
from ._warnings import warn_user

# What a measure returns, which score() returns (a float, or per-class values).
_Score = TypeVar("_Score")


class OrdinalConfusion(NamedTuple):
    r"""The weighted confusion matrix of ordered classes: what every label measure reads.

    Every label-based measure of :mod:`sklearn_ordinal.metrics` first turns its
    inputs into this object, then computes from it alone. Because the matrix of a
    union of data sets is the sum of their matrices, the object of a large data set
    can be built chunk by chunk: build one per chunk with :meth:`from_predictions`,
    add them with ``+`` (or ``sum()``), and call :meth:`score`. The result is the
    measure on all the data, up to the rounding of the sums.

    The class set must be the same in every chunk: give it with ``labels=`` (or
    pass ordered ``Categorical`` targets with the same categories), since a chunk
    may lack a class. Adding objects of different classes is a ValueError.

    Read more in the :ref:`User Guide <chunks>`.

    Parameters
    ----------
    classes : ndarray of shape (n_classes,)
        The class labels, in class order.
    values : ndarray of shape (n_classes,)
        The class values (floats) used by the distance measures; numeric labels are
        measured from the lowest class, which changes no difference between values.
    matrix : ndarray of shape (n_classes, n_classes)
        ``matrix[i, j]``: weight of the items of true class i predicted as class j,
        the weights divided by ``2 ** weight_exponent`` (which changes no measure).
    weight_exponent : int
        ``matrix * 2 ** weight_exponent`` holds the weights' own sums
        (``weights``). Each chunk divides its weights by a power of two near its
        largest weight, so that no sum overflows; ``+`` brings both matrices to the
        larger exponent exactly before adding.
    weighted : bool
        Whether the items were weighted (``sample_weight`` given): a measure with no
        weighted form refuses a weighted matrix, as it refuses ``sample_weight``.

    See Also
    --------
    ordinal_confusion_matrix : The matrix alone, in the weights' own units.
    ScoreTable : The same for the ranking measures.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import OrdinalConfusion, mean_absolute_error
    >>> labels = ["low", "mid", "high"]
    >>> first = OrdinalConfusion.from_predictions(["low", "mid"], ["low", "high"],
    ...                                           labels=labels)
    >>> second = OrdinalConfusion.from_predictions(["high"], ["mid"], labels=labels)
    >>> (first + second).score(mean_absolute_error)
    0.666...
    >>> mean_absolute_error(["low", "mid", "high"], ["low", "high", "mid"],
    ...                     labels=labels)
    0.666...
    """

    classes: np.ndarray
    values: np.ndarray
    matrix: np.ndarray
    weight_exponent: int = 0
    weighted: bool = False

    @property
    def class_weights(self) -> npt.NDArray[np.float64]:
        """``n_k``, the weight of the items whose true class is ``c_k`` (scaled as
        :attr:`matrix`)."""
        return self.matrix.sum(axis=-1)  # also for a stack of matrices

    @property
    def weights(self) -> npt.NDArray[np.float64]:
        """The confusion matrix in the weights' own units, as
        :func:`~sklearn_ordinal.metrics.ordinal_confusion_matrix` returns it."""
        return np.ldexp(self.matrix, self.weight_exponent)

    @classmethod
    def from_predictions(
        cls,
        y_true: npt.ArrayLike,
        y_pred: npt.ArrayLike,
        *,
        labels: npt.ArrayLike | None = None,
        class_values: npt.ArrayLike | None = None,
        sample_weight: npt.ArrayLike | None = None,
    ) -> OrdinalConfusion:
        """The confusion of one data set (or chunk), validated as every measure does.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n_samples,)
            True and predicted labels.
        labels : array-like of shape (n_classes,), default=None
            The classes in order. Give it when the data come in chunks, since a
            chunk may lack a class.
        class_values : array-like of shape (n_classes,), default=None
            Strictly increasing numbers standing for the classes, for the distance
            measures.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative item weights.

        Returns
        -------
        confusion : OrdinalConfusion
            The classes, their values and the weighted confusion matrix.

        Examples
        --------
        >>> from sklearn_ordinal.metrics import OrdinalConfusion
        >>> confusion = OrdinalConfusion.from_predictions(
        ...     [1, 2, 3, 3], [1, 3, 3, 2], sample_weight=[1, 1, 2, 4])
        >>> confusion.weights
        array([[1., 0., 0.],
               [0., 0., 1.],
               [0., 4., 2.]])
        """
        return ordinal_confusion(
            y_true,
            y_pred,
            labels=labels,
            class_values=class_values,
            sample_weight=sample_weight,
            measure="OrdinalConfusion",
        )

    def __add__(self, other):
        if not isinstance(other, OrdinalConfusion):
            return NotImplemented
        _check_same_classes(self, other, "OrdinalConfusion")
        if not np.array_equal(self.values, other.values):
            raise ValueError(
                f"The class values differ ({self.values.tolist()} and "
                f"{other.values.tolist()}); give the same class_values for every chunk."
            )
        exponent, (first, second) = _common_scale(self, other, "matrix")
        return self._replace(
            matrix=first + second,
            weight_exponent=exponent,
            weighted=self.weighted or other.weighted,
        )

    # One body for both chunk summaries (a NamedTuple takes no mixin).
    def __mul__(self, other):
        return _refuse_scaling(self, other)

    def __rmul__(self, other):
        return _refuse_scaling(self, other)

    def __radd__(self, other):
        return _add_to_zero(self, other)

    def score(self, measure: Callable[..., _Score], **kwargs: Any) -> _Score:
        """A label measure of the data, computed from the confusion matrix alone.

        Parameters
        ----------
        measure : callable
            A label measure of :mod:`sklearn_ordinal.metrics` (e.g.
            :func:`~sklearn_ordinal.metrics.mean_absolute_error`), or a
            ``functools.partial`` of one.
        **kwargs
            The measure's own parameters (e.g. ``average="micro"``); ``labels``,
            ``class_values`` and ``sample_weight`` are already in the matrix.

        Returns
        -------
        score : float or ndarray
            ``measure(y_true, y_pred, ...)`` on the data of the matrix: what the
            measure returns (a float, or per-class values with ``average=None``).

        Examples
        --------
        >>> from sklearn_ordinal.metrics import OrdinalConfusion, cem_score
        >>> chunks = [([1, 2], [1, 3]), ([3, 3], [3, 2])]
        >>> total = sum(OrdinalConfusion.from_predictions(t, p, labels=[1, 2, 3])
        ...             for t, p in chunks)
        >>> round(total.score(cem_score), 4) == round(cem_score([1, 2, 3, 3], [1, 3, 3, 2]), 4)
        True
        """
        record, keywords = record_of(measure)
        if record is None or record.from_confusion is None:
            raise ValueError(
                f"{getattr(measure, '__name__', measure)!r} is not a label measure of "
                "sklearn_ordinal.metrics, so it cannot be computed from a confusion "
                "matrix; ranking measures are computed from a ScoreTable."
            )
        given = sorted(set(keywords) & {"labels", "class_values", "sample_weight"}
                       | set(kwargs) & {"labels", "class_values", "sample_weight"})
        if given:
            raise ValueError(
                f"OrdinalConfusion.score takes no {', '.join(given)}: the matrix already "
                "holds the classes, their values and the item weights. Give them to "
                "OrdinalConfusion.from_predictions (or to the measure on the labels)."
            )
        return record.score_confusion(self, {**keywords, **kwargs})


class ClassErrors(NamedTuple):
    """Per-class weights and error sums: the intermediate of the distance measures."""

    classes: np.ndarray
    """The K class labels, in class order."""
    class_weights: np.ndarray
    """``n_k``, the weight of the items of true class ``c_k``."""
    class_errors: np.ndarray
    """``sum_{d: y_d = c_k} w_d |y_hat_d - v_k| ** power``, over ``2 ** exponent``."""
    exponent: int = 0
    """Errors of values near the float64 limit are summed in units of ``2 ** exponent``
    (see :func:`_value_scale`), so that no distance overflows."""


# Class values whose distances could overflow float64 (2 ** 1024) once raised to a
# power: beyond this magnitude the distances are computed in units of a power of two.
_LARGEST_UNSCALED_VALUE = 2.0**500


def _value_scale(values):
    """The exponent ``e`` such that distances of ``values / 2 ** e`` cannot overflow.

    0 (no scaling, the very same floats) for every value below 2 ** 500 in
    magnitude; else the exponent of the largest magnitude, so that the scaled values
    lie in (-1, 1). Dividing by a power of two is exact, so only values far smaller
    than the largest (by more than 2 ** 1000) lose bits.
    """
    largest = float(np.max(np.abs(values))) if np.size(values) else 0.0
    if largest < _LARGEST_UNSCALED_VALUE:
        return 0
    return int(np.frexp(largest)[1])


def confusion_or_errors(
    y_true, y_pred, power, *, labels=None, class_values=None, sample_weight=None, measure=None
):
    """Validate inputs once for a distance measure.

    Returns the :class:`OrdinalConfusion` when ``y_pred`` holds classes, and the
    :class:`ClassErrors` when it holds a regressor's real-valued predictions, whose
    error is ``|y_hat_d - v(y_d)| ** power`` as it is (docs/user_guide/conventions.rst),
    summed per true class in one pass. Dask inputs give the same: whether the
    predictions are classes is decided on the whole data, then each block is counted
    by this code.
    """
    if _any_dask(y_true, y_pred, sample_weight):
        return _dask.dask_confusion(
            ordinal_confusion,
            y_true,
            y_pred,
            labels=labels,
            class_values=class_values,
            sample_weight=sample_weight,
            need_values=True,
            need_order=True,
            measure=measure,
            count_errors=functools.partial(_block_class_errors, power=power),
            add_errors=_add_class_errors,
        )
    namespace = namespace_of(y_true, y_pred, sample_weight)
    if namespace is not None:
        if not namespace.on_host:
            return _device_confusion(
                namespace, y_true, y_pred, labels, class_values, sample_weight, True, True,
                measure, power,
            )
        y_true, y_pred, sample_weight = host_views(y_true, y_pred, sample_weight)
    # Classes as predictions are counted in blocks; a regressor's real values are not
    # integers, so the grid leaves them to the slow path below.
    counted = _counted_confusion(y_true, y_pred, labels, class_values, sample_weight, True, True)
    if counted is not None:
        return counted
    y_true, y_pred, sample_weight, exponent = _validate(y_true, y_pred, sample_weight)
    if y_pred.dtype.kind == "f" and _is_real_valued(y_pred, y_true, labels):
        return _class_errors(y_true, y_pred, power, labels, class_values, sample_weight,
                             measure)
    confusion = _confusion(
        y_true, y_pred, labels, class_values, sample_weight, True, True, measure
    )
    return confusion._replace(weight_exponent=exponent)


def _class_errors(y_true, y_pred, power, labels, class_values, sample_weight, measure):
    """The :class:`ClassErrors` of validated real-valued predictions."""
    classes, codes, _ = _classes_and_codes(y_true, None, labels, True, measure)
    # Predictions are compared with the values themselves, not their differences.
    values = _class_values(classes, class_values, relative=False)
    exponent = _value_scale(np.r_[values, np.max(np.abs(y_pred))])
    errors = np.abs(np.ldexp(y_pred, -exponent) - np.ldexp(values, -exponent)[codes])
    errors **= power
    if sample_weight is not None:
        errors *= sample_weight
    n_classes = len(classes)
    class_weights = np.bincount(codes, weights=sample_weight, minlength=n_classes)
    class_errors = np.bincount(codes, weights=errors, minlength=n_classes)
    return ClassErrors(classes, class_weights.astype(np.float64), class_errors,
                       exponent * power)


def _block_class_errors(y_true, y_pred, sample_weight, *, power, labels, class_values,
                        measure):
    """``(errors, weight_exponent)`` of one Dask block of real-valued predictions, over
    the class set ``labels`` of the whole data (a block may lack a class)."""
    y_true, y_pred, sample_weight, weight_exponent = _validate(y_true, y_pred, sample_weight)
    y_pred = np.asarray(y_pred, dtype=np.float64)
    errors = _class_errors(y_true, y_pred, power, labels, class_values, sample_weight,
                           measure)
    return errors, weight_exponent


def _add_class_errors(parts):
    """The sum of the blocks' ``(errors, weight_exponent)`` (None for none).

    Each block's weights are in units of ``2 ** weight_exponent`` and its errors in
    units of ``2 ** (weight_exponent + errors.exponent)``; the sum brings both to the
    blocks' largest units (exact powers of two), so that nothing overflows.
    """
    parts = [part for part in parts if part is not None]
    if not parts:
        return None
    weight_units = [exponent for _, exponent in parts]
    error_units = [exponent + errors.exponent for errors, exponent in parts]
    weight_unit, error_unit = max(weight_units), max(error_units)
    class_weights = sum(np.ldexp(errors.class_weights, unit - weight_unit)
                        for (errors, _), unit in zip(parts, weight_units))
    class_errors = sum(np.ldexp(errors.class_errors, unit - error_unit)
                       for (errors, _), unit in zip(parts, error_units))
    errors = ClassErrors(parts[0][0].classes, class_weights, class_errors,
                         error_unit - weight_unit)
    return errors, weight_unit


# --- The confusion matrix ----------------------------------------------------------


def _confusion(y_true, y_pred, labels, class_values, sample_weight, need_values, need_order,
               measure):
    """:func:`ordinal_confusion` on inputs already through :func:`_validate`."""
    if y_pred.dtype.kind == "f" and _is_real_valued(y_pred, y_true, labels):
        raise ValueError(_real_valued_message(y_pred, measure, y_true, labels))
    direct = None
    if (
        labels is None
        and isinstance(y_true, np.ndarray)
        and isinstance(y_pred, np.ndarray)
        and y_true.dtype.kind in "iu"
        and y_pred.dtype.kind in "iu"
    ):
        direct = _grid_confusion(y_true, y_pred, None, sample_weight, 0)
    if direct is not None:
        classes, matrix = direct
    else:
        classes, true_codes, pred_codes = _classes_and_codes(
            y_true, y_pred, labels, need_order, measure
        )
        matrix = _confusion_from_codes(true_codes, pred_codes, len(classes), sample_weight)
    return OrdinalConfusion(
        classes, _values(classes, class_values, need_values), matrix,
        weighted=sample_weight is not None,
    )


def _values(classes, class_values, need_values):
    if need_values or class_values is not None:
        return _class_values(classes, class_values)
    return np.arange(len(classes), dtype=np.float64)


def _counted_confusion(y_true, y_pred, labels, class_values, sample_weight, need_values,
                       need_order):
    """The :class:`OrdinalConfusion` of valid input counted in blocks, or None (see
    :func:`_fast_confusion`)."""
    found = _fast_confusion(y_true, y_pred, labels, sample_weight, need_order)
    if found is None:
        return None
    classes, matrix, exponent = found
    return OrdinalConfusion(classes, _values(classes, class_values, need_values), matrix,
                            exponent, weighted=sample_weight is not None)


def ordinal_confusion(
    y_true,
    y_pred,
    *,
    labels=None,
    class_values=None,
    sample_weight=None,
    need_values=True,
    need_order=True,
    measure=None,
):
    """Validate inputs once and return the :class:`OrdinalConfusion` of the data.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes in order.
    class_values : array-like of shape (n_classes,), default=None
        Strictly increasing numbers standing for the classes (checked when given).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights; zero-weight items are dropped.
    need_values : bool, default=True
        Whether class values are computed (and checked); measures that ignore
        distances pass False so that, e.g., numeric labels in a custom order work.
    need_order : bool, default=True
        Whether the measure depends on the class order; if so, string labels with
        no order given (``labels`` or an ordered Categorical) are a ValueError.
    measure : str, default=None
        The measure's name, for error messages.
    """
    if _any_dask(y_true, y_pred, sample_weight):
        # Each block is counted by this very function, on the workers.
        return _dask.dask_confusion(
            ordinal_confusion,
            y_true,
            y_pred,
            labels=labels,
            class_values=class_values,
            sample_weight=sample_weight,
            need_values=need_values,
            need_order=need_order,
            measure=measure,
        )
    namespace = namespace_of(y_true, y_pred, sample_weight)
    if namespace is not None:
        if not namespace.on_host:
            return _device_confusion(
                namespace, y_true, y_pred, labels, class_values, sample_weight, need_values,
                need_order, measure,
            )
        # A CPU device's arrays are the host's memory: NumPy counts them in place.
        y_true, y_pred, sample_weight = host_views(y_true, y_pred, sample_weight)
    counted = _counted_confusion(
        y_true, y_pred, labels, class_values, sample_weight, need_values, need_order
    )
    if counted is not None:
        return counted
    y_true, y_pred, sample_weight, exponent = _validate(y_true, y_pred, sample_weight)
    confusion = _confusion(
        y_true, y_pred, labels, class_values, sample_weight, need_values, need_order, measure
    )
    return confusion._replace(weight_exponent=exponent)


def _device_confusion(namespace, y_true, y_pred, labels, class_values, sample_weight,
                      need_values, need_order, measure, power=None):
    """:func:`ordinal_confusion` (or, with ``power``, :func:`confusion_or_errors`) of
    arrays on a device other than the host's.

    The items are checked and compressed on their device to their distinct
    ``(true, predicted)`` cells and the weight of each; those cells, at most K x K,
    cross to the host, where the NumPy path counts them as weighted items: its
    checks of the classes (``labels``, the order, unknown labels) and its messages
    hold as they are. The matrix then returns to the items' own weight units.
    """
    xp, device = namespace.xp, namespace.device
    y_true, y_pred, weights, exponent = checked_device_items(xp, y_true, y_pred, sample_weight)
    example, known = first_real_value(xp, device, y_true, y_pred, labels)
    if example is not None:
        if power is None:
            refuse_real_values(example, known, measure, labels)
        return _device_class_errors(xp, device, y_true, y_pred, weights, power, labels,
                                    class_values, measure)
    (true_cells, pred_cells), totals = compress(xp, [y_true, y_pred], weights)
    confusion = ordinal_confusion(
        true_cells, pred_cells, labels=labels, class_values=class_values,
        sample_weight=totals, need_values=need_values, need_order=need_order,
        measure=measure,
    )
    # The cells' totals were scaled once more (by their own largest): undone exactly.
    return confusion._replace(
        matrix=np.ldexp(confusion.matrix, confusion.weight_exponent),
        weight_exponent=exponent,
        weighted=sample_weight is not None,
    )


def _device_class_errors(xp, device, y_true, y_pred, weights, power, labels, class_values,
                         measure):
    """The :class:`ClassErrors` of a regressor's real values on another device: each
    item's error computed there, then summed per distinct true label (K sums cross)."""
    (true_values,), true_weights = compress(xp, [y_true], weights)
    classes, positions, _ = _classes_and_codes(
        host_labels(true_values), None, labels, True, measure
    )
    values = _class_values(classes, class_values, relative=False)
    largest_prediction = scalar(xp.max(xp.abs(y_pred)))
    exponent = _value_scale(np.r_[values, largest_prediction])
    at = xp.searchsorted(on_device(xp, device, true_values), y_true)
    true_value = xp.take(on_device(xp, device, np.ldexp(values[positions], -exponent)), at)
    errors = xp.abs(xp.astype(y_pred, xp.float64) * 2.0**-exponent - true_value) ** power
    if weights is not None:
        errors = errors * weights
    _, error_sums = compress(xp, [y_true], errors)
    n_classes = len(classes)
    return ClassErrors(
        classes,
        np.bincount(positions, weights=true_weights.astype(np.float64), minlength=n_classes),
        np.bincount(positions, weights=error_sums, minlength=n_classes),
        exponent * power,
    )


def _matrices_warning(template, n_affected=None, n_matrices=None, classes=None):
    """An UndefinedMetricWarning about some confusion matrices of a stack.

    A measure computed from a stack of matrices warns once per kind of problem,
    saying in how many matrices it arose, instead of once per matrix. The pieces
    stay on the warning, as ``parts``, so that
    :func:`~sklearn_ordinal.metaeval.score_systems`, which scores a stack in several
    parts, can merge the warnings of the parts into one. ``template`` holds
    ``{where}`` (and ``{classes}`` when ``classes`` is given); one matrix
    (``n_matrices=None``) keeps the message it always had.
    """
    where = "" if n_matrices is None else f" in {n_affected} of {n_matrices} confusion matrices"
    warning = UndefinedMetricWarning(template.format(where=where, classes=classes))
    warning.parts = (template, n_affected, n_matrices, classes)
    return warning


def _warn_for_matrices(affected, template, classes=None, class_mask=None):
    """One warning if ``affected`` (one bool per matrix, shape ``(...)``) holds anywhere.

    ``class_mask`` (shape ``(..., n)``) marks, per matrix, the classes (of
    ``classes``, shape ``(n,)``) the message names; a stack names those of any
    affected matrix. The warning points at the user's line.
    """
    if not np.any(affected):
        return
    if classes is not None:
        classes = np.asarray(classes)[np.any(class_mask[affected], axis=0)].tolist()
    if np.ndim(affected) == 0:
        warning = _matrices_warning(template, classes=classes)
    else:
        warning = _matrices_warning(
            template, int(np.count_nonzero(affected)), int(np.size(affected)), classes
        )
    warn_user(warning)


def _one_or_many(result):
    """A Python float for one matrix, the array of results for a stack."""
    return float(result) if np.ndim(result) == 0 else result
