"""Closeness Evaluation Measure (CEM): closeness between classes from the gold data.

Amigó, Gonzalo, Mizzaro and Carrillo-de-Albornoz (2020) measure how close a
predicted class is to the true class by how unlikely it is to find a gold item
between them: a mistake across a crowded stretch of the scale costs more than one
across a sparse stretch, without assuming distances between classes (``SPEC.md``
section 4). Everything here is a function of the weighted confusion matrix, whose
row sums are the gold class weights ``n_k``.
"""

import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._compat import StrOptions, validate_params
from .._labels import ordinal_confusion
from ._confusion_matrix import _one_or_many

_SCALES = ("ordinal", "nominal", "interval")

_COMMON_CONSTRAINTS = {
    "y_true": ["array-like"],
    "labels": ["array-like", None],
    "scale": [StrOptions(set(_SCALES))],
    "flat": ["boolean"],
    "class_values": ["array-like", None],
    "sample_weight": ["array-like", None],
}


def _closeness_mass(class_weights, values, scale):
    """``N * P_T(a, b)`` for every predicted class ``a`` (row) and true class ``b`` (column).

    ``P_T(a, b) N`` is half the weight of ``a`` plus the weight of every other class
    at least as close to ``b`` as ``a`` is, on scale ``T``. Each scale has a closed
    form, so this is ``O(K^2)`` (``O(K^2 log K)`` for the interval scale). Class
    weights of shape ``(..., K)`` (a stack of gold standards) give ``(..., K, K)``.
    """
    n = class_weights
    n_classes = n.shape[-1]
    half = n[..., :, np.newaxis] / 2
    if scale == "nominal":
        # Every class but a is as close to b as a wrong a is.
        mass = np.repeat(n.sum(axis=-1)[..., np.newaxis, np.newaxis] - half, n_classes, axis=-1)
    elif scale == "ordinal":
        # The classes from min(a, b) to max(a, b), with only half of a.
        upto = np.cumsum(n, axis=-1)
        before = upto - n
        position = np.arange(n_classes)
        high = np.maximum.outer(position, position)
        low = np.minimum.outer(position, position)
        mass = upto[..., high] - before[..., low] - half
    else:
        # A loop over the K true classes (never over items): for each, the weight of
        # the classes within distance |v_a - v_b| of b, ties included.
        mass = np.empty(n.shape + (n_classes,))
        for b in range(n_classes):
            distance = np.abs(values - values[b])
            order = np.argsort(distance, kind="stable")
            within = np.cumsum(n[..., order], axis=-1)
            nearest = np.searchsorted(distance[order], distance, side="right") - 1
            mass[..., :, b] = within[..., nearest]
        mass -= half
    # Exact halves on the diagonal, so that an empty class gets exactly 0.
    diagonal = np.arange(n_classes)
    mass[..., diagonal, diagonal] = n / 2
    return mass


def _proximity(class_weights, values, scale, flat):
    """``prox[a, b]``, in bits (or ``1 - P`` when ``flat``); rows are predicted classes."""
    total = class_weights.sum(axis=-1)[..., np.newaxis, np.newaxis]
    probability = _closeness_mass(class_weights, values, scale) / total
    if flat:
        return 1.0 - probability
    with np.errstate(divide="ignore"):
        return 0.0 - np.log2(probability)  # not -log2: P = 1 must give 0.0, not -0.0


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
    y_true, *, labels=None, scale="ordinal", flat=False, class_values=None, sample_weight=None
):
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
        warnings.warn(
            f"Classes {gold.classes[infinite].tolist()} have no item in y_true: their "
            "proximity as a true class is infinite (-log2 0) where no gold item lies "
            "close enough.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
    return proximity


@validate_params(
    {"y_pred": ["array-like"], **_COMMON_CONSTRAINTS}, prefer_skip_nested_validation=True
)
def cem_score(
    y_true,
    y_pred,
    *,
    scale="ordinal",
    flat=False,
    labels=None,
    class_values=None,
    sample_weight=None,
):
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


def _cem_score_from_confusion(confusion, scale="ordinal", flat=False):
    matrix = confusion.matrix
    n = matrix.sum(axis=-1)
    proximity = _proximity(n, confusion.values, scale, flat)
    # Rows = predicted, like proximity. Cells without weight are skipped: only
    # there can a proximity be infinite (a true class with no gold item).
    observed = np.swapaxes(matrix, -1, -2)
    achieved = np.multiply(observed, proximity, out=np.zeros(proximity.shape), where=observed > 0)
    best = np.multiply(
        n, proximity.diagonal(axis1=-2, axis2=-1), out=np.zeros(n.shape), where=n > 0
    )
    return _one_or_many(achieved.sum(axis=(-2, -1)) / best.sum(axis=-1))
