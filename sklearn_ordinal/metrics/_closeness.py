"""Closeness Evaluation Measure (CEM): closeness between classes from the gold data.

Amigó, Gonzalo, Mizzaro and Carrillo-de-Albornoz (2020) measure how close a
predicted class is to the true class by how unlikely it is to find a gold item
between them: a mistake across a crowded stretch of the scale costs more than one
across a sparse stretch, without assuming distances between classes
(``docs/user_guide/closeness.rst``). Everything here is a function of the weighted
confusion matrix, whose row sums are the gold class weights ``n_k``.
"""

# Annotations stay text: help() and the signature show ArrayLike, not its expansion.
from __future__ import annotations

from typing import Literal, Optional

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.exceptions import UndefinedMetricWarning

from .._compat import StrOptions, validate_params
from .._confusion import _one_or_many, ordinal_confusion
from .._warnings import warn_user

_Scale = Literal["ordinal", "nominal", "interval"]

_SCALES = ("ordinal", "nominal", "interval")

_COMMON_CONSTRAINTS = {
    "y_true": ["array-like"],
    "labels": ["array-like", None],
    "scale": [StrOptions(set(_SCALES))],
    "flat": ["boolean"],
    "class_values": ["array-like", None],
    "sample_weight": ["array-like", None],
}


def _interval_stretch(values, predicted, true):
    r"""First and last class positions at least as close to ``true`` as ``predicted``.

    On the interval scale the classes within :math:`d = |v_a - v_b|` of :math:`b` are
    consecutive (the values increase): from ``lo`` to ``hi``, one of which is
    :math:`a` (or a class tied with it) and the other the last class on the far side
    of :math:`b` not beyond its mirror image :math:`2 v_b - v_a`. The test is the
    definition's, :math:`|v_x - v_b| \le d` in floating point, so that a class exactly
    as far on the other side counts exactly when the data say so.
    """
    if np.array_equal(values, np.round(values)) and np.abs(values).max() <= 2.0**50:
        # Whole numbers this small: as integers, every difference is exact, and the far
        # end is where the mirror 2 v_b - v_a falls among the values.
        offsets = (values - values[0]).astype(np.intp)
        mirror = 2 * offsets[true] - offsets[predicted]
        span = offsets[-1]
        if 3 * span + 1 <= mirror.size:
            # Every mirror lies in [-span, 2 span]: searching each once and looking the
            # pairs up is cheaper than a search per pair.
            every = np.arange(-span, 2 * span + 1)
            mirror += span
            beyond = np.searchsorted(offsets, every)[mirror]
            last = (np.searchsorted(offsets, every, side="right") - 1)[mirror]
        else:
            beyond = np.searchsorted(offsets, mirror)
            last = np.searchsorted(offsets, mirror, side="right") - 1
        # For a >= b the mirror is at or below v_b, so beyond and last are <= b <= a;
        # for a < b they are > a. So the run is [min(beyond, a), max(last, a)].
        return np.minimum(beyond, predicted, out=beyond), np.maximum(last, predicted, out=last)
    n_classes = len(values)
    true_value = values[true]
    distance = np.abs(values[predicted] - true_value)
    if 4 * distance.size >= n_classes**2:
        # Many pairs: the ends of every pair, one true class at a time. The distances
        # from b fall towards b and rise after it, so each side is searched sorted.
        lo, hi = np.empty((2, n_classes, n_classes), dtype=np.intp)  # [b, a]
        for b in range(n_classes):
            from_b = np.abs(values - values[b])
            lo[b] = np.searchsorted(-from_b[: b + 1], -from_b)
            hi[b] = np.searchsorted(from_b[b:], from_b, side="right")
        hi += np.arange(n_classes)[:, np.newaxis] - 1
        return lo[true, predicted], hi[true, predicted]

    def last_within(inside, outside):
        # Few pairs: bisection between a class within d (inside) and one beyond it.
        while True:
            undecided = np.abs(outside - inside) > 1
            if not undecided.any():
                return inside
            middle = (inside + outside) // 2
            within = np.abs(values[middle] - true_value) <= distance
            inside = np.where(undecided & within, middle, inside)
            outside = np.where(undecided & ~within, middle, outside)

    shape = distance.shape
    lo = last_within(np.broadcast_to(np.minimum(predicted, true), shape), np.full(shape, -1))
    hi = last_within(np.broadcast_to(np.maximum(predicted, true), shape), np.full(shape, n_classes))
    return lo, hi


def _closeness_mass(class_weights, values, scale, predicted, true):
    """``N * P_T(a, b)`` for predicted classes ``a`` and true classes ``b``.

    ``P_T(a, b) N`` is half the weight of ``a`` plus the weight of every other class
    at least as close to ``b`` as ``a`` is, on scale ``T``: on every scale, a run of
    consecutive classes (all of them on the nominal scale), so two cumulative sums
    give it. ``predicted`` and ``true`` are class positions that broadcast together
    (``[:, None]`` and ``[None, :]`` for every pair); class weights of shape
    ``(..., K)`` (a stack of gold standards) give one mass per pair and matrix.
    """
    n = class_weights
    half = n[..., predicted] / 2
    if scale == "nominal":
        # Every class but a is as close to b as a wrong a is.
        total = n.sum(axis=-1)
        mass = total.reshape(total.shape + (1,) * (half.ndim - total.ndim)) - half
        mass = np.array(np.broadcast_to(mass, np.broadcast_shapes(mass.shape, np.shape(true))))
    else:
        upto = np.cumsum(n, axis=-1)
        before = upto - n
        if scale == "ordinal":
            # The classes from min(a, b) to max(a, b).
            lo, hi = np.minimum(predicted, true), np.maximum(predicted, true)
        else:
            lo, hi = _interval_stretch(values, predicted, true)
        mass = upto[..., hi] - before[..., lo]
        mass -= half
    # Exact halves where a = b, so that an empty class gets exactly 0.
    np.copyto(mass, half, where=predicted == true)
    return mass


def _proximity(class_weights, values, scale, flat, predicted=None, true=None):
    """``prox[a, b]``, in bits (or ``1 - P`` when ``flat``), for the pairs of class
    positions ``predicted`` and ``true`` (default: every pair, rows predicted)."""
    if predicted is None:
        predicted = np.arange(class_weights.shape[-1])[:, np.newaxis]
        true = predicted.T
    probability = _closeness_mass(class_weights, values, scale, predicted, true)
    total = class_weights.sum(axis=-1)
    probability /= total.reshape(total.shape + (1,) * (probability.ndim - total.ndim))
    if flat:
        return np.subtract(1.0, probability, out=probability)
    with np.errstate(divide="ignore"):
        np.log2(probability, out=probability)
    return np.subtract(0.0, probability, out=probability)  # not -: P = 1 gives 0.0, not -0.0


def _closeness_confusion(y_true, y_pred, scale, labels, class_values, sample_weight, measure):
    """The validated confusion matrix; class values only when they are used or given."""
    return ordinal_confusion(
        y_true,
        y_pred,
        labels=labels,
        class_values=class_values,
        sample_weight=sample_weight,
        # Only the interval scale uses class values (given ones are still checked),
        # and only the nominal scale ignores the order.
        need_values=scale == "interval",
        need_order=scale != "nominal",
        measure=f"{measure}(scale={scale!r})",
    )


@validate_params(_COMMON_CONSTRAINTS, prefer_skip_nested_validation=True)
def class_proximity(
    y_true: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    scale: _Scale = "ordinal",
    flat: bool = False,
    class_values: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> NDArray[np.float64]:
    r"""Informational closeness between every two classes, from the gold labels alone.

    With :math:`n_k` the weight of the true items of class :math:`c_k` and :math:`N`
    their total, the proximity of a predicted class :math:`a` to a true class
    :math:`b` is

    .. math::

        \mathrm{prox}_T(a, b) = -\log_2 P_T(a, b), \qquad
        P_T(a, b) = \frac{1}{N} \Big( \frac{n_a}{2}
            + \sum_{x \ne a,\; x \preceq_T^b a} n_x \Big)

    where :math:`x \preceq_T^b a` means that class :math:`x` is at least as close to
    :math:`b` as :math:`a` is, on scale :math:`T`:

    - ``"ordinal"``: :math:`x` lies between :math:`a` (exclusive) and :math:`b`
      (inclusive), so :math:`P(a, a) = n_a / 2N` and, for :math:`a < b`,
      :math:`P(a, b) = (n_a / 2 + n_{a+1} + \dots + n_b) / N`;
    - ``"nominal"``: :math:`x = b`, or any :math:`x` when :math:`a \ne b`, so
      :math:`P(a, b) = 1 - n_a / 2N` for :math:`a \ne b`;
    - ``"interval"``: :math:`|v_x - v_b| \le |v_a - v_b|` with the class values
      :math:`v`.

    The rarer the items between two classes, the closer the classes; a correct
    prediction of a rare class is worth more than one of a frequent class.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Gold labels: numbers, strings or a pandas ordered ``Categorical``.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order. Default: the categories of an ordered
        ``Categorical``, else the sorted labels of ``y_true``.
    scale : {"ordinal", "nominal", "interval"}, default="ordinal"
        The scale on which closeness is judged.
    flat : bool, default=False
        If True, :math:`\mathrm{prox} = 1 - P` instead of :math:`-\log_2 P`.
    class_values : array-like of shape (n_classes,), default=None
        Strictly increasing numbers standing for the classes, used by
        ``scale="interval"`` only (and checked whenever given). Default: the labels
        themselves if they are numbers, else their positions ``0, ..., K - 1``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    proximity : ndarray of shape (n_classes, n_classes)
        ``proximity[i, j]`` = :math:`\mathrm{prox}(c_i, c_j)`, row = predicted
        class, column = true class, in class order. A column of a class in
        ``labels`` with no gold item holds ``inf`` where :math:`P = 0` (at least
        on the diagonal); :func:`cem_score` never uses those entries.

    Warns
    -----
    UndefinedMetricWarning
        When a proximity is infinite because its true class has no gold item.

    See Also
    --------
    cem_score : Averages these proximities over a system's predictions.

    References
    ----------
    .. [1] E. Amigó, J. Gonzalo, S. Mizzaro and J. Carrillo-de-Albornoz, "An
       Effectiveness Metric for Ordinal Classification: Formal Properties and
       Experimental Results", Proc. ACL 2020, pp. 3938-3949, section 3 and
       Appendix A.

    Examples
    --------
    The gold data of the paper's Appendix A: 10 negative, 60 neutral and 30
    positive items.

    >>> import numpy as np
    >>> from sklearn_ordinal.metrics import class_proximity
    >>> gold = np.repeat(["neg", "neu", "pos"], [10, 60, 30])
    >>> class_proximity(gold, labels=["neg", "neu", "pos"]).round(2)
    array([[4.32, 0.62, 0.07],
           [1.32, 1.74, 0.74],
           [0.23, 0.42, 2.74]])
    """
    # The gold against itself: a diagonal confusion matrix holding the n_k, built
    # with the same class set, values and checks as in cem_score.
    gold = _closeness_confusion(
        y_true, y_true, scale, labels, class_values, sample_weight, "class_proximity"
    )
    proximity = _proximity(gold.class_weights, gold.values, scale, flat)
    infinite = np.isinf(proximity).any(axis=0)
    if infinite.any():
        warn_user(
            f"Classes {gold.classes[infinite].tolist()} have no item in y_true: their "
            "proximity as a true class is infinite (-log2 0) where no gold item lies "
            "close enough.",
            UndefinedMetricWarning
        )
    return proximity


@validate_params(
    {"y_pred": ["array-like"], **_COMMON_CONSTRAINTS}, prefer_skip_nested_validation=True
)
def cem_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    scale: _Scale = "ordinal",
    flat: bool = False,
    labels: Optional[ArrayLike] = None,
    class_values: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Closeness Evaluation Measure (CEM) of predicted ordinal classes.

    The proximity of each prediction to its true class, summed over the items and
    divided by the same sum for a perfect prediction:

    .. math::

        \mathrm{CEM}_T = \frac{\sum_d w_d \, \mathrm{prox}_T(\hat y_d, y_d)}
                              {\sum_d w_d \, \mathrm{prox}_T(y_d, y_d)}
                       = \frac{\sum_{i,j} M_{ji} \, \mathrm{prox}_T(c_i, c_j)}
                              {\sum_j n_j \, \mathrm{prox}_T(c_j, c_j)}

    with :math:`M` the weighted confusion matrix (rows = true classes) and
    :math:`\mathrm{prox}_T` computed from the true labels of the data being
    evaluated (see :func:`class_proximity`). The default, ``scale="ordinal"``
    (CEM\ :sup:`ORD`), uses only the order of the classes and their frequencies:
    it is unchanged by any strictly increasing relabelling, it grows whenever a
    prediction moves closer to the truth (given every class has a gold item), and
    a mistake on a small class costs more than one on a large class.

    ``scale="nominal"`` ignores the order (with uniform gold classes it is an
    increasing affine function of accuracy); ``scale="interval"`` uses the class
    values; ``flat=True`` is CEM\ :sup:`ORD`\ :sub:`flat`, with
    :math:`\mathrm{prox} = 1 - P`. These three are the package's readings of
    variants the paper only sketches.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    scale : {"ordinal", "nominal", "interval"}, default="ordinal"
        The scale on which closeness is judged.
    flat : bool, default=False
        If True, :math:`\mathrm{prox} = 1 - P` instead of :math:`-\log_2 P`.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order. Default: the categories of an ordered
        ``Categorical`` ``y_true``, else the sorted labels of ``y_true`` and ``y_pred``.
    class_values : array-like of shape (n_classes,), default=None
        Strictly increasing numbers standing for the classes, used by
        ``scale="interval"`` only (and checked whenever given). Default: the labels
        themselves if they are numbers, else their positions ``0, ..., K - 1``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    score : float
        1 for a perfect prediction; higher is better. Never negative.

    See Also
    --------
    class_proximity : The proximities this measure averages.
    mean_absolute_error : Assumes distances between classes.

    Notes
    -----
    The measure is always defined: the denominator is at least one bit per unit
    of weight, and a predicted class with no gold item is still at a finite
    proximity from every true class that has one. The base of the logarithm
    cancels out.

    References
    ----------
    .. [1] E. Amigó, J. Gonzalo, S. Mizzaro and J. Carrillo-de-Albornoz, "An
       Effectiveness Metric for Ordinal Classification: Formal Properties and
       Experimental Results", Proc. ACL 2020, pp. 3938-3949.

    Examples
    --------
    System A of the paper's Appendix A, as counts of (gold, predicted) pairs:

    >>> import numpy as np
    >>> from sklearn_ordinal.metrics import cem_score
    >>> classes = ["neg", "neu", "pos"]
    >>> counts = np.array([[5, 1, 4], [5, 50, 5], [7, 8, 15]])  # rows: gold
    >>> y_true = np.repeat(np.repeat(classes, 3), counts.ravel())
    >>> y_pred = np.repeat(np.tile(classes, 3), counts.ravel())
    >>> round(cem_score(y_true, y_pred, labels=classes), 4)
    0.7117
    >>> cem_score(y_true, y_true, labels=classes)
    1.0
    """
    confusion = _closeness_confusion(
        y_true, y_pred, scale, labels, class_values, sample_weight, "cem_score"
    )
    return _cem_score_from_confusion(confusion, scale, flat)


def _distinct_gold_standards(class_weights):
    """``(distinct, inverse)``: the distinct rows of a stack of gold class weights and
    where each row of the stack is among them, or ``(class_weights, None)`` when
    fewer than half the rows repeat one (a single matrix, bootstrap resamples).

    Proximities depend on the gold standard alone, and in a meta-evaluation every
    system of a test case shares its gold standard: a stack of ``S`` systems x ``T``
    test cases holds at most ``T`` distinct ones. Rows are compared by their bytes
    (one hashable key each); equal rows give equal proximities, bit for bit.
    """
    if class_weights.ndim < 2 or class_weights.size <= class_weights.shape[-1]:
        return class_weights, None
    rows = np.ascontiguousarray(class_weights.reshape(-1, class_weights.shape[-1]))
    # Equal rows have equal projections, so the distinct projections are at most the
    # distinct rows: many of them settle "mostly distinct" (bootstrap resamples)
    # with a sort of numbers instead of rows.
    projection = rows @ np.sqrt(np.arange(2.0, rows.shape[1] + 2.0))
    if 2 * len(np.unique(projection)) > len(rows):
        return class_weights, None
    keys = rows.view(np.dtype((np.void, rows.itemsize * rows.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    if 2 * len(first) > len(rows):
        return class_weights, None
    return rows[first], inverse.reshape(class_weights.shape[:-1])


def _cem_score_from_confusion(confusion, scale="ordinal", flat=False):
    matrix = confusion.matrix
    n = np.einsum("...ij->...i", matrix)  # row sums; faster on stacks than sum(axis=-1)
    # Proximities only where they are used: the cells with weight (in any matrix of a
    # stack), O(cells) rather than K x K, and the gold classes' own. Cells without
    # weight are skipped: only there can a proximity be infinite (no gold item).
    true, predicted = np.nonzero(matrix.reshape((-1,) + matrix.shape[-2:]).any(axis=0))
    observed = matrix[..., true, predicted]
    gold, inverse = _distinct_gold_standards(n)
    position = np.arange(n.shape[-1])
    proximity = _proximity(gold, confusion.values, scale, flat, predicted, true)
    own = _proximity(gold, confusion.values, scale, flat, position, position)
    if inverse is not None:
        proximity, own = proximity[inverse], own[inverse]
    achieved = np.multiply(observed, proximity, out=np.zeros(proximity.shape), where=observed > 0)
    best = np.multiply(n, own, out=np.zeros(n.shape), where=n > 0)
    # Summed in order (a cumulative sum): the zeros of cells that have weight only in
    # other matrices of a stack then change nothing, so a stack scores each matrix
    # exactly as alone; np.sum's pairwise grouping would shift with them.
    total = np.cumsum(achieved, axis=-1)[..., -1] if len(true) else np.zeros(n.shape[:-1])
    # The two sums group their terms differently, so a perfect system's ratio can be
    # 1 + 2e-16: CEM lies in [0, 1] (no cell beats its class's own proximity).
    return _one_or_many(np.clip(total / best.sum(axis=-1), 0.0, 1.0))


def _cem_item_gains(class_weights, values, scale="ordinal", flat=False):
    """``gain[i, j] = prox(c_j, c_i) / sum_k n_k prox(c_k, c_k)``: CEM is the sum of
    these over the items, since its proximities depend on the gold weights alone
    (rows of classes with no gold item, which hold no item, are 0)."""
    present = class_weights > 0
    with np.errstate(invalid="ignore"):
        proximity = _proximity(class_weights, values, scale, flat)  # [predicted, true]
    best = np.sum(class_weights[present] * np.diagonal(proximity)[present])
    return np.where(present[:, np.newaxis], proximity.T, 0.0) / best
