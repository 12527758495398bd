"""The score table: the ranking measures' mergeable intermediate.

For each class, its distinct scores in increasing order and the weight of its items
at each, built by sorting each class's scores (or by hashing the scores, when they
repeat a lot). Continuous scores make a table as large as the data, never
``n_classes`` times larger. Tables of chunks (or Dask blocks) merge into the table
of all the data. For unweighted scores that are all distinct, U_cons and VUS (of
few classes) read the classes in score order instead (:class:`_ClassOrder`), from
one ``np.sort``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt
import pandas as pd
from sklearn.exceptions import UndefinedMetricWarning

from . import _dask
from ._array_api import compress, host_views, namespace_of
from ._blocks import _block_length, _blocks, _common_scale, _rescaled
from ._device_counting import check_device_scores, checked_device_items
from ._records import record_of
from ._validation import (
    _add_to_zero,
    _any_dask,
    _check_same_classes,
    _refuse_scaling,
    check_scored_targets,
)
from ._warnings import warn_user

# What a measure returns, which score() returns.
_Score = TypeVar("_Score")


# Scores are grouped by hashing when a regular sample of this size has at most this
# share of distinct values (hashing is then ~3x faster than sorting), else by sorting.
_SCORE_SAMPLE_SIZE = 4096


_MAX_DISTINCT_SHARE_TO_HASH = 0.25


# A class code rides in the last bits of its item's float64 score (see
# _class_order): up to 256 classes cost 8 of the 52 bits of the significand.
_MAX_CLASSES_IN_SCORE_BITS = 256


# VUS reads the classes in score order with one scan of all items per class (see
# _vus_in_order); beyond this many classes the table's merges of neighbouring
# classes cost less (measured at 1e5-1e7 items: equal near 20 classes).
_MAX_CLASSES_TO_SCAN = 16


def _check_scores(y_score):
    """Return ``y_score`` as a 1-D array of finite numbers, or raise a ValueError."""
    y_score = np.asarray(y_score)
    if y_score.ndim != 1:
        raise ValueError(
            f"y_score must be 1-D, one real score per item (higher meaning a higher "
            f"class); got shape {y_score.shape}. Reduce class probabilities to one "
            "score first, e.g. the expected class position proba @ np.arange(n_classes)."
        )
    if y_score.dtype.kind == "O":
        if pd.isna(y_score).any():
            raise ValueError("y_score contains missing values (NaN or None).")
        try:
            y_score = y_score.astype(np.float64)
        except (TypeError, ValueError):
            pass
    if y_score.dtype.kind not in "biuf":
        raise ValueError(f"y_score must hold real numbers; got dtype {y_score.dtype}.")
    if y_score.dtype.kind == "f" and not np.isfinite(y_score).all():
        if np.isnan(y_score).any():
            raise ValueError("y_score contains NaN; every item needs a finite score.")
        raise ValueError("y_score contains infinity; every item needs a finite score.")
    return y_score


class ScoreTable(NamedTuple):
    r"""Weights per class and distinct score: what every ranking measure reads.

    For each class ``classes[k]``, its cells ``bounds[k]:bounds[k + 1]`` hold the
    distinct scores of its items, increasing, in ``scores`` and the weight of its
    items at each in ``weights``. :func:`vus_score`, :func:`u_pairs_score`,
    :func:`u_ovo_score` and :func:`u_cons_score` turn their inputs into this table,
    then compute from it alone (:func:`u_cons_score` and :func:`vus_score` skip it
    for unweighted scores that are all distinct: they need only their classes in
    score order, and give the same number). The table of a union of data sets is
    the union of their cells with the weights of equal (class, score) cells added,
    so a large data set can be scored chunk by chunk: build one table per chunk with
    :meth:`from_predictions`, add them with ``+`` (or ``sum()``), and call
    :meth:`score`. It has one cell per distinct score of each class: scores with
    many distinct values (continuous scores) make a table as large as the data,
    scores rounded to a few levels a small one.

    The class set must be the same in every chunk: give it with ``labels=`` (or
    ordered ``Categorical`` targets with the same categories). A class with no true
    item in any chunk is left out with a warning when scoring, as in memory.

    Read more in the :ref:`User Guide <chunks>`.

    Parameters
    ----------
    classes : ndarray of shape (n_classes,)
        The class labels, in class order.
    scores : ndarray of shape (n_cells,)
        The distinct scores of each class, increasing within each class, class
        after class.
    weights : ndarray of shape (n_cells,)
        The weight of the items of each cell's class at its score, divided by
        ``2 ** weight_exponent`` (which changes no measure); integer counts
        without weights.
    bounds : ndarray of shape (n_classes + 1,)
        Class ``k`` owns the cells ``bounds[k]`` to ``bounds[k + 1] - 1``.
    weight_exponent : int
        ``weights * 2 ** weight_exponent`` holds the weights' own sums.

    See Also
    --------
    OrdinalConfusion : The same for the label measures.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import ScoreTable, vus_score
    >>> first = ScoreTable.from_predictions([0, 1, 2], [0.1, 0.4, 0.3], labels=[0, 1, 2])
    >>> second = ScoreTable.from_predictions([0, 1, 2], [0.2, 0.5, 0.6], labels=[0, 1, 2])
    >>> (first + second).score(vus_score)
    0.5
    >>> vus_score([0, 1, 2, 0, 1, 2], [0.1, 0.4, 0.3, 0.2, 0.5, 0.6])
    0.5
    """

    classes: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    bounds: np.ndarray
    weight_exponent: int = 0

    @classmethod
    def from_predictions(
        cls,
        y_true: npt.ArrayLike,
        y_score: npt.ArrayLike,
        *,
        labels: npt.ArrayLike | None = None,
        sample_weight: npt.ArrayLike | None = None,
    ) -> ScoreTable:
        """The score table of one data set (or chunk), validated as every measure does.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True ordinal labels.
        y_score : array-like of shape (n_samples,)
            One real score per item, higher meaning a higher class.
        labels : array-like of shape (n_classes,), default=None
            The classes in order. Give it when the data come in chunks, since a
            chunk may lack a class.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative item weights.

        Returns
        -------
        table : ScoreTable
            The classes, and the distinct scores of each with their weights.

        Examples
        --------
        >>> from sklearn_ordinal.metrics import ScoreTable
        >>> table = ScoreTable.from_predictions([0, 0, 1, 2], [0.1, 0.5, 0.5, 0.9])
        >>> table.scores.tolist(), table.weights.tolist(), table.bounds.tolist()
        ([0.1, 0.5, 0.5, 0.9], [1, 1, 1, 1], [0, 2, 3, 4])
        """
        return _build_score_table(y_true, y_score, labels, sample_weight, "ScoreTable")

    @property
    def thresholds(self) -> npt.NDArray[Any]:
        """ndarray of shape (n_scores,): the distinct scores of all classes, increasing."""
        return np.unique(self.scores)

    @property
    def table(self) -> npt.NDArray[Any]:
        """ndarray of shape (n_classes, n_scores): the weight of class ``k`` at
        ``thresholds[g]``; a dense view, ``n_classes`` numbers per distinct score.

        Examples
        --------
        >>> from sklearn_ordinal.metrics import ScoreTable
        >>> table = ScoreTable.from_predictions([0, 0, 1, 2], [0.1, 0.5, 0.5, 0.9])
        >>> table.thresholds.tolist(), table.table.tolist()
        ([0.1, 0.5, 0.9], [[1, 1, 0], [0, 1, 0], [0, 0, 1]])
        """
        thresholds = self.thresholds
        dense = np.zeros((len(self.classes), len(thresholds)), self.weights.dtype)
        dense[_class_of_cells(self), np.searchsorted(thresholds, self.scores)] = self.weights
        return dense

    def __add__(self, other):
        if not isinstance(other, ScoreTable):
            return NotImplemented
        _check_same_classes(self, other, "ScoreTable")
        exponent, weights = _common_scale(self, other, "weights")
        cells = _class_of_cells(self), _class_of_cells(other)
        return _merge_cells(
            self.classes,
            np.concatenate(cells),
            np.concatenate([self.scores, other.scores]),
            np.concatenate(weights),
            exponent,
        )

    # One body for both chunk summaries (a NamedTuple takes no mixin).
    def __mul__(self, other):
        return _refuse_scaling(self, other)

    def __rmul__(self, other):
        return _refuse_scaling(self, other)

    def __radd__(self, other):
        return _add_to_zero(self, other)

    def score(self, measure: Callable[..., _Score], **kwargs: Any) -> _Score:
        """A ranking measure of the data, computed from the table alone.

        Parameters
        ----------
        measure : callable
            :func:`vus_score`, :func:`u_pairs_score`, :func:`u_ovo_score` or
            :func:`u_cons_score`, or a ``functools.partial`` of one.
        **kwargs
            The measure's own parameters (``ties``); ``labels`` and
            ``sample_weight`` are already in the table.

        Returns
        -------
        score : float
            ``measure(y_true, y_score, ...)`` on the data of the table.

        Examples
        --------
        >>> from sklearn_ordinal.metrics import ScoreTable, vus_score
        >>> first = ScoreTable.from_predictions([0, 1], [0.1, 0.4], labels=[0, 1, 2])
        >>> second = ScoreTable.from_predictions([2, 1], [0.9, 0.3], labels=[0, 1, 2])
        >>> (first + second).score(vus_score)
        1.0
        """
        record, keywords = record_of(measure)
        if record is None or record.from_table is None:
            raise ValueError(
                f"{getattr(measure, '__name__', measure)!r} is not a ranking measure of "
                "sklearn_ordinal.metrics; label measures are computed from an "
                "OrdinalConfusion."
            )
        return record.score_table(self, {**keywords, **kwargs})


def _class_of_cells(table):
    """The class index of every cell of ``table``, in the smallest integer type."""
    return np.repeat(
        np.arange(len(table.classes), dtype=np.min_scalar_type(len(table.classes))),
        np.diff(table.bounds),
    )


def _merge_cells(classes, cell_classes, scores, weights, exponent):
    """The :class:`ScoreTable` of cells in any order, equal (class, score) cells added."""
    order = np.lexsort((scores, cell_classes))
    cell_classes, scores = cell_classes[order], scores[order]
    new_cell = np.ones(len(order), dtype=bool)
    np.not_equal(scores[1:], scores[:-1], out=new_cell[1:])
    new_cell[1:] |= cell_classes[1:] != cell_classes[:-1]
    starts = np.flatnonzero(new_cell)
    return ScoreTable(
        classes,
        scores[starts],
        np.add.reduceat(weights[order], starts),
        np.searchsorted(cell_classes[starts], np.arange(len(classes) + 1)),
        exponent,
    )


def _from_dense(classes, thresholds, table, exponent=0):
    """The :class:`ScoreTable` of a dense ``(n_classes, n_scores)`` table of weights."""
    cell_classes, columns = np.nonzero(table)
    return ScoreTable(
        classes,
        thresholds[columns],
        table[cell_classes, columns],
        np.searchsorted(cell_classes, np.arange(len(classes) + 1)),
        exponent,
    )


class _ClassOrder(NamedTuple):
    """What U_cons (rank sums) and VUS (chains) read of unweighted scores that are
    all distinct: the class code of every item in increasing score order
    (``in_order``) and the number of items of each class (``counts``, every class
    present)."""

    classes: np.ndarray
    in_order: np.ndarray
    counts: np.ndarray


def _build_score_table(
    y_true, y_score, labels, sample_weight, measure, class_order_up_to=0
):
    """Validate the inputs and build the :class:`ScoreTable` of every class.

    Unweighted distinct scores of at most ``class_order_up_to`` classes, all
    present, give their :class:`_ClassOrder` instead, when :func:`_class_order` can
    tell it (a measure that reads it says how many classes it reads fast).
    """
    if _any_dask(y_true, y_score, sample_weight):
        # Each block's table is built by this very function, on the workers.
        return _dask.dask_score_table(
            _build_score_table, _merge_score_tables, y_true, y_score, labels, sample_weight,
            measure,
        )
    namespace = namespace_of(y_true, y_score, sample_weight)
    if namespace is not None:
        if not namespace.on_host:
            return _device_score_table(namespace.xp, y_true, y_score, labels, sample_weight,
                                       measure)
        # A CPU device's arrays are the host's memory: NumPy reads them in place.
        y_true, y_score, sample_weight = host_views(y_true, y_score, sample_weight)
    y_score = _check_scores(y_score)
    classes, codes, y_score, sample_weight, exponent = check_scored_targets(
        y_true, y_score, labels=labels, sample_weight=sample_weight, measure=measure
    )
    if _few_distinct(y_score):
        cell, thresholds = _cell_codes(codes, y_score)
        # Integer counts stay integers (exact) until a measure divides them.
        table = np.bincount(
            cell, weights=sample_weight, minlength=len(classes) * len(thresholds)
        )
        return _from_dense(
            classes, thresholds, table.reshape(len(classes), len(thresholds)), exponent
        )
    if len(classes) <= class_order_up_to and sample_weight is None:
        order = _class_order(classes, codes, y_score)
        if order is not None:
            return order
    return _sort_each_class(classes, codes, y_score, sample_weight, exponent)


def _cells_of_items(classes, codes, y_score, weights):
    """The :class:`ScoreTable` of the classes present and each item's cell in it, from
    validated class codes, scores and weights (None: one each), as
    :func:`_build_score_table` builds it; a resample reweights the cells by the
    items drawn."""
    cell, thresholds = _cell_codes(codes, y_score)
    n_scores = len(thresholds)
    distinct, cell_of_item = np.unique(cell, return_inverse=True)
    del cell
    table = ScoreTable(
        classes,
        thresholds[distinct % n_scores],
        np.bincount(cell_of_item, weights=weights, minlength=len(distinct)),
        np.searchsorted(distinct // n_scores, np.arange(len(classes) + 1)),
    )
    # A class with no item has no cell: only the class list changes.
    return _only_classes(table, _class_weights(table) > 0), cell_of_item.ravel()


def _cell_codes(codes, y_score):
    """``(cell, thresholds)``: the distinct scores, increasing, and each item's cell,
    ``class code * len(thresholds) + index of its score among them``."""
    group, thresholds, order = _group_by_score(y_score)
    if order is not None:
        group[order] = group.copy()  # the groups of the items in their own order
    cell = np.multiply(codes, len(thresholds), dtype=np.intp)
    cell += group
    return cell, thresholds


def _device_score_table(xp, y_true, y_score, labels, sample_weight, measure):
    """The :class:`ScoreTable` of arrays on a device other than the host's.

    The namespace sorts the items by (true label, score) on their device and adds the
    weights of equal pairs: the table's cells, which alone cross to the host, where
    the NumPy path builds the table from them as weighted items (its checks of the
    classes and its messages hold). The weights then return to their own units.
    """
    check_device_scores(xp, y_score, _check_scores)
    y_true, y_score, weights, exponent = checked_device_items(xp, y_true, y_score,
                                                              sample_weight)
    (true_cells, score_cells), totals = compress(xp, [y_true, y_score], weights)
    table = _build_score_table(true_cells, score_cells, labels, totals, measure)
    return table._replace(weights=np.ldexp(table.weights, table.weight_exponent),
                          weight_exponent=exponent)


def _class_order(classes, codes, y_score):
    """The :class:`_ClassOrder` of the items, by one ``np.sort``, or None.

    ``np.sort`` of floats is several times faster than the ``np.argsort`` that would
    carry the classes along, so each item's class code is written into the last
    ``b`` bits of its float64 score's significand (``2 ** b >= n_classes``) and the
    scores are sorted alone. Clearing those bits is monotone (it moves a score toward
    zero by less than its last kept bit), so the sorted codes are the classes in
    score order, unless two scores agree on every other bit: a tie, or scores within
    about ``2 ** (b - 52)`` of each other, relatively. One scan of neighbours finds
    any such pair; then None, and the caller takes the exact path, which handles
    ties. None too for scores that are not floats, a class with no item, fewer than
    two classes, or more than ``_MAX_CLASSES_IN_SCORE_BITS``.
    """
    n_classes = len(classes)
    if y_score.dtype.kind != "f" or not 2 <= n_classes <= _MAX_CLASSES_IN_SCORE_BITS:
        return None
    counts = np.bincount(codes, minlength=n_classes)
    if not counts.all():
        return None
    n_bits = max(1, (n_classes - 1).bit_length())
    last_bits = (1 << n_bits) - 1
    # Adding 0.0 copies the scores as float64 and turns -0.0 into 0.0: the two tie.
    key = np.add(y_score, 0.0, dtype=np.float64)
    key_bits = key.view(np.int64)
    key_bits &= np.int64(~last_bits)
    key_bits |= codes
    key.sort()
    neighbours = np.empty(min(len(key), _block_length()), dtype=np.int64)
    for start, stop in _blocks(len(key) - 1):
        differ = neighbours[: stop - start]
        np.bitwise_xor(key_bits[start + 1 : stop + 1], key_bits[start:stop], out=differ)
        # Equal but for the last bits (or equal): the two scores may tie. Different
        # signs make a negative xor, a large unsigned one.
        if (differ.view(np.uint64) <= last_bits).any():
            return None
    del neighbours
    # A cast to unsigned keeps the low bits; the mask then keeps the code's.
    in_order = key_bits.astype(np.min_scalar_type(last_bits))
    in_order &= last_bits
    return _ClassOrder(classes, in_order, counts)


def _sort_each_class(classes, codes, y_score, sample_weight, exponent):
    """The :class:`ScoreTable` of scores with many distinct values, class by class.

    The items are put in class order by a stable argsort of the class codes (a
    linear radix sort for small integers), then each class's scores sorted on their
    own: ``np.sort`` of floats is several times faster than the ``np.argsort`` a
    sort of all scores with their classes would need. Weights must follow their
    scores, so weighted classes are argsorted.
    """
    small = next(d for d in (np.int8, np.int16, codes.dtype) if len(classes) <= np.iinfo(d).max)
    order = np.argsort(codes.astype(small, copy=False), kind="stable")
    scores = y_score[order]
    weights = None if sample_weight is None else sample_weight[order]
    del order
    bounds = np.zeros(len(classes) + 1, dtype=np.intp)
    np.cumsum(np.bincount(codes, minlength=len(classes)), out=bounds[1:])
    for start, stop in zip(bounds[:-1], bounds[1:]):
        if weights is None:
            scores[start:stop].sort()
        else:
            within = np.argsort(scores[start:stop])
            scores[start:stop] = scores[start:stop][within]
            weights[start:stop] = weights[start:stop][within]
    new_cell = np.empty(len(scores), dtype=bool)
    np.not_equal(scores[1:], scores[:-1], out=new_cell[1:])
    new_cell[bounds[:-1][bounds[:-1] < bounds[1:]]] = True  # each class starts a cell
    if new_cell.all():
        # Continuous scores: every item is its own cell, as sorted.
        if weights is None:
            weights = np.ones(len(scores), dtype=np.intp)
        return ScoreTable(classes, scores, weights, bounds, exponent)
    starts = np.flatnonzero(new_cell)
    if weights is None:
        weights = np.diff(starts, append=len(scores))
    else:
        weights = np.add.reduceat(weights, starts)
    return ScoreTable(
        classes, scores[starts], weights, np.searchsorted(starts, bounds), exponent
    )


def _present_classes(score_table, measure):
    """The :class:`ScoreTable` of the classes with a true item.

    A class in ``labels`` with no true item (or zero total weight) is left out with
    a warning; fewer than two classes left is a ValueError.
    """
    classes = score_table.classes
    present = _class_weights(score_table) > 0
    if present.sum() < 2:
        raise ValueError(
            f"{measure} needs items of at least two classes to rank; y_true has only "
            f"class {classes[present].tolist()}."
        )
    if not present.all():
        warn_user(
            f"{measure}: classes {classes[~present].tolist()} have no true item "
            "(or zero total weight); they are left out.",
            UndefinedMetricWarning
        )
        score_table = _only_classes(score_table, present)
    return score_table


def _only_classes(table, kept):
    """``table`` with only the classes where the boolean ``kept`` is true."""
    cells = kept[_class_of_cells(table)]
    return table._replace(
        classes=table.classes[kept],
        scores=table.scores[cells],
        weights=table.weights[cells],
        bounds=np.concatenate([[0], np.cumsum(np.diff(table.bounds)[kept])]),
    )


def _class_weights(table):
    """The total weight of each class of ``table``, as floats: shape ``(..., K)`` for
    weights of shape ``(..., n_cells)`` (a stack of tables on the same cells)."""
    weights = table.weights
    if weights.ndim > 1:
        # A stack: a sum over each class's columns (reduceat along the last axis of
        # a stack is several times slower).
        return np.stack([weights[..., start:stop].sum(axis=-1) for start, stop in
                         zip(table.bounds[:-1], table.bounds[1:])], axis=-1).astype(
            np.float64, copy=False)
    totals = np.zeros(len(table.classes))
    starts, stops = table.bounds[:-1], table.bounds[1:]
    owned = starts < stops  # reduceat would give an empty class its next cell
    totals[owned] = np.add.reduceat(weights, starts[owned])
    return totals


def _score_table(y_true, y_score, labels, sample_weight, measure, class_order_up_to=0):
    """Validate the inputs and build the :class:`ScoreTable` of the classes present
    (or, for up to ``class_order_up_to`` classes, maybe their :class:`_ClassOrder`).

    A class in ``labels`` with no true item (or zero total weight) is left out with
    a warning.
    """
    score_table = _build_score_table(
        y_true, y_score, labels, sample_weight, measure, class_order_up_to
    )
    if isinstance(score_table, _ClassOrder):
        return score_table  # every class present, unweighted
    return _present_classes(score_table, measure)


def _few_distinct(y_score):
    """Whether a regular sample of the scores shows that they repeat a lot."""
    sample = y_score[:: max(1, len(y_score) // _SCORE_SAMPLE_SIZE)]
    return len(np.unique(sample)) <= _MAX_DISTINCT_SHARE_TO_HASH * len(sample)


def _group_by_score(y_score):
    """Index of every item's score among the distinct scores, in increasing order.

    Returns ``(group, thresholds, order)``: ``thresholds`` the distinct scores,
    increasing, and ``group[i]`` the index in it of the score of item ``order[i]``
    (of item ``i`` when ``order`` is None). Scores that repeat a lot, as rounded
    scores or ``predict_proba`` of a few leaves do, are grouped by hashing and
    only the few distinct ones sorted; other scores by one sort. A regular sample
    of the scores decides; either way the result is the same.
    """
    if _few_distinct(y_score):
        # pandas sizes its hash table for up to 2**20 distinct values unless told
        # less (32 MB, twice a million scores and their classes); a table for the
        # sample's size grows if the scores hold more distinct values.
        codes, distinct = pd.factorize(y_score, size_hint=_SCORE_SAMPLE_SIZE)
        order = np.argsort(distinct)
        rank = np.empty(len(distinct), dtype=np.intp)
        rank[order] = np.arange(len(distinct))
        return rank[codes], distinct[order], None
    order = np.argsort(y_score)
    sorted_scores = y_score[order]
    # A running count of the steps up between neighbours in score order.
    steps_up = np.empty(len(order), dtype=bool)
    steps_up[0] = False
    np.not_equal(sorted_scores[1:], sorted_scores[:-1], out=steps_up[1:])
    group = np.cumsum(steps_up)
    steps_up[0] = True
    return group, sorted_scores[steps_up], order


def _class_cells(table):
    """``(scores, weights)``: per class, its increasing distinct scores and their weights
    (for a stack of tables, weights of shape ``(..., n_cells_of_class)``)."""
    cuts = table.bounds[1:-1]
    return np.split(table.scores, cuts), np.split(table.weights, cuts, axis=-1)


def _merge_score_tables(parts):
    """The score table of all the blocks' items, from their tables, class by class.

    Each class's cells of every block, on the union of the classes and one
    power-of-two weight scale, are merged by one sort; the merged cells are written
    into one table sized for all the blocks' cells. Only one class's cells are ever
    copied at once, so the client holds the blocks' tables, the merged table and one
    class's temporaries, not several copies of everything (pairwise ``+`` would also
    copy the growing table once per block).
    """
    parts = [part for part in parts if part is not None]
    if len(parts) <= 1:
        return parts[0] if parts else None
    classes = _dask._union_of_classes(parts)
    exponent = max(part.weight_exponent for part in parts)
    # The row of each class in each block's table (-1 where the block lacks it).
    rows = np.full((len(parts), len(classes)), -1)
    for i, part in enumerate(parts):
        rows[i, _dask._rows_of(part.classes, classes)] = np.arange(len(part.classes))
    n_cells = sum(len(part.scores) for part in parts)
    scores = np.empty(n_cells, dtype=np.result_type(*(part.scores for part in parts)))
    weights = np.empty(n_cells, dtype=np.result_type(*(part.weights for part in parts)))
    bounds = np.zeros(len(classes) + 1, dtype=np.intp)
    for k in range(len(classes)):
        cells = [(part, slice(part.bounds[row], part.bounds[row + 1]))
                 for part, row in zip(parts, rows[:, k]) if row >= 0]
        merged = _merge_cells(
            classes[k:k + 1],
            np.zeros(sum(c.stop - c.start for _, c in cells), dtype=np.int8),
            np.concatenate([part.scores[c] for part, c in cells]),
            np.concatenate([_rescaled(part.weights[c], part.weight_exponent, exponent)
                            for part, c in cells]),
            exponent,
        )
        bounds[k + 1] = bounds[k] + len(merged.scores)
        scores[bounds[k]:bounds[k + 1]] = merged.scores
        weights[bounds[k]:bounds[k + 1]] = merged.weights
    # Equal scores of a class in several blocks made fewer cells than allotted.
    return ScoreTable(classes, scores[:bounds[-1]], weights[:bounds[-1]], bounds, exponent)
