"""Ranking measures for ordinal regression: VUS and its pairwise approximations.

Waegeman, De Baets and Boullart (2008) judge the single score ``f(x)`` of an ordinal
model by how well it *ranks* the items, whatever thresholds later turn the score
into a class (``docs/user_guide/ranking.rst``). Every measure here is a function of one small
intermediate, the *score table*: for each class, its distinct scores in increasing
order and the weight of its items at each, built by sorting each class's scores
(or by hashing the scores, when they repeat a lot). Continuous scores make a table
as large as the data, never ``n_classes`` times larger.

- VUS walks the classes in order, carrying for each score of class ``k`` the
  weight of the correctly ordered chains ``c_1 < ... < c_k`` ending there (never
  enumerating tuples): one merge of each class's scores with the class below.
- U_pairs and U_ovo come from one ``r x r`` matrix of ordered pair weights, one
  merge per pair of classes.
- U_cons comes from the rank sums of the classes, one merge of the classes'
  sorted scores for all splits.

For unweighted scores that are all distinct, U_cons and VUS (of few classes) skip
the table: their classes in score order come from one ``np.sort`` (``_ClassOrder``).
"""

# Annotations stay text: help() and the signature show ArrayLike, not its expansion.
from __future__ import annotations

import math
import threading
import weakref
from numbers import Integral
from typing import Any, Literal, Optional

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse

from .._blocks import _block_length, _blocks
from .._compat import Interval, StrOptions, validate_params
from .._score_table import (
    _MAX_CLASSES_IN_SCORE_BITS,
    _MAX_CLASSES_TO_SCAN,
    _class_of_cells,
    _class_weights,
    _ClassOrder,
    _score_table,
)

_Ties = Literal["average", "strict"]

_RANKING_CONSTRAINTS = {
    "y_true": ["array-like"],
    "y_score": ["array-like"],
    "labels": ["array-like", None],
    "sample_weight": ["array-like", None],
    "ties": [StrOptions({"average", "strict"})],
}


# Share of a tied pair counted as correctly ordered, per tie policy.
_TIED_PAIR_CREDIT = {"average": 0.5, "strict": 0.0}


# _position_below merges a block of scores with the run of lower scores it spans up to
# this many times the block's length; beyond, a binary search per score is cheaper
# (measured at 2**17 scores: equal near 2).
_MERGE_UP_TO = 2


# Scores per block of _position_below's merges: their temporaries (the block, its
# run and their order, 16 bytes each) stay about 1.5 MB.
_MERGE_BLOCK = 2**15


def _position_below(lower, scores):
    """``(below, tied)``: per score, how many of the sorted distinct ``lower`` are below
    it, and the indices of the scores that ``lower`` holds too.

    ``np.searchsorted(lower, scores)``, by merging instead: a stable sort of two
    sorted runs is one linear merge, faster than a binary search per score. The
    sorted ``scores`` are merged a block at a time with the run of ``lower`` that
    the block spans, so that the merge's temporaries hold about one block (and a
    block of a class's scores costs its run, not all of ``lower``); a run much
    longer than its block is searched instead.
    """
    below = np.empty(len(scores), dtype=np.intp)
    tied = []
    for start, stop in _blocks(len(scores), min(_block_length(), _MERGE_BLOCK)):
        block = scores[start:stop]
        # Every score of the block is above lower[:first] and below lower[last:].
        first = np.searchsorted(lower, block[0])
        last = np.searchsorted(lower, block[-1], side="right")
        block_below = below[start:stop]
        if last - first > _MERGE_UP_TO * len(block):
            # Few scores over a long run (a small class against a large one): a
            # binary search per score costs less, and needs no temporaries.
            block_below[:] = np.searchsorted(lower, block)
        else:
            merged = np.argsort(np.concatenate([block, lower[first:last]]), kind="stable")
            block_below[:] = np.flatnonzero(merged < len(block))
            del merged
            block_below -= np.arange(-first, len(block) - first)  # i - first
        block_tied = np.flatnonzero(lower[np.minimum(block_below, len(lower) - 1)] == block)
        block_tied += start
        tied.append(block_tied)
    return below, np.concatenate(tied) if tied else np.empty(0, dtype=np.intp)


# The kernels' scratch buffers, one of each name per thread, shared by every stack
# the thread scores: the kernels run one after another, and each returns new arrays
# (its values), never a view of a buffer.
_SCRATCH = threading.local()


def release_scratch():
    """Let go of this thread's scratch buffers (the resampler calls it when its run
    ends: they are as large as a block of resamples of the data)."""
    _SCRATCH.__dict__.clear()


class _Cells:
    """What the ranking kernels read of a score table's cells alone (their scores and
    classes, not their weights): the merges of the classes' scores, the cells in
    score order, their ties.

    A bootstrap scores batch after batch of tables on the same cells with new
    weights; made once for those cells (``keep=True``), this is computed for the
    first batch and read by every later one, so that per batch only the arithmetic
    on the weights remains. A kernel called on one table makes its own with
    ``keep=False``, which keeps nothing as large as the data beyond its use (only
    the few tied cells).
    """

    def __init__(self, table, keep=True):
        self.classes = table.classes
        self.scores = table.scores
        self.bounds = table.bounds
        self.keep = keep
        self._made = {}
        self._ties_of_chains = {}
        self._last_weights = None

    def scratch(self, name, shape):
        """An array of ``shape`` to write a batch's temporaries into: when ``keep``,
        a view of this thread's buffer of that name (see :func:`release_scratch`), a
        fresh array otherwise. A batch's arrays of a megabyte or more, made anew
        each time, cost the system's page faults as much as their arithmetic; kept
        per table instead, a report's systems x measures would each hold their own
        (1.7 GB for 5 systems x 2 x 10^5 scores)."""
        if not self.keep:
            return np.empty(shape)
        size = math.prod(shape)
        buffer = _SCRATCH.__dict__.get(name)
        if buffer is None or buffer.size < size:
            buffer = _SCRATCH.__dict__[name] = np.empty(size)
        return buffer[:size].reshape(shape)

    def _once(self, key, make):
        """``make()``, kept for the next call when ``keep``."""
        if key in self._made:
            return self._made[key]
        value = make()
        if self.keep:
            self._made[key] = value
        return value

    def class_weights(self, table):
        """:func:`_class_weights` of ``table`` (on these cells). A stack's are
        remembered while it lives: the statistic checks them before the kernel reads
        them."""
        last = self._last_weights
        if last is not None and last[0]() is table.weights:
            return last[1]
        class_weights = _class_weights(table)
        if self.keep and table.weights.ndim > 1:
            self._last_weights = (weakref.ref(table.weights), class_weights)
        return class_weights

    def class_scores(self):
        """Per class, its increasing distinct scores (views of the table's)."""
        return np.split(self.scores, self.bounds[1:-1])

    def below(self, k, l):
        """:func:`_position_below` of class ``l``'s scores in class ``k``'s."""
        scores = self.class_scores()
        return self._once(("below", k, l), lambda: _position_below(scores[k], scores[l]))

    def chain_ties(self, k, merge=None):
        """The blocks of classes tied at a score and ending in class ``k`` (see
        :func:`_vus`), from ``merge``, :meth:`below` of classes ``k - 1`` and ``k``:
        None when class ``k - 1`` holds none of class ``k``'s scores, else ``(tied,
        tied_below, steps)``: class ``k``'s cells at such scores, class ``k - 1``'s
        cells there, and per class ``j`` down the blocks ``(j, cells, rows, at,
        kept)``: class ``j``'s cells at the scores, their rows among ``tied``, their
        index among the tied cells of the pair ``(j, j + 1)``, and which of them class
        ``j - 1`` holds too (None where the blocks end). Always kept: the tied cells
        are few, and each class's blocks extend the blocks of the class below."""
        if k not in self._ties_of_chains:
            below, tied = self.below(k - 1, k) if merge is None else merge
            self._ties_of_chains[k] = (self._chain_ties(k, tied, below[tied])
                                       if tied.size else None)
        return self._ties_of_chains[k]

    def _chain_ties(self, k, tied, tied_below):
        cells = tied_below
        rows = at = np.arange(tied.size)
        steps = []
        for j in range(k - 1, -1, -1):
            held = self.chain_ties(j) if j else None
            kept = None
            if held is not None:
                found = np.searchsorted(held[0], cells)
                kept = np.flatnonzero(held[0][np.minimum(found, len(held[0]) - 1)] == cells)
            if kept is None or not kept.size:
                steps.append((j, cells, rows, at, None))
                break
            steps.append((j, cells, rows, at, kept))
            rows, at = rows[kept], found[kept]
            cells = held[1][at]
        return tied, tied_below, steps

    def score_order(self):
        """``(order, new_score, cell_classes)``: the cells in increasing score order
        (a stable sort of runs already sorted merges them, in ``O(C log r)``), whether
        each starts a new score, and their classes in that order."""
        def make():
            order = np.argsort(self.scores, kind="stable")
            return (order, _steps_up(self.scores, order), _class_of_cells(self)[order])
        return self._once("score order", make)

    # The methods below take what they read of :meth:`score_order` from the caller,
    # which a kernel on one table has let go of (``keep=False``) or has at hand.

    def score_groups(self, new_score):
        """Each cell's distinct score (its index among them), in score order."""
        def make():
            group = np.cumsum(new_score)
            group -= 1
            return group
        return self._once("score groups", make)

    def table_order(self, order):
        """Where each cell of the table's order stands in score order (the inverse of
        :meth:`score_order`'s ``order``)."""
        def make():
            back = np.empty_like(order)
            back[order] = np.arange(len(order))
            return back
        return self._once("table order", make)

    def class_indicator(self, cell_classes):
        """The sparse indicator of the class of each cell in score order (a stack's
        sums per class, see :func:`_sums_by`)."""
        return self._once("class indicator",
                          lambda: _indicator(cell_classes, len(self.classes)))

    def group_indicator(self, group):
        """The sparse indicator of each cell's :meth:`score_groups`."""
        return self._once("group indicator",
                          lambda: _indicator(group, int(group[-1]) + 1))

    def ties_across_splits(self, group, cell_classes):
        """``(at, indicator, n_shared)``: the cells (in score order) at a score that two
        classes hold, and the indicator of their (score, class), for ``ties="strict"``."""
        def make():
            shared = np.flatnonzero(np.bincount(group) > 1)
            at = np.isin(group, shared)
            cell = np.searchsorted(shared, group[at]) * len(self.classes) + cell_classes[at]
            return at, _indicator(cell, len(shared) * len(self.classes)), len(shared)
        return self._once("ties across splits", make)


def _indicator(codes, n_codes):
    """The sparse ``(len(codes), n_codes)`` indicator of the codes."""
    return sparse.csr_matrix(
        (np.ones(len(codes)), (np.arange(len(codes)), codes)),
        shape=(len(codes), n_codes),
    )


def _cells_of(table, cells):
    """The :class:`_Cells` a kernel reads: the one given (made once for a stack of
    tables on these cells), else one for this call alone."""
    return _Cells(table, keep=False) if cells is None else cells


def _sums_by(codes, values, n_codes, indicator):
    """Per code, the sum of ``values`` along the last axis, added in the order of the
    values: one ``np.bincount`` for one table, for a stack one product with the
    codes' sparse indicator, ``indicator(codes)`` (the same sums, in the same
    order)."""
    if values.ndim == 1:
        return np.bincount(codes, weights=values, minlength=n_codes)
    return np.asarray((indicator(codes).T @ values.T).T)


def _class_pair_aucs(table, ties, cells=None):
    """``(aucs, sizes)``: AUC of class l against class k, and ``n_k n_l``, for k < l.

    From the ordered pair weights: the weight of the pairs (class k item, class l
    item) with the class k item ranked below, a pair weighing the product of its
    items' weights and a tied pair counting ``_TIED_PAIR_CREDIT[ties]`` of its
    weight; one merge of class l's scores with class k's finds, for each, the
    weight of class k below and at it. For a stack of tables (weights of shape
    ``(B, n_cells)``, the same cells) the merges are made once and both arrays are
    ``(B, n_pairs)``.
    """
    cells = _cells_of(table, cells)
    weights = np.split(table.weights, table.bounds[1:-1], axis=-1)
    n = [w.astype(np.float64, copy=False).sum(axis=-1) for w in weights]
    aucs, sizes = [], []
    for k in range(len(weights)):
        lower = weights[k].astype(np.float64, copy=False)
        up_to = np.zeros(lower.shape[:-1] + (lower.shape[-1] + 1,))
        np.cumsum(lower, axis=-1, out=up_to[..., 1:])
        for l in range(k + 1, len(weights)):
            sizes.append(n[k] * n[l])
            ordered = _ordered_pairs(up_to, lower, weights[l], cells.below(k, l), ties)
            aucs.append(ordered / sizes[-1])
    return np.stack(aucs, axis=-1), np.stack(sizes, axis=-1)


def _ordered_pairs(up_to, lower, upper, merge, ties):
    """The weight of the (lower, upper) pairs in order, tied pairs counting their
    credit, from the lower class's cumulative weights ``up_to`` and the merge of
    the upper class's scores into the lower's. Its temporaries, as long as the upper
    class, are let go on return."""
    below, tied = merge
    ordered = np.take(up_to, below, axis=-1)  # kept in row order (a stack)
    ordered[..., tied] += _TIED_PAIR_CREDIT[ties] * lower[..., below[tied]]
    return np.einsum("...i,...i->...", upper.astype(np.float64, copy=False), ordered)


def _steps_up(scores, order):
    """Whether each of ``scores[order]`` (increasing) differs from the one before it.

    Read block by block, so that no temporary holds ``scores[order]`` whole.
    """
    new_score = np.empty(len(order), dtype=bool)
    new_score[:1] = True
    for start, stop in _blocks(len(order)):
        run = scores[order[max(start - 1, 0):stop]]
        np.not_equal(run[1:], run[:-1], out=new_score[max(start, 1):stop])
    return new_score


def _unit_weights(table, class_weights):
    """Whether every cell of ``table`` weighs exactly 1 (integer counts of distinct
    scores), given its ``class_weights``."""
    return (
        table.weights.dtype.kind in "iu"
        and class_weights.sum() == len(table.weights)
        and table.weights.max() == 1
    )


def _split_aucs(table, ties, cells=None):
    """AUC of the classes above each split ``k`` against those at or below it.

    From rank sums, as Mann and Whitney do, so that one merge of the classes' sorted
    scores serves every split: with the mid-rank ``rho`` of a score (weight below it
    plus half the weight at it), the upper items of split ``k``, of total weight
    ``U_k``, hold ``sum_{i upper} w_i rho_i = (pairs ranked lower < upper) + U_k^2 / 2``
    under ``ties="average"``, and the lower items, of weight ``L_k``, the rest of
    the ``L_k U_k`` pairs plus ``L_k^2 / 2``. ``"strict"`` then takes back the half
    credit of the pairs tied across the split.

    A stack of tables on the same cells (weights ``(B, C)``) runs the same
    arithmetic along the last axis: the merge of the classes' scores, the ties and
    the classes of the cells are read from ``cells``; per table, a cumulative sum of
    its weights in score order gives the mid-ranks, and sums per class the rank
    sums.
    """
    if isinstance(table, _ClassOrder):
        # Distinct unweighted scores whose classes are already in score order.
        n = table.counts.astype(np.float64)
        ordered, pairs = _ordered_split_pairs(_rank_sums_in_order(table.in_order, n), n)
        return ordered / pairs
    cells = _cells_of(table, cells)
    order, new_score, cell_classes = cells.score_order()
    n = cells.class_weights(table)
    distinct = len(new_score) == 0 or bool(new_score.all())
    if distinct and table.weights.ndim == 1 and _unit_weights(table, n):
        del order
        rank_sum = _rank_sums_in_order(cell_classes, n)
    elif distinct and table.weights.ndim > 1:
        # A stack (a bootstrap's batch): w_i rho_i = w_i M_i - w_i^2 / 2, with M_i the
        # weight up to and including i: M in score order (a gather and a running
        # sum, into arrays kept for the next batch), taken back into the table's
        # order, where each class's cells are one run, for one product of each
        # class's run per term. Whole counts (every unweighted bootstrap) give whole
        # numbers, summed exactly in any order: the one table's floats.
        shape = table.weights.shape
        weights = table.weights.astype(np.float64, copy=False)
        # mode="clip" changes no index (each is in range), but lets take write into
        # ``out`` directly ("raise" writes a copy first).
        in_order = np.take(weights, order, axis=-1, mode="clip",
                           out=cells.scratch("in order", shape))
        up_to = np.cumsum(in_order, axis=-1, out=cells.scratch("up to", shape))
        # Back in the table's order, into the array the weights in order are done with.
        up_to = np.take(up_to, cells.table_order(order), axis=-1, mode="clip", out=in_order)
        rank_sum = _class_dots(weights, up_to, table.bounds)
        rank_sum -= 0.5 * _class_dots(weights, weights, table.bounds)
    elif distinct:
        # np.take keeps each table's row contiguous (fancy indexing may not).
        weights = np.take(table.weights, order, axis=-1)
        del order  # each temporary as large as the data is let go as soon as it can be
        # rho_i = (weight strictly below) + w_i / 2, summed in place: no temporary.
        below = np.cumsum(weights, axis=-1, dtype=np.float64)
        np.subtract(below, weights, out=below)
        below *= weights
        del weights
        rank_sum = _sums_by(cell_classes, below, n.shape[-1], cells.class_indicator)
        del below
        square = np.square(table.weights, dtype=np.float64)
        rank_sum += 0.5 * _class_weights(table._replace(weights=square))
    else:
        weights = np.take(table.weights, order, axis=-1).astype(np.float64, copy=False)
        del order
        group = cells.score_groups(new_score)
        at_score = _sums_by(group, weights, int(group[-1]) + 1, cells.group_indicator)
        mid_rank = np.cumsum(at_score, axis=-1)
        mid_rank -= 0.5 * at_score
        mid_rank = np.take(mid_rank, group, axis=-1)
        mid_rank *= weights
        rank_sum = _sums_by(cell_classes, mid_rank, n.shape[-1], cells.class_indicator)
    ordered, pairs = _ordered_split_pairs(rank_sum, n)
    if ties == "strict" and not distinct:
        ordered -= _tied_across_splits(cells.ties_across_splits(group, cell_classes),
                                       weights, n.shape[-1])
    return ordered / pairs


def _class_dots(a, b, bounds):
    """Per class, ``sum_i a_i b_i`` over its cells (the runs ``bounds``), along the
    last axis of a stack: one product per class, no temporary."""
    return np.stack([np.einsum("...i,...i->...", a[..., start:stop], b[..., start:stop])
                     for start, stop in zip(bounds[:-1], bounds[1:])], axis=-1)


def _tied_across_splits(ties_across, weights, n_classes):
    """Per split (and table of a stack), half the weight of the pairs tied across it:
    what ``ties="strict"`` takes back from the mid-rank count; ``weights`` in score
    order, ``ties_across`` :meth:`_Cells.ties_across_splits`."""
    # Only a score held by two classes has pairs tied across a split.
    at, indicator, n_shared = ties_across
    at_class = np.asarray((indicator.T @ weights[..., at].T).T)
    at_class = at_class.reshape(weights.shape[:-1] + (n_shared, n_classes))
    lower_at_score = np.cumsum(at_class, axis=-1)[..., :-1]
    # Summed from the top, not as the weight at the score less the lower one:
    # that difference cancels when the lower weight dominates.
    upper_at_score = np.cumsum(at_class[..., ::-1], axis=-1)[..., -2::-1]
    return 0.5 * np.einsum("...gk,...gk->...k", lower_at_score, upper_at_score)


def _rank_sums_in_order(cell_classes, n):
    """Per class, the sum of its items' mid-ranks, from the class of each item in
    increasing score order (every score distinct, weight 1; ``n`` the class sizes).

    Each item's weight below is its position in score order, so the weights need no
    reordering. Summed block by block, since bincount would copy the classes as
    intp; the sums are of integers, exact below 2**53.
    """
    rank_sum = 0.5 * n
    for start, stop in _blocks(len(cell_classes)):
        rank_sum += np.bincount(
            cell_classes[start:stop],
            weights=np.arange(start, stop, dtype=np.float64),
            minlength=len(n),
        )
    return rank_sum


def _ordered_split_pairs(rank_sum, n):
    """``(ordered, pairs)``: per split, the weight of the (lower, upper) pairs ranked
    in order (tied pairs counting 1/2) and of all its pairs, from the classes' rank
    sums and weights (along the last axis, for a stack of tables)."""
    lower = np.cumsum(n, axis=-1)[..., :-1]
    upper = np.cumsum(n[..., ::-1], axis=-1)[..., -2::-1]
    # The lower items hold L_k^2 / 2 + (L_k U_k - ordered pairs) too. Each form
    # cancels by N / (weight of its side), so the heavier side gives the pairs.
    ordered = np.where(
        lower >= upper,
        np.cumsum(rank_sum[..., ::-1], axis=-1)[..., -2::-1] - 0.5 * upper**2,
        lower * upper - (np.cumsum(rank_sum, axis=-1)[..., :-1] - 0.5 * lower**2),
    )
    return ordered, lower * upper


def _vus(table, ties="average", cells=None):
    """Volume under the ROC surface, by one pass over the classes in order.

    For each score ``v`` of class ``k``, ``before`` is the normalised weight of the
    correctly ordered chains of the classes below ``k`` that end strictly below
    ``v`` (the running sum of class ``k - 1``'s chain ends, read by one
    ``searchsorted``), and ``ends`` the weight of those extended by ``v``. Under
    ``ties="average"`` a chain may also end in a block of ``m`` consecutive classes
    tied at one score, which counts ``1 / m!``; only scores held by two consecutive
    classes can start one, so that work is confined to them. Class weights are
    divided by ``n_k`` first, so every count is a fraction of ``prod_k n_k`` and
    stays in [0, 1] however large the data.

    A stack of tables on the same cells (weights of shape ``(B, n_cells)``, as a
    bootstrap makes) runs the same pass along the last axis, the merges of the
    classes' scores and their ties read from ``cells`` (made once): ``B`` values.
    """
    if isinstance(table, _ClassOrder):
        return _vus_in_order(table)
    cells = _cells_of(table, cells)
    weights = np.split(table.weights, table.bounds[1:-1], axis=-1)
    class_weights = cells.class_weights(table)
    # Unweighted continuous scores weigh 1 per cell: no product by the weights.
    unit = table.weights.ndim == 1 and _unit_weights(table, class_weights)
    # Per class, 1 / n_k, shaped to scale a class's cells (of one table or a stack).
    scale = [s[..., None] for s in np.moveaxis(1.0 / class_weights, -1, 0)]
    # Each class's chain ends in turn, written into the first cells of one array (the
    # running sum reads class k - 1's before class k's are written), and the running
    # sums into another: two arrays kept for a stack's next batch (made afresh for
    # one table).
    rows = table.weights.shape[:-1]
    widest = max(w.shape[-1] for w in weights)
    all_ends = cells.scratch("vus ends", (math.prod(rows) * widest,))
    all_up_to = cells.scratch("vus up to", rows + (widest + 1,))
    all_up_to[..., 0] = 0

    def class_ends(k):
        return all_ends[:math.prod(weights[k].shape)].reshape(weights[k].shape)

    ends = np.multiply(weights[0], scale[0], dtype=np.float64, out=class_ends(0))
    # Per class k with ties: class k - 1's ``before`` at its cells tied with class k,
    # taken before class k - 1's ``before`` becomes its ``ends`` in place.
    before_at_tied = {}
    merge = cells.below(0, 1) if len(weights) > 1 else None
    next_ties = None if ties == "strict" or merge is None else cells.chain_ties(1, merge)
    if next_ties is not None:
        before_at_tied[1] = np.ones(rows + next_ties[1].shape)
    for k in range(1, len(weights)):
        up_to = all_up_to[..., :ends.shape[-1] + 1]
        np.cumsum(ends, axis=-1, out=up_to[..., 1:])
        # (mode="clip": as in _split_aucs.)
        before = ends = np.take(up_to, merge[0], axis=-1, mode="clip", out=class_ends(k))
        chain_ties = next_ties
        if k + 1 < len(weights):
            merge = cells.below(k, k + 1)
            next_ties = None if ties == "strict" else cells.chain_ties(k + 1, merge)
            if next_ties is not None:
                before_at_tied[k + 1] = before[..., next_ties[1]]
        if not unit:
            ends *= weights[k]
        ends *= scale[k]
        if chain_ties is None:
            continue
        tied, _, steps = chain_ties
        # block: weight of the blocks of classes j .. k tied at each score, times
        # 1 / m!; followed down while class j - 1 holds the score too.
        block = weights[k][..., tied] * scale[k]
        tied_ends = np.zeros(block.shape)
        for j, at_cells, rows_at, at, kept in steps:
            block = block * (weights[j][..., at_cells] * scale[j]) / (k - j + 1)
            tied_ends[..., rows_at] += before_at_tied[j + 1][..., at] * block
            if kept is None:
                break
            block = block[..., kept]
        ends[..., tied] += tied_ends
    return _one_or_stack(ends.sum(axis=-1))


def _one_or_stack(values):
    """A float for one table, the array of values for a stack of tables."""
    return float(values) if np.ndim(values) == 0 else values


def _vus_in_order(order):
    """:func:`_vus` of distinct unweighted scores from their :class:`_ClassOrder`.

    The same chain, in the same floating-point operations (so the same float): only
    ``below``, the number of class ``k - 1`` items under each class ``k`` item, is
    read from the classes in score order rather than merged from sorted scores.
    Among the items of classes ``k - 1`` and ``k`` in score order, the ``i``-th item
    of class ``k`` stands at position ``below + i``. One scan of all items per
    class, so it pays up to ``_MAX_CLASSES_TO_SCAN`` classes.
    """
    in_order = order.in_order
    scale = 1.0 / order.counts.astype(np.float64)
    ends = np.full(order.counts[0], scale[0])
    in_previous = in_order == 0
    for k in range(1, len(scale)):
        up_to = np.zeros(len(ends) + 1)
        np.cumsum(ends, out=up_to[1:])
        in_class = in_order == k  # class k's mask, kept as the next class's previous
        pair = np.flatnonzero(in_previous | in_class)
        below = np.flatnonzero(in_class[pair])
        del pair
        below -= np.arange(len(below))
        ends = up_to[below] * scale[k]
        in_previous = in_class
    return float(ends.sum())


def _u_pairs(table, ties="average", cells=None):
    aucs, sizes = _class_pair_aucs(table, ties, cells)
    return _one_or_stack(np.sum(aucs * sizes, axis=-1) / np.sum(sizes, axis=-1))


def _u_ovo(table, ties="average", cells=None):
    aucs, _ = _class_pair_aucs(table, ties, cells)
    return _one_or_stack(np.mean(aucs, axis=-1))


def _u_cons(table, ties="average", cells=None):
    return _one_or_stack(np.mean(_split_aucs(table, ties, cells), axis=-1))


@validate_params(_RANKING_CONSTRAINTS, prefer_skip_nested_validation=True)
def vus_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
    ties: _Ties = "average",
) -> float:
    r"""Volume under the ordinal ROC surface (VUS).

    The fraction of the tuples that take one item from each of the :math:`r`
    classes present, in class order, whose scores are strictly increasing
    (Waegeman et al., eq. 8):

    .. math::

        \hat U(f, D) = \frac{1}{\prod_{k=1}^r n_k}
            \sum_{y_{j_1} < \dots < y_{j_r}} w_{j_1} \cdots w_{j_r} \,
            I_{f(x_{j_1}) < \dots < f(x_{j_r})}

    with :math:`n_k` the weight of the items of class :math:`c_k`. It estimates the
    probability that one random item of each class is ranked in class order, and
    equals the volume under the :math:`r`-dimensional ROC surface (Theorem 3.1). A
    random ranking scores :math:`1/r!` on average, a perfect one 1. With two
    classes it is ROC AUC.

    It is computed exactly in :math:`O(n \log n)` time and :math:`O(n)` memory:
    each class's scores are sorted on their own, then each class, in order, is
    merged with the class below to carry the weight of the correctly ordered
    chains ending at each of its scores.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_score : array-like of shape (n_samples,)
        One real score per item, higher meaning a higher class, e.g. a
        ``decision_function`` or the expected class position under
        ``predict_proba``.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order. Default: the categories of an ordered
        ``Categorical`` ``y_true``, else the sorted labels of ``y_true``. A class
        with no true item is left out with a warning.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights; a tuple weighs the product of its items' weights.
    ties : {"average", "strict"}, default="average"
        ``"average"``: a tuple with non-decreasing scores whose equal scores form
        groups of sizes :math:`m_1, m_2, \dots` counts :math:`\prod_g 1/m_g!`, the
        chance that breaking the ties at random orders it correctly (so two classes
        give exactly :func:`sklearn.metrics.roc_auc_score`). ``"strict"``: only
        strictly increasing tuples count, as eq. 8 is written.

    Returns
    -------
    vus : float
        In [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If fewer than two classes have a true item, or ``y_score`` is not a finite
        1-D array of numbers as long as ``y_true``.

    Warns
    -----
    UndefinedMetricWarning
        When a class in ``labels`` has no true item: it is left out.

    See Also
    --------
    u_pairs_score : Fraction of correctly ordered pairs.
    u_ovo_score : Mean AUC over pairs of classes.
    u_cons_score : Mean AUC over the splits between consecutive classes.
    roc_surface : The ROC surface whose volume this is (three classes).

    References
    ----------
    .. [1] W. Waegeman, B. De Baets and L. Boullart, "ROC analysis in ordinal
       regression learning", Pattern Recognition Letters 29 (2008) 1-9, eq. (8).

    Examples
    --------
    >>> from sklearn_ordinal.metrics import vus_score
    >>> y_true = [0, 0, 1, 1, 2, 2]
    >>> vus_score(y_true, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    1.0
    >>> vus_score(y_true, [0.1, 0.4, 0.3, 0.2, 0.5, 0.6])
    0.5

    One tie between classes 0 and 1 counts half under the default policy:

    >>> vus_score(y_true, [0.1, 0.3, 0.3, 0.4, 0.5, 0.6])
    0.875
    >>> vus_score(y_true, [0.1, 0.3, 0.3, 0.4, 0.5, 0.6], ties="strict")
    0.75
    """
    table = _score_table(
        y_true,
        y_score,
        labels,
        sample_weight,
        "vus_score",
        class_order_up_to=_MAX_CLASSES_TO_SCAN,
    )
    return _vus(table, ties)


@validate_params(_RANKING_CONSTRAINTS, prefer_skip_nested_validation=True)
def u_pairs_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
    ties: _Ties = "average",
) -> float:
    r"""Fraction of correctly ordered pairs of items from different classes.

    Over all pairs of items :math:`i, j` with :math:`y_i < y_j` (Waegeman et al.,
    eq. 16):

    .. math::

        \hat U_\mathrm{pairs}(f, D) = \frac{1}{\sum_{k < l} n_k n_l}
            \sum_{y_i < y_j} w_i w_j \, I_{f(x_i) < f(x_j)}

    It estimates the probability that of two random items from different classes
    the higher class gets the higher score (Theorem 3.2). It is the
    :math:`n_k n_l`-weighted mean of the pairwise AUCs (eq. 19), so large classes
    dominate it; on balanced data it equals :func:`u_ovo_score`. This is the
    C-index / concordance of the ranking with the classes, the quantity that
    preference-learning methods optimise, and the Jonckheere-Terpstra statistic
    divided by its maximum.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_score : array-like of shape (n_samples,)
        One real score per item, higher meaning a higher class.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order; a class with no true item is left out
        with a warning.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights; a pair weighs the product of its items' weights.
    ties : {"average", "strict"}, default="average"
        ``"average"``: a tied pair counts 1/2. ``"strict"``: it counts 0.

    Returns
    -------
    score : float
        In [0, 1]; higher is better, 1/2 for a random ranking.

    See Also
    --------
    vus_score, u_ovo_score, u_cons_score

    References
    ----------
    .. [1] W. Waegeman, B. De Baets and L. Boullart, "ROC analysis in ordinal
       regression learning", Pattern Recognition Letters 29 (2008) 1-9, eq. (16).

    Examples
    --------
    >>> from sklearn_ordinal.metrics import u_pairs_score
    >>> u_pairs_score([0, 0, 1, 1, 2, 2], [0.1, 0.4, 0.3, 0.2, 0.5, 0.6])
    0.833...
    """
    table = _score_table(y_true, y_score, labels, sample_weight, "u_pairs_score")
    return _u_pairs(table, ties)


@validate_params(_RANKING_CONSTRAINTS, prefer_skip_nested_validation=True)
def u_ovo_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
    ties: _Ties = "average",
) -> float:
    r"""Mean, over all pairs of classes, of the AUC between the two classes.

    With :math:`\hat A_{kl}` the AUC of class :math:`c_l` against class :math:`c_k`
    (Waegeman et al., eq. 17):

    .. math::

        \hat U_\mathrm{ovo}(f, D) = \frac{2}{r(r-1)} \sum_{k < l} \hat A_{kl},
        \qquad
        \hat A_{kl} = \frac{1}{n_k n_l} \sum_{y_i = c_k} \sum_{y_j = c_l}
            w_i w_j \, I_{f(x_i) < f(x_j)}

    Every pair of classes weighs the same, whatever their sizes. (The paper calls
    this the Jonckheere-Terpstra statistic; strictly, that statistic sums the pair
    counts, so normalised it is :func:`u_pairs_score`. The two agree on balanced
    data.)

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_score : array-like of shape (n_samples,)
        One real score per item, higher meaning a higher class.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order; a class with no true item is left out
        with a warning.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.
    ties : {"average", "strict"}, default="average"
        ``"average"``: a tied pair counts 1/2. ``"strict"``: it counts 0.

    Returns
    -------
    score : float
        In [0, 1]; higher is better, 1/2 for a random ranking.

    See Also
    --------
    vus_score, u_pairs_score, u_cons_score

    References
    ----------
    .. [1] W. Waegeman, B. De Baets and L. Boullart, "ROC analysis in ordinal
       regression learning", Pattern Recognition Letters 29 (2008) 1-9, eq. (17).
    .. [2] D. J. Hand and R. J. Till, "A simple generalisation of the area under
       the ROC curve for multiple class classification problems", Machine Learning
       45 (2001) 171-186.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import u_ovo_score
    >>> u_ovo_score([0, 0, 1, 1, 2, 2], [0.1, 0.4, 0.3, 0.2, 0.5, 0.6])
    0.833...
    """
    table = _score_table(y_true, y_score, labels, sample_weight, "u_ovo_score")
    return _u_ovo(table, ties)


@validate_params(_RANKING_CONSTRAINTS, prefer_skip_nested_validation=True)
def u_cons_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
    ties: _Ties = "average",
) -> float:
    r"""Mean, over the splits between consecutive classes, of the AUC of the split.

    With :math:`\hat A_k` the AUC of the items above :math:`c_k` against those at
    or below it (Waegeman et al., eq. 18):

    .. math::

        \hat U_\mathrm{cons}(f, D) = \frac{1}{r-1} \sum_{k=1}^{r-1} \hat A_k,
        \qquad
        \hat A_k = \frac{\sum_{y_i \le c_k} \sum_{y_j > c_k}
            w_i w_j \, I_{f(x_i) < f(x_j)}}
            {\sum_{i \le k} n_i \sum_{j > k} n_j}

    Each :math:`\hat A_k` judges the threshold between :math:`c_k` and
    :math:`c_{k+1}` of a threshold model (Waegeman et al., eq. 6).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_score : array-like of shape (n_samples,)
        One real score per item, higher meaning a higher class.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order; a class with no true item is left out
        with a warning.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.
    ties : {"average", "strict"}, default="average"
        ``"average"``: a tied pair counts 1/2. ``"strict"``: it counts 0.

    Returns
    -------
    score : float
        In [0, 1]; higher is better, 1/2 for a random ranking.

    See Also
    --------
    vus_score, u_pairs_score, u_ovo_score

    References
    ----------
    .. [1] W. Waegeman, B. De Baets and L. Boullart, "ROC analysis in ordinal
       regression learning", Pattern Recognition Letters 29 (2008) 1-9, eq. (18).

    Examples
    --------
    >>> from sklearn_ordinal.metrics import u_cons_score
    >>> u_cons_score([0, 0, 1, 1, 2, 2], [0.1, 0.4, 0.3, 0.2, 0.5, 0.6])
    0.875
    """
    table = _score_table(
        y_true,
        y_score,
        labels,
        sample_weight,
        "u_cons_score",
        class_order_up_to=_MAX_CLASSES_IN_SCORE_BITS,
    )
    return _u_cons(table, ties)


@validate_params(
    {
        "y_true": ["array-like"],
        "y_score": ["array-like"],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
        "max_thresholds": [Interval(Integral, 2, None, closed="left"), None],
    },
    prefer_skip_nested_validation=True,
)
def roc_surface(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
    max_thresholds: Optional[int] = None,
) -> tuple[NDArray[np.float64], NDArray[Any]]:
    r"""Points of the ROC surface of a ranking of three ordered classes.

    Two thresholds :math:`b_1 \le b_2` turn the score into a class: :math:`c_1` up
    to :math:`b_1`, :math:`c_2` up to :math:`b_2`, :math:`c_3` above (Waegeman et
    al., eq. 6). Each pair of thresholds gives one point of true positive rates
    (eq. 9):

    .. math::

        \mathrm{TPR}_k(b) = \frac{1}{n_k} \sum_{y_i = c_k} w_i \,
            I_{b_{k-1} < f(x_i) \le b_k}, \qquad b_0 = -\infty,\; b_3 = +\infty

    The thresholds run over :math:`-\infty` and every distinct score, so there are
    :math:`(G + 1)(G + 2) / 2` points for :math:`G` distinct scores; for large data,
    ``max_thresholds`` keeps a subset of the thresholds, evenly spread in score
    order. The volume under the surface is :func:`vus_score` (Theorem 3.1; with
    ``ties="strict"`` when classes share scores).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels of exactly three classes.
    y_score : array-like of shape (n_samples,)
        One real score per item, higher meaning a higher class.
    labels : array-like of shape (3,), default=None
        The three classes in increasing order.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.
    max_thresholds : int >= 2 or None, default=None
        At most this many values per threshold: :math:`-\infty`, the highest
        score and values evenly spaced among the distinct scores in between. The
        points are still exact points of the surface, only fewer. None keeps
        every distinct score.

    Returns
    -------
    tpr : ndarray of shape (n_points, 3)
        ``tpr[p] = (TPR_1, TPR_2, TPR_3)`` at the thresholds ``thresholds[p]``.
    thresholds : ndarray of shape (n_points, 2)
        ``(b_1, b_2)`` with ``b_1 <= b_2``, in increasing order of ``b_1`` then
        ``b_2``; ``-inf`` classifies every item above it.

    See Also
    --------
    RocSurfaceDisplay : Draws this surface.
    vus_score : The volume under it.

    References
    ----------
    .. [1] W. Waegeman, B. De Baets and L. Boullart, "ROC analysis in ordinal
       regression learning", Pattern Recognition Letters 29 (2008) 1-9, Fig. 2.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import roc_surface
    >>> tpr, thresholds = roc_surface([0, 1, 2], [0.2, 0.5, 0.9])
    >>> tpr.shape, thresholds.shape
    ((10, 3), (10, 2))
    >>> thresholds[5], tpr[5]
    (array([0.2, 0.5]), array([1., 1., 1.]))
    """
    _, tpr, thresholds = _roc_surface(y_true, y_score, labels, sample_weight, max_thresholds)
    return tpr, thresholds


def _roc_surface(y_true, y_score, labels, sample_weight, max_thresholds):
    """``(classes, tpr, thresholds)``: :func:`roc_surface` and the three classes."""
    if max_thresholds is not None and max_thresholds < 2:
        raise ValueError(
            f"max_thresholds must be at least 2 (-inf and the highest score); got {max_thresholds}."
        )
    score_table = _score_table(y_true, y_score, labels, sample_weight, "roc_surface")
    classes, scores, table = score_table.classes, score_table.thresholds, score_table.table
    if len(classes) != 3:
        raise ValueError(
            f"roc_surface draws the surface of three classes; y_true has {len(classes)} "
            f"classes with true items: {classes.tolist()}."
        )
    # Share of each class at or below each threshold; row 0 is b = -inf.
    at_or_below = np.zeros((len(scores) + 1, 3))
    np.cumsum(table.T / table.sum(axis=1), axis=0, out=at_or_below[1:])
    levels = np.concatenate([[-np.inf], scores.astype(np.float64)])
    if max_thresholds is not None and len(levels) > max_thresholds:
        kept = np.unique(np.linspace(0, len(levels) - 1, max_thresholds).round().astype(int))
        at_or_below, levels = at_or_below[kept], levels[kept]
    lower, upper = np.triu_indices(len(levels))
    tpr = np.column_stack(
        [
            at_or_below[lower, 0],
            at_or_below[upper, 1] - at_or_below[lower, 1],
            1.0 - at_or_below[upper, 2],
        ]
    )
    # Rounding can take 1 - (a running sum ending at 1) a hair below 0.
    np.clip(tpr, 0.0, 1.0, out=tpr)
    return classes, tpr, np.column_stack([levels[lower], levels[upper]])


# Every ranking measure as a function of the score table of the classes present
# (for chunked data); a new ranking measure adds its pair here.
