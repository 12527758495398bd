"""Scorers: ordinal measures as ``scorer(estimator, X, y)`` callables.

A scorer built here works wherever scikit-learn takes ``scoring=``. It differs from
one made by :func:`sklearn.metrics.make_scorer` in two ways that matter for ordinal
data:

- the class set and its order come from the fitted estimator's ``classes_``, so a
  cross-validation test fold that lacks a class is still scored over the full class
  set (with string labels, class positions would otherwise shift);
- ``response="scores"`` turns any estimator's output into one real score per item,
  higher meaning a higher class, for the ranking measures;
- ``response="proba"`` hands the measure ``predict_proba`` with its columns in the
  ordinal class order, for the probabilistic measures.

The scorer class builds on scikit-learn's scorer base class, so that it takes part in
``sample_weight`` routing, metadata routing and prediction caching exactly like
scikit-learn's own scorers.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from functools import lru_cache
from inspect import signature
from typing import Any, Literal

import numpy as np
import pandas as pd
from sklearn.base import is_classifier
from sklearn.metrics import get_scorer as sklearn_get_scorer

from .._array_api import compress, host_views, namespace_of, on_device, to_host
from .._compat import _BaseScorer
from .._warnings import warn_user
from .._records import record_of
from .._validation import (
    _categories,
    _is_ordered_categorical,
    _ordered_categorical,
    check_item_sequence,
)
from . import _registry


@lru_cache(maxsize=None)
def _accepts(score_func, parameter):
    try:
        return parameter in signature(score_func).parameters
    except (TypeError, ValueError):
        return False


def _is_increasing(classes):
    try:
        return bool(np.all(classes[:-1] < classes[1:]))
    except TypeError:
        return False


def _stated_order(estimator, y_true, labels):
    """The ordered class set to score against, or None when nobody states an order.

    ``labels`` given to the scorer win; then the categories of an ordered
    categorical ``y_true``; then the estimator's ``classes_`` when they state an
    order (docs/user_guide/conventions.rst): numbers, joined with any number of
    ``y_true`` the estimator never saw, or labels not in sorted order. Sorted
    strings state nothing (a classifier sorts its string classes alphabetically), so
    the measure decides: an order-free measure takes them as a set, an ordinal one
    asks for the order.
    """
    if labels is not None:
        return np.asarray(labels)
    if _is_ordered_categorical(y_true):
        return _categories(_ordered_categorical(y_true))
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        return None
    classes = _host(classes)
    if classes.ndim != 1:
        return None
    if classes.dtype.kind not in "biuf":
        return None if _is_increasing(classes) else classes
    seen = _distinct(y_true)
    try:
        unseen = seen[~np.isin(seen, classes)]
    except TypeError:  # mixed label types: let the measure report them
        return classes
    if not len(unseen):
        return classes
    if not _is_increasing(classes) or np.asarray(unseen).dtype.kind not in "biuf":
        return classes  # the measure names the unknown labels
    return np.union1d(classes, unseen)


def _host(x):
    """A small array (``classes_``, ``labels``) as NumPy, from any namespace or device."""
    return np.asarray(x) if namespace_of(x) is None else to_host(x)


def _distinct(y):
    """The distinct labels of ``y``: by one hash pass on the host (the test fold rarely
    holds a label never trained on), by the namespace's sort on another device."""
    namespace = namespace_of(y)
    if namespace is None or namespace.on_host:
        return pd.unique(np.asarray(y if namespace is None else host_views(y)[0]).ravel())
    if y.ndim == 2 and y.shape[1] == 1:
        y = namespace.xp.reshape(y, (-1,))
    return compress(namespace.xp, [y])[0][0]


def _n_classes(classes):
    """How many classes (``len`` is no Array API operation)."""
    shape = getattr(classes, "shape", None)
    return len(classes) if shape is None or not shape else int(shape[0])


def _response(x):
    """An estimator's output as NumPy, or, on a device other than the host's, as it is
    with its namespace (the scorer reduces it there; None for NumPy)."""
    namespace = namespace_of(x)
    if namespace is None:
        return np.asarray(x), None
    if namespace.on_host:
        return host_views(x)[0], None
    return x, namespace


def _no_order_message(estimator_classes, consequence, example):
    """Why a classifier's ``classes_`` give no class order, in what they are."""
    shown = _host(estimator_classes)
    if shown.ndim != 1:
        return (
            f"The classifier's classes_ {shown.tolist()} are not one flat list of classes "
            f"(shape {shown.shape}: a multi-output classifier's), so {consequence}. "
            "Ordinal measures score one output: fit the classifier on a 1-D y."
        )
    return (
        f"The classifier's classes {shown.tolist()} are strings in sorted order, which "
        f"states no ordinal order, so {consequence}. Make the scorer with labels=[...] "
        f"(lowest class first), e.g. {example}, or pass y as an ordered pandas Categorical."
    )


def _class_positions(labels, classes):
    """Position of each of ``labels`` in the ordered ``classes``."""
    labels, namespace = _response(labels)
    if namespace is not None:
        return _device_positions(labels, classes, namespace)
    positions = {label: k for k, label in enumerate(np.asarray(classes).tolist())}
    try:
        return np.array([positions[label] for label in np.asarray(labels).tolist()], dtype=float)
    except KeyError as exc:
        raise ValueError(
            f"The estimator has class {exc.args[0]!r}, which is not among the classes "
            f"{np.asarray(classes).tolist()} being scored; give the scorer labels= that "
            "include it."
        ) from None


def _device_positions(labels, classes, namespace):
    """:func:`_class_positions` of labels on another device: the K distinct labels
    are looked up on the host, each item's position then gathered on the device."""
    xp = namespace.xp
    distinct = compress(xp, [labels])[0][0]
    positions = _class_positions(distinct, classes)
    at = xp.searchsorted(on_device(xp, namespace.device, distinct), labels)
    return xp.take(on_device(xp, namespace.device, positions), at)


def _expected_class(proba, positions=None):
    r"""The expected class position :math:`\sum_k k \, p_k` of each row of ``proba``.

    How the ranking measures read class probabilities: one real score per item,
    higher for a higher class. ``positions``: each column's class position (default
    ``0, ..., K - 1``, columns in class order).
    """
    proba, namespace = _response(proba)
    if positions is None:
        positions = np.arange(proba.shape[1], dtype=np.float64)
    if namespace is not None:
        xp = namespace.xp
        weights = on_device(xp, namespace.device, np.asarray(positions, dtype=np.float64))
        return xp.astype(proba, xp.float64) @ weights
    return np.asarray(proba, dtype=np.float64) @ positions


# The methods scikit-learn's response helper (and its prediction cache) knows.
_KNOWN_METHODS = ("predict", "predict_proba", "predict_log_proba", "decision_function")


def _call(method_caller, estimator, method, X):
    """``estimator.method(X)`` through scikit-learn's (caching) method caller.

    An ordinal model of another package may have ``classes_`` and ``predict_proba``
    without scikit-learn's classifier tag (mord's, for one); scikit-learn's response
    helper refuses anything but ``predict`` from such an estimator, so it is called
    directly, as is a method of the estimator's own (a latent score) that the helper
    does not know. So is a classifier fitted on one class: scikit-learn's helper takes
    it for a binary one and refuses its one probability column, which is a valid
    answer (every item is that class).
    """
    one_class = _n_classes(getattr(estimator, "classes_", ())) == 1
    if method not in _KNOWN_METHODS or (
        method != "predict" and (one_class or not is_classifier(estimator))
    ):
        return _in_place(getattr(estimator, method)(X))
    return _in_place(method_caller(estimator, method, X, pos_label=None))


def _in_place(output):
    """An output on a CPU device as a NumPy view of its memory (the scorer then scores
    NumPy arrays); an output on another device stays there."""
    namespace = namespace_of(output)
    return host_views(output)[0] if namespace is not None and namespace.on_host else output


def _first_method(estimator, methods):
    """The first of ``methods`` the estimator has (scikit-learn's rule for a tuple)."""
    for method in methods:
        if hasattr(estimator, method):
            return method
    raise ValueError(
        f"{type(estimator).__name__} has none of the methods {list(methods)} named by "
        "response_method=; name a method it has."
    )


def _labels_response(method_caller, estimator, X, classes, methods=None):
    """``predict`` (or the first of ``methods``): class labels, or a regressor's real
    values for the distance measures; fed to the measure as they are."""
    method = "predict" if methods is None else _first_method(estimator, methods)
    return _call(method_caller, estimator, method, X), method


def _predict_proba(method_caller, estimator, X, method="predict_proba"):
    """``predict_proba`` (or ``method``), one column per class of ``classes_``, in that
    order; ``predict_log_proba`` is turned into probabilities."""
    n_classes = _n_classes(estimator.classes_)
    proba, namespace = _response(_call(method_caller, estimator, method, X))
    xp = np if namespace is None else namespace.xp
    proba = xp.astype(proba, xp.float64) if namespace is not None else proba.astype(float)
    if method == "predict_log_proba":
        proba = xp.exp(proba)
    if proba.ndim == 1:  # binary: scikit-learn returns P(classes_[1]) alone
        proba = xp.stack([1.0 - proba, proba], axis=1)
    if proba.ndim != 2 or proba.shape[1] != n_classes:
        raise ValueError(
            f"The estimator's {method} gives {proba.shape[-1]} columns but it has "
            f"{n_classes} classes_; each column must be one class of classes_, in that "
            "order."
        )
    return proba


def _proba_response(method_caller, estimator, X, classes, methods=None):
    """``predict_proba`` with one column per class of ``classes``, in that order.

    The estimator's columns follow its ``classes_``; they are moved to the ordinal
    order, and a class it never saw in training gets probability 0. ``methods``: the
    methods to try instead of ``predict_proba`` (``response_method=``).
    """
    estimator_classes = getattr(estimator, "classes_", None)
    method = "predict_proba" if methods is None else _first_method(estimator, methods)
    if not hasattr(estimator, method) or estimator_classes is None:
        raise ValueError(
            f"{type(estimator).__name__} has no {method} (or no classes_), so it "
            "gives no class probabilities to score; a probabilistic measure needs a "
            "classifier with predict_proba."
        )
    if classes is None:
        raise ValueError(_no_order_message(
            estimator_classes, "its probability columns cannot be put in class order",
            "get_scorer('neg_ranked_probability_score', labels=[...])",
        ))
    proba = _predict_proba(method_caller, estimator, X, method)
    if namespace_of(proba) is not None:
        raise ValueError(
            "Probabilistic measures (ranked probability score) need NumPy arrays on the "
            "host: they read every item's class probabilities there. Move the arrays "
            "to the CPU, or score with a label or ranking measure."
        )
    ordered = np.zeros((proba.shape[0], len(classes)))
    ordered[:, _class_positions(_host(estimator_classes), classes).astype(np.intp)] = proba
    return ordered, method


def _decision_scores(method_caller, estimator, X, classes):
    """A one-column ``decision_function`` as a score, or None for several columns."""
    score, namespace = _response(_call(method_caller, estimator, "decision_function", X))
    if score.ndim != 1 and score.shape[1] != 1:
        return None
    score = score.ravel() if namespace is None else namespace.xp.reshape(score, (-1,))
    # A binary decision function points towards classes_[1]; flip it if that class
    # is the lower one in the ordinal order.
    estimator_classes = getattr(estimator, "classes_", None)
    if estimator_classes is not None and _n_classes(estimator_classes) == 2:
        low, high = _class_positions(_host(estimator_classes), classes)
        if high < low:
            score = -score
    return score


def _scores_and_method(method_caller, estimator, X, classes, methods=None, values=None):
    """One real score per item, higher meaning a higher class (the ranking guide), and the method
    that gave it.

    Default (``methods=None``): ``decision_function`` when it gives one column; else
    ``predict_proba`` reduced to the expected class position in ``classes``; else
    ``predict``, mapped to class positions for a classifier and taken as it is for a
    regressor. With ``methods`` (``response_method=``), the first of them the
    estimator has, read the same way (``predict_log_proba`` as ``predict_proba``; a
    method of the estimator's own as one score per item). Positions are only
    meaningful in a stated order, so a classifier needs ``classes``. ``values``: the
    value of each class position, to score on the class values instead (the tuned
    cut points of ``TunedThresholdsClassifierCV`` lie on its regressors' scale).
    """
    estimator_classes = getattr(estimator, "classes_", None)
    if estimator_classes is not None and classes is None:
        raise ValueError(_no_order_message(
            estimator_classes, "its output cannot be turned into ordinal scores",
            "get_scorer('vus', labels=[...])",
        ))
    if methods is None:
        if hasattr(estimator, "decision_function"):
            score = _decision_scores(method_caller, estimator, X, classes)
            if score is not None:
                return score, "decision_function"
        if hasattr(estimator, "predict_proba") and estimator_classes is not None:
            method = "predict_proba"
        else:
            method = "predict"
    else:
        method = _first_method(estimator, methods)
    if method == "decision_function":
        score = _decision_scores(method_caller, estimator, X, classes)
        if score is None:
            raise ValueError(
                f"{type(estimator).__name__}.decision_function gives one column per class, "
                "not one score per item, so it cannot be ranked; name another method in "
                "response_method= (predict_proba gives the expected class)."
            )
        return score, method
    def on_scale(positions):
        if values is None:
            return positions
        if namespace_of(positions) is not None:
            xp = namespace_of(positions).xp
            table = on_device(xp, namespace_of(positions).device, np.asarray(values, dtype=float))
            return xp.take(table, xp.astype(positions, xp.int64))
        return np.asarray(values)[positions.astype(np.intp)]

    if method in ("predict_proba", "predict_log_proba") and estimator_classes is not None:
        proba = _predict_proba(method_caller, estimator, X, method)
        return _expected_class(proba, on_scale(_class_positions(_host(estimator_classes), classes))), method
    prediction, namespace = _response(_call(method_caller, estimator, method, X))
    if method == "predict" and estimator_classes is not None:
        return on_scale(_class_positions(prediction, classes)), method
    if prediction.ndim == 2 and prediction.shape[1] == 1:
        prediction = (prediction.ravel() if namespace is None
                      else namespace.xp.reshape(prediction, (-1,)))
    if prediction.ndim != 1:
        raise ValueError(
            f"{type(estimator).__name__}.{method} gives an array of shape "
            f"{prediction.shape}, not one score per item; name a method that gives one "
            "real score per item in response_method=."
        )
    return prediction, method


def _scores_response(method_caller, estimator, X, classes, methods=None):
    """One real score per item, higher meaning a higher class (the ranking guide); see
    :func:`_scores_and_method`."""
    return _scores_and_method(method_caller, estimator, X, classes, methods)[0]


def _ranks_only_labels(scores, method, estimator, y_true, classes):
    """Whether the scores a ranking measure got from ``predict`` are hard class labels.

    A classifier's ``predict`` always gives labels; a regressor's gives labels when
    every value is one of the classes (mord's ``OrdinalRidge`` rounds its latent
    score), and a score when real-valued. Other methods give scores (probabilities,
    a decision function or a model's own score), even when they are ties.
    """
    if method != "predict":
        return False
    if getattr(estimator, "classes_", None) is not None:
        return True
    known = np.asarray(classes) if classes is not None else _distinct(y_true)
    if known.dtype.kind not in "biuf":
        return False
    return bool(np.all(np.isin(np.asarray(_distinct(scores), dtype=float), known)))


def _hard_labels_message(who, estimator, method, spelling):
    """The warning when one score per item was asked for and ``predict`` gave only
    class labels: ``who`` is what uses the scores ("make_ordinal_scorer(vus_score)
    ranks"), ``spelling`` how to name another method."""
    return (
        f"{who} hard class labels: {type(estimator).__name__}.{method} gave only class "
        "labels, so there are ties within every class instead of a score. Name the method "
        f"that gives the model's real-valued score with {spelling}, or use a regressor "
        "whose predict is real-valued."
    )


def _one_number(value, source):
    """``value`` as a float, or a ValueError: a measure gives one real number (or NaN).

    ``source`` names what returned ``value``: a string, or a function giving it, called
    only for the error (a scorer's repr prints its labels: slow for many classes).
    """
    if not isinstance(value, (bool, np.bool_)) and np.ndim(value) == 0:
        try:
            return float(value)
        except (TypeError, ValueError):
            pass
    source = source() if callable(source) else source
    raise ValueError(f"{source} returned {value!r}; a measure must return one real number.")


# What each response kind feeds the measure (``(values, method used)``), and the
# estimator methods it may call by default, in the order it tries them
# (scikit-learn's multi-metric cache checks these).
_RESPONSES = {
    "labels": (_labels_response, "predict"),
    "scores": (_scores_and_method, ("decision_function", "predict_proba", "predict")),
    # "predict" only so that the cache check passes an estimator without
    # predict_proba: it would otherwise raise an AttributeError that aborts every
    # scorer of the dict; the response itself refuses it with a ValueError.
    "proba": (_proba_response, ("predict_proba", "predict")),
}


class _OrdinalScorer(_BaseScorer):
    """Scorer for ordinal measures; see :func:`make_ordinal_scorer`.

    Read it through its public properties (``score_func``, ``kwargs``,
    ``greater_is_better``, ``response``), not through scikit-learn's private fields.
    """

    def __init__(self, score_func, sign, kwargs, response="labels", response_method=None):
        methods = _RESPONSES[response][1] if response_method is None else response_method
        super().__init__(score_func, sign, kwargs, response_method=methods)
        self._response = response
        # None: the response kind's own order (decision_function only when it gives
        # one column); else the tuple of methods the user named.
        self._methods = None if response_method is None else tuple(
            [response_method] if isinstance(response_method, str) else response_method
        )

    @property
    def score_func(self):
        """The measure, ``score_func(y_true, y_pred, **kwargs)``."""
        return self._score_func

    @property
    def kwargs(self):
        """The measure's fixed keyword arguments (a copy)."""
        return dict(self._kwargs)

    @property
    def greater_is_better(self):
        """Whether a higher value of the measure is better (the scorer negates it if not)."""
        return self._sign > 0

    @property
    def response(self):
        """``"labels"``, ``"scores"`` or ``"proba"``: what the measure is fed."""
        return self._response

    @property
    def methods(self):
        """The estimator methods named by ``response_method=`` (a tuple), or None for
        the response kind's default order."""
        return self._methods

    def _response_values(self, method_caller, estimator, X, classes):
        """``(what the measure is fed, the estimator method that gave it)``."""
        return _RESPONSES[self._response][0](method_caller, estimator, X, classes, self._methods)

    def __repr__(self):
        sign = "" if self._sign > 0 else ", greater_is_better=False"
        response = "" if self._response == "labels" else f", response={self._response!r}"
        if self._methods is not None:
            methods = self._methods[0] if len(self._methods) == 1 else self._methods
            response += f", response_method={methods!r}"
        # Long arrays (labels= of many classes) summarised, as NumPy does past 1000
        # items: scikit-learn builds this repr on every scorer call.
        with np.printoptions(threshold=20, edgeitems=3):
            kwargs = "".join(f", {key}={value!r}" for key, value in self._kwargs.items())
        # Functions by name; partials and callable objects by their repr.
        name = getattr(self._score_func, "__name__", None) or repr(self._score_func)
        return f"make_ordinal_scorer({name}{sign}{response}{kwargs})"

    def set_score_request(self, **kwargs):
        """Request metadata for scoring, as scikit-learn's scorers do.

        A measure with no weighted form refuses ``sample_weight=True`` here, when the
        request is made, rather than in every fold later.

        Parameters
        ----------
        **kwargs
            ``sample_weight=True`` (or False, None, or an alias name) and the
            measure's other metadata.

        Returns
        -------
        self : object
            The scorer, with its requests set.
        """
        wanted = kwargs.get("sample_weight")
        if wanted not in (None, False) and not _accepts(self._score_func, "sample_weight"):
            raise ValueError(
                f"{self!r} cannot request sample_weight: its measure has no weighted form "
                "(it takes no sample_weight). Score without weights, or choose a measure "
                "that takes them."
            )
        return super().set_score_request(**kwargs)

    def _accept_sample_weight(self):
        # Always: a measure with no weighted form must refuse weights loudly (in
        # _score) rather than have scikit-learn's multi-metric scoring drop them.
        return True

    def _score(self, method_caller, estimator, X, y_true, **kwargs):
        self._warn_overlap(
            message=(
                "There is an overlap between set kwargs of this scorer instance and "
                "passed metadata. Please pass them either as kwargs to "
                "`make_ordinal_scorer` or metadata, but not both."
            ),
            kwargs=kwargs,
        )
        scoring_kwargs = {**self._kwargs, **kwargs}
        if scoring_kwargs.get("sample_weight") is None:
            scoring_kwargs.pop("sample_weight", None)
        elif not _accepts(self._score_func, "sample_weight"):
            raise ValueError(
                f"{self!r} was given sample_weight, but its measure has no weighted form "
                "(it takes no sample_weight). Score without weights, or choose a measure "
                "that takes them."
            )
        check_item_sequence(y_true, "y_true")
        namespace = namespace_of(y_true, scoring_kwargs.get("sample_weight"))
        if namespace is not None and namespace.on_host:
            # A CPU device's arrays are the host's memory: scored as NumPy, in place.
            y_true, = host_views(y_true)
            if scoring_kwargs.get("sample_weight") is not None:
                scoring_kwargs["sample_weight"], = host_views(scoring_kwargs["sample_weight"])
        classes = _stated_order(estimator, y_true, scoring_kwargs.get("labels"))
        y_pred, method = self._response_values(method_caller, estimator, X, classes)
        if self._response == "scores" and _ranks_only_labels(
            y_pred, method, estimator, y_true, classes
        ):
            warn_user(_hard_labels_message(
                f"{self!r} ranks", estimator, method,
                "make_ordinal_scorer(..., response_method='...') (or "
                "get_scorer(name, response_method=...))",
            ))
        # One class order for the scores and the measure (a measure that takes no
        # labels orders the classes itself and must then refuse unordered strings).
        if classes is not None and _accepts(self._score_func, "labels"):
            scoring_kwargs["labels"] = classes
        value = self._score_func(y_true, y_pred, **scoring_kwargs)
        return self._sign * _one_number(value, self.__repr__)


def make_ordinal_scorer(
    score_func: Callable[..., Any] | str,
    *,
    greater_is_better: bool | None = None,
    response: Literal["labels", "scores", "proba"] | None = None,
    response_method: str | tuple[str, ...] | None = None,
    **kwargs: Any,
) -> Callable[..., float]:
    """Make a scorer from an ordinal measure (a function, or a measure name).

    Like :func:`sklearn.metrics.make_scorer`, with two differences: when the fitted
    estimator has ``classes_`` and ``score_func`` takes ``labels``, the scorer
    passes the estimator's classes as ``labels`` (so a test fold lacking a class is
    scored over the full, ordered class set), and ``response="scores"`` feeds the
    measure one real score per item instead of labels (``response="proba"``: the
    class probabilities, one column per class in the ordinal order).

    Parameters
    ----------
    score_func : callable or str
        ``score_func(y_true, y_pred, **kwargs)`` returning a float, or a measure
        name of this package (a name of :func:`get_scorer_names`, or a measure's own
        name such as ``"macro_mean_absolute_error"``): its function, with the
        arguments the name fixes, its direction and its response kind.
    greater_is_better : bool, default=None
        Whether a higher value of ``score_func`` is better. If False the scorer
        returns the negated value, following scikit-learn's ``neg_`` convention.
        None: the measure's own direction for a name, else True. A name refuses
        the opposite of its measure's direction.
    response : {"labels", "scores", "proba"}, default=None
        ``"labels"``: the measure gets ``estimator.predict(X)``. ``"scores"``: it
        gets ``decision_function`` when that returns one column, else
        ``predict_proba`` reduced to the expected class position
        :math:`\\sum_k k \\, p_k`, else ``predict`` mapped to class positions (a
        regressor's predictions are used as they are). ``"proba"``: it gets
        ``predict_proba`` with one column per class in the ordinal order (a class
        the estimator never saw gets probability 0); an estimator without
        ``predict_proba`` is a ValueError. None: what a name's measure reads, else
        ``"labels"``.
    response_method : str or tuple of str, default=None
        As in :func:`sklearn.metrics.make_scorer`: the estimator method that gives
        the response, or a tuple of methods tried in order (the first the estimator
        has is used). Its output is read as ``response`` says: for
        ``"scores"``, ``predict_proba`` (or ``predict_log_proba``) becomes the
        expected class position, a classifier's ``predict`` class positions, and any
        other method (``decision_function`` with one column, or a model's own
        latent score such as ``"latent_score"``) one real score per item. None: the
        order given under ``response``. A ranking measure that ends up ranking hard
        class labels warns, once per call, naming the method to give.
    **kwargs
        Further arguments passed to ``score_func``.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y_true, sample_weight=None)``; picklable when
        ``score_func`` is.

    See Also
    --------
    get_scorer : The scorers this package ships, by name.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn_ordinal.metrics import make_ordinal_scorer, mean_absolute_error
    >>> scorer = make_ordinal_scorer(mean_absolute_error, greater_is_better=False,
    ...                              average="micro")
    >>> scorer
    make_ordinal_scorer(mean_absolute_error, greater_is_better=False, average='micro')
    >>> X = [[0], [1], [2], [3], [4], [5]]
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> cross_val_score(LogisticRegression(), X, y, cv=2, scoring=scorer).shape
    (2,)
    """
    if isinstance(score_func, str):
        score_func, greater_is_better, response, kwargs = _named_measure(
            score_func, greater_is_better, response, kwargs
        )
    response = "labels" if response is None else response
    greater_is_better = True if greater_is_better is None else greater_is_better
    if response not in _RESPONSES:
        raise ValueError(f"response must be one of {sorted(_RESPONSES)}; got {response!r}.")
    if not callable(score_func):
        raise ValueError(f"score_func must be callable or a measure name; got {score_func!r}.")
    if not isinstance(greater_is_better, (bool, np.bool_)):
        raise ValueError(
            f"greater_is_better must be True or False; got {greater_is_better!r}."
        )
    _check_response_method(response_method)
    _check_method_reads(response, response_method, score_func)
    record, fixed = record_of(score_func)
    if record is not None:
        # A parameter the measure refuses is refused now, not in the first fold.
        record.check_params({**fixed, **kwargs})
    return _OrdinalScorer(
        score_func, 1 if greater_is_better else -1, kwargs, response, response_method
    )


def _check_response_method(response_method):
    """Refuse a ``response_method`` that is not a method name or a tuple of them."""
    if response_method is None or isinstance(response_method, str):
        return
    if (
        isinstance(response_method, (tuple, list))
        and response_method
        and all(isinstance(method, str) for method in response_method)
    ):
        return
    raise ValueError(
        "response_method must be an estimator method name (e.g. 'decision_function') or "
        f"a tuple of them, tried in order; got {response_method!r}."
    )


# Methods whose output is class probabilities, one column per class.
_PROBABILITY_METHODS = ("predict_proba", "predict_log_proba")


def _check_method_reads(response, response_method, score_func):
    """Refuse, at construction, a probability method for a measure of classes: its
    output (one column per class) is no class label, and would fail on its shape in
    every fold."""
    if response != "labels" or response_method is None:
        return
    methods = [response_method] if isinstance(response_method, str) else list(response_method)
    probability = [method for method in methods if method in _PROBABILITY_METHODS]
    if probability:
        name = getattr(score_func, "__name__", None) or repr(score_func)
        raise ValueError(
            f"{name} is a measure of predicted classes, so it cannot read "
            f"{probability[0]}'s class probabilities (response_method={response_method!r}). "
            "Leave response_method out (predict gives the classes), or choose a "
            "probabilistic measure (e.g. 'neg_ranked_probability_score')."
        )


def _named_measure(name, greater_is_better, response, kwargs):
    """``(function, direction, response, arguments)`` of a measure name of the registry.

    The name's fixed arguments join ``kwargs``; giving one of them another value, or
    the opposite direction, contradicts the name and is refused.
    """
    record, fixed, scorer_name = _registry.lookup(name)
    for key, value in fixed.items():
        if key in kwargs and kwargs[key] != value:
            raise ValueError(
                f"{name!r} fixes {key}={value!r}; got {key}={kwargs[key]!r}. Name the "
                f"measure {record.name!r} to choose {key} yourself."
            )
    if greater_is_better is not None and bool(greater_is_better) != record.greater_is_better:
        raise ValueError(
            f"{name!r} is a measure where {'higher' if record.greater_is_better else 'lower'}"
            f" is better; got greater_is_better={greater_is_better!r}. Leave it out."
        )
    if response is not None and response != record.reads:
        raise ValueError(
            f"{name!r} reads {record.reads!r}; got response={response!r}. Leave it out "
            "(response_method= chooses the estimator method)."
        )
    return record.function, record.greater_is_better, record.reads, {**fixed, **kwargs}


def _scorer_of(name):
    """This package's scorer of a scorer name of the registry."""
    record, fixed, _ = _registry.lookup(name, scorer_only=True)
    return make_ordinal_scorer(
        record.function,
        greater_is_better=record.greater_is_better,
        response=record.reads,
        **fixed,
    )


# Built once: get_scorer hands out copies.
_SCORERS = {name: _scorer_of(name) for name in _registry.scorer_names()}


def get_scorer_names() -> list[str]:
    """Names of all the scorers this package ships.

    Four names are also scikit-learn's: ``accuracy``, ``neg_mean_absolute_error``,
    ``neg_mean_squared_error`` and ``neg_root_mean_squared_error``. On integer class
    labels they give scikit-learn's numbers; they differ where scikit-learn's would
    be wrong for ordinal data: string labels are ordered by ``labels=`` or an ordered
    ``Categorical`` (never alphabetically), and the distances are counted over the
    estimator's whole class set. :func:`get_scorers` gives this package's scorer for
    such a name.

    Returns
    -------
    names : list of str
        Sorted names, each usable as ``scoring=get_scorer(name)``.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import get_scorer_names
    >>> "neg_macro_mean_absolute_error" in get_scorer_names()
    True
    """
    return sorted(_SCORERS)


def get_scorer(scoring: str | Callable[..., Any], **kwargs: Any) -> Callable[..., float]:
    """Get one of this package's scorers by name, with further measure arguments.

    Parameters
    ----------
    scoring : str or callable
        A name from :func:`get_scorer_names`, else one of
        :func:`sklearn.metrics.get_scorer_names` (scikit-learn's scorer); a callable
        is returned as it is.
    **kwargs
        Arguments of the scorer, as :func:`make_ordinal_scorer` takes them:
        ``labels=`` (the classes in order, lowest first: the way to score string
        classes that are not an ordered ``Categorical``), the measure's own
        parameters and ``response_method=``. An argument the measure does not take
        is refused here, by name. Only for this package's names.

    Returns
    -------
    scorer : callable
        A fresh copy of the scorer, so setting its metadata requests does not
        change the registry.

    Raises
    ------
    ValueError
        For a name neither package knows; the message lists the closest known names.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import get_scorer
    >>> get_scorer("neg_macro_mean_absolute_error")
    make_ordinal_scorer(macro_mean_absolute_error, greater_is_better=False)
    >>> get_scorer("neg_macro_mean_absolute_error", labels=["bad", "fair", "good"]).kwargs
    {'labels': ['bad', 'fair', 'good']}
    """
    if callable(scoring):
        if kwargs:
            raise ValueError(
                f"get_scorer returns a callable as it is, so it cannot take "
                f"{sorted(kwargs)}; pass a scorer name, or build the scorer with "
                "make_ordinal_scorer."
            )
        return scoring
    if not isinstance(scoring, str):
        raise ValueError(f"scoring must be a scorer name or a callable; got {scoring!r}.")
    if scoring in _SCORERS:
        if kwargs:
            return make_ordinal_scorer(scoring, **kwargs)
        return copy.deepcopy(_SCORERS[scoring])
    if kwargs:
        raise ValueError(
            f"{scoring!r} is not a scorer of sklearn_ordinal, so get_scorer cannot give it "
            f"{sorted(kwargs)}: scikit-learn's scorers are built with "
            f"sklearn.metrics.make_scorer.{_registry.did_you_mean(scoring, _SCORERS)}"
        )
    try:
        # A name of scikit-learn's own (``"f1_micro"``): its scorer, as get_scorers gives.
        return sklearn_get_scorer(scoring)
    except ValueError:
        raise ValueError(
            f"{scoring!r} is not a scorer of sklearn_ordinal."
            f"{_registry.did_you_mean(scoring, _SCORERS)} "
            "sklearn_ordinal.metrics.get_scorer_names() lists them all."
        ) from None


def _scorer_of_measure(measure):
    """The scorer of a measure given to a door that takes measures: a scorer or
    callable as it is; a name of this package's registry (a scorer name, or a
    measure's own name as the evaluation report shows it, e.g.
    ``"macro_mean_absolute_error"``), else a scorer name of scikit-learn."""
    if callable(measure) or not isinstance(measure, str) or measure in _SCORERS:
        return get_scorer(measure)
    try:
        _, _, scorer_name = _registry.lookup(measure)
    except ValueError:
        try:
            return sklearn_get_scorer(measure)
        except ValueError:
            raise ValueError(
                f"{measure!r} is not a measure of sklearn_ordinal (nor a scorer of "
                f"scikit-learn).{_registry.did_you_mean(measure)} "
                "sklearn_ordinal.metrics.get_scorer_names() lists them all."
            ) from None
    return get_scorer(scorer_name)


def get_scorers(
    names: str | Iterable[str], **kwargs: Any
) -> dict[str, Callable[..., float]]:
    """Scorers by name, as the dict ``GridSearchCV(scoring=...)`` takes.

    scikit-learn does not know this package's names
    (``scoring="neg_macro_mean_absolute_error"`` is refused), so this is the short
    path to several of them at once, mixed with scikit-learn's own: a name of this
    package gives its scorer (see :func:`get_scorer_names`, also for the four names
    both packages have), any other name scikit-learn's
    (:func:`sklearn.metrics.get_scorer`).

    Parameters
    ----------
    names : str or iterable of str
        Scorer names of this package or of scikit-learn.
    **kwargs
        Arguments given to every scorer, as :func:`get_scorer` takes them:
        ``labels=`` (the class order, lowest first), a measure parameter,
        ``response_method=``. A measure that does not take one of them is refused
        here, by name, not in the first fold. With arguments, every name must be
        this package's.

    Returns
    -------
    scorers : dict
        ``{name: scorer}`` in the order given, for ``scoring=`` of
        :class:`~sklearn.model_selection.GridSearchCV`,
        :func:`~sklearn.model_selection.cross_validate` and the like (with
        ``refit=`` naming one of them in a search).

    Raises
    ------
    ValueError
        For a name neither package knows, or a name given twice.

    See Also
    --------
    get_scorer : One scorer of this package.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_validate
    >>> from sklearn_ordinal.metrics import get_scorers
    >>> scoring = get_scorers(["neg_macro_mean_absolute_error", "cem_ord", "f1_macro"])
    >>> list(scoring)
    ['neg_macro_mean_absolute_error', 'cem_ord', 'f1_macro']
    >>> X, y = [[0], [1], [2], [3], [4], [5]] * 2, [0, 0, 1, 1, 2, 2] * 2
    >>> results = cross_validate(LogisticRegression(), X, y, cv=2, scoring=scoring)
    >>> sorted(key for key in results if key.startswith("test_"))
    ['test_cem_ord', 'test_f1_macro', 'test_neg_macro_mean_absolute_error']

    String classes with no ordered ``Categorical`` get their order once, for all:

    >>> y = ["low", "low", "mid", "mid", "high", "high"] * 2
    >>> scoring = get_scorers(["neg_macro_mean_absolute_error", "cem_ord"],
    ...                       labels=["low", "mid", "high"])
    >>> results = cross_validate(LogisticRegression(), X, y, cv=2, scoring=scoring)
    >>> bool(results["test_cem_ord"].min() > 0)
    True
    """
    names = [names] if isinstance(names, str) else list(names)
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"get_scorers names {repeated} more than once.")
    scorers = {}
    for name in names:
        if not isinstance(name, str):
            raise ValueError(f"get_scorers takes scorer names; got {name!r}.")
        if name in _SCORERS:
            scorers[name] = get_scorer(name, **kwargs)
            continue
        if kwargs:
            raise ValueError(
                f"{name!r} is not a scorer of sklearn_ordinal, so get_scorers cannot give "
                f"it {sorted(kwargs)}: build scikit-learn's scorer with "
                "sklearn.metrics.make_scorer and add it to the dict."
                f"{_registry.did_you_mean(name, _SCORERS)}"
            )
        try:
            scorers[name] = sklearn_get_scorer(name)
        except ValueError:
            raise ValueError(
                f"{name!r} is a scorer of neither sklearn_ordinal nor scikit-learn."
                f"{_registry.did_you_mean(name, _SCORERS)} "
                "sklearn_ordinal.metrics.get_scorer_names() and "
                "sklearn.metrics.get_scorer_names() list them."
            ) from None
    return scorers
