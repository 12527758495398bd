"""The trivial-class classifier: the baseline every ordinal result is held against.

Baccianella, Esuli and Sebastiani (2009, section II) call *trivial classifier*
:math:`\\tilde\\Phi_k` the classifier that puts every item into class :math:`c_k`,
and *trivial class for E* the class whose trivial classifier does best on the
training set under the evaluation measure E. Under a measure that is not robust to
imbalance the trivial class can score well; a real model that does not clearly
beat it has learnt little (``docs/user_guide/trivial_baseline.rst``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Self

import numpy as np
import numpy.typing as npt
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils import check_consistent_length
from sklearn.utils.validation import check_is_fitted, validate_data

from .._compat import _BaseScorer, _fit_context, _num_samples
from .._validation import (
    _class_values,
    _is_ordered_categorical,
    _refuse_dask,
    check_ordinal_targets,
)
from .._records import record_of
from .._validation import UndefinedMeasureError
from .._warnings import warn_user
from ..metrics import make_ordinal_scorer
from ..metrics._registry import confusion_kernel
from ..metrics._scorer import _accepts, _one_number, _OrdinalScorer, _scorer_of_measure
from ._trivial_scores import _closed_form_scores, _loop_scores, _trivial_confusion

# Trivial classifiers that tie mathematically can differ in the last bits, because
# each sums its errors in a different order; such scores count as equal.
_TIE_RTOL = 1e-10
_TIE_ATOL = 1e-12


class _ConstantPredictionMixin:
    """``predict`` and ``predict_proba`` of a classifier that always predicts
    ``classes_[_position]``."""

    # Set by the fit of the classes that use the mixin.
    classes_: npt.NDArray[Any]
    _position: int

    def predict(self, X: npt.ArrayLike) -> npt.NDArray[Any]:
        """Predict the trivial class for every row of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Ignored, except for its number of rows.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            The same class for every row.

        Examples
        --------
        >>> from sklearn_ordinal.dummy import TrivialOrdinalClassifier
        >>> X, y = [[0]] * 6, [1, 2, 2, 3, 3, 3]
        >>> clf = TrivialOrdinalClassifier("neg_mean_absolute_error").fit(X, y)
        >>> clf.predict([[0], [7]]).tolist()
        [3, 3]
        """
        check_is_fitted(self)
        return np.repeat(self.classes_[[self._position]], _num_samples(X))

    def predict_proba(self, X: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """One-hot probabilities: 1 for the trivial class, 0 for the others.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Ignored, except for its number of rows.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.

        Examples
        --------
        >>> from sklearn_ordinal.dummy import TrivialOrdinalClassifier
        >>> X, y = [[0]] * 6, [1, 2, 2, 3, 3, 3]
        >>> clf = TrivialOrdinalClassifier("neg_mean_absolute_error").fit(X, y)
        >>> clf.classes_.tolist()
        [1, 2, 3]
        >>> clf.predict_proba([[0], [7]]).tolist()
        [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]
        """
        check_is_fitted(self)
        proba = np.zeros((_num_samples(X), len(self.classes_)))
        proba[:, self._position] = 1.0
        return proba

    def predict_log_proba(self, X: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Logarithm of :meth:`predict_proba`: 0 for the trivial class, -inf elsewhere.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Ignored, except for its number of rows.

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.

        Examples
        --------
        >>> from sklearn_ordinal.dummy import TrivialOrdinalClassifier
        >>> X, y = [[0]] * 6, [1, 2, 2, 3, 3, 3]
        >>> clf = TrivialOrdinalClassifier("neg_mean_absolute_error").fit(X, y)
        >>> clf.predict_log_proba([[0]]).tolist()
        [[-inf, -inf, 0.0]]
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))


class _TrivialClassifier(_ConstantPredictionMixin, ClassifierMixin, BaseEstimator):
    """:math:`\\tilde\\Phi_k`: predicts ``classes[position]``; a scorer evaluates it."""

    def __init__(self, classes, position):
        self.classes = classes
        self.position = position

    def fit(self, X=None, y=None):
        self.classes_ = self.classes
        self._position = self.position
        return self


def _check_one_target(y):
    """Refuse a 2-D ``y`` as the estimator's own problem: ``[[1, 2, 3]]`` is one sample
    with three outputs, not three labels (the label checks would say "y_true")."""
    try:
        shape = getattr(y, "shape", None) or np.asarray(y).shape
    except ValueError:
        return  # ragged: the label checks name it
    if len(shape) > 2 or (len(shape) == 2 and shape[1] != 1):
        raise ValueError(
            f"y must be 1-D, one ordinal label per sample; got shape {shape}. "
            "TrivialOrdinalClassifier fits one target: pass y as a flat list, e.g. "
            "[1, 2, 3] rather than [[1, 2, 3]]."
        )


class TrivialOrdinalClassifier(_ConstantPredictionMixin, ClassifierMixin, BaseEstimator):
    """Predict for every item the one class that scores best under a given measure.

    In ``fit``, each trivial classifier :math:`\\tilde\\Phi_k` (every training item
    put into class :math:`c_k`) is scored with ``scoring`` on the training labels;
    the best class is kept (Baccianella et al. 2009, section II):

    .. math::

        \\tilde y = \\arg\\max_{c_k} \\; S(\\tilde\\Phi_k, Tr)

    where :math:`S` is ``scoring`` on its greater-is-better scale. A real model
    should clearly beat this baseline *under the measure it is evaluated with*:
    the trivial class depends on the measure (for the micro-averaged MAE on
    TripAdvisor-15763 it is 4 stars, for the macro-averaged MAE the middle class).
    :func:`~sklearn_ordinal.model_selection.compare_to_trivial` does this
    comparison in cross-validation.

    Like :class:`~sklearn.dummy.DummyClassifier`, it ignores the features.

    Parameters
    ----------
    scoring : str or callable, default="neg_macro_mean_absolute_error"
        How to score each trivial classifier:

        - a measure name: one of :func:`~sklearn_ordinal.metrics.get_scorer_names`,
          a loss's own name (``"macro_mean_absolute_error"``) or a scorer name of
          scikit-learn;
        - a scorer (an object made by
          :func:`~sklearn_ordinal.metrics.make_ordinal_scorer`,
          :func:`sklearn.metrics.make_scorer` or a ``get_scorer``): it is called
          as ``scorer(trivial_classifier, X, y)``, so scorers of labels and of
          scores (ranking measures) both work;
        - any other callable is a measure ``scoring(y_true, y_pred) -> float``; it
          also gets ``labels=classes_`` and ``sample_weight`` when it accepts them.
          A measure function of this package (or a ``functools.partial`` of one)
          brings its own direction and response (scores for the ranking measures).

        Named ``scoring`` as in scikit-learn's estimators that take a measure
        (``metric`` means a distance there).
    greater_is_better : bool, default=True
        Whether a higher value of a callable measure ``scoring`` is better. Ignored
        for names, scorers and this package's measure functions, which already know.
    labels : array-like of shape (n_classes,), default=None
        The classes, in order. Default: the categories of an ordered pandas
        ``Categorical`` ``y``, else the labels of ``y`` (numbers in numeric order).
        String labels need it (or an ordered ``Categorical``) when ``scoring``
        depends on the class order. Classes absent from the training labels can be
        chosen too.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The classes, in order.
    class_scores_ : ndarray of shape (n_classes,)
        The score of each trivial classifier on the training data, in the order
        of ``classes_``, on the greater-is-better scale (so a ``neg_`` scorer gives
        negated errors).
    trivial_class_ : object
        The trivial class: the class with the best score. Ties go to the class
        with the larger (weighted) training count, then to the lower class.
    n_features_in_ : int
        Number of features seen during ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Names of features seen during ``fit``. Defined only when ``X`` has
        feature names that are all strings.

    See Also
    --------
    sklearn.dummy.DummyClassifier : Baselines chosen by class frequency, not by a
        measure.
    sklearn_ordinal.model_selection.compare_to_trivial : Cross-validate a model
        and the trivial classifier of each measure on the same folds.

    Notes
    -----
    Under a ranking measure (``response="scores"``) every trivial classifier gives
    every item the same score, so all tie and the tie rule picks the most frequent
    class. ``predict_proba`` is one-hot, so scorers that reduce it to the expected
    class position see the position of the trivial class for every item. There is
    deliberately no ``decision_function``: with more than two classes scikit-learn
    expects one column per class from it, and the one-hot ``predict_proba`` already
    gives ranking scorers their constant score.

    :func:`~sklearn.utils.estimator_checks.check_estimator` fails one check by design
    under a measure that depends on the class order: ``check_classifiers_classes``
    fits string labels (``"one"``, ``"two"``, ``"three"``) with no order, which such a
    measure refuses to guess (order-free measures such as ``"accuracy"`` pass it).
    Declare it as expected::

        from sklearn.utils.estimator_checks import check_estimator
        check_estimator(
            TrivialOrdinalClassifier(),
            expected_failed_checks={
                "check_classifiers_classes": "unordered string labels: no class order"
            },
        )

    References
    ----------
    .. [1] S. Baccianella, A. Esuli and F. Sebastiani, "Evaluation measures for
       ordinal regression", Proc. ISDA 2009, pp. 283-287, section II.

    Examples
    --------
    The class distribution of TripAdvisor-15763 (3.9, 7.2, 9.4, 34.5 and 45.0 % of
    the reviews have 1 to 5 stars): under the micro-averaged MAE the trivial class
    is 4 stars, not the majority class; under the macro-averaged MAE it is the
    middle class, with error 1.2 whatever the distribution.

    >>> from sklearn_ordinal.dummy import TrivialOrdinalClassifier
    >>> y = [1] * 39 + [2] * 72 + [3] * 94 + [4] * 345 + [5] * 450
    >>> X = [[0]] * len(y)
    >>> micro = TrivialOrdinalClassifier("neg_mean_absolute_error").fit(X, y)
    >>> print(micro.trivial_class_)
    4
    >>> micro.class_scores_
    array([-3.095, -2.173, -1.395, -0.805, -0.905])
    >>> macro = TrivialOrdinalClassifier("neg_macro_mean_absolute_error").fit(X, y)
    >>> print(macro.trivial_class_, float(macro.class_scores_.max()))
    3 -1.2
    >>> macro.predict([[0], [1]])
    array([3, 3])
    """

    _parameter_constraints: dict = {
        "scoring": [str, callable],
        "greater_is_better": ["boolean"],
        "labels": ["array-like", None],
    }

    def __init__(
        self,
        scoring: str | Callable[..., Any] = "neg_macro_mean_absolute_error",
        *,
        greater_is_better: bool = True,
        labels: npt.ArrayLike | None = None,
    ) -> None:
        self.scoring = scoring
        self.greater_is_better = greater_is_better
        self.labels = labels

    def _scorer(self, classes, order_known):
        """``scoring`` as a scorer on the greater-is-better scale, told the class order.

        The trivial classifiers' ``classes_`` are the training classes; when they
        are sorted strings the scorer could not tell an order given by ``labels``
        from an alphabetical accident, so this package's scorers get the order
        as ``labels`` whenever it is known.
        """
        if isinstance(self.scoring, (str, _BaseScorer)):
            scorer = _scorer_of_measure(self.scoring)
        else:
            record, _ = record_of(self.scoring)
            scorer = make_ordinal_scorer(
                self.scoring,
                greater_is_better=(
                    self.greater_is_better if record is None else record.greater_is_better
                ),
                response="labels" if record is None else record.reads,
            )
        if (
            order_known
            and isinstance(scorer, _OrdinalScorer)
            and "labels" not in scorer.kwargs
            and _accepts(scorer.score_func, "labels")
        ):
            scorer = make_ordinal_scorer(
                scorer.score_func,
                greater_is_better=scorer.greater_is_better,
                response=scorer.response,
                **scorer.kwargs,
                labels=classes,
            )
        return scorer

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(
        self,
        X: npt.ArrayLike | None,
        y: npt.ArrayLike,
        sample_weight: npt.ArrayLike | None = None,
    ) -> Self:
        """Score every trivial classifier on ``y`` and keep the best class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or None
            Training data; only its length (and feature names) are used. None is
            accepted, as by :class:`~sklearn.dummy.DummyClassifier`.
        y : array-like of shape (n_samples,)
            Ordinal training labels: numbers, strings or an ordered pandas
            ``Categorical``. Strings need an order (``labels`` or an ordered
            ``Categorical``) when ``scoring`` depends on the order of the classes.
        sample_weight : array-like of shape (n_samples,), default=None
            Item weights, passed to the measure (which must then accept them) and
            used for the class counts of the tie rule. A zero-weight item is a
            dropped item.

        Returns
        -------
        self : object
            The fitted classifier.

        Examples
        --------
        Predicting 2 or 3 for all six items gives the same micro-averaged MAE,
        4/6; the tie goes to the more frequent class, 3.

        >>> from sklearn_ordinal.dummy import TrivialOrdinalClassifier
        >>> X, y = [[0]] * 6, [1, 2, 2, 3, 3, 3]
        >>> clf = TrivialOrdinalClassifier("neg_mean_absolute_error").fit(X, y)
        >>> print(clf.class_scores_.round(3))
        [-1.333 -0.667 -0.667]
        >>> print(clf.trivial_class_)
        3
        """
        validate_data(self, X, skip_check_array=True)
        if X is None:
            X = np.empty((_num_samples(np.asarray(y)), 0))
        _refuse_dask(f"{type(self).__name__}.fit", X, y, sample_weight)
        _check_one_target(y)
        check_consistent_length(X, y)
        # The class set alone is order-free; the measure says whether it needs an order.
        classes, codes, _, kept_weight = check_ordinal_targets(
            y, labels=self.labels, sample_weight=sample_weight, need_order=False
        )
        order_known = (
            self.labels is not None
            or _is_ordered_categorical(y)
            or classes.dtype.kind in "biuf"
        )
        scorer = self._scorer(classes, order_known)
        self.classes_ = classes
        counts = np.bincount(codes, weights=kept_weight, minlength=len(classes))
        if len(classes) == 1:
            # One class, one trivial classifier: nothing to choose, nothing to score
            # (ranking measures are undefined on one class). Said, not silent.
            warn_user(
                f"y holds one class, {classes.tolist()[0]!r}: the only trivial classifier "
                "predicts it for every item. No measure was computed (ranking measures "
                "need two classes), so class_scores_ is [nan].",
                UndefinedMetricWarning,
            )
            self.class_scores_ = np.full(1, np.nan)
            self._position = 0
            self.trivial_class_ = classes[0]
            return self

        # This package's scorers refuse weights their measure cannot take, clearly.
        # As an array: a scorer of another package may not take any array-like.
        score_kwargs = {} if sample_weight is None else {"sample_weight": np.asarray(sample_weight)}
        # The first call also validates the scorer's parameters and the weights.
        first = _checked_score(scorer, _TrivialClassifier(classes, 0).fit(), X, y, score_kwargs)
        scores = _scores_from_counts(scorer, classes, counts)
        if scores is None:
            scores = np.array(
                [first]
                + [
                    _checked_score(
                        scorer, _TrivialClassifier(classes, k).fit(), X, y, score_kwargs
                    )
                    for k in range(1, len(classes))
                ],
                dtype=np.float64,
            )
        if np.isnan(scores).all():
            raise UndefinedMeasureError(
                f"The measure {scorer!r} is undefined (NaN) for every trivial classifier "
                "on these training labels, so no trivial class can be chosen."
            )
        self.class_scores_ = scores
        self._position = _best_position(scores, counts)
        self.trivial_class_ = classes[self._position]
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # X is never looked at (like DummyClassifier): any input, sparse or not.
        tags.input_tags.sparse = True
        tags.classifier_tags.poor_score = True
        tags.no_validation = True
        return tags


def _scores_from_counts(scorer, classes, counts):
    """Every trivial classifier's score from the class counts alone, or None.

    The confusion matrix of trivial classifier ``k`` is zero but for column ``k``,
    which holds the class counts; so a measure of the confusion matrix scores all
    of them without another pass over the items: by the closed form its registry
    record holds (``trivial_scores``, :math:`O(K^2)` at most), else on each of the
    ``K`` matrices. None for other scorers (ranking measures, wrapped scikit-learn ones, a
    ``labels`` of the user's own): they are called once per class.

    ``fit`` has already scored trivial classifier 0 through the scorer, which
    validated the measure's parameters and raised its warnings. The closed form
    raises no warning; the trivial classifiers a measure warns about all warn alike
    (or there is one), so the first of them is scored once more on its matrix, for its
    warnings, unless it is class 0: a fit warns once, not ``K`` times.
    """
    if not isinstance(scorer, _OrdinalScorer) or scorer.response != "labels":
        return None
    kwargs = scorer.kwargs
    # _scorer gives the classes as labels whenever their order is known.
    labels = kwargs.pop("labels", None)
    if labels is None or not np.array_equal(labels, classes):
        return None
    from_confusion = confusion_kernel(scorer.score_func)
    if from_confusion is None or not set(kwargs) - {"class_values"} <= set(
        inspect.signature(from_confusion).parameters
    ):
        return None
    try:
        values = _class_values(classes, kwargs.pop("class_values", None))
    except ValueError:
        # Labels that cannot serve as values: the scorer says so if the measure needs them.
        return None
    sign = 1.0 if scorer.greater_is_better else -1.0
    closed_form = _closed_form_scores(from_confusion, counts, values, **kwargs)
    if closed_form is None:
        return sign * _loop_scores(from_confusion, classes, values, counts, **kwargs)
    scores, warns = closed_form
    first_warning = np.argmax(warns)
    if first_warning > 0:
        from_confusion(_trivial_confusion(classes, values, counts, first_warning), **kwargs)
    return sign * scores


def _checked_score(scorer, trivial_classifier, X, y, score_kwargs):
    """The score of one trivial classifier: one real number (or NaN), whatever the scorer."""
    return _one_number(scorer(trivial_classifier, X, y, **score_kwargs), scorer.__repr__)


def _best_position(scores, counts):
    """Position of the best score; ties go to the larger count, then the lower class."""
    best = np.nanmax(scores)
    tied = np.flatnonzero(np.isclose(scores, best, rtol=_TIE_RTOL, atol=_TIE_ATOL))
    # np.argmax returns the first maximum: the lowest class among equally frequent ones.
    return int(tied[np.argmax(counts[tied])])
