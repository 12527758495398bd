"""Blocks of items, and the power-of-two weight scale that keeps weighted sums exact.

Every counting pass reads its items block by block: each temporary (an index, a
cast, a comparison) holds one block, so the memory above the inputs is bounded by
the block size, never proportional to n, and the block stays in cache between the
passes that make its flat index. Weights are divided by a power of two near their
largest value (exact in floating point), so that no sum of weights overflows or
underflows; chunks counted apart are brought to one scale before they are added.
"""

import numpy as np


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


def _block_length():
    """Items per block, read at each call (the tests shrink ``_BLOCK``)."""
    return _BLOCK


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


def _wrap_intp(value):
    """A Python int as the intp that equals it modulo 2**64."""
    return (value + 2**63) % 2**64 - 2**63


def _largest_unsigned(block):
    """The largest integer of ``block`` seen as unsigned: a negative one is huge."""
    return int(block.view(f"u{block.dtype.itemsize}").max())


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
