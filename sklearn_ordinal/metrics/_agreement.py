"""Agreement between true and predicted ordinal classes: the measures CEM is compared with.

Amigó et al. (2020) compare CEM with accuracy, accuracy within n classes, balanced
accuracy, Cohen's kappa (plain and weighted), macro F1, correlation coefficients,
Kendall's tau-a and mutual information (``docs/user_guide/closeness.rst``). Two of
them are missing from scikit-learn and SciPy and are defined here, from the
confusion matrix: :func:`accuracy_within_score` and :func:`kendall_tau_a_score`. The others
are thin private wrappers, used by the scorers, that hand scikit-learn, SciPy or
NumPy the class codes (or the confusion matrix) produced by this package's label
validation, so that string labels and ordered categoricals are ordered as
everywhere else in the package.
"""

# Annotations stay text: help() and the signature show ArrayLike, not its expansion.
from __future__ import annotations

from numbers import Integral
from typing import Literal, Optional, Union

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from .._compat import Interval, StrOptions, validate_params
from .._confusion import _one_or_many, _warn_for_matrices, ordinal_confusion


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "n": [Interval(Integral, 0, None, closed="left")],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def accuracy_within_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    n: int = 1,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Accuracy within ``n`` classes: the weight of predictions at most ``n`` classes off.

    With class positions :math:`k(\cdot)` in the ordered class set:

    .. math::

        \mathrm{Acc}_n = \frac{1}{N} \sum_d w_d \, [\,|k(\hat y_d) - k(y_d)| \le n\,]

    ``n=0`` is plain accuracy. Distances are counted in classes, not in class
    values, so the measure is unchanged by any strictly increasing relabelling;
    classes named in ``labels`` count even when no item has them.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    n : int, default=1
        The largest number of classes a prediction may be off and still count.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order. Default: the categories of an ordered
        ``Categorical`` ``y_true``, else the sorted labels of ``y_true`` and ``y_pred``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    score : float
        Between 0 and 1; higher is better.

    See Also
    --------
    sklearn.metrics.accuracy_score : The case ``n=0``.

    References
    ----------
    .. [1] L. Gaudette and N. Japkowicz, "Evaluation methods for ordinal
       classification", Proc. Canadian AI 2009, pp. 207-210.
    .. [2] E. Amigó, J. Gonzalo, S. Mizzaro and J. Carrillo-de-Albornoz, "An
       Effectiveness Metric for Ordinal Classification: Formal Properties and
       Experimental Results", Proc. ACL 2020, pp. 3938-3949, section 4.2.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import accuracy_within_score
    >>> y_true = ["low", "mid", "high", "high"]
    >>> y_pred = ["low", "high", "low", "mid"]
    >>> labels = ["low", "mid", "high"]
    >>> accuracy_within_score(y_true, y_pred, labels=labels)
    0.75
    >>> accuracy_within_score(y_true, y_pred, n=0, labels=labels)
    0.25
    """
    confusion = ordinal_confusion(
        y_true,
        y_pred,
        labels=labels,
        sample_weight=sample_weight,
        need_values=False,
        measure="accuracy_within_score",
    )
    return _accuracy_within_score_from_confusion(confusion, n)


def _accuracy_within_score_from_confusion(confusion, n=1):
    position = np.arange(len(confusion.classes))
    close_enough = np.abs(position[:, np.newaxis] - position) <= n
    matrix = confusion.matrix
    return _one_or_many(matrix[..., close_enough].sum(axis=-1) / _total(matrix))


def _accuracy_within_item_gains(class_weights, values, n=1):
    """``gain[i, j] = [|i - j| <= n] / N``: accuracy within n is their sum over items."""
    position = np.arange(len(class_weights))
    return (np.abs(position[:, np.newaxis] - position) <= n) / class_weights.sum()


def _accuracy_item_gains(class_weights, values):
    """``gain[i, j] = [i = j] / N``."""
    return np.eye(len(class_weights)) / class_weights.sum()


def _balanced_accuracy_item_gains(class_weights, values):
    """``gain[i, j] = [i = j] / (n_i |{k: n_k > 0}|)`` (0 for a class with no item)."""
    present = class_weights > 0
    divisor = np.where(present, class_weights * present.sum(), np.inf)
    return np.eye(len(class_weights)) / divisor[:, np.newaxis]


def _total(matrix):
    """The weight of each matrix of a stack (of shape ``(..., K, K)``)."""
    return matrix.sum(axis=(-2, -1))


def _pair_counts(matrix):
    """Weights of the concordant and discordant pairs of a contingency table.

    A pair of cells ``(i, j)``, ``(i', j')`` with ``i' > i`` is concordant when
    ``j' > j`` and discordant when ``j' < j``; pairs tied on either side count in
    neither. Two cumulative sums give, for every cell, the weight of the cells
    below-right and below-left of it, so this is ``O(K^2)`` (per matrix of a stack).
    """
    # below[..., i, j] = weight of the cells in rows > i and columns >= j.
    below = np.zeros(matrix.shape[:-2] + (matrix.shape[-2] + 1, matrix.shape[-1] + 1))
    # Summed in place on a contiguous copy: the same sums in the same order as on the
    # reversed view, in two thirds of the time on a stack of small matrices.
    cumulative = np.array(matrix[..., ::-1, ::-1], dtype=np.float64, order="C")
    np.cumsum(cumulative, axis=-2, out=cumulative)
    np.cumsum(cumulative, axis=-1, out=cumulative)
    below[..., :-1, :-1] = cumulative[..., ::-1, ::-1]
    below = below[..., 1:, :]
    below_right = below[..., :, 1:]
    below_left = below[..., :, :1] - below[..., :, :-1]
    concordant = np.sum(matrix * below_right, axis=(-2, -1))
    discordant = np.sum(matrix * below_left, axis=(-2, -1))
    return concordant, discordant


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "labels": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def kendall_tau_a_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
) -> float:
    r"""Kendall's tau-a between true and predicted ordinal classes.

    Concordant minus discordant pairs of items, over all :math:`n (n - 1) / 2`
    pairs; a pair tied in ``y_true`` or in ``y_pred`` counts as neither:

    .. math::

        \tau_a = \frac{C - D}{n (n - 1) / 2}

    Unlike tau-b, ties are not discounted from the denominator: on ordinal data,
    with many ties, :math:`|\tau_a|` stays well below 1 even for a perfect
    prediction. It is computed from the :math:`K \times K` contingency table, in
    :math:`O(n + K^2)` time.

    There is no ``sample_weight``: repeating every item twice adds tied pairs and
    changes :math:`\tau_a`, so no weighting can both match repeated rows and be
    unchanged by rescaling the weights.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order. Default: the categories of an ordered
        ``Categorical`` ``y_true``, else the sorted labels of ``y_true`` and ``y_pred``.

    Returns
    -------
    tau : float
        Between -1 and 1; higher is better. 0.0, with a warning, for a single item.

    Warns
    -----
    UndefinedMetricWarning
        When there is a single item, hence no pair.

    See Also
    --------
    scipy.stats.kendalltau : Tau-b and tau-c.

    References
    ----------
    .. [1] M. G. Kendall, "A new measure of rank correlation", Biometrika 30(1/2),
       1938, pp. 81-93.
    .. [2] E. Amigó, J. Gonzalo, S. Mizzaro and J. Carrillo-de-Albornoz, "An
       Effectiveness Metric for Ordinal Classification: Formal Properties and
       Experimental Results", Proc. ACL 2020, pp. 3938-3949, section 5.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import kendall_tau_a_score
    >>> kendall_tau_a_score([1, 2, 3, 4], [1, 3, 2, 4])
    0.6666666666666666
    >>> kendall_tau_a_score([1, 1, 2, 2], [1, 1, 2, 2])  # ties count as neither
    0.6666666666666666
    """
    confusion = ordinal_confusion(
        y_true, y_pred, labels=labels, need_values=False, measure="kendall_tau_a_score"
    )
    return _kendall_tau_a_score_from_confusion(confusion)


def _kendall_tau_a_score_from_confusion(confusion):
    n_samples = _total(confusion.matrix)
    too_few = n_samples < 2
    _warn_for_matrices(
        too_few, "Kendall's tau-a needs at least two items; returning 0.0{where}."
    )
    concordant, discordant = _pair_counts(confusion.matrix)
    tau = np.divide(
        concordant - discordant,
        n_samples * (n_samples - 1) / 2,
        out=np.zeros(np.shape(n_samples)),
        where=~too_few,
    )
    return _one_or_many(tau)


# --- The other measures of the paper's comparison, from the confusion matrix --------
# scikit-learn and SciPy compute these from the items; each is a closed form of the
# weighted confusion matrix, so here each is a function of it (tested against
# scikit-learn and SciPy), and the public-facing wrappers only validate and count.


def _accuracy_from_confusion(confusion):
    matrix = confusion.matrix
    return _one_or_many(np.trace(matrix, axis1=-2, axis2=-1) / _total(matrix))


def _balanced_accuracy_from_confusion(confusion):
    # The mean recall over the classes with a true item, as scikit-learn's.
    matrix = confusion.matrix
    n_true = matrix.sum(axis=-1)
    present = n_true > 0
    recall = np.divide(
        matrix.diagonal(axis1=-2, axis2=-1), n_true, out=np.zeros(n_true.shape), where=present
    )
    return _one_or_many(np.mean(recall, axis=-1, where=present))


def _macro_f1_from_confusion(confusion):
    # F1_k = 2 M_kk / (n_k + m_k), averaged over the classes present in y_true or
    # y_pred, as scikit-learn's "f1_macro": a class absent from both has no F1.
    matrix = confusion.matrix
    size = matrix.sum(axis=-1) + matrix.sum(axis=-2)
    present = size > 0
    f1 = np.divide(
        2 * matrix.diagonal(axis1=-2, axis2=-1), size, out=np.zeros(size.shape), where=present
    )
    return _one_or_many(np.mean(f1, axis=-1, where=present))


def _macro_f1_gold_from_confusion(confusion):
    # F1_k averaged over the classes with a true item only: PyEvALL's (EvALL 2.0's)
    # F-measure, and scikit-learn's f1_score(labels=the classes of y_true,
    # average="macro"). A class that is predicted but never true does not count.
    matrix = confusion.matrix
    true = matrix.sum(axis=-1)
    size = true + matrix.sum(axis=-2)
    f1 = np.divide(
        2 * matrix.diagonal(axis1=-2, axis2=-1), size, out=np.zeros(size.shape), where=size > 0
    )
    return _one_or_many(np.mean(f1, axis=-1, where=true > 0))


_KAPPA_WEIGHTS = {
    None: lambda distance: (distance > 0).astype(np.float64),
    "linear": lambda distance: distance,
    "quadratic": lambda distance: distance**2,
}


def _kappa_weight_matrix(weights, n_classes, measure="weighted_kappa_score"):
    """A user's ``(K, K)`` disagreement weight matrix, checked, as float64."""
    matrix = np.asarray(weights, dtype=np.float64)
    if matrix.shape != (n_classes, n_classes):
        raise ValueError(
            f"{measure}: weights as a matrix must be one row and one column per class, "
            f"shape ({n_classes}, {n_classes}); got shape {matrix.shape}. Give labels= "
            "with the classes the matrix is written for."
        )
    if not np.all(np.isfinite(matrix)) or np.any(matrix < 0) or np.any(np.diag(matrix) != 0):
        raise ValueError(
            f"{measure}: weights as a matrix are disagreement weights: finite, non-negative "
            "and 0 on the diagonal (an exact agreement costs nothing); got "
            f"{matrix.tolist()}."
        )
    return matrix


def _kappa_disagreement(values, weights=None, on_values=False):
    """The ``(K, K)`` disagreement weights ``W`` of Cohen's kappa on the classes of
    values ``values``: 1 off the diagonal, ``|i - j|`` (linear) or ``(i - j)^2``
    (quadratic) for the class positions ``i, j`` (the class values when
    ``on_values``), or the given matrix, checked."""
    n_classes = len(values)
    if weights is None or isinstance(weights, str):
        position = (
            np.asarray(values, dtype=np.float64) if on_values
            else np.arange(n_classes, dtype=np.float64)
        )
        return _KAPPA_WEIGHTS[weights](np.abs(position[:, np.newaxis] - position))
    return _kappa_weight_matrix(weights, n_classes)


def _cohen_kappa_from_confusion(confusion, weights=None, on_values=False):
    """Cohen's kappa, ``1 - sum(W O) / sum(W E)``, disagreement weights on positions.

    ``O`` is the confusion matrix and ``E`` the outer product of its margins over
    ``N``; ``W`` is 1 off the diagonal, or ``|i - j|`` (linear) or ``(i - j)^2``
    (quadratic) for the positions ``i, j`` in the whole ordered class set, as
    scikit-learn's ``cohen_kappa_score`` given ``labels=range(K)`` (for the class
    values ``v_i, v_j`` instead when ``on_values``), or a given ``(K, K)`` matrix.
    Undefined (0.0 with a warning) when no disagreement is expected: no pair of a
    true and a predicted class present on both sides has a positive weight.
    """
    observed = confusion.matrix
    weight = _kappa_disagreement(confusion.values, weights, on_values)
    # Margins and sums by einsum: on a stack of small matrices several times faster
    # than reductions over their short axes.
    n_true, n_pred = np.einsum("...ij->...i", observed), np.einsum("...ij->...j", observed)
    # Decided exactly, on counts of 0/1 products: no disagreement is expected only if
    # no pair of classes present on the two sides has a positive weight.
    present_pairs = ((n_true > 0) @ (weight > 0).astype(np.float64)) * (n_pred > 0)
    undefined = ~np.any(present_pairs > 0, axis=-1)
    _warn_for_matrices(
        undefined,
        "Cohen's kappa is undefined when no disagreement is expected (y_true and "
        "y_pred put all their weight on one and the same class); returning 0.0{where}."
    )
    # sum(W E) = n_true W (n_pred / N): one product per matrix, no (K, K) matrix E.
    # n_pred / N first: a constant prediction's shares are exactly 0 and 1, so its
    # chance disagreement sums the very terms of its observed one (kappa exactly 0).
    disagreement = np.einsum("...ij,ij->...", observed, weight)
    shares = n_pred / _total(observed)[..., np.newaxis]
    chance = np.einsum("...i,ij,...j->...", n_true, weight, shares)
    ratio = np.divide(disagreement, chance, out=np.ones(np.shape(chance)), where=~undefined)
    return _one_or_many(1 - ratio)


def _entropy(weights):
    """Shannon entropy (nats) of each row of weights: ``scipy.stats.entropy``'s formula,
    without its per-call overhead (checks, NaN policy), which outweighs a stack's."""
    return special.entr(weights / weights.sum(axis=-1, keepdims=True)).sum(axis=-1)


def _mutual_information_from_confusion(confusion):
    """Mutual information (in nats, like scikit-learn's) of the weighted contingency table.

    ``H(true) + H(pred) - H(true, pred)`` with SciPy's entropy, which takes weights;
    ``sklearn.metrics.mutual_info_score`` truncates a weighted table to integers.
    """
    matrix = confusion.matrix
    information = (
        _entropy(matrix.sum(axis=-1)) + _entropy(matrix.sum(axis=-2))
        - _entropy(matrix.reshape(matrix.shape[:-2] + (-1,)))
    )
    return _one_or_many(np.maximum(information, 0.0))  # never below 0 but for rounding


def _constant_warning(name, constant):
    """Warn when a correlation is undefined because one side holds a single class."""
    _warn_for_matrices(
        constant,
        f"{name} is undefined when y_true or y_pred holds a single class; "
        "returning 0.0{where}."
    )


def _is_constant(rows, columns):
    """Per matrix: whether y_true or y_pred holds fewer than two classes, from the
    matrix's row and column sums."""
    return (np.count_nonzero(rows, axis=-1) < 2) | (np.count_nonzero(columns, axis=-1) < 2)


def _table_correlation(matrix, n_true, n_pred, true_values, pred_values, name):
    """Pearson's correlation of values attached to the rows and columns of a table.

    The ``K x K`` cells, weighted by the table, stand for the items; ``n_true`` and
    ``n_pred`` are its row and column sums, summed once by the caller (Spearman's
    ranks read them too, and summing the short rows of a stack is slow). Values of
    shape ``(K,)`` or, one set per matrix of a stack, ``(..., K)``.
    """
    constant = _is_constant(n_true, n_pred)
    _constant_warning(name, constant)
    total = _total(matrix)
    # Weighted deviations from the weighted means of each side.
    true_dev = true_values - (np.sum(n_true * true_values, axis=-1) / total)[..., np.newaxis]
    pred_dev = pred_values - (np.sum(n_pred * pred_values, axis=-1) / total)[..., np.newaxis]
    covariance = np.sum(
        matrix * true_dev[..., :, np.newaxis] * pred_dev[..., np.newaxis, :], axis=(-2, -1)
    )
    spread = np.sqrt(np.sum(n_true * true_dev**2, axis=-1) * np.sum(n_pred * pred_dev**2, axis=-1))
    correlation = np.divide(
        covariance, spread, out=np.zeros(np.shape(covariance)), where=~constant
    )
    return _one_or_many(correlation)


def _pearson_from_confusion(confusion):
    """Pearson's correlation between the class values of true and predicted classes."""
    matrix, values = confusion.matrix, confusion.values
    return _table_correlation(
        matrix, matrix.sum(axis=-1), matrix.sum(axis=-2), values, values, "Pearson's correlation"
    )


def _mid_ranks(counts):
    """The average rank of the items of each class (ties share the mean of their ranks)."""
    return np.cumsum(counts, axis=-1) - (counts - 1) / 2


def _spearman_from_confusion(confusion):
    """Spearman's rank correlation: Pearson's of the items' mid-ranks, as SciPy's."""
    matrix = confusion.matrix
    n_true, n_pred = matrix.sum(axis=-1), matrix.sum(axis=-2)
    return _table_correlation(
        matrix, n_true, n_pred, _mid_ranks(n_true), _mid_ranks(n_pred), "Spearman's correlation"
    )


def _kendall_tau_b_from_confusion(confusion):
    """Kendall's tau-b, ``(C - D) / sqrt((P - T_true)(P - T_pred))``, as SciPy's default.

    ``P`` is the number of pairs and ``T`` those tied on one side.
    """
    matrix = confusion.matrix
    rows, columns = matrix.sum(axis=-1), matrix.sum(axis=-2)
    constant = _is_constant(rows, columns)
    _constant_warning("Kendall's tau-b", constant)
    concordant, discordant = _pair_counts(matrix)
    n = _total(matrix)
    pairs = n * (n - 1) / 2
    tied_true = np.sum(rows * (rows - 1), axis=-1) / 2
    tied_pred = np.sum(columns * (columns - 1), axis=-1) / 2
    with np.errstate(invalid="ignore"):  # the square root of a constant side's 0 or less
        untied = np.sqrt((pairs - tied_true) * (pairs - tied_pred))
    tau = np.divide(concordant - discordant, untied, out=np.zeros(np.shape(n)), where=~constant)
    return _one_or_many(tau)


# The measures of the paper's comparison: each validates once, counts, and hands the
# confusion matrix on. Accuracy, balanced accuracy and macro F1 stay private: their
# public forms are scikit-learn's (the same numbers, the class order playing no
# part). Parameters are declared like every public measure's, so every door checks them.

_DATA = {
    "y_true": ["array-like"],
    "y_pred": ["array-like"],
    "labels": ["array-like", None],
    "sample_weight": ["array-like", None],
}
_WEIGHTS_OPTION = [StrOptions({"linear", "quadratic"}), "array-like", None]


def _confusion(y_true, y_pred, labels, sample_weight=None, *, need_order, measure, **kwargs):
    return ordinal_confusion(
        y_true,
        y_pred,
        labels=labels,
        sample_weight=sample_weight,
        need_values=False,
        need_order=need_order,
        measure=measure,
        **kwargs,
    )


@validate_params(_DATA, prefer_skip_nested_validation=True)
def _accuracy(y_true, y_pred, *, labels=None, sample_weight=None):
    confusion = _confusion(
        y_true, y_pred, labels, sample_weight, need_order=False, measure="accuracy"
    )
    return _accuracy_from_confusion(confusion)


@validate_params(_DATA, prefer_skip_nested_validation=True)
def _balanced_accuracy(y_true, y_pred, *, labels=None, sample_weight=None):
    confusion = _confusion(
        y_true, y_pred, labels, sample_weight, need_order=False, measure="macro accuracy"
    )
    return _balanced_accuracy_from_confusion(confusion)


@validate_params(_DATA, prefer_skip_nested_validation=True)
def _macro_f1(y_true, y_pred, *, labels=None, sample_weight=None):
    confusion = _confusion(
        y_true, y_pred, labels, sample_weight, need_order=False, measure="macro F1"
    )
    return _macro_f1_from_confusion(confusion)


@validate_params(_DATA, prefer_skip_nested_validation=True)
def macro_f1_gold_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Macro F1 over the gold classes: PyEvALL's F-measure.

    With the weighted confusion matrix :math:`M` (true class :math:`i`, predicted
    :math:`j`), the F1 of class :math:`k` is
    :math:`F_k = 2 M_{kk} / (\sum_j M_{kj} + \sum_i M_{ik})`, and

    .. math::

        \mathrm{macro\ F1_{gold}} = \frac{1}{|G|} \sum_{k \in G} F_k,
        \qquad G = \{k : \textstyle\sum_j M_{kj} > 0\},

    the classes with at least one true item. scikit-learn's
    ``f1_score(average="macro")`` (the scorer ``macro_f1``) averages over the classes
    of ``y_true`` *or* ``y_pred``, so a class that is predicted but never true
    counts there with F1 = 0 and not here. This is
    ``f1_score(y_true, y_pred, labels=<the classes of y_true>, average="macro")``
    and the FMeasure of PyEvALL (the evaluation library of EvALL 2.0). The class
    order plays no part: string labels need no ``labels=``.

    Read more in the :ref:`User Guide <evaluating_files>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes; a label outside them is an error. The average still runs over
        the classes with a true item only.
    sample_weight : array-like of shape (n_samples,), default=None
        Item weights.

    Returns
    -------
    score : float
        In [0, 1], 1 for perfect predictions.

    See Also
    --------
    sklearn.metrics.f1_score : With ``average="macro"``: over the classes of
        ``y_true`` or ``y_pred``.

    References
    ----------
    .. [1] E. Amigó, J. Carrillo-de-Albornoz et al., PyEvALL, the evaluation library
       of EvALL 2.0, https://github.com/UNEDLENAR/PyEvALL.

    Examples
    --------
    Three items of gold class "A", one predicted as "B": F1 of "A" is
    2 * 2 / (3 + 2) = 0.8, and "B" (never true) is left out:

    >>> from sklearn_ordinal.metrics import macro_f1_gold_score
    >>> macro_f1_gold_score(["A", "A", "A"], ["A", "A", "B"])
    0.8
    """
    confusion = _confusion(
        y_true, y_pred, labels, sample_weight, need_order=False,
        measure="macro F1 over the gold classes",
    )
    return float(_macro_f1_gold_from_confusion(confusion))


@validate_params({**_DATA, "weights": _WEIGHTS_OPTION}, prefer_skip_nested_validation=True)
def weighted_kappa_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    weights: Union[Literal["linear", "quadratic"], ArrayLike, None] = None,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Cohen's kappa, plain or weighted: agreement beyond chance, in the class order.

    With the weighted confusion matrix :math:`O` (total weight :math:`N`), the matrix
    expected under independence :math:`E_{ij} = O_{i\cdot} O_{\cdot j} / N` and
    disagreement weights :math:`W`:

    .. math::

        \kappa_w = 1 - \frac{\sum_{ij} W_{ij} O_{ij}}{\sum_{ij} W_{ij} E_{ij}}

    ``weights=None``: :math:`W_{ij} = [i \ne j]`, Cohen's (1960) kappa;
    ``"linear"``: :math:`|i - j|`; ``"quadratic"``: :math:`(i - j)^2`, for the
    positions :math:`i, j` of the classes in the ordered class set (so the weighted
    forms are unchanged by any increasing relabelling, and every class of
    ``labels`` counts); a ``(K, K)`` matrix: your own disagreement weights
    :math:`W_{ij}`, as ``statsmodels.stats.inter_rater.cohens_kappa(weights=...)``
    and R's ``irr::kappa2`` take them (0 on the diagonal; the value is unchanged by
    rescaling :math:`W`). On integer labels ``0..K-1`` the string options give
    :func:`sklearn.metrics.cohen_kappa_score`'s number. 0.0, with a warning, when
    no disagreement is expected.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    weights : {"linear", "quadratic"}, array-like of shape (K, K) or None, default=None
        The disagreement weights: none (plain kappa), linear or quadratic in the
        class positions, or a matrix whose rows are true and columns predicted
        classes, in the order of ``labels``.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order. Default: the categories of an ordered
        ``Categorical`` ``y_true``, else the sorted labels (numbers) of ``y_true`` and
        ``y_pred``; string labels need an order for the weighted forms.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    kappa : float
        At most 1 (perfect agreement); 0 is chance agreement; higher is better.

    See Also
    --------
    sklearn.metrics.cohen_kappa_score : The same number on integer labels.
    value_weighted_kappa_score : Weights on class values instead of positions.

    References
    ----------
    .. [1] J. Cohen, "A coefficient of agreement for nominal scales", Educational
       and Psychological Measurement 20(1), 1960.
    .. [2] J. Cohen, "Weighted kappa: nominal scale agreement with provision for
       scaled disagreement or partial credit", Psychological Bulletin 70(4), 1968.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import weighted_kappa_score
    >>> y_true = ["low", "low", "mid", "high", "high"]
    >>> y_pred = ["low", "mid", "mid", "mid", "high"]
    >>> order = ["low", "mid", "high"]
    >>> round(weighted_kappa_score(y_true, y_pred, weights="linear", labels=order), 4)
    0.5455
    >>> near = [[0, 1, 4], [1, 0, 1], [4, 1, 0]]   # a far miss costs 4 times a near one
    >>> round(weighted_kappa_score(y_true, y_pred, weights=near, labels=order), 4)
    0.6667
    """
    confusion = _confusion(
        y_true,
        y_pred,
        labels,
        sample_weight,
        need_order=weights is not None,
        measure=f"{weights} weighted kappa" if isinstance(weights, str) else (
            "weighted kappa" if weights is not None else "Cohen's kappa"
        ),
    )
    return _cohen_kappa_from_confusion(confusion, weights)


@validate_params(_DATA, prefer_skip_nested_validation=True)
def mutual_information_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Mutual information between true and predicted classes, in nats.

    .. math::

        I = H(\text{true}) + H(\text{pred}) - H(\text{true}, \text{pred}),
        \qquad H(p) = -\sum_k p_k \ln p_k,

    of the weighted contingency table (the class order plays no part). Unweighted,
    :func:`sklearn.metrics.mutual_info_score`'s number; weighted, the exact
    entropies of the weighted table (scikit-learn's contingency table truncates
    weights).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes. Default: the labels of ``y_true`` and ``y_pred``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    information : float
        Between 0 and the entropy of ``y_true``; higher is better.

    See Also
    --------
    sklearn.metrics.mutual_info_score : The unweighted number.

    References
    ----------
    .. [1] T. M. Cover and J. A. Thomas, "Elements of Information Theory", 2nd ed.,
       Wiley, 2006, chapter 2.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import mutual_information_score
    >>> round(mutual_information_score([0, 0, 1, 1], [0, 0, 1, 1]), 4)   # ln 2
    0.6931
    """
    confusion = _confusion(
        y_true, y_pred, labels, sample_weight, need_order=False, measure="mutual information"
    )
    return _mutual_information_from_confusion(confusion)


@validate_params(
    {**_DATA, "class_values": ["array-like", None]}, prefer_skip_nested_validation=True
)
def pearson_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    class_values: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Pearson's correlation between the values of the true and predicted classes.

    .. math::

        r = \frac{\sum_d w_d (v(y_d) - \bar v)(v(\hat y_d) - \bar{\hat v})}
                 {\sqrt{\sum_d w_d (v(y_d) - \bar v)^2 \sum_d w_d
                  (v(\hat y_d) - \bar{\hat v})^2}}

    with class values :math:`v` (numeric labels themselves, else class positions,
    or ``class_values``) and weighted means :math:`\bar v, \bar{\hat v}`.
    Unweighted on numbers, :func:`scipy.stats.pearsonr`'s statistic. 0.0, with a
    warning, when one side holds a single class.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order.
    class_values : array-like of shape (n_classes,), default=None
        Strictly increasing numbers standing for the classes. Default: numeric
        labels themselves, else class positions.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    correlation : float
        Between -1 and 1; higher is better.

    See Also
    --------
    scipy.stats.pearsonr : The unweighted statistic.
    spearman_score : The correlation of the ranks.

    References
    ----------
    .. [1] E. Amigó, J. Gonzalo, S. Mizzaro and J. Carrillo-de-Albornoz, "An
       Effectiveness Metric for Ordinal Classification: Formal Properties and
       Experimental Results", Proc. ACL 2020, pp. 3938-3949, section 4.2.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import pearson_score
    >>> round(pearson_score([1, 2, 3, 4], [1, 3, 3, 4]), 4)
    0.9234
    """
    confusion = ordinal_confusion(
        y_true,
        y_pred,
        labels=labels,
        class_values=class_values,
        sample_weight=sample_weight,
        measure="Pearson's correlation",
    )
    return _pearson_from_confusion(confusion)


# No weighted form (SciPy has none): these take no sample_weight.


@validate_params(
    {key: _DATA[key] for key in ("y_true", "y_pred", "labels")},
    prefer_skip_nested_validation=True,
)
def spearman_score(
    y_true: ArrayLike, y_pred: ArrayLike, *, labels: Optional[ArrayLike] = None
) -> float:
    r"""Spearman's rank correlation of the true and predicted classes.

    Pearson's correlation of the items' ranks, ties sharing the mean of their
    ranks (mid-ranks), as :func:`scipy.stats.spearmanr`: with the classes in their
    order, a class's items all have the mid-rank of the class. Unchanged by any
    increasing relabelling. 0.0, with a warning, when one side holds a single class.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order (needed for string labels that are not an
        ordered ``Categorical``).

    Returns
    -------
    correlation : float
        Between -1 and 1; higher is better.

    See Also
    --------
    scipy.stats.spearmanr : The same statistic on class positions.
    kendall_tau_b_score : A rank correlation counted in pairs.

    References
    ----------
    .. [1] C. Spearman, "The proof and measurement of association between two
       things", American Journal of Psychology 15(1), 1904.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import spearman_score
    >>> y_true = ["low", "mid", "high", "high"]
    >>> y_pred = ["low", "high", "mid", "high"]
    >>> round(spearman_score(y_true, y_pred, labels=["low", "mid", "high"]), 4)
    0.5
    """
    confusion = _confusion(
        y_true, y_pred, labels, need_order=True, measure="Spearman's correlation"
    )
    return _spearman_from_confusion(confusion)


@validate_params(
    {key: _DATA[key] for key in ("y_true", "y_pred", "labels")},
    prefer_skip_nested_validation=True,
)
def kendall_tau_b_score(
    y_true: ArrayLike, y_pred: ArrayLike, *, labels: Optional[ArrayLike] = None
) -> float:
    r"""Kendall's tau-b of the true and predicted classes.

    .. math::

        \tau_b = \frac{C - D}{\sqrt{(P - T_\text{true})(P - T_\text{pred})}}

    with :math:`C` and :math:`D` the concordant and discordant pairs of items,
    :math:`P` all pairs and :math:`T` the pairs tied on one side:
    :func:`scipy.stats.kendalltau`'s default variant, on class positions. 0.0, with
    a warning, when one side holds a single class.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order.

    Returns
    -------
    tau : float
        Between -1 and 1; higher is better.

    See Also
    --------
    scipy.stats.kendalltau : The same statistic on class positions.
    kendall_tau_a_score : Ties counted as neither concordant nor discordant, over
        all pairs.

    References
    ----------
    .. [1] M. G. Kendall, "The treatment of ties in ranking problems", Biometrika
       33(3), 1945.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import kendall_tau_b_score
    >>> round(kendall_tau_b_score([1, 2, 3, 3], [1, 3, 2, 3]), 4)
    0.4
    """
    confusion = _confusion(y_true, y_pred, labels, need_order=True, measure="Kendall's tau-b")
    return _kendall_tau_b_from_confusion(confusion)


@validate_params(
    {**_DATA, "weights": [StrOptions({"linear", "quadratic"})],
     "class_values": ["array-like", None]},
    prefer_skip_nested_validation=True,
)
def value_weighted_kappa_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    weights: Literal["linear", "quadratic"] = "linear",
    labels: Optional[ArrayLike] = None,
    class_values: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""Weighted kappa with disagreement weights on class values, not class positions.

    With the confusion matrix :math:`O` (total weight :math:`N`), the expected matrix
    :math:`E_{ij} = O_{i\cdot} O_{\cdot j} / N` under independence and the class
    values :math:`v_k`:

    .. math::

        \kappa_w = 1 - \frac{\sum_{ij} W_{ij} O_{ij}}{\sum_{ij} W_{ij} E_{ij}},
        \qquad W_{ij} = |v_i - v_j| \ \text{(linear)} \ \text{or}\ (v_i - v_j)^2
        \ \text{(quadratic)}.

    This is the weighted kappa of Cohen (1968) and of Vanbelle and Albert (2009)
    with weights on predefined intervals between the classes, the reading of
    Amigó et al. (2020, Table 2), where weighted kappa is not ordinal invariant.
    :func:`weighted_kappa_score` uses class positions instead
    (:math:`v_k = k`), hence is unchanged by any increasing relabelling; the two
    agree when the class values are equidistant. 0.0, with a warning, when the
    denominator is 0 (``y_true`` and ``y_pred`` hold one and the same class).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted ordinal labels.
    weights : {"linear", "quadratic"}, default="linear"
        How a disagreement weighs with the distance between class values.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order.
    class_values : array-like of shape (n_classes,), default=None
        Strictly increasing numbers standing for the classes. Default: numeric
        labels themselves, else class positions.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    kappa : float
        At most 1; higher is better.

    References
    ----------
    .. [1] J. Cohen, "Weighted kappa: nominal scale agreement with provision for
       scaled disagreement or partial credit", Psychological Bulletin 70(4), 1968.
    .. [2] S. Vanbelle and A. Albert, "A note on the linearly weighted kappa
       coefficient for ordinal scales", Statistical Methodology 6(2), 2009.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import value_weighted_kappa_score
    >>> y_true, y_pred = [1, 2, 3, 3], [1, 3, 3, 2]
    >>> round(value_weighted_kappa_score(y_true, y_pred), 4)   # values 1, 2, 3: equidistant
    0.4286
    >>> round(value_weighted_kappa_score(y_true, y_pred, class_values=[1, 2, 10]), 4)
    0.0857
    """
    if weights not in ("linear", "quadratic"):
        raise ValueError(f'weights must be "linear" or "quadratic"; got {weights!r}.')
    confusion = ordinal_confusion(
        y_true,
        y_pred,
        labels=labels,
        class_values=class_values,
        sample_weight=sample_weight,
        measure=f"{weights} value-weighted kappa",
    )
    return _cohen_kappa_from_confusion(confusion, weights, on_values=True)


# The names the registry and the scorers were written with (and the tests import).
_cohen_kappa = weighted_kappa_score
_value_weighted_kappa = value_weighted_kappa_score
_mutual_information = mutual_information_score
_pearson = pearson_score
_spearman = spearman_score
_kendall_tau_b = kendall_tau_b_score
