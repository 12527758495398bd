"""The one place where the package meets private or version-dependent scikit-learn API.

Every private scikit-learn name the package uses is imported here, with why it is
worth depending on and the first scikit-learn release that has it; the other modules
import it from here (``tests/test_compat.py`` holds them to that, and lists the one
exception left: the scorers' base class ``sklearn.metrics._scorer._BaseScorer``). The
rest are shims that behave the same from the oldest supported scikit-learn (1.7) to
the newest, so that a version difference is handled once, here, and CI tests it at
both ends.
"""

import warnings

import numpy as np

# `_fit_context` runs `fit` under the same parameter validation and config handling
# as scikit-learn's own estimators (since 1.3).
from sklearn.base import _fit_context
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import cohen_kappa_score as _sklearn_cohen_kappa_score
from sklearn.metrics import confusion_matrix

# The parameter validation of every public function and estimator: scikit-learn's
# own `InvalidParameterError` messages, skipped under `set_config(skip_parameter_
# validation=True)` like scikit-learn's (module since 1.2; `prefer_skip_nested_
# validation`, which the package passes, since 1.3).
from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    StrOptions,
    validate_params,
)

# `_num_samples` counts the rows of any input scikit-learn accepts (lists,
# DataFrames, sparse matrices) without converting it (in sklearn.utils.validation
# in every release checked, 1.1 to 1.9).
from sklearn.utils.validation import _num_samples

__all__ = [
    "HasMethods",
    "Interval",
    "StrOptions",
    "_fit_context",
    "_num_samples",
    "check_matplotlib_support",
    "cohen_kappa_score",
    "validate_params",
]


def check_matplotlib_support(caller_name):
    """Raise an ImportError that names the ``plot`` extra when matplotlib is missing.

    Our own rather than scikit-learn's private one (moved to
    ``sklearn.utils._optional_dependencies`` in 1.5): it is four lines, and ours can
    name this package's extra.

    Parameters
    ----------
    caller_name : str
        The function or method that needs matplotlib, for the message.
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError as error:
        raise ImportError(
            f"{caller_name} requires matplotlib: install it with "
            "`pip install 'sklearn-ordinal[plot]'` (or `pip install matplotlib`)."
        ) from error


def cohen_kappa_score(
    y1, y2, *, labels=None, weights=None, sample_weight=None, replace_undefined_by=np.nan
):
    r""":func:`sklearn.metrics.cohen_kappa_score`, undefined case included, on every version.

    Kappa is :math:`1 - \sum_{ij} w_{ij} O_{ij} / \sum_{ij} w_{ij} E_{ij}`, with
    :math:`E` the outer product of the two marginals over the total weight. It is
    undefined when the expected disagreement :math:`\sum w_{ij} E_{ij}` is 0: the
    disagreement weights are positive off the diagonal, so exactly when no weight of
    ``y1`` and weight of ``y2`` sit on two different classes: both put everything on
    one and the same class. scikit-learn >= 1.9 returns ``replace_undefined_by`` with
    an ``UndefinedMetricWarning`` there; before, it has no such parameter and divides
    0 by 0. This decides the undefined case itself, the same way on every version, and
    leaves the defined case to scikit-learn.

    Parameters
    ----------
    y1, y2, labels, weights, sample_weight
        As in :func:`sklearn.metrics.cohen_kappa_score`.
    replace_undefined_by : float, default=np.nan
        The value returned, with an ``UndefinedMetricWarning``, when kappa is undefined.

    Returns
    -------
    kappa : float
    """
    confusion = confusion_matrix(y1, y2, labels=labels, sample_weight=sample_weight)
    in_y1 = confusion.sum(axis=1) > 0
    in_y2 = confusion.sum(axis=0) > 0
    # Exact, on booleans: no underflow of products of small weights to decide it.
    disagreement_possible = np.outer(in_y1, in_y2) & ~np.eye(len(confusion), dtype=bool)
    if not disagreement_possible.any():
        warnings.warn(
            "Cohen's kappa is undefined when the expected disagreement is 0 (both "
            "sides put all their weight on one class); returning "
            f"{replace_undefined_by}.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        return replace_undefined_by
    return _sklearn_cohen_kappa_score(
        y1, y2, labels=labels, weights=weights, sample_weight=sample_weight
    )
