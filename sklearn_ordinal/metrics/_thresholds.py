r"""Cut points on one real-valued score per item, chosen for an ordinal measure.

A model that gives one real score per item (a regressor's prediction, an ordinal
model's ``decision_function``, the expected class under ``predict_proba``) becomes a
classifier of K ordered classes through K - 1 cut points ``t_1 <= ... <= t_{K-1}``:
the predicted class of a score ``s`` is the number of cut points strictly below it.
Every such classifier puts the items, sorted by score, into consecutive runs, one per
class; so only the m + 1 positions between the m distinct scores matter, and a
choice of cut points is a non-decreasing vector of K - 1 such positions.

Two searches, chosen by the measure's registry record:

- *Exact*, for a measure that is a weighted sum over items of a cost of (true class,
  predicted class) given the gold standard (``item_costs`` of its record): dynamic
  programming over the sorted distinct scores, O(m K) after one sort.
- *Coordinate ascent*, for every other label measure: each step moves one cut point
  to its best position between its neighbours, scoring all those positions at once;
  started from rounding, from matching the gold class proportions and from the exact
  optimum of a related item-additive measure; repeated until no cut point moves.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils import column_or_1d

from .._compat import validate_params
from .._confusion import OrdinalConfusion
from .._validation import (
    _SCORER_VALUES_ADVICE,
    _class_values,
    check_scored_targets,
    ordered_classes,
)
from ._registry import resolve

# Candidate positions of one cut point scored per kernel call on the generic path:
# a stack of (block, K, K) confusion matrices stays near 16 MB for K = 10.
_BLOCK = 2**14

# Items gathered per call when a column of prefix sums is built: the index
# conversion of one block (8 bytes an item) stays at 512 KB.
_GATHER_BLOCK = 2**16

# A move must gain more than this (relative) to count, so that two positions equal up
# to rounding never swap back and forth.
_RTOL = 1e-12
_MAX_SWEEPS = 200


# --- The sorted scores ---------------------------------------------------------------


class _SortedTask:
    """The items sorted by score, and the m distinct scores among them.

    Prefix sums over the sorted items are taken at the first item of each distinct
    score (``starts``, of length m + 1 with the item count last), so that a run of
    tied scores is never split.
    """

    def __init__(self, codes, scores, weights, n_classes):
        # Any sort: tied items go to one class together, so their order is moot.
        order = np.argsort(scores)
        sorted_scores = scores[order]
        new = np.empty(len(order), dtype=bool)
        new[:1] = True
        np.not_equal(sorted_scores[1:], sorted_scores[:-1], out=new[1:])
        self.scores = sorted_scores if new.all() else sorted_scores[new]
        self.starts = None if new.all() else np.append(np.flatnonzero(new), len(order))
        # The sorted classes in the smallest integer type (one byte for K <= 256): the
        # dynamic programme's memory is per item.
        self.codes = codes.astype(np.min_scalar_type(max(n_classes - 1, 0)))[order]
        self.weights = None if weights is None else weights[order]
        self.n_classes = n_classes
        self.class_weights = np.bincount(codes, weights=weights, minlength=n_classes).astype(
            np.float64
        )

    @property
    def m(self):
        return len(self.scores)

    def column_prefix(self, per_class, out=None):
        """``P[g] = sum of w_d per_class[y_d]`` over the items of the first g distinct
        scores (shape ``(m + 1,)``): the prefix sums of one column of ``W @ C``.

        ``out``: an array of shape ``(m + 1,)`` to write into, so that a caller taking
        one column after another reuses one buffer (no item-sized temporaries when
        the scores are distinct).
        """
        full = out if out is not None and self.starts is None else np.empty(len(self.codes) + 1)
        self.running_sums(per_class, 0, len(self.codes), full)
        if self.starts is None:
            return full
        return np.take(full, self.starts, out=out, mode="clip")

    def running_sums(self, per_class, first, last, out=None):
        """``out[i] = sum of w_d per_class[y_d]`` over the sorted items
        ``first .. first + i - 1`` (shape ``(last - first + 1,)``)."""
        out = np.empty(last - first + 1) if out is None else out
        out[0] = 0.0
        per_class = np.asarray(per_class, dtype=np.float64)
        # In blocks: take turns one-byte codes into intp indices, 8 bytes an item if
        # done at once. mode="clip": with the default "raise", take copies its output.
        for start in range(first, last, _GATHER_BLOCK):
            stop = min(start + _GATHER_BLOCK, last)
            np.take(per_class, self.codes[start:stop],
                    out=out[1 + start - first:1 + stop - first], mode="clip")
        if self.weights is not None:
            np.multiply(out[1:], self.weights[first:last], out=out[1:])
        np.cumsum(out[1:], out=out[1:])
        return out

    @cached_property
    def prefix(self):
        """``prefix[i, g]``: weight of true class i among the first g distinct scores."""
        return np.array([self.column_prefix(row) for row in np.eye(self.n_classes)])

    @property
    def sizes(self):
        """Weight of the items of the first g distinct scores (computed on each use:
        an item-sized array kept for one starting point only)."""
        return self.column_prefix(np.ones(self.n_classes))

    def confusion(self, boundaries):
        """``M[i, j]`` (true i, predicted j) when class j holds the distinct scores
        ``boundaries[j - 1] <= g < boundaries[j]``: one count per class's run of items,
        no item-sized temporary."""
        ends = np.asarray(boundaries)
        if self.starts is not None:
            ends = self.starts[ends]
        k = self.n_classes
        edges = np.concatenate([[0], ends, [len(self.codes)]])
        matrix = np.empty((k, k))
        for j, (lo, hi) in enumerate(zip(edges[:-1], edges[1:])):
            weights = None if self.weights is None else self.weights[lo:hi]
            matrix[:, j] = np.bincount(self.codes[lo:hi], weights=weights, minlength=k)
        return matrix

    def cut_points(self, boundaries):
        """Cut points of the boundaries: midway between the two distinct scores around a
        boundary inside, -inf before the first score and +inf after the last."""
        boundaries = np.asarray(boundaries, dtype=np.intp)
        inside = (boundaries > 0) & (boundaries < self.m)
        cuts = np.where(boundaries == 0, -np.inf, np.inf)
        below = self.scores[boundaries[inside] - 1]
        above = self.scores[boundaries[inside]]
        middle = below + (above - below) / 2
        # Adjacent floats have no float between them: the lower one still splits them.
        cuts[inside] = np.where(middle < above, middle, below)
        return cuts

    def boundaries_of(self, cut_points):
        """How many distinct scores lie at or below each cut point."""
        return np.searchsorted(self.scores, cut_points, side="right")


# --- Exact optimum of an item-additive measure ----------------------------------------


def _exact_boundaries(task, gain):
    r"""The boundaries maximising ``sum_items gain[true, predicted]``.

    With ``S_j(g)`` the prefix sums over the first g distinct scores of the cost of
    putting them into class j (``cost = -gain``), the least cost of the first g
    distinct scores in classes ``<= j`` is
    :math:`f_j(g) = S_j(g) + \min_{g' \le g} (f_{j-1}(g') - S_j(g'))`, a cumulative
    minimum: O(m K) after the sort. Each ``S_j`` is one column of the (items, K) x
    (K, K) product, taken as a gather of ``cost[:, j]`` by the sorted true classes and
    a cumulative sum, one class at a time into one buffer (no (m, K) array).

    The traceback keeps, per class, one byte per distinct score: whether the
    candidate there is a new strict running minimum. The argmin of a prefix (its
    first minimum, as ``np.argmin``) is the last such record in it. Peak memory:
    three float buffers and K - 1 bytes per distinct score.
    """
    n_classes, size = task.n_classes, task.m + 1
    cost = -np.asarray(gain, dtype=np.float64)
    best = task.column_prefix(cost[:, 0], out=np.empty(size))
    sums, candidate = np.empty(size), np.empty(size)
    records = np.empty((max(n_classes - 1, 0), size), dtype=bool)
    for j in range(1, n_classes):
        task.column_prefix(cost[:, j], out=sums)
        # candidate[g] = f_{j-1}(g) - S_j(g)
        np.subtract(best, sums, out=candidate)
        np.minimum.accumulate(candidate, out=best)
        record = records[j - 1]
        record[0] = True
        np.less(candidate[1:], best[:-1], out=record[1:])
        best += sums
    del best, sums, candidate
    boundaries = np.empty(n_classes - 1, dtype=np.intp)
    end = task.m
    for j in range(n_classes - 1, 0, -1):
        # The last record at or before ``end``: argmax of the reversed view finds it
        # without a copy.
        end = end - int(np.argmax(records[j - 1][end::-1]))
        boundaries[j - 1] = end
    return boundaries


# --- Coordinate ascent for any label measure ------------------------------------------


class _KappaObjective:
    """Cohen's kappa of every position of one cut point in O(1) each.

    Kappa is ``1 - sum(W O) / sum(W E)``. Moving cut point t between its neighbours
    (the distinct scores ``lo..hi``) changes only columns t and t + 1 of the
    confusion matrix ``O``: the observed disagreement ``sum(W O)`` changes by the
    running sums, over the items of ``lo..hi``, of ``w W[y, t]`` and ``w W[y, t + 1]``,
    and the chance disagreement ``sum(W E) = sum_j m_j a_j`` (``m_j`` the predicted
    class weights, ``a = n_true @ W / N``) by the running item weights. Those sums
    are taken over the items between the neighbours only, and the other classes'
    parts from the confusion matrix of the current cut points: nothing item-sized is
    kept between steps (K prefix arrays would cost 8 K bytes an item).
    """

    wide = False

    def __init__(self, task, disagreement):
        self.task, self.disagreement = task, disagreement
        self.chance_rate = task.class_weights @ disagreement / task.class_weights.sum()

    def gains(self, boundaries, t, positions):
        task, rate, weights = self.task, self.chance_rate, self.disagreement
        matrix = task.confusion(boundaries)
        rest = [j for j in range(task.n_classes) if j not in (t, t + 1)]
        # The other classes' parts, from the confusion matrix of the cut points.
        observed_rest = float(sum(matrix[:, j] @ weights[:, j] for j in rest))
        chance_rest = float(sum(matrix[:, j].sum() * rate[j] for j in rest))
        ends = np.concatenate([[0], boundaries, [task.m]])
        first, last = int(ends[t]), int(ends[t + 2])
        at = np.asarray(positions, dtype=np.intp)
        if task.starts is not None:
            first, last, at = int(task.starts[first]), int(task.starts[last]), task.starts[at]
        at = at - first
        # Class t holds the items first .. p - 1 of the range, class t + 1 the rest.
        observed = task.running_sums(weights[:, t], first, last)[at]
        running = task.running_sums(weights[:, t + 1], first, last)
        observed += running[-1] - running[at] + observed_rest
        running = task.running_sums(np.ones(task.n_classes), first, last)
        size = running[at]
        chance = size * (rate[t] - rate[t + 1]) + (running[-1] * rate[t + 1] + chance_rest)
        del running
        # No expected disagreement: kappa is undefined, 0 as the measure returns it.
        ratio = np.divide(observed, chance, out=np.ones_like(chance), where=chance > 0)
        return 1.0 - ratio


class _StackObjective:
    """Any label measure, on stacks of confusion matrices in blocks.

    Its steps are wider than kappa's: a cut point may move anywhere, pushing the cut
    points it passes along with it (they then leave classes empty). A measure of a
    few classes' rates (GMSEC reads only the extreme classes) is flat in the other
    cut points, which would otherwise stay where they started and block the ones
    that matter.
    """

    wide = True

    def __init__(self, task, resolved, classes, values, weighted):
        self.task, self.resolved = task, resolved
        self.classes, self.values, self.weighted = classes, values, weighted
        self.sign = 1.0 if resolved.greater_is_better else -1.0

    def score(self, matrices):
        confusion = OrdinalConfusion(self.classes, self.values, matrices, 0, self.weighted)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            warnings.simplefilter("ignore", RuntimeWarning)
            scores = np.asarray(self.resolved.from_confusion(confusion), dtype=float)
        return np.where(np.isnan(scores), -np.inf, self.sign * scores)

    def gains(self, boundaries, t, positions):
        prefix = self.task.prefix.T  # (m + 1, K)
        out = np.empty(len(positions))
        for start in range(0, len(positions), _BLOCK):
            block = positions[start:start + _BLOCK]
            moved = _pushed(boundaries, t, block)
            ends = np.concatenate(
                [np.zeros((len(block), 1), np.intp), moved,
                 np.full((len(block), 1), self.task.m)], axis=1
            )
            # (B, K + 1, K) prefix rows -> (B, predicted, true) -> (B, true, predicted)
            matrices = np.diff(prefix[ends], axis=1).transpose(0, 2, 1)
            out[start:start + len(block)] = self.score(matrices)
        return out


def _pushed(boundaries, t, positions):
    """``(len(positions), K - 1)`` boundaries with cut point t at each position and the
    cut points it passes pushed along to it."""
    moved = np.repeat(np.asarray(boundaries, dtype=np.intp)[np.newaxis], len(positions), 0)
    position = np.asarray(positions, dtype=np.intp)[:, np.newaxis]
    np.minimum(moved[:, :t], position, out=moved[:, :t])
    moved[:, t] = position[:, 0]
    np.maximum(moved[:, t + 1:], position, out=moved[:, t + 1:])
    return moved


def _ascend(objective, boundaries, m):
    """Move one cut point at a time to its best position until none moves; returns
    the boundaries and their objective value. A narrow objective keeps each cut point
    between its neighbours; a wide one lets it push them."""
    boundaries = np.array(boundaries, dtype=np.intp)
    n_cuts = len(boundaries)
    current = None
    for _ in range(_MAX_SWEEPS):
        moved = False
        for t in range(n_cuts):
            if objective.wide:
                lo, hi = 0, m
            else:
                lo = boundaries[t - 1] if t > 0 else 0
                hi = boundaries[t + 1] if t + 1 < n_cuts else m
            positions = np.arange(lo, hi + 1)
            gains = objective.gains(boundaries, t, positions)
            here = gains[boundaries[t] - lo]
            best = int(np.argmax(gains))
            # A position undefined under the measure (-inf) gives way to any other.
            margin = _RTOL * max(abs(here), 1.0) if np.isfinite(here) else 0.0
            if gains[best] > here + margin:
                boundaries = _pushed(boundaries, t, positions[best:best + 1])[0]
                here = gains[best]
                moved = True
            current = here
        if not moved:
            break
    return boundaries, current


# --- Both together ------------------------------------------------------------------


def _search(task, resolved, classes, values, label_scale, weighted):
    """``(boundaries, method)`` of the best cut points found for ``resolved``."""
    gain = resolved.record.item_costs_for(task.class_weights, values, resolved.params)
    if gain is not None:
        if not resolved.greater_is_better:
            gain = -gain
        return _exact_boundaries(task, gain), "exact"
    if task.n_classes == 1:
        return np.empty(0, dtype=np.intp), "coordinate ascent"
    starts = [
        # Rounding: cut points midway between the class values (label scale).
        task.boundaries_of((label_scale[:-1] + label_scale[1:]) / 2),
        # The gold class proportions, predicted in score order (at most m: summed in
        # another order, the class weights can pass the total weight by rounding).
        np.minimum(np.searchsorted(task.sizes, np.cumsum(task.class_weights)[:-1]),
                   task.m),
    ]
    for name in resolved.related_additive():
        related = resolve(name)
        gain = related.record.item_costs_for(task.class_weights, values, related.params)
        starts.append(_exact_boundaries(task, gain if related.greater_is_better else -gain))
    disagreement = resolved.disagreement(values)
    if disagreement is not None:
        objective = _KappaObjective(task, disagreement)
    else:
        objective = _StackObjective(task, resolved, classes, values, weighted)
    found = [_ascend(objective, start, task.m) for start in starts]
    values_found = np.array([value for _, value in found])
    return found[int(np.argmax(values_found))][0], "coordinate ascent"


def _check_measure(scoring):
    """The resolved label measure of ``scoring`` (a name, scorer or function)."""
    resolved = resolve(scoring)
    if resolved.record.reads != "labels":
        raise ValueError(
            f"scoring={resolved.name!r} judges {resolved.record.reads}, not classes, so "
            "no cut points change it. Choose a measure of predicted classes, e.g. "
            "'neg_macro_mean_absolute_error' or 'quadratic_weighted_kappa'."
        )
    return resolved


def _check_scores(y_score):
    y_score = column_or_1d(np.asarray(y_score), warn=True)
    if y_score.dtype.kind not in "biuf":
        raise ValueError(
            f"y_score must hold real numbers, one score per item; got dtype {y_score.dtype}."
        )
    y_score = y_score.astype(np.float64, copy=False)
    if not np.isfinite(y_score).all():
        raise ValueError(
            "y_score holds NaN or infinite values; every item needs a finite score. Drop "
            "those items or impute their scores first."
        )
    return y_score


def _tune(y_true, y_score, scoring, labels=None, sample_weight=None):
    """Everything :func:`optimal_thresholds` finds: ``(classes, cut_points, score,
    method)``, ``score`` being the measure of the training items so classified."""
    resolved = _check_measure(scoring)
    y_score = _check_scores(y_score)
    if labels is None:
        labels = resolved.data.get("labels")
    if sample_weight is not None and not resolved.record.weighted:
        raise ValueError(
            f"{resolved.name} takes no sample_weight, so weighted items cannot be judged "
            "by it. Leave sample_weight out, or choose a measure that takes weights."
        )
    if labels is None and sample_weight is not None:
        # The classes of every item, zero-weight ones too: the rule maps scores to
        # these, so a class whose items all weigh 0 gets an empty interval, not none.
        labels = ordered_classes(y_true, measure="optimal_thresholds")[0]
    classes, codes, scores, weights, _ = check_scored_targets(
        y_true, y_score, labels=labels, sample_weight=sample_weight,
        measure="optimal_thresholds",
    )
    class_values = resolved.data.get("class_values")
    values = _class_values(classes, class_values, advice=_SCORER_VALUES_ADVICE)
    label_scale = _class_values(classes, class_values, relative=False,
                                advice=_SCORER_VALUES_ADVICE)
    task = _SortedTask(codes, scores, weights, len(classes))
    # The task holds the sorted copies: the item-sized inputs go before the search.
    del codes, scores, y_score
    boundaries, method = _search(
        task, resolved, classes, values, label_scale, weights is not None
    )
    confusion = OrdinalConfusion(classes, values, task.confusion(boundaries), 0,
                                 weights is not None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        score = float(resolved.from_confusion(confusion))
    return classes, task.cut_points(boundaries), score, method


@validate_params(
    {
        "y_true": ["array-like"],
        "y_score": ["array-like"],
        "scoring": [str, callable],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def optimal_thresholds(
    y_true: npt.ArrayLike,
    y_score: npt.ArrayLike,
    *,
    scoring: str | Callable[..., Any],
    labels: npt.ArrayLike | None = None,
    sample_weight: npt.ArrayLike | None = None,
) -> npt.NDArray[np.float64]:
    r"""The K - 1 cut points on a real-valued score that are best under a measure.

    A score :math:`s` is put into class :math:`c_k`, :math:`k` the number of cut
    points strictly below :math:`s`:
    ``classes[np.searchsorted(cut_points, s, side="left")]``. Of the
    :math:`m` distinct training scores :math:`u_1 < \dots < u_m`, each class then
    receives a run of consecutive ones, so the cut points are chosen among the
    :math:`m + 1` gaps: each returned cut point lies midway between two adjacent
    distinct training scores, or repeats its neighbour when leaving a class empty is
    best. A cut point below every training score is ``-inf`` and one above every
    training score ``+inf``: a class left empty on the training data stays empty for
    any new score, and a new score beyond the extreme training scores goes to the
    class of its nearest training score. All cut points at one end give the trivial
    classifier of an extreme class (see
    :class:`~sklearn_ordinal.dummy.TrivialOrdinalClassifier`).

    **Exact optimum** for a measure that is, given the gold standard, a weighted sum
    over items of a cost :math:`C_{ij}` of (true class :math:`i`, predicted class
    :math:`j`) (micro and macro MAE, MSE, RMSE and zero-one error, accuracy within
    n, accuracy, balanced accuracy, CEM on every scale). With :math:`S_j(g)` the
    prefix sums over the first :math:`g` distinct scores of the cost of putting them
    into class :math:`j`, the least cost of the first :math:`g` distinct scores in
    classes up to :math:`j` is

    .. math::

        f_j(g) = S_j(g) + \min_{g' \le g} \big(f_{j-1}(g') - S_j(g')\big),
        \qquad f_0(g) = S_0(g),

    a cumulative minimum: :math:`O(m K)` after one sort and one
    :math:`(m, K) \times (K, K)` product; the optimum is :math:`f_{K-1}(m)`.

    **Every other label measure** (weighted kappa, GMSEC, minimum sensitivity,
    Spearman, the worst class's error, ...): coordinate ascent. Each step moves one
    cut point to its best position between its neighbours, scoring every position at
    once: only two columns of the confusion matrix change, so for Cohen's kappa each
    position costs :math:`O(1)` (differences of prefix sums of the numerator and the
    denominator), and any other measure scores stacks of confusion matrices in
    blocks. It starts from rounding (cut points midway between the class values),
    from the gold class proportions and from the exact optimum of a related additive
    measure (MSE for quadratic kappa, MAE for linear kappa, macro MAE or macro
    zero-one error otherwise), runs until no cut point moves and keeps the best: a
    local optimum, never worse than these starting points.

    Read more in the :ref:`User Guide <thresholds>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_score : array-like of shape (n_samples,)
        One finite real score per item, higher meaning a higher class.
    scoring : str or callable
        A measure of predicted classes: a name of
        :func:`~sklearn_ordinal.metrics.get_scorer_names` (or the report's name of
        a loss, without ``neg_``), a scorer of
        :func:`~sklearn_ordinal.metrics.get_scorer` or a measure function. Its
        direction (higher or lower is better) is the measure's own.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order. Default: the scorer's ``labels``, the
        categories of an ordered ``Categorical``, else the sorted numeric labels.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights. Zero-weight items are ignored: they add no
        candidate cut point (their classes still count: a class whose items all weigh
        0 gets an empty interval).

    Returns
    -------
    cut_points : ndarray of shape (n_classes - 1,)
        The cut points, non-decreasing floats (``-inf`` and ``+inf`` as above).

    See Also
    --------
    sklearn_ordinal.model_selection.TunedThresholdsClassifierCV : Learns the cut
        points from out-of-fold scores of an estimator.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ordinal.metrics import optimal_thresholds
    >>> y_true = [0, 0, 0, 1, 1, 2, 2]
    >>> y_score = [0.1, 0.2, 0.6, 0.5, 0.9, 0.8, 1.9]
    >>> cuts = optimal_thresholds(y_true, y_score, scoring="neg_mean_absolute_error")
    >>> cuts
    array([0.35, 1.4 ])
    >>> np.searchsorted(cuts, y_score)
    array([0, 0, 1, 1, 1, 1, 2])

    Each measure has its own best cut points; here quadratic kappa leaves class 1
    empty:

    >>> optimal_thresholds(y_true, y_score, scoring="neg_macro_mean_absolute_error")
    array([0.35, 0.7 ])
    >>> optimal_thresholds(y_true, y_score, scoring="quadratic_weighted_kappa")
    array([0.7, 0.7])
    """
    return _tune(y_true, y_score, scoring, labels, sample_weight)[1]
