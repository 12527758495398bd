"""evaluate() and its report: every number against the measures and interval functions
called directly, the JSON round trip, the kinds of system output, and bad input."""

import itertools
import json
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import recall_score

from sklearn_ordinal import evaluate
from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from sklearn_ordinal.evaluation import EvaluationReport
from sklearn_ordinal.stats._multiple_testing import holm_adjust
from sklearn_ordinal.stats._interval_pvalue import percentile_interval_pvalue
from sklearn_ordinal.evaluation._trivial_row import TRIVIAL
from sklearn_ordinal.metrics import (
    get_scorer,
    macro_mean_absolute_error,
    mean_absolute_error,
    vus_score,
)
from sklearn_ordinal.stats import compare_scores, score_interval

B = 199  # resamples: enough for the identities tested here, quick


@pytest.fixture(autouse=True)
def _quiet():
    # Small data sets make degenerate or extreme bootstrap ends; not what is tested here.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _data(n=150, seed=0, n_classes=5):
    rng = np.random.default_rng(seed)
    y = rng.choice(n_classes, n, p=np.r_[0.1, 0.15, 0.2, 0.25, 0.3][:n_classes] /
                   np.r_[0.1, 0.15, 0.2, 0.25, 0.3][:n_classes].sum())
    near = np.clip(y + rng.integers(-1, 2, n), 0, n_classes - 1)
    far = np.clip(y + rng.integers(-2, 3, n), 0, n_classes - 1)
    scores = y + rng.normal(0, 1.0, n)
    proba = rng.dirichlet(np.ones(n_classes), n)
    proba[np.arange(n), y] += 1.0
    proba /= proba.sum(axis=1, keepdims=True)
    return y, {"near": near, "far": far, "scores": scores, "proba": proba}


@pytest.fixture(scope="module")
def default():
    """The default report of four systems, one of each kind and two of labels."""
    y, systems = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return y, systems, evaluate(y, systems, n_resamples=B, random_state=3)


def _measure_value(name, y, pred, **kwargs):
    """The measure called directly, on its own scale (errors positive)."""
    scorer = get_scorer(name)
    return scorer.score_func(y, pred, **scorer.kwargs, **kwargs)


def _check_against_direct(report, y, systems, fed, labels=None, sample_weight=None,
                          groups=None, class_values=None):
    """Every estimate, interval and comparison equals the direct calls with its seed."""
    seed = report.settings["random_state"]
    common = dict(n_resamples=report.settings["n_resamples"],
                  confidence_level=report.settings["confidence_level"], groups=groups)
    checked = 0
    for measure in report.settings["measures"]:
        name, scorer = measure["name"], measure["scorer"]
        data = {}
        for key, value in (("labels", labels), ("class_values", class_values)):
            if value is not None and key in _parameters(scorer):
                data[key] = value
        if sample_weight is not None:
            data["sample_weight"] = sample_weight
        for s, system in enumerate(systems):
            cell = report.scores.loc[system, name]
            pred = fed(system, measure["family"])
            if pred is None:
                assert np.isnan(cell["estimate"])
                continue
            # Common random numbers: the report's seed for every interval and comparison,
            # by the method the report says it used for the measure.
            method = report.settings["interval_methods"][name]
            direct = score_interval(scorer, y, pred, random_state=seed,
                                    **data, **common, method=method)
            expected = _measure_value(scorer, y, pred, **data)
            assert cell["estimate"] == pytest.approx(expected, rel=1e-12, abs=1e-12)
            assert cell["estimate"] == direct.estimate
            assert (cell["low"], cell["high"]) == tuple(direct.confidence_interval)
            checked += 1
        for (i, a), (j, b) in itertools.combinations(enumerate(systems), 2):
            pred_a, pred_b = fed(a, measure["family"]), fed(b, measure["family"])
            if pred_a is None or pred_b is None:
                assert (name, a, b) not in report.comparisons.index
                continue
            row = report.comparisons.loc[(name, a, b)]
            method = report.settings["interval_methods"][name]
            analytic = method in ("normal", "delong")
            direct = compare_scores(scorer, y, pred_a, pred_b,
                                    random_state=seed, **data, **common,
                                    method=method if analytic else "percentile")
            assert row["difference"] == direct.estimate
            assert (row["low"], row["high"]) == tuple(direct.confidence_interval)
            if analytic:
                # The analytic comparison's own z test (#45).
                assert direct.test == method and row["pvalue"] == direct.pvalue
                assert np.isnan(row["pvalue_randomization"])
            elif measure["family"] == "ranking":
                # No exchange of two rankers' scores (they share no scale).
                assert row["pvalue"] == percentile_interval_pvalue(
                    direct.bootstrap_distribution)
                assert direct.test == "percentile inversion"
                assert np.isnan(row["pvalue_randomization"])
            else:
                assert row["pvalue"] == percentile_interval_pvalue(
                    direct.bootstrap_distribution)
                assert direct.test == "randomization"
                assert row["pvalue_randomization"] == direct.pvalue
            assert (row["estimate_a"], row["estimate_b"]) == (direct.estimate_a,
                                                              direct.estimate_b)
            checked += 1
    return checked


def _parameters(scorer):
    from inspect import signature

    return signature(get_scorer(scorer).score_func).parameters


def _feeder(systems, kinds):
    """What the report feeds each family of measure, as the docs say."""

    def fed(system, family):
        kind, output = kinds[system], systems[system]
        if family == "label":
            return output if kind == "labels" else None
        if family == "distance":
            return output if kind in ("labels", "scores") else None
        if family == "ranking":
            if kind == "scores":
                return output
            if kind == "probabilities":
                return np.asarray(output) @ np.arange(np.shape(output)[1])
            return None
        return output if kind == "probabilities" else None

    return fed


# --- Holm's adjustment ------------------------------------------------------------


def _holm_by_procedure(pvalues):
    """The smallest level at which Holm's step-down procedure rejects each hypothesis."""
    defined = [p for p in pvalues if not np.isnan(p)]
    m = len(defined)
    candidates = sorted({min(1.0, k * p) for p in defined for k in range(1, m + 1)} | {1.0})
    adjusted = []
    for p in pvalues:
        if np.isnan(p):
            adjusted.append(np.nan)
            continue
        for alpha in candidates:
            rejected, remaining = set(), sorted(enumerate(defined), key=lambda t: t[1])
            for step, (index, value) in enumerate(remaining):
                if value <= alpha / (m - step) * (1 + 1e-12):
                    rejected.add(value)
                else:
                    break
            if p in rejected:
                adjusted.append(alpha)
                break
        else:  # not rejected even at level 1
            adjusted.append(1.0)
    return np.array(adjusted)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.sampled_from([0.01, 0.04, 0.5, 1.0, np.nan]),
                          st.floats(0, 1)), min_size=0, max_size=7))
def test_holm_matches_the_step_down_procedure(pvalues):
    np.testing.assert_allclose(holm_adjust(pvalues), _holm_by_procedure(pvalues),
                               rtol=1e-9, atol=1e-300, equal_nan=True)


def test_holm_by_hand():
    # Sorted 0.01, 0.02, 0.03, 0.5: 4 * 0.01, 3 * 0.02, max(0.06, 2 * 0.03), 0.5.
    np.testing.assert_allclose(holm_adjust([0.5, 0.03, 0.01, 0.02, np.nan]),
                               [0.5, 0.06, 0.04, 0.06, np.nan])


# --- Every number against the direct calls ----------------------------------------


def test_default_report_matches_direct_calls(default):
    y, systems, report = default
    kinds = {"near": "labels", "far": "labels", "scores": "scores", "proba": "probabilities"}
    assert report.systems == kinds
    assert report.measures == [
        "macro_mean_absolute_error", "mean_absolute_error", "cem_ord",
        "macro_mean_zero_one_error", "quadratic_weighted_kappa", "accuracy_within_1",
        "vus", "u_cons", "ranked_probability_score",
    ]
    assert _check_against_direct(report, y, systems, _feeder(systems, kinds)) > 25
    assert report.settings["random_state"] == 3


def test_one_system_of_labels_has_no_scores_measures_and_only_the_trivial_comparisons():
    y, systems = _data()
    report = evaluate(y, {"near": systems["near"]}, n_resamples=B, random_state=0)
    assert "vus" not in report.measures
    # The one system against the trivial classifier of each measure, nothing else.
    assert set(report.comparisons.index.droplevel("measure")) == {("near", TRIVIAL)}
    assert report.per_group is None and report.per_group_mean is None
    assert list(report.scores.index) == ["near", TRIVIAL]
    _check_against_direct(report, y, ["near"], _feeder(systems, {"near": "labels"}))


def test_string_labels_with_labels_and_ordered_categorical_give_the_same_numbers():
    y, systems = _data()
    names = np.array(["awful", "bad", "fair", "good", "great"])
    labels = list(names)
    as_strings = {"near": names[systems["near"]], "far": names[systems["far"]]}
    measures = ["neg_macro_mean_absolute_error", "cem_ord", "accuracy"]
    report = evaluate(names[y], as_strings, labels=labels, measures=measures, n_resamples=B,
                      random_state=1)
    numeric = evaluate(y, {k: systems[k] for k in ("near", "far")}, measures=measures,
                       n_resamples=B, random_state=1)
    pd.testing.assert_frame_equal(report.scores, numeric.scores)
    pd.testing.assert_frame_equal(report.comparisons, numeric.comparisons)
    assert report.classes.tolist() == labels
    assert report.trivial_classes["macro_mean_absolute_error"] == "fair"
    _check_against_direct(report, names[y], list(as_strings),
                          _feeder(as_strings, dict.fromkeys(as_strings, "labels")),
                          labels=labels)
    ordered = pd.Categorical(names[y], categories=labels, ordered=True)
    from_categorical = evaluate(ordered, as_strings, measures=measures, n_resamples=B,
                                random_state=1)
    pd.testing.assert_frame_equal(from_categorical.scores, numeric.scores)
    assert from_categorical.classes.tolist() == labels


def test_a_string_outside_the_labels_is_refused_as_the_measures_refuse_it():
    # Text labels are coded once as a Categorical of the labels; a value the labels
    # lack must not become a missing code, but the measure's own error.
    names = np.array(["low", "mid", "high"])
    y = names[[0, 1, 2, 1, 0, 2]]
    pred = y.copy()
    pred[3] = "huge"
    with pytest.raises(ValueError, match="huge") as from_report:
        evaluate(y, {"a": pred}, labels=list(names), n_resamples=B, random_state=0)
    with pytest.raises(ValueError) as from_measure:
        macro_mean_absolute_error(y, pred, labels=list(names))
    assert str(from_measure.value) in str(from_report.value)


def test_unordered_strings_are_refused_with_the_measures_message():
    names = np.array(["low", "mid", "high"])
    y = names[[0, 1, 2, 1, 0, 2]]
    with pytest.raises(ValueError, match="order"):
        evaluate(y, {"a": y}, n_resamples=B)
    # An order-free measure takes them as a set.
    report = evaluate(y, {"a": y}, measures=["accuracy"], n_resamples=B, random_state=0)
    assert report.scores.loc["a", ("accuracy", "estimate")] == 1.0


def test_weights_and_class_values():
    y, systems = _data(seed=2)
    # Few distinct weights: items of one cell and weight share a bootstrap unit (quick).
    weights = np.random.default_rng(5).choice([0.5, 1.0, 2.0, 3.0], len(y))
    values = [0.0, 1.0, 2.5, 4.0, 6.0]
    labels_only = {k: systems[k] for k in ("near", "far", "scores")}
    report = evaluate(y, labels_only, sample_weight=weights, class_values=values,
                      measures=["neg_macro_mean_absolute_error", "cem_int", "cem_ord", "vus"],
                      n_resamples=B, random_state=4)
    kinds = {"near": "labels", "far": "labels", "scores": "scores"}
    _check_against_direct(report, y, list(labels_only), _feeder(labels_only, kinds),
                          sample_weight=weights, class_values=values)


def test_a_measure_without_weighted_form_is_nan_with_a_note():
    y, systems = _data()
    weights = np.ones(len(y))
    measure = "kendall_tau_a"
    if "sample_weight" in _parameters(measure):
        pytest.skip("kendall_tau_a has a weighted form")
    report = evaluate(y, {"near": systems["near"]}, measures=[measure], sample_weight=weights,
                      n_resamples=B)
    assert report.scores[measure].isna().all().all()
    assert "sample_weight" in report.notes["reason"].iloc[0]


def test_groups_resample_test_cases_and_score_each_alone():
    y, systems = _data(n=400, seed=7)
    groups = np.repeat(np.arange(20), 20)
    labels_only = {k: systems[k] for k in ("near", "far", "scores")}
    measures = ["neg_macro_mean_absolute_error", "cem_ord", "vus"]
    report = evaluate(y, labels_only, measures=measures, groups=groups, n_resamples=B,
                      random_state=2)
    assert report.settings["resampled"] == "groups"
    assert report.resampling_note == "The 20 test cases were resampled, each with its items."
    kinds = {"near": "labels", "far": "labels", "scores": "scores"}
    fed = _feeder(labels_only, kinds)
    _check_against_direct(report, y, list(labels_only), fed, groups=groups)
    assert report.per_group.shape == (3 * 20, 3)
    for (system, group), row in report.per_group.iterrows():
        mask = groups == group
        for scorer, measure in zip(measures, report.settings["measures"]):
            name = measure["name"]
            pred = fed(system, measure["family"])
            if pred is None:
                assert np.isnan(row[name])
            else:
                assert row[name] == pytest.approx(_measure_value(scorer, y[mask], pred[mask]))
    means = report.per_group.groupby(level="system").mean()
    pd.testing.assert_frame_equal(report.per_group_mean.loc[means.index], means)


def test_interleaved_groups_of_lists_are_scored_on_their_own_items():
    # Groups in no order, named by strings, outputs and gold as Python lists, with
    # weights: each (system, group) row is the measure on that group's items alone,
    # the weights theirs (each group's items taken by position, in their order).
    rng = np.random.default_rng(3)
    n = 600
    y = rng.integers(0, 4, n)
    near = np.clip(y + rng.integers(-1, 2, n), 0, 3)
    scores = y + rng.normal(0, 0.8, n)
    groups = rng.choice([f"user {i}" for i in range(30)], n)
    weights = rng.uniform(0.5, 2.0, n)
    measures = ["neg_macro_mean_absolute_error", "neg_mean_absolute_error", "vus"]
    report = evaluate(y.tolist(), {"near": near.tolist(), "scores": scores.tolist()},
                      measures=measures, groups=groups.tolist(), sample_weight=weights,
                      n_resamples=B, random_state=0)
    functions = {"neg_macro_mean_absolute_error": macro_mean_absolute_error,
                 "neg_mean_absolute_error": mean_absolute_error}
    for (system, group), row in report.per_group.iterrows():
        mask = groups == group
        output = {"near": near, "scores": scores}[system][mask]
        for name, function in functions.items():
            label = name.removeprefix("neg_")
            if system == "near":
                expected = function(y[mask], output, sample_weight=weights[mask])
                assert row[label] == pytest.approx(expected, rel=1e-12)
        if system == "scores" and len(np.unique(y[mask])) > 1:
            assert row["vus"] == pytest.approx(vus_score(y[mask], output, labels=[0, 1, 2, 3],
                                                         sample_weight=weights[mask]))
    assert set(report.per_group.index.get_level_values("group")) == set(groups)


def test_few_groups_are_scored_alone_but_the_items_are_resampled():
    # A bootstrap over 8 test cases gives too narrow intervals: items are resampled.
    y, systems = _data(n=400, seed=7)
    groups = np.repeat(np.arange(8), 50)
    labels_only = {k: systems[k] for k in ("near", "far")}
    report = evaluate(y, labels_only, measures=["cem_ord"], groups=groups, n_resamples=B,
                      random_state=2)
    assert report.settings["resampled"] == "items" and report.settings["n_groups"] == 8
    assert "8 test cases are too few to resample" in report.resampling_note
    assert report.per_group.shape == (2 * 8, 1)
    fed = _feeder(labels_only, {"near": "labels", "far": "labels"})
    _check_against_direct(report, y, list(labels_only), fed, groups=None)
    assert "too few to resample" in report.to_markdown()
    assert json.loads(report.to_json())["resampling_note"] == report.resampling_note


def test_trivial_row_is_the_trivial_classifier_of_each_measure():
    y, systems = _data()
    train = np.r_[np.zeros(70, int), np.ones(20, int), np.full(10, 4)]
    report = evaluate(y, {"near": systems["near"]}, baseline_labels=train, n_resamples=B,
                      random_state=0)
    assert report.settings["baseline"] == "baseline_labels"
    assert "training labels" in report.baseline_note
    for measure in report.settings["measures"]:
        trivial = TrivialOrdinalClassifier(measure["scorer"]).fit(None, train)
        assert report.trivial_classes[measure["name"]] == trivial.trivial_class_
        pred = np.full(len(y), trivial.trivial_class_)
        direct = score_interval(measure["scorer"], y, pred, n_resamples=B,
                                random_state=0)
        cell = report.scores.loc[TRIVIAL, measure["name"]]
        assert (cell["estimate"], cell["low"], cell["high"]) == (
            direct.estimate, *direct.confidence_interval)
        # The system against the trivial classifier: the direct paired comparison.
        if measure["family"] in ("label", "distance"):
            row = report.comparisons.loc[(measure["name"], "near", TRIVIAL)]
            paired = compare_scores(measure["scorer"], y, systems["near"], pred,
                                    n_resamples=B, random_state=0,
                                    method="percentile")
            assert (row["difference"], row["low"], row["high"]) == (
                paired.estimate, *paired.confidence_interval)
            assert row["pvalue"] == percentile_interval_pvalue(paired.bootstrap_distribution)
    gold = evaluate(y, {"near": systems["near"]}, measures=["neg_mean_absolute_error"],
                    n_resamples=B)
    assert gold.settings["baseline"] == "gold" and "optimistic" in gold.baseline_note
    expected = TrivialOrdinalClassifier("neg_mean_absolute_error").fit(None, y)
    assert gold.trivial_classes["mean_absolute_error"] == expected.trivial_class_


def test_per_class_recalls_and_errors():
    y, systems = _data()
    report = evaluate(y, {"near": systems["near"], "scores": systems["scores"]},
                      measures=["accuracy"], n_resamples=B, random_state=0)
    recall = recall_score(y, systems["near"], average=None)
    np.testing.assert_allclose(report.per_class.loc["near", "recall"].to_numpy(), recall)
    for system in ("near", "scores"):
        np.testing.assert_allclose(
            report.per_class.loc[system, "mean_absolute_error"].to_numpy(),
            mean_absolute_error(y, systems[system], average=None),
        )
    assert report.per_class.loc["scores", "recall"].isna().all()


# --- Kinds of output ---------------------------------------------------------------


def test_measures_that_do_not_apply_are_nan_with_a_reason(default):
    y, systems, report = default
    notes = report.notes.set_index(["system", "measure"])["reason"]
    assert "class probabilities" in notes[("proba", "cem_ord")]
    assert "one real score per item" in notes[("near", "vus")]
    assert np.isnan(report.scores.loc["near", ("vus", "estimate")])
    # A regressor's real values are taken by the distance measures as they are.
    assert report.scores.loc["scores", ("mean_absolute_error", "estimate")] == pytest.approx(
        np.mean(np.abs(systems["scores"] - y)))
    assert ("cem_ord", "near", "scores") not in report.comparisons.index


def test_a_dataframe_of_systems():
    y, systems = _data()
    frame = pd.DataFrame({k: systems[k] for k in ("near", "far")})
    report = evaluate(y, frame, measures=["cem_ord"], n_resamples=B, random_state=0)
    as_dict = evaluate(y, {k: systems[k] for k in ("near", "far")}, measures=["cem_ord"],
                       n_resamples=B, random_state=0)
    pd.testing.assert_frame_equal(report.scores, as_dict.scores)


def test_float_class_labels_are_labels_not_scores():
    y = np.array([0.5, 1.5, 2.5] * 10)
    report = evaluate(y, {"a": y.copy()}, measures=["accuracy"], n_resamples=B)
    assert report.systems == {"a": "labels"}


# --- Exports ------------------------------------------------------------------------


def test_json_round_trip_gives_the_direct_numbers():
    y, systems = _data()
    report = evaluate(y, systems, groups=np.arange(len(y)) % 5, n_resamples=B, random_state=9,
                      method="bca")
    content = json.loads(report.to_json())
    assert content["format"] == "sklearn_ordinal.evaluation"
    assert content["classes"] == [0, 1, 2, 3, 4]
    assert content["settings"]["random_state"] == 9
    assert content["settings"]["n_resamples"] == B
    assert content["settings"]["interval_method"] == "bca"
    for record in content["scores"]:
        if record["system"] == TRIVIAL or record["estimate"] is None:
            continue
        scorer = next(m["scorer"] for m in content["settings"]["measures"]
                      if m["name"] == record["measure"])
        family = next(m["family"] for m in content["settings"]["measures"]
                      if m["name"] == record["measure"])
        pred = _feeder(systems, report.systems)(record["system"], family)
        assert record["estimate"] == _measure_value(scorer, y, pred)
    again = EvaluationReport.from_json(report.to_json())
    pd.testing.assert_frame_equal(again.scores, report.scores)
    pd.testing.assert_frame_equal(again.comparisons, report.comparisons)
    pd.testing.assert_frame_equal(again.per_class, report.per_class, check_names=False)
    pd.testing.assert_frame_equal(again.per_group, report.per_group)
    assert again.settings == report.settings
    assert again.trivial_classes == report.trivial_classes
    assert again.to_json() == report.to_json()


def test_json_of_string_classes_and_from_json_refuses_other_formats():
    names = np.array(["low", "mid", "high"])
    y = names[[0, 1, 2, 1, 0, 2, 1, 1]]
    report = evaluate(y, {"a": y}, labels=["low", "mid", "high"], n_resamples=B,
                      random_state=0)
    content = json.loads(report.to_json())
    assert content["classes"] == ["low", "mid", "high"]
    assert content["trivial_classes"]["macro_mean_absolute_error"] == "mid"
    with pytest.raises(ValueError, match="not an evaluation report"):
        EvaluationReport.from_json('{"format": "other"}')


def test_csv_markdown_and_frame(default, tmp_path):
    y, systems, report = default
    frame = report.to_frame()
    assert len(frame) == (len(systems) + 1) * len(report.measures)
    path = tmp_path / "report.csv"
    report.to_csv(path)
    read = pd.read_csv(path)
    np.testing.assert_allclose(read["estimate"], frame["estimate"], equal_nan=True)
    text = report.to_markdown()
    estimate = report.scores.loc["near", ("cem_ord", "estimate")]
    assert f"{estimate:.3f}" in text and "optimistic" in text and "Holm" in text
    report.to_json(tmp_path / "report.json")
    assert json.loads((tmp_path / "report.json").read_text())["classes"] == [0, 1, 2, 3, 4]


def test_plain_text_shows_every_estimate_with_its_interval(default):
    y, systems, report = default
    text = report.to_string(digits=4)
    assert str(report) == report.to_string()
    # The scores table comes first, wrapped into blocks of systems: each measure's
    # rows before the comparisons, joined, hold every system's cell.
    scores = text.split("Paired differences")[0]
    for system in report.scores.index:
        for measure in report.measures:
            rows = " ".join(line for line in scores.splitlines()
                            if line.startswith(f"{measure} ("))
            low, high = (report.scores.loc[system, (measure, end)] for end in ("low", "high"))
            estimate = report.scores.loc[system, (measure, "estimate")]
            expected = ("n/a" if np.isnan(estimate)
                        else f"{estimate:.4f} [{low:.4f}, {high:.4f}]")
            assert expected in rows, (system, measure)
    difference = report.comparisons["difference"].iloc[0]
    assert f"{difference:.4f}" in text and "Holm" in text and "optimistic" in text


def test_same_seed_same_report_and_a_drawn_seed_is_recorded():
    y, systems = _data()
    systems = {k: systems[k] for k in ("near", "far", "scores")}
    measures = ["cem_ord", "vus"]
    first = evaluate(y, systems, measures=measures, n_resamples=B)
    seed = first.settings["random_state"]
    again = evaluate(y, systems, measures=measures, n_resamples=B, random_state=seed)
    assert again.to_json() == first.to_json()


def test_plot_draws_one_panel_per_measure(default):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    _, _, report = default
    axes = report.plot(["cem_ord", "vus"])
    assert len(axes) == 2 and axes[0].get_title().startswith("cem_ord")
    # Every system has cem_ord or vus; only near and far have cem_ord.
    labels = sorted(tick.get_text() for tick in axes[0].get_yticklabels())
    assert labels == ["far", "near", "proba", "scores"]
    axes = report.plot(["cem_ord"])
    assert sorted(tick.get_text() for tick in axes[0].get_yticklabels()) == ["far", "near"]
    with pytest.raises(ValueError, match="no measures"):
        report.plot(["nope"])


def test_import_stays_light():
    code = ("import sys, sklearn_ordinal; "
            "print(any(m.split('.')[0] in ('matplotlib', 'dask', 'sklearn') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --- Bad input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "predictions, message",
    [
        ([0, 1], "dict"),
        ({}, "no system"),
        ({TRIVIAL: [0, 1, 2]}, "trivial"),
        ({"a": [0, 1]}, "2 predictions for 3"),
        ({"a": np.ones((3, 2)) / 2}, "2 columns|shape"),
    ],
)
def test_bad_predictions(predictions, message):
    with pytest.raises(ValueError, match=message):
        evaluate([0, 1, 2], predictions, n_resamples=B)


def test_bad_groups():
    with pytest.raises(ValueError, match="one group per item"):
        evaluate([0, 1, 2], {"a": [0, 1, 2]}, groups=[0, 1], n_resamples=B)
    with pytest.raises(ValueError, match="at least two"):
        evaluate([0, 1, 2], {"a": [0, 1, 2]}, groups=[0, 0, 0], n_resamples=B)


def test_measure_functions_and_scorers_are_named_by_their_function():
    from sklearn_ordinal.metrics import cem_score, make_ordinal_scorer

    y, systems = _data(n=60)
    scorer = make_ordinal_scorer(cem_score, scale="interval")
    report = evaluate(y, {"near": systems["near"]},
                      measures={"cem": cem_score, "cem_int": scorer}, n_resamples=B,
                      random_state=0)
    assert report.measures == ["cem", "cem_int"]
    named = evaluate(y, {"near": systems["near"]}, measures=[cem_score], n_resamples=B,
                     random_state=0)
    assert named.measures == ["cem_score"]
    assert named.scores.loc["near", ("cem_score", "estimate")] == cem_score(y, systems["near"])
    assert report.scores.loc["near", ("cem_int", "estimate")] == cem_score(
        y, systems["near"], scale="interval")


def test_a_measure_named_twice():
    with pytest.raises(ValueError, match="more than once"):
        evaluate([0, 1, 2], {"a": [0, 1, 2]}, n_resamples=B,
                 measures={"accuracy": "accuracy", "neg_accuracy": "accuracy"})
    # In a list, before dict() would keep only one of them.
    with pytest.raises(ValueError, match=r"measures names \['cem_ord'\] more than once"):
        evaluate([0, 1, 2], {"a": [0, 1, 2]}, n_resamples=B, measures=["cem_ord", "cem_ord"])


def test_real_valued_predictions_on_labels_that_do_not_start_at_zero():
    # A regressor's values are compared with the class values themselves (docs conventions page); the
    # intervals' intermediate once measured them from the lowest class instead.
    y, systems = _data()
    y, near, real = y + 1, systems["near"] + 1, systems["scores"] + 1
    report = evaluate(y, {"near": near, "real": real},
                      measures=["neg_macro_mean_absolute_error", "neg_mean_squared_error"],
                      n_resamples=B, random_state=0)
    _check_against_direct(report, y, ["near", "real"],
                          _feeder({"near": near, "real": real},
                                  {"near": "labels", "real": "scores"}))
    assert report.scores.loc["real", ("macro_mean_absolute_error", "estimate")] == (
        pytest.approx(macro_mean_absolute_error(y, real)))


def test_lists_of_labels_scores_and_probabilities():
    y, systems = _data(n=60)
    as_lists = {name: np.asarray(output).tolist() for name, output in systems.items()}
    report = evaluate(y.tolist(), as_lists, measures=["cem_ord", "vus",
                                                       "neg_ranked_probability_score"],
                      n_resamples=B, random_state=0)
    arrays = evaluate(y, systems, measures=["cem_ord", "vus", "neg_ranked_probability_score"],
                      n_resamples=B, random_state=0)
    assert report.systems == arrays.systems == {
        "near": "labels", "far": "labels", "scores": "scores", "proba": "probabilities"}
    pd.testing.assert_frame_equal(report.scores, arrays.scores)


def test_a_group_on_which_a_measure_is_undefined_is_left_out_of_the_mean():
    y = np.array([0, 1, 2, 0, 1, 2, 1, 1, 1])
    scores = y + np.linspace(0.1, 0.5, 9)
    groups = np.repeat(["a", "b", "c"], 3)  # group c holds class 1 only
    with pytest.warns(UserWarning, match="undefined on the group"):
        report = evaluate(y, {"s": scores}, measures=["vus"], groups=groups, n_resamples=B,
                          random_state=0)
    assert np.isnan(report.per_group.loc[("s", "c"), "vus"])
    assert report.per_group_mean.loc["s", "vus"] == pytest.approx(
        np.mean([vus for vus in report.per_group["vus"] if not np.isnan(vus)]))
    assert report.per_group.loc[("s", "a"), "vus"] == 1.0


@pytest.mark.parametrize("seed", [-1, 2**32])
def test_a_seed_no_randomstate_takes_is_refused_by_name(seed):
    # The report's seed is every interval's random_state: refused before any work
    # (scikit-learn's parameter check), not by NumPy inside the first interval.
    y, systems = _data()
    with pytest.raises(ValueError, match=r"'random_state' parameter of evaluate must be an int"):
        evaluate(y, systems, n_resamples=B, random_state=seed)


def test_the_largest_seed_is_taken():
    y, systems = _data()
    report = evaluate(y, {"near": systems["near"]}, measures=["accuracy"], n_resamples=B,
                      random_state=2**32 - 1)
    assert report.settings["random_state"] == 2**32 - 1
