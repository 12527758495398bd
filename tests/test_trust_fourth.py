"""Issue 40, "trust, fourth pass": one test (or a few) per item, each failing on the
code as it was before the fix: exact Wilcoxon p-values with ties and zeros, scores
outside a measure's range, labels beyond int64 in files, empty classes' cut points,
baseline labels outside the classes, and the rest (see each section)."""

import contextlib
import io
import itertools
import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin

from sklearn_ordinal.__main__ import main
from sklearn_ordinal.stats import compare_across_datasets
from sklearn_ordinal.stats._across_datasets import _wilcoxon

NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]


def _run(argv):
    """Exit code, stdout and stderr of ``python -m sklearn_ordinal argv``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                code = main(argv)
            except SystemExit as exit_:
                code = exit_.code
    return code, out.getvalue(), err.getvalue()


# --- item 1: Wilcoxon p-values, exact with ties and zeros -----------------------------


def _brute_force_wilcoxon_p(column, zero_method):
    """Two-sided p-value over all 2**m sign flips of the m nonzero differences."""
    size = np.abs(column)
    nonzero = size > 0
    ranked = size[nonzero] if zero_method == "wilcox" else size
    ranks = stats.rankdata(ranked)
    if zero_method != "wilcox":
        ranks = ranks[nonzero]
    signs = np.array(list(itertools.product([0, 1], repeat=len(ranks))))
    sums = signs @ ranks  # R+ of every sign pattern of the nonzero differences
    observed = ranks[column[nonzero] > 0].sum()
    centre = ranks.sum() / 2
    return np.mean(np.abs(sums - centre) >= abs(observed - centre) - 1e-9)


@settings(phases=NO_SHRINK, max_examples=80, deadline=None)
@given(n=st.integers(1, 13), levels=st.integers(1, 6), seed=st.integers(0, 2**32 - 1),
       zero_method=st.sampled_from(["wilcox", "pratt", "zsplit"]))
def test_wilcoxon_pvalue_is_the_exact_one_with_ties_and_zeros(n, levels, seed,
                                                               zero_method):
    # Few levels: tied |differences| and zeros are the rule, not the exception.
    rng = np.random.default_rng(seed)
    differences = rng.integers(-levels, levels + 1, size=(n, 3)) / 4
    statistic, pvalue = _wilcoxon(differences, zero_method)
    for j in range(3):
        column = differences[:, j]
        if (column == 0).all():
            assert (statistic[j], pvalue[j]) == (0, 1)
            continue
        assert pvalue[j] == pytest.approx(_brute_force_wilcoxon_p(column, zero_method),
                                          abs=1e-12)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = stats.wilcoxon(column, zero_method=zero_method, method="approx")
        assert statistic[j] == pytest.approx(expected.statistic)


def test_wilcoxon_pvalue_equals_scipy_exact_without_ties():
    rng = np.random.default_rng(3)
    differences = rng.permutation(np.arange(1, 16))[:, None] * rng.choice([-1, 1], (15, 4))
    _, pvalue = _wilcoxon(differences.astype(float), "wilcox")
    expected = stats.wilcoxon(differences, method="exact", axis=0).pvalue
    np.testing.assert_allclose(pvalue, expected, rtol=1e-12)


def test_wilcoxon_beyond_50_nonzero_differences_is_scipys_normal_approximation():
    rng = np.random.default_rng(4)
    differences = np.round(rng.normal(size=(60, 3)), 1)  # ties, and few zeros
    differences[:5] = 0  # 55 nonzero in each column
    for zero_method in ("wilcox", "pratt", "zsplit"):
        _, pvalue = _wilcoxon(differences, zero_method)
        expected = stats.wilcoxon(differences, zero_method=zero_method, method="approx",
                                  axis=0)
        np.testing.assert_allclose(pvalue, expected.pvalue, rtol=1e-12)


def test_few_nonzero_differences_among_many_datasets_are_exact():
    # 60 data sets, 4 of them won by a by the same margin, the rest tied: the exact
    # p-value is 2 / 2**4 under "wilcox", whatever the number of ties.
    differences = np.zeros((60, 1))
    differences[:4] = 0.25
    _, pvalue = _wilcoxon(differences, "wilcox")
    assert pvalue[0] == pytest.approx(0.125)
    for zero_method in ("pratt", "zsplit"):
        _, pvalue = _wilcoxon(differences, zero_method)
        assert pvalue[0] == pytest.approx(_brute_force_wilcoxon_p(differences[:, 0],
                                                                   zero_method))


def test_four_tied_differences_are_not_significant(tmp_path):
    # The issue's reproduction: four data sets, x better by 0.25 on each; the exact
    # p-value is 2 / 2**4 = 0.125, the normal approximation's 0.0455.
    table = pd.DataFrame({"x": [0.75, 0.5, 1.0, 0.625], "y": [0.5, 0.25, 0.75, 0.375]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        result = compare_across_datasets(table, "accuracy")
    row = result.pairwise.iloc[0]
    assert row["wilcoxon_pvalue"] == pytest.approx(0.125)
    assert not row["significant"]
    path = tmp_path / "t.csv"
    rows = [("d1", "x", 0.75), ("d1", "y", 0.5), ("d2", "x", 0.5), ("d2", "y", 0.25),
            ("d3", "x", 1.0), ("d3", "y", 0.75), ("d4", "x", 0.625), ("d4", "y", 0.375)]
    path.write_text("dataset,system,score\n"
                    + "".join(f"{d},{s},{v}\n" for d, s, v in rows))
    code, out, _ = _run(["compare", str(path), "--measure", "accuracy", "--format", "json"])
    assert code == 0
    pairs = json.loads(out)["pairwise"]
    assert pairs[0]["wilcoxon_pvalue"] == pytest.approx(0.125)
    assert pairs[0]["significant"] is False


# --- item 2: scores outside the measure's range -------------------------------------


def test_positive_losses_under_a_neg_scorer_name_are_refused(tmp_path):
    mae = pd.DataFrame({"a": [0.5, 0.6, 0.4, 0.7, 0.55], "b": [0.6, 0.7, 0.5, 0.8, 0.65]})
    with pytest.raises(ValueError, match=r"outside the range of "
                       r"'neg_macro_mean_absolute_error'.*'macro_mean_absolute_error'"):
        compare_across_datasets(mae, "neg_macro_mean_absolute_error")
    with pytest.raises(ValueError, match=r"outside the range of 'macro_mean_absolute_error'"
                       r".*'neg_macro_mean_absolute_error'"):
        compare_across_datasets(-mae, "macro_mean_absolute_error")
    with pytest.raises(ValueError, match=r"1 score\(s\) lie outside the range of "
                       r"'accuracy', \[0, 1\]: 1.5 for data set 2, system 'b'"):
        compare_across_datasets(mae.assign(b=[0.6, 0.7, 1.5, 0.8, 0.65]), "accuracy")
    # In range, both names work, in their own directions.
    assert compare_across_datasets(-mae, "neg_macro_mean_absolute_error").average_ranks[
        "a"] == 1
    assert compare_across_datasets(mae, "macro_mean_absolute_error").average_ranks["a"] == 1
    # The command line: exit 2, one line.
    path = tmp_path / "mae.csv"
    mae.rename_axis("dataset").to_csv(path)
    code, out, err = _run(["compare", str(path), "--measure",
                           "neg_macro_mean_absolute_error"])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "'macro_mean_absolute_error'" in err


def test_a_report_read_back_with_scores_outside_the_range_is_refused():
    from sklearn_ordinal import evaluate
    from sklearn_ordinal.evaluation import EvaluationReport

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = evaluate([0, 0, 1, 1, 2, 2], {"a": [0, 1, 1, 1, 2, 2]},
                          measures=["accuracy", "macro_mean_absolute_error"],
                          n_resamples=99, random_state=0)
    content = json.loads(report.to_json())
    EvaluationReport.from_json(json.dumps(content))  # as written: read
    for record in content["scores"]:
        if record["measure"] == "macro_mean_absolute_error":
            record["estimate"] = -record["estimate"] - 1
    with pytest.raises(ValueError, match="outside the range of 'macro_mean_absolute_error'"):
        EvaluationReport.from_json(json.dumps(content))
    # A report read back goes on to compare_across_datasets: a checked door.
    reports = {"d1": report, "d2": report}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        comparison = compare_across_datasets(reports, "macro_mean_absolute_error",
                                             include_trivial=True)
    assert comparison.greater_is_better is False


# --- item 3: labels beyond int64 in files ---------------------------------------------


def _write_labels(path, labels):
    table = pd.DataFrame({"id": range(len(labels)), "value": labels})
    if path.suffix == ".json":
        # Python ints of any size, as json writes them.
        path.write_text(json.dumps(table.astype(object).to_dict("records")))
    elif path.suffix == ".parquet":
        table.to_parquet(path)
    else:
        table.to_csv(path, index=False)


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_labels_beyond_int64_in_files_are_refused(tmp_path, suffix):
    from sklearn_ordinal.evaluation import read_evaluation_files

    big = 2**70
    gold, pred = tmp_path / f"gold{suffix}", tmp_path / f"pred{suffix}"
    _write_labels(gold, [big, big + 1] * 3)
    _write_labels(pred, [big + 1, big] * 3)
    with pytest.raises(ValueError, match=r"6 label\(s\) are integers outside the int64 "
                       r"range.*1180591620717411303424; labels must fit in int64"):
        read_evaluation_files(gold, [pred])
    code, out, err = _run(["evaluate", str(gold), str(pred), "--measures", "accuracy"])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "labels must fit in int64" in err
    # The int64 ends themselves are read exactly, as distinct classes.
    top = np.iinfo(np.int64).max
    _write_labels(gold, [top, top - 1] * 3)
    _write_labels(pred, [top - 1, top] * 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        read = read_evaluation_files(gold, [pred])
    assert read.y_true.dtype == np.int64
    assert sorted(set(read.y_true)) == [top - 1, top]


def test_uint64_labels_beyond_int64_in_parquet_are_refused(tmp_path):
    pytest.importorskip("pyarrow")
    from sklearn_ordinal.evaluation import read_evaluation_files

    big = np.uint64(2**64 - 2)
    gold, pred = tmp_path / "gold.parquet", tmp_path / "pred.parquet"
    _write_labels(gold, np.array([big, big + 1] * 3, dtype=np.uint64))
    _write_labels(pred, np.array([big + 1, big] * 3, dtype=np.uint64))
    with pytest.raises(ValueError, match="labels must fit in int64"):
        read_evaluation_files(gold, [pred])


# --- item 4: cut points for a class with no weight ------------------------------------


def test_a_class_of_zero_weight_items_gets_an_empty_interval():
    from sklearn_ordinal.metrics import optimal_thresholds

    y_true = np.array([0, 0, 1, 1, 2, 2])
    y_score = np.array([0.1, 0.2, 1, 1.1, 2, 2.1])
    weight = np.array([1, 1, 0, 0, 1, 1])
    cuts = optimal_thresholds(y_true, y_score, scoring="neg_macro_mean_absolute_error",
                              sample_weight=weight)
    assert len(cuts) == 2
    # The documented rule: the class is the number of cut points strictly below.
    predicted = np.searchsorted(cuts, y_score, side="left")
    np.testing.assert_array_equal(predicted[weight > 0], y_true[weight > 0])


@settings(phases=NO_SHRINK, max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       scoring=st.sampled_from(["neg_macro_mean_absolute_error", "neg_mean_absolute_error",
                                "quadratic_weighted_kappa"]))
def test_cut_points_number_one_less_than_the_classes_whatever_the_weights(seed, scoring):
    from sklearn_ordinal.metrics import optimal_thresholds

    rng = np.random.default_rng(seed)
    n = 12
    y_true = rng.integers(0, 4, n)
    y_score = y_true + rng.normal(0, 0.7, n)
    weight = rng.random(n) * (rng.random(n) < 0.6)  # many zero weights
    if not weight.any():
        weight[0] = 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cuts = optimal_thresholds(y_true, y_score, scoring=scoring, sample_weight=weight)
        # The same as giving the classes of every item as labels=.
        named = optimal_thresholds(y_true, y_score, scoring=scoring, sample_weight=weight,
                                   labels=np.unique(y_true))
    assert len(cuts) == len(np.unique(y_true)) - 1
    np.testing.assert_array_equal(cuts, named)


# --- item 5: a trivial class outside the report's classes -----------------------------


def test_baseline_labels_outside_the_classes_are_refused():
    from sklearn_ordinal import evaluate

    y = [1, 2, 3, 4, 5] * 2
    with pytest.raises(ValueError, match=r"baseline_labels holds 1 class\(es\) that are "
                       r"not classes of the report, \[9\]; the classes are \[1, 2, 3, 4, 5\]"):
        evaluate(y, {"a": y}, baseline_labels=[9, 9, 9], n_resamples=99)
    categorical = pd.Categorical(list("abcab"), categories=list("abc"), ordered=True)
    with pytest.raises(ValueError, match=r"\['d'\]"):
        evaluate(categorical, {"a": categorical}, baseline_labels=["b", "d"], n_resamples=99)
    # Classes of the report are taken, and the trivial classifier chooses among them.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = evaluate(y, {"a": y}, baseline_labels=[2, 2, 3],
                          measures=["macro_mean_absolute_error"], n_resamples=99)
    assert report.trivial_classes["macro_mean_absolute_error"] == 2


# --- item 6: PyEvALL's missing-as-wrong convention and Cohen's kappa ----------------

# PyEvALL 0.2.11's Kappa per test case on tools/record_pyevall.py's "txt_missing"
# files (recorded with its run_pyevall, PyEvALL installed from PyPI).
PYEVALL_0_2_11_KAPPA_MISSING = {
    "logistic": {"fold1": 0.2758219860511458, "fold2": 0.17634191485781592,
                 "fold3": 0.22689643520865016, "fold4": 0.06782846403553734,
                 "fold5": 0.20368789482670305},
    "ridge": {"fold1": 0.40623873061666066, "fold2": 0.1795780889913136,
              "fold3": 0.2753134942915965, "fold4": 0.1377245508982036,
              "fold5": 0.2881866064710309},
}


def _pyevall_kappa(y_true, y_pred, missing):
    """PyEvALL's Kappa as its metrics.py computes it: the accuracy over every gold
    item, the chance agreement from the predicted items' classes only."""
    n = len(y_true)
    accuracy = np.sum((y_true == y_pred) & ~missing) / n
    chance = sum(np.sum((y_pred == c) & ~missing) / n * np.sum(y_true == c) / n
                 for c in np.unique(y_true))
    return (accuracy - chance) / (1 - chance)


def test_missing_wrong_kappa_differs_from_pyevall_as_documented(tmp_path):
    import importlib.util
    from pathlib import Path

    from sklearn.metrics import cohen_kappa_score

    from sklearn_ordinal.evaluation import read_evaluation_files

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("record_pyevall",
                                                  root / "tools" / "record_pyevall.py")
    record_pyevall = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(record_pyevall)
    gold, systems = record_pyevall.make_cases(tmp_path)["txt_missing"]
    grades = ["very_low", "low", "moderate", "high", "very_high"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = read_evaluation_files(gold, list(systems.values()), missing="wrong",
                                     labels=grades)
    cases = data.y_true.index.get_level_values(0)
    y_true = data.y_true.to_numpy()
    for system, recorded in PYEVALL_0_2_11_KAPPA_MISSING.items():
        filled = data.filled[data.filled["system"] == system]
        missing = data.y_true.index.isin(pd.MultiIndex.from_arrays(
            [filled["test_case"].astype(str), filled["id"].astype(str)]))
        y_pred = data.y_pred[system].to_numpy()
        for case, expected in recorded.items():
            here = cases == case
            # PyEvALL's formula reproduces PyEvALL's numbers ...
            assert _pyevall_kappa(y_true[here], y_pred[here], missing[here]) == \
                pytest.approx(expected, abs=1e-12)
            # ... ours is Cohen's kappa of the filled predictions, and differs.
            ours = cohen_kappa_score(y_true[here], y_pred[here])
            assert abs(ours - expected) > 1e-3
    # The user guide names kappa among the measures that differ, with the numbers.
    guide = " ".join((root / "docs" / "user_guide" / "evaluating_files.rst")
                     .read_text(encoding="utf-8").split())
    assert "Precision, F-measure and Cohen's kappa are not quite" in guide
    logistic = cases == "fold1"
    ours = cohen_kappa_score(y_true[logistic], data.y_pred["logistic"].to_numpy()[logistic])
    assert f"first test case is {ours:.3f} here and " \
           f"{PYEVALL_0_2_11_KAPPA_MISSING['logistic']['fold1']:.3f} in PyEvALL 0.2.11" in guide


# --- item 7: compare_to_trivial when the estimator warns, then fails ---------------


class _WarnsThenFails(ClassifierMixin, BaseEstimator):
    """An estimator whose fit warns, then raises (as a misconfigured search does)."""

    def fit(self, X, y):
        warnings.warn("about to fail", UserWarning)
        raise RuntimeError("bad configuration")

    def predict(self, X):
        return np.zeros(len(X))


def _task():
    X = np.random.default_rng(0).normal(size=(30, 2))
    return X, np.arange(30) % 3


def test_compare_to_trivial_raises_when_the_estimator_warns_then_fails():
    # Before: the warnings were warned again inside the block recording them, each
    # appended to the list being walked, and the call never returned.
    from sklearn_ordinal.model_selection import compare_to_trivial

    X, y = _task()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match="bad configuration"):
            compare_to_trivial(_WarnsThenFails(), X, y, cv=3, error_score="raise",
                               scoring="neg_macro_mean_absolute_error")
    # The estimator's warning reaches the caller, once (the first fold's fit raises).
    assert [str(w.message) for w in caught] == ["about to fail"]


def test_compare_to_trivial_raises_when_every_fit_fails():
    from sklearn_ordinal.model_selection import compare_to_trivial

    X, y = _task()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"All the 3 fits failed under every measure "
                           r"\(the first: RuntimeError: bad configuration\)"):
            compare_to_trivial(_WarnsThenFails(), X, y, cv=3,
                               scoring=["neg_macro_mean_absolute_error", "accuracy"])


# --- item 8: weighted coordinate ascent, weights summing past the total ----------------


def test_weighted_coordinate_ascent_on_the_issues_weights():
    from sklearn_ordinal.metrics import optimal_thresholds

    # 0.1 + 0.3 + 0.7 (by class) passes 0.1 + 0.7 + 0.3 (by score) by one unit in the
    # last place: the start from the class proportions landed one past the end.
    cuts = optimal_thresholds([0, 1, 0], [0, 1, 2], scoring="quadratic_weighted_kappa",
                              labels=[0, 1, 2], sample_weight=[0.1, 0.7, 0.3])
    assert len(cuts) == 2 and cuts[0] <= cuts[1]


@settings(phases=NO_SHRINK, max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       scoring=st.sampled_from(["quadratic_weighted_kappa", "linear_weighted_kappa",
                                "minimum_sensitivity", "geometric_mean", "macro_f1",
                                "cohen_kappa"]))
def test_weighted_non_additive_measures_tune_with_any_weights(seed, scoring):
    from sklearn_ordinal.metrics import get_scorer, optimal_thresholds

    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 9))
    # The top class empty: the class weights' partial sums reach the total weight.
    y_true = rng.integers(0, 2, n)
    y_score = rng.permutation(n).astype(float)
    # Weights of one decimal: their sums in two orders differ in the last place.
    weight = rng.integers(1, 10, n) / 10
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cuts = optimal_thresholds(y_true, y_score, scoring=scoring, labels=[0, 1, 2],
                                  sample_weight=weight)
    assert len(cuts) == 2 and cuts[0] <= cuts[1]


def test_tuned_thresholds_classifier_fits_with_such_weights():
    from sklearn.linear_model import LinearRegression

    from sklearn_ordinal.model_selection import TunedThresholdsClassifierCV

    rng = np.random.default_rng(0)
    for _ in range(10):
        X = rng.normal(size=(30, 2))
        # Class 2 named but absent: the class weights' sums reach the total weight.
        y = (X[:, 0] > 0).astype(int)
        weight = rng.integers(1, 10, 30) / 10
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = TunedThresholdsClassifierCV(
                LinearRegression(), scoring="quadratic_weighted_kappa", cv=3,
                labels=[0, 1, 2])
            model.fit(X, y, sample_weight=weight)
        assert len(model.cut_points_) == 2


# --- item 9: BCa on labels of huge (or tiny) magnitude ---------------------------------


@pytest.mark.parametrize("scale", [1e150, 1e300, 1e-300])
def test_bca_interval_scales_with_the_labels(scale):
    from sklearn_ordinal.stats import score_interval

    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 50)
    p = np.clip(y + rng.integers(-1, 2, 50), 0, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = score_interval("neg_macro_mean_absolute_error", y, p, n_resamples=999,
                               random_state=0, method="bca")
        scaled = score_interval("neg_macro_mean_absolute_error", y * scale, p * scale,
                                n_resamples=999, random_state=0, method="bca")
    assert scaled.confidence_interval.low / scale == pytest.approx(
        plain.confidence_interval.low, rel=1e-9)
    assert scaled.confidence_interval.high / scale == pytest.approx(
        plain.confidence_interval.high, rel=1e-9)


def test_bca_acceleration_is_the_formula_and_scale_free():
    from sklearn_ordinal.stats._resampling import _acceleration

    rng = np.random.default_rng(1)
    values, counts = rng.random(20), rng.integers(1, 4, 20)
    deviation = np.average(values, weights=counts) - values
    expected = np.sum(counts * deviation**3) / (6 * np.sum(counts * deviation**2) ** 1.5)
    assert _acceleration(values, counts) == pytest.approx(expected, rel=1e-12)
    for scale in (1e300, 1e-300, -1e200):
        assert _acceleration(values * scale, counts) == pytest.approx(
            np.sign(scale) * expected, rel=1e-9)


# --- item 10: 2-D Dask y_true ---------------------------------------------------------


def test_two_dimensional_dask_y_true_is_read_or_refused_like_y_pred():
    da = pytest.importorskip("dask.array")
    from sklearn_ordinal.metrics import macro_mean_absolute_error, vus_score

    y_true = np.array([0, 1, 2, 1, 0, 2, 2, 1])
    y_pred = np.array([0, 1, 2, 1, 0, 1, 2, 0])
    column = da.from_array(y_true.reshape(-1, 1), chunks=3)
    predictions = da.from_array(y_pred, chunks=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert macro_mean_absolute_error(column, predictions) == pytest.approx(
            macro_mean_absolute_error(y_true, y_pred))
        assert vus_score(column, predictions.astype(float)) == pytest.approx(
            vus_score(y_true, y_pred.astype(float)))
    two = da.from_array(np.c_[y_true, y_true], chunks=3)
    for measure, prediction in ((macro_mean_absolute_error, predictions),
                                (vus_score, predictions.astype(float))):
        with pytest.raises(ValueError, match=r"Dask inputs must be 1-D; got shape \(8, 2\)"):
            measure(two, prediction)


# --- item 11: a line without end --------------------------------------------------------


@pytest.mark.parametrize("suffix, header", [(".csv", b"id,value\n0,1\n"),
                                            (".jsonl", b'{"id": "0", "value": 1}\n\n'),
                                            (".txt", b"id\tvalue\n0\t1\n")])
def test_a_line_beyond_the_bound_is_refused_with_one_line(tmp_path, suffix, header):
    from sklearn_ordinal import _table_files as _files

    gold = tmp_path / f"gold{suffix}"
    gold.write_bytes(header + b"1" * (_files.MAX_LINE_BYTES + 1) + b"\n")
    code, out, err = _run(["evaluate", str(gold), str(gold)])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert f"line 3 is longer than {_files.MAX_LINE_BYTES} bytes" in err


@settings(phases=NO_SHRINK, max_examples=200, deadline=None)
@given(data=st.binary(max_size=40).map(lambda b: bytes(10 if x < 60 else 65 for x in b)),
       block=st.integers(1, 7))
def test_the_longest_line_is_found_across_blocks(data, block, tmp_path_factory):
    from sklearn_ordinal import _table_files as _files

    path = tmp_path_factory.mktemp("lines") / "f.csv"
    path.write_bytes(data)
    too_long = [i + 1 for i, line in enumerate(data.split(b"\n")) if len(line) > 5]
    saved = _files.MAX_LINE_BYTES, _files._LINE_BLOCK
    _files.MAX_LINE_BYTES, _files._LINE_BLOCK = 5, block
    try:
        if too_long:
            with pytest.raises(ValueError, match=f"line {too_long[0]} is longer"):
                _files.check_line_lengths(path)
        else:
            _files.check_line_lengths(path)
    finally:
        _files.MAX_LINE_BYTES, _files._LINE_BLOCK = saved


# --- item 12: four minor ones ------------------------------------------------------------


def test_a_set_as_y_is_a_clear_error_at_every_door():
    from sklearn.linear_model import LogisticRegression

    from sklearn_ordinal.metrics import get_scorer, mean_absolute_error

    X, y = _task()
    model = LogisticRegression().fit(X, y)
    message = r"y_true must be array-like, one label per item .* got a set"
    for name in ("neg_macro_mean_absolute_error", "vus", "accuracy"):
        with pytest.raises(ValueError, match=message):
            get_scorer(name)(model, X, set(y))
    with pytest.raises(ValueError, match=message):
        mean_absolute_error(set(y), y)
    with pytest.raises(ValueError, match="y_pred must be array-like"):
        mean_absolute_error(y, set(y))


def test_read_evaluation_files_without_a_label_column_is_a_clear_error(tmp_path):
    from sklearn_ordinal.evaluation import read_evaluation_files

    gold = tmp_path / "gold.csv"
    gold.write_text("id,value\n1,0\n2,1\n")
    with pytest.raises(ValueError, match="label_column=None: it must name a column"):
        read_evaluation_files(gold, [gold], label_column=None)


def test_trivial_classifier_on_one_class_says_what_it_did():
    from sklearn.exceptions import UndefinedMetricWarning

    from sklearn_ordinal.dummy import TrivialOrdinalClassifier

    with pytest.warns(UndefinedMetricWarning, match=r"y holds one class, 1.0: .* "
                      r"class_scores_ is \[nan\]"):
        model = TrivialOrdinalClassifier("vus").fit(np.zeros((4, 1)), np.ones(4))
    assert model.trivial_class_ == 1 and np.isnan(model.class_scores_).all()


@pytest.mark.parametrize("argument", [{"class_values": [0, 1, 5]}, {"labels": [0, 1, 2]},
                                      {"sample_weight": [1, 1, 1]}])
def test_confusion_score_refuses_what_the_matrix_holds(argument):
    from sklearn_ordinal.metrics import OrdinalConfusion, mean_absolute_error

    confusion = OrdinalConfusion.from_predictions([0, 1, 2], [0, 1, 1])
    with pytest.raises(ValueError, match=f"OrdinalConfusion.score takes no {next(iter(argument))}"
                       ": the matrix already holds"):
        confusion.score(mean_absolute_error, **argument)
    # What the matrix holds is given where it belongs.
    valued = OrdinalConfusion.from_predictions([0, 1, 2], [0, 1, 1], class_values=[0, 1, 5])
    assert valued.score(mean_absolute_error) == pytest.approx(
        mean_absolute_error([0, 1, 2], [0, 1, 1], class_values=[0, 1, 5]))


# --- item 13: Markdown output escapes names and labels ------------------------------------

BAD = "<img src=x onerror=alert(1)>"


def test_markdown_report_writes_names_and_labels_as_text(tmp_path):
    from sklearn_ordinal import evaluate

    y = [BAD, "b", "c"] * 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = evaluate(y, {BAD: y, "s|x": ["b"] * 12}, labels=[BAD, "b", "c"],
                          measures=["accuracy", "macro_mean_absolute_error"],
                          n_resamples=99, random_state=0)
    text = report.to_markdown()
    assert "<img" not in text
    assert "| &lt;img src=x onerror=alert(1)&gt; | 1.000 [1.000, 1.000]" in text
    assert "| s\\|x |" in text  # a | would split the cell
    assert "accuracy: &lt;img src=x onerror=alert(1)&gt;" in text  # the trivial class
    # The command line's --format markdown, on files.
    gold, pred = tmp_path / "gold.csv", tmp_path / "pred.csv"
    pd.DataFrame({"id": range(12), "value": y}).to_csv(gold, index=False)
    pd.DataFrame({"id": range(12), "value": y}).to_csv(pred, index=False)
    code, out, _ = _run(["evaluate", str(gold), str(pred), "--labels", f"{BAD},b,c",
                         "--format", "markdown", "--n-resamples", "99"])
    assert code == 0 and "<img" not in out and "&lt;img" in out


def test_markdown_comparison_writes_names_as_text():
    table = pd.DataFrame({BAD: [0.5, 0.6, 0.7, 0.8, 0.9], "a|b": [0.4, 0.5, 0.6, 0.7, 0.8]})
    text = compare_across_datasets(table, "accuracy").to_markdown()
    assert "<img" not in text and "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "| a\\|b |" in text


# --- item 14: output a reader can trust -------------------------------------------------


def _report_of(**kwargs):
    from sklearn_ordinal import evaluate

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = evaluate(**kwargs)
    return report, [str(w.message) for w in caught]


def test_html_and_markdown_show_no_negative_zero():
    from sklearn_ordinal.evaluation._html import fixed

    assert fixed(-0.0001, 3) == "0.000" and fixed(-0.0, 3) == "0.000"
    assert fixed(-0.0005, 3) == "-0.001" and fixed(0.0004, 3) == "0.000"
    # Two systems 1 item apart: differences near 0 of either sign, at 3 decimals.
    y = np.arange(2000) % 3
    a, b = y.copy(), y.copy()
    a[0], b[1] = 1, 2  # one error each, of different size
    report, _ = _report_of(y_true=y, predictions={"a": a, "b": b},
                           measures=["neg_mean_absolute_error", "accuracy"],
                           n_resamples=99, random_state=0)
    html, markdown = report.to_html(), report.to_markdown()
    assert "-0.000" not in html and "-0.000" not in markdown
    assert (report.comparisons["difference"].abs() < 5e-4).any()


def test_json_significance_level_is_the_decimal_one():
    for level, expected in ((0.95, 0.05), (0.9, 0.1), (0.99, 0.01)):
        report, _ = _report_of(y_true=[0, 0, 1, 1, 2, 2],
                               predictions={"a": [0, 1, 1, 1, 2, 2]}, measures=["accuracy"],
                               n_resamples=999, random_state=0, confidence_level=level)
        assert json.loads(report.to_json())["settings"]["significance_level"] == expected


def test_summary_warnings_give_the_counts():
    _, messages = _report_of(y_true=[0, 0, 1, 1, 2, 2],
                             predictions={"a": [0, 1, 1, 1, 2, 2]},
                             measures=["macro_mean_absolute_error"], n_resamples=99,
                             random_state=0)
    summary = [m for m in messages if "warning(s) while resampling" in m]
    assert summary and " N " not in summary[0]
    assert re.search(r"\d+ x On \d+ of 99 bootstrap resamples the measure warned", summary[0])


def test_csv_kind_says_labels_and_probabilities():
    y = np.array([0, 1, 2] * 10)
    proba = np.eye(3)[y] * 0.8 + 0.2 / 3
    report, _ = _report_of(y_true=y, predictions={"a": y, "s": y.astype(float) + 0.1},
                           y_proba={"a": proba}, measures=["accuracy"], n_resamples=99,
                           random_state=0)
    frame = pd.read_csv(io.StringIO(report.to_csv()))
    kinds = dict(zip(frame["system"], frame["kind"]))
    assert kinds == {"a": "labels+probabilities", "s": "scores", "(trivial)": "trivial"}


# --- item 15: direct assertions for four faults the suite let pass ----------------------


class _Identity(RegressorMixin, BaseEstimator):
    """A regressor whose score is the first feature itself."""

    def fit(self, X, y):
        self.n_features_in_ = np.asarray(X).shape[1]
        return self

    def predict(self, X):
        return np.asarray(X, dtype=float)[:, 0]


def test_a_score_on_a_cut_point_goes_to_the_lower_class():
    # The rule: the class is the number of cut points strictly below the score.
    from sklearn_ordinal.model_selection import TunedThresholdsClassifierCV

    X = np.arange(30, dtype=float).reshape(-1, 1)
    y = np.repeat([0, 1, 2], 10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = TunedThresholdsClassifierCV(_Identity().fit(X, y), cv="prefit", refit=False,
                                            scoring="neg_mean_absolute_error").fit(X, y)
    cuts = np.asarray(model.cut_points_)
    np.testing.assert_array_equal(cuts, [9.5, 19.5])
    # Scores exactly on each cut point, and just above.
    on = model.predict(cuts.reshape(-1, 1))
    above = model.predict(np.nextafter(cuts, np.inf).reshape(-1, 1))
    np.testing.assert_array_equal(on, [0, 1])
    np.testing.assert_array_equal(above, [1, 2])


def test_wilcoxon_posthoc_names_pairs_by_holms_p_not_the_raw_one():
    # Three systems over 8 data sets: a beats b and c on every one (raw p 0.0078 each),
    # b and c differ on 6 of 8 with mixed signs. Holm multiplies the smallest by 3.
    rng = np.random.default_rng(5)
    for _ in range(200):
        table = pd.DataFrame(rng.random((8, 3)), columns=["a", "b", "c"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = compare_across_datasets(table, greater_is_better=True, alpha=0.05)
        pairs = result.pairwise
        raw = pairs["wilcoxon_pvalue"] <= 0.05
        holm = pairs["wilcoxon_pvalue_holm"] <= 0.05
        if (raw & ~holm).any():
            break
    else:
        pytest.fail("no table where the raw and Holm's decisions differ")
    assert pairs["significant"].tolist() == holm.tolist()
    assert not pairs.loc[raw & ~holm, "significant"].any()


def test_critical_difference_bar_spans_one_cd_from_rank_one():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sklearn_ordinal.stats import CriticalDifferenceDisplay

    table = pd.DataFrame(np.random.default_rng(0).random((12, 4)), columns=list("abcd"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        comparison = compare_across_datasets(table, greater_is_better=True,
                                             posthoc="nemenyi")
    display = CriticalDifferenceDisplay.from_comparison(comparison)
    bars = [line for line in display.ax_.get_lines()
            if np.allclose(line.get_ydata(), 0.38)]
    assert len(bars) == 1
    np.testing.assert_allclose(bars[0].get_xdata(),
                               [1, 1 + comparison.critical_difference])
    plt.close(display.figure_)


def test_html_leaderboard_writes_system_names_as_text():
    report, _ = _report_of(y_true=[0, 0, 1, 1, 2, 2],
                           predictions={BAD: [0, 1, 1, 1, 2, 2], "b&c": [0, 0, 1, 1, 2, 1]},
                           measures=["accuracy"], n_resamples=99, random_state=0)
    html = report.to_html()
    assert "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and "b&amp;c" in html


# --- item 15: an argument the measure does not take, refused at every door ---------------


def _doors():
    from functools import partial

    from sklearn_ordinal import evaluate
    from sklearn_ordinal.dummy import TrivialOrdinalClassifier
    from sklearn_ordinal.metrics import (OrdinalConfusion, cem_score, get_scorer,
                                         make_ordinal_scorer, optimal_thresholds)
    from sklearn_ordinal.metrics._registry import resolve
    from sklearn_ordinal.model_selection import TunedThresholdsClassifierCV
    from sklearn_ordinal.stats import compare_scores, score_interval

    y_true = np.repeat([0, 1, 2], 10)
    y_pred = np.roll(y_true, 3)
    X = np.arange(30, dtype=float).reshape(-1, 1)
    bad = partial(cem_score, bogus=1)
    from sklearn.linear_model import LinearRegression

    return {
        "get_scorer": lambda: get_scorer("cem_ord", bogus=1),
        "make_ordinal_scorer": lambda: make_ordinal_scorer(cem_score, bogus=1),
        "resolve": lambda: resolve(cem_score, {"bogus": 1}),
        "score_interval": lambda: score_interval("cem_ord", y_true, y_pred, bogus=1),
        "compare_scores": lambda: compare_scores("cem_ord", y_true, y_pred, y_true,
                                                 bogus=1),
        "OrdinalConfusion.score": lambda: OrdinalConfusion.from_predictions(
            y_true, y_pred).score(cem_score, bogus=1),
        "TrivialOrdinalClassifier": lambda: TrivialOrdinalClassifier(bad).fit(X, y_true),
        "evaluate": lambda: evaluate(y_true, {"s": y_pred}, measures=[bad], n_resamples=99),
        "optimal_thresholds": lambda: optimal_thresholds(y_true, X.ravel(), scoring=bad),
        "TunedThresholdsClassifierCV": lambda: TunedThresholdsClassifierCV(
            LinearRegression(), scoring=bad, cv=3).fit(X, y_true),
    }


@pytest.mark.parametrize("door", list(_doors()))
def test_an_argument_the_measure_does_not_take_is_refused_at_every_door(door):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="cem_score has no parameter 'bogus'"):
            _doors()[door]()
