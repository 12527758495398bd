"""The weighted confusion matrix in class order: the intermediate of every label measure."""

import warnings
from functools import lru_cache, partial

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._compat import validate_params
from .._labels import _unwrap_measure, ordinal_confusion


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def ordinal_confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None):
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
        Float weights; rows are true classes, columns predicted classes.

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
    return confusion.weights


def _matrices_warning(template, n_affected=None, n_matrices=None, classes=None):
    """An UndefinedMetricWarning about some confusion matrices of a stack.

    A measure computed from a stack of matrices warns once per kind of problem,
    saying in how many matrices it arose, instead of once per matrix. The pieces
    stay on the warning, as ``parts``, so that
    :func:`~sklearn_ordinal.metaeval.score_systems`, which scores a stack in several
    parts, can merge the warnings of the parts into one. ``template`` holds
    ``{where}`` (and ``{classes}`` when ``classes`` is given); one matrix
    (``n_matrices=None``) keeps the message it always had.
    """
    where = "" if n_matrices is None else f" in {n_affected} of {n_matrices} confusion matrices"
    warning = UndefinedMetricWarning(template.format(where=where, classes=classes))
    warning.parts = (template, n_affected, n_matrices, classes)
    return warning


def _warn_for_matrices(affected, template, stacklevel, classes=None, class_mask=None):
    """One warning if ``affected`` (one bool per matrix, shape ``(...)``) holds anywhere.

    ``class_mask`` (shape ``(..., n)``) marks, per matrix, the classes (of
    ``classes``, shape ``(n,)``) the message names; a stack names those of any
    affected matrix. ``stacklevel`` counts from the caller, as in ``warnings.warn``.
    """
    if not np.any(affected):
        return
    if classes is not None:
        classes = np.asarray(classes)[np.any(class_mask[affected], axis=0)].tolist()
    if np.ndim(affected) == 0:
        warning = _matrices_warning(template, classes=classes)
    else:
        warning = _matrices_warning(
            template, int(np.count_nonzero(affected)), int(np.size(affected)), classes
        )
    warnings.warn(warning, stacklevel=stacklevel + 1)


def _one_or_many(result):
    """A Python float for one matrix, the array of results for a stack."""
    return float(result) if np.ndim(result) == 0 else result


# Every label measure as a function of the confusion matrix: ``from_confusion(
# confusion, **kwargs)`` computes ``measure(y_true, y_pred, **kwargs)`` from the
# :class:`~sklearn_ordinal._labels.OrdinalConfusion` of the data (``labels``,
# ``class_values`` and ``sample_weight`` are already in it). Resampling (a
# multinomial draw of the cells) and chunked data (matrices summed over chunks) use
# it; a new label measure adds its pair here. Each also takes a stack: ``matrix`` of
# shape (..., K, K) gives results of shape (...), one per matrix, in one pass of NumPy
# over the stack (the meta-evaluation scores thousands of matrices at once); the
# undefined cases give what each matrix alone would, with one warning for all.
@lru_cache(maxsize=1)
def _from_confusion_registry():
    from ._agreement import (
        _accuracy,
        _accuracy_from_confusion,
        _accuracy_within_score_from_confusion,
        _balanced_accuracy,
        _balanced_accuracy_from_confusion,
        _cohen_kappa,
        _cohen_kappa_from_confusion,
        _kendall_tau_a_score_from_confusion,
        _kendall_tau_b,
        _kendall_tau_b_from_confusion,
        _macro_f1,
        _macro_f1_from_confusion,
        _mutual_information,
        _mutual_information_from_confusion,
        _pearson,
        _pearson_from_confusion,
        _spearman,
        _spearman_from_confusion,
        _value_weighted_kappa,
        accuracy_within_score,
        kendall_tau_a_score,
    )
    from ._closeness import _cem_score_from_confusion, cem_score
    from ._error import (
        _mean_absolute_error_from_confusion,
        _mean_squared_error_from_confusion,
        _mean_zero_one_error_from_confusion,
        _root_mean_squared_error_from_confusion,
        mean_absolute_error,
        mean_squared_error,
        mean_zero_one_error,
        root_mean_squared_error,
    )

    from ._sensitivity import (
        _geometric_mean_score_from_confusion,
        _gmsec_score_from_confusion,
        _mes_score_from_confusion,
        _minimum_sensitivity_score_from_confusion,
        geometric_mean_score,
        gmsec_score,
        mes_score,
        minimum_sensitivity_score,
    )

    return {
        mean_absolute_error: _mean_absolute_error_from_confusion,
        mean_squared_error: _mean_squared_error_from_confusion,
        root_mean_squared_error: _root_mean_squared_error_from_confusion,
        mean_zero_one_error: _mean_zero_one_error_from_confusion,
        minimum_sensitivity_score: _minimum_sensitivity_score_from_confusion,
        geometric_mean_score: _geometric_mean_score_from_confusion,
        gmsec_score: _gmsec_score_from_confusion,
        mes_score: _mes_score_from_confusion,
        cem_score: _cem_score_from_confusion,
        accuracy_within_score: _accuracy_within_score_from_confusion,
        kendall_tau_a_score: _kendall_tau_a_score_from_confusion,
        _accuracy: _accuracy_from_confusion,
        _balanced_accuracy: _balanced_accuracy_from_confusion,
        _macro_f1: _macro_f1_from_confusion,
        _cohen_kappa: _cohen_kappa_from_confusion,
        _mutual_information: _mutual_information_from_confusion,
        _pearson: _pearson_from_confusion,
        _spearman: _spearman_from_confusion,
        _kendall_tau_b: _kendall_tau_b_from_confusion,
        _value_weighted_kappa: partial(_cohen_kappa_from_confusion, on_values=True),
    }


def _measure_from_confusion(measure):
    """The function of the confusion matrix that ``measure`` computes, or None.

    ``measure`` is a label measure of this package, or a ``functools.partial`` of one.
    """
    measure, keywords = _unwrap_measure(measure)
    from_confusion = _from_confusion_registry().get(measure)
    if from_confusion is None:
        return None
    return partial(from_confusion, **keywords) if keywords else from_confusion
