"""Placement values of the ranking measures: DeLong's variance and the exact jackknife.

VUS is a U-statistic with one item from each of the ``r`` classes present,

.. math::

    \\hat U = \\frac{1}{\\prod_k n_k} \\sum_{j_1 \\in c_1, \\dots, j_r \\in c_r}
        w_{j_1} \\cdots w_{j_r} \\, h(s_{j_1}, \\dots, s_{j_r}),

so it is linear in the weight of each item. The *placement value* of an item ``i``
of class ``k`` is the normalised weight of the tuples through it,
``V_i = (d T / d w_i) / prod_{j != k} n_j`` (``T`` the weighted tuple count):
for two classes, the share of the other class that it beats, DeLong's
``V_10``/``V_01``. Every class's placement values average to ``U``. They come from
the same sorted pass as VUS: ``F_k(s)``, the normalised weight of the correctly
ordered chains of classes ``1 .. k-1`` ending below ``s`` (carried up the classes),
and ``B_k(s)``, that of the chains of classes ``k+1 .. r`` starting above ``s``
(carried down), give ``V_i = F_k(s_i) B_k(s_i)`` for an item whose score no
neighbouring class holds. Under ``ties="average"`` a tuple whose equal scores form
groups of sizes ``m_g`` counts ``prod_g 1 / m_g!`` (the ranking guide's ties); an item at a score that
classes ``a .. b`` around it all hold then also gets the chains that run through a
block of tied classes, ``F_a(s) B_b(s) prod_{m in [a, b], m != k} w_m(s) / n_m /
(b - a + 1)!``. Only scores held by two or more classes need that sum; they are few
unless the scores are rounded, and are handled together in one small dense array.

From the placement values, with weights as repeated items:

- **DeLong's variance** (DeLong, DeLong and Clarke-Pearson 1988, the structural
  components of a multi-sample U-statistic):
  ``Var(U) = sum_k S_k / n_k``, ``S_k = sum_{i in c_k} w_i (V_i - U)^2 / (n_k - 1)``;
  the covariance of two scorers of the same items is the same sum of products, which
  gives the paired comparison. For two classes this is DeLong's AUC variance, in
  ``O(n log n)`` as Sun and Xu (2014) compute it.
- **The exact jackknife**: removing one item of weight ``w`` from class ``k`` takes
  ``w V_i`` from the normalised tuple count and ``w`` from ``n_k``, so
  ``U_(i) = (n_k U - w V_i) / (n_k - w)``: BCa's leave-one-out values without
  recomputing the measure once per cell.

U_pairs, U_ovo and U_cons are functions of pairwise AUCs (class against class, or
the classes below a split against those above), whose placement values are the
weight of the other classes each cell beats (:func:`_beaten_blocks`). Each measure's
:class:`Influence` holds its derivative ``g_i = d estimate / d w_i`` per cell
(for VUS ``(V_i - U) / n_k``) and its exact leave-one-out values; the variance of
every one of them is :func:`structural_variance`, DeLong's within-class components
of the ``g_i`` plus what random class sizes add (zero for VUS and U_ovo).

Layer: statistics (5); reads the score table (3) and the ranking measures' merge
(4). The measures it knows are listed once, in ``_INFLUENCES``.
"""

import math
from typing import Callable, NamedTuple

import numpy as np

from .._blocks import _blocks

from .._score_table import (
    _MAX_CLASSES_TO_SCAN,
    _check_scores,
    _class_cells,
    _class_weights,
    _ClassOrder,
    _present_classes,
    _score_table,
    _sort_each_class,
)
from .._validation import check_scored_targets
from ..metrics._ranking import (
    _TIED_PAIR_CREDIT,
    _position_below,
    _split_aucs,
    u_cons_score,
    u_ovo_score,
    u_pairs_score,
    vus_score,
)
from ._influence import normal_interval, normal_pvalue
from ._resampling import DELONG, ScoreComparison, ScoreInterval, shared_computation, sharing


def _chains_up(scores, weights, ties):
    """Per class ``k`` and cell, ``F_k``: the normalised weight of the correctly
    ordered chains of classes ``0 .. k-1`` ending strictly below the cell's score
    (1 for class 0); and the dense arrays of the scores held by two neighbouring
    classes (see :func:`_shared_scores`), their ``F`` filled in.

    ``weights`` are per class, already divided by the class weights.
    """
    shared, at, dense_w = _shared_scores(scores, weights) if ties == "average" else (None,) * 3
    dense_f = None if shared is None else np.zeros_like(dense_w)
    before = [np.ones(len(scores[0]))]
    ends = weights[0].copy()
    for k in range(len(scores)):
        if k:
            up_to = np.zeros(len(ends) + 1)
            np.cumsum(ends, out=up_to[1:])
            below, _ = _position_below(scores[k - 1], scores[k])
            before.append(up_to[below])
            ends = before[k] * weights[k]
        if shared is None or not at[k][0].size:
            continue
        cells, rows = at[k]
        dense_f[rows, k] = before[k][cells]
        # A chain may end in a block of classes a .. k tied at the score: 1 / (k-a+1)!.
        block = dense_w[:, k].copy()
        tied_ends = np.zeros(len(shared))
        for a in range(k - 1, -1, -1):
            block *= dense_w[:, a] / (k - a + 1)
            if not block.any():
                break
            tied_ends += dense_f[:, a] * block
        ends[cells] += tied_ends[rows]
    return before, (shared, at, dense_w, dense_f)


def _shared_scores(scores, weights):
    """The scores that two neighbouring classes both hold (``shared``, increasing),
    for each class the cells at them and their rows in ``shared``, and the dense
    ``(n_shared, r)`` array of the normalised weight of every class at each (0 where
    a class does not hold it). None when no neighbours share a score."""
    held = [
        scores[k][_position_below(scores[k - 1], scores[k])[1]] for k in range(1, len(scores))
    ]
    shared = np.unique(np.concatenate(held)) if held else np.empty(0)
    if not shared.size:
        return None, None, None
    dense_w = np.zeros((len(shared), len(scores)))
    at = []
    for k, (s, w) in enumerate(zip(scores, weights)):
        rows = np.minimum(np.searchsorted(shared, s), len(shared) - 1)
        cells = np.flatnonzero(shared[rows] == s)
        at.append((cells, rows[cells]))
        dense_w[rows[cells], k] = w[cells]
    return shared, at, dense_w


def _mirrored(scores, weights):
    """The classes in reverse order with their scores negated: chains up the mirror
    are chains down the original."""
    return [-s[::-1] for s in scores[::-1]], [w[::-1] for w in weights[::-1]]


def vus_placements(table, ties="average"):
    """``(vus, placements)``: VUS of a :class:`ScoreTable` of the classes present and
    the placement value of every cell (one per unit of weight at that cell).

    ``placements`` follows the table's cells; the mean of a class's placement
    values, weighted by the cells' weights, is the VUS.
    """
    scores, raw = _class_cells(table)
    class_weights = _class_weights(table)
    weights = [w / n for w, n in zip(raw, class_weights)]
    up, (shared, at, dense_w, dense_up) = _chains_up(scores, weights, ties)
    down, (_, _, _, dense_down) = _chains_up(*_mirrored(scores, weights), ties)
    down = [d[::-1] for d in down[::-1]]
    placements = [f * b for f, b in zip(up, down)]
    if shared is not None:
        dense_down = dense_down[::-1, ::-1]  # back to increasing scores and classes
        r = len(scores)
        for k in range(r):
            cells, rows = at[k]
            if not cells.size:
                continue
            # Blocks a .. b of tied classes around k, the item's own weight left out.
            total = np.zeros(len(shared))
            left = np.ones(len(shared))
            for a in range(k, -1, -1):
                if a < k:
                    left = left * dense_w[:, a]
                if not left.any():
                    break
                right = np.ones(len(shared))
                for b in range(k, r):
                    if b > k:
                        right = right * dense_w[:, b]
                    if not right.any():
                        break
                    if a == b:
                        continue  # the untied chains, F_k B_k, are already counted
                    total += dense_up[:, a] * left * right * dense_down[:, b] / math.factorial(
                        b - a + 1
                    )
            placements[k][cells] += total[rows]
    vus = float(np.dot(weights[-1], placements[-1]))
    return vus, np.concatenate(placements)


def placements_in_order(order):
    """``(vus, sums, squares)`` of distinct unweighted scores from their
    :class:`_ClassOrder`: per class, the sum of its items' placement values and of
    their squares, which is all the variance needs (no table is built)."""
    in_order = order.in_order
    counts = order.counts.astype(np.float64)
    r = len(counts)
    up = _chain_scan(in_order, counts, range(r))
    down = _chain_scan(in_order[::-1], counts, range(r - 1, -1, -1))
    sums, squares = np.zeros(r), np.zeros(r)
    for k in range(r):
        v = up[k] * down[k][::-1]
        sums[k], squares[k] = v.sum(), v @ v
    return float(sums[-1] / counts[-1]), sums, squares


def _chain_scan(in_order, counts, classes):
    """``F`` of every item of each class in ``classes`` (taken in that order), its
    items in the order of ``in_order``: the scan of :func:`_vus_in_order`."""
    classes = list(classes)
    result = {classes[0]: np.ones(int(counts[classes[0]]))}
    ends = np.full(int(counts[classes[0]]), 1.0 / counts[classes[0]])
    in_previous = in_order == classes[0]
    for k in classes[1:]:
        up_to = np.zeros(len(ends) + 1)
        np.cumsum(ends, out=up_to[1:])
        in_class = in_order == k
        pair = np.flatnonzero(in_previous | in_class)
        below = np.flatnonzero(in_class[pair])
        del pair
        below -= np.arange(len(below))
        result[k] = up_to[below]
        ends = result[k] / counts[k]
        in_previous = in_class
    return result


def _class_of(table):
    return np.repeat(np.arange(len(table.classes)), np.diff(table.bounds))


def real_weights(table):
    """The cells' weights and the class weights as the data's own sums (the table
    holds them divided by ``2 ** weight_exponent``)."""
    cells = np.ldexp(table.weights.astype(np.float64), table.weight_exponent)
    return cells, np.ldexp(_class_weights(table), table.weight_exponent)


def _check_class_sizes(class_weights):
    if np.any(class_weights <= 1):
        raise ValueError(
            "DeLong's variance needs more than one item (a total weight above 1) in "
            f"every class; the class weights are {class_weights.tolist()}. Use "
            "method='bca' or 'percentile' on such data."
        )


class Influence(NamedTuple):
    """What the variance and the jackknife of a ranking measure read of its table."""

    estimate: float
    gradient: np.ndarray
    """Per cell, ``d estimate / d w``: the change per unit of weight added to it
    (weights as in the table, divided by ``2 ** weight_exponent``)."""
    leave_one_out: Callable
    """``leave_one_out(cells, unit_weights)``: the exact estimate with one unit of
    that weight left out of each of those cells; NaN where a class would empty."""


def influence(function, table, ties="average"):
    """The :class:`Influence` of a ranking measure on a table of the classes present."""
    return _INFLUENCES[function](table, ties)


def _has_placements(function):
    """Whether the influence of this measure function is known here.

    # registry: the ranking measures (record.reads == "scores" with a from_table
    # kernel), each a function of multi-sample U-statistics.
    """
    return function in _INFLUENCES


def _vus_influence(table, ties):
    """VUS: ``d U / d w_i = (V_i - U) / n_k`` and ``U_(i) = (n_k U - w V_i) / (n_k - w)``."""
    vus, placements = vus_placements(table, ties)
    of_cell = _class_weights(table)[_class_of(table)]

    def leave_one_out(cells, unit_weights):
        n = of_cell[cells]
        return _where_kept(n - unit_weights, n * vus - unit_weights * placements[cells])

    return Influence(vus, (placements - vus) / of_cell, leave_one_out)


def _where_kept(rest, numerator):
    """``numerator / rest``, NaN where nothing of the class is left (``rest <= 0``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(rest > 0, numerator / rest, np.nan)


def _beaten_blocks(table, ties):
    """``(k, block, l, won)`` for each class ``l``, other class ``k`` and block of
    ``k``'s cells (a slice of the table's cells): the weight of class ``l``'s items
    that each cell's score beats in class order (class ``l``'s items above it for ``l`` above
    the cell's class, below it for ``l`` below; a tie counting its credit). Read a
    block at a time, so that no array holds a value per cell and class."""
    credit = _TIED_PAIR_CREDIT[ties]
    scores, weights = _class_cells(table)
    r = len(scores)
    # Class l's cumulative weights, one class at a time (the other classes' blocks
    # read against it), so that they never exist for all the cells at once.
    for l in range(r):
        up_to = np.zeros(len(weights[l]) + 1)
        np.cumsum(weights[l], out=up_to[1:])
        for k in range(r):
            if k == l:
                continue
            for start, stop in _blocks(len(scores[k])):
                block = slice(table.bounds[k] + start, table.bounds[k] + stop)
                below, at_or_below = _weight_below_and_at(up_to, scores[l],
                                                          scores[k][start:stop])
                won = up_to[-1] - at_or_below if l > k else below.copy()
                at_or_below -= below
                at_or_below *= credit
                won += at_or_below
                yield k, block, l, won


def _weight_below_and_at(up_to, scores, mine):
    """``(below, at_or_below)``: a class's weight strictly below and at or below each
    of the sorted scores ``mine``, from its distinct sorted ``scores`` and their
    cumulative weights ``up_to`` (``np.searchsorted`` of both sides, by one merge)."""
    position, tied = _position_below(scores, mine)
    below = up_to[position]
    position[tied] += 1  # a class's cells hold distinct scores: one cell at each
    return below, up_to[position]


def _u_ovo_influence(table, ties):
    """U_ovo, the mean of the ``P = r (r-1) / 2`` class-pair AUCs ``A_kl``: an item of
    class ``k`` with ``D_i = sum_{l != k} (V^{kl}_i - A_kl)`` has
    ``d U / d w_i = D_i / (P n_k)`` and ``U_(i) = U - w D_i / (P (n_k - w))``.

    One array of a value per cell (the gradient, made in place), the shares read a
    block at a time: DeLong's interval at 10^6 scores stays below 3 times its inputs.
    """
    n = _class_weights(table)
    r = len(n)
    # A_kl: class k's mean share of class l beaten (the same for k < l and l < k);
    # each cell's summed shares, its own class's A_kl subtracted below.
    auc = np.zeros((r, r))
    gradient = np.zeros(len(table.scores))
    for k, block, l, won in _beaten_blocks(table, ties):
        won /= n[l]
        gradient[block] += won
        auc[k, l] += table.weights[block] @ won
    auc /= n[:, None]
    pairs = r * (r - 1) / 2
    estimate = float(auc[np.triu_indices(r, 1)].sum() / pairs)
    for k, cells in enumerate(_class_slices(table)):
        gradient[cells] -= auc[k].sum()  # D_i
        gradient[cells] /= pairs * n[k]

    def leave_one_out(cells, unit_weights):
        n_k = n[_class_of_cells(table, cells)]
        deviation = gradient[cells] * pairs * n_k
        return estimate - _where_kept(n_k - unit_weights, unit_weights * deviation) / pairs

    return Influence(estimate, gradient, leave_one_out)


def _class_slices(table):
    """The table's cells of each class, as slices."""
    return [slice(start, stop) for start, stop in zip(table.bounds[:-1], table.bounds[1:])]


def _class_of_cells(table, cells):
    """The class of each of these cells of the table."""
    return np.searchsorted(table.bounds, cells, side="right") - 1


def _u_pairs_influence(table, ties):
    """U_pairs ``= S / Q``, ``S`` the weight of the correctly ordered pairs and
    ``Q = sum_{k<l} n_k n_l``: an item of class ``k`` in ``c_i`` ordered pairs (by
    weight) of the ``t_k = N - n_k`` it is in has ``d U / d w_i = (c_i - U t_k) / Q``
    and ``U_(i) = (S - w c_i) / (Q - w t_k)``.

    As for U_ovo, one array of a value per cell: ``c_i``, made the gradient in place.
    """
    n = _class_weights(table)
    gradient = np.zeros(len(table.scores))
    for _, block, _, won in _beaten_blocks(table, ties):
        gradient[block] += won  # c_i
    pairs = (n.sum() ** 2 - n @ n) / 2
    # Each ordered pair is counted once from each end.
    total = table.weights @ gradient / 2
    estimate = float(total / pairs)
    others = n.sum() - n  # t_k
    for k, cells in enumerate(_class_slices(table)):
        gradient[cells] -= estimate * others[k]
    gradient /= pairs

    def leave_one_out(cells, unit_weights):
        k = _class_of_cells(table, cells)
        ordered = gradient[cells] * pairs + estimate * others[k]
        with np.errstate(divide="ignore", invalid="ignore"):
            values = (total - unit_weights * ordered) / (pairs - unit_weights * others[k])
        return np.where(n[k] - unit_weights > 0, values, np.nan)

    return Influence(estimate, gradient, leave_one_out)


def _u_cons_influence(table, ties):
    """U_cons, the mean of the ``r - 1`` split AUCs ``A_j`` (classes ``<= j`` against
    those above, of weights ``L_j`` and ``H_j``): an item beating ``m_j`` of the
    other side's weight has ``V^j = m_j / (other side)`` and, on side ``s_j`` of
    weight ``|s_j|``, ``d U / d w_i = sum_j (V^j - A_j) / |s_j| / (r - 1)`` and
    ``A_j`` left out ``= (|s_j| A_j - w V^j) / (|s_j| - w)``.

    Computed for one block of a class's cells and one split at a time
    (:func:`_split_shares`), so that no array holds a value per cell and split: at
    10^7 scores the interval's peak memory stays below 3 times its inputs. One pass
    over the shares: the gradient centres them on the measure's own split AUCs
    (from its rank sums), while the estimate is their lower sides' mean, so that the
    caller's check against the measure still tests the placement values.
    """
    n = _class_weights(table)
    r = len(n)
    lower = np.cumsum(n)[:-1]
    upper = n.sum() - lower
    measured = _split_aucs(table, ties)
    auc = np.zeros(r - 1)  # A_j: the lower side's mean share of the upper side beaten
    gradient = np.zeros(len(table.scores))
    for k, block, j, share in _split_shares(table, ties, n):
        if k <= j:
            auc[j] += table.weights[block] @ share
        share -= measured[j]
        share /= lower[j] if k <= j else upper[j]
        gradient[block] += share
    gradient /= r - 1
    auc /= lower
    estimate = float(auc.mean())

    def leave_one_out(cells, unit_weights):
        # The asked cells in table order, so that each block finds its own by a search.
        order = np.argsort(cells, kind="stable")
        in_order = cells[order]
        left = np.zeros(len(cells))
        for k, block, j, share in _split_shares(table, ties, n):
            at = order[np.searchsorted(in_order, block.start):
                       np.searchsorted(in_order, block.stop)]
            w = unit_weights[at]
            side = lower[j] if k <= j else upper[j]
            with np.errstate(divide="ignore", invalid="ignore"):
                left[at] += (side * auc[j] - w * share[cells[at] - block.start]) / (side - w)
        of_cell = np.searchsorted(table.bounds, cells, side="right") - 1
        with np.errstate(invalid="ignore"):
            return np.where(n[of_cell] - unit_weights > 0, left / (r - 1), np.nan)

    return Influence(estimate, gradient, leave_one_out)


def _split_shares(table, ties, n):
    """``(k, block, j, share)`` for each class ``k``, block of its cells (a slice of the
    table's cells) and split ``j``: the share of the other side of split ``j`` that
    each cell beats (``V^j``), a tie counting its credit. The weight beaten is summed
    over the other side's classes one at a time, outward from ``k`` (additions only),
    and the cells are read a block at a time, so the temporaries stay small."""
    credit = _TIED_PAIR_CREDIT[ties]
    scores, weights = _class_cells(table)
    r = len(scores)
    lower = np.cumsum(n)[:-1]
    upper = n.sum() - lower
    cumulative = []
    for l in range(r):
        up_to = np.zeros(len(weights[l]) + 1)
        np.cumsum(weights[l], out=up_to[1:])
        cumulative.append(up_to)

    def beaten(mine, k, l):
        # Class l's weight that the scores ``mine`` of class k beat in class order.
        up_to = cumulative[l]
        below, tied = _weight_below_and_at(up_to, scores[l], mine)
        won = up_to[-1] - tied if l > k else below.copy()
        tied -= below
        tied *= credit
        won += tied
        return won

    for k in range(r):
        for start, stop in _blocks(len(scores[k])):
            block = slice(table.bounds[k] + start, table.bounds[k] + stop)
            mine = scores[k][start:stop]
            # Splits j >= k put k below: the upper side is the classes above j.
            won = np.zeros(stop - start)
            for j in range(r - 2, k - 1, -1):
                won += beaten(mine, k, j + 1)
                yield k, block, j, won / upper[j]
            # Splits j < k put k above: the lower side is the classes up to j.
            won = np.zeros(stop - start)
            for j in range(k):
                won += beaten(mine, k, j)
                yield k, block, j, won / lower[j]


_INFLUENCES = {
    vus_score: _vus_influence,
    u_ovo_score: _u_ovo_influence,
    u_pairs_score: _u_pairs_influence,
    u_cons_score: _u_cons_influence,
}


def structural_variance(codes, weights, gradient, class_weights):
    """The variance of a ranking measure from each item's (or cell's) class code,
    weight (as repeated items) and ``d estimate / d w``, all as the data's own sums.

    Within each class ``k``, DeLong's structural component
    ``n_k / (n_k - 1) sum_{i in k} w_i (g_i - g_k)^2`` (``g_k`` the class's weighted
    mean of the ``g_i``); across classes ``sum_k n_k g_k^2``, what random class sizes
    add (zero for VUS and U_ovo, functions of the class-conditional distributions
    alone). For two classes this is DeLong's AUC variance ``S_10 / m + S_01 / n``.
    """
    _check_class_sizes(class_weights)
    r = len(class_weights)
    mean = np.bincount(codes, weights * gradient, minlength=r) / class_weights
    centred = gradient - mean[codes]
    within = np.bincount(codes, weights * centred**2, minlength=r)
    return float(np.sum(class_weights / (class_weights - 1) * within
                        + class_weights * mean**2))


def table_variance(table, gradient):
    """:func:`structural_variance` of the cells of a table, read class by class (its
    cells are grouped by class), so that the temporaries hold one class's cells."""
    n = np.ldexp(_class_weights(table), table.weight_exponent)
    _check_class_sizes(n)
    variance = 0.0
    for k, (start, stop) in enumerate(zip(table.bounds[:-1], table.bounds[1:])):
        cells = np.ldexp(table.weights[start:stop].astype(np.float64), table.weight_exponent)
        g = np.ldexp(gradient[start:stop], -table.weight_exponent)
        mean = (cells @ g) / n[k]
        g -= mean
        g *= g
        variance += n[k] / (n[k] - 1) * (cells @ g) + n[k] * mean**2
    return float(variance)


def delong_variance_in_order(counts, sums, squares, vus):
    """The variance of VUS from per-class sums of the placement values and of their
    squares (unit weights): ``sum_k S_k / n_k``."""
    n = counts.astype(np.float64)
    _check_class_sizes(n)
    # sum_i (V_i - U)^2 = sum V^2 - 2 U sum V + n U^2, with sum V = n U.
    s = squares - 2 * vus * sums + n * vus**2
    return float(np.sum(np.maximum(s, 0.0) / (n - 1) / n))


def item_values(table, per_cell, codes, y_score):
    """A per-cell value for every item, from its class code (among the table's
    classes) and its score: the value of the cell it fell in.

    Each class's items are sorted by score and merged into its cells
    (:func:`_position_below`): several times faster than a binary search per item.
    """
    result = np.empty(len(codes))
    for k in range(len(table.classes)):
        items = np.flatnonzero(codes == k)
        scores = y_score[items]
        order = np.argsort(scores)
        cell, _ = _position_below(table.scores[table.bounds[k]:table.bounds[k + 1]],
                                  scores[order])
        del scores
        cell += table.bounds[k]
        result[items[order]] = per_cell[cell]
    return result


# --- The doors: score_interval / compare_scores with method="delong", and BCa ---


def _check_delong(spec, class_values, groups, method):
    """Refuse what DeLong's variance does not cover, saying what to use instead."""
    if not _has_placements(spec.record.function):
        raise ValueError(
            f"method={method!r} gives the variance of the ranking measures (VUS, U_pairs, "
            f"U_ovo, U_cons; ROC AUC for two classes) from their placement values; "
            f"{spec.name} has none. Use method='normal' (any measure), 'bca', "
            "'percentile' or 'basic'."
        )
    if groups is not None:
        raise ValueError(
            f"method={method!r} on a ranking measure treats the items as independent; "
            "with groups use "
            "method='bca' or 'percentile', which resample whole groups."
        )
    if class_values is not None:
        raise ValueError(
            f"{spec.name} takes no class_values; leave it out (the measure has no class "
            "values form), or choose a measure that takes it."
        )


def _check_same_value(placed, measured, name):
    """The placement values must give back the measure's own value."""
    if not np.isclose(placed, measured, rtol=1e-9, atol=1e-12):
        raise RuntimeError(
            f"{name}: the placement values give {placed!r} but the measure gives "
            f"{measured!r}; please report this bug."
        )


def delong_interval(spec, y_true, y_score, labels, class_values, sample_weight, groups,
                    confidence_level, method="delong"):
    """The :class:`ScoreInterval` of a ranking measure by DeLong's variance."""
    _check_delong(spec, class_values, groups, method)
    ties = spec.params.get("ties", "average")
    function = spec.record.function
    if sharing() and function is not vus_score:
        # In a report the system's item gradients serve its comparisons too: made
        # once (delong_comparison reads the same), not once more here. (VUS of
        # distinct unweighted scores has its cheaper path below.)
        codes, weights, gradient, class_weights, estimate = _shared_gradients(
            spec, y_true, y_score, labels, sample_weight)
        variance = structural_variance(codes, weights, gradient, class_weights)
        return _delong_score_interval(estimate, variance, confidence_level, method)
    table = _score_table(y_true, y_score, labels, sample_weight, spec.name,
                         class_order_up_to=_MAX_CLASSES_TO_SCAN if function is vus_score else 0)
    if isinstance(table, _ClassOrder):
        # Distinct unweighted scores: no table, no ties; sums per class suffice.
        estimate, sums, squares = placements_in_order(table)
        variance = delong_variance_in_order(table.counts, sums, squares, estimate)
    else:
        found = influence(function, table, ties)
        estimate, variance = found.estimate, table_variance(table, found.gradient)
        del found  # its value per cell need not wait for the check's own temporaries
    _check_same_value(estimate, spec.from_table(table), spec.name)
    return _delong_score_interval(estimate, variance, confidence_level, method)


def _delong_score_interval(estimate, variance, confidence_level, method):
    standard_error = float(np.sqrt(variance))
    return ScoreInterval(
        estimate=estimate,
        confidence_interval=normal_interval(estimate, standard_error, confidence_level,
                                             (0.0, 1.0)),
        standard_error=standard_error,
        bootstrap_distribution=np.empty(0),
        method=method,
        confidence_level=confidence_level,
    )


def _item_gradients(spec, y_true, y_score, labels, sample_weight):
    """Per kept item: class code, weight and ``d estimate / d w`` (the data's own
    weights); the class weights; the estimate."""
    y_score = _check_scores(y_score)
    classes, codes, y_score, weights, exponent = check_scored_targets(
        y_true, y_score, labels=labels, sample_weight=sample_weight, measure=spec.name
    )
    table = _present_classes(
        _sort_each_class(classes, codes, y_score, weights, exponent), spec.name
    )
    found = influence(spec.record.function, table, spec.params.get("ties", "average"))
    _check_same_value(found.estimate, spec.from_table(table), spec.name)
    present = np.isin(classes, table.classes)
    kept = present[codes]
    codes = (np.cumsum(present) - 1)[codes[kept]]
    gradient = np.ldexp(item_values(table, found.gradient, codes, y_score[kept]), -exponent)
    item_weights = np.ones(len(codes)) if weights is None else np.ldexp(
        weights[kept].astype(np.float64), exponent)
    return codes, item_weights, gradient, real_weights(table)[1], found.estimate


def _shared_gradients(spec, y_true, y_score, labels, sample_weight):
    """:func:`_item_gradients`, made once per system and measure in a report (for its
    interval and every comparison it is in: shared_computation)."""
    return shared_computation(
        "placements", spec, (y_true, y_score, labels, sample_weight),
        lambda: _item_gradients(spec, y_true, y_score, labels, sample_weight))


def delong_comparison(spec, y_true, y_score_a, y_score_b, labels, class_values,
                      sample_weight, groups, confidence_level, method="delong"):
    """The :class:`ScoreComparison` of two scorers of the same items by DeLong's
    test: ``U_a - U_b`` over ``sqrt(Var_a + Var_b - 2 Cov_ab)``, two-sided."""
    _check_delong(spec, class_values, groups, method)
    codes, weights, gradient_a, class_weights, estimate_a = _shared_gradients(
        spec, y_true, y_score_a, labels, sample_weight)
    *_, gradient_b, _, estimate_b = _shared_gradients(
        spec, y_true, y_score_b, labels, sample_weight)
    # The variance of the difference is that of the difference of the gradients.
    variance = structural_variance(codes, weights, gradient_a - gradient_b, class_weights)
    standard_error = float(np.sqrt(variance))
    estimate = estimate_a - estimate_b
    pvalue = normal_pvalue(estimate, standard_error)
    return ScoreComparison(
        estimate=estimate,
        confidence_interval=normal_interval(estimate, standard_error, confidence_level,
                                             (-1.0, 1.0)),
        standard_error=standard_error,
        bootstrap_distribution=np.empty(0),
        method=method,
        confidence_level=confidence_level,
        estimate_a=estimate_a,
        estimate_b=estimate_b,
        greater_is_better=spec.greater_is_better,
        pvalue=pvalue,
        null_distribution=None,
        test=DELONG,
    )


def jackknife_by_placements(spec, table, units, positions_to_cells):
    """BCa's leave-one-out values of every unit cell from the placement values, or
    None when a unit is not one item (groups) or a class is missing from the data.

    ``table`` is the score table of all the units (``units.total``),
    ``positions_to_cells`` maps a position of the intermediate to its table cell.
    A unit that is its class's last item gets NaN here; the caller computes those.
    """
    function = spec.record.function
    if not _has_placements(function):
        return None
    rows = units.contributions
    if np.any(np.diff(rows.indptr) != 1) or np.any(_class_weights(table) <= 0):
        return None
    found = influence(function, table, spec.params.get("ties", "average"))
    return found.leave_one_out(positions_to_cells(rows.indices), rows.data)
