"""Issue #34, items 1 and 2: the method a scorer reads, and arguments for named scorers.

Item 1: ``make_ordinal_scorer(response_method=...)`` with scikit-learn's meaning, and
the warning when a ranking measure ranks hard class labels. Item 2: ``get_scorer`` /
``get_scorers`` passing measure arguments, ``make_ordinal_scorer`` taking a name.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV, KFold, cross_validate

from _standins import PredictOnlyClassifier, RoundingRidge, ordinal_task
from sklearn_ordinal.metrics import (
    get_scorer,
    get_scorers,
    macro_mean_absolute_error,
    make_ordinal_scorer,
    mean_absolute_error,
    ranked_probability_score_loss,
    vus_score,
)

RANKS_LABELS = "ranks hard class labels"


def _no_warning(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call()


# --- Item 1: response_method -------------------------------------------------------


def test_a_models_own_score_is_ranked_through_response_method():
    X, y = ordinal_task()
    model = RoundingRidge().fit(X[:200], y[:200])
    X_test, y_test = X[200:], y[200:]
    with pytest.warns(UserWarning, match=RANKS_LABELS) as record:
        on_labels = get_scorer("vus")(model, X_test, y_test)
    # Once per call, naming the estimator, the method and the way out.
    messages = [str(w.message) for w in record if RANKS_LABELS in str(w.message)]
    assert len(messages) == 1
    assert "RoundingRidge.predict" in messages[0] and "response_method=" in messages[0]
    assert on_labels == pytest.approx(vus_score(y_test, model.predict(X_test)))
    scorer = get_scorer("vus", response_method="latent_score")
    on_scores = _no_warning(lambda: scorer(model, X_test, y_test))
    assert on_scores == pytest.approx(vus_score(y_test, model.latent_score(X_test)))
    assert on_scores > on_labels  # the rounding's ties cost the ranking
    assert "response_method='latent_score'" in repr(scorer)


def test_a_tuple_is_tried_in_order():
    X, y = ordinal_task()
    ridge = RoundingRidge().fit(X, y)
    scorer = make_ordinal_scorer(vus_score, response="scores",
                                 response_method=("decision_function", "latent_score"))
    assert scorer(ridge, X, y) == pytest.approx(vus_score(y, ridge.latent_score(X)))
    assert scorer.methods == ("decision_function", "latent_score")
    # A method the estimator lacks is passed over for the next one.
    plain = Ridge().fit(X, y)
    both = make_ordinal_scorer(vus_score, response="scores",
                               response_method=("latent_score", "predict"))
    assert both(plain, X, y) == pytest.approx(vus_score(y, plain.predict(X)))


def test_a_regressors_real_valued_predict_is_a_score_and_silent():
    X, y = ordinal_task()
    model = Ridge().fit(X, y)
    value = _no_warning(lambda: get_scorer("vus")(model, X, y))
    assert value == pytest.approx(vus_score(y, model.predict(X)))


def test_a_predict_only_classifier_warns_and_predict_proba_is_silent():
    X, y = ordinal_task()
    with pytest.warns(UserWarning, match="PredictOnlyClassifier.predict"):
        get_scorer("u_pairs")(PredictOnlyClassifier().fit(X, y), X, y)
    model = LogisticRegression().fit(X, y)  # several decision columns: predict_proba
    _no_warning(lambda: get_scorer("u_pairs")(model, X, y))
    # response_method="predict" on it asks for labels, and is told.
    with pytest.warns(UserWarning, match=RANKS_LABELS):
        get_scorer("u_pairs", response_method="predict")(model, X, y)


def test_response_method_reads_each_method_as_the_response_kind_says():
    X, y = ordinal_task()
    model = LogisticRegression().fit(X, y)
    proba = model.predict_proba(X)
    expected_class = proba @ np.arange(proba.shape[1])
    scorer = get_scorer("vus", response_method="predict_log_proba")
    assert scorer(model, X, y) == pytest.approx(vus_score(y, expected_class))
    rps = get_scorer("neg_ranked_probability_score", response_method="predict_log_proba")
    assert rps(model, X, y) == pytest.approx(-ranked_probability_score_loss(y, proba))
    # A label measure fed a regressor's latent score: the real-valued MAE.
    ridge = RoundingRidge().fit(X, y)
    mae = make_ordinal_scorer(mean_absolute_error, greater_is_better=False,
                              response_method="latent_score")
    assert mae(ridge, X, y) == pytest.approx(
        -sklearn.metrics.mean_absolute_error(y, ridge.latent_score(X))
    )
    # A decision function of one column per class ranks nothing: said so.
    with pytest.raises(ValueError, match="one column per class"):
        get_scorer("vus", response_method="decision_function")(model, X, y)


def test_response_method_in_a_multi_metric_cross_validation():
    X, y = ordinal_task()
    scoring = {
        "vus_latent": get_scorer("vus", response_method="latent_score"),
        "mae": get_scorer("neg_macro_mean_absolute_error"),
    }
    result = _no_warning(lambda: cross_validate(RoundingRidge(), X, y, cv=3, scoring=scoring))
    for (train, test), vus in zip(KFold(3).split(X), result["test_vus_latent"]):
        fitted = RoundingRidge().fit(X[train], y[train])
        assert vus == pytest.approx(vus_score(y[test], fitted.latent_score(X[test])))


@pytest.mark.parametrize("bad", [3, (), ("predict", 2), [None]])
def test_a_bad_response_method_is_refused(bad):
    with pytest.raises(ValueError, match="response_method"):
        make_ordinal_scorer(vus_score, response="scores", response_method=bad)


def test_an_estimator_with_none_of_the_methods_is_told():
    X, y = ordinal_task()
    scorer = get_scorer("vus", response_method="latent_score")
    with pytest.raises((ValueError, AttributeError), match="latent_score"):
        scorer(Ridge().fit(X, y), X, y)


# --- Item 2: named scorers take the class order and measure arguments ----------------

ORDER = ["unacc", "acc", "good", "vgood"]


def _string_task(seed=0):
    X, y = ordinal_task(n=240, n_classes=4, seed=seed)
    return X, np.asarray(ORDER, dtype=object)[y]


def test_get_scorers_with_labels_tunes_like_an_ordered_categorical():
    X, y = _string_task()
    names = ["neg_macro_mean_absolute_error", "cem_ord", "vus"]
    grid = {"C": [0.001, 0.1, 10.0]}
    by_labels = GridSearchCV(
        LogisticRegression(), grid, cv=4, refit="neg_macro_mean_absolute_error",
        scoring=get_scorers(names, labels=ORDER),
    )
    _no_warning(lambda: by_labels.fit(X, y))
    categorical = pd.Categorical(y, categories=ORDER, ordered=True)
    by_categories = GridSearchCV(
        LogisticRegression(), grid, cv=4, refit="neg_macro_mean_absolute_error",
        scoring=get_scorers(names),
    ).fit(X, categorical)
    assert np.isfinite(by_labels.best_score_)
    assert by_labels.best_params_ == by_categories.best_params_
    for name in names:
        np.testing.assert_allclose(by_labels.cv_results_[f"mean_test_{name}"],
                                   by_categories.cv_results_[f"mean_test_{name}"])


def test_a_named_scorer_with_labels_gives_the_measures_number():
    X, y = _string_task(seed=1)
    model = LogisticRegression().fit(X, y)
    scorer = get_scorer("neg_macro_mean_absolute_error", labels=ORDER)
    assert scorer(model, X, y) == pytest.approx(
        -macro_mean_absolute_error(y, model.predict(X), labels=ORDER)
    )
    # The same through a name given to make_ordinal_scorer: direction and response too.
    by_name = make_ordinal_scorer("neg_macro_mean_absolute_error", labels=ORDER)
    assert by_name(model, X, y) == scorer(model, X, y)
    assert make_ordinal_scorer("vus").response == "scores"
    assert make_ordinal_scorer("macro_mean_absolute_error").greater_is_better is False


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: get_scorers(["neg_mean_absolute_error", "cem_ord"], scale="nominal"),
         "mean_absolute_error has no parameter 'scale'"),
        (lambda: get_scorer("spearman", sample_weight=[1, 2]), "takes no sample_weight"),
        (lambda: get_scorer("cem_ord", scale="logarithmic"), "scale"),
        (lambda: get_scorer("f1_micro", labels=ORDER), "make_scorer"),
        (lambda: get_scorers(["cem_ord", "f1_micro"], labels=ORDER), "make_scorer"),
        (lambda: make_ordinal_scorer("cem_nom", scale="ordinal"), "fixes scale='nominal'"),
        (lambda: make_ordinal_scorer("neg_mean_absolute_error", greater_is_better=True),
         "lower is better"),
        (lambda: make_ordinal_scorer("vus", response="labels"), "reads 'scores'"),
    ],
)
def test_an_argument_a_measure_does_not_take_is_refused_at_construction(call, match):
    with pytest.raises(ValueError, match=match):
        call()
