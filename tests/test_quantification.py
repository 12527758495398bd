"""Ordinal quantification: the measures against the shared tasks' formulas and QuaPy,
prevalences from items against a direct count, the report over groups, the files."""

import os
import subprocess
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sklearn_ordinal.metrics import (
    match_distance,
    normalized_match_distance,
    prevalences,
    quantification_error,
    root_normalized_order_aware_divergence,
)
from sklearn_ordinal.metrics._registry import (
    is_prevalence_measure,
    lookup,
    prevalence_measure,
    prevalence_records,
)

MEASURES = [match_distance, normalized_match_distance, root_normalized_order_aware_divergence]


# ---------------------------------------------------------------------------------
# Independent re-implementations, one class and one row at a time.
# ---------------------------------------------------------------------------------
def _task_paper_emd(p_true, p_pred):
    """SemEval-2016 Task 4 paper (Nakov et al. 2016, subtask E): EMD(p^, p) =
    sum_{j=1}^{K-1} |sum_{i<=j} p^(c_i) - sum_{i<=j} p(c_i)|, averaged over topics."""
    total = 0.0
    for true_row, pred_row in zip(p_true, p_pred):
        emd = 0.0
        for j in range(len(true_row) - 1):
            emd += abs(sum(pred_row[: j + 1]) - sum(true_row[: j + 1]))
        total += emd
    return total / len(p_true)


def _perl_scorer_emd(p_true, p_pred):
    """The loop of score-semeval2016-task4-subtaskE.pl (9 Nov. 2015), re-written:
    for ind1 in 0 .. K-2, for ind2 in 0 .. ind1, emd += |true[ind2] - proposed[ind2]|;
    averaged over topics. The absolute value sits inside the cumulative sum."""
    total = 0.0
    for true_row, pred_row in zip(p_true, p_pred):
        emd = 0.0
        for ind1 in range(len(true_row) - 1):
            for ind2 in range(ind1 + 1):
                emd += abs(true_row[ind2] - pred_row[ind2])
        total += emd
    return total / len(p_true)


def _sakai_rnod(p_true, p_pred):
    """Sakai (2021): C* = {i : p*_i > 0}; DW_i = sum_j |i - j| (p_j - p*_j)^2;
    OD = mean over C* of DW_i; RNOD = sqrt(OD / (L - 1)); averaged over rows."""
    values = []
    for gold, system in zip(p_true, p_pred):
        n = len(gold)
        present = [i for i in range(n) if gold[i] > 0]
        od = sum(
            sum(abs(i - j) * (system[j] - gold[j]) ** 2 for j in range(n)) for i in present
        ) / len(present)
        values.append((od / (n - 1)) ** 0.5)
    return sum(values) / len(values)


def _distributions(n_rows, n_classes, rng):
    # Dirichlet rows, with some exact zeros (classes absent from a topic).
    rows = rng.dirichlet(np.ones(n_classes), size=n_rows)
    rows[rng.random(rows.shape) < 0.2] = 0.0
    rows[rows.sum(axis=1) == 0, 0] = 1.0
    return rows / rows.sum(axis=1, keepdims=True)


pairs = st.tuples(
    st.integers(1, 12), st.integers(2, 7), st.integers(0, 2**32 - 1)
).map(lambda t: (_distributions(t[0], t[1], np.random.default_rng(t[2])),
                 _distributions(t[0], t[1], np.random.default_rng(t[2] + 1))))


# ---------------------------------------------------------------------------------
# The measures
# ---------------------------------------------------------------------------------
@given(pairs)
@settings(deadline=None, max_examples=60)
def test_match_distance_is_the_task_papers_emd(pair):
    p_true, p_pred = pair
    assert match_distance(p_true, p_pred) == pytest.approx(_task_paper_emd(p_true, p_pred),
                                                           abs=1e-12)
    assert match_distance(p_pred, p_true) == pytest.approx(match_distance(p_true, p_pred),
                                                           abs=1e-12)


@given(pairs)
@settings(deadline=None, max_examples=60)
def test_perl_scorers_sum_bounds_the_match_distance_and_meets_it_on_one_sign(pair):
    p_true, p_pred = pair
    assert _perl_scorer_emd(p_true, p_pred) >= match_distance(p_true, p_pred) - 1e-12
    # Equal when the differences of the first K - 1 classes share one sign.
    difference = p_pred[:, :-1] - p_true[:, :-1]
    one_sign = (difference >= 0).all(axis=1) | (difference <= 0).all(axis=1)
    if one_sign.all():
        assert _perl_scorer_emd(p_true, p_pred) == pytest.approx(
            match_distance(p_true, p_pred), abs=1e-12)


# The SemEval-2016 Task 4 scorers' own test files for subtask E
# (scoring_test_data.topic-five-point.subtask-E.{gold,pred}.txt).
SCORER_GOLD = np.array([[0.0, 0.11, 0.5, 0.29, 0.100], [0.2, 0.25, 0.5, 0.05, 0.0]])
SCORER_PRED = np.array([[0.0, 0.11, 0.5, 0.2, 0.19], [0.0, 0.25, 0.4, 0.15, 0.2]])


def test_scorers_test_files_task_paper_value_and_the_perl_scorers_print():
    # Topic 2 by hand: cumulative differences -0.2, -0.2, -0.3, -0.2: EMD 0.9; topic 1:
    # 0, 0, 0, -0.09: 0.09. The Perl scorer (run with perl 5.36, its two `keys $ref`
    # written `keys %{$ref}`, which Perl >= 5.24 requires) printed "topic2: EMD=1.10"
    # and "OVERALL EMD : 0.59": its absolute value inside the cumulative sum.
    assert match_distance(SCORER_GOLD[1], SCORER_PRED[1]) == pytest.approx(0.9)
    assert match_distance(SCORER_GOLD[0], SCORER_PRED[0]) == pytest.approx(0.09)
    assert match_distance(SCORER_GOLD, SCORER_PRED) == pytest.approx(0.495)
    assert _perl_scorer_emd(SCORER_GOLD[1:], SCORER_PRED[1:]) == pytest.approx(1.10)
    # (0.09 + 1.10) / 2 = 0.595, which Perl's %0.2f printed as 0.59 (0.595 in binary
    # lies just below it).
    assert _perl_scorer_emd(SCORER_GOLD, SCORER_PRED) == pytest.approx(0.595)


@given(pairs)
@settings(deadline=None, max_examples=40)
def test_nmd_equals_quapy_and_leQua(pair):
    error = pytest.importorskip("quapy.error")
    p_true, p_pred = pair
    n_classes = p_true.shape[1]
    ours = normalized_match_distance(p_true, p_pred)
    # QuaPy 0.2.3's nmd is LeQua 2024's evaluate.py normalized_match_distance, line
    # for line: (1 / (n - 1)) * mean(match_distance), match_distance the sum of
    # |cumsum(p) - cumsum(p_hat)| over the first n - 1 classes.
    assert ours == pytest.approx(float(error.nmd(p_true, p_pred)), abs=1e-12)
    assert ours == pytest.approx(match_distance(p_true, p_pred) / (n_classes - 1), abs=1e-12)
    assert float(np.mean(error.md(p_true, p_pred))) == pytest.approx(
        match_distance(p_true, p_pred), abs=1e-12)


@given(pairs)
@settings(deadline=None, max_examples=60)
def test_rnod_equals_sakais_definition(pair):
    p_true, p_pred = pair
    assert root_normalized_order_aware_divergence(p_true, p_pred) == pytest.approx(
        _sakai_rnod(p_true, p_pred), abs=1e-12)


@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_perfect_quantifier_scores_zero_and_the_worst_the_top(measure, n_classes):
    rows = _distributions(6, n_classes, np.random.default_rng(n_classes))
    assert measure(rows, rows) == 0.0
    low, high = np.eye(n_classes)[[0]], np.eye(n_classes)[[-1]]
    top = n_classes - 1 if measure is match_distance else 1.0
    assert measure(low, high) == pytest.approx(top)
    assert prevalence_measure(measure).value_range(n_classes) == (0.0, top)


@pytest.mark.parametrize("measure", MEASURES)
def test_row_weights_equal_repeated_rows(measure):
    rng = np.random.default_rng(0)
    p_true, p_pred = _distributions(5, 4, rng), _distributions(5, 4, rng)
    weights = np.array([0, 1, 2, 3, 1])
    repeated = np.repeat(np.arange(5), weights)
    assert measure(p_true, p_pred, sample_weight=weights) == pytest.approx(
        measure(p_true[repeated], p_pred[repeated]), abs=1e-12)


@pytest.mark.parametrize("measure", MEASURES)
def test_integer_rows_and_one_dimensional_rows(measure):
    assert measure([0, 1, 0], [0, 1, 0]) == 0.0
    assert measure(np.array([[1, 0]]), np.array([[0, 1]])) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "p_pred, message",
    [
        ([[0.5, 0.6, 0.0]], "must sum to 1"),
        ([[3, 2, 5]], "must sum to 1"),
        ([[1.2, -0.2, 0.0]], "negative"),
        ([[0.5, np.nan, 0.5]], "NaN"),
        ([[0.5, 0.5]], "shape"),
        ([["a", "b", "c"]], "real numbers"),
    ],
)
def test_bad_prevalences_are_refused(p_pred, message):
    with pytest.raises(ValueError, match=message):
        normalized_match_distance([[0.2, 0.3, 0.5]], p_pred)


def test_rows_written_with_three_decimals_pass():
    assert normalized_match_distance([[0.333, 0.333, 0.333]], [[0.3334, 0.3333, 0.3333]]) < 1e-3


def test_registry_names_and_the_item_doors_refuse_them():
    assert prevalence_measure("nmd").function is normalized_match_distance
    assert prevalence_measure("emd").function is match_distance
    assert prevalence_measure("rnod").function is root_normalized_order_aware_divergence
    assert {r.function for r in prevalence_records()} == set(MEASURES)
    assert is_prevalence_measure("nmd") and not is_prevalence_measure("cem_ord")
    with pytest.raises(ValueError, match="not a prevalence measure.*Did you mean"):
        prevalence_measure("nmdd")
    with pytest.raises(ValueError, match="prevalences per group"):
        lookup("nmd")


# ---------------------------------------------------------------------------------
# Prevalences from items
# ---------------------------------------------------------------------------------
def _direct_prevalences(y, groups, classes, weights):
    """One group and one class at a time."""
    rows = {}
    for group in dict.fromkeys(groups):
        members = [i for i, g in enumerate(groups) if g == group]
        total = sum(weights[i] for i in members)
        if np.ndim(y) == 2:
            rows[group] = [sum(weights[i] * y[i][k] for i in members) / total
                           for k in range(len(classes))]
        else:
            rows[group] = [sum(weights[i] for i in members if y[i] == c) / total
                           for c in classes]
    return rows


@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.booleans())
@settings(deadline=None, max_examples=40)
def test_prevalences_equal_a_direct_count_with_weights(seed, n_classes, zero_weights):
    rng = np.random.default_rng(seed)
    n = 40
    y = rng.integers(0, n_classes, n)
    groups = rng.choice(["t1", "t2", "t3"], n)
    weights = rng.integers(1, 4, n).astype(float)
    if zero_weights:
        weights[rng.random(n) < 0.3] = 0.0
    for group in ("t1", "t2", "t3"):
        # Every group keeps an item of positive weight.
        weights[np.flatnonzero(groups == group)[:1]] = 1.0 if (groups == group).any() else 0
    classes = list(range(n_classes))
    table = prevalences(y, groups, labels=classes, sample_weight=weights)
    expected = _direct_prevalences(y.tolist(), groups.tolist(), classes, weights.tolist())
    assert list(table.index) == list(expected)
    for group, row in expected.items():
        np.testing.assert_allclose(table.loc[group].to_numpy(), row, atol=1e-12)
    proba = rng.dirichlet(np.ones(n_classes), n)
    table = prevalences(proba, groups, sample_weight=weights)
    expected = _direct_prevalences(proba.tolist(), groups.tolist(), classes, weights.tolist())
    for group, row in expected.items():
        np.testing.assert_allclose(table.loc[group].to_numpy(), row, atol=1e-12)


def test_prevalences_of_strings_categoricals_and_integer_dtypes():
    groups = ["a", "a", "b", "b"]
    order = ["low", "mid", "high"]
    by_labels = prevalences(["high", "low", "mid", "mid"], groups, labels=order)
    assert list(by_labels.columns) == order
    np.testing.assert_allclose(by_labels.to_numpy(), [[0.5, 0, 0.5], [0, 1, 0]])
    categorical = pd.Categorical(["high", "low", "mid", "mid"], categories=order, ordered=True)
    pd.testing.assert_frame_equal(prevalences(categorical, groups), by_labels,
                                  check_column_type=False, check_index_type=False)
    integers = prevalences(np.array([2, 0, 1, 1], dtype=np.uint8), groups, labels=[0, 1, 2])
    np.testing.assert_allclose(integers.to_numpy(), by_labels.to_numpy())
    with pytest.raises(ValueError, match="labels"):
        prevalences(["high", "low", "mid", "mid"], groups)  # no order for strings


def test_quantification_error_from_items_equals_the_measure_of_the_prevalences():
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 4, 200)
    y_pred = np.clip(y_true + rng.integers(-1, 2, 200), 0, 3)
    groups = rng.integers(0, 10, 200)
    weights = rng.random(200)
    for name, measure in [("match_distance", match_distance),
                          ("normalized_match_distance", normalized_match_distance),
                          ("root_normalized_order_aware_divergence",
                           root_normalized_order_aware_divergence)]:
        expected = measure(prevalences(y_true, groups, sample_weight=weights).to_numpy(),
                           prevalences(y_pred, groups, labels=[0, 1, 2, 3],
                                       sample_weight=weights).to_numpy())
        assert quantification_error(y_true, y_pred, groups, measure=name,
                                    sample_weight=weights) == pytest.approx(expected)
    # A perfect quantifier that misclassifies: the same counts in every group.
    assert quantification_error([0, 1, 2, 0, 1], [1, 0, 2, 1, 0], [0, 0, 0, 1, 1]) == 0.0
    proba = np.eye(4)[y_true]
    assert quantification_error(y_true, proba, groups) == 0.0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: prevalences([0, 1], [0, None]), "missing values"),
        (lambda: prevalences([0, 1], [0]), "one group per item"),
        (lambda: prevalences([0, 1, 1], [0, 0, 1], sample_weight=[1, 1, 0]),
         "no item of positive weight"),
        (lambda: prevalences([[0.5, 0.5], [1, 0]], [0, 1], labels=[0, 1, 2]), "columns"),
        (lambda: quantification_error([0, 1], [[0.5, 0.5, 0], [1, 0, 0]], [0, 0]),
         "columns"),
        (lambda: quantification_error([0, 1], [0, 1], [0, 0], measure="nmdd"), "measure"),
        (lambda: quantification_error([0, 1], [0, 1, 1], [0, 0]), "rows"),
        (lambda: quantification_error([1, 1], [1, 1], [0, 1]), "one class"),
    ],
)
def test_bad_items_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_one_class_named_with_labels_is_quantified():
    assert quantification_error([1, 1], [1, 0], [0, 1], labels=[0, 1]) == 0.5


# ---------------------------------------------------------------------------------
# The report over groups
# ---------------------------------------------------------------------------------
from sklearn.utils import check_random_state  # noqa: E402

from sklearn_ordinal import evaluate  # noqa: E402
from sklearn_ordinal.stats._interval_pvalue import percentile_interval_pvalue  # noqa: E402
from sklearn_ordinal.evaluation._quantification import quantification_records  # noqa: E402
from sklearn_ordinal.stats._resampling import (  # noqa: E402
    _draw_bootstrap,
    _draw_randomization,
    interval,
)


def _topics(n_groups, n_items, n_classes, seed):
    rng = np.random.default_rng(seed)
    groups = np.repeat([f"topic {g}" for g in range(n_groups)], n_items)
    shares = rng.dirichlet(np.ones(n_classes), n_groups)
    y_true = np.concatenate([rng.choice(n_classes, n_items, p=p) for p in shares])
    near = np.clip(y_true + rng.choice([-1, 0, 0, 1], len(y_true)), 0, n_classes - 1)
    far = rng.integers(0, n_classes, len(y_true))
    return y_true, {"near": near, "far": far}, groups


def test_report_resamples_are_the_measure_on_resampled_groups():
    # Each resample's value recomputed with the public measure, one resample at a time,
    # from the same random numbers (the batched draw of the report).
    y_true, systems, groups = _topics(7, 30, 4, 1)
    n_resamples, seed = 199, 5
    result = quantification_records(y_true, systems, groups, None, None, 0.9, n_resamples,
                                    seed, measures={"nmd": "nmd"})
    gold = prevalences(y_true, groups).to_numpy()
    rows = {name: prevalences(output, groups, labels=[0, 1, 2, 3]).to_numpy()
            for name, output in systems.items()}
    rng = check_random_state(seed)
    draws = np.vstack(list(_draw_bootstrap(np.ones(7, dtype=np.int64), n_resamples, rng)))
    exchanges = np.vstack(list(_draw_randomization(np.ones(7, dtype=np.int64), n_resamples,
                                                   rng)))
    ones = np.ones(7)
    for name, predicted in rows.items():
        distribution = np.array([normalized_match_distance(gold, predicted, sample_weight=m)
                                 for m in draws])
        jackknife = np.array([normalized_match_distance(gold, predicted,
                                                        sample_weight=ones - np.eye(7)[g])
                              for g in range(7)])
        estimate = normalized_match_distance(gold, predicted)
        low, high = interval(estimate, distribution, "bca", 0.9, jackknife_values=jackknife,
                             counts=ones.astype(np.int64))
        record = next(r for r in result.scores if r["system"] == name)
        assert record["estimate"] == pytest.approx(estimate, abs=1e-12)
        assert (record["low"], record["high"]) == pytest.approx((low, high), abs=1e-12)
    difference = np.array([normalized_match_distance(gold, rows["near"], sample_weight=m)
                           - normalized_match_distance(gold, rows["far"], sample_weight=m)
                           for m in draws])
    observed = (normalized_match_distance(gold, rows["near"])
                - normalized_match_distance(gold, rows["far"]))
    null = []
    for exchanged in exchanges.astype(bool):
        a = np.where(exchanged[:, None], rows["far"], rows["near"])
        b = np.where(exchanged[:, None], rows["near"], rows["far"])
        null.append(normalized_match_distance(gold, a) - normalized_match_distance(gold, b))
    pvalue = (1 + np.sum(np.abs(null) >= abs(observed) * (1 - 1e-9) - 1e-12)) / (1 + n_resamples)
    record = next(r for r in result.comparisons
                  if (r["system_a"], r["system_b"]) == ("near", "far"))
    assert record["difference"] == pytest.approx(observed, abs=1e-12)
    assert (record["low"], record["high"]) == pytest.approx(
        interval(observed, difference, "percentile", 0.9), abs=1e-12)
    assert record["pvalue"] == pytest.approx(percentile_interval_pvalue(difference))
    assert record["pvalue_randomization"] == pytest.approx(pvalue)


def test_report_perfect_quantifier_scores_zero_and_beats_the_trivial_one():
    y_true, _, groups = _topics(25, 20, 3, 2)
    # Misclassifies within each topic but keeps its counts: a perfect quantifier.
    shuffled = y_true.copy()
    for group in np.unique(groups):
        members = np.flatnonzero(groups == group)
        shuffled[members] = np.random.default_rng(0).permutation(y_true[members])
    result = quantification_records(y_true, {"perfect": shuffled}, groups, None, None, 0.95,
                                    999, 0, measures={"nmd": "nmd", "rnod": "rnod"})
    for record in result.scores:
        if record["system"] == "perfect":
            assert (record["estimate"], record["low"], record["high"]) == (0.0, 0.0, 0.0)
    for record in result.comparisons:
        assert record["better"] == "perfect"
    trivial = np.bincount(y_true, minlength=3) / len(y_true)
    np.testing.assert_allclose(result.trivial_prevalences, trivial)
    trivial_nmd = normalized_match_distance(prevalences(y_true, groups).to_numpy(),
                                            np.tile(trivial, (25, 1)))
    assert next(r for r in result.scores if r["system"] == "(trivial)"
                and r["measure"] == "nmd")["estimate"] == pytest.approx(trivial_nmd)


@pytest.mark.filterwarnings("ignore:macro_mean_absolute_error:UserWarning")
def test_evaluate_reports_the_quantification_measures_over_the_groups():
    y_true, systems, groups = _topics(20, 15, 3, 4)
    proba = np.random.default_rng(1).dirichlet(np.ones(3), len(y_true))
    weights = np.random.default_rng(2).integers(1, 3, len(y_true))
    report = evaluate(y_true, {**systems, "ranker": y_true + 0.5},
                      y_proba={"pcc": proba}, groups=groups, sample_weight=weights,
                      measures=["neg_macro_mean_absolute_error", "nmd", "rnod"],
                      baseline_labels=[0, 0, 1, 2], n_resamples=199, random_state=0)
    for name, output in [*systems.items(), ("pcc", proba)]:
        assert report.scores.loc[name, ("nmd", "estimate")] == pytest.approx(
            quantification_error(y_true, output, groups, sample_weight=weights,
                                 labels=[0, 1, 2]))
        assert report.per_group_mean.loc[name, "nmd"] == pytest.approx(
            report.scores.loc[name, ("nmd", "estimate")])
    assert np.isnan(report.scores.loc["ranker", ("nmd", "estimate")])
    assert "real-valued scores" in " ".join(
        report.notes.loc[report.notes["system"] == "ranker", "reason"])
    trivial = np.tile([0.5, 0.25, 0.25], (20, 1))
    assert report.scores.loc["(trivial)", ("rnod", "estimate")] == pytest.approx(
        root_normalized_order_aware_divergence(
            prevalences(y_true, groups, sample_weight=weights).to_numpy(), trivial))
    assert ("nmd", "near", "far") in report.comparisons.index
    only = evaluate(y_true, systems, groups=groups, measures="nmd", n_resamples=199,
                    random_state=0)
    assert only.measures == ["nmd"]
    with pytest.raises(ValueError, match="give groups="):
        evaluate(y_true, systems, measures=["nmd"])


# ---------------------------------------------------------------------------------
# Files and the command line
# ---------------------------------------------------------------------------------
from sklearn_ordinal.__main__ import main  # noqa: E402

LABELS = ["-2", "-1", "0", "1", "2"]


def _write_items(path, y, groups):
    path.write_text("".join(f"{i}\t{g}\t{LABELS[c]}\n" for i, (c, g) in
                            enumerate(zip(y, groups))), encoding="utf-8")


def _write_prevalences(path, topics, rows, separator="\t"):
    path.write_text("".join(f"{t}\t" + separator.join(repr(float(v)) for v in row) + "\n"
                            for t, row in zip(topics, rows)), encoding="utf-8")


def test_command_line_scores_a_submission_against_item_or_prevalence_gold(tmp_path, capsys):
    y_true, systems, groups = _topics(30, 20, 5, 6)
    _write_items(tmp_path / "gold-C.tsv", y_true, groups)
    gold = prevalences(y_true, groups)
    submission = prevalences(systems["near"], groups, labels=[0, 1, 2, 3, 4])
    # In another topic order, numbers separated by spaces as in the task's README.
    order = np.random.default_rng(0).permutation(len(submission))
    _write_prevalences(tmp_path / "team.txt", submission.index[order],
                       submission.to_numpy()[order], separator=" ")
    _write_prevalences(tmp_path / "gold-E.txt", gold.index, gold.to_numpy())
    expected = match_distance(gold.to_numpy(), submission.to_numpy())
    for gold_file in ("gold-C.tsv", "gold-E.txt"):
        assert main(["quantification", str(tmp_path / gold_file), str(tmp_path / "team.txt"),
                     "--n-resamples", "199", "--measures", "emd"]) == 0
        out = capsys.readouterr().out
        line = next(line for line in out.splitlines() if line.startswith("team "))
        assert float(line.split()[1]) == pytest.approx(expected, abs=5e-5)


@pytest.mark.parametrize(
    "submission, message",
    [
        # Two decimals allow 5 x 0.005 = 0.025 (#46 item 1): 0.9 is beyond it.
        ("topic 0\t0.50\t0.40\t0\t0\t0\ntopic 1\t1\t0\t0\t0\t0\n",
         "must sum to 1 within 0.025 (K shares written with d decimals"),
        ("topic 0\t1\t0\t0\t0\t0\ntopic 9\t1\t0\t0\t0\t0\n", "not in the gold"),
        ("topic 0\t1\t0\t0\t0\t0\n", "have no line, e.g. 'topic 1'"),
        ("topic 0\t1\t0\t0\t0\ntopic 1\t1\t0\t0\t0\t0\n", "4 prevalences for 5 classes"),
        ("topic 0\t1\t0\t0\t0\t0\ntopic 0\t1\t0\t0\t0\t0\n",
         "the topic 'topic 0' is given on lines 1, 2; give one line per topic"),
        ("topic 0\tone\t0\t0\t0\t0\ntopic 1\t1\t0\t0\t0\t0\n", "not all numbers"),
    ],
)
def test_command_line_refuses_bad_submissions_with_one_line(tmp_path, capsys, submission,
                                                             message):
    _write_items(tmp_path / "gold.tsv", [0, 1, 2, 4], ["topic 0", "topic 0", "topic 1",
                                                       "topic 1"])
    (tmp_path / "team.txt").write_text(submission, encoding="utf-8")
    assert main(["quantification", str(tmp_path / "gold.tsv"), str(tmp_path / "team.txt"),
                 "--n-resamples", "99"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


def test_command_line_refuses_unknown_gold_labels(tmp_path, capsys):
    (tmp_path / "gold.tsv").write_text("1\ttopic\t3\n2\ttopic\t0\n", encoding="utf-8")
    _write_prevalences(tmp_path / "team.txt", ["topic"], [[0.2] * 5])
    assert main(["quantification", str(tmp_path / "gold.tsv"), str(tmp_path / "team.txt")]) == 2
    assert "'3' is not one of the classes" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("perl") is None or "SEMEVAL2016_TASK4_SCORERS" not in os.environ,
                    reason="needs perl and SEMEVAL2016_TASK4_SCORERS, the directory of the "
                    "task's scorers (not shipped: they are the task's code)")
def test_perl_scorer_prints_its_loops_number(tmp_path):
    # The official scorer, with its two `keys $ref` written `keys %{$ref}` for Perl >= 5.24.
    source = Path(os.environ["SEMEVAL2016_TASK4_SCORERS"]) / "score-semeval2016-task4-subtaskE.pl"
    script = tmp_path / "scorer.pl"
    script.write_text(source.read_text(encoding="utf-8").replace(
        "keys $trueStats{$topic}", "keys %{$trueStats{$topic}}").replace(
        "keys $proposedStats{$proposedTopic}", "keys %{$proposedStats{$proposedTopic}}"),
        encoding="utf-8")
    rng = np.random.default_rng(0)
    # Three decimals, each below 1 (the scorer's format reads 0?.ddd only).
    gold = np.round(_distributions(40, 5, rng) * 0.9 + 0.02, 3)
    gold[:, -1] = np.round(1 - gold[:, :-1].sum(axis=1), 3)
    pred = np.round(_distributions(40, 5, rng) * 0.9 + 0.02, 3)
    pred[:, -1] = np.round(1 - pred[:, :-1].sum(axis=1), 3)
    topics = [f"t{i}" for i in range(40)]
    for name, rows in (("gold.txt", gold), ("pred.txt", pred)):
        (tmp_path / name).write_text("".join(
            f"{t}\t" + "\t".join(f"{v:.3f}".lstrip("0") for v in row) + "\n"
            for t, row in zip(topics, rows)), encoding="utf-8")
    out = subprocess.run(["perl", str(script), str(tmp_path / "gold.txt"),
                          str(tmp_path / "pred.txt")], capture_output=True, text=True,
                         check=True).stdout
    printed = float(out.split()[-1])
    assert printed == pytest.approx(_perl_scorer_emd(gold, pred), abs=0.0051)
    assert printed > match_distance(gold, pred) + 0.01
