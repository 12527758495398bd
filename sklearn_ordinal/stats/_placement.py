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
groups of sizes ``m_g`` counts ``prod_g 1 / m_g!`` (SPEC 3); an item at a score that
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
"""

import math

import numpy as np
from scipy.special import ndtr, ndtri

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
from ..metrics._ranking import _position_below, vus_score
from ._resampling import ConfidenceInterval, ScoreComparison, ScoreInterval


def _has_placements(function):
    """Whether the placement values of this measure function are known here.

    # registry: the ranking measures whose kernel is a multi-sample U-statistic with
    # placement values (today VUS; AUC is VUS of two classes).
    """
    return function is vus_score


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


def delong_variance(table, placements, vus):
    """``Var(VUS) = sum_k S_k / n_k`` from a table's cells and their placement
    values, weights as repeated items."""
    cells, n = real_weights(table)
    _check_class_sizes(n)
    deviation = placements - vus
    s = np.bincount(_class_of(table), weights=cells * deviation**2, minlength=len(n))
    return float(np.sum(s / (n - 1) / n))


def delong_variance_in_order(counts, sums, squares, vus):
    """:func:`delong_variance` from per-class sums of the placement values and of
    their squares (unit weights)."""
    n = counts.astype(np.float64)
    _check_class_sizes(n)
    # sum_i (V_i - U)^2 = sum V^2 - 2 U sum V + n U^2, with sum V = n U.
    s = squares - 2 * vus * sums + n * vus**2
    return float(np.sum(np.maximum(s, 0.0) / (n - 1) / n))


def item_placements(table, placements, codes, y_score):
    """The placement value of every item, from its class code (among the table's
    classes) and its score: the value of the cell it fell in."""
    result = np.empty(len(codes))
    for k in range(len(table.classes)):
        items = np.flatnonzero(codes == k)
        lo, hi = table.bounds[k], table.bounds[k + 1]
        result[items] = placements[lo + np.searchsorted(table.scores[lo:hi], y_score[items])]
    return result


def delong_covariance(codes, weights, class_weights, deviations_a, deviations_b):
    """``Cov(U_a, U_b) = sum_k S_k^{ab} / n_k`` of two scorers of the same items, from
    each item's class code, weight and placement deviations ``V_i - U``."""
    _check_class_sizes(class_weights)
    s = np.bincount(codes, weights=weights * deviations_a * deviations_b,
                    minlength=len(class_weights))
    return float(np.sum(s / (class_weights - 1) / class_weights))


def leave_one_out(table, placements, vus, cell, unit_weight):
    """The exact VUS with one unit of weight ``unit_weight`` left out of table cell
    ``cell`` (arrays): ``(n_k U - w V_i) / (n_k - w)``, all weights as in the table
    (divided by ``2 ** weight_exponent``). NaN where the unit is its class's last."""
    n = _class_weights(table)[_class_of(table)[cell]]
    rest = n - unit_weight
    with np.errstate(divide="ignore", invalid="ignore"):
        values = (n * vus - unit_weight * placements[cell]) / rest
    return np.where(rest > 0, values, np.nan)


# --- The doors: score_interval / compare_scores with method="delong", and BCa ---


def _check_delong(spec, class_values, groups):
    """Refuse what DeLong's variance does not cover, saying what to use instead."""
    if not _has_placements(getattr(spec.func, "func", spec.func)):
        raise ValueError(
            f"method='delong' gives the variance of VUS (ROC AUC for two classes) from its "
            f"placement values; {spec.name} has none here. Use method='bca' (default), "
            "'percentile' or 'basic'."
        )
    if groups is not None:
        raise ValueError(
            "method='delong' treats the items as independent; with groups use "
            "method='bca' or 'percentile', which resample whole groups."
        )
    if class_values is not None:
        raise ValueError(
            f"{spec.name} takes no class_values; leave it out (the measure has no class "
            "values form), or choose a measure that takes it."
        )


def _normal_interval(estimate, standard_error, confidence_level, bounds):
    """``estimate -+ z se``, clipped to the range of the measure (or difference)."""
    z = ndtri(0.5 + confidence_level / 2)
    low, high = np.clip([estimate - z * standard_error, estimate + z * standard_error],
                        *bounds)
    return ConfidenceInterval(float(low), float(high))


def _check_same_value(placed, measured, name):
    if not np.isclose(placed, measured, rtol=1e-9, atol=1e-12):
        raise RuntimeError(
            f"{name}: the placement values give {placed!r} but the measure gives "
            f"{measured!r}; please report this bug."
        )


def delong_interval(spec, y_true, y_score, labels, class_values, sample_weight, groups,
                    confidence_level):
    """The :class:`ScoreInterval` of VUS by DeLong's variance, in ``O(n log n)``."""
    _check_delong(spec, class_values, groups)
    ties = spec.keywords.get("ties", "average")
    table = _score_table(y_true, y_score, labels, sample_weight, spec.name,
                         class_order_up_to=_MAX_CLASSES_TO_SCAN)
    if isinstance(table, _ClassOrder):
        # Distinct unweighted scores: no table, no ties; sums per class suffice.
        estimate, sums, squares = placements_in_order(table)
        variance = delong_variance_in_order(table.counts, sums, squares, estimate)
    else:
        estimate, placements = vus_placements(table, ties)
        variance = delong_variance(table, placements, estimate)
    _check_same_value(estimate, spec.from_table(table), spec.name)
    standard_error = float(np.sqrt(variance))
    return ScoreInterval(
        estimate=estimate,
        confidence_interval=_normal_interval(estimate, standard_error, confidence_level,
                                             (0.0, 1.0)),
        standard_error=standard_error,
        bootstrap_distribution=np.empty(0),
        method="delong",
        confidence_level=confidence_level,
    )


def _item_deviations(spec, y_true, y_score, labels, sample_weight, ties):
    """Per kept item: class code, weight and placement deviation ``V_i - U``; the
    class weights; ``U``."""
    y_score = _check_scores(y_score)
    classes, codes, y_score, weights, exponent = check_scored_targets(
        y_true, y_score, labels=labels, sample_weight=sample_weight, measure=spec.name
    )
    table = _present_classes(
        _sort_each_class(classes, codes, y_score, weights, exponent), spec.name, stacklevel=5
    )
    estimate, placements = vus_placements(table, ties)
    _check_same_value(estimate, spec.from_table(table), spec.name)
    present = np.isin(classes, table.classes)
    kept = present[codes]
    codes = (np.cumsum(present) - 1)[codes[kept]]
    deviations = item_placements(table, placements, codes, y_score[kept]) - estimate
    item_weights = np.ones(len(codes)) if weights is None else np.ldexp(
        weights[kept].astype(np.float64), exponent)
    return codes, item_weights, real_weights(table)[1], deviations, estimate


def delong_comparison(spec, y_true, y_score_a, y_score_b, labels, class_values,
                      sample_weight, groups, confidence_level):
    """The :class:`ScoreComparison` of two scorers of the same items by DeLong's
    test: ``U_a - U_b`` over ``sqrt(Var_a + Var_b - 2 Cov_ab)``, two-sided."""
    _check_delong(spec, class_values, groups)
    ties = spec.keywords.get("ties", "average")
    a = _item_deviations(spec, y_true, y_score_a, labels, sample_weight, ties)
    b = _item_deviations(spec, y_true, y_score_b, labels, sample_weight, ties)
    codes, weights, class_weights = a[0], a[1], a[2]
    difference = a[3] - b[3]
    variance = delong_covariance(codes, weights, class_weights, difference, difference)
    standard_error = float(np.sqrt(variance))
    estimate = a[4] - b[4]
    if standard_error > 0:
        pvalue = float(2 * ndtr(-abs(estimate) / standard_error))
    else:
        pvalue = 1.0 if estimate == 0 else 0.0
    return ScoreComparison(
        estimate=estimate,
        confidence_interval=_normal_interval(estimate, standard_error, confidence_level,
                                             (-1.0, 1.0)),
        standard_error=standard_error,
        bootstrap_distribution=np.empty(0),
        method="delong",
        confidence_level=confidence_level,
        estimate_a=a[4],
        estimate_b=b[4],
        greater_is_better=spec.greater_is_better,
        pvalue=pvalue,
        null_distribution=np.empty(0),
    )


def jackknife_by_placements(spec, table, units, positions_to_cells):
    """BCa's leave-one-out VUS of every unit cell from the placement values, or None
    when a unit is not one item (groups) or a class is missing from the data.

    ``table`` is the score table of all the units (``units.total``),
    ``positions_to_cells`` maps a position of the intermediate to its table cell.
    A unit that is its class's last item gets NaN here; the caller computes those.
    """
    if not _has_placements(getattr(spec.func, "func", spec.func)):
        return None
    rows = units.contributions
    if np.any(np.diff(rows.indptr) != 1) or np.any(_class_weights(table) <= 0):
        return None
    estimate, placements = vus_placements(table, spec.keywords.get("ties", "average"))
    cells = positions_to_cells(rows.indices)
    return leave_one_out(table, placements, estimate, cells, rows.data)
