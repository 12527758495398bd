"""Issue #34, item 7: other packages' ordinal models through the scorers,
``compare_to_trivial`` and ``evaluate``.

mord's and skordinal's models run when the packages are installed (the ``interop``
extra, installed by one CI job); the stand-ins of ``_standins.py``, which have the
same shapes (no ``decision_function``; ``predict`` alone; ``predict_proba`` without
the classifier tag; a regressor rounding its latent score), run always, so no
assertion depends on the extra being there.
"""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import KFold, StratifiedKFold, check_cv
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from _standins import (
    PredictOnlyClassifier,
    RoundingRidge,
    UntaggedProbabilisticModel,
    ordinal_task,
)
from sklearn_ordinal.evaluation import evaluate
from sklearn_ordinal.metrics import get_scorer, macro_mean_absolute_error, vus_score
from sklearn_ordinal.model_selection import compare_to_trivial

MACRO, RPS = "neg_macro_mean_absolute_error", "neg_ranked_probability_score"


def _mord(name):
    mord = pytest.importorskip("mord")
    return getattr(mord, name)()


def _skordinal(name):
    classifiers = pytest.importorskip("skordinal.classifiers")
    return getattr(classifiers, name)()


# (factory, has predict_proba): the stand-ins always, the real models when installed.
MODELS = {
    "stand-in RoundingRidge": (RoundingRidge, False),
    "stand-in PredictOnlyClassifier": (PredictOnlyClassifier, False),
    "stand-in UntaggedProbabilisticModel": (UntaggedProbabilisticModel, True),
    "mord LogisticAT": (lambda: _mord("LogisticAT"), True),
    "mord LogisticIT": (lambda: _mord("LogisticIT"), True),
    "mord OrdinalRidge": (lambda: _mord("OrdinalRidge"), False),
    "mord LAD": (lambda: _mord("LAD"), False),
    "skordinal POM": (lambda: _skordinal("POM"), True),
    "skordinal SVOR": (lambda: _skordinal("SVOR"), False),
}


@pytest.mark.parametrize("name", list(MODELS))
def test_compare_to_trivial_costs_a_cell_not_the_table(name):
    factory, probabilistic = MODELS[name]
    X, y = ordinal_task(n=240, n_classes=4, seed=3)
    model = make_pipeline(StandardScaler(), factory())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = compare_to_trivial(model, X, y, scoring=[MACRO, "vus", RPS], cv=3)
    failed = [w for w in caught if issubclass(w.category, FitFailedWarning)]
    assert np.isfinite(table.loc[MACRO, "skill"])
    assert np.isfinite(table.loc["vus", "skill"])
    if probabilistic:
        assert not failed and np.isfinite(table.loc[RPS, "skill"])
    else:
        # One warning naming the measure; its cells NaN, the rest of the table kept.
        assert len(failed) == 1 and RPS in str(failed[0].message)
        assert np.isnan(table.loc[RPS, "estimator_mean"])
    # A model giving labels only is ranked on its labels, and the user is told.
    ranked_labels = [w for w in caught if "ranks hard class labels" in str(w.message)]
    assert bool(ranked_labels) == (not probabilistic)


@pytest.mark.parametrize("name", list(MODELS))
def test_evaluate_scores_the_models_predictions(name):
    factory, _ = MODELS[name]
    X, y = ordinal_task(n=300, n_classes=4, seed=4)
    model = factory().fit(X[:200], y[:200])
    predicted = model.predict(X[200:])
    report = evaluate(y[200:], {"model": predicted},
                      measures=["neg_macro_mean_absolute_error", "cem_ord"],
                      n_resamples=199, random_state=0)
    estimate = report.scores.loc["model", ("macro_mean_absolute_error", "estimate")]
    # A rounding regressor's labels come as floats: the same classes, the same number.
    assert estimate == pytest.approx(
        macro_mean_absolute_error(y[200:], predicted.astype(y.dtype), labels=np.arange(4))
    )


def _latent_ridge():
    """mord's OrdinalRidge with its latent (ridge) score as a method of its own."""
    mord = pytest.importorskip("mord")

    class LatentOrdinalRidge(mord.OrdinalRidge):
        def latent_score(self, X):
            return np.asarray(X) @ self.coef_ + self.intercept_

    return LatentOrdinalRidge()


@pytest.mark.parametrize("factory", [RoundingRidge, _latent_ridge],
                         ids=["stand-in", "mord OrdinalRidge"])
def test_a_rounding_regressor_is_ranked_on_its_latent_score(factory):
    X, y = ordinal_task(n=400, n_classes=5, seed=5)
    model = factory().fit(X[:250], y[:250])
    X_test, y_test = X[250:], y[250:]
    with pytest.warns(UserWarning, match="ranks hard class labels"):
        on_labels = get_scorer("vus")(model, X_test, y_test)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        on_scores = get_scorer("vus", response_method="latent_score")(model, X_test, y_test)
    assert on_scores == pytest.approx(vus_score(y_test, model.latent_score(X_test)))
    assert on_scores > on_labels


def test_an_untagged_model_gets_an_unshuffled_kfold_from_scikit_learn():
    # mord's models are not tagged classifiers: scikit-learn's cv=5 is then a plain,
    # unshuffled KFold, whose folds on sorted labels hold few classes each.
    # compare_to_trivial stratifies whatever the tag says.
    X, y = ordinal_task(n=200, n_classes=4, seed=6)
    order = np.argsort(y, kind="stable")
    X, y = X[order], y[order]
    assert isinstance(check_cv(5, y, classifier=False), KFold)
    assert isinstance(check_cv(5, y, classifier=True), StratifiedKFold)
    table = compare_to_trivial(UntaggedProbabilisticModel(), X, y, scoring=MACRO, cv=5)
    assert len(set(table.loc[MACRO, "trivial_class"])) == 1  # every fold: all classes
