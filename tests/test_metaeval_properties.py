"""The property checker against Table 2 and Appendix B of Amigó et al. (2020)."""

import numpy as np
import pytest
from sklearn.metrics import accuracy_score

from sklearn_ordinal.metaeval import check_metric_properties, metric_properties_table
from sklearn_ordinal.metrics import (
    get_scorer,
    macro_mean_absolute_error,
    make_ordinal_scorer,
    mean_absolute_error,
)

PROPERTIES = ["ordinal_invariance", "ordinal_monotonicity", "imbalance"]

# Table 2 of the paper: (ordinal invariance, ordinal monotonicity, imbalance).
TABLE_2 = {
    "neg_mean_absolute_error": (False, True, False),  # MAE
    "neg_mean_squared_error": (False, True, False),  # MSE
    "neg_macro_mean_absolute_error": (False, True, True),  # macro avg. MAE
    "neg_macro_mean_squared_error": (False, True, True),  # macro avg. MSE
    "neg_mean_zero_one_error": (True, False, False),  # 1 - accuracy
    "neg_macro_mean_zero_one_error": (True, False, True),  # 1 - macro avg. accuracy
}


def test_table_matches_the_paper_for_the_error_measures():
    table = metric_properties_table({name: get_scorer(name) for name in TABLE_2})
    assert list(table.columns) == PROPERTIES
    for name, marks in TABLE_2.items():
        assert tuple(table.loc[name]) == marks, name


def test_default_table_covers_every_label_scorer():
    table = metric_properties_table(n_trials=20)
    assert set(TABLE_2) <= set(table.index)
    assert (table.dtypes == "boolean").all()


def _mae_micro(y_true, y_pred):
    return mean_absolute_error(y_true, y_pred, average="micro")


def test_mae_invariance_counterexample_is_real():
    # Appendix B: MAE changes under a strictly increasing map such as 10 + x^3.
    check = check_metric_properties(_mae_micro, greater_is_better=False, random_state=0)
    found = check["ordinal_invariance"]
    assert not found.holds
    case = found.counterexample
    mapping = case["mapping"]
    keys = sorted(mapping)
    assert all(mapping[a] < mapping[b] for a, b in zip(keys, keys[1:]))
    mapped_true = [mapping[y] for y in case["y_true"]]
    mapped_pred = [mapping[y] for y in case["y_pred"]]
    assert case["score"] == _mae_micro(case["y_true"], case["y_pred"])
    assert case["score_mapped"] == _mae_micro(mapped_true, mapped_pred)
    assert case["score"] != pytest.approx(case["score_mapped"])
    # Shrunk: one wrong item is enough, plus the items that keep its classes.
    assert len(case["y_true"]) <= 3


def test_accuracy_monotonicity_counterexample_is_real():
    # Appendix B: moving predictions closer without reaching the truth leaves accuracy as is.
    check = check_metric_properties(accuracy_score, random_state=0)
    assert check["ordinal_invariance"].holds
    found = check["ordinal_monotonicity"]
    assert not found.holds
    case = found.counterexample
    y_true, y_pred, y_closer = (np.array(case[k]) for k in ("y_true", "y_pred", "y_pred_closer"))
    changed = y_pred != y_closer
    assert changed.any()
    down = (y_pred > y_closer) & (y_closer >= y_true)
    up = (y_pred < y_closer) & (y_closer <= y_true)
    assert (down | up | ~changed).all()
    assert accuracy_score(y_true, y_closer) <= accuracy_score(y_true, y_pred)
    assert case["score_closer"] == accuracy_score(y_true, y_closer)


def test_imbalance_counterexample_is_real():
    found = check_metric_properties(accuracy_score, random_state=0)["imbalance"]
    assert not found.holds
    case = found.counterexample
    y_true = np.array(case["y_true"])
    large_moved = np.array(case["y_pred_large_moved"])
    small_moved = np.array(case["y_pred_small_moved"])
    (d1,) = np.flatnonzero(large_moved != y_true)
    (d3,) = np.flatnonzero(small_moved != y_true)
    assert large_moved[d1] == small_moved[d3]  # both moved into the middle class
    assert abs(y_true[d1] - large_moved[d1]) == abs(y_true[d3] - large_moved[d1]) == 1
    assert (y_true == y_true[d1]).sum() > (y_true == y_true[d3]).sum()
    expected = accuracy_score(y_true, large_moved)
    assert case["score_large_moved"] == case["score_small_moved"] == expected


def test_an_ideal_metric_holds_everything():
    # Macro MAE on positions, passed through a rank transform of the labels, is
    # invariant, monotonic and imbalance-aware: a control that the search does not
    # invent counterexamples.
    def ranked_macro_mae(y_true, y_pred):
        classes = np.unique(np.concatenate([y_true, y_pred]))
        positions = np.searchsorted(classes, y_true), np.searchsorted(classes, y_pred)
        return -macro_mean_absolute_error(*positions)

    results = check_metric_properties(ranked_macro_mae, random_state=1)
    assert {name: check.holds for name, check in results.items()} == dict.fromkeys(PROPERTIES, True)
    for check in results.values():
        assert check.counterexample is None and check.n_checked == 100


def test_scorer_and_callable_agree():
    by_scorer = check_metric_properties(get_scorer("neg_mean_absolute_error"), random_state=3)
    by_callable = check_metric_properties(_mae_micro, greater_is_better=False, random_state=3)
    assert by_scorer == by_callable
    # The wrong direction turns monotonicity into a violation.
    wrong_way = check_metric_properties(_mae_micro, random_state=3)
    assert not wrong_way["ordinal_monotonicity"].holds


def test_score_scorer_is_rejected():
    scorer = make_ordinal_scorer(_mae_micro, response="scores")
    with pytest.raises(ValueError, match="real-valued predictions"):
        check_metric_properties(scorer)


def test_undefined_cases_are_skipped():
    def undefined(y_true, y_pred):
        raise ValueError("never defined")

    results = check_metric_properties(undefined, n_trials=5, random_state=0)
    assert all(check.holds is None and check.n_checked == 0 for check in results.values())
    table = metric_properties_table({"undefined": undefined}, n_trials=5)
    assert table.loc["undefined"].isna().all()


def test_cem_ord_has_no_counterexample():
    # Table 2: CEM-ORD is the one measure with all three properties (no empty gold class).
    results = check_metric_properties(get_scorer("cem_ord"), random_state=0)
    assert all(check.holds and check.n_checked == 100 for check in results.values())


def test_appendix_b_examples_are_violations():
    # The paper's own counterexamples, run through the checker's predicates.
    from functools import partial

    from sklearn_ordinal.metaeval._properties import _CHECKS, _effectiveness

    _, _, invariance = _CHECKS["ordinal_invariance"]
    _, valid_mono, monotonicity = _CHECKS["ordinal_monotonicity"]
    _, valid_imb, imbalance = _CHECKS["imbalance"]
    mae = partial(_effectiveness, _mae_micro, -1)
    accuracy = partial(_effectiveness, accuracy_score, 1)

    # Ordinal invariance, f(x) = 10 + x^3: MAE((1,2,3), (3,4,5)) changes.
    items = {"y_true": np.array([3, 4, 5]), "y_pred": np.array([1, 2, 3])}
    mapping = {"mapping": 10 + np.arange(1, 6) ** 3}
    before, after, violated = invariance(mae, items, mapping)
    # f = 11, 18, 37, 74, 135: errors 37 - 11, 74 - 18, 135 - 37.
    assert (before, after) == (-2.0, -(26 + 56 + 98) / 3) and violated
    assert not invariance(accuracy, items, mapping)[2]

    # Ordinal monotonicity: (2, 3, 4) is closer to (3, 4, 5) than (1, 2, 3).
    items = {"y_true": np.array([3, 4, 5, 1, 2]), "y_pred": np.array([1, 2, 3, 1, 2]),
             "y_pred_closer": np.array([2, 3, 4, 1, 2])}
    assert valid_mono(items, {})
    assert monotonicity(accuracy, items, {}) == (0.4, 0.4, True)
    assert not monotonicity(mae, items, {})[2]

    # Imbalance: g = (1, 1, 2, 3); moving a 1 (large class) or the 3 (small) into 2.
    items = {"y_true": np.array([1, 1, 2, 3]), "moved": np.array([0, 1, 0, 3])}
    assert valid_imb(items, {"middle": 2})
    assert imbalance(accuracy, items, {"middle": 2}) == (0.75, 0.75, True)
    assert imbalance(mae, items, {"middle": 2}) == (-0.25, -0.25, True)


@pytest.mark.parametrize("bad", [lambda t, p: None, lambda t, p: [0.5, 0.5]], ids=["None", "list"])
def test_metric_returning_no_number_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="must return one real number"):
        check_metric_properties(bad, n_trials=2, random_state=0)


def test_each_property_sees_the_same_cases_whatever_the_others_find():
    # Both metrics are the MAE on the cases of monotonicity and imbalance (labels
    # 1..5); on the relabelled invariance cases one stops after a few violations,
    # the other is undefined on all of them. The later properties must not notice.
    def mae_undefined_when_relabelled(y_true, y_pred):
        if max(np.max(y_true), np.max(y_pred)) > 5:
            raise ValueError("undefined")
        return -macro_mean_absolute_error(y_true, y_pred)

    def mae(y_true, y_pred):
        return -macro_mean_absolute_error(y_true, y_pred)

    stopping = check_metric_properties(mae, n_trials=40, random_state=3)
    undefined = check_metric_properties(mae_undefined_when_relabelled, n_trials=40, random_state=3)
    assert stopping["ordinal_invariance"].holds is False
    assert undefined["ordinal_invariance"].n_checked == 0
    for name in ("ordinal_monotonicity", "imbalance"):
        assert stopping[name] == undefined[name]
