"""Label input on another device than the host's, checked and compressed there.

Arrays of an Array API namespace on a device other than the CPU (see
:mod:`sklearn_ordinal._array_api`) are checked by the namespace's own reductions,
on their device: shape, dtype, NaN, infinity, the weights. A check that fails hands
a small NumPy witness of the problem (the offending value, the shape) to the very
NumPy check that NumPy input meets, so the message is the same. Valid items are
then compressed to their distinct cells, which the NumPy code counts as weighted
items (:mod:`sklearn_ordinal._confusion`, :mod:`sklearn_ordinal._score_table`).
"""

import numpy as np
from sklearn.utils import check_consistent_length

from ._array_api import compress, on_device, scalar, to_host
from ._validation import (
    _check_1d_labels,
    _check_labels,
    _check_sample_weight,
    _real_valued_message,
)


def _kind(xp, y):
    """``"b"``, ``"i"`` (any integer) or ``"f"`` (real floating), or None."""
    if y.dtype == xp.bool:
        return "b"
    if xp.isdtype(y.dtype, "integral"):
        return "i"
    if xp.isdtype(y.dtype, "real floating"):
        return "f"
    return None


def _witness(shape):
    """A NumPy array of ``shape`` holding no memory: the shape is what the message names."""
    return np.broadcast_to(np.float64(0), shape)


def check_device_labels(xp, y, name):
    """``y`` as a checked 1-D array of labels, on its device (the checks of
    :func:`~sklearn_ordinal._validation._check_1d_labels`)."""
    if y.ndim == 2 and y.shape[1] == 1:
        y = xp.reshape(y, (-1,))
    if y.ndim != 1 or y.shape[0] == 0:
        _check_1d_labels(_witness(y.shape), name)  # raises, naming the shape
    kind = _kind(xp, y)
    if kind is None:
        raise ValueError(
            f"{name} has unsupported dtype {y.dtype}; labels must be numbers or strings."
        )
    if kind == "f" and not scalar(xp.all(xp.isfinite(y))):
        witness = np.nan if scalar(xp.any(xp.isnan(y))) else np.inf
        _check_1d_labels(np.asarray([witness]), name)  # raises its message
    return y


def check_device_scores(xp, y_score, check_scores):
    """``y_score`` checked on its device by the checks of ``check_scores`` (the NumPy
    one, handed a witness of the problem)."""
    if y_score.ndim != 1:
        check_scores(_witness(y_score.shape))  # raises, naming the shape
    if _kind(xp, y_score) is None:
        raise ValueError(f"y_score must hold real numbers; got dtype {y_score.dtype}.")
    if _kind(xp, y_score) == "f" and not scalar(xp.all(xp.isfinite(y_score))):
        witness = np.nan if scalar(xp.any(xp.isnan(y_score))) else np.inf
        check_scores(np.asarray([witness]))
    return y_score


def check_device_weights(xp, sample_weight, n_samples):
    """``(weights, exponent)`` as :func:`~sklearn_ordinal._validation._check_sample_weight`
    gives them (over ``2 ** exponent``, largest in [1, 2)), computed on the device;
    ``(None, 0)`` without weights."""
    if sample_weight is None:
        return None, 0
    if sample_weight.ndim != 1 or sample_weight.shape[0] != n_samples:
        _check_sample_weight(_witness(sample_weight.shape), n_samples)
    if _kind(xp, sample_weight) is None:
        raise ValueError(f"sample_weight must be numeric; got dtype {sample_weight.dtype}.")
    weights = xp.astype(sample_weight, xp.float64)
    problem = None
    if not scalar(xp.all(xp.isfinite(weights))):
        problem = [np.nan]
    elif scalar(xp.any(weights < 0)):
        problem = [-1.0]
    largest = scalar(xp.max(weights)) if problem is None else 0.0
    if problem is None and largest == 0:
        problem = [0.0]
    if problem is not None:
        _check_sample_weight(np.asarray(problem), 1)  # raises its message
    exponent = int(np.frexp(largest)[1]) - 1
    scaled = weights * (2.0**-exponent)  # a power of two: exact
    if exponent > 0 and scalar(xp.any((weights > 0) & (scaled == 0))):
        smallest = scalar(xp.min(xp.where(weights > 0, weights, xp.full_like(weights, largest))))
        _check_sample_weight(np.asarray([smallest, largest]), 2)  # raises its message
    return scaled, exponent


def drop_zero_weight(xp, weights, *arrays):
    """The items of positive weight (a zero-weight item is a dropped item)."""
    if weights is None or scalar(xp.all(weights > 0)):
        return (weights, *arrays)
    kept = weights > 0
    return (weights[kept], *(y[kept] for y in arrays))


def checked_device_items(xp, y_true, y_pred, sample_weight):
    """``(y_true, y_pred, weights, exponent)`` checked on the device, the zero-weight
    items dropped (``y_pred`` may be None)."""
    y_true = check_device_labels(xp, y_true, "y_true")
    if y_pred is not None:
        y_pred = check_device_labels(xp, y_pred, "y_pred")
        check_consistent_length(_witness(y_true.shape), _witness(y_pred.shape))
    weights, exponent = check_device_weights(xp, sample_weight, y_true.shape[0])
    if y_pred is None:
        weights, y_true = drop_zero_weight(xp, weights, y_true)
    else:
        weights, y_true, y_pred = drop_zero_weight(xp, weights, y_true, y_pred)
    return y_true, y_pred, weights, exponent


def first_real_value(xp, device, y_true, y_pred, labels):
    """``(example, known)``: a prediction that is fractional and no known class (a
    regressor's real value), or None; ``known`` the known classes on the host
    (``labels``, else the distinct true labels)."""
    if _kind(xp, y_pred) != "f":
        return None, None
    fractional = y_pred[y_pred != xp.floor(y_pred)]
    if fractional.shape[0] == 0:
        return None, None
    if labels is not None:
        known = _check_labels(labels)
    else:
        known = compress(xp, [y_true])[0][0]
    if known.dtype.kind not in "biuf":
        return scalar(fractional[0]), known
    known_sorted = np.sort(known.astype(np.float64))
    on_grid = on_device(xp, device, known_sorted)
    at = xp.searchsorted(on_grid, xp.astype(fractional, xp.float64))
    at = xp.clip(at, 0, len(known_sorted) - 1) if len(known_sorted) else at
    unknown = xp.take(on_grid, at) != xp.astype(fractional, xp.float64)
    if not scalar(xp.any(unknown)):
        return None, known
    return scalar(fractional[unknown][0]), known


def refuse_real_values(example, known, measure, labels):
    """The ValueError of real-valued predictions where classes are needed."""
    raise ValueError(_real_valued_message(np.asarray([example]), measure, known, labels))


def host_labels(values):
    """Distinct labels that crossed to the host, through the NumPy checks."""
    return _check_1d_labels(values, "y_true")

