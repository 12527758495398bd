"""Ordered labels: validation, class codes, class values and the confusion matrix.

Every label-based measure of the package is a function of the weighted confusion
matrix ``M`` (rows = true class, columns = predicted class, in class order) and of
the class values ``v``. This module is the single place where user input is checked
and turned into that intermediate, following ``SPEC.md`` section 1:

- the class order is ``labels`` as given; else the categories of an ordered pandas
  ``Categorical`` ``y_true``; else, for numbers, their numeric order. Strings have no
  order of their own: a measure that depends on the order refuses them unless the
  order is given (sorting ``["low", "mid", "high"]`` would silently be wrong), and an
  order-free measure uses them as a mere set;
- the class values are ``class_values`` when given; else the labels themselves when
  they are numbers; else the positions ``0..K-1``;
- integer labels keep their identity in every NumPy integer dtype (never through
  float64); Python ints must fit in int64;
- a zero-weight item is a dropped item, and weights are divided by their largest
  value, so that scaling every weight by a constant changes nothing (no overflow or
  underflow for weights anywhere in [1e-300, 1e300]);
- real-valued predictions (a regressor's output) are not classes: only the distance
  measures accept them, through :func:`real_valued_errors`.

Valid input is counted block by block (:func:`_fast_confusion`), each kind on the
integers it stands for: integer labels (and integer-valued floats) on the grid of
their values, ordered Categoricals on their codes, strings by hashing (objects) or
a search among the K classes (NumPy strings); one ``np.bincount`` per block, never
a sort of the items, and no temporary larger than a block. Invalid input falls back
to the checks of :func:`_validate`, whose messages name the problem.
"""

from functools import partial
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.utils import check_consistent_length

# Integer labels whose span is at most this many values are counted directly with
# ``np.bincount`` on a (span x span) grid; larger spans fall back to ``np.unique``.
_MAX_DIRECT_SPAN = 4096

# Items per block of the counting passes (see _count): temporaries hold a block
# (1 MB of intp at most), so memory does not grow with n.
# Measured at 1e6 and 1e7 labels: 2**17 is near the best for int8 (fewer calls
# per item than 2**16) and for int64 labels (whose blocks fall out of cache at 2**19).
_BLOCK = 2**17

# Cells of the largest grid of integer values counted directly (span ** 2, see
# _grid_confusion): 8 MB of counts, spans of up to 1024 values.
_MAX_GRID = 2**20

_INT64 = np.iinfo(np.int64)


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

    @property
    def class_weights(self):
        """``n_k``, the weight of the items whose true class is ``c_k`` (scaled as
        :attr:`matrix`)."""
        return self.matrix.sum(axis=-1)  # also for a stack of matrices

    @property
    def weights(self):
        """The confusion matrix in the weights' own units, as
        :func:`~sklearn_ordinal.metrics.ordinal_confusion_matrix` returns it."""
        return np.ldexp(self.matrix, self.weight_exponent)

    @classmethod
    def from_predictions(cls, y_true, y_pred, *, labels=None, class_values=None,
                         sample_weight=None):
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
        return self._replace(matrix=first + second, weight_exponent=exponent)

    def __radd__(self, other):
        # sum(chunks) starts from 0.
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented

    def score(self, measure, **kwargs):
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
        score : float
            ``measure(y_true, y_pred, ...)`` on the data of the matrix.

        Examples
        --------
        >>> from sklearn_ordinal.metrics import OrdinalConfusion, cem_score
        >>> chunks = [([1, 2], [1, 3]), ([3, 3], [3, 2])]
        >>> total = sum(OrdinalConfusion.from_predictions(t, p, labels=[1, 2, 3])
        ...             for t, p in chunks)
        >>> round(total.score(cem_score), 4) == round(cem_score([1, 2, 3, 3], [1, 3, 3, 2]), 4)
        True
        """
        from .metrics._confusion_matrix import _measure_from_confusion

        from_confusion = _measure_from_confusion(measure)
        if from_confusion is None:
            raise ValueError(
                f"{getattr(measure, '__name__', measure)!r} is not a label measure of "
                "sklearn_ordinal.metrics, so it cannot be computed from a confusion "
                "matrix; ranking measures are computed from a ScoreTable."
            )
        return float(from_confusion(self, **kwargs))


def _unwrap_measure(measure):
    """``(function, keywords)`` of a measure given as a ``functools.partial`` chain."""
    keywords = {}
    while isinstance(measure, partial):
        keywords = {**measure.keywords, **keywords}
        measure = measure.func
    return measure, keywords


def _check_same_classes(first, second, what):
    """Chunks add up only over one class set, fixed up front (SPEC 1: never guessed)."""
    if first.classes.dtype.kind != second.classes.dtype.kind or not np.array_equal(
        first.classes, second.classes
    ):
        raise ValueError(
            f"Cannot add {what}s of different classes ({first.classes.tolist()} and "
            f"{second.classes.tolist()}): give the full class list with labels=[...] "
            "(lowest class first) for every chunk."
        )


def _common_scale(first, second, field):
    """``(exponent, arrays)``: the two arrays ``field`` over ``2 ** exponent``.

    Each was divided by its own power of two (:func:`_check_sample_weight`); scaling
    by a power of two is exact, so the larger exponent serves both.
    """
    exponent = max(first.weight_exponent, second.weight_exponent)
    return exponent, [
        _rescaled(getattr(one, field), one.weight_exponent, exponent) for one in (first, second)
    ]


def _rescaled(weights, exponent, common_exponent):
    """Weights divided by ``2 ** exponent``, divided by ``2 ** common_exponent``
    instead (the larger: nothing overflows). A ValueError when a positive weight
    would count as zero there, as for one array (:func:`_check_sample_weight`)."""
    if exponent == common_exponent:
        return weights
    scaled = np.ldexp(weights, exponent - common_exponent)
    if np.count_nonzero(scaled) != np.count_nonzero(weights):
        raise ValueError(
            "The chunks' sample weights span more than float64 can hold at once: a "
            "positive weight of one chunk would count as zero next to the largest weight "
            "of another. Give those items weight 0 to drop them, or raise their weights."
        )
    return scaled


def _order_needed_message(name, measure):
    who = f"{measure} depends" if measure else "this measure depends"
    return (
        f"{name} holds string labels, whose order cannot be guessed (sorting them "
        f"alphabetically would put 'high' before 'low'), and {who} on the order of "
        "the classes. Give the order with labels=[...] (lowest class first), or pass an "
        "ordered pandas Categorical (pd.Categorical(y, categories=[...], ordered=True))."
    )


# --- One target array ---------------------------------------------------------------


def _ordered_categorical(y):
    """``y`` as an ordered ``pd.Categorical`` if it is one, else None.

    A Categorical, a Series or Index of one, and a one-column DataFrame holding one
    all count: their order must not be lost on the way to NumPy.
    """
    if isinstance(y, pd.DataFrame) and y.shape[1] == 1:
        y = y.iloc[:, 0]
    dtype = getattr(y, "dtype", None)
    if not (isinstance(dtype, pd.CategoricalDtype) and dtype.ordered):
        return None
    if isinstance(y, pd.Categorical):
        return y
    return pd.Categorical(y)


def _is_ordered_categorical(y):
    return _ordered_categorical(y) is not None


def _from_python_objects(y, name):
    """An object array of labels as numbers or strings, keeping integers exact."""
    if pd.isna(y).any():
        raise ValueError(f"{name} contains missing values (NaN or None); every item needs a label.")
    inferred = pd.api.types.infer_dtype(y, skipna=False)
    if inferred == "integer":
        try:
            # Through Python ints, never float64: 2**62 and 2**62 + 1 stay apart.
            return np.array(y.tolist(), dtype=np.int64)
        except OverflowError:
            raise ValueError(
                f"{name} holds integers outside the int64 range [{_INT64.min}, {_INT64.max}]; "
                "labels must fit in int64 (or use a NumPy integer array)."
            ) from None
    if inferred in ("floating", "mixed-integer-float", "decimal"):
        values = y.astype(np.float64)
        # [1, 2.0, 3] as a list means integer labels, unless they are too large to be
        # exact in float64.
        if np.all(values == np.round(values)) and np.all(np.abs(values) < 2.0**53):
            return values.astype(np.int64)
        return values
    if inferred == "boolean":
        return y.astype(bool)
    if inferred == "string":
        return y.astype(str)
    if inferred == "bytes":
        return y.astype(bytes)
    raise ValueError(
        f"{name} mixes label types ({inferred!r}): labels must be all numbers or all "
        "strings. Mix of string and number labels is not supported."
    )


def _check_1d_labels(y, name):
    """Validate one target array: an ordered ``pd.Categorical`` or a 1-D NumPy array."""
    categorical = _ordered_categorical(y)
    if categorical is not None:
        if len(categorical) == 0:
            raise ValueError(f"{name} is empty: at least one label is needed.")
        if (categorical.codes < 0).any():
            raise ValueError(f"{name} contains missing values (NaN); every item needs a label.")
        return categorical
    if isinstance(y, pd.DataFrame) and y.shape[1] == 1:
        y = y.iloc[:, 0]
    # np.asarray(["a", 1]) silently turns numbers into strings and [2**64 - 1, -1]
    # into floats: lists are read as Python objects and typed below.
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
    if y.dtype.kind == "O":
        y = _from_python_objects(y, name)
    if y.dtype.kind == "f":
        if np.isnan(y).any():
            raise ValueError(f"{name} contains NaN; every item needs a finite label.")
        if np.isinf(y).any():
            raise ValueError(f"{name} contains infinity; every item needs a finite label.")
    elif y.dtype.kind not in "biuUS":
        raise ValueError(
            f"{name} has unsupported dtype {y.dtype}; labels must be numbers or strings."
        )
    return y


def _categories(categorical):
    """The categories of a ``pd.Categorical`` as a typed NumPy array (strings as str)."""
    return _check_1d_labels(np.asarray(categorical.categories), "the categories")


def _label_kind(y):
    """``"number"``, ``"string"`` or ``"bytes"``: kinds that never compare with each other."""
    if isinstance(y, pd.Categorical):
        y = _categories(y)
    return {"U": "string", "S": "bytes"}.get(y.dtype.kind, "number")


def _check_sample_weight(sample_weight, n_samples):
    """``(weights, exponent)``: ``sample_weight`` as floats divided by ``2 ** exponent``.

    Only the ratios of the weights matter, so every measure works on weights whose
    largest is in [1, 2): sums and products of weights then stay away from overflow
    (1e300) and underflow (1e-300). A power of two divides exactly, so
    :func:`ordinal_confusion_matrix` can give back the weights' own sums.
    ``(None, 0)`` without weights.
    """
    if sample_weight is None:
        return None, 0
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
    largest = sample_weight.max()
    if largest == 0:
        raise ValueError(
            "sample_weight is zero everywhere; at least one item must have positive weight."
        )
    exponent = int(np.frexp(largest)[1]) - 1
    # The blocks' own scaling, over the whole array: one rule for both paths.
    scaled = _scaled_block_weights(sample_weight, 0, n_samples, exponent)
    if scaled is None:
        smallest = sample_weight[sample_weight > 0].min()
        raise ValueError(
            f"sample_weight spans more than float64 can hold at once: its smallest "
            f"positive weight ({smallest:g}) is too small next to its largest "
            f"({largest:g}) and would count as zero. Give those items weight 0 to drop "
            "them, or raise their weights."
        )
    return scaled, exponent


def _scaled_block_weights(sample_weight, start, stop, exponent):
    """Items ``start:stop`` of ``sample_weight`` over ``2 ** exponent``, as
    :func:`_check_sample_weight` gives them; None when a positive weight would
    underflow to zero (that function then names the problem)."""
    weights = sample_weight[start:stop].astype(np.float64, copy=False)
    if not exponent:
        return weights
    scaled = np.ldexp(weights, -exponent)
    if exponent > 0 and np.count_nonzero(scaled) != np.count_nonzero(weights):
        return None
    return scaled


def _check_labels(labels):
    """Validate user-given ``labels`` and return them as a 1-D array."""
    labels = _check_1d_labels(labels, "labels")
    if isinstance(labels, pd.Categorical):
        labels = np.asarray(labels)
    if labels.dtype.kind in "iuf" and _is_strictly_increasing(labels):
        return labels  # increasing numbers, the usual labels=, repeat none: no hashing
    if len(pd.unique(labels)) != len(labels):
        values, counts = np.unique(labels, return_counts=True)
        raise ValueError(f"labels contains duplicates: {values[counts > 1].tolist()}.")
    return labels


def _check_class_values(class_values, classes):
    n_classes = len(classes)
    values = np.asarray(class_values) if np.ndim(class_values) else None
    if values is None or values.ndim != 1 or values.shape[0] != n_classes:
        raise ValueError(
            f"class_values must hold one number per class ({n_classes} classes: "
            f"{classes.tolist()}); got {np.shape(class_values)}."
        )
    if values.dtype.kind not in "biuf":
        raise ValueError(
            f"class_values must be real numbers, one per class; got dtype {values.dtype}."
        )
    values = values.astype(np.float64)
    if not np.isfinite(values).all():
        raise ValueError("class_values must be finite.")
    if np.any(np.diff(values) <= 0):
        raise ValueError(
            f"class_values must be strictly increasing in class order; got {values.tolist()}."
        )
    return values


def _class_values(classes, class_values, relative=True):
    """Class values per SPEC 1: ``class_values``, else numeric labels, else positions.

    Numeric labels serve as values measured from the lowest class when ``relative``
    (every measure that uses values depends only on their differences), computed in
    exact integer arithmetic, so that labels near 2**63 keep their distances.
    """
    if class_values is not None:
        return _check_class_values(class_values, classes)
    if classes.dtype.kind not in "biuf":
        return np.arange(len(classes), dtype=np.float64)
    if not _is_strictly_increasing(classes):
        raise ValueError(
            f"numeric labels {classes.tolist()} are not in increasing order, so they "
            "cannot serve as class values; pass class_values explicitly."
        )
    if relative and classes.dtype.kind in "iu":
        # Differences of sorted integers fit the unsigned dtype of the same size.
        unsigned = classes.astype(classes.dtype.str.replace("i", "u"))
        values = (unsigned - unsigned[0]).astype(np.float64)
    else:
        values = classes.astype(np.float64)
    if not _is_strictly_increasing(values):
        raise ValueError(
            f"numeric labels {classes.tolist()} are too close for their size to be told "
            "apart in float64, so they cannot serve as class values; pass class_values "
            "explicitly."
        )
    return values


def _is_strictly_increasing(values):
    return bool(np.all(values[1:] > values[:-1]))


# --- Several target arrays: one class set ------------------------------------------


def _common_integer_type(arrays):
    """Cast integer arrays to one integer dtype that holds every label exactly.

    NumPy's own promotion of int64 with uint64 is float64, which merges large labels;
    here the labels stay integers, or a ValueError says they cannot.
    """
    dtype = np.result_type(*arrays)
    if dtype.kind in "iu":
        return [y.astype(dtype, copy=False) for y in arrays]
    # Only uint64 together with a signed dtype gets here.
    fits_int64 = all(y.dtype.kind == "i" or int(y.max()) <= _INT64.max for y in arrays)
    if fits_int64:
        return [y.astype(np.int64, copy=False) for y in arrays]
    if all(y.dtype.kind == "u" or int(y.min()) >= 0 for y in arrays):
        return [y.astype(np.uint64, copy=False) for y in arrays]
    raise ValueError(
        "The labels hold both negative integers and integers above 2**63 - 1, which no "
        "integer dtype holds together; relabel the classes."
    )


def _raise_unknown(y, codes, name, classes):
    unknown = np.unique(y[codes < 0])
    shown = unknown[:10].tolist()
    more = "" if len(unknown) <= 10 else f" and {len(unknown) - 10} more"
    raise ValueError(
        f"{name} contains labels not in labels={classes.tolist()}: {shown}{more}."
    )


def _offsets(y, lo):
    """``y - lo`` as intp indices, computed where no integer dtype can wrap."""
    if lo == 0 and np.can_cast(y.dtype, np.intp):
        return y  # already indices: no pass over the items
    if lo >= 0:
        return (y - y.dtype.type(lo)).astype(np.intp, copy=False)
    # lo < 0: y is signed, or unsigned and small (the span is small).
    return y.astype(np.intp) - lo


def _encode(y, classes, name):
    """Codes of ``y`` in ``classes`` (any order), or a ValueError naming unknown labels."""
    if isinstance(y, pd.Categorical):
        # Map the few categories to classes, then gather by the items' category codes.
        category_of_class = y.categories.get_indexer(classes)
        found = category_of_class >= 0
        table = np.full(len(y.categories), -1, dtype=np.intp)
        table[category_of_class[found]] = np.flatnonzero(found)
        codes = table[y.codes]
        if (codes < 0).any():
            _raise_unknown(np.asarray(y), codes, name, classes)
        return codes
    if y.dtype.kind in "iu" and classes.dtype.kind in "iu":
        lo = min(int(classes.min()), int(y.min()))
        hi = max(int(classes.max()), int(y.max()))
        if hi - lo < _MAX_DIRECT_SPAN:
            # A lookup table: one gather instead of a binary search per item, block
            # by block, so that no temporary holds n items.
            table = np.full(hi - lo + 1, -1, dtype=np.intp)
            table[[label - lo for label in classes.tolist()]] = np.arange(len(classes))
            codes = np.empty(len(y), dtype=np.intp)
            offsets = _buffer(len(y), 0)
            # Modulo 2**64, as in _grid_confusion: the offsets are small and exact.
            shift = _wrap_intp(lo)
            for start, stop in _blocks(len(y)):
                offset = y[start:stop]
                if shift or y.dtype != np.intp:  # else the labels are the offsets
                    offset = offsets[: stop - start]
                    np.subtract(y[start:stop], shift, out=offset, dtype=np.intp,
                                casting="unsafe")
                # Every offset is in the table (lo and hi bound y): "clip" only
                # spares the buffered copy of mode="raise".
                np.take(table, offset, out=codes[start:stop], mode="clip")
            if codes.min() < 0:
                _raise_unknown(y, codes, name, classes)
            return codes
        y, classes = _common_integer_type([y, classes])
    sorter = np.argsort(classes, kind="stable")
    sorted_classes = classes[sorter]
    pos = np.searchsorted(sorted_classes, y)
    pos = np.minimum(pos, len(classes) - 1)
    codes = sorter[pos]
    codes[sorted_classes[pos] != y] = -1
    if (codes < 0).any():
        _raise_unknown(y, codes, name, classes)
    return codes


def _check_same_kind(arrays, names, reference_kind, reference_name):
    for y, name in zip(arrays, names):
        kind = _label_kind(y)
        if kind != reference_kind:
            raise ValueError(
                f"{name} holds {kind} labels but {reference_name} holds {reference_kind} "
                "labels; labels of different kinds never match (convert bytes with "
                ".astype(str), numbers with int(...)). Mix of string and number labels is "
                "not supported."
            )


def _classes_from_categorical(y_true, y_pred):
    """Classes and codes when ``y_true`` is an ordered categorical: its order wins."""
    classes = _categories(y_true)
    true_codes = y_true.codes.astype(np.intp)
    if y_pred is None:
        return classes, true_codes, None
    if isinstance(y_pred, pd.Categorical) and y_pred.categories.equals(y_true.categories):
        return classes, true_codes, y_pred.codes.astype(np.intp)
    if isinstance(y_pred, pd.Categorical):
        y_pred = np.asarray(y_pred)
    _check_same_kind([y_pred], ["y_pred"], _label_kind(classes), "y_true")
    pred_codes = y_true.categories.get_indexer(y_pred)
    if (pred_codes < 0).any():
        _raise_unknown(y_pred, pred_codes, "y_pred", classes)
    return classes, true_codes, pred_codes.astype(np.intp)


def _unique_classes(arrays, need_order, measure):
    """Sorted unique labels of the arrays, with codes; strings only as a mere set."""
    arrays = [np.asarray(y) if isinstance(y, pd.Categorical) else y for y in arrays]
    names = ["y_true", "y_pred"][: len(arrays)]
    kind = _label_kind(arrays[0])
    _check_same_kind(arrays[1:], names[1:], kind, "y_true")
    if kind != "number" and need_order:
        raise ValueError(_order_needed_message("y_true", measure))
    if all(y.dtype.kind in "iu" for y in arrays):
        arrays = _common_integer_type(arrays)
        if len(arrays) == 1:
            y = arrays[0]
            # Non-negative labels (the common case) are bounded by one pass, as
            # unsigned integers in which a negative label is huge.
            hi = _largest_unsigned(y)
            lo = 0 if hi <= np.iinfo(y.dtype).max else int(y.min())
            hi = hi if lo == 0 else int(y.max())
            if hi - lo < _MAX_DIRECT_SPAN:
                # Small integer labels, the common case: present classes by one
                # bincount and codes by a lookup table, never sorting the items.
                present = np.flatnonzero(np.bincount(_offsets(y, lo)))
                lo, present = lo + int(present[0]), present - present[0]
                classes = (present + lo).astype(y.dtype)
                if len(present) == hi - lo + 1:
                    # No gap (the common case): the codes are the offsets, in one
                    # pass, with no lookup and no check (every label is a class).
                    return classes, _offsets(y, lo).astype(np.intp, copy=True), None
                return classes, _encode(y, classes, "y_true"), None
    if len(arrays) == 1:
        classes, codes = np.unique(arrays[0], return_inverse=True)
        return classes, codes.astype(np.intp), None
    # One hash pass over both arrays, then a sort of the few distinct labels only.
    codes, distinct = pd.factorize(np.concatenate(arrays), sort=False)
    distinct = np.asarray(distinct)
    order = np.argsort(distinct, kind="stable")
    rank = np.empty(len(order), dtype=np.intp)
    rank[order] = np.arange(len(order))
    codes = rank[codes]
    n = len(arrays[0])
    return distinct[order], codes[:n], codes[n:]


def _classes_and_codes(y_true, y_pred, labels, need_order, measure):
    """``(classes, true_codes, pred_codes)``; ``y_pred`` may be None.

    Without ``labels``, the classes of a label-only call (``y_pred is None``) come
    from ``y_true`` alone, as SPEC 1 says for score-based measures.
    """
    if labels is not None:
        classes = _check_labels(labels)
        arrays = [y for y in (y_true, y_pred) if y is not None]
        names = ["y_true", "y_pred"][: len(arrays)]
        _check_same_kind(arrays, names, _label_kind(classes), "labels")
        codes = [_encode(y, classes, name) for y, name in zip(arrays, names)]
        return classes, codes[0], codes[1] if len(codes) > 1 else None
    if isinstance(y_true, pd.Categorical):
        return _classes_from_categorical(y_true, y_pred)
    arrays = [y for y in (y_true, y_pred) if y is not None]
    classes, true_codes, pred_codes = _unique_classes(arrays, need_order, measure)
    return classes, true_codes, pred_codes


def _drop_zero_weight(sample_weight, *arrays):
    """``(sample_weight, *arrays)`` without the zero-weight items: SPEC 1 makes them
    dropped rows, which add no class, no tie and no pair."""
    if sample_weight is None or sample_weight.all():
        return (sample_weight, *arrays)
    kept = sample_weight > 0
    return (sample_weight[kept], *(None if y is None else y[kept] for y in arrays))


def _validate(y_true, y_pred, sample_weight):
    """Check the arrays and drop the zero-weight items."""
    y_true = _check_1d_labels(y_true, "y_true")
    if y_pred is not None:
        y_pred = _check_1d_labels(y_pred, "y_pred")
        check_consistent_length(y_true, y_pred)
    sample_weight, exponent = _check_sample_weight(sample_weight, len(y_true))
    sample_weight, y_true, y_pred = _drop_zero_weight(sample_weight, y_true, y_pred)
    return y_true, y_pred, sample_weight, exponent


def check_ordinal_targets(
    y_true, y_pred=None, *, labels=None, sample_weight=None, need_order=True, measure=None
):
    """Validate targets and return ``(classes, true_codes, pred_codes, sample_weight)``.

    This is for measures that need the items themselves (ranking measures, the
    trivial classifier, wrappers of scikit-learn); label-based measures use
    :func:`ordinal_confusion` instead. Zero-weight items are dropped, so the codes
    and weights returned may be shorter than the input; ``sample_weight`` is None
    when every kept item weighs the same. ``need_order=False`` lets order-free
    measures take unordered strings; ``measure`` names the caller in messages.
    """
    y_true, y_pred, sample_weight, _ = _validate(y_true, y_pred, sample_weight)
    if y_pred is not None and y_pred.dtype.kind == "f" and _is_real_valued(y_pred, y_true, labels):
        raise ValueError(_real_valued_message(y_pred, measure))
    classes, true_codes, pred_codes = _classes_and_codes(
        y_true, y_pred, labels, need_order, measure
    )
    return classes, true_codes, pred_codes, sample_weight


def check_scored_targets(y_true, y_score, *, labels=None, sample_weight=None, measure=None):
    """Validate the targets of a ranking measure.

    Returns ``(classes, codes, y_score, weights, exponent)``, the weights divided by
    ``2 ** exponent`` as :func:`_check_sample_weight` does. ``y_score`` must already
    be a checked 1-D array; it loses its zero-weight items together with ``y_true``.
    The class order is needed (a ranking is ordinal).
    """
    y_true = _check_1d_labels(y_true, "y_true")
    check_consistent_length(y_true, y_score)
    sample_weight, exponent = _check_sample_weight(sample_weight, len(y_true))
    sample_weight, y_true, y_score = _drop_zero_weight(sample_weight, y_true, y_score)
    classes, codes, _ = _classes_and_codes(y_true, None, labels, True, measure)
    return classes, codes, y_score, sample_weight, exponent


# --- Counting in blocks ----------------------------------------------------------
#
# Every path below counts the items block by block: each temporary (an index, a
# cast, a comparison) holds one block, so the memory above the inputs is bounded by
# the block size, never proportional to n, and the block stays in cache between the
# passes that make its flat index.


def _blocks(n, size=None):
    """``(start, stop)`` of the blocks of ``n`` items (``_BLOCK`` items each)."""
    size = size or _BLOCK
    return ((start, min(start + size, n)) for start in range(0, n, size))


def _block_size(n_cells):
    """Items per block when counting into ``n_cells`` cells: a block's counts can be
    as long as the matrix, so a block is never shorter, and adding them up costs at
    most one pass more."""
    return max(_BLOCK, n_cells)


def _buffer(n, n_cells, dtype=np.intp):
    """An array for the flat index of one block."""
    return np.empty(min(n, _block_size(n_cells)), dtype=dtype)


def _smallest_int(largest):
    """The narrowest signed integer type that holds ``0..largest``: arithmetic on
    int8 codes is fastest in int8, and ``np.bincount`` widens the index itself."""
    return next(t for t in (np.int8, np.int16, np.int32, np.int64) if np.iinfo(t).max >= largest)


def _count(n, flat_index, n_cells, sample_weight, exponent):
    """``sum`` over the blocks of ``np.bincount(flat_index(start, stop))``, as a vector
    of ``n_cells`` counts (weights ``sample_weight / 2 ** exponent`` when given).

    None when ``flat_index`` returns None or an index reaches ``n_cells``: the
    encodings below map every item they cannot count (an unknown label, a missing
    value) there, and the caller then leaves the data to the exact slow path, whose
    messages name the problem.
    """
    total = np.zeros(n_cells, dtype=np.int64 if sample_weight is None else np.float64)
    for start, stop in _blocks(n, _block_size(n_cells)):
        index = flat_index(start, stop)
        if index is None:
            return None
        weights = None
        if sample_weight is not None:
            weights = _scaled_block_weights(sample_weight, start, stop, exponent)
            if weights is None:
                return None
        counts = np.bincount(index, weights=weights)
        if len(counts) > n_cells:
            return None
        total[: len(counts)] += counts
    return total


def _fast_weights(sample_weight, n_samples):
    """``(sample_weight, exponent)`` checked without a copy, ``(None, 0)`` without
    weights, or None when the exact path should look at them (it refuses negative,
    NaN, infinite and all-zero weights, and accepts -0.0).

    One reduction does the four checks: seen as unsigned integers of their width,
    non-negative finite numbers keep their order and stay below the bits of +inf
    (floats) or the sign bit (signed integers), while a negative number, NaN,
    infinity or -0.0 reaches them. The largest bits are then the largest weight.
    """
    if sample_weight is None:
        return None, 0
    sample_weight = np.asarray(sample_weight)
    dtype = sample_weight.dtype
    if (
        sample_weight.ndim != 1
        or sample_weight.shape[0] != n_samples
        or dtype.kind not in "biuf"
        or not dtype.isnative
    ):
        return None
    if dtype.kind == "b":
        sample_weight = sample_weight.view(np.uint8)
    bits = np.dtype(f"u{dtype.itemsize}")
    largest_bits = int(sample_weight.view(bits).max())
    if dtype.kind == "f":
        limit = int(np.array(np.inf, dtype).view(bits)[()])
    else:
        limit = 1 << (8 * dtype.itemsize - (dtype.kind == "i"))
    if not 0 < largest_bits < limit:
        return None
    largest = float(np.array(largest_bits, bits).view(sample_weight.dtype)[()])
    return sample_weight, int(np.frexp(largest)[1]) - 1


def _as_array(y):
    """``y`` as a ``pd.Categorical`` or a 1-D NumPy array without copying it, or None
    for input that only the slow path takes (lists of numbers, booleans, ...)."""
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            return None
        y = y.iloc[:, 0]
    if isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
        # A Series' or Index's own Categorical: pd.Categorical(y) would copy the codes.
        y = getattr(y, "array", y)
        return y if isinstance(y, pd.Categorical) else pd.Categorical(y)
    # A list of numbers is typed exactly by _from_python_objects; strings are
    # hashed as the Python objects they are.
    y = np.asarray(y, dtype=object) if isinstance(y, (list, tuple)) else np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1 or y.dtype.kind not in "iufOUS":
        return None
    return y


def _fast_confusion(y_true, y_pred, labels, sample_weight, need_order):
    """``(classes, matrix, exponent)`` of valid input, counted in blocks, or None.

    None leaves the input to :func:`_validate` and :func:`_confusion`, which give
    the same result for valid input (slowly) and the errors for invalid input:
    every path here returns None at the first thing it cannot count.
    """
    y_true, y_pred = _as_array(y_true), _as_array(y_pred)
    if y_true is None or y_pred is None or len(y_true) != len(y_pred) or not len(y_true):
        return None
    weights = _fast_weights(sample_weight, len(y_true))
    if weights is None:
        return None
    classes = None
    if labels is not None:
        try:
            classes = _check_labels(labels)
        except ValueError:
            return None  # raised by the slow path, after the checks of the targets
    if isinstance(y_true, pd.Categorical):
        if not y_true.ordered:
            return None  # plain labels, which the slow path sorts (or refuses)
        found = _categorical_confusion(y_true, y_pred, classes, *weights)
    elif isinstance(y_pred, pd.Categorical):
        return None
    elif y_true.dtype.kind in "iuf" and y_pred.dtype.kind in "iuf":
        found = _grid_confusion(y_true, y_pred, classes, *weights)
    elif classes is None and need_order:
        return None  # strings without an order: the slow path says so
    elif y_true.dtype.kind == "O" and y_pred.dtype.kind == "O":
        found = _hashed_confusion(y_true, y_pred, classes, *weights)
    elif classes is not None and y_true.dtype.kind == y_pred.dtype.kind == classes.dtype.kind:
        found = _searched_confusion(y_true, y_pred, classes, *weights)
    else:
        return None
    if found is None:
        return None
    return (*found, weights[1])


def _present(matrix):
    """Positions of the classes with an item of positive weight, true or predicted."""
    return np.flatnonzero(matrix.any(axis=0) | matrix.any(axis=1))


def _as_integers(block, out, scale=1):
    """``block * scale`` into the integer array ``out``; False when a float label is
    not an integer (or is NaN), which the cast would silently truncate."""
    if block.dtype.kind in "iu":
        # The cast wraps labels >= 2**63 around; the sums built from them wrap back,
        # since the true results are small (see _grid_confusion).
        np.multiply(block, scale, out=out, dtype=out.dtype, casting="unsafe")
        return True
    with np.errstate(invalid="ignore"):
        np.copyto(out, block, casting="unsafe")
    if not np.equal(out, block).all():
        return False
    if scale != 1:
        np.multiply(out, scale, out=out)
    return True


def _wrap_intp(value):
    """A Python int as the intp that equals it modulo 2**64."""
    return (value + 2**63) % 2**64 - 2**63


def _numeric_bounds(y_true, y_pred):
    """``(lo, hi)``: integer bounds of two numeric arrays, or None when a float label
    is NaN, infinite, fractional, or beyond 2**53 (where float64 merges integers)."""
    if y_true.dtype.kind in "iu" and y_pred.dtype.kind in "iu":
        # One OR-reduction per array bounds small non-negative labels, the common
        # case, in half the passes of min() and max().
        bits = int(np.bitwise_or.reduce(y_true)) | int(np.bitwise_or.reduce(y_pred))
        if 0 <= bits and (bits + 1) ** 2 <= _MAX_GRID:
            return 0, bits
    lows, highs = [], []
    for y in (y_true, y_pred):
        lo, hi = y.min(), y.max()
        if y.dtype.kind == "f" and not (np.isfinite(lo) and np.isfinite(hi)):
            return None
        if lo != np.floor(lo) or hi != np.floor(hi):
            return None
        lows.append(int(lo))
        highs.append(int(hi))
    lo, hi = min(lows), max(highs)
    if "f" in (y_true.dtype.kind, y_pred.dtype.kind) and max(-lo, hi) >= 2**53:
        return None
    return lo, hi


def _blockwise_bound(classes, y_true, y_pred):
    """``hi`` when the integer labels can be counted on the grid ``0..hi`` and checked
    block by block (while each block is in cache) instead of bounded by two passes
    beforehand; None otherwise. ``hi`` is the largest class when ``classes`` are
    given, else the largest label of the first block (a guess that a later block
    may prove wrong). The grid must fit one block's counts."""
    if y_true.dtype.kind not in "iu" or y_pred.dtype.kind not in "iu":
        return None
    if classes is None:
        hi = max(_largest_unsigned(y_true[:_BLOCK]), _largest_unsigned(y_pred[:_BLOCK]))
    elif classes.dtype.kind in "iu" and len(classes) and classes.min() >= 0:
        hi = int(classes.max())
    else:
        return None
    # Seen as unsigned, a negative label is at least 2 ** (bits - 1): above any such hi.
    below_negatives = all(hi <= np.iinfo(y.dtype).max for y in (y_true, y_pred))
    return hi if below_negatives and (hi + 1) ** 2 <= _BLOCK else None


def _largest_unsigned(block):
    """The largest integer of ``block`` seen as unsigned: a negative one is huge."""
    return int(block.view(f"u{block.dtype.itemsize}").max())


def _grid_confusion(y_true, y_pred, classes, sample_weight, exponent):
    """``(classes, matrix)`` of numeric labels counted on the grid of their values.

    The labels span ``lo..hi``; item ``d`` counts in cell ``(y_d - lo) * span +
    (y_hat_d - lo)`` of a (span x span) grid, one ``np.bincount`` per block with no
    lookup and no search. The present cells then give the classes (or are placed at
    the positions of ``classes`` when given). None when the span is too large for
    the grid, a float label is not an integer, or a label is not in ``classes``.
    """
    hi = _blockwise_bound(classes, y_true, y_pred)
    if hi is not None:
        found = _counted_on_grid(y_true, y_pred, classes, (0, hi), True, sample_weight,
                                 exponent)
        if found is not None or classes is not None:
            return found
        # A later block holds a label above the first block's: bound them all first.
    bounds = _numeric_bounds(y_true, y_pred)
    return _counted_on_grid(y_true, y_pred, classes, bounds, False, sample_weight, exponent)


def _index_type(y_true, y_pred, lo, span):
    """The integer type of the flat grid index of :func:`_counted_on_grid`.

    Integer labels within ``0..span - 1`` (checked before the index is built) give
    cells below ``span ** 2`` in any type that holds that, so the index is computed
    in the labels' own width when it can: no widening pass over the items (int8
    labels in int8 run in two thirds of the time of intp), and ``np.bincount``
    widens the index itself. Float labels and a grid not starting at 0 (whose cells
    come out of wrapping intp sums) take intp.
    """
    if lo != 0 or y_true.dtype.kind not in "iu" or y_pred.dtype.kind not in "iu":
        return np.intp
    cells = np.dtype(_smallest_int(span * span - 1))
    return np.dtype(f"i{max(y_true.dtype.itemsize, y_pred.dtype.itemsize, cells.itemsize)}")


def _counted_on_grid(y_true, y_pred, classes, bounds, checked_blockwise, sample_weight,
                     exponent):
    """:func:`_grid_confusion` on the grid ``bounds`` (None: no grid), checking each
    block's labels against it when ``checked_blockwise``."""
    if bounds is None:
        return None
    lo, hi = bounds
    span = hi - lo + 1
    if span * span > _MAX_GRID:
        return None
    if classes is not None and classes.dtype.kind not in "iuf":
        return None
    n = len(y_true)
    # (y - lo) * span + (y_hat - lo) = y * span + y_hat - lo * (span + 1): with the
    # constant taken modulo 2**64, intp arithmetic gives the exact small cell even
    # when the terms wrap around (labels near 2**63).
    shift = _wrap_intp(lo * (span + 1))
    index_buffer = _buffer(n, span * span, _index_type(y_true, y_pred, lo, span))
    pred_buffer = _buffer(n, span * span) if y_pred.dtype.kind == "f" else None

    def flat_index(start, stop):
        index = index_buffer[: stop - start]
        if checked_blockwise and (
            _largest_unsigned(y_true[start:stop]) > hi or _largest_unsigned(y_pred[start:stop]) > hi
        ):
            return None  # a label outside 0..hi: not a class, which the slow path names
        if not _as_integers(y_true[start:stop], index, span):
            return None
        if pred_buffer is None:
            np.add(index, y_pred[start:stop], out=index, dtype=index.dtype, casting="unsafe")
        else:
            pred = pred_buffer[: stop - start]
            if not _as_integers(y_pred[start:stop], pred):
                return None
            np.add(index, pred, out=index)
        if shift:
            np.subtract(index, shift, out=index)
        return index

    counts = _count(n, flat_index, span * span, sample_weight, exponent)
    if counts is None:
        return None
    grid = counts.reshape(span, span).astype(np.float64)
    if classes is None:
        present = _present(grid)
        labels = [lo + int(k) for k in present]
        if y_true.dtype.kind in "iu" and y_pred.dtype.kind in "iu":
            dtype = np.result_type(y_true, y_pred)
            if dtype.kind == "f":  # uint64 with a signed dtype: NumPy would use float64
                dtype = np.int64 if hi <= _INT64.max else np.uint64
        else:
            dtype = np.result_type(y_true, y_pred)
        return np.array(labels, dtype=dtype), grid[np.ix_(present, present)]
    if lo == 0 and len(classes) == span and np.array_equal(classes, np.arange(span)):
        # labels=0..hi (the common case): the grid is the matrix.
        return classes, grid
    # The cell of each given class, if it is an integer inside the grid.
    cells = np.full(len(classes), -1, dtype=np.intp)
    for k, label in enumerate(classes.tolist()):
        if label == int(label) and 0 <= int(label) - lo < span:
            cells[k] = int(label) - lo
    on_grid = cells >= 0
    if np.setdiff1d(np.flatnonzero(grid.any(axis=1) | grid.any(axis=0)), cells).size:
        return None  # a label outside ``classes``: the slow path names it
    matrix = np.zeros((len(classes), len(classes)))
    matrix[np.ix_(on_grid, on_grid)] = grid[np.ix_(cells[on_grid], cells[on_grid])]
    return classes, matrix


def _code_table(categories, classes, scale, unknown):
    """Class position (times ``scale``) of each category, ``unknown`` for a category
    that is no class and, last, for the code -1 of a missing value."""
    table = np.full(len(categories) + 1, unknown, dtype=np.intp)
    if len(categories) == len(classes) and np.array_equal(categories.to_numpy(), classes):
        # The categories are the classes (the common case): no hashing needed.
        table[:-1] = np.arange(len(classes)) * scale
        return table
    category_of_class = categories.get_indexer(classes)
    found = category_of_class >= 0
    table[category_of_class[found]] = np.flatnonzero(found) * scale
    return table


def _categorical_confusion(y_true, y_pred, classes, sample_weight, exponent):
    """``(classes, matrix)`` of two Categoricals, counted on their integer codes.

    The K categories are mapped to class positions once (O(K)); each block then
    costs two gathers from those tables, an addition and a bincount. An item whose
    category is no class, or whose code is -1 (missing), lands past the K * K cells.
    """
    if not isinstance(y_pred, pd.Categorical):
        return None
    if classes is None:
        classes = _categories(y_true)
    kind = _label_kind(classes)
    if _label_kind(y_true) != kind or _label_kind(y_pred) != kind:
        return None
    n_classes = len(classes)
    unknown = n_classes * n_classes
    true_table = _code_table(y_true.categories, classes, n_classes, unknown)
    pred_table = _code_table(y_pred.categories, classes, 1, unknown)
    true_codes, pred_codes = y_true.codes, y_pred.codes
    n = len(true_codes)
    # Categories in class order (the common case): the codes are the positions.
    in_order = np.array_equal(
        true_table[:-1], n_classes * np.arange(len(true_table) - 1)
    ) and np.array_equal(pred_table[:-1], np.arange(len(pred_table) - 1))
    # In order, the index fits in the codes' own width or little more (the
    # cheapest arithmetic); through the tables it is an intp, as np.take gives it.
    index_buffer = _buffer(n, unknown, _smallest_int(unknown) if in_order else np.intp)
    pred_buffer = None if in_order else _buffer(n, unknown)

    def flat_index(start, stop):
        index = index_buffer[: stop - start]
        if in_order:
            true_block, pred_block = true_codes[start:stop], pred_codes[start:stop]
            if true_block.min() < 0 or pred_block.min() < 0:
                return None  # a missing value
            np.multiply(true_block, n_classes, out=index, dtype=index.dtype)
            return np.add(index, pred_block, out=index, dtype=index.dtype)
        pred = pred_buffer[: stop - start]
        # mode="wrap" sends the code -1 to the table's last entry.
        np.take(true_table, true_codes[start:stop], out=index, mode="wrap")
        np.take(pred_table, pred_codes[start:stop], out=pred, mode="wrap")
        return np.add(index, pred, out=index)

    counts = _count(n, flat_index, unknown, sample_weight, exponent)
    if counts is None:
        return None
    return classes, counts.reshape(n_classes, n_classes).astype(np.float64)


def _searched_confusion(y_true, y_pred, classes, sample_weight, exponent):
    """``(classes, matrix)`` of NumPy string arrays in the given classes: a binary
    search of each block among the K sorted classes, then one bincount."""
    n_classes = len(classes)
    unknown = n_classes * n_classes
    sorter = np.argsort(classes, kind="stable")
    sorted_classes = classes[sorter]

    def codes(block, scale):
        position = np.searchsorted(sorted_classes, block)
        np.minimum(position, n_classes - 1, out=position)
        return np.where(sorted_classes[position] == block, sorter[position] * scale, unknown)

    def flat_index(start, stop):
        index = codes(y_true[start:stop], n_classes)
        return np.add(index, codes(y_pred[start:stop], 1), out=index)

    counts = _count(len(y_true), flat_index, unknown, sample_weight, exponent)
    if counts is None:
        return None
    return classes, counts.reshape(n_classes, n_classes).astype(np.float64)


def _hashed_confusion(y_true, y_pred, classes, sample_weight, exponent):
    """``(classes, matrix)`` of object arrays of strings, by hashing each block.

    ``pd.factorize`` gives each block's items codes among the block's few distinct
    labels; those are numbered once over all blocks (a dictionary of labels), and
    the block's small confusion matrix is added at their numbers. No item is looked
    at by Python, nor converted to a NumPy string.
    """
    if classes is not None and classes.dtype.kind != "U":
        return None
    numbers = {}
    total = np.zeros((0, 0))
    for start, stop in _blocks(len(y_true)):
        true_codes, true_labels = pd.factorize(y_true[start:stop])
        pred_codes, pred_labels = pd.factorize(y_pred[start:stop])
        distinct = [*true_labels, *pred_labels]
        if true_codes.min() < 0 or pred_codes.min() < 0:
            return None  # a missing value
        if not all(isinstance(label, str) for label in distinct):
            return None  # not all strings: typed (or refused) by _from_python_objects
        true_numbers = [numbers.setdefault(label, len(numbers)) for label in true_labels]
        pred_numbers = [numbers.setdefault(label, len(numbers)) for label in pred_labels]
        weights = None
        if sample_weight is not None:
            weights = _scaled_block_weights(sample_weight, start, stop, exponent)
            if weights is None:
                return None
        n_pred = len(pred_labels)
        block = np.bincount(
            true_codes * n_pred + pred_codes, weights=weights, minlength=len(true_labels) * n_pred
        )
        if len(numbers) > len(total):
            total = np.pad(total, (0, len(numbers) - len(total)))
        total[np.ix_(true_numbers, pred_numbers)] += block.reshape(len(true_labels), n_pred)
    names = np.array(list(numbers), dtype=str)
    present = _present(total)
    if classes is None:
        present = present[np.argsort(names[present], kind="stable")]
        return names[present], total[np.ix_(present, present)]
    positions = pd.Index(classes).get_indexer(names)
    if (positions[present] < 0).any():
        return None  # a label outside ``classes``: the slow path names it
    matrix = np.zeros((len(classes), len(classes)))
    matrix[np.ix_(positions[present], positions[present])] = total[np.ix_(present, present)]
    return classes, matrix


def _confusion_from_codes(true_codes, pred_codes, n_classes, sample_weight):
    def flat_index(start, stop):
        index = np.multiply(true_codes[start:stop], n_classes, dtype=np.intp)
        return np.add(index, pred_codes[start:stop], out=index)

    matrix = _count(len(true_codes), flat_index, n_classes * n_classes, sample_weight, 0)
    return matrix.astype(np.float64).reshape(n_classes, n_classes)


# --- Real-valued predictions ---------------------------------------------------------


def _is_real_valued(y_pred, y_true, labels):
    """Whether float predictions are a regressor's real values rather than classes.

    They are when some prediction is not an integer and is not a class label either
    (classes from ``labels``, else the true labels). The first test is one pass over
    ``y_pred``; the class set is looked at only when it fails.
    """
    fractional = y_pred != np.trunc(y_pred)
    if not fractional.any():
        return False
    if labels is not None:
        known = np.asarray(labels)
    elif isinstance(y_true, pd.Categorical):
        known = _categories(y_true)
    else:
        known = y_true
    if np.asarray(known).dtype.kind not in "biuf":
        return True
    return not np.isin(y_pred[fractional], known).all()


def _real_valued_message(y_pred, measure):
    example = float(y_pred[y_pred != np.trunc(y_pred)][0])
    who = measure or "this measure"
    return (
        f"y_pred holds real-valued predictions (e.g. {example!r}), not classes, and {who} "
        "compares classes. Round the predictions to classes first (e.g. "
        "np.clip(np.rint(y_pred), lowest, highest)), or judge the scores with a ranking "
        "measure (vus_score, u_cons_score). Only the distance measures (MAE, MSE, RMSE) "
        "take real-valued predictions as they are."
    )


class ClassErrors(NamedTuple):
    """Per-class weights and error sums: the intermediate of the distance measures."""

    classes: np.ndarray
    """The K class labels, in class order."""
    class_weights: np.ndarray
    """``n_k``, the weight of the items of true class ``c_k``."""
    class_errors: np.ndarray
    """``sum_{d: y_d = c_k} w_d |y_hat_d - v_k| ** power``."""


def confusion_or_errors(
    y_true, y_pred, power, *, labels=None, class_values=None, sample_weight=None, measure=None
):
    """Validate inputs once for a distance measure.

    Returns the :class:`OrdinalConfusion` when ``y_pred`` holds classes, and the
    :class:`ClassErrors` when it holds a regressor's real-valued predictions, whose
    error is ``|y_hat_d - v(y_d)| ** power`` as it is (SPEC 1), summed per true
    class in one pass. Dask inputs must hold classes (a confusion matrix per block).
    """
    if _any_dask(y_true, y_pred, sample_weight):
        return ordinal_confusion(
            y_true,
            y_pred,
            labels=labels,
            class_values=class_values,
            sample_weight=sample_weight,
            measure=measure,
        )
    # Classes as predictions are counted in blocks; a regressor's real values are not
    # integers, so the grid leaves them to the slow path below.
    counted = _counted_confusion(y_true, y_pred, labels, class_values, sample_weight, True, True)
    if counted is not None:
        return counted
    y_true, y_pred, sample_weight, exponent = _validate(y_true, y_pred, sample_weight)
    if y_pred.dtype.kind == "f" and _is_real_valued(y_pred, y_true, labels):
        classes, codes, _ = _classes_and_codes(y_true, None, labels, True, measure)
        # Predictions are compared with the values themselves, not their differences.
        values = _class_values(classes, class_values, relative=False)
        errors = np.abs(y_pred - values[codes]) ** power
        if sample_weight is not None:
            errors *= sample_weight
        n_classes = len(classes)
        class_weights = np.bincount(codes, weights=sample_weight, minlength=n_classes)
        class_errors = np.bincount(codes, weights=errors, minlength=n_classes)
        return ClassErrors(classes, class_weights.astype(np.float64), class_errors)
    confusion = _confusion(
        y_true, y_pred, labels, class_values, sample_weight, True, True, measure
    )
    return confusion._replace(weight_exponent=exponent)


# --- The confusion matrix ----------------------------------------------------------


def _confusion(y_true, y_pred, labels, class_values, sample_weight, need_values, need_order,
               measure):
    """:func:`ordinal_confusion` on inputs already through :func:`_validate`."""
    if y_pred.dtype.kind == "f" and _is_real_valued(y_pred, y_true, labels):
        raise ValueError(_real_valued_message(y_pred, measure))
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
    return OrdinalConfusion(classes, _values(classes, class_values, need_values), matrix)


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
                            exponent)


def _any_dask(*arrays):
    """Whether an input is a Dask collection, found without importing Dask: Dask
    inputs are counted blockwise by :mod:`sklearn_ordinal._dask`."""
    return any(
        type(x).__module__.split(".")[0] in ("dask", "dask_expr") and hasattr(x, "__dask_graph__")
        for x in arrays
    )


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
        from ._dask import dask_confusion

        return dask_confusion(
            y_true,
            y_pred,
            labels=labels,
            class_values=class_values,
            sample_weight=sample_weight,
            need_values=need_values,
            need_order=need_order,
            measure=measure,
        )
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


def ordered_classes(y, labels=None, need_order=True, measure=None):
    """The ordered class set of one target array (for estimators' ``classes_``)."""
    classes, codes, _, _ = check_ordinal_targets(
        y, labels=labels, need_order=need_order, measure=measure
    )
    return classes, codes
