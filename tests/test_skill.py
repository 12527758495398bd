"""Issue #34, item 3: compare_to_trivial's error_score= and its skill column.

The skill score ``(score - trivial) / (perfect - trivial)`` reads the perfect value
from each measure's registry record; that value is checked here as an identity (the
measure of the true classes given as the prediction).
"""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from _standins import PredictOnlyClassifier, UntaggedProbabilisticModel, ordinal_task
from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from sklearn_ordinal.metrics import get_scorer, get_scorer_names
from sklearn_ordinal.metrics._registry import lookup, records
from sklearn_ordinal.model_selection import compare_to_trivial

RPS = "neg_ranked_probability_score"
MACRO = "neg_macro_mean_absolute_error"


@pytest.mark.parametrize("record", records(), ids=lambda record: record.name)
@pytest.mark.parametrize("seed", range(3))
def test_the_perfect_value_is_the_measure_of_perfect_predictions(record, seed):
    y = np.random.default_rng(seed).integers(0, 5, 60)
    if record.reads == "proba":
        perfect_prediction = np.eye(5)[y]
    elif record.reads == "scores":
        perfect_prediction = y.astype(float)
    else:
        perfect_prediction = y
    value = record.function(y, perfect_prediction, labels=np.arange(5))
    if record.perfect is None:
        # Only where the top depends on the data: tau-a with tied true classes stays
        # below 1, mutual information is the entropy of y.
        assert record.name in {"kendall_tau_a_score", "mutual_information_score"}
        assert value < 1 or record.name == "mutual_information_score"
    else:
        assert value == pytest.approx(record.perfect, abs=1e-12)


def _brute_force(model, X, y, name, cv):
    scorer = get_scorer(name)
    model_scores, trivial_scores = [], []
    for train, test in cv.split(X, y):
        model_scores.append(scorer(model.fit(X[train], y[train]), X[test], y[test]))
        trivial = TrivialOrdinalClassifier(name).fit(X[train], y[train])
        trivial_scores.append(scorer(trivial, X[test], y[test]))
    return np.mean(model_scores), np.mean(trivial_scores)


@pytest.mark.parametrize("name", ["vus", "quadratic_weighted_kappa", "gmsec", MACRO, RPS])
def test_skill_is_the_forecasting_skill_score(name):
    X, y = ordinal_task(n=200)
    cv = StratifiedKFold(4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no 'relative improvement undefined' any more
        table = compare_to_trivial(LogisticRegression(), X, y, scoring=name, cv=cv)
    model, trivial = _brute_force(LogisticRegression(), X, y, name, cv)
    record, _, _ = lookup(name)
    perfect = record.perfect if record.greater_is_better else -record.perfect
    row = table.loc[name]
    assert row["mean_difference"] == pytest.approx(model - trivial)
    assert row["skill"] == pytest.approx((model - trivial) / (perfect - trivial))
    assert 0 < row["skill"] < 1
    # The ratio to the trivial score is gone: the skill replaces it for every measure.
    assert "improvement" not in table.columns


def test_skill_is_zero_for_the_trivial_class_and_one_for_an_oracle():
    X, y = ordinal_task(n=120)
    names = ["vus", "cohen_kappa", MACRO]
    table = compare_to_trivial(TrivialOrdinalClassifier(MACRO), X, y, scoring=MACRO, cv=3)
    assert table.loc[MACRO, "skill"] == 0.0
    oracle = LogisticRegression(C=1e6)
    X_oracle = np.column_stack([y * 10.0, np.zeros_like(y)])
    table = compare_to_trivial(oracle, X_oracle, y, scoring=names, cv=3)
    np.testing.assert_allclose(table["skill"], 1.0)


def test_skill_is_nan_where_the_perfect_value_depends_on_the_data():
    X, y = ordinal_task(n=120)
    table = compare_to_trivial(LogisticRegression(), X, y, scoring="mutual_information", cv=3)
    assert np.isnan(table.loc["mutual_information", "skill"])
    assert table.loc["mutual_information", "mean_difference"] > 0


def test_a_measure_failing_for_the_model_costs_one_cell():
    X, y = ordinal_task(n=150)
    model = PredictOnlyClassifier()
    with pytest.warns(FitFailedWarning) as record:
        table = compare_to_trivial(model, X, y, scoring=[MACRO, RPS, "vus"], cv=3)
    failures = [str(w.message) for w in record if issubclass(w.category, FitFailedWarning)]
    assert len(failures) == 1  # one warning, naming the measure and the reason
    assert RPS in failures[0] and "has no predict_proba" in failures[0]
    assert np.isnan(table.loc[RPS, "estimator_mean"])
    assert np.isnan(table.loc[RPS, "skill"])
    assert np.isfinite(table.loc[RPS, "trivial_mean"])  # the trivial side still scores
    # The other rows are what they are without the failing measure.
    alone = compare_to_trivial(model, X, y, scoring=[MACRO, "vus"], cv=3)
    for name in (MACRO, "vus"):
        assert table.loc[name, "estimator_mean"] == alone.loc[name, "estimator_mean"]
        assert table.loc[name, "skill"] == alone.loc[name, "skill"]
    # error_score as in cross_validate: a number, or "raise".
    filled = compare_to_trivial(model, X, y, scoring=[MACRO, RPS], cv=3, error_score=-1.0)
    assert filled.loc[RPS, "estimator_mean"] == -1.0
    with pytest.raises(ValueError, match="no predict_proba"):
        compare_to_trivial(model, X, y, scoring=[MACRO, RPS], cv=3, error_score="raise")


def test_a_failing_measure_with_intervals_leaves_its_interval_empty():
    X, y = ordinal_task(n=120)
    with pytest.warns(FitFailedWarning, match=RPS):
        table = compare_to_trivial(
            PredictOnlyClassifier(), X, y, scoring=[MACRO, RPS], cv=3,
            confidence_level=0.9, n_resamples=99, random_state=0,
        )
    assert np.isnan(table.loc[RPS, "difference_low"])
    assert not table.loc[RPS, "significantly_better"]
    assert np.isfinite(table.loc[MACRO, "difference_low"])


def test_an_untagged_model_with_predict_proba_is_scored_by_every_measure():
    X, y = ordinal_task(n=150)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = compare_to_trivial(
            UntaggedProbabilisticModel(), X, y, scoring=[MACRO, RPS, "vus"], cv=3
        )
    assert table["skill"].between(0, 1).all()


def test_every_scorer_has_a_skill_or_says_why_not():
    for name in get_scorer_names():
        record, _, _ = lookup(name)
        assert record.perfect is not None or name in {
            "kendall_tau_a", "mutual_information", "mutual_info_score"
        }


def test_a_scorer_naming_the_models_own_score_compares_with_the_trivial_class():
    # The trivial classifiers have no latent_score: they are scored by the measure's
    # default response, on the same folds; a regressor's intervals take their classes.
    from _standins import RoundingRidge

    X, y = ordinal_task(n=240)
    scorer = get_scorer("vus", response_method="latent_score")
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # no labels ranked: the latent score
        table = compare_to_trivial(RoundingRidge(), X, y, scoring={"vus": scorer}, cv=3,
                                   confidence_level=0.9, n_resamples=99, random_state=0)
    model_scores = []
    for train, test in StratifiedKFold(3).split(X, y):
        fitted = RoundingRidge().fit(X[train], y[train])
        model_scores.append(scorer(fitted, X[test], y[test]))
    row = table.loc["vus"]
    assert row["estimator_mean"] == pytest.approx(np.mean(model_scores))
    assert row["trivial_mean"] == pytest.approx(1 / 120)  # 1 / 5!: all classes tie
    assert row["difference_low"] > 0
