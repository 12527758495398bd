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
from hypothesis.extra.numpy import arrays

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
    ],
)
def test_bad_items_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()
