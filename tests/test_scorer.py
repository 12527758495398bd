"""Scorers: the registry, and everything scikit-learn does with ``scoring=``."""

import pickle
import warnings
from functools import partial

import numpy as np
import pandas as pd
import pytest
import sklearn
from packaging.version import Version
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    cross_val_score,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from sklearn_ordinal.metrics import (
    accuracy_within_score,
    get_scorer,
    get_scorer_names,
    get_scorers,
    macro_mean_absolute_error,
    make_ordinal_scorer,
    mean_absolute_error,
    ranked_probability_score_loss,
    vus_score,
)
from sklearn_ordinal.metrics._scorer import _SCORERS

ERROR_SCORERS = {
    "neg_macro_mean_absolute_error", "neg_mean_absolute_error",
    "neg_macro_mean_squared_error", "neg_mean_squared_error",
    "neg_macro_root_mean_squared_error", "neg_root_mean_squared_error",
    "neg_macro_mean_zero_one_error", "neg_mean_zero_one_error",
    "neg_max_mean_absolute_error", "neg_max_mean_squared_error",
    "neg_max_root_mean_squared_error", "neg_max_mean_zero_one_error",
}
ZERO_ONE_SCORERS = {
    "neg_macro_mean_zero_one_error", "neg_mean_zero_one_error", "neg_max_mean_zero_one_error",
}


ORDER = ["poor", "fair", "good"]  # not the alphabetical order


def _ordinal_data(n=120, seed=0, classes=tuple(ORDER), ordered=True):
    """Features and string grades; an ordered Categorical Series unless ordered=False."""
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, 3))
    latent = X[:, 0] + 0.5 * rng.normal(size=n)
    codes = np.digitize(latent, [-0.5, 0.8])
    y = np.asarray(classes)[codes]
    if ordered:
        y = pd.Series(pd.Categorical(y, categories=list(classes), ordered=True))
    return X, y


def test_registry_names():
    assert ERROR_SCORERS <= set(get_scorer_names())
    assert get_scorer_names() == sorted(get_scorer_names())


@pytest.mark.parametrize("name", sorted(_SCORERS))
def test_every_scorer_pickles_and_scores(name):
    X, y = _ordinal_data()
    model = LogisticRegression().fit(X, y)
    scorer = get_scorer(name)
    value = scorer(model, X, y)
    assert np.isfinite(value)
    assert pickle.loads(pickle.dumps(scorer))(model, X, y) == pytest.approx(value)
    assert get_scorer(name) is not get_scorer(name)  # copies: the registry stays clean


@pytest.mark.parametrize("name", sorted(ERROR_SCORERS))
def test_error_scorers_are_negated_measures(name):
    X, y = _ordinal_data(seed=1)
    model = LogisticRegression().fit(X, y)
    scorer = get_scorer(name)
    assert scorer.greater_is_better is False
    expected = -scorer.score_func(y, model.predict(X), **scorer.kwargs)
    assert scorer(model, X, y) == pytest.approx(expected)
    assert expected <= 0


def test_repr_shows_measure_and_arguments():
    assert repr(get_scorer("neg_mean_absolute_error")) == (
        "make_ordinal_scorer(mean_absolute_error, greater_is_better=False)"
    )
    scorer = make_ordinal_scorer(mean_absolute_error, response="scores", class_values=[0, 2])
    assert repr(scorer) == (
        "make_ordinal_scorer(mean_absolute_error, response='scores', class_values=[0, 2])"
    )
    micro = partial(mean_absolute_error, average="micro")
    assert repr(make_ordinal_scorer(micro)) == f"make_ordinal_scorer({micro!r})"

    class Measure:  # a callable object has no __name__
        def __call__(self, y_true, y_pred):
            return 0.0

        def __repr__(self):
            return "Measure()"

    assert repr(make_ordinal_scorer(Measure())) == "make_ordinal_scorer(Measure())"


def test_repr_summarises_many_labels_and_errors_still_name_the_scorer():
    # scikit-learn builds the repr on every scorer call: 1000 labels must not be spelled out.
    scorer = make_ordinal_scorer(mean_absolute_error, labels=np.arange(1000))
    assert "..." in repr(scorer) and len(repr(scorer)) < 200
    returns_a_pair = make_ordinal_scorer(lambda y_true, y_pred: (1.0, 2.0))
    X, y = np.zeros((4, 1)), np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match=r"make_ordinal_scorer\(<lambda>\) returned \(1.0"):
        returns_a_pair(DummyClassifier().fit(X, y), X, y)


def test_unknown_name_lists_close_matches():
    with pytest.raises(ValueError, match=r"'neg_macro_mean_absolut_error'.*Did you mean.*"
                                         r"'neg_macro_mean_absolute_error'"):
        get_scorer("neg_macro_mean_absolut_error")
    with pytest.raises(ValueError, match="get_scorer_names"):
        get_scorer("nothing_like_it")
    with pytest.raises(ValueError, match="name or a callable"):
        get_scorer(3)
    assert get_scorer(mean_absolute_error) is mean_absolute_error


def test_make_ordinal_scorer_checks_its_arguments():
    with pytest.raises(ValueError, match="response"):
        make_ordinal_scorer(mean_absolute_error, response="probabilities")
    with pytest.raises(ValueError, match="callable"):
        make_ordinal_scorer(3)
    # A name is a measure of the registry (issue #34): not a string to call.
    with pytest.raises(ValueError, match="not a measure"):
        make_ordinal_scorer("mean_absolute_eror")


# --- Class set and order come from the estimator ------------------------------------

def test_fold_lacking_a_class_is_scored_over_all_classes():
    classes = (10, 20, 30)
    X, y = _ordinal_data(seed=2, classes=classes, ordered=False)
    model = DummyClassifier(strategy="constant", constant=10).fit(X, y)
    test = y != 20  # a test fold without the middle class
    scorer = get_scorer("neg_mean_absolute_error")
    # 30 predicted as 10 is 2 classes away, not 1.
    scorer = get_scorer("accuracy_within_1")
    expected = accuracy_within_score(y[test], model.predict(X[test]), labels=classes)
    assert scorer(model, X[test], y[test]) == pytest.approx(expected)
    naive = accuracy_within_score(y[test], model.predict(X[test]))
    assert naive == 1.0 > expected


def test_test_label_unseen_in_training_joins_the_sorted_classes():
    X = np.arange(6).reshape(-1, 1)
    model = DummyClassifier(strategy="constant", constant=1).fit(X, [1, 1, 2, 2, 1, 1])
    scorer = get_scorer("neg_mean_absolute_error")
    assert scorer(model, X[:2], [1, 4]) == pytest.approx(-1.5)


def test_ordered_categorical_target_order_wins_over_classes_():
    X, y = _ordinal_data(seed=3, ordered=False)
    dtype = pd.CategoricalDtype(["poor", "fair", "good"], ordered=True)
    y_cat = pd.Series(y).astype(dtype)
    model = DummyClassifier(strategy="constant", constant="poor").fit(X, y)
    # classes_ is sorted alphabetically (fair, good, poor); the categorical knows better.
    expected = -mean_absolute_error(y_cat, model.predict(X), average="micro")
    assert get_scorer("neg_mean_absolute_error")(model, X, y_cat) == pytest.approx(expected)
    assert expected == pytest.approx(-np.mean(y_cat.cat.codes))


# --- Everywhere scikit-learn takes scoring= -----------------------------------------

def test_grid_search_single_and_multi_metric_with_refit_by_name():
    X, y = _ordinal_data(seed=4)
    pipeline = make_pipeline(StandardScaler(), LogisticRegression())
    grid = {"logisticregression__C": [0.01, 1.0]}
    search = GridSearchCV(pipeline, grid, cv=3,
                          scoring=get_scorer("neg_macro_mean_absolute_error")).fit(X, y)
    assert search.best_score_ <= 0
    scoring = {name: get_scorer(name) for name in ("neg_macro_mean_absolute_error",
                                                    "neg_mean_absolute_error")}
    search = GridSearchCV(pipeline, grid, cv=3, scoring=scoring,
                          refit="neg_macro_mean_absolute_error", n_jobs=2).fit(X, y)
    assert set(search.cv_results_) >= {"mean_test_neg_macro_mean_absolute_error",
                                       "mean_test_neg_mean_absolute_error"}
    best = search.cv_results_["mean_test_neg_macro_mean_absolute_error"].max()
    assert search.best_score_ == pytest.approx(best)


def test_cross_validate_and_cross_val_score_agree_with_manual_folds():
    X, y = _ordinal_data(seed=5)
    cv = KFold(4, shuffle=True, random_state=0)
    scorer = get_scorer("neg_macro_mean_absolute_error")
    scores = cross_val_score(LogisticRegression(), X, y, cv=cv, scoring=scorer, n_jobs=2)
    manual = []
    for train, test in cv.split(X):
        model = LogisticRegression().fit(X[train], y[train])
        manual.append(-macro_mean_absolute_error(y[test], model.predict(X[test]), labels=ORDER))
    np.testing.assert_allclose(scores, manual)
    results = cross_validate(LogisticRegression(), X, y, cv=cv,
                             scoring={"mae": scorer, "micro": get_scorer("neg_mean_absolute_error")})
    np.testing.assert_allclose(results["test_mae"], manual)


# Without metadata routing, searches hand fit's sample_weight to their scorers since
# scikit-learn 1.7; 1.6 gives the scorers none (docs/user_guide/error_measures.rst says
# so and how to route them there).
_SEARCH_WEIGHTS_THE_SCORERS = pytest.mark.skipif(
    Version(sklearn.__version__) < Version("1.7"),
    reason="GridSearchCV.fit passes sample_weight to scorers since scikit-learn 1.7",
)


def _weighted_fold_scores(X, y, weights, cv):
    scores = []
    for train, test in cv.split(X):
        model = LogisticRegression().fit(X[train], y[train])
        scores.append(-macro_mean_absolute_error(y[test], model.predict(X[test]),
                                           sample_weight=weights[test], labels=ORDER))
    return np.array(scores)


@_SEARCH_WEIGHTS_THE_SCORERS
def test_grid_search_routes_sample_weight_to_the_scorer():
    X, y = _ordinal_data(seed=6)
    weights = np.random.RandomState(6).uniform(0.1, 3.0, size=len(y))
    cv = KFold(3, shuffle=True, random_state=0)
    search = GridSearchCV(LogisticRegression(), {"C": [1.0]}, cv=cv,
                          scoring=get_scorer("neg_macro_mean_absolute_error"))
    # LogisticRegression gets the weights too: compare with weighted fits.
    search.fit(X, y, sample_weight=weights)
    expected = []
    for train, test in cv.split(X):
        model = LogisticRegression().fit(X[train], y[train], sample_weight=weights[train])
        expected.append(-macro_mean_absolute_error(y[test], model.predict(X[test]),
                                             sample_weight=weights[test], labels=ORDER))
    assert search.cv_results_["mean_test_score"][0] == pytest.approx(np.mean(expected))


def test_metadata_routing_routes_sample_weight_like_sklearn_scorers():
    X, y = _ordinal_data(seed=7)
    weights = np.random.RandomState(7).uniform(0.1, 3.0, size=len(y))
    cv = KFold(3, shuffle=True, random_state=0)
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = get_scorer("neg_macro_mean_absolute_error").set_score_request(
            sample_weight=True)
        model = LogisticRegression().set_fit_request(sample_weight=False)
        results = cross_validate(model, X, y, cv=cv, scoring=scorer,
                                 params={"sample_weight": weights})
    np.testing.assert_allclose(results["test_score"], _weighted_fold_scores(X, y, weights, cv))


# --- response="scores" ---------------------------------------------------------------

def _score_spy(y_true, y_score):
    """A score 'measure' that hands back the scores it was given, for inspection."""
    _score_spy.seen = np.asarray(y_score)
    return 0.0


def test_scores_from_a_one_column_decision_function():
    X, _ = _ordinal_data(seed=8, ordered=False)
    y = np.where(X[:, 0] > 0, "high", "low")
    model = LogisticRegression().fit(X, y)  # classes_ = ["high", "low"]
    scorer = make_ordinal_scorer(_score_spy, response="scores")
    dtype = pd.CategoricalDtype(["low", "high"], ordered=True)
    scorer(model, X, pd.Series(y).astype(dtype))
    # decision_function points to classes_[1] = "low": flipped so higher means "high".
    np.testing.assert_allclose(_score_spy.seen, -model.decision_function(X))


def test_scores_from_predict_proba_are_expected_positions():
    X, y = _ordinal_data(seed=9)
    model = LogisticRegression().fit(X, y)
    make_ordinal_scorer(_score_spy, response="scores")(model, X, y)
    proba = model.predict_proba(X)  # columns: fair, good, poor
    np.testing.assert_allclose(_score_spy.seen, proba @ [1, 2, 0])


def test_scores_from_predict_are_positions_or_a_regressors_output():
    X, y = _ordinal_data(seed=10)
    model = SVC().fit(X, y)  # multi-column decision function, no predict_proba
    make_ordinal_scorer(_score_spy, response="scores")(model, X, y)
    positions = {"poor": 0, "fair": 1, "good": 2}
    np.testing.assert_array_equal(_score_spy.seen, [positions[p] for p in model.predict(X)])
    codes = np.asarray(y.cat.codes)
    regressor = make_pipeline(StandardScaler(), LinearRegression()).fit(X, codes)
    make_ordinal_scorer(_score_spy, response="scores")(regressor, X, codes)
    np.testing.assert_allclose(_score_spy.seen, regressor.predict(X))


# --- Any estimator, in multi-metric scoring (trust issue, families 1 and 2) ----------

class _StatedOrderRanker(ClassifierMixin, BaseEstimator):
    """A perfect classifier whose ``classes_`` state their order, low to high.

    ``X[:, 0]`` holds each item's true position; ``classes_`` are not sorted, so they
    state the ordinal order (docs conventions page), as an ordinal model from another package may.
    """

    def fit(self, X, y):
        self.classes_ = np.array(["low", "mid", "high"])
        return self

    def predict(self, X):
        return self.classes_[np.asarray(X)[:, 0].astype(int)]

    def predict_proba(self, X):
        return np.eye(3)[np.asarray(X)[:, 0].astype(int)]


def test_stated_class_order_gives_one_order_to_scores_and_measure():
    positions = np.repeat([0, 1, 2], 4)
    X = np.column_stack([positions, np.zeros(12)])
    y = np.array(["low", "mid", "high"])[positions]
    model = _StatedOrderRanker().fit(X, y)
    for name in ("vus", "u_pairs", "u_ovo", "u_cons", "accuracy_within_1", "cem_ord"):
        assert get_scorer(name)(model, X, y) == pytest.approx(1.0), name
    assert get_scorer("neg_macro_mean_absolute_error")(model, X, y) == 0.0
    pytest.importorskip("matplotlib")
    from sklearn_ordinal.metrics import RocSurfaceDisplay

    assert RocSurfaceDisplay.from_estimator(model, X, y).vus == pytest.approx(1.0)


def test_sorted_string_classes_state_no_order():
    X, y = _ordinal_data(seed=12, ordered=False)  # "fair" < "good" < "poor" alphabetically
    model = LogisticRegression().fit(X, y)
    for name in ("neg_macro_mean_absolute_error", "cem_ord", "vus", "spearman"):
        with pytest.raises(ValueError, match=r"labels=\[\.\.\.\]"):
            get_scorer(name)(model, X, y)
    # Order-free measures take the strings as a set; a scorer given labels= is told.
    assert 0 <= get_scorer("accuracy")(model, X, y) <= 1
    told = make_ordinal_scorer(vus_score, response="scores", labels=ORDER)
    X_cat, y_cat = _ordinal_data(seed=12)
    assert told(model, X, y) == pytest.approx(get_scorer("vus")(model, X_cat, y_cat))


def _estimators_without_decision_function():
    from sklearn.linear_model import Ridge
    from sklearn.neighbors import KNeighborsClassifier

    from sklearn_ordinal.dummy import TrivialOrdinalClassifier

    estimators = {
        "k-neighbours": KNeighborsClassifier(5),
        "ridge pipeline": make_pipeline(StandardScaler(), Ridge()),
        "trivial": TrivialOrdinalClassifier(),
        "logistic (has decision_function)": LogisticRegression(),
    }
    try:
        import mord

        estimators["mord LogisticAT"] = mord.LogisticAT()
    except ImportError:  # an optional test dependency
        pass
    return estimators


@pytest.mark.parametrize("estimator_name", sorted(_estimators_without_decision_function()))
def test_every_registry_scorer_in_one_multi_metric_dict(estimator_name):
    # scikit-learn's multi-metric cache checks each scorer's declared response methods
    # before scoring: a ranking scorer must declare all it may use.
    estimator = _estimators_without_decision_function()[estimator_name]
    X, y = _ordinal_data(seed=13, classes=(1, 2, 3), ordered=False)
    scoring = {name: get_scorer(name) for name in get_scorer_names()}
    regressor = estimator_name == "ridge pipeline"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # trivial: undefined correlations; regressor: NaN
        results = cross_validate(
            estimator, X, y, cv=3, scoring=scoring, error_score=np.nan if regressor else "raise"
        )
    for name in scoring:
        scores = results[f"test_{name}"]
        # A regressor's real values are not classes: only distance and ranking
        # measures take them (the others fail with a ValueError, NaN here).
        # Nor can a regressor give class probabilities (no predict_proba).
        takes_real_values = (
            name in ERROR_SCORERS - ZERO_ONE_SCORERS or _SCORERS[name].response == "scores"
        )
        if regressor and not takes_real_values:
            assert np.isnan(scores).all(), name
        else:
            assert np.isfinite(scores).all(), name


def test_scoring_dict_in_grid_search_with_ranking_scorers():
    from sklearn.neighbors import KNeighborsClassifier

    X, y = _ordinal_data(seed=14)
    scoring = {name: get_scorer(name) for name in ("vus", "u_cons", "neg_macro_mean_absolute_error")}
    search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [3, 9]}, cv=3,
                          scoring=scoring, refit="vus", error_score="raise").fit(X, y)
    assert 0.5 < search.best_score_ <= 1.0


def test_measure_without_weighted_form_refuses_weights_when_called():
    X, y = _ordinal_data(seed=15)
    weights = np.random.RandomState(15).uniform(0.5, 2.0, size=len(y))
    model = LogisticRegression().fit(X, y)
    for name in ("spearman", "kendall_tau_a", "kendall_tau_b"):
        with pytest.raises(ValueError, match="no weighted form"):
            get_scorer(name)(model, X, y, sample_weight=weights)


@_SEARCH_WEIGHTS_THE_SCORERS
def test_measure_without_weighted_form_refuses_weights_from_a_search():
    X, y = _ordinal_data(seed=15)
    weights = np.random.RandomState(15).uniform(0.5, 2.0, size=len(y))
    # In a multi-metric dict too: scikit-learn would otherwise drop the weights.
    scoring = {"spearman": get_scorer("spearman"), "mae": get_scorer("neg_mean_absolute_error")}
    search = GridSearchCV(LogisticRegression(), {"C": [1.0]}, cv=2, scoring=scoring,
                          refit="mae", error_score="raise")
    with pytest.raises(ValueError, match="no weighted form"):
        search.fit(X, y, sample_weight=weights)


def test_predict_proba_with_too_few_columns_is_a_clear_error():
    class Broken(_StatedOrderRanker):
        def predict_proba(self, X):
            return super().predict_proba(X)[:, :2]

    X = np.column_stack([np.repeat([0, 1, 2], 2), np.zeros(6)])
    model = Broken().fit(X, None)
    with pytest.raises(ValueError, match="2 columns but it has 3 classes_"):
        get_scorer("vus")(model, X, model.predict(X))


def test_greater_is_better_must_be_a_bool():
    with pytest.raises(ValueError, match="greater_is_better must be True or False"):
        make_ordinal_scorer(mean_absolute_error, greater_is_better="no")


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_scorers_pickle_and_run_in_parallel(n_jobs):
    X, y = _ordinal_data(seed=16)
    scoring = {name: get_scorer(name) for name in get_scorer_names()}
    results = cross_validate(LogisticRegression(), X, y, cv=3, scoring=scoring, n_jobs=n_jobs)
    serial = cross_validate(LogisticRegression(), X, y, cv=3, scoring=scoring, n_jobs=1)
    for name in scoring:
        np.testing.assert_allclose(results[f"test_{name}"], serial[f"test_{name}"])


def test_single_class_test_fold_is_nan_for_ranking_scorers_only():
    # Documented in the ranking user guide: a ranking measure is undefined on a fold
    # with one class (NaN with scikit-learn's warning); label measures stay finite.
    y = np.repeat([0, 1, 2], 10)
    X = y.reshape(-1, 1) + np.random.RandomState(0).normal(size=(30, 1))
    scoring = {name: get_scorer(name) for name in ("vus", "u_cons", "neg_macro_mean_absolute_error",
                                                    "cem_ord", "spearman", "cohen_kappa")}
    with pytest.warns(UserWarning, match="Scoring failed"):
        results = cross_validate(LogisticRegression(), X, y, cv=KFold(3), scoring=scoring)
    assert np.isnan(results["test_vus"]).all() and np.isnan(results["test_u_cons"]).all()
    for name in ("neg_macro_mean_absolute_error", "cem_ord", "spearman", "cohen_kappa"):
        assert np.isfinite(results[f"test_{name}"]).all(), name
    with pytest.raises(ValueError, match="at least two classes"):
        cross_validate(LogisticRegression(), X, y, cv=KFold(3), scoring=scoring,
                       error_score="raise")


def test_get_scorers_mixes_both_registries():
    scoring = get_scorers(["neg_macro_mean_absolute_error", "f1_weighted", "accuracy",
                           "balanced_accuracy"])
    assert list(scoring) == ["neg_macro_mean_absolute_error", "f1_weighted", "accuracy",
                             "balanced_accuracy"]
    # A name both packages have is this package's scorer (the same number).
    assert repr(scoring["accuracy"]) == "make_ordinal_scorer(_accuracy)"
    assert repr(scoring["balanced_accuracy"]) == "make_ordinal_scorer(_balanced_accuracy)"
    # A name only scikit-learn has is scikit-learn's scorer.
    assert repr(scoring["f1_weighted"]) == repr(sklearn.metrics.get_scorer("f1_weighted"))
    assert list(get_scorers("cem_ord")) == ["cem_ord"]
    X, y = _ordinal_data(seed=17)
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=3, scoring=scoring,
                          refit="neg_macro_mean_absolute_error").fit(X, y)
    assert "mean_test_f1_weighted" in search.cv_results_


def test_get_scorers_refuses_unknown_and_repeated_names():
    with pytest.raises(ValueError, match=r"neither sklearn_ordinal nor scikit-learn.*"
                                         r"'neg_macro_mean_absolute_error'"):
        get_scorers(["neg_macro_mean_absolut_error"])
    with pytest.raises(ValueError, match="more than once"):
        get_scorers(["cem_ord", "cem_ord"])


@pytest.mark.parametrize("name", sorted(_SCORERS))
def test_every_weighted_scorer_drops_zero_weights_and_ignores_the_scale(name):
    scorer = get_scorer(name)
    if "sample_weight" not in __import__("inspect").signature(scorer.score_func).parameters:
        pytest.skip(f"{name} has no weighted form")
    X, y = _ordinal_data(seed=18, classes=(1, 2, 3), ordered=False)
    model = LogisticRegression().fit(X, y)
    rng = np.random.RandomState(18)
    weights = rng.uniform(0.5, 2.0, size=len(y))
    expected = scorer(model, X, y, sample_weight=weights)
    for scale in (1e-300, 1e300):
        assert scorer(model, X, y, sample_weight=weights * scale) == pytest.approx(expected)
    dropped = rng.uniform(size=len(y)) < 0.3
    zeroed = np.where(dropped, 0.0, weights)
    assert scorer(model, X, y, sample_weight=zeroed) == pytest.approx(
        scorer(model, X[~dropped], y[~dropped], sample_weight=weights[~dropped])
    )


def test_compare_to_trivial_with_a_ranking_measure_and_no_decision_function():
    from sklearn.neighbors import KNeighborsClassifier

    from sklearn_ordinal.model_selection import compare_to_trivial

    X, y = _ordinal_data(seed=19, classes=(1, 2, 3), ordered=False)
    table = compare_to_trivial(KNeighborsClassifier(), X, y, cv=3,
                               scoring=["neg_macro_mean_absolute_error", "vus", "u_cons"])
    # Every trivial classifier ranks all items alike: VUS 1/3! for 3 classes, U_cons 1/2.
    assert table.loc["vus", "trivial_mean"] == pytest.approx(1 / 6)
    assert table.loc["u_cons", "trivial_mean"] == pytest.approx(0.5)
    assert table.loc["vus", "estimator_mean"] > 0.5


def test_negative_int8_labels_in_ranking_measures_and_the_trivial_classifier():
    from sklearn_ordinal.dummy import TrivialOrdinalClassifier

    y = np.array([-128, -128, 0, 0, 127, 127], dtype=np.int8)
    assert vus_score(y, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]) == 1.0
    clf = TrivialOrdinalClassifier("neg_macro_mean_absolute_error").fit(None, y)
    assert clf.classes_.tolist() == [-128, 0, 127] and clf.trivial_class_ == 0


# --- response="proba" ----------------------------------------------------------------

def _proba_spy(y_true, y_proba, *, labels=None):
    """A probabilistic 'measure' that keeps what it was given, for inspection."""
    _proba_spy.seen = np.asarray(y_proba)
    _proba_spy.labels = labels
    return 0.0


def test_proba_columns_are_put_in_the_ordinal_order():
    X, y = _ordinal_data(seed=20)
    model = LogisticRegression().fit(X, y)  # classes_ = fair, good, poor
    make_ordinal_scorer(_proba_spy, response="proba")(model, X, y)
    np.testing.assert_allclose(_proba_spy.seen, model.predict_proba(X)[:, [2, 0, 1]])
    assert list(_proba_spy.labels) == ORDER
    scorer = get_scorer("neg_ranked_probability_score")
    assert repr(scorer) == (
        "make_ordinal_scorer(ranked_probability_score_loss, greater_is_better=False, "
        "response='proba')"
    )
    expected = ranked_probability_score_loss(y, model.predict_proba(X)[:, [2, 0, 1]])
    assert scorer(model, X, y) == pytest.approx(-expected)
    # Alphabetical columns would be another, wrong, number.
    assert expected != pytest.approx(
        ranked_probability_score_loss(y, model.predict_proba(X), labels=ORDER)
    )


def test_proba_of_a_class_never_seen_in_training_is_zero():
    X = np.arange(8).reshape(-1, 1)
    model = DummyClassifier(strategy="prior").fit(X, [1, 1, 1, 2, 2, 1, 1, 2])
    y_test = np.array([1, 4, 2, 4])
    make_ordinal_scorer(_proba_spy, response="proba")(model, X[:4], y_test)
    np.testing.assert_allclose(_proba_spy.seen, [[5 / 8, 3 / 8, 0.0]] * 4)
    np.testing.assert_array_equal(_proba_spy.labels, [1, 2, 4])
    score = get_scorer("neg_ranked_probability_score")(model, X[:4], y_test)
    # Items of class 4 have cumulative forecasts (5/8, 1) against (0, 0).
    expected = ((3 / 8) ** 2 + 2 * ((5 / 8) ** 2 + 1) + (5 / 8) ** 2) / 4
    assert score == pytest.approx(-expected)


def test_proba_scorer_refuses_estimators_without_probabilities():
    X, y = _ordinal_data(seed=21, classes=(1, 2, 3), ordered=False)
    scorer = get_scorer("neg_ranked_probability_score")
    for estimator in (SVC().fit(X, y), LinearRegression().fit(X, y)):
        with pytest.raises(ValueError, match="has no predict_proba"):
            scorer(estimator, X, y)
    # Sorted string classes state no order: the columns cannot be put in order.
    X, y = _ordinal_data(seed=21, ordered=False)
    with pytest.raises(ValueError, match=r"labels=\[\.\.\.\]"):
        scorer(LogisticRegression().fit(X, y), X, y)
    told = make_ordinal_scorer(ranked_probability_score_loss, greater_is_better=False,
                               response="proba", labels=ORDER)
    assert told(LogisticRegression().fit(X, y), X, y) < 0


def test_trivial_classifier_and_compare_to_trivial_with_the_proba_scorer():
    from sklearn_ordinal.dummy import TrivialOrdinalClassifier
    from sklearn_ordinal.model_selection import compare_to_trivial

    X, y = _ordinal_data(seed=22)
    trivial = TrivialOrdinalClassifier("neg_ranked_probability_score").fit(X, y)
    # Brute force: the RPS of the one-hot forecast of each class, for every item.
    one_hot_rps = [
        ranked_probability_score_loss(y, np.tile(np.eye(3)[k], (len(y), 1))) for k in range(3)
    ]
    np.testing.assert_allclose(trivial.class_scores_, -np.array(one_hot_rps))
    assert trivial.trivial_class_ == ORDER[int(np.argmin(one_hot_rps))]
    table = compare_to_trivial(LogisticRegression(), X, y, cv=3,
                               scoring=["neg_ranked_probability_score"])
    row = table.loc["neg_ranked_probability_score"]
    assert row["trivial_mean"] < row["estimator_mean"] < 0
