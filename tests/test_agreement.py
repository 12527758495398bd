"""Accuracy within n, Kendall's tau-a, and the wrappers the CEM-section scorers use."""

import itertools
import pickle

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    f1_score,
    mutual_info_score,
)
from sklearn.model_selection import GridSearchCV, cross_validate

from sklearn_ordinal.metrics import accuracy_within_score, get_scorer, kendall_tau_a_score
from sklearn_ordinal.metrics._agreement import (
    _accuracy,
    _balanced_accuracy,
    _cohen_kappa,
    _kendall_tau_b,
    _macro_f1,
    _mutual_information,
    _pearson,
    _spearman,
)

CEM_SCORERS = [
    "cem_ord", "cem_nom", "cem_int", "cem_ord_flat", "accuracy_within_1", "kendall_tau_a",
    "accuracy", "macro_accuracy", "cohen_kappa", "linear_weighted_kappa",
    "quadratic_weighted_kappa", "macro_f1", "kendall_tau_b", "spearman", "pearson",
    "mutual_information",
]


@st.composite
def _labelled(draw, weighted=True, min_size=1):
    n_classes = draw(st.integers(1, 6))
    n = draw(st.integers(min_size, 25))
    codes = st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)
    y_true, y_pred = np.array(draw(codes)), np.array(draw(codes))
    weights = None
    if weighted and draw(st.booleans()):
        # Zero drops an item; no subnormal weights, which float64 cannot hold next to
        # 4.0 (a ValueError, tested in test_labels).
        weight = st.one_of(st.just(0.0), st.floats(1e-6, 4.0))
        weights = np.array(draw(st.lists(weight, min_size=n, max_size=n)))
        weights[0] = 1.0  # never all zero
    return n_classes, y_true, y_pred, weights


# --- accuracy within n -----------------------------------------------------------------


@given(data=_labelled(), n=st.integers(0, 4))
def test_accuracy_within_matches_brute_force(data, n):
    n_classes, y_true, y_pred, weights = data
    w = np.ones(len(y_true)) if weights is None else weights
    expected = sum(wi for t, p, wi in zip(y_true, y_pred, w) if abs(t - p) <= n) / w.sum()
    got = accuracy_within_score(
        y_true, y_pred, n=n, labels=np.arange(n_classes), sample_weight=weights
    )
    assert got == pytest.approx(expected)


def test_accuracy_within_counts_classes_not_values():
    # Values 1, 10, 100: one class apart whatever the gap; class 2 counts even unseen.
    assert accuracy_within_score([1, 10, 100], [10, 100, 10]) == 1.0
    assert accuracy_within_score([1, 3], [3, 1], labels=[1, 2, 3]) == 0.0
    assert accuracy_within_score([1, 3], [3, 1], labels=[1, 2, 3], n=2) == 1.0
    assert accuracy_within_score([1, 3], [3, 1], n=0) == accuracy_score([1, 3], [3, 1])


def test_accuracy_within_rejects_bad_n():
    with pytest.raises(ValueError, match="'n'"):
        accuracy_within_score([0, 1], [0, 1], n=-1)
    with pytest.raises(ValueError, match="'n'"):
        accuracy_within_score([0, 1], [0, 1], n=0.5)


# --- Kendall's tau-a -------------------------------------------------------------------


def _brute_tau_a(y_true, y_pred):
    pairs = list(itertools.combinations(range(len(y_true)), 2))
    signs = [np.sign(y_true[i] - y_true[j]) * np.sign(y_pred[i] - y_pred[j]) for i, j in pairs]
    return sum(signs) / len(pairs)


@given(data=_labelled(weighted=False, min_size=2))
def test_kendall_tau_a_matches_brute_force(data):
    n_classes, y_true, y_pred, _ = data
    got = kendall_tau_a_score(y_true, y_pred, labels=np.arange(n_classes))
    assert got == pytest.approx(_brute_tau_a(y_true, y_pred), abs=1e-12)


@given(permutation=st.permutations(range(8)))
def test_kendall_tau_a_is_tau_b_without_ties(permutation):
    y_true = np.arange(8)
    assert kendall_tau_a_score(y_true, permutation) == pytest.approx(
        stats.kendalltau(y_true, permutation).statistic
    )


def test_kendall_tau_a_ties_count_as_neither():
    # 6 pairs, 4 of them across classes and concordant; 2 tied pairs count in the
    # denominator only, which is what makes tau-a differ from tau-b.
    assert kendall_tau_a_score([1, 1, 2, 2], [1, 1, 2, 2]) == pytest.approx(4 / 6)
    assert kendall_tau_a_score([1, 1, 2, 2], [2, 2, 1, 1]) == pytest.approx(-4 / 6)


def test_kendall_tau_a_without_pairs_warns():
    with pytest.warns(UndefinedMetricWarning, match="two items"):
        assert kendall_tau_a_score([1], [1]) == 0.0


# --- Wrappers around scikit-learn and SciPy --------------------------------------------


def _random(seed, n=80, n_classes=5):
    rng = np.random.RandomState(seed)
    y_true = rng.randint(n_classes, size=n)
    y_pred = np.clip(y_true + rng.randint(-2, 3, size=n), 0, n_classes - 1)
    return y_true, y_pred, rng.uniform(0.5, 2.0, size=n)


_SKLEARN_TWINS = {
    "accuracy": (_accuracy, accuracy_score),
    "balanced accuracy": (_balanced_accuracy, balanced_accuracy_score),
    "macro F1": (_macro_f1, lambda t, p, **kw: f1_score(t, p, average="macro", **kw)),
    "kappa": (_cohen_kappa, cohen_kappa_score),
    "linear kappa": (
        lambda t, p, **kw: _cohen_kappa(t, p, weights="linear", **kw),
        lambda t, p, **kw: cohen_kappa_score(t, p, weights="linear", **kw),
    ),
    "quadratic kappa": (
        lambda t, p, **kw: _cohen_kappa(t, p, weights="quadratic", **kw),
        lambda t, p, **kw: cohen_kappa_score(t, p, weights="quadratic", **kw),
    ),
}

_label_samples = st.integers(2, 40).flatmap(
    lambda n: st.tuples(
        arrays(np.int64, n, elements=st.integers(0, 5)),
        arrays(np.int64, n, elements=st.integers(0, 5)),
        arrays(np.float64, n, elements=st.floats(0.1, 5.0)),
    )
)


@pytest.mark.filterwarnings("ignore")  # both sides warn on undefined cases
@pytest.mark.parametrize("name", sorted(_SKLEARN_TWINS))
@given(data=_label_samples)
def test_confusion_forms_match_scikit_learn(name, data):
    # Closed forms of the confusion matrix against scikit-learn on the items.
    ours, theirs = _SKLEARN_TWINS[name]
    y_true, y_pred, weights = data
    undefined = "kappa" in name and (np.ptp(y_true) == 0 and np.ptp(y_pred) == 0)
    for sample_weight in (None, weights):
        expected = 0.0 if undefined else theirs(y_true, y_pred, sample_weight=sample_weight)
        # Weighted kappa counts positions in the class set, so it sees no gap for a
        # class that no item has: compare on the classes present.
        got = ours(y_true, y_pred, sample_weight=sample_weight)
        assert got == pytest.approx(expected, abs=1e-12), (got, expected)


@pytest.mark.filterwarnings("ignore")
@given(data=_label_samples)
def test_confusion_forms_match_scipy(data):
    y_true, y_pred, _ = data
    if np.ptp(y_true) == 0 or np.ptp(y_pred) == 0:
        return  # undefined: covered by test_correlation_with_a_constant_side_is_zero
    classes = np.unique(np.concatenate([y_true, y_pred]))
    positions = np.searchsorted(classes, y_true), np.searchsorted(classes, y_pred)
    assert _spearman(y_true, y_pred) == pytest.approx(stats.spearmanr(*positions).statistic)
    assert _kendall_tau_b(y_true, y_pred) == pytest.approx(stats.kendalltau(*positions).statistic)
    assert _pearson(y_true, y_pred) == pytest.approx(stats.pearsonr(y_true, y_pred).statistic)
    assert _mutual_information(y_true, y_pred) == pytest.approx(
        mutual_info_score(y_true, y_pred), abs=1e-12
    )


def test_weighted_mutual_information_equals_repeated_rows():
    y_true, y_pred, _ = _random(3)
    weights = np.arange(len(y_true)) % 4
    assert _mutual_information(y_true, y_pred, sample_weight=weights) == pytest.approx(
        mutual_info_score(np.repeat(y_true, weights), np.repeat(y_pred, weights))
    )
    assert _mutual_information([0, 0, 1], [1, 1, 1]) == 0.0


def test_pearson_uses_class_values():
    # Pearson depends on the values (it is not ordinal invariant): numeric labels are
    # their own values, class_values override them, strings default to positions.
    y_true, y_pred = np.array([1, 2, 10, 10, 2]), np.array([1, 10, 10, 2, 2])
    assert _pearson(y_true, y_pred) == pytest.approx(stats.pearsonr(y_true, y_pred).statistic)
    positions = stats.pearsonr(np.searchsorted([1, 2, 10], y_true),
                               np.searchsorted([1, 2, 10], y_pred)).statistic
    assert _pearson(y_true, y_pred, class_values=[0, 1, 2]) == pytest.approx(positions)
    names = np.array(["low", "mid", "high"])[np.searchsorted([1, 2, 10], y_true)]
    predicted = np.array(["low", "mid", "high"])[np.searchsorted([1, 2, 10], y_pred)]
    assert _pearson(names, predicted, labels=["low", "mid", "high"]) == pytest.approx(positions)


def test_weighted_kappa_sees_positions_in_the_whole_class_order():
    # Categories out of alphabetical order, and a class ("fair") nobody uses: the
    # weights must come from positions in the full ordered class set.
    order = ["poor", "fair", "good", "great"]
    y_true, y_pred = ["poor", "good", "great", "great"], ["good", "good", "poor", "great"]
    codes = {label: k for k, label in enumerate(order)}
    expected = cohen_kappa_score(
        [codes[y] for y in y_true], [codes[y] for y in y_pred], labels=range(4), weights="linear"
    )
    as_categorical = pd.Series(y_true, dtype=pd.CategoricalDtype(order, ordered=True))
    assert _cohen_kappa(as_categorical, y_pred, weights="linear") == pytest.approx(expected)
    assert _cohen_kappa(y_true, y_pred, weights="linear", labels=order) == pytest.approx(expected)


@pytest.mark.parametrize("correlation", [_pearson, _spearman, _kendall_tau_b])
def test_correlation_with_a_constant_side_is_zero_with_a_warning(correlation):
    for y_true, y_pred in [([1, 1, 1], [1, 2, 3]), ([1, 2, 3], [2, 2, 2])]:
        with pytest.warns(UndefinedMetricWarning, match="single class"):
            assert correlation(y_true, y_pred) == 0.0


@pytest.mark.filterwarnings("ignore:A single label:UserWarning")
def test_kappa_of_a_single_class_is_zero_with_a_warning():
    with pytest.warns(UndefinedMetricWarning):
        assert _cohen_kappa([1, 1, 1], [1, 1, 1]) == 0.0


def test_weighted_pearson_equals_repeated_rows():
    y_true, y_pred, _ = _random(2)
    weights = np.arange(len(y_true)) % 4
    assert _pearson(y_true, y_pred, sample_weight=weights) == pytest.approx(
        stats.pearsonr(np.repeat(y_true, weights), np.repeat(y_pred, weights)).statistic
    )


@pytest.mark.parametrize("measure", [_spearman, _kendall_tau_b, kendall_tau_a_score])
def test_unweighted_correlations_take_no_sample_weight(measure):
    # No weighted form (for tau-a, repeating rows adds tied pairs, so weights cannot
    # both match repetition and be scale-free): weights must not be silently dropped.
    with pytest.raises(TypeError, match="sample_weight"):
        measure([0, 1, 2], [0, 2, 1], sample_weight=[1, 2, 3])


# --- Scorers ---------------------------------------------------------------------------


def test_scorers_are_registered():
    from sklearn_ordinal.metrics import get_scorer_names

    assert set(CEM_SCORERS) <= set(get_scorer_names())


def test_scorers_run_in_parallel_search_with_string_labels():
    X, y = make_classification(
        n_samples=90, n_features=5, n_informative=3, n_classes=3, random_state=0
    )
    names = np.array(["low", "mid", "high"])
    # Alphabetical order (high < low < mid) is wrong; the ordered categorical says so.
    y = pd.Series(names[y]).astype(pd.CategoricalDtype(names, ordered=True))
    scoring = {name: get_scorer(name) for name in CEM_SCORERS}
    result = cross_validate(LogisticRegression(), X, y, cv=3, scoring=scoring, n_jobs=2)
    for name in CEM_SCORERS:
        assert np.isfinite(result[f"test_{name}"]).all(), name
    search = GridSearchCV(
        LogisticRegression(), {"C": [0.01, 1.0]}, scoring=get_scorer("cem_ord"), cv=3
    ).fit(X, y)
    assert 0 < search.best_score_ <= 1


@pytest.mark.parametrize("name", CEM_SCORERS)
def test_scorers_pickle_and_reward_the_perfect_estimator(name):
    class Oracle(ClassifierMixin, BaseEstimator):
        classes_ = np.array([0, 1, 2, 3])

        def predict(self, X):
            return np.asarray(X)[:, 0]

    y = np.array([0, 1, 1, 2, 3, 3, 3, 0])
    X_perfect = y[:, np.newaxis]
    X_wrong = np.roll(y, 1)[:, np.newaxis]
    scorer = pickle.loads(pickle.dumps(get_scorer(name)))
    assert scorer(Oracle(), X_perfect, y) > scorer(Oracle(), X_wrong, y)


def test_appendix_b_imbalance_counterexamples():
    # Paper, Appendix B: moving a gold item of the small class 3 to class 2 should
    # cost more than moving one of the large class 1 to class 2. These measures
    # disagree: accuracy (3/4, 3/4), accuracy with 1 (1, 1), Pearson (0.85, 0.9).
    gold, small_class_moved, large_class_moved = [1, 1, 2, 3], [1, 2, 2, 3], [1, 1, 2, 2]
    assert _accuracy(gold, small_class_moved) == _accuracy(gold, large_class_moved) == 0.75
    assert accuracy_within_score(gold, small_class_moved) == 1.0
    assert accuracy_within_score(gold, large_class_moved) == 1.0
    assert _pearson(gold, small_class_moved) == pytest.approx(0.85, abs=5e-3)
    assert _pearson(gold, large_class_moved) == pytest.approx(0.90, abs=5e-3)


def test_appendix_b_correlations_break_monotonicity():
    # (2, 3, 4) is closer to the truth (3, 4, 5) than (1, 2, 3), yet rank measures
    # cannot tell them apart.
    gold, worse, better = [3, 4, 5], [1, 2, 3], [2, 3, 4]
    for measure in (kendall_tau_a_score, _kendall_tau_b, _spearman, _pearson, _accuracy):
        assert measure(gold, worse) == pytest.approx(measure(gold, better))
