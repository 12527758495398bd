"""Ranking measures (Waegeman et al. 2008): brute force, identities, paper facts."""

import itertools
import math
import pickle
import subprocess
import sys
from contextlib import contextmanager
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_ordinal import _score_table
from sklearn_ordinal.metrics import (
    _ranking,
    get_scorer,
    make_ordinal_scorer,
    u_cons_score,
    u_ovo_score,
    u_pairs_score,
    vus_score,
)

MEASURES = {
    "vus": vus_score,
    "u_pairs": u_pairs_score,
    "u_ovo": u_ovo_score,
    "u_cons": u_cons_score,
}
PAIRWISE = ["u_pairs", "u_ovo", "u_cons"]
TIES = ["average", "strict"]


# --- Brute force, straight from the definitions (ranking.rst) ----------------------------


def _tuple_credit(scores, ties):
    """Credit of one tuple of scores taken in class order."""
    if any(a > b for a, b in zip(scores, scores[1:])):
        return 0.0
    runs = [len(list(run)) for _, run in itertools.groupby(scores)]
    if ties == "strict":
        return float(all(m == 1 for m in runs))
    return math.prod(1 / math.factorial(m) for m in runs)


def _pair_credit(low, high, ties):
    if low < high:
        return 1.0
    return 0.5 if (low == high and ties == "average") else 0.0


def _members(y, w, s, k):
    return [(w[i], s[i]) for i in range(len(y)) if y[i] == k]


def brute_vus(y, s, w, ties):
    classes = sorted(set(y))
    members = [_members(y, w, s, k) for k in classes]
    total = 0.0
    for tup in itertools.product(*members):
        weight = math.prod(item[0] for item in tup)
        total += weight * _tuple_credit([item[1] for item in tup], ties)
    return total / math.prod(sum(item[0] for item in m) for m in members)


def _brute_auc(low, high, ties):
    """AUC of the items ``high`` against the items ``low``, both (weight, score)."""
    num = sum(wl * wh * _pair_credit(sl, sh, ties) for wl, sl in low for wh, sh in high)
    return num / (sum(w for w, _ in low) * sum(w for w, _ in high))


def brute_u_pairs(y, s, w, ties):
    num = den = 0.0
    for i, j in itertools.product(range(len(y)), repeat=2):
        if y[i] < y[j]:
            num += w[i] * w[j] * _pair_credit(s[i], s[j], ties)
            den += w[i] * w[j]
    return num / den


def brute_u_ovo(y, s, w, ties):
    classes = sorted(set(y))
    members = [_members(y, w, s, k) for k in classes]
    aucs = [_brute_auc(members[k], members[l], ties)
            for k, l in itertools.combinations(range(len(classes)), 2)]
    return sum(aucs) / len(aucs)


def brute_u_cons(y, s, w, ties):
    classes = sorted(set(y))
    aucs = []
    for k in classes[:-1]:
        low = [(w[i], s[i]) for i in range(len(y)) if y[i] <= k]
        high = [(w[i], s[i]) for i in range(len(y)) if y[i] > k]
        aucs.append(_brute_auc(low, high, ties))
    return sum(aucs) / len(aucs)


BRUTE = {"vus": brute_vus, "u_pairs": brute_u_pairs, "u_ovo": brute_u_ovo, "u_cons": brute_u_cons}


@st.composite
def small_ranking_data(draw, min_classes=2, max_classes=5, max_extra=9):
    """Every class present, scores from few values (heavy ties), mixed weights."""
    r = draw(st.integers(min_classes, max_classes))
    extra = draw(st.lists(st.integers(0, r - 1), max_size=max_extra))
    y = list(range(r)) + extra
    n = len(y)
    s = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    w = draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.0]), min_size=n, max_size=n))
    return np.array(y), np.array(s, dtype=float), np.array(w)


@contextmanager
def grouping_by(method):
    """Force the items to be grouped by score by sorting or by hashing."""
    saved = _score_table._MAX_DISTINCT_SHARE_TO_HASH
    _score_table._MAX_DISTINCT_SHARE_TO_HASH = {"hashing": 1.0, "sorting": -1.0}[method]
    try:
        yield
    finally:
        _score_table._MAX_DISTINCT_SHARE_TO_HASH = saved


@pytest.mark.parametrize("name", sorted(MEASURES))
@pytest.mark.parametrize("ties", TIES)
@pytest.mark.parametrize("grouping", ["sorting", "hashing"])
@given(data=small_ranking_data())
def test_matches_brute_force(name, ties, grouping, data):
    y, s, w = data
    expected = BRUTE[name](y.tolist(), s.tolist(), w.tolist(), ties)
    with grouping_by(grouping):
        value = MEASURES[name](y, s, sample_weight=w, ties=ties)
    assert value == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("n_distinct", [30, 3000, None], ids=["few", "some", "all"])
def test_grouping_by_sorting_and_by_hashing_agree(n_distinct):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, size=20000)
    noise = rng.normal(size=y.size) if n_distinct is None else rng.integers(0, n_distinct, y.size)
    s = y + noise / 7
    for ties in TIES:
        for measure in MEASURES.values():
            with grouping_by("sorting"):
                by_sorting = measure(y, s, ties=ties)
            with grouping_by("hashing"):
                by_hashing = measure(y, s, ties=ties)
            assert by_sorting == by_hashing


@pytest.mark.parametrize("ties", TIES)
def test_brute_force_on_a_hand_count(ties):
    # Classes 0 < 1 < 2, one tie between class 0 and 1 and a triple tie. Tuples
    # (8): class-0 items {1, 2}, class-1 items {2, 3}, class-2 items {2, 4}.
    # (1,2,2): tie of 2 -> 1/2; (1,2,4): 1; (1,3,2): 0; (1,3,4): 1;
    # (2,2,2): tie of 3 -> 1/6; (2,2,4): tie of 2 -> 1/2; (2,3,2): 0; (2,3,4): 1.
    y, s = [0, 0, 1, 1, 2, 2], [1, 2, 2, 3, 2, 4]
    expected = (1 / 2 + 1 + 1 + 1 / 6 + 1 / 2 + 1) / 8 if ties == "average" else 3 / 8
    assert brute_vus(y, s, [1] * 6, ties) == pytest.approx(expected)
    assert vus_score(y, s, ties=ties) == pytest.approx(expected)


# --- Identities and facts of the paper ---------------------------------------------


@pytest.mark.parametrize("name", sorted(MEASURES))
@given(data=small_ranking_data(min_classes=2, max_classes=2, max_extra=15))
def test_two_classes_equal_roc_auc(name, data):
    y, s, w = data
    expected = roc_auc_score(y, s, sample_weight=w)
    assert MEASURES[name](y, s, sample_weight=w) == pytest.approx(expected, abs=1e-12)


def test_two_string_classes_equal_roc_auc():
    y = np.array(["high", "low", "low", "high", "low"])
    s = np.array([0.9, 0.1, 0.4, 0.4, 0.5])
    for measure in MEASURES.values():
        assert measure(y, s, labels=["low", "high"]) == pytest.approx(
            roc_auc_score(y == "high", s)
        )


@given(data=small_ranking_data(min_classes=3, max_extra=20))
def test_eq19_u_pairs_is_size_weighted_mean_of_pairwise_aucs(data):
    y, s, w = data
    aucs, sizes = [], []
    for k, l in itertools.combinations(np.unique(y), 2):
        pair = (y == k) | (y == l)
        aucs.append(roc_auc_score(y[pair] == l, s[pair], sample_weight=w[pair]))
        sizes.append(w[y == k].sum() * w[y == l].sum())
    expected = np.average(aucs, weights=sizes)
    assert u_pairs_score(y, s, sample_weight=w) == pytest.approx(expected, abs=1e-12)
    assert u_ovo_score(y, s, sample_weight=w) == pytest.approx(np.mean(aucs), abs=1e-12)


def test_u_pairs_equals_u_ovo_on_balanced_data_only():
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(4), 25)
    s = np.round(y * 0.3 + rng.normal(size=y.size), 1)
    assert u_pairs_score(y, s) == pytest.approx(u_ovo_score(y, s), abs=1e-12)
    # The same ranking with class 0 made rare: now they differ (eq. 19 weights).
    keep = (y > 0) | (np.arange(y.size) % 5 == 0)
    assert abs(u_pairs_score(y[keep], s[keep]) - u_ovo_score(y[keep], s[keep])) > 1e-3


@pytest.mark.parametrize("n_classes", [3, 4])
@pytest.mark.parametrize("tied", [False, True], ids=["continuous", "tied"])
def test_lemma_3_3_random_scores(n_classes, tied):
    # Lemma 3.3: random scores give E[VUS] = 1/r! and 1/2 for the pairwise
    # measures; with ties, averaging over tie-breaks keeps these expectations.
    # Tolerance: each measure is within max_t |A_t - E A_t| of its expectation,
    # with A_t the per-class-pair (or per-split) U-statistics, or VUS itself. By
    # Hoeffding (1963, sec. 5), an average of R independent U-statistics with a
    # [0, 1] kernel and at least m disjoint tuples each deviates by t with
    # probability <= 2 exp(-2 R m t^2); a union bound over the A_t gives t.
    rng = np.random.default_rng(n_classes)
    per_class, repeats, failure_probability = 60, 40, 1e-6
    y = np.repeat(np.arange(n_classes), per_class)
    values = {name: [] for name in MEASURES}
    for _ in range(repeats):
        s = rng.integers(0, 6, size=y.size) if tied else rng.normal(size=y.size)
        for name, measure in MEASURES.items():
            values[name].append(measure(y, s))
    n_terms = n_classes * (n_classes - 1) // 2
    tolerance = math.sqrt(
        math.log(2 * n_terms / failure_probability) / (2 * repeats * per_class)
    )
    assert np.mean(values["vus"]) == pytest.approx(1 / math.factorial(n_classes), abs=tolerance)
    for name in PAIRWISE:
        assert np.mean(values[name]) == pytest.approx(0.5, abs=tolerance)
    # The tolerance is tight enough to tell 1/r! from 1/(r-1)!.
    assert tolerance < (1 / math.factorial(n_classes - 1) - 1 / math.factorial(n_classes)) / 2


@pytest.mark.parametrize("name", sorted(MEASURES))
@pytest.mark.parametrize("ties", TIES)
@given(data=small_ranking_data(), slope=st.floats(0.01, 100), shift=st.floats(-100, 100))
def test_strictly_increasing_transforms_change_nothing(name, ties, data, slope, shift):
    y, s, w = data
    measure = MEASURES[name]
    expected = measure(y, s, sample_weight=w, ties=ties)
    for transformed in (np.exp(s) * slope + shift, s**3 - 7, 2 * np.arctan(s) + 1):
        assert measure(y, transformed, sample_weight=w, ties=ties) == pytest.approx(expected)


@pytest.mark.parametrize("name", sorted(MEASURES))
def test_perfect_and_reversed_rankings(name):
    y = np.array([0, 1, 1, 2, 2, 2, 3])
    s = y * 1.5 + np.array([0, 0.1, 0.2, 0, 0.1, 0.2, 0])
    assert MEASURES[name](y, s) == 1.0
    assert MEASURES[name](y, -s) == 0.0
    # All scores tied: a coin flip at every tie.
    expected = 1 / math.factorial(4) if name == "vus" else 0.5
    assert MEASURES[name](y, np.zeros(7)) == pytest.approx(expected)
    assert MEASURES[name](y, np.zeros(7), ties="strict") == 0.0


def test_u_cons_and_u_ovo_differ_from_vus_and_each_other():
    # Guards against one formula silently serving for another.
    y = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2])
    s = np.array([0.1, 0.5, 0.7, 0.2, 0.6, 0.3, 0.8, 0.9, 0.4])
    values = {name: measure(y, s) for name, measure in MEASURES.items()}
    assert len(set(np.round(list(values.values()), 12))) == 4
    expected = brute_u_cons(y.tolist(), s.tolist(), [1] * 9, "average")
    assert values["u_cons"] == pytest.approx(expected)


def test_labels_order_and_string_labels():
    y = np.array(["low", "mid", "mid", "high", "low", "high"])
    s = np.array([0.1, 0.5, 0.3, 0.9, 0.4, 0.2])
    codes = np.array([0, 1, 1, 2, 0, 2])
    order = ["low", "mid", "high"]
    categorical = pd.Series(y).astype(pd.CategoricalDtype(order, ordered=True))
    for measure in MEASURES.values():
        expected = measure(codes, s)
        assert measure(y, s, labels=order) == pytest.approx(expected)
        assert measure(categorical, s) == pytest.approx(expected)


def test_absent_class_in_labels_is_left_out_with_a_warning():
    y, s = np.array([0, 0, 2, 2, 3]), np.array([0.1, 0.3, 0.2, 0.5, 0.9])
    for measure in MEASURES.values():
        with pytest.warns(UndefinedMetricWarning, match=r"classes \[1\] have no true item"):
            value = measure(y, s, labels=[0, 1, 2, 3])
        assert value == pytest.approx(measure(y, s))


def test_class_with_zero_total_weight_is_absent():
    # Zero-weight items are dropped rows: class 1 is not there at all...
    y, s = np.array([0, 1, 1, 2, 2]), np.array([0.1, 0.3, 0.2, 0.5, 0.9])
    w = np.array([1, 0, 0, 1, 1])
    assert vus_score(y, s, sample_weight=w) == vus_score([0, 2, 2], [0.1, 0.5, 0.9])
    # ...unless labels= names it: then it is a class without items, left out with a warning.
    with pytest.warns(UndefinedMetricWarning, match=r"classes \[1\]"):
        assert vus_score(y, s, sample_weight=w, labels=[0, 1, 2]) == vus_score(
            [0, 2, 2], [0.1, 0.5, 0.9]
        )


# --- Large data: exact and fast ----------------------------------------------------


def _exact_vus(table, ties="average"):
    """The VUS recursion over distinct scores, in exact integer/fraction arithmetic.

    ``table[g][k]``: integer (or Fraction) weight of class k at the g-th distinct score.
    """
    n_classes = len(table[0])
    before = [Fraction(1)] + [Fraction(0)] * n_classes  # chains ending below the score
    for row in table:
        ends = [Fraction(0)] * (n_classes + 1)
        for k in range(1, n_classes + 1):
            block = 1
            for m in range(1, k + 1 if ties == "average" else 2):  # classes k-m+1..k tied
                block *= row[k - m]
                if not block:
                    break
                ends[k] += before[k - m] * Fraction(block, math.factorial(m))
        before = [b + e for b, e in zip(before, ends)]
        before[0] = Fraction(1)
    totals = [sum(row[k] for row in table) for k in range(n_classes)]
    return before[n_classes] / math.prod(totals)


def test_exact_vus_reference_agrees_with_brute_force():
    rng = np.random.default_rng(1)
    for _ in range(20):
        y = np.concatenate([np.arange(4), rng.integers(0, 4, size=8)])
        s = rng.integers(0, 3, size=y.size)
        w = rng.integers(1, 4, size=y.size)
        table = [[int(w[(s == v) & (y == k)].sum()) for k in range(4)] for v in np.unique(s)]
        assert float(_exact_vus(table)) == pytest.approx(
            brute_vus(y.tolist(), s.tolist(), w.tolist(), "average"), abs=1e-12
        )


def test_vus_on_a_million_heavily_tied_items_in_ten_classes_is_exact():
    rng = np.random.default_rng(2)
    n, n_classes = 10**6, 10
    y = rng.integers(0, n_classes, size=n)
    s = 4 * y + rng.integers(-6, 7, size=n)  # 49 distinct scores: heavy ties everywhere
    w = rng.integers(1, 4, size=n)
    cells = np.bincount((s - s.min()) * n_classes + y, weights=w).reshape(-1, n_classes)
    table = [[int(c) for c in row] for row in cells if row.any()]
    exact = _exact_vus(table)
    assert 0.01 < exact < 0.99
    assert vus_score(y, s, sample_weight=w) == pytest.approx(float(exact), rel=1e-12, abs=0)


@pytest.mark.parametrize("n_classes", [10, 200])
def test_all_scores_tied_give_one_over_r_factorial(n_classes):
    # One tie block spanning every class: 1/r! (below float range for r = 200).
    y = np.repeat(np.arange(n_classes), 3)
    expected = 1 / math.factorial(n_classes) if n_classes < 170 else 0.0
    assert vus_score(y, np.zeros(y.size)) == pytest.approx(expected, rel=1e-12, abs=0)


def test_huge_weights_neither_overflow_nor_underflow():
    # Unnormalised, ten classes of weight 1e35 make chain counts of 1e350.
    rng = np.random.default_rng(3)
    y = np.repeat(np.arange(10), 20)
    s = np.round(y * 0.2 + rng.normal(size=y.size), 1)
    expected = vus_score(y, s)
    assert vus_score(y, s, sample_weight=np.full(y.size, 1e35)) == pytest.approx(expected)
    assert vus_score(y, s, sample_weight=np.full(y.size, 1e-35)) == pytest.approx(expected)


# --- Bad input ---------------------------------------------------------------------


_BAD = {
    "NaN score": (([0, 1, 2], [0.1, np.nan, 0.3]), {}, "y_score contains NaN"),
    "infinite score": (([0, 1, 2], [0.1, -np.inf, 0.3]), {}, "y_score contains infinity"),
    "one class present": (([1, 1, 1], [0.1, 0.2, 0.3]), {}, r"at least two classes.*\[1\]"),
    "one class after labels": (
        ([1, 1, 1], [0.1, 0.2, 0.3]), {"labels": [0, 1]}, "at least two classes"
    ),
    "2-D scores": (([0, 1, 2], np.ones((3, 3))), {}, r"y_score must be 1-D.*\(3, 3\)"),
    "string scores": (([0, 1, 2], ["a", "b", "c"]), {}, "y_score must hold real numbers"),
    "complex scores": (([0, 1, 2], [1j, 2, 3]), {}, "y_score must hold real numbers"),
    "None score": (([0, 1, 2], [0.1, None, 0.3]), {}, "y_score contains missing values"),
    "unknown tie policy": (([0, 1, 2], [0.1, 0.2, 0.3]), {"ties": "random"}, "'ties' parameter"),
    "lengths differ": (([0, 1, 2], [0.1, 0.2]), {}, r"inconsistent numbers of samples: \[3, 2\]"),
}


@pytest.mark.parametrize("name", sorted(MEASURES))
@pytest.mark.parametrize("case", sorted(_BAD))
def test_bad_input_is_a_clear_value_error(name, case):
    (y, s), kwargs, message = _BAD[case]
    with pytest.raises(ValueError, match=message):
        MEASURES[name](y, s, **kwargs)


# --- Scorers -----------------------------------------------------------------------


def _ordinal_data(n_classes=4, n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    score = X @ np.array([1.0, -0.5, 0.8, 0.0, 0.3]) + rng.normal(scale=0.5, size=n)
    cuts = np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1])
    return X, np.searchsorted(cuts, score)


@pytest.mark.parametrize("name", sorted(MEASURES))
def test_scorer_uses_expected_class_position_of_predict_proba(name):
    X, y = _ordinal_data()
    model = LogisticRegression().fit(X, y)
    expected = MEASURES[name](y, model.predict_proba(X) @ np.arange(4))
    assert get_scorer(name)(model, X, y) == pytest.approx(expected)


def test_scorer_uses_binary_decision_function():
    X, y = _ordinal_data(n_classes=2)
    model = LogisticRegression().fit(X, y)
    assert get_scorer("vus")(model, X, y) == pytest.approx(
        roc_auc_score(y, model.decision_function(X))
    )


def test_scorer_uses_a_regressors_predictions_at_the_end_of_a_pipeline():
    X, y = _ordinal_data()
    model = make_pipeline(StandardScaler(), LinearRegression()).fit(X, y)
    for name, measure in MEASURES.items():
        assert get_scorer(name)(model, X, y) == pytest.approx(measure(y, model.predict(X)))
    scores = cross_val_score(model, X, y, cv=3, scoring=get_scorer("u_cons"))
    assert np.all((scores > 0.5) & (scores <= 1))


def test_scorer_with_string_labels_in_their_ordinal_order():
    # classes_ are alphabetical (high < low < mid); labels= gives the real order,
    # both for the expected class position and for the measure.
    X, codes = _ordinal_data(n_classes=3)
    order = np.array(["low", "mid", "high"])
    y = order[codes]
    model = LogisticRegression().fit(X, y)
    scorer = make_ordinal_scorer(vus_score, response="scores", labels=order)
    proba = model.predict_proba(X)[:, [list(model.classes_).index(c) for c in order]]
    assert scorer(model, X, y) == pytest.approx(vus_score(codes, proba @ np.arange(3)))
    assert scorer(model, X, y) > 0.5


def test_grid_search_with_vus_scorer():
    X, y = _ordinal_data()
    search = GridSearchCV(
        LogisticRegression(), {"C": [1e-4, 1.0]}, scoring=get_scorer("vus"), cv=3
    ).fit(X, y)
    # An informative model ranks far better than chance (1/4! = 0.04).
    assert search.best_score_ > 0.3
    assert search.best_params_ == {"C": 1.0}


@pytest.mark.parametrize("name", sorted(MEASURES))
def test_scorers_pickle_and_run_in_parallel(name):
    X, y = _ordinal_data()
    scorer = pickle.loads(pickle.dumps(get_scorer(name)))
    assert repr(scorer) == f"make_ordinal_scorer({MEASURES[name].__name__}, response='scores')"
    serial = cross_val_score(LogisticRegression(), X, y, cv=2, scoring=scorer)
    if name == "vus":  # one parallel run is enough to prove it works under joblib
        parallel = cross_val_score(LogisticRegression(), X, y, cv=2, scoring=scorer, n_jobs=2)
        np.testing.assert_allclose(parallel, serial)


def test_importing_metrics_does_not_import_matplotlib():
    code = "import sys, sklearn_ordinal.metrics; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@given(
    y=st.lists(st.integers(-5, 40), min_size=1, max_size=30),
    dtype=st.sampled_from([np.int8, np.int64, np.uint16]),
)
def test_integer_targets_without_sorting_match_np_unique(y, dtype):
    # check_ordinal_targets has a bincount fast path for small integer labels (it
    # keeps the ranking measures within a few argsorts); it must agree with np.unique.
    from sklearn_ordinal._validation import check_ordinal_targets

    y = np.array(y)
    if dtype == np.uint16:
        y = y - y.min()
    y = y.astype(dtype)
    classes, codes, _, _ = check_ordinal_targets(y)
    expected_classes, expected_codes = np.unique(y, return_inverse=True)
    np.testing.assert_array_equal(classes, expected_classes)
    assert classes.dtype == expected_classes.dtype
    np.testing.assert_array_equal(codes, expected_codes)


def test_score_tables_have_no_empty_score_column():
    # _vus finds tie blocks only in a table without empty columns: every table the
    # package builds (one sort, or chunks added together) has none.
    from sklearn_ordinal.metrics import ScoreTable

    y, s = [0, 1, 2, 0, 1, 2], [0.1, 0.1, 0.5, 0.3, 0.4, 0.6]
    w = [1, 1, 1, 0, 1, 1]  # the zero-weight item's score is no threshold
    table = ScoreTable.from_predictions(y, s, sample_weight=w)
    assert table.table.any(axis=0).all() and 0.3 not in table.thresholds
    merged = ScoreTable.from_predictions(y[:3], s[:3], labels=[0, 1, 2]) + (
        ScoreTable.from_predictions(y[3:], s[3:], labels=[0, 1, 2])
    )
    assert merged.table.any(axis=0).all()
    assert merged.score(vus_score) == pytest.approx(vus_score(y, s))


# --- The per-class score table against the dense one it replaced -------------------
#
# Until issue 15 the score table was dense: ``table[k, g]`` the weight of class k at
# the g-th distinct score of all classes, and the measures below read it. They are
# kept here verbatim as a reference that the per-class table must match to rounding.


def _dense_reference_table(y, s, w):
    """``(thresholds, table)`` of the classes present, by np.unique."""
    thresholds, group = np.unique(s, return_inverse=True)
    classes, codes = np.unique(y, return_inverse=True)
    table = np.zeros((len(classes), len(thresholds)))
    np.add.at(table, (codes, group), w)
    return thresholds, table


def _reference_vus(table, ties):
    n_classes, n_groups = table.shape
    scale = 1.0 / table.sum(axis=1)
    shared = np.empty(0, dtype=np.intp)
    if ties == "average" and np.count_nonzero(table) > n_groups:
        shared = np.flatnonzero(np.count_nonzero(table, axis=0) > 1)
    share_shared = table[:, shared] * scale[:, np.newaxis]
    before_shared = [np.ones(shared.size)]
    ends = np.multiply(table[0], scale[0], dtype=np.float64)
    chains = np.empty(n_groups)
    for k in range(1, n_classes):
        np.cumsum(ends, out=chains)
        before_shared.append(np.where(shared > 0, chains[shared - 1], 0.0))
        ends[0] = 0.0
        np.multiply(chains[:-1], table[k, 1:], out=ends[1:])
        ends *= scale[k]
        if shared.size:
            block = share_shared[k]
            tied_ends = np.zeros(shared.size)
            for m in range(2, k + 2):
                block = block * share_shared[k - m + 1] / m
                if not block.any():
                    break
                tied_ends += before_shared[k - m + 1] * block
            ends[shared] += tied_ends
    return float(ends.sum())


def _reference_class_pair_aucs(table, ties):
    below = np.cumsum(table, axis=1)
    below -= (1.0 - _ranking._TIED_PAIR_CREDIT[ties]) * table
    pairs = below @ table.T
    n = table.sum(axis=1)
    upper = np.triu_indices(len(n), k=1)
    sizes = np.outer(n, n)[upper]
    return pairs[upper] / sizes, sizes


def _reference_u_cons(table, ties):
    at_score = table.sum(axis=0)
    mid_rank = np.cumsum(at_score)
    mid_rank -= 0.5 * at_score
    upper_rank_sum = np.cumsum((table @ mid_rank)[::-1])[::-1][1:]
    n = table.sum(axis=1)
    upper = np.cumsum(n[::-1])[::-1][1:]
    lower = n.sum() - upper
    ordered = upper_rank_sum - 0.5 * upper**2
    if ties == "strict":
        lower_at_score = np.cumsum(table[:-1], axis=0)
        ordered -= 0.5 * np.einsum("kg,kg->k", lower_at_score, at_score - lower_at_score)
    return float(np.mean(ordered / (lower * upper)))


def _reference(name, table, ties):
    if name == "vus":
        return _reference_vus(table, ties)
    if name == "u_cons":
        return _reference_u_cons(table, ties)
    aucs, sizes = _reference_class_pair_aucs(table, ties)
    return float(np.average(aucs, weights=sizes if name == "u_pairs" else None))


@st.composite
def ranking_data(draw):
    """Two to ten classes, some of one item; scores continuous, or tied within and
    across classes; unit, integer or spread weights."""
    r = draw(st.integers(2, 10))
    sizes = draw(st.lists(st.sampled_from([1, 1, 2, 3, 8, 40]), min_size=r, max_size=r))
    y = np.repeat(np.arange(r), sizes)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n_levels = draw(st.sampled_from([None, 2, 5, 30]))
    s = y * draw(st.sampled_from([0.0, 0.3, 1.0])) + rng.normal(size=y.size)
    if n_levels is not None:
        s = np.round(s * n_levels / 4) / n_levels
    kind = draw(st.sampled_from(["unit", "integer", "spread"]))
    w = {
        "unit": np.ones(y.size),
        "integer": rng.integers(1, 4, size=y.size).astype(float),
        "spread": rng.uniform(0.01, 1, size=y.size) * 10.0 ** rng.integers(-3, 4, y.size),
    }[kind]
    order = rng.permutation(y.size)
    return y[order], s[order], w[order], kind == "unit"


@pytest.mark.parametrize("name", sorted(MEASURES))
@pytest.mark.parametrize("ties", TIES)
@pytest.mark.parametrize("grouping", ["sorting", "hashing"])
@given(data=ranking_data())
def test_per_class_table_matches_the_dense_reference(name, ties, grouping, data):
    y, s, w, unit = data
    expected = _reference(name, _dense_reference_table(y, s, w)[1], ties)
    with grouping_by(grouping):
        value = MEASURES[name](y, s, sample_weight=None if unit else w, ties=ties)
    if (w == np.round(w)).all():
        assert value == pytest.approx(expected, rel=1e-14, abs=1e-300)
    else:
        # Weights spread over orders of magnitude: the dense code lost digits where
        # a difference of large sums cancels (U_pairs and U_ovo "strict", U_cons
        # rank sums of a light side), so the value is held to the exact rational one.
        # An AUC of 0 may come out as a rounding of order eps: a difference of sums.
        exact = float(_exact(name, *_dense_reference_table(y, s, w), ties))
        assert value == pytest.approx(exact, rel=1e-13, abs=1e-300 if name == "vus" else 1e-15)


def _exact(name, thresholds, table, ties):
    """The measure in exact rational arithmetic on the dense table of float weights."""
    table = [[Fraction(float(x)) for x in row] for row in table]
    if name == "vus":
        return _exact_vus([list(column) for column in zip(*table)], ties)
    credit = Fraction(_ranking._TIED_PAIR_CREDIT[ties])
    r = len(table)
    n = [sum(row) for row in table]
    pairs = {}
    for k, l in itertools.combinations(range(r), 2):
        below, total = Fraction(0), Fraction(0)
        for at_k, at_l in zip(table[k], table[l]):
            total += at_l * (below + credit * at_k)
            below += at_k
        pairs[k, l] = total
    if name == "u_cons":
        aucs = [
            sum(pairs[j, l] for j in range(k + 1) for l in range(k + 1, r))
            / (sum(n[: k + 1]) * sum(n[k + 1:]))
            for k in range(r - 1)
        ]
        return sum(aucs) / len(aucs)
    sizes = {key: n[key[0]] * n[key[1]] for key in pairs}
    if name == "u_pairs":
        return sum(pairs.values()) / sum(sizes.values())
    return sum(pairs[key] / sizes[key] for key in pairs) / len(pairs)


@pytest.mark.parametrize("grouping", ["sorting", "hashing"])
@given(data=ranking_data(), n_chunks=st.integers(1, 4))
def test_per_class_table_of_chunks_is_the_table_of_the_whole(grouping, data, n_chunks):
    from sklearn_ordinal.metrics import ScoreTable

    y, s, w, unit = data
    n_chunks = min(n_chunks, y.size)
    w = None if unit else w
    labels = np.unique(y)
    with grouping_by(grouping):
        whole = ScoreTable.from_predictions(y, s, sample_weight=w, labels=labels)
        chunks = [
            ScoreTable.from_predictions(y[i], s[i], sample_weight=None if w is None else w[i],
                                        labels=labels)
            for i in np.array_split(np.arange(y.size), n_chunks)
        ]
    merged = sum(chunks)
    for table in (whole, merged):
        # Each class: its distinct scores increasing, one cell each, positive weights.
        for k in range(len(labels)):
            cells = slice(table.bounds[k], table.bounds[k + 1])
            np.testing.assert_array_equal(table.scores[cells], np.unique(s[y == labels[k]]))
        assert (table.weights > 0).all()
    np.testing.assert_array_equal(merged.scores, whole.scores)
    np.testing.assert_array_equal(merged.bounds, whole.bounds)
    np.testing.assert_allclose(merged.weights, whole.weights, rtol=1e-15)
    assert merged.weights.dtype.kind == whole.weights.dtype.kind == ("i" if unit else "f")
    thresholds, table = _dense_reference_table(y, s, np.ones(y.size) if unit else w)
    np.testing.assert_array_equal(whole.thresholds, thresholds)
    np.testing.assert_allclose(np.ldexp(whole.table, whole.weight_exponent), table, rtol=1e-15)


@pytest.mark.parametrize("n_classes", [2, 5, 10])
def test_continuous_scores_of_many_items_match_the_dense_reference(n_classes):
    # Large enough for the sample to choose per-class sorting by itself.
    rng = np.random.default_rng(n_classes)
    y = rng.integers(0, n_classes, size=20000)
    s = y * 0.2 + rng.normal(size=y.size)
    s[:50] = s[50:100]  # a few ties, within and across classes
    table = _dense_reference_table(y, s, np.ones(y.size))[1]
    for name, measure in MEASURES.items():
        for ties in TIES:
            expected = _reference(name, table, ties)
            assert measure(y, s, ties=ties) == pytest.approx(expected, rel=1e-13, abs=1e-300)


@pytest.mark.parametrize("ties", TIES)
@given(data=ranking_data())
def test_unit_weight_shortcuts_give_the_general_paths_values_exactly(ties, data):
    # Unweighted continuous scores skip reordering the weights (U_cons) and the
    # products by them (VUS); the same table with float weights takes the general
    # paths, which must give the very same floats.
    from sklearn_ordinal.metrics import ScoreTable

    y, s, _, _ = data
    table = ScoreTable.from_predictions(y, s, labels=np.unique(y))
    general = table._replace(weights=table.weights.astype(np.float64))
    for measure in (u_cons_score, vus_score):
        assert table.score(measure, ties=ties) == general.score(measure, ties=ties)


@st.composite
def distinct_scores(draw, max_classes=300):
    """Every class present, up to ``max_classes`` of them (beyond 256 no class order
    is taken); scores of any sign and magnitude, float64 or float32, mostly
    distinct, with a pair of different classes one to a few units in the last place
    apart, or 0.0 and -0.0, or tied, now and then."""
    r = draw(st.integers(2, max_classes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y = np.concatenate([np.arange(r), rng.integers(0, r, size=draw(st.integers(0, 200)))])
    dtype = draw(st.sampled_from([np.float64, np.float32]))
    # Subnormal, small, plain and huge scores of each type.
    tiny, huge = (1e-310, 1e250) if dtype == np.float64 else (1e-40, 1e30)
    magnitude = draw(st.sampled_from([tiny, 1e-5, 1.0, huge]))
    s = (y * draw(st.sampled_from([0.0, 0.01, 1.0])) / r + rng.normal(size=y.size))
    s = (s.astype(dtype) * dtype(magnitude)).astype(dtype)
    i, j = 0, 1  # items of classes 0 and 1
    near = draw(st.sampled_from(["none", "ulps", "signed zeros", "tie"]))
    if near == "ulps":
        s[j] = s[i]
        for _ in range(draw(st.integers(1, 300))):
            s[j] = np.nextafter(s[j], np.inf, dtype=s.dtype)
    elif near == "signed zeros":
        s[i], s[j] = 0.0, -0.0
    elif near == "tie":
        s[j] = s[i]
    order = rng.permutation(y.size)
    return y[order], s[order]


@pytest.mark.parametrize("ties", TIES)
@given(data=distinct_scores())
def test_class_order_by_one_sort_is_the_order_of_the_scores(ties, data):
    # Unweighted U_cons sorts the scores with each class code in their last bits;
    # when it trusts that order, it must be the classes of the scores sorted, and
    # U_cons the very float of the score table's exact path.
    from sklearn_ordinal.metrics import ScoreTable

    y, s = data
    labels = np.arange(y.max() + 1)
    order = _score_table._class_order(labels, y, s)
    if order is not None:
        assert np.unique(s).size == s.size  # only distinct scores are ordered so
        np.testing.assert_array_equal(order.in_order, y[np.argsort(s, kind="stable")])
        np.testing.assert_array_equal(order.counts, np.bincount(y))
    table = ScoreTable.from_predictions(y, s, labels=labels)
    assert u_cons_score(y, s, ties=ties) == table.score(u_cons_score, ties=ties)


@pytest.mark.parametrize("ties", TIES)
@given(data=distinct_scores(max_classes=2 * _ranking._MAX_CLASSES_TO_SCAN))
def test_vus_from_the_class_order_is_the_float_of_the_table(ties, data):
    # Unweighted VUS of distinct scores of few classes reads "below" from the
    # classes in score order; it must be the very float of the score table's chain,
    # on either side of the number of classes where it stops doing so.
    from sklearn_ordinal.metrics import ScoreTable

    y, s = data
    labels = np.arange(y.max() + 1)
    table = ScoreTable.from_predictions(y, s, labels=labels)
    assert vus_score(y, s, ties=ties) == table.score(vus_score, ties=ties)
    order = _score_table._class_order(labels, y, s)
    if order is not None:
        assert _ranking._vus_in_order(order) == table.score(vus_score, ties=ties)


@pytest.mark.parametrize("n_classes", [2, 3, 5, _ranking._MAX_CLASSES_TO_SCAN])
def test_vus_from_the_class_order_counts_chains_as_brute_force(n_classes):
    # Against the definition: the share of tuples, one item per class, whose scores
    # increase with the class (few items, so every tuple can be listed).
    rng = np.random.default_rng(n_classes)
    y = np.concatenate([np.arange(n_classes), np.arange(n_classes)])
    y = np.concatenate([y, rng.integers(0, n_classes, size=12 - min(12, y.size))])
    s = y + rng.normal(scale=2.0, size=y.size)
    order = _score_table._class_order(np.arange(n_classes), y, s)
    assert order is not None
    by_class = [s[y == k] for k in range(n_classes)]
    tuples = np.array(np.meshgrid(*by_class, indexing="ij")).reshape(n_classes, -1)
    expected = np.mean(np.all(np.diff(tuples, axis=0) > 0, axis=0))
    assert _ranking._vus_in_order(order) == pytest.approx(expected, rel=1e-12)
    assert vus_score(y, s) == _ranking._vus_in_order(order)


@pytest.mark.parametrize("ties", TIES)
@pytest.mark.parametrize("case", ["one ulp", "signed zeros", "tie", "distinct"])
def test_u_cons_of_scores_equal_but_for_their_last_bits(ties, case):
    # Two scores of classes 0 and 1 that differ only in the bits that carry the
    # class (or not at all) must be ordered by score, or tied, never by class.
    y = np.array([0, 1, 0, 1, 2, 2])
    s = np.array([0.5, 0.5, 0.1, 0.7, 0.9, 0.8])
    if case == "one ulp":
        s[0] = np.nextafter(s[1], 1.0)  # class 0 above class 1, by one unit
    elif case == "signed zeros":
        s[0], s[1] = 0.0, -0.0  # a tie, although -0.0 sorts below 0.0 bit-wise
    elif case == "distinct":
        s[0] = 0.4
    order = _score_table._class_order(np.arange(3), y, s)
    assert (order is None) == (case != "distinct")
    expected = brute_u_cons(y.tolist(), s.tolist(), [1.0] * y.size, ties)
    assert u_cons_score(y, s, ties=ties) == pytest.approx(expected, abs=1e-15)


# The measures that read the classes in score order (unweighted distinct scores),
# fed every kind of label input: the order must come through each one unchanged.
CLASS_ORDER_MEASURES = ["vus", "u_cons"]
GRADES = ["poor", "fair", "good", "great"]  # alphabetical order is not the ordinal one


def _distinct_scores_of_four_grades(n=80, seed=0):
    rng = np.random.default_rng(seed)
    y = np.concatenate([np.arange(4), rng.integers(0, 4, size=n - 4)])
    s = y + rng.normal(scale=1.5, size=n)  # continuous: all distinct
    assert _score_table._class_order(np.arange(4), y, s) is not None  # the path under test
    return y, s


def _grade_inputs(y):
    """The grades ``y`` (positions in GRADES) as each kind of label input, with the
    keywords that give their order."""
    names = np.array(GRADES)[y]
    ordered = pd.Series(names).astype(pd.CategoricalDtype(GRADES, ordered=True))
    top = np.iinfo(np.uint64).max - np.uint64(4)
    return {
        "strings with labels=": (names, {"labels": GRADES}),
        "ordered Categorical Series": (ordered, {}),
        "ordered Categorical one-column DataFrame": (ordered.to_frame("grade"), {}),
        "int8": (y.astype(np.int8), {}),
        "uint64 near the top": (y.astype(np.uint64) + top, {}),
    }


@pytest.mark.parametrize("name", CLASS_ORDER_MEASURES)
@pytest.mark.parametrize(
    "kind",
    ["strings with labels=", "ordered Categorical Series",
     "ordered Categorical one-column DataFrame", "int8", "uint64 near the top"],
)
def test_the_class_order_comes_through_every_label_input(name, kind):
    from sklearn_ordinal.metrics import ScoreTable

    y, s = _distinct_scores_of_four_grades()
    labels_in, keywords = _grade_inputs(y)[kind]
    measure = MEASURES[name]
    # The same class codes, so the very float of the score table of the positions.
    table = ScoreTable.from_predictions(y, s, labels=np.arange(4))
    assert measure(labels_in, s, **keywords) == table.score(measure)


@pytest.mark.parametrize("name", CLASS_ORDER_MEASURES)
def test_weights_take_the_table_and_agree_with_the_class_order(name):
    # Weighted items go through the score table; equal weights at either extreme
    # must give the unweighted (class order) value, and a zero weight must drop the
    # item as removing it does.
    y, s = _distinct_scores_of_four_grades(seed=1)
    measure = MEASURES[name]
    unweighted = measure(y, s)
    for scale in (1e-300, 1e300):
        weighted = measure(y, s, sample_weight=np.full(y.size, scale))
        assert weighted == pytest.approx(unweighted, rel=1e-12), scale
    weights = np.ones(y.size)
    weights[10] = 0.0
    assert measure(y, s, sample_weight=weights) == pytest.approx(
        measure(np.delete(y, 10), np.delete(s, 10)), rel=1e-12
    )


def test_class_order_scorers_in_a_multi_metric_dict_with_a_regressor():
    # A regressor has neither decision_function nor predict_proba: its continuous
    # predictions are the scores, all distinct, so the class order path scores them,
    # to the very float of the score table.
    from sklearn_ordinal.metrics import ScoreTable

    X, y = _ordinal_data(seed=3)
    model = make_pipeline(StandardScaler(), LinearRegression())
    scoring = {
        "vus": get_scorer("vus"),
        "u_cons": get_scorer("u_cons"),
        "macro_mae": get_scorer("neg_macro_mean_absolute_error"),
    }
    cv = KFold(3, shuffle=True, random_state=0)
    results = cross_validate(model, X, y, cv=cv, scoring=scoring)
    for fold, (train, test) in enumerate(cv.split(X)):
        predicted = clone(model).fit(X[train], y[train]).predict(X[test])
        assert _score_table._class_order(np.arange(4), y[test], predicted) is not None
        table = ScoreTable.from_predictions(y[test], predicted, labels=np.arange(4))
        for name in CLASS_ORDER_MEASURES:
            assert results[f"test_{name}"][fold] == table.score(MEASURES[name])


def test_steps_up_across_blocks_is_the_direct_comparison():
    # _steps_up reads scores[order] block by block; ties must be seen across the
    # block boundaries too (2**16 items a block).
    rng = np.random.default_rng(0)
    scores = rng.integers(0, 3, size=3 * 2**16 + 5).astype(float).cumsum()
    scores[2**16 - 1: 2**16 + 1] = scores[2**16 - 1]  # a tie across the first boundary
    order = rng.permutation(scores.size)
    scores = scores[np.argsort(order)]  # scores[order] is increasing again
    expected = np.concatenate([[True], np.diff(scores[order]) != 0])
    np.testing.assert_array_equal(_ranking._steps_up(scores, order), expected)
