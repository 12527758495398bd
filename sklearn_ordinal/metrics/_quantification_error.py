"""Scoring a quantifier from items: true and predicted prevalences per group.

Its own module above the registry, whose names it resolves (the prevalence measures
and :func:`prevalences` sit below the registry, which reads their kernels).
"""

from typing import Any, Optional

from numpy.typing import ArrayLike

from .._compat import StrOptions, validate_params
from ._quantification import _as_prevalences, item_prevalences
from ._registry import prevalence_measure, prevalence_names


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "groups": ["array-like"],
        "measure": [StrOptions(set(prevalence_names())), callable],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def quantification_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    groups: ArrayLike,
    *,
    measure: Any = "normalized_match_distance",
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> float:
    r"""A quantifier's error from items: true and predicted prevalences per group.

    The true prevalences of each group are the shares of its gold labels; the
    predicted ones, the shares of its predicted labels (classify and count) or the
    mean of its predicted class probabilities (a 2-D ``y_pred``), as
    :func:`prevalences` gives them. ``measure`` then compares the two, one row per
    group, averaged over the groups.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Gold labels.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted labels, or class probabilities with one column per class in
        class order.
    groups : array-like of shape (n_samples,)
        The group (topic, sample) of each item.
    measure : str or callable, default="normalized_match_distance"
        A prevalence measure's name (``"match_distance"`` or ``"emd"``,
        ``"normalized_match_distance"`` or ``"nmd"``,
        ``"root_normalized_order_aware_divergence"`` or ``"rnod"``), or one of these
        functions.
    labels : array-like of shape (n_classes,), default=None
        The classes in order, lowest first: the scale of the prevalences. Default:
        the gold labels' classes (an ordered Categorical's categories, or the
        numbers' own order); a predicted label outside them is an error naming it,
        never a wider scale (which would change the value).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights, within each group's prevalences (each group
        counts once in the mean, as in both shared tasks).

    Returns
    -------
    error : float
        Lower is better; 0 when every group's predicted prevalences are its true ones.

    See Also
    --------
    prevalences : The prevalence rows this compares.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import quantification_error
    >>> y_true = [0, 0, 1, 2, 1, 1]
    >>> y_pred = [0, 1, 0, 2, 2, 1]   # right counts in group "a", not in "b"
    >>> groups = ["a", "a", "a", "b", "b", "b"]
    >>> # "a": 0; "b": true (0, 2/3, 1/3), predicted (0, 1/3, 2/3), distance 1/3
    >>> round(quantification_error(y_true, y_pred, groups, measure="match_distance"), 6)
    0.166667
    """
    function = prevalence_measure(measure).function
    classes, _, gold, predicted = item_prevalences(y_true, y_pred, groups, labels,
                                                   sample_weight)
    if len(classes) < 2:
        raise ValueError(
            f"The items hold one class ({classes.tolist()}), so every prevalence is 1 and "
            "there is nothing to quantify; give every class of the scale with labels=[...]."
        )
    return float(function(_as_prevalences(gold), _as_prevalences(predicted)))
