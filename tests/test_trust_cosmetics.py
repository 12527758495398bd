"""Issue #28, the visible cosmetics: values inside the measure's range, no tuple
arithmetic on the intermediates, categories read by value, classes written as given."""

import warnings

import numpy as np
import pandas as pd
import pytest

from sklearn_ordinal import evaluate
from sklearn_ordinal.metrics import (
    OrdinalConfusion,
    ScoreTable,
    cem_score,
    mean_absolute_error,
)
from sklearn_ordinal.stats import score_interval


def test_a_perfect_cem_never_exceeds_one():
    # Found by search: the two sums of CEM group their terms differently, and gave
    # 1.0000000000000002 here before the clip.
    rng = np.random.default_rng(1)
    found = 0
    for _ in range(400):
        k = rng.integers(2, 40)
        y = rng.integers(0, k, rng.integers(2, 400))
        weights = rng.exponential(1, len(y))
        for scale in ("ordinal", "interval"):
            value = cem_score(y, y, sample_weight=weights, scale=scale)
            assert 1.0 - 1e-15 <= value <= 1.0
            found += 1
    assert found == 800


@pytest.mark.parametrize("seed", range(5))
def test_interval_ends_stay_in_the_measures_range(seed):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 30)
    scores = y + rng.normal(0, 0.35, 30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # The basic interval reflects the quantiles about the estimate: near VUS = 1
        # its upper end went above 1 (1.07 for seed 1).
        result = score_interval("vus", y, scores, method="basic", n_resamples=99,
                                random_state=seed)
    low, high = result.confidence_interval
    assert 0.0 <= low <= high <= 1.0


def test_error_interval_ends_stay_non_negative():
    y = np.array([0, 1, 2] * 10)
    y_pred = y.copy()
    y_pred[0] = 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = score_interval("mean_absolute_error", y, y_pred, method="basic",
                                n_resamples=99, random_state=0)
    assert result.confidence_interval.low >= 0.0


@pytest.mark.parametrize("intermediate, output", [
    (OrdinalConfusion, [1, 2, 2]), (ScoreTable, [0.1, 0.5, 0.7]),
])
def test_intermediates_refuse_multiplication(intermediate, output):
    total = intermediate.from_predictions([1, 2, 2], output)
    for product in (lambda: total * 2, lambda: 2 * total):
        with pytest.raises(TypeError, match="cannot be multiplied.*sample_weight"):
            product()
    assert isinstance(total + total, intermediate)


def test_an_unordered_categorical_prediction_is_read_by_value_not_by_code():
    order = ["low", "mid", "high"]
    y_true = pd.Categorical(["low", "mid", "high", "high"], categories=order, ordered=True)
    # Categories in another order: their codes mean other classes than y_true's.
    y_pred = pd.Categorical(["low", "mid", "high", "low"], categories=["high", "low", "mid"])
    expected = mean_absolute_error(y_true, np.asarray(y_pred))
    assert expected == pytest.approx(0.5)
    assert mean_absolute_error(y_true, y_pred) == expected
    assert (OrdinalConfusion.from_predictions(y_true, y_pred).score(mean_absolute_error)
            == expected)


def test_the_csv_report_writes_an_integer_trivial_class_as_an_integer():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = evaluate([1, 2, 3, 3, 3, 2], {"a": [1, 2, 3, 3, 2, 2]},
                          measures=["accuracy"], n_resamples=99, random_state=0)
    rows = report.to_csv().splitlines()
    trivial = [row for row in rows if row.startswith("(trivial)")]
    assert trivial and trivial[0].split(",")[7] == "3"
    assert report.to_frame()["trivial_class"].tolist() == [None, 3]


def test_two_ordered_categoricals_in_different_orders_are_refused():
    order = ["low", "mid", "high"]
    y_true = pd.Categorical(["low", "mid", "high", "high"], categories=order, ordered=True)
    y_pred = pd.Categorical(["low", "mid", "high", "low"], categories=["high", "low", "mid"],
                            ordered=True)
    message = r"ordered Categoricals of the same classes in different orders"
    with pytest.raises(ValueError, match=message):
        mean_absolute_error(y_true, y_pred)
    with pytest.raises(ValueError, match=message):
        OrdinalConfusion.from_predictions(y_true, y_pred)
    # labels= says which order holds.
    assert mean_absolute_error(y_true, y_pred, labels=order) == pytest.approx(0.5)


def test_an_ordered_categorical_prediction_beside_plain_strings_is_read_as_strings():
    order = ["low", "mid", "high"]
    y_pred = pd.Categorical(["low", "mid", "high", "low"], categories=order, ordered=True)
    # It said "y_pred holds number labels" (the Categorical's items as objects).
    with pytest.raises(ValueError, match="y_true holds string labels, whose order cannot"):
        mean_absolute_error(np.array(["low", "mid", "high", "high"]), y_pred)
