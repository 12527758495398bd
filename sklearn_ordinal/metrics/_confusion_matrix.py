"""The weighted confusion matrix in class order: the intermediate of every label measure."""

# Annotations stay text: help() and the signature show ArrayLike, not its expansion.
from __future__ import annotations

from typing import Optional

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._compat import validate_params
from .._array_api import namespace_of, on_device
from .._confusion import ordinal_confusion


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def ordinal_confusion_matrix(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: Optional[ArrayLike] = None,
    sample_weight: Optional[ArrayLike] = None,
) -> NDArray[np.float64]:
    r"""Weighted confusion matrix with the classes in ordinal order.

    ``M[i, j]`` is the total weight of the items whose true class is :math:`c_i`
    and whose predicted class is :math:`c_j` (scikit-learn's orientation). Unlike
    :func:`sklearn.metrics.confusion_matrix`, the class order follows ``labels``,
    else the categories of an ordered pandas ``Categorical``, else sorted labels,
    and integer labels are counted without sorting. Every label-based measure of
    this package is a function of this matrix (and of the class values), so
    matrices computed on chunks of data can simply be added.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The classes in order. A label of ``y_true`` or ``y_pred`` outside it is an
        error.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    matrix : ndarray of shape (n_classes, n_classes)
        Float weights; rows are true classes, columns predicted classes. Under
        ``sklearn.set_config(array_api_dispatch=True)``, an array of the inputs'
        namespace on their device, as scikit-learn's ``confusion_matrix`` returns.

    See Also
    --------
    sklearn.metrics.confusion_matrix

    Examples
    --------
    >>> from sklearn_ordinal.metrics import ordinal_confusion_matrix
    >>> ordinal_confusion_matrix(["low", "mid", "high"], ["mid", "mid", "low"],
    ...                          labels=["low", "mid", "high"])
    array([[0., 1., 0.],
           [0., 1., 0.],
           [1., 0., 0.]])
    """
    confusion = ordinal_confusion(
        y_true,
        y_pred,
        labels=labels,
        sample_weight=sample_weight,
        need_values=False,
        measure="ordinal_confusion_matrix",
    )
    namespace = namespace_of(y_true, y_pred, sample_weight)
    if namespace is not None:
        return on_device(namespace.xp, namespace.device, confusion.weights)
    return confusion.weights
