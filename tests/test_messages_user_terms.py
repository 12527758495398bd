"""Issue #41, item 5: every message in the user's own terms (the parameters and
options of the door they used)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import Ridge

from sklearn_ordinal.__main__ import main
from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from sklearn_ordinal.evaluation import evaluate
from sklearn_ordinal.metrics import get_scorer, make_ordinal_scorer, optimal_thresholds
from sklearn_ordinal.model_selection import TunedThresholdsClassifierCV, compare_to_trivial


def test_cut_points_advise_labels_not_a_class_values_parameter_they_lack():
    y = np.array([0, 1, 2, 0, 1, 2])
    score = np.arange(6.0)
    with pytest.raises(ValueError, match="increasing order in labels=") as caught:
        optimal_thresholds(y, score, scoring="neg_mean_absolute_error", labels=[2, 1, 0])
    assert "pass class_values" not in str(caught.value)
    X = np.arange(60.0).reshape(-1, 1)
    with pytest.raises(ValueError, match="increasing order in labels=") as caught:
        TunedThresholdsClassifierCV(Ridge(), cv=2, labels=[2, 1, 0]).fit(
            X, np.repeat([0, 1, 2], 20))
    assert "class_values" not in str(caught.value)


def test_evaluate_with_no_measures_names_measures():
    with pytest.raises(ValueError, match="measures is empty") as caught:
        evaluate([0, 1, 2], {"a": [0, 1, 1]}, measures=[])
    assert "scoring" not in str(caught.value)


def _write(path, values):
    path.write_text("id,value\n" + "".join(f"{i},{value}\n" for i, value in enumerate(values)),
                    encoding="utf-8")
    return path


def test_compare_on_the_command_line_names_the_option(tmp_path, capsys):
    path = tmp_path / "scores.csv"
    pd.DataFrame({"dataset": ["d1", "d1", "d2", "d3", "d3"],
                  "system": ["a", "b", "a", "a", "b"],
                  "score": [0.1, 0.2, 0.3, 0.4, 0.5]}).to_csv(path, index=False)
    assert main(["compare", str(path), "--measure", "mean_absolute_error"]) == 2
    err = capsys.readouterr().err
    assert "--drop-incomplete" in err and "drop_incomplete=True" not in err


def test_the_note_on_a_file_read_as_scores_names_labels(tmp_path, capsys):
    gold = _write(tmp_path / "gold.csv", [1, 2, 3, 1, 2, 3])
    other = _write(tmp_path / "other.csv", [1, 2, 2.5, 1, 2, 3])
    out = tmp_path / "report.json"
    assert main(["evaluate", str(gold), str(other), "--n-resamples", "99",
                 "--output", str(out)]) == 0
    err = capsys.readouterr().err
    assert "other: read as real-valued scores" in err
    assert "--labels" in err


def test_labels_from_a_file_with_a_byte_order_mark(tmp_path, capsys):
    gold = _write(tmp_path / "gold.csv", ["low", "mid", "high", "mid"])
    pred = _write(tmp_path / "pred.csv", ["low", "high", "high", "mid"])
    listing = tmp_path / "classes.txt"
    listing.write_bytes("\ufefflow\nmid\nhigh\n".encode("utf-8"))
    out = tmp_path / "report.json"
    code = main(["evaluate", str(gold), str(pred), "--labels", f"@{listing}",
                 "--n-resamples", "99", "--output", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "\ufeff" not in out.read_text(encoding="utf-8")


@pytest.fixture
def dask_inputs():
    da = pytest.importorskip("dask.array")
    y = np.arange(40) % 4
    return (da.from_array(y, chunks=10), da.from_array((y + 1) % 4, chunks=10),
            da.from_array(np.c_[y.astype(float)], chunks=10))


@pytest.mark.parametrize("door", ["evaluate", "TrivialOrdinalClassifier.fit",
                                  "compare_to_trivial"])
def test_dask_inputs_are_told_this_door_takes_numpy_or_pandas(dask_inputs, door):
    y, pred, X = dask_inputs
    call = {
        "evaluate": lambda: evaluate(y, {"a": pred}, n_resamples=99),
        "TrivialOrdinalClassifier.fit": lambda: TrivialOrdinalClassifier().fit(X, y),
        "compare_to_trivial": lambda: compare_to_trivial(
            Ridge(), X, y, cv=2, scoring="neg_macro_mean_absolute_error"),
    }[door]
    with pytest.raises(ValueError, match=f"{door} takes NumPy arrays.*not Dask") as caught:
        call()
    assert "some are not" not in str(caught.value)


class _NestedClasses(ClassifierMixin, BaseEstimator):
    """A classifier whose classes_ is nested, as a multi-output one's."""

    def fit(self, X, y):
        self.classes_ = np.array([[1, 2, 3]])
        return self

    def predict_proba(self, X):
        return np.full((len(X), 3), 1 / 3)

    def predict(self, X):
        return np.ones(len(X), dtype=int)


@pytest.mark.parametrize("name", ["vus", "neg_ranked_probability_score"])
def test_nested_classes_are_not_called_sorted_strings(name):
    X, y = np.zeros((6, 1)), np.array([1, 2, 3, 1, 2, 3])
    model = _NestedClasses().fit(X, y)
    with pytest.raises(ValueError, match="not one flat list of classes") as caught:
        get_scorer(name)(model, X, y)
    assert "strings" not in str(caught.value)


@pytest.mark.parametrize("method", ["predict_proba", ("predict_log_proba", "predict")])
def test_a_measure_of_classes_refuses_probabilities_at_construction(method):
    with pytest.raises(ValueError, match="measure of predicted classes.*cannot read"):
        get_scorer("cem_ord", response_method=method)
    with pytest.raises(ValueError, match="cannot read"):
        make_ordinal_scorer("neg_macro_mean_absolute_error", response_method=method)
    # A probabilistic or ranking measure takes them.
    get_scorer("neg_ranked_probability_score", response_method="predict_proba")
    get_scorer("vus", response_method="predict_proba")


# --- Item 6 ---------------------------------------------------------------------------


class _SortedStrings(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        self.classes_ = np.array(["high", "low", "mid"])
        return self

    def predict_proba(self, X):
        return np.full((len(X), 3), 1 / 3)

    def predict(self, X):
        return np.full(len(X), "low")


@pytest.mark.parametrize("name, spelling", [
    ("vus", "get_scorer('vus', labels=[...])"),
    ("neg_ranked_probability_score",
     "get_scorer('neg_ranked_probability_score', labels=[...])"),
])
def test_string_classes_are_told_the_get_scorer_spelling(name, spelling):
    X, y = np.zeros((3, 1)), np.array(["low", "mid", "high"])
    with pytest.raises(ValueError, match="strings in sorted order") as caught:
        get_scorer(name)(_SortedStrings().fit(X, y), X, y)
    assert spelling in str(caught.value)
    assert "make_ordinal_scorer(" not in str(caught.value)


def test_signatures_name_array_like_not_its_expansion():
    import inspect

    from sklearn_ordinal.metrics import mean_absolute_error, weighted_kappa_score

    for function in (weighted_kappa_score, mean_absolute_error):
        shown = str(inspect.signature(function))
        assert "ArrayLike" in shown and "_NestedSequence" not in shown
        assert len(shown) < 400


# --- Item 7 ---------------------------------------------------------------------------


def test_compare_to_trivial_p_value_agrees_with_its_interval():
    from sklearn.linear_model import LogisticRegression

    from _standins import ordinal_task

    agreed = 0
    # Seeds where a randomization p-value beside a BCa interval disagreed (main
    # before #41: e.g. seed 6, an interval up to -0.010 beside p = 0.116).
    for seed in (6, 11, 16, 17):
        X, y = ordinal_task(n=150, n_classes=4, seed=seed)
        X = X + np.random.default_rng(seed).normal(0, 2.5, X.shape)  # a weak model
        table = compare_to_trivial(
            LogisticRegression(), X, y, cv=3, confidence_level=0.95, n_resamples=999,
            random_state=seed,
            scoring=["neg_macro_mean_absolute_error", "neg_mean_absolute_error", "cem_ord"])
        for _, row in table.iterrows():
            excludes_zero = row["difference_low"] > 0 or row["difference_high"] < 0
            # The inversion: the 95% interval excludes 0 exactly when p < 0.05.
            assert excludes_zero == (row["pvalue"] < 0.05)
            agreed += 1
    assert agreed == 12


def test_compare_text_is_wrapped_at_80_columns(tmp_path, capsys):
    rng = np.random.default_rng(0)
    systems = [f"system_with_a_long_name_{i}" for i in range(6)]
    rows = [{"dataset": f"d{d}", "system": s, "score": rng.uniform()}
            for d in range(8) for s in systems]
    path = tmp_path / "scores.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    assert main(["compare", str(path), "--measure", "accuracy"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "Friedman" in out and "system_with_a_long_name_5" in out
