"""Issue #41, items 1-3: TunedThresholdsClassifierCV with other packages' ordinal
models, under the scorers' response rules, and by scikit-learn's conventions
(``best_score_``'s sign, metadata routing, input tags, a default scoring, clusterers
refused, object integer labels).

mord's and skordinal's models run where the packages are installed (as in
``tests/test_interop.py``); the stand-ins of ``_standins.py`` always.
"""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.cluster import KMeans
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GroupKFold, StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from _standins import RoundingRidge, UntaggedProbabilisticModel, ordinal_task
from sklearn_ordinal.metrics import (
    get_scorer,
    macro_mean_absolute_error,
    optimal_thresholds,
    weighted_kappa_score,
)
from sklearn_ordinal.model_selection import TunedThresholdsClassifierCV


_PIPELINE_WEIGHTS = (
    "Pipeline.fit takes no sample_weight (a step takes it as ridge__sample_weight): "
    "the tuner passes the weights to the estimator's fit as scikit-learn's "
    "meta-estimators do, and the Pipeline refuses them with a ValueError naming the fix"
)


def _expected_failed_checks(estimator):
    failed = {
        "check_classifiers_classes": (
            "string labels with no order given: an ordinal measure needs labels= or an "
            "ordered Categorical, and says so with a ValueError"
        ),
        # As scikit-learn declares for TunedThresholdClassifierCV and for
        # HistGradientBoostingRegressor itself.
        "check_sample_weight_equivalence_on_dense_data": (
            "cross-validation: repeating an item changes the folds, so a weight of 2 is "
            "not two copies (and HistGradientBoostingRegressor's binning is not either)"
        ),
    }
    if hasattr(estimator.estimator, "steps"):
        # scikit-learn 1.6 runs it on sparse data too (later versions skip it here).
        failed["check_sample_weight_equivalence_on_sparse_data"] = (
            "the Pipeline's StandardScaler cannot center sparse data (ValueError)")
        failed.update({check: _PIPELINE_WEIGHTS for check in (
            "check_sample_weights_pandas_series", "check_sample_weights_not_an_array",
            "check_sample_weights_list", "check_all_zero_sample_weights_error",
            "check_sample_weights_shape", "check_sample_weights_not_overwritten",
            "check_classifiers_one_label_sample_weights",
        )})
    return failed


@parametrize_with_checks(
    [
        TunedThresholdsClassifierCV(HistGradientBoostingRegressor(max_iter=15), cv=3),
        TunedThresholdsClassifierCV(make_pipeline(StandardScaler(), Ridge()), cv=3),
    ],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible_around_hgb_and_a_pipeline(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        check(estimator)


# --- Item 1: other packages' ordinal classifiers ------------------------------------


def _mord(name):
    return getattr(pytest.importorskip("mord"), name)()


def _skordinal(name):
    return getattr(pytest.importorskip("skordinal.classifiers"), name)()


PROBABILISTIC = {
    "stand-in UntaggedProbabilisticModel": UntaggedProbabilisticModel,
    "mord LogisticAT": lambda: _mord("LogisticAT"),
    "mord LogisticIT": lambda: _mord("LogisticIT"),
    "skordinal POM": lambda: _skordinal("POM"),
}


@pytest.mark.parametrize("name", list(PROBABILISTIC))
def test_an_untagged_probabilistic_model_is_tuned_on_its_expected_class(name):
    X, y = ordinal_task(n=240, n_classes=4, seed=3)
    y = y + 1  # class values 1..4: the expected class is on this scale
    clf = TunedThresholdsClassifierCV(PROBABILISTIC[name](), scoring="quadratic_weighted_kappa",
                                      cv=3).fit(X, y)
    assert clf.response_method_ == "predict_proba"
    model = clf.estimator_
    np.testing.assert_array_equal(model.classes_, [1, 2, 3, 4])  # fitted on the labels
    np.testing.assert_allclose(clf._score(X), model.predict_proba(X) @ model.classes_)
    assert set(clf.predict(X)) <= {1, 2, 3, 4}
    assert clf.best_score_ > 0.5


# --- Item 2: the scorers' response rules --------------------------------------------


def _latent_ridge():
    mord = pytest.importorskip("mord")

    class LatentOrdinalRidge(mord.OrdinalRidge):
        def latent_score(self, X):
            return np.asarray(X) @ self.coef_ + self.intercept_

    return LatentOrdinalRidge()


@pytest.mark.parametrize("factory", [RoundingRidge, _latent_ridge],
                         ids=["stand-in", "mord OrdinalRidge"])
def test_a_rounding_regressor_warns_and_takes_any_method_name(factory):
    X, y = ordinal_task(n=300, n_classes=4, seed=5)
    with pytest.warns(UserWarning, match="cuts hard class labels.*response_method"):
        TunedThresholdsClassifierCV(factory(), cv=3).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = TunedThresholdsClassifierCV(factory(), cv=3,
                                          response_method="latent_score").fit(X, y)
    assert clf.response_method_ == "latent_score"
    np.testing.assert_allclose(clf._score(X), clf.estimator_.latent_score(X))
    # A tuple: the first method the estimator has.
    first = TunedThresholdsClassifierCV(factory(), cv=3,
                                        response_method=("no_such", "latent_score"))
    assert first.fit(X, y).response_method_ == "latent_score"


def test_a_bad_response_method_is_refused_as_the_scorers_refuse_it():
    X, y = ordinal_task(n=120, n_classes=3)
    with pytest.raises(ValueError, match="none of the methods"):
        TunedThresholdsClassifierCV(Ridge(), response_method="no_such").fit(X, y)
    with pytest.raises(ValueError, match="tuple of them"):
        TunedThresholdsClassifierCV(Ridge(), response_method=(1, 2)).fit(X, y)


# --- Item 3: scikit-learn's conventions ---------------------------------------------


def test_best_score_is_in_the_scorers_sign_and_the_default_is_macro_mae():
    X, y = ordinal_task(n=300, n_classes=4, seed=8)
    cv = StratifiedKFold(4)
    clf = TunedThresholdsClassifierCV(Ridge(), cv=cv).fit(X, y)
    assert clf.scoring == "neg_macro_mean_absolute_error"
    pooled = cross_val_predict(Ridge(), X, y.astype(float), cv=cv)
    cuts = optimal_thresholds(y, pooled, scoring="neg_macro_mean_absolute_error")
    np.testing.assert_allclose(clf.cut_points_, cuts, rtol=1e-12)
    tuned = macro_mean_absolute_error(y, np.searchsorted(cuts, pooled))
    assert tuned > 0
    assert clf.best_score_ == pytest.approx(-tuned)  # as scikit-learn's searches
    folds = [macro_mean_absolute_error(y[test], np.searchsorted(cuts, pooled[test]),
                                       labels=np.arange(4))
             for _, test in cv.split(X, y)]
    np.testing.assert_allclose(clf.cv_results_["split_test_score"], -np.array(folds))
    # A measure where higher is better keeps its sign.
    kappa = TunedThresholdsClassifierCV(Ridge(), scoring="quadratic_weighted_kappa",
                                        cv=cv).fit(X, y)
    pooled_kappa = weighted_kappa_score(y, np.searchsorted(kappa.cut_points_, pooled),
                                        weights="quadratic")
    assert kappa.best_score_ == pytest.approx(pooled_kappa) and pooled_kappa > 0
    # The report's name of the loss is the same scorer.
    named = TunedThresholdsClassifierCV(Ridge(), scoring="macro_mean_absolute_error",
                                        cv=cv).fit(X, y)
    assert named.best_score_ == pytest.approx(-tuned)


class _RecordingRidge(Ridge):
    """A Ridge that records whether each fit got weights."""

    fits: list = []

    def fit(self, X, y, sample_weight=None):
        type(self).fits.append(sample_weight is not None)
        return super().fit(X, y, sample_weight=sample_weight)


def test_metadata_is_routed_as_scikit_learns_tuner_routes_it():
    X, y = ordinal_task(n=240, n_classes=3, seed=9)
    groups = np.repeat(np.arange(12), 20)
    weight = np.random.default_rng(0).uniform(0.5, 2, len(y))
    with sklearn.config_context(enable_metadata_routing=True):
        # groups reach GroupKFold: no group is split between train and test.
        inner = Ridge().set_fit_request(sample_weight=False)
        scorer = get_scorer("neg_macro_mean_absolute_error").set_score_request(
            sample_weight=True)
        _RecordingRidge.fits = []
        recording = _RecordingRidge().set_fit_request(sample_weight=False)
        clf = TunedThresholdsClassifierCV(recording, scoring=scorer, cv=GroupKFold(4))
        clf.fit(X, y, sample_weight=weight, groups=groups)
        # The estimator asked for no weights: none of its 4 + 1 fits got them.
        assert _RecordingRidge.fits == [False] * 5
        # The splits were GroupKFold's on the groups; the measure got the weights.
        pooled = np.empty(len(y))
        for train, test in GroupKFold(4).split(X, y, groups):
            assert not set(groups[train]) & set(groups[test])
            pooled[test] = Ridge().fit(X[train], y[train]).predict(X[test])
        expected = optimal_thresholds(y, pooled, scoring="neg_macro_mean_absolute_error",
                                      sample_weight=weight)
        np.testing.assert_allclose(clf.cut_points_, expected, rtol=1e-12)
        # Unrequested weights are an error, as in scikit-learn.
        with pytest.raises(Exception, match="sample_weight"):
            TunedThresholdsClassifierCV(Ridge(), cv=3).fit(X, y, sample_weight=weight)
        del inner
    # Without routing, other metadata is refused with the way to route it.
    with pytest.raises(ValueError, match="enable_metadata_routing"):
        TunedThresholdsClassifierCV(Ridge(), cv=GroupKFold(4)).fit(X, y, groups=groups)


def test_input_tags_are_the_estimators():
    X, y = ordinal_task(n=300, n_classes=3, seed=10)
    X = X.copy()
    X[::7, 1] = np.nan
    clf = TunedThresholdsClassifierCV(HistGradientBoostingRegressor(max_iter=20), cv=3)
    assert clf.__sklearn_tags__().input_tags.allow_nan
    assert not TunedThresholdsClassifierCV(Ridge()).__sklearn_tags__().input_tags.allow_nan
    assert np.isfinite(clf.fit(X, y).best_score_)


def test_a_clusterer_is_refused():
    X, y = ordinal_task(n=120, n_classes=3)
    with pytest.raises(ValueError, match="clusterer"):
        TunedThresholdsClassifierCV(KMeans(3, n_init=1)).fit(X, y)


@pytest.mark.parametrize("estimator", [Ridge(), LogisticRegression()],
                         ids=["regressor", "classifier"])
def test_object_integer_labels_are_taken_as_the_measures_take_them(estimator):
    X, y = ordinal_task(n=240, n_classes=4, seed=11)
    as_objects = TunedThresholdsClassifierCV(estimator, cv=3).fit(X, y.astype(object))
    as_ints = TunedThresholdsClassifierCV(estimator, cv=3).fit(X, y)
    np.testing.assert_array_equal(as_objects.classes_, [0, 1, 2, 3])
    np.testing.assert_allclose(as_objects.cut_points_, as_ints.cut_points_)
