"""Probabilistic measures: how well predicted class probabilities fit the ordinal truth.

The ranked probability score (Epstein 1969) compares the cumulative predicted
distribution over the ordered classes with the cumulative distribution of the true
class (a step from 0 to 1 at the true class). Putting probability on a class near
the true one costs less than putting it on a distant one, which the log loss and
the Brier score ignore. It is a mean over items of a function of each item's
probabilities, not a function of the confusion matrix.
"""

# Annotations stay text: help() and the signature show ArrayLike, not its expansion.
from __future__ import annotations

from typing import Any, Optional

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._compat import validate_params
from .._validation import _on_the_host, check_scored_targets
from .._warnings import warn_user

# Rows of predicted probabilities may miss 1 by rounding (float32 models, softmax);
# skordinal accepts the same absolute slack.
_ROW_SUM_TOLERANCE = 1e-6


def _check_proba(y_proba: ArrayLike) -> NDArray[Any]:
    """``y_proba`` as a 2-D float array of probability rows, or a ValueError."""
    y_proba = np.asarray(y_proba)
    if y_proba.ndim != 2:
        raise ValueError(
            "y_proba must be 2-D, one row per item and one column per class in class "
            f"order (as predict_proba gives); got shape {y_proba.shape}."
        )
    if y_proba.dtype.kind not in "iuf":
        raise ValueError(f"y_proba must hold real numbers; got dtype {y_proba.dtype}.")
    y_proba = y_proba.astype(np.float64, copy=False)
    if y_proba.shape[1] < 2:
        raise ValueError(
            f"y_proba has {y_proba.shape[1]} column; the ranked probability score needs "
            "at least 2 classes."
        )
    if not np.isfinite(y_proba).all():
        raise ValueError("y_proba contains NaN or infinity; probabilities must be finite.")
    if (y_proba < 0).any():
        raise ValueError("y_proba contains negative values; probabilities are non-negative.")
    row_sums = y_proba.sum(axis=1)
    off = np.abs(row_sums - 1) > _ROW_SUM_TOLERANCE
    if off.any():
        row = int(np.flatnonzero(off)[0])
        raise ValueError(
            f"Each row of y_proba must sum to 1 (within {_ROW_SUM_TOLERANCE:g}); row {row} "
            f"sums to {float(row_sums[row])!r}. Pass probabilities (predict_proba), not scores."
        )
    return y_proba


@validate_params(
    {
        "y_true": ["array-like"],
        "y_proba": ["array-like"],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
        "normalize": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def ranked_probability_score_loss(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
    normalize: bool = False,
) -> float:
    r"""Ranked probability score (RPS) of predicted class probabilities.

    With :math:`p_{dk}` the probability given to class :math:`c_k` for item
    :math:`d`, :math:`F_{dk} = \sum_{l \le k} p_{dl}` its cumulative distribution
    and :math:`O_{dk} = [c_k \ge y_d]` that of the true class:

    .. math::

        \mathrm{RPS} = \frac{1}{N} \sum_d w_d \sum_{k=1}^{K} (F_{dk} - O_{dk})^2

    (the term :math:`k = K` is 0). Lower is better: 0 for a one-hot forecast of
    the true class, and at most :math:`K - 1`, for all the probability on the
    extreme class opposite the true one. Unlike the log loss, probability put
    near the true class costs less than probability put far from it.

    **Scale.** Peers disagree: skordinal and dlordinal sum over the classes, as
    above (``normalize=False``, the default); R's yardstick divides by
    :math:`K - 1` so that the score lies in [0, 1] (``normalize=True``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_proba : array-like of shape (n_samples, n_classes)
        Predicted probabilities, one column per class in class order: each row is
        non-negative and sums to 1 (within 1e-6).
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order, one per column of ``y_proba``. Default:
        the categories of an ordered ``Categorical`` ``y_true``, else the sorted
        numeric labels of ``y_true`` (which must then hold every class). String
        labels need this order. A fitted classifier's ``predict_proba`` columns
        follow its ``classes_``, which may not be the ordinal order: reorder them
        first, or use the scorer ``neg_ranked_probability_score``, which does.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.
    normalize : bool, default=False
        Divide by :math:`K - 1`, so that the score lies in [0, 1].

    Returns
    -------
    score : float
        Non-negative; lower is better.

    See Also
    --------
    sklearn.metrics.brier_score_loss : Ignores the order of the classes.
    sklearn.metrics.log_loss : Ignores the order of the classes.

    References
    ----------
    .. [1] E. S. Epstein, "A scoring system for probability forecasts of ranked
       categories", Journal of Applied Meteorology 8(6), 1969, pp. 985-987.
    .. [2] S. Janitza, G. Tutz and A.-L. Boulesteix, "Random forest for ordinal
       responses: prediction and variable selection", Computational Statistics &
       Data Analysis 96, 2016, pp. 57-73.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import ranked_probability_score_loss
    >>> y_true = [0, 0, 3, 2]
    >>> y_proba = [[0.2, 0.4, 0.2, 0.2],
    ...            [0.7, 0.1, 0.1, 0.1],
    ...            [0.5, 0.05, 0.1, 0.35],
    ...            [0.1, 0.05, 0.65, 0.2]]
    >>> labels = [0, 1, 2, 3]  # class 1 has no item: labels name every column
    >>> round(ranked_probability_score_loss(y_true, y_proba, labels=labels), 6)
    0.506875
    >>> round(ranked_probability_score_loss(y_true, y_proba, labels=labels, normalize=True), 6)
    0.168958
    >>> ranked_probability_score_loss(["low", "high"], [[1, 0, 0], [0, 0, 1]],
    ...                          labels=["low", "mid", "high"])
    0.0
    """
    per_item, kept_weight, scale = _item_scores(y_true, y_proba, labels, sample_weight, normalize)
    return float(np.average(per_item, weights=kept_weight)) * scale


def _item_scores(y_true, y_proba, labels, sample_weight, normalize=False):
    """``(per_item, sample_weight, scale)``: the RPS of each kept item before ``scale``.

    The measure is ``scale`` times the weighted mean of ``per_item`` (1, or
    ``1 / (K - 1)`` when ``normalize``); resampling redraws the items.
    """
    classes, codes, cumulative, sample_weight = _cumulative_forecasts(
        y_true, y_proba, labels, sample_weight, "ranked_probability_score_loss"
    )
    n_classes = len(classes)
    cumulative -= np.arange(n_classes - 1) >= codes[:, np.newaxis]
    per_item = np.einsum("ij,ij->i", cumulative, cumulative)
    return per_item, sample_weight, 1 / (n_classes - 1) if normalize else 1.0


def _cumulative_forecasts(y_true, y_proba, labels, sample_weight, measure):
    """``(classes, codes, F, sample_weight)`` of checked probabilities: ``F[i, k]``
    the cumulative probability :math:`P(Y \\le c_k)` of item ``i`` for the first
    ``K - 1`` classes (the K-th is 1 for every forecast), zero-weight items dropped."""
    y_true, y_proba, sample_weight = _on_the_host(measure, y_true, y_proba, sample_weight)
    y_proba = _check_proba(y_proba)
    classes, codes, y_proba, sample_weight, _ = check_scored_targets(
        y_true,
        y_proba,
        labels=labels,
        sample_weight=sample_weight,
        measure=measure,
    )
    n_classes = y_proba.shape[1]
    if len(classes) != n_classes:
        raise ValueError(
            f"y_proba has {n_classes} columns but there are {len(classes)} classes "
            f"{classes.tolist()}; give labels=[...] naming the class of each column, in "
            "class order."
        )
    # Cumulative sums over the first K - 1 classes: the K-th is 1 on both sides.
    return classes, codes, np.cumsum(y_proba[:, :-1], axis=1), sample_weight


def ranked_probability_score(*args: Any, **kwargs: Any) -> float:
    """Deprecated name of :func:`ranked_probability_score_loss` (a loss, named like
    :func:`sklearn.metrics.brier_score_loss`); it will be removed in 0.3.

    Parameters
    ----------
    *args, **kwargs
        Those of :func:`ranked_probability_score_loss`.

    Returns
    -------
    loss : float
        :func:`ranked_probability_score_loss` of the arguments.
    """
    warn_user(
        "ranked_probability_score was renamed ranked_probability_score_loss in 0.2 (a loss "
        "is named like scikit-learn's brier_score_loss); the old name will be removed in "
        "0.3.",
        FutureWarning
    )
    return ranked_probability_score_loss(*args, **kwargs)
