r"""The scores of all K trivial classifiers at once, from the class counts, in closed form.

The trivial classifier :math:`\tilde\Phi_k` (Baccianella et al. 2009, section II)
puts every item into class :math:`c_k`, so its confusion matrix :math:`M^{(k)}` is
zero but for column :math:`k`, which holds the class counts: :math:`M^{(k)}_{jk} =
n_j`. Put into a measure of the confusion matrix, this one column collapses the
measure to a closed form in the counts :math:`n`, the class values :math:`v` and
:math:`k`. Each closed form here scores the :math:`K` trivial classifiers of one
measure in one vectorised step of at most :math:`O(K^2)` operations, where scoring
each :math:`M^{(k)}` would take :math:`K \times O(K^2)`.

With :math:`N = \sum_j n_j`, :math:`P` the set of classes with :math:`n_j > 0` and
:math:`[\cdot]` the indicator, the closed forms are:

- per-class errors (MAE, MSE, RMSE, zero-one): true class :math:`j` is off by
  :math:`|v_k - v_j|^p` (or :math:`[j \ne k]`) for all its items, averaged as the
  measure averages (micro, macro over :math:`P`, maximum over :math:`P`);
- accuracy :math:`n_k / N`; accuracy within :math:`m` classes
  :math:`\sum_{|j - k| \le m} n_j / N`; balanced accuracy :math:`[k \in P] / |P|`;
  macro F1 :math:`2 n_k / (n_k + N) / |P|` (a class absent from both sides has no F1,
  and an absent :math:`k` scores 0 anyway);
- minimum sensitivity and geometric mean of the sensitivities: 1 if
  :math:`P = \{k\}`, else 0 (another class has recall 0); GMSEC and MES the same
  over the extreme classes that have a true item (NaN if neither has);
- CEM: :math:`\sum_{j \in P} n_j \mathrm{prox}(c_k, c_j) / \sum_{j \in P} n_j
  \mathrm{prox}(c_j, c_j)`, the :math:`K \times K` proximities computed once;
- 0 for the measures of association (Cohen's kappa, plain, weighted or on values;
  mutual information; Pearson's, Spearman's and Kendall's correlations): a constant
  prediction is independent of the truth. The measures say when they are undefined
  for it, and warn: the correlations always (the prediction has one class),
  Kendall's tau-a with fewer than two items, kappa when :math:`P = \{k\}`.

Each closed form returns the scores and which trivial classifiers the measure warns
about, so that a fit can raise those warnings once instead of :math:`K` times. A
closed form takes the class counts, the class values and the keyword arguments of
the measure's function of the confusion matrix (same names and defaults); the
registry record of the measure holds it (``trivial_scores``), and the trivial
classifier (:mod:`sklearn_ordinal.dummy`) reads it there.
"""

import numpy as np

from ._closeness import _proximity


def _distance_error(counts, values, power, average):
    """Mean of :math:`|v_k - v_j|^p` over the items (micro), or over the classes with
    a true item (macro), or its maximum over them, for every trivial classifier k.

    The macro and max averages leave out, as the measures do, the classes with no
    true item, and warn about them.
    """
    present = counts > 0
    if average == "max":
        # The farthest class with a true item is the lowest or the highest one.
        low, high = values[present][[0, -1]]
        return np.maximum(values - low, high - values) ** power, not present.all()
    # In place: these passes over K x K numbers are the whole cost.
    distance = values[:, np.newaxis] - values[present]
    np.abs(distance, out=distance)
    distance **= power
    if average == "micro":
        distance *= counts[present]
        return distance.sum(axis=1) / counts.sum(), False
    if average == "macro":
        return distance.mean(axis=1), not present.all()
    raise ValueError(f"average={average!r} gives no single number per trivial classifier.")


def _trivial_mean_absolute_error(counts, values, average="micro"):
    return _distance_error(counts, values, 1, average)


def _trivial_mean_squared_error(counts, values, average="micro"):
    return _distance_error(counts, values, 2, average)


def _trivial_root_mean_squared_error(counts, values, average="micro"):
    mse, warns = _distance_error(counts, values, 2, average)
    return np.sqrt(mse), warns


def _trivial_mean_zero_one_error(counts, values, average="micro"):
    """Every item of a class other than k is wrong: O(K), no K x K matrix."""
    present = counts > 0
    if average == "micro":
        return (counts.sum() - counts) / counts.sum(), False
    n_present = np.count_nonzero(present)
    wrong_classes = n_present - present  # classes with a true item, other than k
    if average == "macro":
        return wrong_classes / n_present, not present.all()
    if average == "max":
        return (wrong_classes > 0) * 1.0, not present.all()
    raise ValueError(f"average={average!r} gives no single number per trivial classifier.")


def _trivial_macro_mean_absolute_error(counts, values):
    return _trivial_mean_absolute_error(counts, values, "macro")


def _trivial_macro_mean_squared_error(counts, values):
    return _trivial_mean_squared_error(counts, values, "macro")


def _trivial_macro_root_mean_squared_error(counts, values):
    return _trivial_root_mean_squared_error(counts, values, "macro")


def _trivial_macro_mean_zero_one_error(counts, values):
    return _trivial_mean_zero_one_error(counts, values, "macro")


def _trivial_only_recall(counts, values):
    """Minimum sensitivity and geometric mean: 1 when k is the only class with a true
    item, else 0 (another class, never predicted, has recall 0)."""
    present = counts > 0
    only = present & (np.count_nonzero(present) == 1)
    return only.astype(np.float64), not present.all()


def _extreme_recalls(counts):
    """The extreme classes with a true item (each has recall ``[extreme == k]``), and
    whether one lacks a true item (the measures then warn)."""
    extremes = np.unique([0, len(counts) - 1])
    present = extremes[counts[extremes] > 0]
    return present, len(present) < len(extremes)


def _trivial_gmsec(counts, values):
    present, warns = _extreme_recalls(counts)
    if not len(present):
        return np.full(len(counts), np.nan), True
    scores = np.zeros(len(counts))
    if len(present) == 1:  # with both extremes, one of the recalls is 0
        scores[present] = 1.0
    return scores, warns


def _trivial_mes(counts, values):
    present, warns = _extreme_recalls(counts)
    if not len(present):
        return np.full(len(counts), np.nan), True
    scores = np.zeros(len(counts))
    scores[present] = 1.0 / len(present)
    return scores, warns


def _trivial_cem(counts, values, scale="ordinal", flat=False):
    gold = counts > 0
    # Rows: the predicted class k. Columns without gold are left out, as the measure
    # leaves out cells without weight: only there can a proximity be infinite.
    proximity = _proximity(counts, values, scale, flat)
    best = np.sum(counts[gold] * proximity.diagonal()[gold])
    achieved = proximity[:, gold]
    achieved *= counts[gold]
    return achieved.sum(axis=1) / best, False


def _trivial_accuracy_within(counts, values, n=1):
    n_classes = len(counts)
    n = min(n, n_classes)  # a wider window adds nothing (and n may be huge)
    upto = np.concatenate([[0.0], np.cumsum(counts)])
    position = np.arange(n_classes)
    # A non-decreasing cumulative sum: a window of empty classes is exactly 0.
    within = upto[np.minimum(position + n + 1, n_classes)] - upto[np.maximum(position - n, 0)]
    return within / counts.sum(), False


def _trivial_accuracy(counts, values):
    return counts / counts.sum(), False


def _trivial_balanced_accuracy(counts, values):
    present = counts > 0
    return present / np.count_nonzero(present), False


def _trivial_macro_f1(counts, values):
    # F1 is averaged over the classes in y_true or y_pred: those with a true item,
    # and k, whose F1 is 0 when it has none (so the average is 0 then anyway).
    return 2 * counts / (counts + counts.sum()) / np.count_nonzero(counts), False


def _trivial_kappa(counts, values, weights=None, on_values=False):
    """0: the observed matrix equals the expected one. Undefined (0.0 with a warning)
    for the k no present true class disagrees with by a positive weight (the only
    class with a true item, for the named weights)."""
    present = counts > 0
    if weights is None or isinstance(weights, str):
        return np.zeros(len(counts)), present & (np.count_nonzero(present) == 1)
    positive = np.asarray(weights, dtype=np.float64) > 0
    return np.zeros(len(counts)), ~np.any(present[:, np.newaxis] & positive, axis=0)


def _trivial_mutual_information(counts, values):
    return np.zeros(len(counts)), False


def _trivial_correlation(counts, values):
    """A constant prediction has no variance: the correlations warn and return 0.0."""
    return np.zeros(len(counts)), True


def _trivial_kendall_tau_a(counts, values):
    """No pair is concordant or discordant: every pair is tied in the prediction.
    Fewer than two items make no pair at all (0.0 with a warning)."""
    return np.zeros(len(counts)), counts.sum() < 2
