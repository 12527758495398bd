"""Issue #34, item 8: the gallery example of ordinal models on ANES 1996.

The example itself runs, on a stratified subsample of the voters, with statsmodels'
loader patched to hand it the subsample, so the test checks the example's own code
(not a copy of it) in a few seconds; the documentation build runs it on all 944
voters. Its numbers are checked against the measures computed here directly, and
the claims its text rests on are checked: tuned under the macro MAE, a model
beats the trivial class of the macro MAE on the held-out voters; the VUS of each
model's real-valued score differs from the VUS of its hard labels; the latent score
given to mord's OrdinalRidge is the one its predict rounds, and the expected class
of mord's threshold models ranks the voters as their latent score does.
Skipped where statsmodels, mord or skordinal (the docs extra) is missing.
"""

import runpy
from pathlib import Path

import numpy as np
import pytest

sm = pytest.importorskip("statsmodels.api")
pytest.importorskip("mord")
pytest.importorskip("skordinal")
plt = pytest.importorskip("matplotlib.pyplot")

from sklearn.model_selection import train_test_split  # noqa: E402

from sklearn_ordinal.metrics import (  # noqa: E402
    macro_mean_absolute_error,
    mean_absolute_error,
    vus_score,
)

# Runs the example's ten grid searches (seconds, not milliseconds). mord passes
# L-BFGS-B options that SciPy 1.17 deprecates: its warning, not ours.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore:scipy.optimize:DeprecationWarning:mord.threshold_based"),
]

EXAMPLE = (
    Path(__file__).resolve().parent.parent
    / "examples"
    / "model_selection"
    / "plot_ordinal_models_anes96.py"
)


@pytest.fixture(scope="module")
def example():
    """The example's namespace after a run on 300 of the 944 voters."""
    dataset = sm.datasets.anes96
    load_pandas = dataset.load_pandas
    full = load_pandas()
    rows, _ = train_test_split(
        np.arange(len(full.data)), train_size=300, stratify=full.data["PID"], random_state=1
    )
    subsample = full.data.iloc[np.sort(rows)].reset_index(drop=True)

    class Loaded:
        data = subsample

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dataset, "load_pandas", lambda: Loaded)
        patch.setattr(plt, "show", lambda: None)
        namespace = runpy.run_path(str(EXAMPLE), run_name="__main__")
    plt.close("all")
    assert len(namespace["y"]) == 300
    return namespace


def test_the_table_holds_the_measures_of_the_held_out_predictions(example):
    # Every number of the table is the measure of the tuned model's predictions on
    # the held-out voters, computed here directly and by brute force.
    X, y, test = example["X"], example["y"], example["test"]
    results, searches = example["results"], example["searches"]
    assert len(results) == 2 * len(example["models"])
    for (name, selected_by), search in searches.items():
        y_pred = search.best_estimator_.predict(X[test])
        row = results.loc[(name, selected_by)]
        assert row["micro MAE"] == pytest.approx(mean_absolute_error(y[test], y_pred))
        per_class = [np.abs(y_pred - y[test])[y[test] == k].mean() for k in np.unique(y[test])]
        assert row["macro MAE"] == pytest.approx(np.mean(per_class))
        assert row["macro MAE"] == pytest.approx(macro_mean_absolute_error(y[test], y_pred))


def test_the_trivial_classes_are_the_best_constants_of_the_training_half(example):
    # The trivial class of each error is the constant that scores best on the
    # training labels, and its error on the held-out voters is what the table uses.
    y, train, test = example["y"], example["train"], example["test"]
    measures = {"micro MAE": mean_absolute_error, "macro MAE": macro_mean_absolute_error}
    for measure, function in measures.items():
        constants = np.unique(y[train])
        on_train = [function(y[train], np.full(len(train), c)) for c in constants]
        value, chosen = example["trivial"][measure]
        assert chosen == constants[np.argmin(on_train)]
        assert value == pytest.approx(function(y[test], np.full(len(test), chosen)))


def test_tuned_under_the_macro_mae_a_model_beats_its_trivial_class(example):
    results = example["results"].xs("macro MAE", level="selected by")
    trivial_macro_mae, _ = example["trivial"]["macro MAE"]
    assert results["macro MAE"].min() < trivial_macro_mae
    assert results["skill macro MAE"].max() > 0


def test_the_vus_of_the_real_score_is_not_the_vus_of_the_labels(example):
    results = example["results"]
    # Not always higher: on a small sample a model's order inside its predicted
    # classes can be worse than the random order that ties stand for.
    assert (results["VUS"] != results["VUS of labels"]).all()


def test_the_ridge_score_is_what_its_predict_rounds(example):
    # The example's OrdinalRidge subclass ranks on the latent score that mord's
    # predict rounds and clips to a class: otherwise its VUS would rank another score.
    X, y, test = example["X"], example["y"], example["test"]
    model = example["searches"]["mord.OrdinalRidge", "macro MAE"].best_estimator_
    score = model.decision_function(X[test])
    assert np.array_equal(model.predict(X[test]), np.clip(np.round(score), 0, y.max()))
    assert not np.array_equal(score, np.round(score))
    vus = example["results"].loc[("mord.OrdinalRidge", "macro MAE"), "VUS"]
    assert vus == pytest.approx(vus_score(y[test], score))


@pytest.mark.parametrize("name", ["mord.LogisticAT", "mord.LogisticIT"])
def test_the_expected_class_of_a_threshold_model_ranks_as_its_latent_score(name, example):
    # So the VUS of predict_proba (the expected class) is the VUS of the latent score.
    X, y, test = example["X"], example["y"], example["test"]
    model = example["searches"][name, "macro MAE"].best_estimator_
    latent = model[:-1].transform(X[test]) @ model[-1].coef_
    expected = model.predict_proba(X[test]) @ np.arange(y.max() + 1)
    order = np.argsort(latent, kind="stable")
    # Non-decreasing up to rounding (voters with the same features tie exactly).
    assert np.all(np.diff(expected[order]) >= -1e-12)
    assert np.ptp(expected) > 1
    assert vus_score(y[test], expected) == pytest.approx(vus_score(y[test], latent))
    vus = example["results"].loc[(name, "macro MAE"), "VUS"]
    assert vus == pytest.approx(vus_score(y[test], latent))
