"""The one place where the package meets private or version-dependent scikit-learn API.

Every private scikit-learn name the package uses is imported here, with why it is
worth depending on and the first scikit-learn release that has it; the other modules
import it from here (``tests/test_compat.py`` holds them to that). The rest are shims
that behave the same from the oldest supported scikit-learn (1.6) to the newest, so
that a version difference is handled once, here, and CI tests it at both ends.
"""

import importlib
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

# `_fit_context` runs `fit` under the same parameter validation and config handling
# as scikit-learn's own estimators (since 1.3).
from sklearn.base import _fit_context

# The scorers' base class: subclassing it is what lets a scorer read the fitted
# estimator's `classes_` (the class order) while taking part, like scikit-learn's own
# scorers, in prediction caching of multi-metric scoring, `sample_weight` routing of
# searches and metadata routing; `make_scorer` hands the measure only the
# predictions. Its `_score(method_caller, estimator, X, y_true, **kwargs)` protocol
# and `_response_method` (a tuple allowed) are what scikit-learn calls (since 1.4).
from sklearn.metrics._scorer import _BaseScorer

# The parameter validation of every public function and estimator: scikit-learn's
# own `InvalidParameterError` messages, skipped under `set_config(skip_parameter_
# validation=True)` like scikit-learn's (module since 1.2; `prefer_skip_nested_
# validation`, which the package passes, since 1.3).
from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    InvalidParameterError,
    StrOptions,
    validate_parameter_constraints,
)
from sklearn.utils._param_validation import validate_params as _sklearn_validate_params

# `get_namespace_and_device` gives the Array API namespace and device of a call's
# arrays under `set_config(array_api_dispatch=True)`, with scikit-learn's own errors
# for arrays of several namespaces or devices, so that our measures accept what its
# metrics accept (in sklearn.utils._array_api since 1.4).
from sklearn.utils._array_api import get_namespace_and_device

# `is_array_api_obj` tells an array of any Array API library, PyTorch's tensors
# included (they have no `__array_namespace__`): array-api-compat's, which
# scikit-learn vendors from 1.7 and needs installed for dispatch at 1.6.
def _find_array_api_compat() -> Any:
    for name in ("sklearn.externals.array_api_compat", "array_api_compat"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


_ARRAY_API_COMPAT = _find_array_api_compat()


def is_array_api_obj(x: object) -> bool:
    """Whether ``x`` is an array of an Array API library (NumPy, PyTorch, CuPy, ...)."""
    if _ARRAY_API_COMPAT is None:  # no dispatch is possible: the standard's own mark
        return hasattr(x, "__array_namespace__")
    return bool(_ARRAY_API_COMPAT.is_array_api_obj(x))


# `_safe_indexing` takes the rows of any input scikit-learn accepts (arrays, lists,
# DataFrames, sparse matrices) as cross-validation does; documented in scikit-learn's
# API reference despite its name (in sklearn.utils since 0.24).
from sklearn.utils import _safe_indexing

# `_num_samples` counts the rows of any input scikit-learn accepts (lists,
# DataFrames, sparse matrices) without converting it (in sklearn.utils.validation
# in every release checked, 1.1 to 1.9).
from sklearn.utils.validation import _num_samples

# The pool-adjacent-violators algorithm. SciPy's (since 1.12) takes the values in
# their order with positive weights; below 1.12, scikit-learn's public function of
# the same name does the same fit (both: the isotonic least-squares fit of a
# sequence, no merging of tied x values, which the callers do themselves).
try:
    from scipy.optimize import isotonic_regression as _scipy_isotonic_regression
except ImportError:  # SciPy < 1.12
    _scipy_isotonic_regression = None
from sklearn.isotonic import isotonic_regression as _sklearn_isotonic_regression

__all__ = [
    "HasMethods",
    "Interval",
    "InvalidParameterError",
    "StrOptions",
    "_BaseScorer",
    "_fit_context",
    "_num_samples",
    "_safe_indexing",
    "check_matplotlib_support",
    "get_namespace_and_device",
    "is_array_api_obj",
    "isotonic_regression",
    "validate_parameter_constraints",
    "validate_params",
]


_Function = TypeVar("_Function", bound=Callable[..., Any])


def validate_params(
    parameter_constraints: dict[str, Any], *, prefer_skip_nested_validation: bool
) -> Callable[[_Function], _Function]:
    """scikit-learn's ``validate_params`` decorator, which also leaves the constraints
    on the decorated function as ``_parameter_constraints``.

    The measure registry reads them there to check a measure's parameters at every
    door (intervals, chunks, reports) with the very rules and messages of a direct
    call, from the one dict the function declares. Typed to return the function's own
    type, so that the hints of a decorated function reach its callers (an untyped
    decorator would make every public measure ``Any`` to a type checker).
    """
    decorate = _sklearn_validate_params(
        parameter_constraints, prefer_skip_nested_validation=prefer_skip_nested_validation
    )

    def decorator(function: _Function) -> _Function:
        wrapper: _Function = decorate(function)
        # An attribute the registry reads, not part of the function's type.
        wrapper._parameter_constraints = dict(parameter_constraints)  # type: ignore[attr-defined]
        return wrapper

    return decorator


def check_matplotlib_support(caller_name: str) -> None:
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


def isotonic_regression(y: Any, weights: Any) -> Any:
    """The non-decreasing least-squares fit of ``y`` in its order, with positive
    ``weights``: SciPy's ``scipy.optimize.isotonic_regression`` where there is one
    (SciPy >= 1.12), else scikit-learn's ``sklearn.isotonic.isotonic_regression``.

    Parameters
    ----------
    y : ndarray of shape (n,)
        The values, in the order the fit must not decrease along.
    weights : ndarray of shape (n,)
        Positive weights.

    Returns
    -------
    fit : ndarray of shape (n,)
        The fitted values (float64).
    """
    y = np.asarray(y, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    if _scipy_isotonic_regression is not None:
        return np.asarray(_scipy_isotonic_regression(y, weights=weights).x, dtype=np.float64)
    return np.asarray(_sklearn_isotonic_regression(y, sample_weight=weights), dtype=np.float64)
