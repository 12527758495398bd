"""Input checks and the class order: what every door of the package reads first.

Following the package's conventions (the user guide's "Conventions",
``docs/user_guide/conventions.rst``):

- the class order is ``labels`` as given; else the categories of an ordered pandas
  ``Categorical`` ``y_true``; else, for numbers, their numeric order. Strings have no
  order of their own: a measure that depends on the order refuses them unless the
  order is given (sorting ``["low", "mid", "high"]`` would silently be wrong), and an
  order-free measure uses them as a mere set;
- the class values are ``class_values`` when given; else the labels themselves when
  they are numbers; else the positions ``0..K-1``;
- integer labels keep their identity in every NumPy integer dtype (never through
  float64); Python ints must fit in int64;
- a zero-weight item is a dropped item, and weights are divided by a power of two
  near their largest value, so that scaling every weight by a constant changes
  nothing (no overflow or underflow for weights anywhere in [1e-300, 1e300]);
- real-valued predictions (a regressor's output) are not classes: only the distance
  measures accept them.
"""

import decimal
import numbers

import numpy as np
import pandas as pd
from sklearn.utils import check_consistent_length

from ._array_api import host_views, namespace_of
from ._blocks import (
    _INT64,
    _MAX_DIRECT_SPAN,
    _blocks,
    _buffer,
    _largest_unsigned,
    _scaled_block_weights,
    _wrap_intp,
)


class UndefinedMeasureError(ValueError):
    """A measure is undefined (NaN) on the data themselves, so no interval and no
    trivial class exist: :func:`~sklearn_ordinal.evaluation.evaluate` reports such a
    cell as NaN with a note instead of stopping."""


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
    if inferred in ("mixed", "mixed-integer") and _all_real_numbers(y):
        inferred = "floating"  # e.g. Decimal next to int: real numbers all
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
    raise ValueError(_unsupported_objects_message(y, name, inferred))


def _all_real_numbers(y):
    """Whether every object is a real number (bools aside); only for the objects pandas
    calls mixed, which no fast path takes."""
    return all(_is_real_number(item) for item in y)


def _is_real_number(item):
    # Decimal is no numbers.Real, yet a real number (and exactly a float64 here).
    return isinstance(item, (numbers.Real, decimal.Decimal)) and not isinstance(
        item, (bool, np.bool_))


def _unsupported_objects_message(y, name, inferred):
    """Why Python objects are no labels, named after what they are: pandas's inferred
    type alone says "mixed" for ragged lists and complex numbers alike."""
    nested = next((item for item in y if isinstance(item, (list, tuple, np.ndarray))), None)
    if nested is not None:
        return (
            f"{name} holds sequences as items (e.g. {nested!r}): a ragged or nested list "
            "is no 1-D array of labels. Give one label per item; multi-label targets are "
            "not supported."
        )
    if inferred in ("date", "datetime", "datetime64", "time", "timedelta", "timedelta64",
                    "period"):
        return (
            f"{name} holds {inferred} values, which are no class labels. Convert them to "
            "numbers (e.g. ordinal days) or strings, and give their order with labels=[...]."
        )
    complex_item = next((item for item in y if isinstance(item, complex)), None)
    if inferred == "complex" or complex_item is not None:
        return (
            f"{name} holds complex numbers (e.g. {complex_item!r}), which have no order: "
            "labels must be real numbers or strings."
        )
    kinds = sorted({type(item).__name__ for item in y})
    if inferred in ("mixed", "mixed-integer") and any(isinstance(item, str) for item in y):
        return (
            f"{name} mixes label types ({', '.join(kinds)}): labels must be all numbers or "
            "all strings. Mix of string and number labels is not supported."
        )
    return (
        f"{name} holds items of types {kinds}, which are no class labels: labels must be "
        "all real numbers or all strings."
    )


def check_item_sequence(y, name):
    """Refuse a container without an item order (a set, a dict) or a lone string,
    which NumPy would read as one object and pandas could not hash."""
    if isinstance(y, (set, frozenset, dict, str, bytes)):
        raise ValueError(
            f"{name} must be array-like, one label per item in the items' order (a list, "
            f"NumPy array or pandas Series); got a {type(y).__name__}"
            f"{', which has no item order' if not isinstance(y, (str, bytes)) else ''}."
        )


def _check_1d_labels(y, name):
    """Validate one target array: an ordered ``pd.Categorical`` or a 1-D NumPy array."""
    check_item_sequence(y, name)
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
    if y.ndim != 1 and name == "labels":
        raise ValueError(
            f"labels must be a flat list of the classes, lowest first; got shape {y.shape} "
            "(e.g. labels=[1, 2, 3], not [[1, 2, 3]])."
        )
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
    if sample_weight.dtype.kind == "O":
        sample_weight = _weights_from_objects(sample_weight)
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


def _weights_from_objects(sample_weight):
    """Weights given as Python objects (a pandas object column, a list with None): real
    numbers become floats; anything else is named."""
    if pd.isna(sample_weight).any():
        raise ValueError(
            "sample_weight contains missing values (NaN or None); give every item a "
            "weight (0 drops it)."
        )
    inferred = pd.api.types.infer_dtype(sample_weight, skipna=False)
    if inferred in ("integer", "floating", "mixed-integer-float", "decimal") or (
        inferred in ("mixed", "mixed-integer") and _all_real_numbers(sample_weight)
    ):
        return sample_weight.astype(np.float64)
    wrong = next(item for item in sample_weight if not _is_real_number(item))
    raise ValueError(
        f"sample_weight holds {type(wrong).__name__} values (e.g. {wrong!r}); weights must "
        "be real numbers, one per item."
    )


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


# How a caller without a class_values parameter of its own says how to give them.
_SCORER_VALUES_ADVICE = (
    "give the classes in increasing order in labels=, or the measure's class values "
    "through its scorer, e.g. get_scorer(name, class_values=[...])."
)


def _class_values(classes, class_values, relative=True, advice="pass class_values explicitly."):
    """Class values per the conventions: ``class_values``, else numeric labels, else positions.

    Numeric labels serve as values measured from the lowest class when ``relative``
    (every measure that uses values depends only on their differences), computed in
    exact integer arithmetic, so that labels near 2**63 keep their distances.
    ``advice`` ends the error, in the caller's terms (the default names the measures'
    ``class_values`` parameter).
    """
    if class_values is not None:
        return _check_class_values(class_values, classes)
    if classes.dtype.kind not in "biuf":
        return np.arange(len(classes), dtype=np.float64)
    if not _is_strictly_increasing(classes):
        raise ValueError(
            f"numeric labels {classes.tolist()} are not in increasing order, so they "
            f"cannot serve as class values; {advice}"
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
            f"apart in float64, so they cannot serve as class values; {advice}"
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


def _python_values(values):
    """The values as Python scalars: an object array of strings can hold NumPy
    scalars, whose repr (``np.str_('top')`` under NumPy 2) does not belong in a message."""
    return [v.item() if isinstance(v, np.generic) else v for v in values.tolist()]


def _raise_unknown(y, codes, name, classes):
    unknown = np.unique(y[codes < 0])
    shown = _python_values(unknown[:10])
    more = "" if len(unknown) <= 10 else f" and {len(unknown) - 10} more"
    raise ValueError(
        f"{name} contains labels not in labels={_python_values(classes)}: {shown}{more}."
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


def _conflicting_orders(y_true, y_pred):
    """Whether two ordered Categoricals order one class set differently: which order
    holds cannot be guessed (an unordered ``y_pred`` is read by value)."""
    return (
        isinstance(y_pred, pd.Categorical) and y_pred.ordered
        and not y_pred.categories.equals(y_true.categories)
        and set(y_pred.categories) == set(y_true.categories)
    )


def _classes_from_categorical(y_true, y_pred):
    """Classes and codes when ``y_true`` is an ordered categorical: its order wins."""
    classes = _categories(y_true)
    true_codes = y_true.codes.astype(np.intp)
    if y_pred is None:
        return classes, true_codes, None
    if isinstance(y_pred, pd.Categorical) and y_pred.categories.equals(y_true.categories):
        return classes, true_codes, y_pred.codes.astype(np.intp)
    if _conflicting_orders(y_true, y_pred):
        raise ValueError(
            f"y_true and y_pred are ordered Categoricals of the same classes in different "
            f"orders ({list(y_true.categories)} and {list(y_pred.categories)}); give both "
            "the same categories in the same order, or labels=[...]."
        )
    if isinstance(y_pred, pd.Categorical):
        y_pred = np.asarray(y_pred)
    _check_same_kind([y_pred], ["y_pred"], _label_kind(classes), "y_true")
    pred_codes = y_true.categories.get_indexer(y_pred)
    if (pred_codes < 0).any():
        _raise_unknown(y_pred, pred_codes, "y_pred", classes)
    return classes, true_codes, pred_codes.astype(np.intp)


def _unique_classes(arrays, need_order, measure):
    """Sorted unique labels of the arrays, with codes; strings only as a mere set."""
    # A Categorical's items as typed labels: np.asarray gives objects, which would
    # count as numbers beside string labels.
    arrays = [_categories(y)[y.codes] if isinstance(y, pd.Categorical) else y
              for y in arrays]
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
    from ``y_true`` alone, as the conventions say for score-based measures.
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
    """``(sample_weight, *arrays)`` without the zero-weight items: the conventions make them
    dropped rows, which add no class, no tie and no pair."""
    if sample_weight is None or sample_weight.all():
        return (sample_weight, *arrays)
    kept = sample_weight > 0
    return (sample_weight[kept], *(None if y is None else y[kept] for y in arrays))


def group_codes(groups, n_samples, *, sample_weight=None, resampled=False):
    """``(codes, names)``: each item's group, checked and numbered in order of first
    appearance.

    The one check of ``groups`` (test cases, topics, folds: items scored apart or
    resampled together) for every door that takes them: the measures over groups,
    the intervals and the reports.

    Parameters
    ----------
    groups : array-like of shape (n_samples,)
        One hashable group label per item (a string, a number, a Categorical's
        value), none missing.
    n_samples : int
        The number of items.
    sample_weight : array-like of shape (n_samples,), default=None
        With weights, the items of weight zero are dropped first, as the measures
        drop them: ``codes`` then has one entry per item of positive weight, and a
        group of zero-weight items alone is no group.
    resampled : bool, default=False
        Whether the groups are the units of a resampling, which needs at least two.

    Returns
    -------
    codes : ndarray of shape (n_kept,), dtype intp
        The number of each (kept) item's group, ``0 .. len(names) - 1``, numbered as
        :func:`pandas.factorize` numbers them.
    names : ndarray of shape (n_groups,)
        The groups, in order of first appearance.
    """
    try:
        array = np.asarray(groups)
    except ValueError:  # NumPy's "inhomogeneous shape": a ragged nested list
        array = np.asarray(groups, dtype=object)
    if array.ndim != 1 or array.shape[0] != n_samples:
        raise ValueError(
            f"groups must hold one group per item ({n_samples} item"
            f"{'' if n_samples == 1 else 's'}), a 1-D sequence in the items' order; got "
            f"shape {array.shape}."
        )
    missing = pd.isna(array)
    if missing.any():
        raise ValueError(
            f"groups contains missing values (first at item {int(np.argmax(missing))}); "
            "every item needs a group: give it one, or drop the item."
        )
    if sample_weight is not None:
        weights, _ = _check_sample_weight(sample_weight, n_samples)
        array = array[weights > 0]
    try:
        codes, names = pd.factorize(array)
    except TypeError:  # unhashable values (lists, dicts) in an object array
        kinds = sorted({type(value).__name__ for value in array.tolist()})
        raise ValueError(
            f"groups must hold one label per item (a string or a number); got values "
            f"of type {', '.join(kinds)}."
        ) from None
    if resampled and len(names) < 2:
        raise ValueError(
            f"groups holds {len(names)} group{'' if len(names) == 1 else 's'}"
            f"{'' if sample_weight is None else ' of positive weight'}; resampling groups "
            "needs at least two. Resample the items (groups=None) if they are independent."
        )
    return codes.astype(np.intp, copy=False), np.asarray(names)


def _validate(y_true, y_pred, sample_weight):
    """Check the arrays and drop the zero-weight items."""
    y_true = _check_1d_labels(y_true, "y_true")
    if y_pred is not None:
        y_pred = _check_1d_labels(y_pred, "y_pred")
        check_consistent_length(y_true, y_pred)
    sample_weight, exponent = _check_sample_weight(sample_weight, len(y_true))
    sample_weight, y_true, y_pred = _drop_zero_weight(sample_weight, y_true, y_pred)
    return y_true, y_pred, sample_weight, exponent


# --- Real-valued predictions ---------------------------------------------------------


def _known_classes(y_true, labels):
    """The labels a float prediction may be: ``labels``, else the categories of an
    ordered Categorical ``y_true``, else the true labels."""
    if labels is not None:
        return np.asarray(labels)
    if isinstance(y_true, pd.Categorical):
        return np.asarray(_categories(y_true))
    return np.asarray(y_true)


def _not_classes(y_pred, y_true, labels):
    """The predictions (in item order) that are no class: fractional and not among the
    known classes (all fractional ones when the classes are not numbers)."""
    fractional = y_pred[y_pred != np.trunc(y_pred)]
    if not fractional.size:
        return fractional
    known = _known_classes(y_true, labels)
    if known.dtype.kind not in "biuf":
        return fractional
    return fractional[~np.isin(fractional, known)]


def _is_real_valued(y_pred, y_true, labels):
    """Whether float predictions are a regressor's real values rather than classes.

    They are when some prediction is not an integer and is not a class label either
    (classes from ``labels``, else the true labels): half-steps ``1, 1.5, 2`` are
    classes when the gold standard (or ``labels``) has them. The first test is one
    pass over ``y_pred``; the class set is looked at only when it fails. A
    regressor's values show in its first predictions, which are tested alone first:
    the test of all of them (``np.isin`` sorts every fractional one) is then not
    needed.
    """
    first = y_pred[:_FIRST_PREDICTIONS]
    if len(first) < len(y_pred) and _not_classes(first, y_true, labels).size:
        return True
    return bool(_not_classes(y_pred, y_true, labels).size)


# _is_real_valued looks at this many predictions before all of them.
_FIRST_PREDICTIONS = 1024


def _real_valued_message(y_pred, measure, y_true=None, labels=None):
    """The refusal of real-valued predictions, naming one that is no class and, when
    known, the classes read (half-steps are classes when the gold standard has them)."""
    if y_true is None:
        not_classes, read = y_pred[y_pred != np.trunc(y_pred)], ""
    else:
        not_classes = _not_classes(y_pred, y_true, labels)
        known = pd.unique(_known_classes(y_true, labels).ravel())
        if known.dtype.kind in "biuf":
            known = np.sort(known)
        shown = ", ".join(str(label) for label in known[:10].tolist())
        more = "" if len(known) <= 10 else f" and {len(known) - 10} more"
        source = "labels" if labels is not None else "y_true"
        read = f" (the classes read from {source}: {shown}{more})"
    example = float(not_classes[0])
    who = measure or "this measure"
    return (
        f"y_pred holds real-valued predictions (e.g. {example!r}), not classes{read}, and "
        f"{who} compares classes. Round each prediction to a class first (e.g. to the "
        "nearest class), or judge the scores with a ranking measure (vus_score, "
        "u_cons_score). Only the distance measures (MAE, MSE, RMSE) take real-valued "
        "predictions as they are."
    )


def _on_the_host(measure, *arrays):
    """Array API arrays (under ``array_api_dispatch``) of a door that reads the items on
    the host: NumPy views of a CPU device's arrays (no copy); on another device, a
    ValueError that says why (the door's work is NumPy's), where NumPy would raise
    its own conversion error."""
    namespace = namespace_of(*arrays)
    if namespace is None:
        return arrays
    if namespace.on_host:
        return host_views(*arrays)
    who = measure or "This function"
    raise ValueError(
        f"{who} reads every item on the host (NumPy), so it takes arrays on a CPU device, "
        f"not on {namespace.device}. Move them first (e.g. tensor.cpu()), or use a label "
        "or ranking measure, which count on the arrays' own device "
        "(docs: Array API inputs)."
    )


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
    y_true, y_pred, sample_weight = _on_the_host(measure, y_true, y_pred, sample_weight)
    y_true, y_pred, sample_weight, _ = _validate(y_true, y_pred, sample_weight)
    if y_pred is not None and y_pred.dtype.kind == "f" and _is_real_valued(y_pred, y_true, labels):
        raise ValueError(_real_valued_message(y_pred, measure, y_true, labels))
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
    y_true, y_score, sample_weight = _on_the_host(measure, y_true, y_score, sample_weight)
    y_true = _check_1d_labels(y_true, "y_true")
    check_consistent_length(y_true, y_score)
    sample_weight, exponent = _check_sample_weight(sample_weight, len(y_true))
    sample_weight, y_true, y_score = _drop_zero_weight(sample_weight, y_true, y_score)
    classes, codes, _ = _classes_and_codes(y_true, None, labels, True, measure)
    return classes, codes, y_score, sample_weight, exponent


def ordered_classes(y, labels=None, need_order=True, measure=None):
    """The ordered class set of one target array (for estimators' ``classes_``)."""
    classes, codes, _, _ = check_ordinal_targets(
        y, labels=labels, need_order=need_order, measure=measure
    )
    return classes, codes


def _any_dask(*arrays):
    """Whether an input is a Dask collection, found without importing Dask: Dask
    inputs are counted blockwise by :mod:`sklearn_ordinal._dask`."""
    return any(
        type(x).__module__.split(".")[0] in ("dask", "dask_expr") and hasattr(x, "__dask_graph__")
        for x in arrays
    )


def _refuse_dask(door, *arrays):
    """A ValueError at a door that takes NumPy or pandas when given Dask collections:
    its work (cross-validation, resampling, a fit) needs the items in memory."""
    if _any_dask(*arrays):
        raise ValueError(
            f"{door} takes NumPy arrays, lists or pandas objects, not Dask collections: "
            "its work needs the items in memory. Compute them first (x.compute()), or "
            "score Dask arrays with the measure functions, which read them blockwise."
        )


def _refuse_scaling(self, other):
    """``__mul__`` and ``__rmul__`` of the chunk summaries (``OrdinalConfusion``,
    ``ScoreTable``): a NamedTuple would repeat its fields (``confusion * 2`` a
    10-tuple)."""
    raise TypeError(
        f"{type(self).__name__} cannot be multiplied: scaling every weight changes no "
        "measure. To weight a chunk, count it with sample_weight=; to combine chunks, "
        "add them."
    )


def _add_to_zero(self, other):
    """``__radd__`` of the chunk summaries: ``sum(chunks)`` starts from 0."""
    if isinstance(other, int) and other == 0:
        return self
    return NotImplemented


def _check_same_classes(first, second, what):
    """Chunks add up only over one class set, fixed up front (the conventions: never guessed)."""
    if first.classes.dtype.kind != second.classes.dtype.kind or not np.array_equal(
        first.classes, second.classes
    ):
        raise ValueError(
            f"Cannot add {what}s of different classes ({first.classes.tolist()} and "
            f"{second.classes.tolist()}): give the full class list with labels=[...] "
            "(lowest class first) for every chunk."
        )
