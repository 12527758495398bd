"""Trust, third pass (issue 28): evaluate's groups, undefined cells, interval methods,
extreme values, and the extreme-class measures under cross-validation."""

import warnings

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, StratifiedKFold, cross_validate

from sklearn_ordinal import evaluate
from sklearn_ordinal.__main__ import main
from sklearn_ordinal.metrics import (
    accuracy_within_score,
    get_scorers,
    mean_absolute_error,
    mean_squared_error,
    root_mean_squared_error,
)
from sklearn_ordinal.stats import compare_scores, score_interval
from sklearn_ordinal.stats._method import AUTO_ANALYTIC_FROM


def test_groups_are_scored_over_the_gold_standards_classes():
    # Group 1 holds classes 0 and 2 only: on its own classes they are neighbours and
    # swapping them is "within one class"; on the gold standard's classes they are two
    # apart.
    y = np.array([0, 1, 2, 0, 2])
    pred = np.array([0, 1, 2, 2, 0])
    groups = np.array([0, 0, 0, 1, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = evaluate(y, {"s": pred}, measures=["accuracy_within_1"], groups=groups,
                          n_resamples=99, random_state=0)
    assert report.per_group.loc[("s", 1), "accuracy_within_1"] == accuracy_within_score(
        y[3:], pred[3:], labels=[0, 1, 2]) == 0.0
    assert accuracy_within_score(y[3:], pred[3:]) == 1.0  # what the groups got before


def test_a_measure_undefined_on_the_data_is_a_nan_cell_with_a_note():
    # No true item in either extreme class of labels=: GMSEC is undefined for every
    # system and for the trivial classifier; CEM is not, and the report goes on.
    y = np.array([1, 2] * 15)
    good = y.copy()
    good[::7] = 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = evaluate(y, {"a": good, "b": np.r_[np.zeros(29, int), 3]},
                          measures=["gmsec", "cem_ord"], labels=[0, 1, 2, 3],
                          n_resamples=99, random_state=0)
    assert report.scores[("gmsec", "estimate")].isna().all()
    assert report.scores[("cem_ord", "estimate")].notna().all()
    reasons = report.notes[report.notes["measure"] == "gmsec"]["reason"]
    assert len(reasons) == 3 and reasons.str.contains("undefined").all()
    # score_interval says the cause: the data, not the resamples.
    with pytest.raises(ValueError, match="undefined \\(NaN\\) on these data themselves"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            score_interval("gmsec", y, good, labels=[0, 1, 2, 3], n_resamples=99)


def _scores(n, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, n)
    return y, y + rng.normal(0, 1, n), y + rng.normal(0, 1.5, n)


def test_evaluate_takes_a_method_and_says_which_each_measure_used():
    y, a, b = _scores(300)
    report = evaluate(y, {"a": a, "b": b}, measures=["vus", "neg_mean_absolute_error"],
                      method="delong", n_resamples=199, random_state=0)
    assert report.settings["interval_methods"] == {"vus": "delong",
                                                   "mean_absolute_error": "bca"}
    assert "DeLong normal for vus" in report.to_string()
    expected = score_interval("vus", y, a, method="delong")
    assert report.scores.loc["a", ("vus", "low")] == pytest.approx(
        expected.confidence_interval.low)
    comparison = report.comparisons.loc[("vus", "a", "b")]
    delong = compare_scores("vus", y, a, b, method="delong")
    assert comparison["pvalue"] == pytest.approx(delong.pvalue)
    # percentile, as the BCa failure's advice says, through evaluate and the command line.
    report = evaluate(y, {"a": a}, measures=["vus"], method="percentile", n_resamples=199,
                      random_state=0)
    assert report.settings["interval_methods"] == {"vus": "percentile"}


def test_auto_gives_the_ranking_measures_delong_on_large_data_only():
    y, a, _ = _scores(999)
    small = evaluate(y, {"a": a}, measures=["vus"], n_resamples=99, random_state=0)
    assert small.settings["interval_methods"] == {"vus": "bca"}
    y, a, _ = _scores(1000)
    large = evaluate(y, {"a": a}, measures=["vus", "neg_mean_absolute_error"],
                     n_resamples=99, random_state=0)
    # The other smooth measures take the analytic interval by their own family's rule
    # (#45): real values from AUTO_ANALYTIC_FROM["real-valued distance"] items.
    real_valued = ("normal" if AUTO_ANALYTIC_FROM["real-valued distance"] <= 1000
                   else "bca")
    assert large.settings["interval_methods"] == {"vus": "delong",
                                                  "mean_absolute_error": real_valued}
    # A class of one item has no DeLong variance: the bootstrap, however large the data.
    y[0] = 4
    lone = evaluate(y, {"a": a}, measures=["vus"], n_resamples=99, random_state=0)
    assert lone.settings["interval_methods"] == {"vus": "bca"}


def test_the_command_line_takes_the_method(tmp_path, capsys):
    y, a, _ = _scores(200)
    gold, pred = tmp_path / "gold.csv", tmp_path / "a.csv"
    gold.write_text("id,value\n" + "".join(f"{i},{v}\n" for i, v in enumerate(y)))
    pred.write_text("id,value\n" + "".join(f"{i},{v}\n" for i, v in enumerate(a)))
    main(["evaluate", str(gold), str(pred), "--measures", "vus", "--method", "delong",
          "--n-resamples", "99"])
    assert "DeLong normal" in capsys.readouterr().out


@pytest.mark.parametrize("measure", [mean_absolute_error, mean_squared_error,
                                     root_mean_squared_error])
def test_class_values_near_the_float64_limit_give_the_number_not_nan(measure):
    y_true = np.array([1e308, -1e308, 0] * 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning either
        if measure is mean_squared_error:
            with pytest.raises(ValueError, match="exceeds the largest float64"):
                measure(y_true, np.zeros(6))
            return
        value = measure(y_true, np.zeros(6))
    scaled = y_true / 2.0**1000
    power = 2 if measure is root_mean_squared_error else 1
    expected = np.mean(np.abs(scaled) ** power) ** (1 / power) * 2.0**1000
    assert value == pytest.approx(expected, rel=1e-15)
    # Macro too, and a regressor's real-valued predictions near the limit.
    assert measure(y_true, np.zeros(6), average="macro") == pytest.approx(
        expected if power == 1 else np.sqrt(np.mean((scaled[:3]) ** 2)) * 2.0**1000, rel=1e-15)


def test_ordinary_values_keep_their_floats():
    # The scaling applies only beyond 2**500: the very same floats below.
    rng = np.random.default_rng(3)
    y, p = rng.integers(0, 5, 500), rng.integers(0, 5, 500)
    values = np.array([0.1, 1.7, 2.2, 9.5, 2.0**499])
    expected = np.mean(np.abs(values[p] - values[y]))
    assert mean_absolute_error(y, p, class_values=values) == pytest.approx(expected, rel=1e-15)


def test_extreme_class_measures_under_cross_validation():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = np.digitize(X[:, 0], [-1.0, 0.0, 1.0])
    # Stratified folds hold every class of at least n_splits items: never NaN.
    y[:5], y[5:10] = 0, 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = cross_validate(LogisticRegression(), X, y, cv=StratifiedKFold(5),
                                scoring=get_scorers(["gmsec", "mes"]))
    assert np.isfinite(scores["test_gmsec"]).all() and np.isfinite(scores["test_mes"]).all()
    # A fold whose true labels hold neither extreme class scores NaN, as documented.
    order = np.argsort(np.isin(y, [0, 3]), kind="stable")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = cross_validate(LogisticRegression(), X[order], y[order], cv=KFold(5),
                                scoring=get_scorers(["gmsec"]))
    assert np.isnan(scores["test_gmsec"][0])


@pytest.mark.parametrize("labels", [None, [0, 1, 2, 3, 4, 5]])
@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64])
def test_paired_counting_gives_the_general_paths_numbers(labels, dtype, monkeypatch):
    # Two systems' integer labels are counted in one bincount of (true, a, b) cells;
    # the general path sorts the items. Same units, same random numbers: same results.
    from sklearn_ordinal.stats import _intervals

    rng = np.random.default_rng(5)
    y = rng.integers(0, 5, 300).astype(dtype)
    a = np.clip(y + rng.integers(-1, 2, 300), 0, 4).astype(dtype)
    b = rng.integers(1, 5, 300).astype(dtype)  # never predicts class 0
    fast = compare_scores("neg_macro_mean_absolute_error", y, a, b, labels=labels,
                          n_resamples=199, random_state=0, method="bca")
    assert _intervals._paired_counts(y, [a, b], labels) is not None
    monkeypatch.setattr(_intervals, "_paired_counts", lambda *args: None)
    slow = compare_scores("neg_macro_mean_absolute_error", y, a, b, labels=labels,
                          n_resamples=199, random_state=0, method="bca")
    assert fast.estimate == slow.estimate
    assert fast.confidence_interval == slow.confidence_interval
    assert fast.pvalue == slow.pvalue
    np.testing.assert_array_equal(fast.bootstrap_distribution, slow.bootstrap_distribution)
