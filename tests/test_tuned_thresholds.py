"""TunedThresholdsClassifierCV (#35): scikit-learn compatibility, the pooled
out-of-fold scores, regressors and classifiers, string classes, pickling."""

import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    StratifiedKFold,
    cross_val_predict,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from sklearn_ordinal.metrics import get_scorer, optimal_thresholds
from sklearn_ordinal.model_selection import TunedThresholdsClassifierCV


def _data(n=400, seed=0, n_classes=5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    latent = X @ [1.0, 0.7, -0.3, 0.0] + rng.normal(0, 0.6, n)
    y = np.digitize(latent, np.quantile(latent, np.linspace(0, 1, n_classes + 1)[1:-1]))
    return X, y


def _expected_failed_checks(estimator):
    return {
        "check_classifiers_classes": (
            "string labels with no order given: an ordinal measure needs labels= or an "
            "ordered Categorical, and says so with a ValueError"
        ),
    }


@parametrize_with_checks(
    [
        TunedThresholdsClassifierCV(Ridge(), scoring="neg_macro_mean_absolute_error", cv=3),
        TunedThresholdsClassifierCV(LogisticRegression(), scoring="quadratic_weighted_kappa",
                                    cv=3),
    ],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible_estimator(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        check(estimator)


def test_cut_points_are_those_of_the_pooled_out_of_fold_scores():
    X, y = _data()
    cv = KFold(5, shuffle=True, random_state=0)
    clf = TunedThresholdsClassifierCV(Ridge(), scoring="neg_macro_mean_absolute_error",
                                      cv=cv).fit(X, y)
    pooled = cross_val_predict(Ridge(), X, y.astype(float), cv=cv)
    expected = optimal_thresholds(y, pooled, scoring="neg_macro_mean_absolute_error")
    np.testing.assert_allclose(clf.cut_points_, expected, rtol=1e-12)
    # Refitted on everything; predictions cut the refitted model's scores.
    full = Ridge().fit(X, y)
    np.testing.assert_array_equal(clf.predict(X), np.searchsorted(expected, full.predict(X)))
    assert clf.response_method_ == "predict"
    assert clf.cv_results_["search"] == "exact"
    assert len(clf.cv_results_["split_test_score"]) == 5
    # The tuned cut points beat rounding on the pooled scores (they are its optimum);
    # scores in the scorer's sign (#41), higher better.
    assert clf.best_score_ <= 0
    assert clf.best_score_ >= clf.cv_results_["rounding_score"]


def test_tuned_is_never_worse_than_rounding_on_the_training_folds():
    X, y = _data(seed=3)
    for scoring in ("neg_macro_mean_absolute_error", "quadratic_weighted_kappa"):
        clf = TunedThresholdsClassifierCV(LinearRegression(), scoring=scoring).fit(X, y)
        # The scorer's sign (#41): higher is better for both.
        assert clf.best_score_ >= clf.cv_results_["rounding_score"]


def test_classifier_without_one_score_uses_the_expected_class():
    X, y = _data(seed=1, n_classes=4)
    clf = TunedThresholdsClassifierCV(LogisticRegression(), scoring="quadratic_weighted_kappa")
    clf.fit(X, y)
    # Multiclass decision_function has one column per class: auto moves on.
    assert clf.response_method_ == "predict_proba"
    model = clf.estimator_
    expected_class = model.predict_proba(X) @ model.classes_
    np.testing.assert_allclose(clf._score(X), expected_class)
    assert clf.cv_results_["search"] == "coordinate ascent"
    with pytest.raises(ValueError, match="one column per class"):
        TunedThresholdsClassifierCV(LogisticRegression(), scoring="quadratic_weighted_kappa",
                                    response_method="decision_function").fit(X, y)
    # A tuple: the first method the estimator has, as scikit-learn and the scorers
    # read it (#41).
    chosen = TunedThresholdsClassifierCV(LogisticRegression(),
                                         scoring="quadratic_weighted_kappa",
                                         response_method=("predict_log_proba", "predict"))
    assert chosen.fit(X, y).response_method_ == "predict_log_proba"
    np.testing.assert_allclose(chosen._score(X), chosen.estimator_.predict_proba(X) @ [0, 1, 2, 3])


def test_binary_decision_function_points_to_the_higher_class():
    X, y = _data(seed=2, n_classes=2)
    labels = np.array(["high", "low"])[::-1]  # ["low", "high"]: the estimator sorts them
    y_named = labels[y]
    clf = TunedThresholdsClassifierCV(LogisticRegression(), scoring="accuracy",
                                      labels=labels).fit(X, y_named)
    assert clf.response_method_ == "decision_function"
    # "high" sorts first, so the estimator's decision points to "low": it is flipped.
    assert np.corrcoef(clf._score(X), y)[0, 1] > 0.5
    assert np.mean(clf.predict(X) == y_named) > 0.8


def test_string_classes_in_a_given_order_with_a_regressor():
    X, y = _data(seed=4, n_classes=3)
    names = np.array(["poor", "fair", "good"])
    clf = TunedThresholdsClassifierCV(Ridge(), scoring="neg_macro_mean_absolute_error",
                                      labels=names).fit(X, names[y])
    assert clf.classes_.tolist() == names.tolist()
    assert np.mean(clf.predict(X) == names[y]) > 0.6
    categorical = pd.Categorical(names[y], categories=names, ordered=True)
    same = TunedThresholdsClassifierCV(Ridge(), scoring="neg_macro_mean_absolute_error")
    np.testing.assert_array_equal(same.fit(X, categorical).cut_points_, clf.cut_points_)
    with pytest.raises(ValueError, match="order"):
        TunedThresholdsClassifierCV(Ridge(), scoring="neg_macro_mean_absolute_error").fit(
            X, names[y])


def test_pipeline_grid_search_and_pickle():
    X, y = _data(seed=5)
    pipe = make_pipeline(StandardScaler(), TunedThresholdsClassifierCV(
        Ridge(), scoring="neg_macro_mean_absolute_error", cv=3))
    search = GridSearchCV(pipe, {"tunedthresholdsclassifiercv__estimator__alpha": [0.1, 10.0]},
                          scoring=get_scorer("neg_macro_mean_absolute_error"), cv=3)
    search.fit(X, y)
    assert np.isfinite(search.best_score_)
    restored = pickle.loads(pickle.dumps(search.best_estimator_))
    np.testing.assert_array_equal(restored.predict(X), search.best_estimator_.predict(X))


def test_prefit_and_single_split():
    X, y = _data(seed=6)
    fitted = Ridge().fit(X[:200], y[:200])
    clf = TunedThresholdsClassifierCV(fitted, scoring="cem_ord", cv="prefit",
                                      refit=False).fit(X[200:], y[200:])
    assert clf.estimator_ is fitted
    expected = optimal_thresholds(y[200:], fitted.predict(X[200:]), scoring="cem_ord")
    np.testing.assert_array_equal(clf.cut_points_, expected)
    held_out = TunedThresholdsClassifierCV(Ridge(), scoring="cem_ord", cv=0.3, refit=False,
                                           random_state=0).fit(X, y)
    assert len(held_out.cv_results_["split_test_score"]) == 1
    with pytest.raises(ValueError, match="refit cannot be True"):
        TunedThresholdsClassifierCV(fitted, scoring="cem_ord", cv="prefit").fit(X, y)
    with pytest.raises(ValueError, match="refit cannot be False"):
        TunedThresholdsClassifierCV(Ridge(), scoring="cem_ord", refit=False).fit(X, y)


def test_sample_weight_reaches_the_estimator_and_the_measure():
    X, y = _data(seed=7)
    weight = np.random.default_rng(0).uniform(0.5, 2, len(y))
    cv = StratifiedKFold(4)
    clf = TunedThresholdsClassifierCV(Ridge(), scoring="neg_mean_absolute_error", cv=cv)
    clf.fit(X, y, sample_weight=weight)
    pooled = np.empty(len(y))
    for train, test in cv.split(X, y):
        pooled[test] = Ridge().fit(X[train], y[train], sample_weight=weight[train]).predict(
            X[test])
    expected = optimal_thresholds(y, pooled, scoring="neg_mean_absolute_error",
                                  sample_weight=weight)
    np.testing.assert_allclose(clf.cut_points_, expected, rtol=1e-12)


def test_ranking_measure_is_refused():
    X, y = _data()
    with pytest.raises(ValueError, match="not classes"):
        TunedThresholdsClassifierCV(Ridge(), scoring="vus").fit(X, y)


def test_folds_in_parallel_give_the_same_cut_points():
    X, y = _data(seed=8, n_classes=3)
    weight = np.random.default_rng(1).uniform(0.5, 2, len(y))
    serial = TunedThresholdsClassifierCV(Ridge(), scoring="quadratic_weighted_kappa")
    parallel = TunedThresholdsClassifierCV(Ridge(), scoring="quadratic_weighted_kappa",
                                           n_jobs=2)
    np.testing.assert_array_equal(serial.fit(X, y, sample_weight=weight).cut_points_,
                                  parallel.fit(X, y, sample_weight=weight).cut_points_)
