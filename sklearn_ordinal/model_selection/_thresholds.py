"""An estimator's real-valued score cut into ordinal classes, the cut points tuned by
cross-validation for the chosen measure (the ordinal twin of scikit-learn's binary
:class:`~sklearn.model_selection.TunedThresholdClassifierCV`)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from itertools import pairwise
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any, Literal, Self

import numpy as np
import numpy.typing as npt
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    MetaEstimatorMixin,
    clone,
    is_classifier,
)
from sklearn.exceptions import NotFittedError, UndefinedMetricWarning
from sklearn.model_selection import StratifiedShuffleSplit, check_cv
from sklearn.utils import (
    check_array,
    check_consistent_length,
    column_or_1d,
    get_tags,
    indexable,
)
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted, validate_data

from .._compat import (
    HasMethods,
    Interval,
    StrOptions,
    _fit_context,
    _num_samples,
    _safe_indexing,
)
from .._validation import _class_values, _is_ordered_categorical, check_ordinal_targets
from ..metrics._registry import resolve
from ..metrics._thresholds import _tune

if TYPE_CHECKING:
    from sklearn.model_selection import BaseCrossValidator

_ResponseMethod = Literal["auto", "decision_function", "predict_proba", "predict"]

_METHODS = ("decision_function", "predict_proba", "predict")


def _method_order(response_method):
    """The methods to try, in order: scikit-learn's meaning of ``response_method``
    (one name, or a sequence tried in order); ``"auto"`` tries them all."""
    if response_method == "auto":
        return _METHODS
    if isinstance(response_method, str):
        return (response_method,)
    return tuple(response_method)


def _positions(estimator_classes, classes):
    """Position in ``classes`` of each of the estimator's own classes."""
    order = np.argsort(classes)
    found = np.searchsorted(classes[order], estimator_classes)
    found = np.clip(found, 0, len(classes) - 1)
    unknown = classes[order][found] != estimator_classes
    if np.any(unknown):
        raise ValueError(
            f"The estimator's classes {np.asarray(estimator_classes).tolist()} are not all "
            f"among the classes {classes.tolist()}; give every class in labels=."
        )
    return order[found]


def _scores(estimator, X, methods, classes, scale):
    """``(score, method)``: one real score per row of X, on the label scale.

    The first of ``methods`` the estimator has and that gives one score per item:
    ``decision_function`` with one column (a binary one pointing towards the higher
    class), ``predict_proba``'s expected class value, or ``predict`` (a regressor's
    prediction as it is, a classifier's predicted class value).
    """
    own_classes = getattr(estimator, "classes_", None)
    for method in methods:
        if not hasattr(estimator, method):
            continue
        if method == "decision_function":
            score = np.asarray(estimator.decision_function(X))
            if score.ndim == 2 and score.shape[1] == 1:
                score = score.ravel()
            if score.ndim != 1:
                continue  # one column per class: not one score per item
            if own_classes is not None and len(own_classes) == 2:
                low, high = _positions(np.asarray(own_classes), classes)
                score = -score if high < low else score
            return score.astype(np.float64), method
        if method == "predict_proba":
            if own_classes is None:
                continue
            proba = np.asarray(estimator.predict_proba(X))
            return proba @ scale[_positions(np.asarray(own_classes), classes)], method
        prediction = np.asarray(estimator.predict(X))
        if own_classes is not None:
            return scale[_positions(prediction, classes)], method
        return prediction.astype(np.float64).ravel(), method
    raise ValueError(
        f"{type(estimator).__name__} has none of the methods {list(methods)} giving one real "
        "score per item (decision_function with one column, predict_proba of a classifier, "
        "predict). Choose another response_method."
    )


def _fit_and_score(estimator, X, target, train, test, methods, classes, scale, fit_params):
    """Out-of-fold scores of one split."""
    if train is not None:
        estimator.fit(_safe_indexing(X, train), _safe_indexing(target, train), **fit_params(train))
    return _scores(estimator, _safe_indexing(X, test), methods, classes, scale)


class TunedThresholdsClassifierCV(ClassifierMixin, MetaEstimatorMixin, BaseEstimator):
    """Ordinal classes from a real-valued score, cut where a measure is best.

    The cut points are tuned for the measure by cross-validation.

    The estimator (a regressor or a classifier) gives one real score per item; the
    ``K - 1`` cut points that are best under ``scoring`` for the out-of-fold scores of
    the training data (:func:`~sklearn_ordinal.metrics.optimal_thresholds`: exact for
    the item-additive measures, coordinate ascent otherwise) then turn any score into
    a class: the class of a score is the number of cut points strictly below it.
    The estimator is refitted on all the data.

    The out-of-fold scores of all folds are **pooled** and the cut points chosen once
    on them, rather than chosen per fold and averaged: every item is then scored by a
    model that did not see it, the pooled scores hold all n items (the measures that
    average over classes need the rare classes, which a fold has few of), and an
    average of per-fold optima is the optimum of nothing. This assumes the folds'
    scores share a scale, as those of one estimator type refitted on similar data
    do; ``cv_results_`` shows the pooled cut points' score on each fold.

    Read more in the :ref:`User Guide <thresholds>`.

    Parameters
    ----------
    estimator : estimator object
        A regressor or classifier with ``fit`` and one of the methods of
        ``response_method``. A regressor is fitted on the class values (numeric
        labels as they are, else the class positions 0, ..., K - 1); a classifier
        on the labels themselves.
    scoring : str or callable
        A measure of predicted classes: a name of
        :func:`~sklearn_ordinal.metrics.get_scorer_names`, a scorer of
        :func:`~sklearn_ordinal.metrics.get_scorer` or a measure function.
    response_method : {"auto", "decision_function", "predict_proba", "predict"} or \
tuple of them, default="auto"
        The score of an item: one method, or several tried in order.
        ``"auto"``: ``decision_function`` (if it gives one column), then
        ``predict_proba``'s expected class value, then ``predict``.
    cv : int, float, cross-validation generator, iterable or "prefit", default=5
        How the out-of-fold scores are made: as in
        :func:`~sklearn.model_selection.check_cv` (an int gives stratified folds); a
        float in (0, 1) holds out that share of the data once (stratified, shuffled
        with ``random_state``); ``"prefit"``: ``estimator`` is already fitted and the
        cut points are learnt on the data given to ``fit`` (then ``refit`` must be
        False).
    refit : bool, default=True
        Refit the estimator on all the data after the cut points are learnt. False:
        keep the estimator fitted on the training part of the single split (a float
        ``cv`` or ``"prefit"``).
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order. Default: the categories of an ordered
        ``Categorical`` ``y``, else the sorted numeric labels (strings need an order).
    random_state : int, RandomState instance or None, default=None
        Seeds the split of a float ``cv``; otherwise unused.
    n_jobs : int, default=None
        Folds fitted in parallel (joblib).

    Attributes
    ----------
    estimator_ : estimator object
        The fitted estimator whose scores :meth:`predict` cuts.
    classes_ : ndarray of shape (n_classes,)
        The classes, in order.
    cut_points_ : ndarray of shape (n_classes - 1,)
        Non-decreasing cut points on the score (``-inf``/``+inf`` for a class left
        empty at an end).
    best_score_ : float
        ``scoring``'s measure of the pooled out-of-fold predictions at these cut
        points (in the measure's own direction, not negated).
    response_method_ : str
        The method that gave the scores.
    cv_results_ : dict of ndarrays
        ``"split_test_score"``: the measure of each fold's held-out items at the
        cut points; ``"mean_test_score"``, ``"std_test_score"``; ``"rounding_score"``:
        the pooled measure with cut points midway between the class values (the
        estimator rounded); ``"search"``: ``"exact"`` or ``"coordinate ascent"``.
    n_features_in_ : int
        Number of features seen during fit.

    See Also
    --------
    sklearn_ordinal.metrics.optimal_thresholds : The cut points of given scores.
    sklearn_ordinal.dummy.TrivialOrdinalClassifier : The baseline: one class for all.
    sklearn.model_selection.TunedThresholdClassifierCV : The binary case.

    Notes
    -----
    ``check_estimator`` passes except for string labels with no order
    (``check_classifiers_classes``: an ordinal measure needs ``labels=``). Around a
    regressor the estimator is tagged ``poor_score``: one score per item assumes
    classes that lie along one direction of the features, which scikit-learn's test
    data (three blobs) do not.
    ``score`` is scikit-learn's accuracy, as for every classifier; pass ``scoring``
    to a search to judge by the measure.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn_ordinal.model_selection import TunedThresholdsClassifierCV
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3))
    >>> y = np.digitize(X @ [1.0, 0.5, 0.0] + rng.normal(0, 0.5, 300), [-1, 0, 1])
    >>> clf = TunedThresholdsClassifierCV(
    ...     Ridge(), scoring="neg_macro_mean_absolute_error").fit(X, y)
    >>> clf.classes_
    array([0, 1, 2, 3])
    >>> clf.cut_points_.round(2)
    array([0.96, 1.36, 2.38])
    >>> clf.predict(X[:5]), y[:5]
    (array([2, 1, 3, 0, 0]), array([1, 2, 3, 0, 0]))

    The macro MAE of the out-of-fold predictions, tuned and rounded:

    >>> round(clf.best_score_, 3), round(clf.cv_results_["rounding_score"], 3)
    (0.28, 0.36)
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit"])],
        "scoring": [str, callable],
        "response_method": [StrOptions({"auto", *_METHODS}), tuple, list],
        "cv": ["cv_object", StrOptions({"prefit"}),
               Interval(Real, 0.0, 1.0, closed="neither")],
        "refit": ["boolean"],
        "labels": ["array-like", None],
        "random_state": ["random_state"],
        "n_jobs": [Integral, None],
    }

    def __init__(
        self,
        estimator: BaseEstimator,
        *,
        scoring: str | Callable[..., Any],
        response_method: _ResponseMethod | tuple[_ResponseMethod, ...] = "auto",
        cv: int | float | BaseCrossValidator | Iterable[Any] | Literal["prefit"] = 5,
        refit: bool = True,
        labels: npt.ArrayLike | None = None,
        random_state: int | np.random.RandomState | None = None,
        n_jobs: int | None = None,
    ) -> None:
        self.estimator = estimator
        self.scoring = scoring
        self.response_method = response_method
        self.cv = cv
        self.refit = refit
        self.labels = labels
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _splits(self, X, codes):
        """``(splits, single split or None)``: the (train, test) index pairs."""
        if self.cv == "prefit":
            if self.refit:
                raise ValueError("When cv='prefit', refit cannot be True: the estimator "
                                 "is already fitted. Pass refit=False.")
            try:
                check_is_fitted(self.estimator)
            except NotFittedError as error:
                raise NotFittedError("When cv='prefit', estimator must be fitted.") from error
            return [(None, np.arange(_num_samples(X)))]
        if isinstance(self.cv, Real) and not isinstance(self.cv, Integral):
            cv = StratifiedShuffleSplit(n_splits=1, test_size=self.cv,
                                        random_state=self.random_state)
        else:
            cv = check_cv(self.cv, codes, classifier=True)
        if not self.refit and cv.get_n_splits(X, codes) > 1:
            raise ValueError("When cv has several folds, refit cannot be False: no one "
                             "fold's estimator is the model. Pass refit=True.")
        return list(cv.split(X, codes))

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(
        self, X: npt.ArrayLike, y: npt.ArrayLike, sample_weight: npt.ArrayLike | None = None
    ) -> Self:
        """Learn the cut points from out-of-fold scores, then refit the estimator.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, as the estimator takes it.
        y : array-like of shape (n_samples,)
            Ordinal labels: numbers, strings (with ``labels``) or an ordered pandas
            ``Categorical``.
        sample_weight : array-like of shape (n_samples,), default=None
            Item weights, passed to the estimator's ``fit`` and to the measure.

        Returns
        -------
        self : object
            The fitted classifier.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn.linear_model import Ridge
        >>> from sklearn_ordinal.model_selection import TunedThresholdsClassifierCV
        >>> X = np.arange(40.0).reshape(-1, 1)
        >>> y = np.repeat([0, 1, 2, 3], 10)
        >>> clf = TunedThresholdsClassifierCV(Ridge(), scoring="neg_mean_absolute_error")
        >>> clf.fit(X, y).cut_points_.shape
        (3,)
        """
        if y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None."
            )
        validate_data(self, X, skip_check_array=True)
        # Any sparse format (and a non-array) becomes something rows can be taken of.
        X, y = indexable(X, y)
        if not _is_ordered_categorical(y):
            y = column_or_1d(check_array(y, ensure_2d=False, dtype=None,
                                         ensure_all_finite=False), warn=True)
            check_classification_targets(y)
        classes, codes, _, _ = check_ordinal_targets(
            y, labels=self.labels, need_order=True, measure=type(self).__name__
        )
        if sample_weight is not None:
            sample_weight = np.asarray(sample_weight, dtype=np.float64)
            check_consistent_length(X, sample_weight)
        scale = _class_values(classes, None, relative=False)
        # A regressor learns the class values; a classifier the labels themselves.
        target = np.asarray(y) if is_classifier(self.estimator) else scale[codes]

        def fit_params(rows):
            if sample_weight is None:
                return {}
            return {"sample_weight": sample_weight if rows is None else sample_weight[rows]}

        methods = _method_order(self.response_method)
        splits = self._splits(X, codes)
        prefit = self.cv == "prefit"
        results = Parallel(n_jobs=self.n_jobs)(
            delayed(_fit_and_score)(
                self.estimator if prefit else clone(self.estimator), X, target,
                train, test, methods, classes, scale, fit_params,
            )
            for train, test in splits
        )
        tested = np.concatenate([test for _, test in splits])
        scores = np.concatenate([score for score, _ in results])
        self.response_method_ = results[0][1]
        y_tested = classes[codes[tested]]
        weight_tested = None if sample_weight is None else sample_weight[tested]
        self.classes_, self.cut_points_, self.best_score_, search = _tune(
            y_tested, scores, self.scoring, classes, weight_tested
        )
        self.cv_results_ = self._results(y_tested, scores, weight_tested, splits, search, scale)
        if prefit:
            self.estimator_ = self.estimator
        elif self.refit:
            self.estimator_ = clone(self.estimator).fit(X, target, **fit_params(None))
        else:
            train, _ = splits[0]
            self.estimator_ = clone(self.estimator).fit(
                _safe_indexing(X, train), _safe_indexing(target, train), **fit_params(train)
            )
        return self

    def _results(self, y_tested, scores, weight_tested, splits, search, scale):
        """The measure of each fold at the learnt cut points, and of rounding."""
        resolved = resolve(self.scoring)
        function = resolved.function
        kwargs = {"labels": self.classes_} if resolved.record.takes("labels") else {}
        if "class_values" in resolved.data:
            kwargs["class_values"] = resolved.data["class_values"]

        def measure(rows, cuts):
            y_pred = self.classes_[np.searchsorted(cuts, scores[rows])]
            extra = {} if weight_tested is None else {"sample_weight": weight_tested[rows]}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                return float(function(_safe_indexing(y_tested, rows), y_pred, **kwargs, **extra))

        bounds = np.cumsum([0] + [len(test) for _, test in splits])
        folds = [np.arange(start, stop) for start, stop in pairwise(bounds)]
        split_scores = np.array([measure(rows, self.cut_points_) for rows in folds])
        everything = np.arange(len(scores))
        return {
            "split_test_score": split_scores,
            "mean_test_score": float(split_scores.mean()),
            "std_test_score": float(split_scores.std()),
            "rounding_score": measure(everything, (scale[:-1] + scale[1:]) / 2),
            "search": search,
        }

    def _score(self, X):
        """The estimator's score of each row, which the cut points cut (on the class
        value scale for ``predict`` and ``predict_proba`` responses). Not a public
        ``decision_function``: scikit-learn reads that as thresholded at 0."""
        return _scores(self.estimator_, X, (self.response_method_,), self.classes_,
                       _class_values(self.classes_, None, relative=False))[0]

    def predict(self, X: npt.ArrayLike) -> npt.NDArray[Any]:
        """The class of each row: the number of cut points strictly below its score.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input data.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Classes from ``classes_``.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn.linear_model import Ridge
        >>> from sklearn_ordinal.model_selection import TunedThresholdsClassifierCV
        >>> X = np.arange(40.0).reshape(-1, 1)
        >>> y = np.repeat([0, 1, 2, 3], 10)
        >>> clf = TunedThresholdsClassifierCV(Ridge(), scoring="neg_mean_absolute_error")
        >>> clf.fit(X, y).predict([[0.0], [39.0]])
        array([0, 3])
        """
        check_is_fitted(self)
        return self.classes_[np.searchsorted(self.cut_points_, self._score(X))]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = get_tags(self.estimator).input_tags.sparse
        # A regressor's one score assumes the classes lie along one direction of the
        # features; scikit-learn's check data (three blobs) do not.
        tags.classifier_tags.poor_score = not is_classifier(self.estimator)
        return tags
