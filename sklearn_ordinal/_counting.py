"""The counting kernels: valid label input to a weighted confusion matrix, in blocks.

Valid input is counted block by block (:func:`_fast_confusion`), each kind on the
integers it stands for: integer labels (and integer-valued floats) on the grid of
their values, ordered Categoricals on their codes, strings by hashing (objects) or
a search among the K classes (NumPy strings); one ``np.bincount`` per block, never
a sort of the items, and no temporary larger than a block. Input these kernels do
not take (invalid or unusual) is left to the exact checks of
:mod:`sklearn_ordinal._validation`, whose messages name the problem.
"""

import numpy as np
import pandas as pd

from ._blocks import (
    _block_length,
    _INT64,
    _MAX_GRID,
    _blocks,
    _buffer,
    _count,
    _largest_unsigned,
    _scaled_block_weights,
    _smallest_int,
    _wrap_intp,
)
from ._validation import _categories, _check_labels, _conflicting_orders, _label_kind


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
        hi = max(_largest_unsigned(y_true[:_block_length()]), _largest_unsigned(y_pred[:_block_length()]))
    elif classes.dtype.kind in "iu" and len(classes) and classes.min() >= 0:
        hi = int(classes.max())
    else:
        return None
    # Seen as unsigned, a negative label is at least 2 ** (bits - 1): above any such hi.
    below_negatives = all(hi <= np.iinfo(y.dtype).max for y in (y_true, y_pred))
    return hi if below_negatives and (hi + 1) ** 2 <= _block_length() else None


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
        if _conflicting_orders(y_true, y_pred):
            return None  # refused by the exact path, which names both orders
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
