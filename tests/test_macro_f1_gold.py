"""Issue #41, item 8: macro_f1_gold is a public function, as every measure is."""

import numpy as np
import pytest
from sklearn.metrics import f1_score

import sklearn_ordinal.metrics as metrics
from sklearn_ordinal.metrics import get_scorer, macro_f1_gold_score


def test_public_and_the_scorers_function():
    assert "macro_f1_gold_score" in metrics.__all__
    assert get_scorer("macro_f1_gold").score_func is macro_f1_gold_score


@pytest.mark.parametrize("seed", range(20))
def test_is_f1_score_over_the_gold_classes(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    names = np.array(["low", "mid", "high", "top"])
    y_true = names[rng.integers(0, 3, n)]  # "top" never true
    y_pred = names[rng.integers(0, 4, n)]
    weight = rng.choice([0.0, 0.5, 1.0, 3.0], n) if seed % 2 else None
    if weight is not None and weight.sum() == 0:
        weight[0] = 1.0
    gold = np.unique(y_true if weight is None else y_true[weight > 0])
    expected = f1_score(y_true, y_pred, labels=gold, average="macro", sample_weight=weight,
                        zero_division=0)
    assert macro_f1_gold_score(y_true, y_pred, sample_weight=weight) == pytest.approx(expected)


def test_the_documented_case_and_integer_labels():
    assert macro_f1_gold_score(["A"] * 3, ["A", "A", "B"]) == pytest.approx(0.8)
    assert macro_f1_gold_score(np.array([1, 1, 1], dtype=np.int8), [1, 1, 2]) == pytest.approx(0.8)
    assert macro_f1_gold_score([0, 1, 2], [0, 1, 2]) == 1.0
