"""Dask inputs: the measures' intermediates built blockwise, in one distributed pass.

Every label measure is a function of an :class:`~sklearn_ordinal._labels.OrdinalConfusion`
and every ranking measure of a :class:`~sklearn_ordinal.metrics.ScoreTable`, and both
add up over chunks. For Dask inputs, each block (a chunk of a Dask array, a partition
of a Dask Series or one-column DataFrame) is validated and counted by the very code
that serves NumPy input, on the workers; only the small intermediates travel, are
added, and are finished in memory. So the messages are the ones of NumPy input.

The class set must be the same in every block: it is ``labels``, else the categories
of an ordered categorical Dask Series, else the distinct labels of the data, found
by one extra distributed pass.

Dask is imported here only, and this module only when an input is a Dask object.
"""

import functools
import operator

import numpy as np
import pandas as pd

from ._labels import _any_dask


def _blocks(arrays):
    """Delayed blocks of the Dask inputs (None stays None), aligned item for item.

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
        blocks = []
        for x in arrays:
            if x is None:
                blocks.append(None)
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
            blocks.append(list(x.rechunk((chunks,)).to_delayed().ravel()))
        return blocks
    if any(isinstance(x, da.Array) for x in given):
        raise ValueError(
            "Dask arrays and Dask Series cannot be mixed: convert the Series with "
            ".to_dask_array(lengths=True), or the arrays with dask.dataframe.from_dask_array."
        )
    counts = {x.npartitions for x in given}
    if len(counts) > 1:
        raise ValueError(
            f"The Dask inputs have different numbers of partitions ({sorted(counts)}): "
            "take them as columns of one Dask DataFrame, or repartition them alike."
        )
    return [None if x is None else list(x.to_delayed()) for x in arrays]


def _ordered_categories(y):
    """The categories of an ordered categorical Dask Series, else None."""
    if getattr(y, "ndim", 1) == 2:
        if len(y.columns) != 1:
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


def _distinct(y_true, y_pred, sample_weight):
    """The distinct labels of one block's items of positive weight, per array."""
    from ._labels import _check_1d_labels, _check_sample_weight, _drop_zero_weight

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


def _class_set(blocks, need_order, measure):
    """The sorted distinct labels over every block, with the checks of NumPy input."""
    import dask

    from ._labels import _unique_classes

    found = [part for part in dask.compute(*blocks) if part is not None]
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


def _add(parts):
    parts = [part for part in parts if part is not None]
    return functools.reduce(operator.add, parts) if parts else None


def _reduce(parts, empty_message):
    import dask

    total = dask.delayed(_add)(parts).compute()
    if total is None:
        raise ValueError(empty_message)
    return total


def _labels_of(y_true, labels, blocks_for_classes):
    """``labels``, else an ordered categorical's categories (None: the blocks' own),
    else the class set by one extra distributed pass."""
    if labels is not None:
        return labels
    if _ordered_categories(y_true) is not None:
        return None
    return blocks_for_classes()


_EMPTY = (
    "y_true has no item of positive weight in any block: at least one label is needed."
)


def dask_confusion(y_true, y_pred, *, labels, class_values, sample_weight, need_values,
                   need_order, measure):
    """:func:`~sklearn_ordinal._labels.ordinal_confusion` of Dask inputs."""
    import dask

    true_blocks, pred_blocks, weight_blocks = _blocks([y_true, y_pred, sample_weight])
    if weight_blocks is None:
        weight_blocks = [None] * len(true_blocks)
    labels = _labels_of(
        y_true,
        labels,
        lambda: _class_set(
            [dask.delayed(_distinct)(*block)
             for block in zip(true_blocks, pred_blocks, weight_blocks)],
            need_order,
            measure,
        ),
    )
    build = functools.partial(
        _confusion_of_block,
        labels=labels,
        class_values=class_values,
        need_values=need_values,
        need_order=need_order,
        measure=measure,
    )
    parts = [
        dask.delayed(_block_or_none)(build, *block)
        for block in zip(true_blocks, pred_blocks, weight_blocks)
    ]
    return _reduce(parts, _EMPTY)


def _confusion_of_block(y_true, y_pred, sample_weight, **kwargs):
    from ._labels import ordinal_confusion

    return ordinal_confusion(y_true, y_pred, sample_weight=sample_weight, **kwargs)


def dask_score_table(y_true, y_score, labels, sample_weight, measure):
    """:class:`~sklearn_ordinal.metrics.ScoreTable` of Dask inputs."""
    import dask

    true_blocks, score_blocks, weight_blocks = _blocks([y_true, y_score, sample_weight])
    if weight_blocks is None:
        weight_blocks = [None] * len(true_blocks)
    labels = _labels_of(
        y_true,
        labels,
        lambda: _class_set(
            [dask.delayed(_distinct)(block, None, weight)
             for block, weight in zip(true_blocks, weight_blocks)],
            True,
            measure,
        ),
    )
    build = functools.partial(_score_table_of_block, labels=labels, measure=measure)
    parts = [
        dask.delayed(_block_or_none)(build, *block)
        for block in zip(true_blocks, score_blocks, weight_blocks)
    ]
    return _reduce(parts, _EMPTY)


def _score_table_of_block(y_true, y_score, sample_weight, *, labels, measure):
    from .metrics._ranking import _build_score_table

    return _build_score_table(y_true, y_score, labels, sample_weight, measure)
