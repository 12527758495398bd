"""Agreement between true and predicted ordinal classes: the measures CEM is compared with.

Amigó et al. (2020) compare CEM with accuracy, accuracy within n classes, balanced
accuracy, Cohen's kappa (plain and weighted), macro F1, correlation coefficients,
Kendall's tau-a and mutual information (``SPEC.md`` section 4). Two of them are
missing from scikit-learn and SciPy and are defined here, from the confusion
matrix: :func:`accuracy_within_score` and :func:`kendall_tau_a_score`. The others
are thin private wrappers, used by the scorers, that hand scikit-learn, SciPy or
NumPy the class codes (or the confusion matrix) produced by this package's label
validation, so that string labels and ordered categoricals are ordered as
everywhere else in the package.
"""

import warnings
from numbers import Integral

import numpy as np
from scipy import stats
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    f1_score,
)
from sklearn.utils._param_validation import Interval, validate_params

from .._labels import check_ordinal_targets, ordinal_confusion


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
def accuracy_within_score(y_true, y_pred, *, n=1, labels=None, sample_weight=None):
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
        y_true, y_pred, labels=labels, sample_weight=sample_weight, need_values=False
    )
    position = np.arange(len(confusion.classes))
    close_enough = np.abs(position[:, np.newaxis] - position) <= n
    matrix = confusion.matrix
    return float(matrix[close_enough].sum() / matrix.sum())


def _pair_counts(matrix):
    """Weights of the concordant and discordant pairs of a contingency table.

    A pair of cells ``(i, j)``, ``(i', j')`` with ``i' > i`` is concordant when
    ``j' > j`` and discordant when ``j' < j``; pairs tied on either side count in
    neither. Two cumulative sums give, for every cell, the weight of the cells
    below-right and below-left of it, so this is ``O(K^2)``.
    """
    # below[i, j] = weight of the cells in rows > i and columns >= j.
    below = np.zeros((matrix.shape[0] + 1, matrix.shape[1] + 1))
    below[:-1, :-1] = matrix[::-1, ::-1].cumsum(axis=0).cumsum(axis=1)[::-1, ::-1]
    below = below[1:]
    below_right = below[:, 1:]
    below_left = below[:, :1] - below[:, :-1]
    concordant = np.sum(matrix * below_right)
    discordant = np.sum(matrix * below_left)
    return concordant, discordant


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "labels": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def kendall_tau_a_score(y_true, y_pred, *, labels=None):
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
    confusion = ordinal_confusion(y_true, y_pred, labels=labels, need_values=False)
    n_samples = confusion.matrix.sum()
    if n_samples < 2:
        warnings.warn(
            "Kendall's tau-a needs at least two items; returning 0.0.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        return 0.0
    concordant, discordant = _pair_counts(confusion.matrix)
    return float((concordant - discordant) / (n_samples * (n_samples - 1) / 2))


# --- Private wrappers for the scorers ----------------------------------------------
# Each validates once with this package's rules and hands class codes (positions in
# the ordered class set) to the scikit-learn / SciPy function.


def _codes(y_true, y_pred, labels, sample_weight=None):
    classes, true_codes, pred_codes, sample_weight = check_ordinal_targets(
        y_true, y_pred, labels=labels, sample_weight=sample_weight
    )
    return len(classes), true_codes, pred_codes, sample_weight


def _accuracy(y_true, y_pred, *, labels=None, sample_weight=None):
    _, true_codes, pred_codes, sample_weight = _codes(y_true, y_pred, labels, sample_weight)
    return float(accuracy_score(true_codes, pred_codes, sample_weight=sample_weight))


def _balanced_accuracy(y_true, y_pred, *, labels=None, sample_weight=None):
    _, true_codes, pred_codes, sample_weight = _codes(y_true, y_pred, labels, sample_weight)
    return float(balanced_accuracy_score(true_codes, pred_codes, sample_weight=sample_weight))


def _macro_f1(y_true, y_pred, *, labels=None, sample_weight=None):
    # Averaged over the classes present in y_true or y_pred, as scikit-learn's
    # "f1_macro": a class absent from both has no F1 to average.
    _, true_codes, pred_codes, sample_weight = _codes(y_true, y_pred, labels, sample_weight)
    return float(f1_score(true_codes, pred_codes, average="macro", sample_weight=sample_weight))


def _cohen_kappa(y_true, y_pred, *, weights=None, labels=None, sample_weight=None):
    # labels=range(K): weighted kappa must see the positions in the whole ordered
    # class set, not in the classes that happen to occur.
    n_classes, true_codes, pred_codes, sample_weight = _codes(
        y_true, y_pred, labels, sample_weight
    )
    return float(
        cohen_kappa_score(
            true_codes,
            pred_codes,
            labels=np.arange(n_classes),
            weights=weights,
            sample_weight=sample_weight,
            replace_undefined_by=0.0,
        )
    )


def _mutual_information(y_true, y_pred, *, labels=None, sample_weight=None):
    """Mutual information (in nats, like scikit-learn's) of the weighted contingency table.

    ``H(true) + H(pred) - H(true, pred)`` with SciPy's entropy, which takes weights;
    ``sklearn.metrics.mutual_info_score`` truncates a weighted table to integers.
    """
    matrix = ordinal_confusion(
        y_true, y_pred, labels=labels, sample_weight=sample_weight, need_values=False
    ).matrix
    information = (
        stats.entropy(matrix.sum(axis=1)) + stats.entropy(matrix.sum(axis=0))
        - stats.entropy(matrix.ravel())
    )
    return max(float(information), 0.0)  # never below 0 but for rounding


def _warn_constant(name):
    warnings.warn(
        f"{name} is undefined when y_true or y_pred holds a single class; returning 0.0.",
        UndefinedMetricWarning,
        stacklevel=3,
    )
    return 0.0


def _pearson(y_true, y_pred, *, labels=None, class_values=None, sample_weight=None):
    """Pearson's correlation between the class values of true and predicted classes."""
    confusion = ordinal_confusion(
        y_true, y_pred, labels=labels, class_values=class_values, sample_weight=sample_weight
    )
    matrix = confusion.matrix
    if np.count_nonzero(matrix.sum(axis=1)) < 2 or np.count_nonzero(matrix.sum(axis=0)) < 2:
        return _warn_constant("Pearson's correlation")
    # The K x K cells, weighted by the confusion matrix, stand for the items.
    true_values, pred_values = np.meshgrid(confusion.values, confusion.values, indexing="ij")
    covariance = np.cov(true_values.ravel(), pred_values.ravel(), aweights=matrix.ravel())
    return float(covariance[0, 1] / np.sqrt(covariance[0, 0] * covariance[1, 1]))


def _rank_correlation(correlation, name, y_true, y_pred, labels):
    _, true_codes, pred_codes, _ = _codes(y_true, y_pred, labels)
    if np.ptp(true_codes) == 0 or np.ptp(pred_codes) == 0:
        return _warn_constant(name)
    return float(correlation(true_codes, pred_codes).statistic)


def _spearman(y_true, y_pred, *, labels=None):
    """Spearman's rank correlation of the class positions (ties get average ranks)."""
    return _rank_correlation(stats.spearmanr, "Spearman's correlation", y_true, y_pred, labels)


def _kendall_tau_b(y_true, y_pred, *, labels=None):
    """Kendall's tau-b of the class positions (SciPy's default variant)."""
    return _rank_correlation(stats.kendalltau, "Kendall's tau-b", y_true, y_pred, labels)


def _value_weighted_kappa(
    y_true, y_pred, *, weights="linear", labels=None, class_values=None, sample_weight=None
):
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
    The ``linear_weighted_kappa`` scorer uses class positions instead
    (:math:`v_k = k`), hence is unchanged by any increasing relabelling; the two
    agree when the class values are equidistant. 0.0, with a warning, when the
    denominator is 0 (a single class in ``y_true`` and ``y_pred`` together).

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
    >>> from sklearn_ordinal.metrics._agreement import _value_weighted_kappa
    >>> y_true, y_pred = [1, 2, 3, 3], [1, 3, 3, 2]
    >>> round(_value_weighted_kappa(y_true, y_pred), 4)   # values 1, 2, 3: equidistant
    0.4286
    >>> round(_value_weighted_kappa(y_true, y_pred, class_values=[1, 2, 10]), 4)
    0.0857
    """
    if weights not in ("linear", "quadratic"):
        raise ValueError(f'weights must be "linear" or "quadratic"; got {weights!r}.')
    confusion = ordinal_confusion(
        y_true, y_pred, labels=labels, class_values=class_values, sample_weight=sample_weight
    )
    observed = confusion.matrix
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / observed.sum()
    distance = np.abs(confusion.values[:, np.newaxis] - confusion.values)
    disagreement = distance if weights == "linear" else distance**2
    chance = np.sum(disagreement * expected)
    if chance == 0:
        warnings.warn(
            "Weighted kappa is undefined when y_true and y_pred hold a single class "
            "together; returning 0.0.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return 0.0
    return float(1 - np.sum(disagreement * observed) / chance)
