"""Ordered labels: validation, class codes, class values and the confusion matrix.

Every label-based measure of the package is a function of the weighted confusion
matrix ``M`` (rows = true class, columns = predicted class, in class order) and of
the class values ``v``. This module is the single place where user input is checked
and turned into that intermediate, following ``SPEC.md`` section 1:

- the class order is ``labels`` as given; else the categories of an ordered pandas
  ``Categorical`` ``y_true``; else the sorted unique labels of ``y_true`` and
  ``y_pred`` together;
- the class values are ``class_values`` when given; else the labels themselves when
  they are numbers; else the positions ``0..K-1``.

Small non-negative integer labels, the common case, are counted with one
``np.bincount`` pass and never sorted.
"""

from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.utils import check_consistent_length

# Integer labels whose span is at most this many values are counted directly with
# ``np.bincount`` on a (span x span) grid; larger spans fall back to ``np.unique``.
_MAX_DIRECT_SPAN = 4096


class OrdinalConfusion(NamedTuple):
    """The one intermediate of every label-based measure."""

    classes: np.ndarray
    """The K class labels, in class order."""
    values: np.ndarray
    """The K class values (floats), used by distance measures."""
    matrix: np.ndarray
    """``matrix[i, j]``: weight of items of true class i predicted as class j."""

    @property
    def class_weights(self):
        """``n_k``, the weight of the items whose true class is ``c_k``."""
        return self.matrix.sum(axis=1)


def _is_ordered_categorical(y):
    dtype = getattr(y, "dtype", None)
    return isinstance(dtype, pd.CategoricalDtype) and bool(dtype.ordered)


def _label_kind(y, name):
    """Return ``"number"`` or ``"string"`` for a 1-D array of labels, else raise."""
    kind = y.dtype.kind
    if kind in "biuf":
        return "number"
    if kind in "US":
        return "string"
    inferred = pd.api.types.infer_dtype(y, skipna=False)
    if inferred in ("string", "bytes"):
        return "string"
    if inferred in ("integer", "floating", "mixed-integer-float", "decimal", "boolean"):
        return "number"
    raise ValueError(
        f"{name} mixes label types ({inferred!r}): labels must be all numbers or "
        "all strings. Mix of string and number labels is not supported."
    )


def _check_1d_labels(y, name):
    """Validate one target array and return it as a 1-D NumPy array.

    Ordered categoricals are returned untouched (their codes are used later).
    """
    if _is_ordered_categorical(y):
        codes = np.asarray(y.cat.codes if isinstance(y, pd.Series) else y.codes)
        if codes.size == 0:
            raise ValueError(f"{name} is empty: at least one label is needed.")
        if (codes < 0).any():
            raise ValueError(f"{name} contains missing values (NaN); every item needs a label.")
        return y
    # np.asarray(["a", 1]) silently turns numbers into strings: keep lists as objects
    # so that the checks below see the labels as given.
    y = np.asarray(y, dtype=object) if isinstance(y, (list, tuple)) else np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1:
        raise ValueError(
            f"{name} must be a 1-D array of labels; got shape {y.shape}. "
            "Multi-output targets are not supported."
        )
    if y.size == 0:
        raise ValueError(f"{name} is empty: at least one label is needed.")
    from_objects = y.dtype.kind == "O"
    if from_objects:
        if pd.isna(y).any():
            raise ValueError(f"{name} contains missing values (NaN or None); every item needs a label.")
        kind = _label_kind(y, name)
        # Object arrays of numbers become numeric arrays so that they compare as numbers.
        if kind == "number":
            y = y.astype(np.float64)
        elif all(isinstance(label, str) for label in y):
            y = y.astype(str)
    if y.dtype.kind == "f":
        if np.isnan(y).any():
            raise ValueError(f"{name} contains NaN; every item needs a finite label.")
        if np.isinf(y).any():
            raise ValueError(f"{name} contains infinity; every item needs a finite label.")
        if from_objects and np.all(y == np.round(y)):
            y = y.astype(np.int64)  # [1, 2, 3] as a list means integer labels
    elif y.dtype.kind not in "biuUSO":
        raise ValueError(f"{name} has unsupported dtype {y.dtype}; labels must be numbers or strings.")
    return y


def _check_sample_weight(sample_weight, n_samples):
    """Return ``sample_weight`` as a float array (or None), rejecting bad weights."""
    if sample_weight is None:
        return None
    sample_weight = np.asarray(sample_weight)
    if sample_weight.ndim != 1:
        raise ValueError(f"sample_weight must be 1-D; got shape {sample_weight.shape}.")
    if sample_weight.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {sample_weight.shape[0]} values but there are {n_samples} items."
        )
    if sample_weight.dtype.kind not in "biuf":
        raise ValueError(f"sample_weight must be numeric; got dtype {sample_weight.dtype}.")
    sample_weight = sample_weight.astype(np.float64, copy=False)
    if not np.isfinite(sample_weight).all():
        raise ValueError("sample_weight contains NaN or infinity; weights must be finite.")
    if (sample_weight < 0).any():
        raise ValueError("sample_weight contains negative values; weights must be non-negative.")
    if not sample_weight.any():
        raise ValueError("sample_weight is zero everywhere; at least one item must have positive weight.")
    return sample_weight


def _check_labels(labels):
    """Validate user-given ``labels`` and return them as a 1-D array."""
    labels = _check_1d_labels(labels, "labels")
    if _is_ordered_categorical(labels):
        labels = np.asarray(labels)
    if len(pd.unique(labels)) != len(labels):
        values, counts = np.unique(labels, return_counts=True)
        raise ValueError(f"labels contains duplicates: {values[counts > 1].tolist()}.")
    return labels


def _raise_unknown(y, codes, name, classes):
    unknown = np.unique(y[codes < 0])
    shown = unknown[:10].tolist()
    more = "" if len(unknown) <= 10 else f" and {len(unknown) - 10} more"
    raise ValueError(
        f"{name} contains labels not in labels={classes.tolist()}: {shown}{more}."
    )


def _encode(y, classes, name):
    """Codes of ``y`` in ``classes`` (any order), or a ValueError naming unknown labels."""
    if y.dtype.kind in "iu" and classes.dtype.kind in "iu" and len(classes):
        lo = min(int(classes.min()), int(y.min()))
        hi = max(int(classes.max()), int(y.max()))
        if hi - lo < _MAX_DIRECT_SPAN:
            # A lookup table: one gather instead of a binary search per item.
            table = np.full(hi - lo + 1, -1, dtype=np.intp)
            table[classes - lo] = np.arange(len(classes))
            codes = table[y - lo] if lo else table[y]
            if (codes < 0).any():
                _raise_unknown(y, codes, name, classes)
            return codes
    sorter = np.argsort(classes, kind="stable")
    sorted_classes = classes[sorter]
    pos = np.searchsorted(sorted_classes, y)
    pos = np.minimum(pos, len(classes) - 1)
    codes = sorter[pos]
    codes[sorted_classes[pos] != y] = -1
    if (codes < 0).any():
        _raise_unknown(y, codes, name, classes)
    return codes


def _categorical_codes(y_true, y_pred):
    """Classes and codes when ``y_true`` is an ordered categorical: its order wins."""
    categories = y_true.dtype.categories
    true_codes = np.asarray(
        y_true.cat.codes if isinstance(y_true, pd.Series) else y_true.codes, dtype=np.intp
    )
    classes = np.asarray(categories)
    if y_pred is None:
        return classes, true_codes, None
    if _is_ordered_categorical(y_pred) and y_pred.dtype.categories.equals(categories):
        pred_codes = np.asarray(
            y_pred.cat.codes if isinstance(y_pred, pd.Series) else y_pred.codes, dtype=np.intp
        )
        return classes, true_codes, pred_codes
    y_pred = np.asarray(y_pred)
    pred_codes = categories.get_indexer(y_pred)
    if (pred_codes < 0).any():
        _raise_unknown(y_pred, pred_codes, "y_pred", classes)
    return classes, np.asarray(true_codes, dtype=np.intp), pred_codes


def _direct_integer_confusion(y_true, y_pred, sample_weight):
    """Confusion matrix of small non-negative integer labels by one bincount.

    Returns ``(classes, matrix)``, or ``None`` when a label is negative or the labels
    span too many values (the caller then sorts).
    """
    # One OR-reduction per array finds both a negative label (the sign bit) and an
    # upper bound on the largest label, for half the passes of min() and max().
    bits = int(np.bitwise_or.reduce(y_true)) | int(np.bitwise_or.reduce(y_pred))
    if bits < 0:
        return None
    span = bits + 1
    if span * span > max(_MAX_DIRECT_SPAN, 4 * y_true.size):
        return None
    index = np.multiply(y_true, span, dtype=np.intp, casting="unsafe")
    np.add(index, y_pred, out=index, casting="unsafe")
    counts = np.bincount(index, minlength=span * span).reshape(span, span)
    if sample_weight is None:
        weighted = counts.astype(np.float64)
    else:
        weighted = np.bincount(index, weights=sample_weight, minlength=span * span)
        weighted = weighted.reshape(span, span)
    present = np.flatnonzero(counts.any(axis=0) | counts.any(axis=1))
    classes = present.astype(np.result_type(y_true.dtype, y_pred.dtype))
    return classes, weighted[np.ix_(present, present)]


def _confusion_from_codes(true_codes, pred_codes, n_classes, sample_weight):
    index = true_codes * n_classes + pred_codes
    matrix = np.bincount(index, weights=sample_weight, minlength=n_classes * n_classes)
    return matrix.astype(np.float64, copy=False).reshape(n_classes, n_classes)


def _class_values(classes, class_values):
    """Class values per SPEC 1: ``class_values``, else numeric labels, else positions."""
    n_classes = len(classes)
    if class_values is not None:
        values = np.asarray(class_values, dtype=np.float64) if np.ndim(class_values) else None
        if values is None or values.ndim != 1 or values.shape[0] != n_classes:
            raise ValueError(
                f"class_values must hold one number per class ({n_classes} classes: "
                f"{classes.tolist()}); got {np.shape(class_values)}."
            )
        if not np.isfinite(values).all():
            raise ValueError("class_values must be finite.")
        if np.any(np.diff(values) <= 0):
            raise ValueError(
                f"class_values must be strictly increasing in class order; got {values.tolist()}."
            )
        return values
    if classes.dtype.kind in "biuf":
        values = classes.astype(np.float64)
        if np.any(np.diff(values) <= 0):
            raise ValueError(
                f"numeric labels {classes.tolist()} are not in increasing order, so they "
                "cannot serve as class values; pass class_values explicitly."
            )
        return values
    return np.arange(n_classes, dtype=np.float64)


def _ordinal_classes_and_codes(y_true, y_pred, labels):
    """Return ``(classes, true_codes, pred_codes)``; ``y_pred`` may be None.

    Without ``labels``, the classes of a label-only call (``y_pred is None``) come
    from ``y_true`` alone, as SPEC 1 says for score-based measures.
    """
    if labels is not None:
        classes = _check_labels(labels)
        arrays = [y for y in (y_true, y_pred) if y is not None]
        arrays = [np.asarray(y) if _is_ordered_categorical(y) else y for y in arrays]
        kind = _label_kind(classes, "labels")
        for y, name in zip(arrays, ("y_true", "y_pred")):
            if _label_kind(y, name) != kind:
                raise ValueError(
                    f"{name} holds {_label_kind(y, name)} labels but labels holds {kind} labels."
                )
        codes = [_encode(y, classes, name) for y, name in zip(arrays, ("y_true", "y_pred"))]
        return classes, codes[0], codes[1] if len(codes) > 1 else None
    if _is_ordered_categorical(y_true):
        return _categorical_codes(y_true, y_pred)
    if y_pred is None:
        if y_true.dtype.kind in "iu":
            lo, hi = int(y_true.min()), int(y_true.max())
            if hi - lo < _MAX_DIRECT_SPAN:
                # Small integer labels, the common case: present classes by one
                # bincount and codes by a lookup table, never sorting the items.
                present = np.flatnonzero(np.bincount(y_true - lo) if lo else np.bincount(y_true))
                classes = (present + lo).astype(y_true.dtype)
                return classes, _encode(y_true, classes, "y_true"), None
        classes, true_codes = np.unique(y_true, return_inverse=True)
        return classes, true_codes, None
    if _is_ordered_categorical(y_pred):
        y_pred = np.asarray(y_pred)
    kind_true, kind_pred = _label_kind(y_true, "y_true"), _label_kind(y_pred, "y_pred")
    if kind_true != kind_pred:
        raise ValueError(
            f"y_true holds {kind_true} labels but y_pred holds {kind_pred} labels; "
            "Mix of string and number labels is not supported."
        )
    both = np.concatenate([y_true, y_pred])
    classes, codes = np.unique(both, return_inverse=True)
    n = len(y_true)
    return classes, codes[:n], codes[n:]


def check_ordinal_targets(y_true, y_pred=None, *, labels=None, sample_weight=None):
    """Validate targets and return ``(classes, true_codes, pred_codes, sample_weight)``.

    This is for measures that need the items themselves (ranking measures, the
    trivial classifier); label-based measures use :func:`ordinal_confusion` instead.
    """
    y_true = _check_1d_labels(y_true, "y_true")
    if y_pred is not None:
        y_pred = _check_1d_labels(y_pred, "y_pred")
        check_consistent_length(y_true, y_pred)
    sample_weight = _check_sample_weight(sample_weight, len(y_true))
    classes, true_codes, pred_codes = _ordinal_classes_and_codes(y_true, y_pred, labels)
    return classes, true_codes, pred_codes, sample_weight


def ordinal_confusion(
    y_true, y_pred, *, labels=None, class_values=None, sample_weight=None, need_values=True
):
    """Validate inputs once and return the :class:`OrdinalConfusion` of the data.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes in order.
    class_values : array-like of shape (n_classes,), default=None
        Strictly increasing numbers standing for the classes.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.
    need_values : bool, default=True
        Whether class values are computed (and checked); measures that ignore
        distances pass False so that, e.g., numeric labels in a custom order work.
    """
    y_true = _check_1d_labels(y_true, "y_true")
    y_pred = _check_1d_labels(y_pred, "y_pred")
    check_consistent_length(y_true, y_pred)
    sample_weight = _check_sample_weight(sample_weight, len(y_true))

    direct = None
    if (
        labels is None
        and isinstance(y_true, np.ndarray)
        and isinstance(y_pred, np.ndarray)
        and y_true.dtype.kind in "iu"
        and y_pred.dtype.kind in "iu"
    ):
        direct = _direct_integer_confusion(y_true, y_pred, sample_weight)
    if direct is not None:
        classes, matrix = direct
    else:
        classes, true_codes, pred_codes = _ordinal_classes_and_codes(y_true, y_pred, labels)
        matrix = _confusion_from_codes(true_codes, pred_codes, len(classes), sample_weight)
    if need_values:
        values = _class_values(classes, class_values)
    else:
        values = np.arange(len(classes), dtype=np.float64)
    return OrdinalConfusion(classes, values, matrix)


def ordered_classes(y, labels=None):
    """The ordered class set of one target array (for estimators' ``classes_``)."""
    classes, codes, _, _ = check_ordinal_targets(y, labels=labels)
    return classes, codes
