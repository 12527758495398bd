"""An estimator's real-valued score cut into ordinal classes, the cut points tuned by
cross-validation for the chosen measure (the ordinal twin of scikit-learn's binary
:class:`~sklearn.model_selection.TunedThresholdClassifierCV`)."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable, Iterable
from itertools import pairwise
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any, Literal, Self

import numpy as np
import numpy.typing as npt
from sklearn import get_config
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    MetaEstimatorMixin,
    clone,
    is_classifier,
    is_clusterer,
    is_regressor,
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
from sklearn.utils.metadata_routing import MetadataRouter, MethodMapping, process_routing
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
from .._validation import (
    _check_1d_labels,
    _class_values,
    _is_ordered_categorical,
    check_ordinal_targets,
)
from .._warnings import warn_user
from ..metrics._registry import resolve
from ..metrics._scorer import (
    _check_response_method,
    _hard_labels_message,
    _ranks_only_labels,
    _scorer_of_measure,
    _scores_and_method,
    make_ordinal_scorer,
)
from ..metrics._thresholds import _tune

if TYPE_CHECKING:
    from sklearn.model_selection import BaseCrossValidator

_ResponseMethod = Literal["auto", "decision_function", "predict_proba", "predict"]

# The tuner's class values are its labels' (a regressor learns them): no class_values.
_LABELS_ADVICE = "give the classes in increasing order in labels=."

# The scorers' default: the measure users of ordinal classification report most.
_DEFAULT_SCORING = "neg_macro_mean_absolute_error"


def _call_method(estimator, method, X, pos_label=None):
    """The scorers' ``method_caller``: here every method is called directly (no
    prediction cache to share)."""
    return getattr(estimator, method)(X)


def _methods(response_method):
    """The scorers' ``methods``: None for ``"auto"`` (the scorers' default order), else
    the tuple of method names, tried in order."""
    if response_method == "auto":
        return None
    if isinstance(response_method, str):
        return (response_method,)
    return tuple(response_method)


def _scores(estimator, X, methods, classes, scale):
    """``(score, method)``: one real score per row of X, higher for a higher class, by
    the scorers' one rule (:func:`~sklearn_ordinal.metrics._scorer._scores_and_method`),
    on the class-value scale ``scale``."""
    score, method = _scores_and_method(_call_method, estimator, X, classes, methods, scale)
    return np.asarray(score, dtype=np.float64), method


def _is_classifier_like(estimator):
    """Whether the estimator is fitted on the labels: a classifier by scikit-learn's
    tag, or an untagged model with ``predict_proba`` (mord's threshold models carry no
    tag; fitted on float class values they fail)."""
    if is_classifier(estimator):
        return True
    return not is_regressor(estimator) and hasattr(estimator, "predict_proba")


def _rows(params, rows, n_samples):
    """Fit parameters of the items ``rows``: every array of one value per item is
    indexed, anything else (a scalar, a per-feature array) passed as it is."""
    if rows is None:
        return dict(params)
    taken = {}
    for key, value in params.items():
        if value is not None and hasattr(value, "__len__") and not isinstance(value, str) \
                and _num_samples(value) == n_samples:
            taken[key] = _safe_indexing(value, rows)
        else:
            taken[key] = value
    return taken


def _fit_and_score(estimator, X, target, train, test, methods, classes, scale, params):
    """Out-of-fold scores of one split."""
    if train is not None:
        estimator.fit(_safe_indexing(X, train), _safe_indexing(target, train),
                      **_rows(params, train, _num_samples(X)))
    score, method = _scores(estimator, _safe_indexing(X, test), methods, classes, scale)
    # One class: no cut point, so labels are as good as any score.
    labels_only = len(classes) > 1 and _ranks_only_labels(score, method, estimator, None, scale)
    return score, method, labels_only


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
        ``response_method``. A classifier (scikit-learn's tag, or any model with
        ``predict_proba`` and no regressor tag, as mord's and skordinal's
        probabilistic models) is fitted on the labels themselves; a regressor on the
        class values (numeric labels as they are, else the class positions 0, ...,
        K - 1). A clusterer is refused.
    scoring : str or callable, default="neg_macro_mean_absolute_error"
        A measure of predicted classes: a name of
        :func:`~sklearn_ordinal.metrics.get_scorer_names`, a scorer of
        :func:`~sklearn_ordinal.metrics.get_scorer` or a measure function. The
        default, the macro-averaged MAE, weighs every class equally, as imbalanced
        ordinal data need.
    response_method : "auto", str or tuple of str, default="auto"
        The score of an item, by the scorers' rule (see
        :func:`~sklearn_ordinal.metrics.make_ordinal_scorer`): any method name of
        the estimator (a model's own latent score too), or several tried in order.
        ``"auto"``: ``decision_function`` (if it gives one column), then
        ``predict_proba``'s expected class value, then ``predict``. Cutting a
        ``predict`` that gives only class labels warns, as the scorers do.
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
        ``scoring``'s score of the pooled out-of-fold predictions at these cut
        points, in the scorer's sign as scikit-learn's searches report it (a loss
        negated: -0.28 for a macro MAE of 0.28).
    response_method_ : str
        The method that gave the scores.
    cv_results_ : dict of ndarrays
        ``"split_test_score"``: the score of each fold's held-out items at the
        cut points; ``"mean_test_score"``, ``"std_test_score"``; ``"rounding_score"``:
        the pooled score with cut points midway between the class values (the
        estimator rounded); all in the scorer's sign, as ``best_score_``;
        ``"search"``: ``"exact"`` or ``"coordinate ascent"``.
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
    (``check_classifiers_classes``: an ordinal measure needs ``labels=``). The input
    tags (``allow_nan``, ``sparse``, ...) are the estimator's. Around a
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
    >>> clf = TunedThresholdsClassifierCV(Ridge()).fit(X, y)
    >>> clf.classes_
    array([0, 1, 2, 3])
    >>> clf.cut_points_.round(2)
    array([0.96, 1.36, 2.38])
    >>> clf.predict(X[:5]), y[:5]
    (array([2, 1, 3, 0, 0]), array([1, 2, 3, 0, 0]))

    The default scoring is the macro MAE; of the out-of-fold predictions, tuned and
    rounded, negated as scikit-learn's scorers give a loss:

    >>> round(clf.best_score_, 3), round(clf.cv_results_["rounding_score"], 3)
    (-0.28, -0.36)
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit"])],
        "scoring": [str, callable],
        "response_method": [str, tuple, list],
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
        scoring: str | Callable[..., Any] = _DEFAULT_SCORING,
        response_method: _ResponseMethod | str | tuple[str, ...] = "auto",
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

    def _splitter(self, X, codes):
        """The cross-validation splitter, or None for ``cv="prefit"``."""
        if self.cv == "prefit":
            if self.refit:
                raise ValueError("When cv='prefit', refit cannot be True: the estimator "
                                 "is already fitted. Pass refit=False.")
            try:
                check_is_fitted(self.estimator)
            except NotFittedError as error:
                raise NotFittedError("When cv='prefit', estimator must be fitted.") from error
            return None
        if isinstance(self.cv, Real) and not isinstance(self.cv, Integral):
            cv = StratifiedShuffleSplit(n_splits=1, test_size=self.cv,
                                        random_state=self.random_state)
        else:
            cv = check_cv(self.cv, codes, classifier=True)
        if not self.refit and cv.get_n_splits(X, codes) > 1:
            raise ValueError("When cv has several folds, refit cannot be False: no one "
                             "fold's estimator is the model. Pass refit=True.")
        return cv

    def _scorer(self):
        """``scoring`` as a scorer, for metadata routing: a scorer as it is (its
        requests are the user's), a name or measure function as the package's scorer."""
        if hasattr(self.scoring, "get_metadata_routing"):
            return self.scoring
        if isinstance(self.scoring, str):
            return _scorer_of_measure(self.scoring)
        return make_ordinal_scorer(
            self.scoring, greater_is_better=resolve(self.scoring).greater_is_better
        )

    def _routed(self, sample_weight, params):
        """``(estimator fit params, splitter params, measure weights)``: with metadata
        routing, as scikit-learn's ``TunedThresholdClassifierCV`` routes them; without,
        ``sample_weight`` goes to the estimator's ``fit`` and to the measure."""
        if get_config().get("enable_metadata_routing", False):
            if sample_weight is not None:
                params = {**params, "sample_weight": sample_weight}
            routed = process_routing(self, "fit", **params)
            return (dict(routed.estimator.fit), dict(routed.splitter.split),
                    routed.scorer.score.get("sample_weight"))
        if params:
            raise ValueError(
                f"{type(self).__name__}.fit got {sorted(params)}: parameters other than "
                "sample_weight are routed (to the estimator, the splitter or the scorer) "
                "only with sklearn.set_config(enable_metadata_routing=True); then request "
                "them, e.g. estimator.set_fit_request(...), as in scikit-learn."
            )
        fit_params = {} if sample_weight is None else {"sample_weight": sample_weight}
        return fit_params, {}, sample_weight

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(
        self,
        X: npt.ArrayLike,
        y: npt.ArrayLike,
        sample_weight: npt.ArrayLike | None = None,
        **params: Any,
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
            Item weights. Without metadata routing, passed to the estimator's ``fit``
            and to the measure; with it, to whichever of them requests them.
        **params : dict
            Only with ``sklearn.set_config(enable_metadata_routing=True)``: metadata
            routed as scikit-learn's ``TunedThresholdClassifierCV`` routes it, to the
            estimator's ``fit``, the splitter's ``split`` (``groups``) and the
            scorer, each as requested.

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
        if is_clusterer(self.estimator):
            raise ValueError(
                f"{type(self.estimator).__name__} is a clusterer: its cluster ids are no "
                "score that grows with the class. Give a regressor or a classifier."
            )
        _check_response_method(None if self.response_method == "auto"
                               else self.response_method)
        validate_data(self, X, skip_check_array=True)
        # Any sparse format (and a non-array) becomes something rows can be taken of.
        X, y = indexable(X, y)
        if not _is_ordered_categorical(y):
            labels = column_or_1d(check_array(y, ensure_2d=False, dtype=None,
                                              ensure_all_finite=False), warn=True)
            # Python objects typed as the measures type them (object integers are
            # integers), so scikit-learn's target check sees what the measures see.
            if labels.dtype == object:
                labels = _check_1d_labels(labels, "y")
            check_classification_targets(labels)
            y = labels
        classes, codes, _, _ = check_ordinal_targets(
            y, labels=self.labels, need_order=True, measure=type(self).__name__
        )
        if sample_weight is not None:
            sample_weight = np.asarray(sample_weight, dtype=np.float64)
            check_consistent_length(X, sample_weight)
        fit_params, split_params, measure_weight = self._routed(sample_weight, params)
        if measure_weight is not None:
            measure_weight = np.asarray(measure_weight, dtype=np.float64)
        scale = _class_values(classes, None, relative=False, advice=_LABELS_ADVICE)
        # A classifier learns the labels; a regressor the class values.
        classifier = _is_classifier_like(self.estimator)
        target = classes[codes] if classifier else scale[codes]
        methods = _methods(self.response_method)
        splitter = self._splitter(X, codes)
        if splitter is None:
            splits = [(None, np.arange(_num_samples(X)))]
        else:
            splits = list(splitter.split(X, codes, **split_params))
        results = Parallel(n_jobs=self.n_jobs)(
            delayed(_fit_and_score)(
                self.estimator if splitter is None else clone(self.estimator), X, target,
                train, test, methods, classes, scale, fit_params,
            )
            for train, test in splits
        )
        self.response_method_ = results[0][1]
        if any(labels_only for _, _, labels_only in results):
            warn_user(_hard_labels_message(
                f"{type(self).__name__} cuts", self.estimator, self.response_method_,
                f"{type(self).__name__}(..., response_method='...')",
            ))
        tested = np.concatenate([test for _, test in splits])
        scores = np.concatenate([score for score, _, _ in results])
        y_tested = classes[codes[tested]]
        weight_tested = None if measure_weight is None else measure_weight[tested]
        self.classes_, self.cut_points_, best, search = _tune(
            y_tested, scores, self.scoring, classes, weight_tested
        )
        # In the scorer's sign, as scikit-learn's searches report it (a loss negated).
        self._sign = 1.0 if resolve(self.scoring).greater_is_better else -1.0
        self.best_score_ = self._sign * best
        self.cv_results_ = self._results(y_tested, scores, weight_tested, splits, search, scale)
        if splitter is None:
            self.estimator_ = self.estimator
        elif self.refit:
            self.estimator_ = clone(self.estimator).fit(X, target, **fit_params)
        else:
            train, _ = splits[0]
            self.estimator_ = clone(self.estimator).fit(
                _safe_indexing(X, train), _safe_indexing(target, train),
                **_rows(fit_params, train, _num_samples(X)),
            )
        return self

    def _results(self, y_tested, scores, weight_tested, splits, search, scale):
        """The measure of each fold at the learnt cut points, and of rounding, in the
        scorer's sign."""
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
                value = function(_safe_indexing(y_tested, rows), y_pred, **kwargs, **extra)
            return self._sign * float(value)

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
                       _class_values(self.classes_, None, relative=False,
                                     advice=_LABELS_ADVICE))[0]

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

    def get_metadata_routing(self) -> MetadataRouter:
        """Get the metadata routing of this object.

        As scikit-learn's ``TunedThresholdClassifierCV`` routes: ``fit``'s metadata
        go to the estimator's ``fit``, the splitter's ``split`` and the scorer's
        ``score``. Read by scikit-learn when metadata routing is enabled.

        Returns
        -------
        routing : MetadataRouter
            The routing information.

        Examples
        --------
        >>> from sklearn.linear_model import Ridge
        >>> from sklearn_ordinal.model_selection import TunedThresholdsClassifierCV
        >>> routing = TunedThresholdsClassifierCV(Ridge()).get_metadata_routing()
        >>> type(routing).__name__
        'MetadataRouter'
        """
        return (
            MetadataRouter(owner=self)
            .add(estimator=self.estimator,
                 method_mapping=MethodMapping().add(callee="fit", caller="fit"))
            .add(splitter=self.cv if not isinstance(self.cv, (str, Real)) else None,
                 method_mapping=MethodMapping().add(callee="split", caller="fit"))
            .add(scorer=self._scorer(),
                 method_mapping=MethodMapping().add(callee="score", caller="fit"))
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # The estimator reads X: what it takes (sparse, NaN, strings...), this takes.
        tags.input_tags = copy.deepcopy(get_tags(self.estimator).input_tags)
        # A regressor's one score assumes the classes lie along one direction of the
        # features; scikit-learn's check data (three blobs) do not.
        tags.classifier_tags.poor_score = not _is_classifier_like(self.estimator)
        return tags
