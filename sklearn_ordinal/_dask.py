"""Dask inputs: the measures' intermediates built blockwise, in one distributed pass.

Every label measure is a function of an :class:`~sklearn_ordinal._confusion.OrdinalConfusion`
and every ranking measure of a :class:`~sklearn_ordinal._score_table.ScoreTable`, and both
add up over chunks. For Dask inputs, each block (a chunk of a Dask array, a partition
of a Dask Series or one-column DataFrame) is validated and counted by the very code
that serves NumPy input, on the workers; only the small intermediates travel, are
added, and are finished in memory. So the messages are the ones of NumPy input.

The inputs of one call are read by one graph, so a block that several inputs share
(two columns of one file, two arrays made by one task) is computed once. The K x K
confusion matrices are added on the workers in a tree; score tables, as large as
their distinct scores, are merged once in the client.

The class set is ``labels``, else the categories of an ordered categorical Dask
Series, else the distinct labels of the data. Integer (or boolean) labels whose
dtypes have a common integer dtype, and string labels, are counted per block over
the block's own classes, and the blocks' matrices are spread over the union of
their classes when added: the data are read once. Other labels (floats, Python
objects, int64 with uint64) need the whole class set in every block (whether a
float prediction is a class or a regressor's value depends on it, and whether
integers fit one dtype): one extra distributed pass finds it first.

Dask is imported here only, inside the functions that get a Dask object. This layer
knows no intermediate: the functions that count one block and merge the blocks'
results are handed in by :mod:`sklearn_ordinal._confusion` and
:mod:`sklearn_ordinal._score_table`, which sit above it.
"""

import functools
import operator

import numpy as np
import pandas as pd

from ._validation import (
    _any_dask,
    _check_1d_labels,
    _check_sample_weight,
    _class_values,
    _drop_zero_weight,
    _not_classes,
    _real_valued_message,
    _unique_classes,
)

# Blocks added per task of the tree that sums the confusion matrices: small enough
# that no task waits long for its inputs, large enough for few levels.
_FAN_IN = 16


def _per_block(function, arrays):
    """Delayed ``function(*block)`` for every block of the Dask inputs (None passes as
    None), all read by one graph.

    Dask arrays are rechunked as the first; Dask Series (or one-column DataFrames)
    must come partitioned alike, which their partition count stands for here (each
    block then checks that its lengths agree).
    """
    import dask.array as da

    given = [x for x in arrays if x is not None]
    if not all(_any_dask(x) for x in given):
        raise ValueError(
            "Some inputs are Dask collections and some are not: give y_true, y_pred (or "
            "y_score) and sample_weight all as Dask arrays, or all as Dask Series of one "
            "Dask DataFrame."
        )
    if all(isinstance(x, da.Array) for x in given):
        first = given[0]
        chunks = first.chunks[0]
        arguments = []
        for x in arrays:
            if x is None:
                arguments += [None, None]
                continue
            if x.ndim == 2 and x.shape[1] == 1:
                x = x[:, 0]
            if x.ndim != 1:
                # The blocks would say it, with NumPy's message, but only once computed.
                raise ValueError(f"Dask inputs must be 1-D; got shape {x.shape}.")
            if x.shape[0] != first.shape[0]:
                raise ValueError(
                    f"Found input variables with inconsistent numbers of samples: "
                    f"{[y.shape[0] for y in given]}"
                )
            arguments += [x.rechunk((chunks,)), "i"]
        # One object per block; this "array" is never concatenated, only its blocks read.
        results = da.blockwise(
            function, "i", *arguments, dtype=object, meta=np.empty((0,), dtype=object),
            adjust_chunks={"i": 1}, concatenate=True,
        )
        return list(results.to_delayed().ravel())
    if any(isinstance(x, da.Array) for x in given):
        raise ValueError(
            "Dask arrays and Dask Series cannot be mixed: convert the Series with "
            ".to_dask_array(lengths=True), or the arrays with dask.dataframe.from_dask_array."
        )
    import dask.dataframe as dd

    counts = {x.npartitions for x in given}
    if len(counts) > 1:
        raise ValueError(
            f"The Dask inputs have different numbers of partitions ({sorted(counts)}): "
            "take them as columns of one Dask DataFrame, or repartition them alike."
        )
    results = dd.map_partitions(
        function, *arrays, meta=pd.Series([], dtype=object), enforce_metadata=False,
        align_dataframes=False,
    )
    return list(results.to_delayed())


def _ordered_categories(y):
    """The categories of an ordered categorical Dask Series, else None."""
    if getattr(y, "ndim", 1) == 2:
        # A 2-D Dask Array has no columns (and no categories): its shape is checked
        # with the other inputs' (_per_block).
        if not hasattr(y, "columns") or len(y.columns) != 1:
            return None
        y = y[y.columns[0]]
    dtype = getattr(y, "dtype", None)
    if not (isinstance(dtype, pd.CategoricalDtype) and dtype.ordered):
        return None
    if not y.cat.known:
        raise ValueError(
            "y_true is an ordered categorical Dask Series whose categories are unknown; "
            "call .cat.as_known() first, or give labels=[...]."
        )
    return dtype.categories


def _single_dtype(y):
    """The NumPy dtype of a Dask input's items (None if it has none)."""
    dtype = getattr(y, "dtype", None)
    if dtype is None and hasattr(y, "columns") and len(y.columns) == 1:
        dtype = y.dtypes.iloc[0]
    return dtype if isinstance(dtype, np.dtype) else None


def _classes_found_blockwise(*targets):
    """Whether each block can find its own classes and the blocks' ones be merged: then
    every block's classes have one dtype (int64 with uint64 has none: in memory their
    labels may be an error, which blocks holding one kind each would not see)."""
    dtypes = [_single_dtype(y) for y in targets if y is not None]
    if any(dtype is None for dtype in dtypes):
        return False
    kinds = {dtype.kind for dtype in dtypes}
    if kinds <= set("US"):
        return True
    return kinds <= set("biu") and np.result_type(*dtypes).kind in "biu"


def _distinct(y_true, y_pred, sample_weight):
    """The distinct labels of one block's items of positive weight, per array."""
    if len(y_true) == 0:
        return None
    y_true = _check_1d_labels(y_true, "y_true")
    y_pred = None if y_pred is None else _check_1d_labels(y_pred, "y_pred")
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight)
        if sample_weight.size and not (sample_weight > 0).any():
            return None
    sample_weight, _ = _check_sample_weight(sample_weight, len(y_true))
    _, y_true, y_pred = _drop_zero_weight(sample_weight, y_true, y_pred)
    return [np.asarray(pd.unique(np.asarray(y))) for y in (y_true, y_pred) if y is not None]


def _class_set(arrays, need_order, measure):
    """The sorted distinct labels over every block, with the checks of NumPy input: the
    extra distributed pass."""
    import dask

    found = [part for part in dask.compute(*_per_block(_distinct, arrays)) if part is not None]
    if not found:
        return None
    arrays = [np.concatenate([part[i] for part in found]) for i in range(len(found[0]))]
    classes, _, _ = _unique_classes(arrays, need_order, measure)
    return classes


def _block_or_none(build, y_true, *rest):
    """``build(y_true, *rest)``, or None for a block without items of positive weight:
    a chunk may hold none, which the whole data set must not."""
    sample_weight = rest[-1]
    if len(y_true) == 0:
        return None
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight)
        if sample_weight.size and not (sample_weight > 0).any():
            # Still checked: a negative or NaN weight is an error in any block.
            if np.isfinite(sample_weight).all() and (sample_weight >= 0).all():
                return None
    return build(y_true, *rest)


def _rows_of(own, classes):
    """Where the classes ``own`` are in ``classes``: the same classes (in the order
    given, which may be any), or a sorted union of them."""
    if np.array_equal(own, classes):
        return np.arange(len(classes))
    return np.searchsorted(classes, own)


def _on_classes(confusion, classes):
    """``confusion`` with its matrix spread over ``classes``, a superset of its own."""
    if np.array_equal(confusion.classes, classes):
        return confusion
    where = _rows_of(confusion.classes, classes)
    matrix = np.zeros((len(classes), len(classes)), dtype=confusion.matrix.dtype)
    matrix[np.ix_(where, where)] = confusion.matrix
    return confusion._replace(classes=classes, matrix=matrix)


def _union_of_classes(parts):
    """The sorted union of the parts' classes (all of one dtype kind: one Dask dtype)."""
    first = parts[0].classes
    if all(np.array_equal(part.classes, first) for part in parts[1:]):
        return first
    return np.unique(np.concatenate([part.classes for part in parts]))


def _add_confusions(parts, merge_classes):
    """The sum of the blocks' confusions (None for none). With ``merge_classes``, each
    counts its own classes, which are first spread over their union."""
    parts = [part for part in parts if part is not None]
    if not parts:
        return None
    if merge_classes:
        classes = _union_of_classes(parts)
        # Values are set for the whole class set at the end; here they are positions.
        positions = np.arange(len(classes), dtype=np.float64)
        parts = [_on_classes(part, classes)._replace(values=positions) for part in parts]
    return functools.reduce(operator.add, parts)


def _tree_sum(parts, add):
    """``add`` over the delayed parts in a tree on the workers, computed."""
    import dask

    while len(parts) > 1:
        parts = [dask.delayed(add)(parts[i:i + _FAN_IN])
                 for i in range(0, len(parts), _FAN_IN)]
    return parts[0].compute()


def _labels_of(y_true, labels, class_set):
    """``labels``, else an ordered categorical's categories (None: the blocks' own),
    else the class set by one extra distributed pass."""
    if labels is not None:
        return labels
    if _ordered_categories(y_true) is not None:
        return None
    return class_set()


_EMPTY = (
    "y_true has no item of positive weight in any block: at least one label is needed."
)


def _may_be_real_valued(y_pred):
    """Whether a Dask prediction may hold a regressor's real values: floats, or Python
    objects (whose numbers are typed per block)."""
    dtype = _single_dtype(y_pred)
    if dtype is None:
        dtype = getattr(y_pred, "dtype", None)
        return not isinstance(dtype, (pd.StringDtype, pd.CategoricalDtype))
    return dtype.kind in "fO"


def _found_labels(arrays):
    """``(true, pred)``: the distinct labels of every block (of positive weight), in the
    order of the items' first appearance, or None without any: the extra pass."""
    import dask

    found = [part for part in dask.compute(*_per_block(_distinct, arrays)) if part is not None]
    if not found:
        return None
    return tuple(np.concatenate([part[i] for part in found]) for i in range(2))


def dask_confusion(count, y_true, y_pred, *, labels, class_values, sample_weight,
                   need_values, need_order, measure, count_errors=None, add_errors=None):
    """The :class:`~sklearn_ordinal._confusion.OrdinalConfusion` of Dask inputs.

    ``count`` is the in-memory function that counts one block (with this call's
    keyword arguments); it is handed in, not imported, so that the Dask layer sits
    below the intermediates it builds.

    Whether float predictions are classes is decided on the whole data, as in memory
    (a block cannot tell: its own predictions may all be whole numbers). When they
    are a regressor's real values, a label measure gets the message of NumPy input,
    and a distance measure (which hands in ``count_errors``, counting one block's
    per-class errors over the class set given, and ``add_errors``, adding them) gets
    the :class:`~sklearn_ordinal._confusion.ClassErrors` of the data.
    """
    arrays = [y_true, y_pred, sample_weight]
    if y_pred is not None and _may_be_real_valued(y_pred):
        found = _found_labels(arrays)
        if found is not None and found[1].dtype.kind == "f":
            true_labels, predictions = found
            categories = _ordered_categories(y_true)
            known = labels if labels is not None else categories
            if _not_classes(predictions, true_labels, known).size:
                if count_errors is None:
                    raise ValueError(
                        _real_valued_message(predictions, measure, true_labels, known)
                    )
                return _dask_class_errors(count_errors, add_errors, arrays, labels,
                                          class_values, true_labels, measure)
            if labels is None and categories is None:
                labels, _, _ = _unique_classes(list(found), need_order, measure)
    merge_classes = (
        labels is None
        and _ordered_categories(y_true) is None
        and _classes_found_blockwise(y_true, y_pred)
    )
    if not merge_classes:
        labels = _labels_of(y_true, labels,
                            lambda: _class_set(arrays, need_order, measure))
    build = functools.partial(
        _block_or_none,
        functools.partial(
            _confusion_of_block,
            count=count,
            labels=labels,
            # The class values of the merged classes are known only at the end.
            class_values=None if merge_classes else class_values,
            need_values=need_values and not merge_classes,
            need_order=need_order,
            measure=measure,
        ),
    )
    total = _tree_sum(_per_block(build, arrays),
                      functools.partial(_add_confusions, merge_classes=merge_classes))
    if total is None:
        raise ValueError(_EMPTY)
    if merge_classes and (need_values or class_values is not None):
        total = total._replace(values=_class_values(total.classes, class_values))
    return total


def _dask_class_errors(count_errors, add_errors, arrays, labels, class_values, true_labels,
                       measure):
    """The per-class errors of a regressor's real-valued Dask predictions: every block
    counted over the class set of the whole data, the blocks' sums added."""
    if labels is None and _ordered_categories(arrays[0]) is None:
        # In memory the classes of real-valued predictions are those of y_true alone.
        labels, _, _ = _unique_classes([true_labels], True, measure)
    build = functools.partial(
        _block_or_none,
        functools.partial(count_errors, labels=labels, class_values=class_values,
                          measure=measure),
    )
    total = _tree_sum(_per_block(build, arrays), add_errors)
    if total is None:
        raise ValueError(_EMPTY)
    errors, _ = total
    return errors


def _confusion_of_block(y_true, y_pred, sample_weight, *, count, **kwargs):
    return count(y_true, y_pred, sample_weight=sample_weight, **kwargs)


def dask_score_table(build_table, merge_tables, y_true, y_score, labels, sample_weight,
                     measure):
    """The :class:`~sklearn_ordinal._score_table.ScoreTable` of Dask inputs.

    ``build_table`` builds one block's table in memory (as
    ``build_table(y_true, y_score, labels, sample_weight, measure)``) and
    ``merge_tables`` merges the blocks' tables (None for an empty block); both are
    handed in, so that the Dask layer sits below the intermediate it builds.
    """
    import dask

    merge_classes = (
        labels is None
        and _ordered_categories(y_true) is None
        and _classes_found_blockwise(y_true)
    )
    if not merge_classes:
        labels = _labels_of(y_true, labels,
                            lambda: _class_set([y_true, None, sample_weight], True, measure))
    build = functools.partial(
        _block_or_none,
        functools.partial(_score_table_of_block, build_table=build_table, labels=labels,
                          measure=measure),
    )
    total = merge_tables(
        list(dask.compute(*_per_block(build, [y_true, y_score, sample_weight])))
    )
    if total is None:
        raise ValueError(_EMPTY)
    return total


def _score_table_of_block(y_true, y_score, sample_weight, *, build_table, labels, measure):
    return build_table(y_true, y_score, labels, sample_weight, measure)
