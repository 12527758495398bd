"""Ranked probability score: hand-computed values, peers' conventions, properties."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sklearn_ordinal.metrics import ranked_probability_score_loss

# The example that skordinal's and dlordinal's docstrings share (their value 0.506875).
Y_TRUE = np.array([0, 0, 3, 2])
Y_PROBA = np.array(
    [
        [0.2, 0.4, 0.2, 0.2],
        [0.7, 0.1, 0.1, 0.1],
        [0.5, 0.05, 0.1, 0.35],
        [0.1, 0.05, 0.65, 0.2],
    ]
)


def _yardstick_rps(y_true, y_proba, classes, weights):
    """R yardstick's rps, one item and one class at a time: the squared differences
    of the cumulative distributions, summed over the classes, divided by K - 1, and
    averaged over the items with their case weights."""
    n_classes = len(classes)
    total = 0.0
    for truth, row, weight in zip(y_true, y_proba, weights):
        predicted_cumulative = observed_cumulative = 0.0
        item = 0.0
        for k, label in enumerate(classes):
            predicted_cumulative += row[k]
            observed_cumulative += 1.0 if label == truth else 0.0
            item += (predicted_cumulative - observed_cumulative) ** 2
        total += weight * item / (n_classes - 1)
    return total / sum(weights)


def test_hand_computed_value_shared_by_skordinal_and_dlordinal():
    # Item by item (cumulative forecasts against the true steps, first K - 1 classes):
    # 0.84 + 0.15 + 0.9975 + 0.04 = 2.0275, over 4 items.
    labels = [0, 1, 2, 3]
    assert ranked_probability_score_loss(Y_TRUE, Y_PROBA, labels=labels) == pytest.approx(0.506875)
    assert ranked_probability_score_loss(
        Y_TRUE, Y_PROBA, labels=labels, normalize=True
    ) == pytest.approx(0.506875 / 3)


def test_a_class_missing_from_y_true_needs_labels():
    # Class 1 has no item: which column is which cannot be told (scikit-learn's
    # log_loss refuses too); skordinal and dlordinal read y_true as column indices.
    with pytest.raises(ValueError, match=r"4 columns but there are 3 classes \[0, 2, 3\]"):
        ranked_probability_score_loss(Y_TRUE, Y_PROBA)


def test_matches_skordinal_with_weights():
    skordinal = pytest.importorskip("skordinal.metrics")
    rng = np.random.RandomState(0)
    for n_classes in (2, 3, 5, 8):
        y_true = rng.randint(n_classes, size=50)
        y_true[:n_classes] = np.arange(n_classes)
        y_proba = rng.dirichlet(np.ones(n_classes), size=50)
        weights = rng.uniform(0.1, 3.0, size=50)
        expected = skordinal.ranked_probability_score(y_true, y_proba, sample_weight=weights)
        assert ranked_probability_score_loss(y_true, y_proba, sample_weight=weights) == pytest.approx(
            expected
        )


def test_extreme_values():
    # All the probability on the class farthest from the truth: K - 1, or 1 normalised.
    for n_classes in (2, 3, 6):
        y_proba = np.zeros((2, n_classes))
        y_proba[0, -1] = y_proba[1, 0] = 1.0
        y_true, labels = [0, n_classes - 1], range(n_classes)
        assert ranked_probability_score_loss(y_true, y_proba, labels=labels) == n_classes - 1
        assert ranked_probability_score_loss(y_true, y_proba, labels=labels, normalize=True) == 1.0


def test_distance_matters_unlike_the_log_loss():
    # The same probability on the true class; the rest one class away or two.
    near = ranked_probability_score_loss([0], [[0.5, 0.5, 0.0]], labels=[0, 1, 2])
    far = ranked_probability_score_loss([0], [[0.5, 0.0, 0.5]], labels=[0, 1, 2])
    assert near == pytest.approx(0.25) and far == pytest.approx(0.5)


def test_columns_follow_the_class_order_not_the_alphabet():
    proba = [[0.8, 0.2, 0.0]]  # mostly "low"
    order = ["low", "mid", "high"]
    assert ranked_probability_score_loss(["low"], proba, labels=order) == pytest.approx(0.2**2 + 0.0)
    assert ranked_probability_score_loss(["high"], proba, labels=order) == pytest.approx(0.8**2 + 1.0**2)


def test_row_sums_within_tolerance_pass():
    y_proba = Y_PROBA * (1 + 5e-7)
    assert ranked_probability_score_loss(Y_TRUE, y_proba, labels=range(4)) == pytest.approx(
        0.506875, rel=1e-5
    )


@st.composite
def forecasts(draw):
    n_classes = draw(st.integers(2, 6))
    n = draw(st.integers(1, 25))
    y_true = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)))
    raw = np.array(
        draw(st.lists(st.floats(0.0, 1.0), min_size=n * n_classes, max_size=n * n_classes))
    ).reshape(n, n_classes)
    raw[:, 0] += 1e-3  # no all-zero row
    weights = np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)))
    if not weights.any():
        weights[0] = 1
    return y_true, raw / raw.sum(axis=1, keepdims=True), weights, n_classes


@given(data=forecasts())
def test_matches_yardstick_brute_force(data):
    y_true, y_proba, weights, n_classes = data
    classes = np.arange(n_classes)
    expected = _yardstick_rps(y_true, y_proba, classes, weights)
    got = ranked_probability_score_loss(
        y_true, y_proba, labels=classes, sample_weight=weights, normalize=True
    )
    assert got == pytest.approx(expected, abs=1e-12)
    unscaled = ranked_probability_score_loss(y_true, y_proba, labels=classes, sample_weight=weights)
    assert unscaled == pytest.approx(expected * (n_classes - 1), abs=1e-12)


@given(data=forecasts())
def test_one_hot_forecast_of_the_truth_is_zero(data):
    y_true, _, weights, n_classes = data
    one_hot = np.eye(n_classes)[y_true]
    assert ranked_probability_score_loss(
        y_true, one_hot, labels=range(n_classes), sample_weight=weights
    ) == 0.0


@given(data=forecasts(), shift=st.integers(-5, 5), scale=st.integers(1, 9))
def test_unchanged_by_a_relabelling_that_keeps_the_order(data, shift, scale):
    y_true, y_proba, weights, n_classes = data
    classes = np.arange(n_classes)
    expected = ranked_probability_score_loss(y_true, y_proba, labels=classes, sample_weight=weights)
    relabel = np.cumsum(np.arange(1, n_classes + 1) * scale) + shift  # increasing, uneven
    assert ranked_probability_score_loss(
        relabel[y_true], y_proba, labels=relabel, sample_weight=weights
    ) == pytest.approx(expected)
    names = np.array([f"grade {chr(ord('z') - k)}" for k in classes])  # reverse alphabet
    assert ranked_probability_score_loss(
        names[y_true], y_proba, labels=names, sample_weight=weights
    ) == pytest.approx(expected)


@given(data=forecasts())
def test_weights_are_repetitions_and_zero_weight_is_a_dropped_row(data):
    y_true, y_proba, weights, n_classes = data
    labels = np.arange(n_classes)
    weighted = ranked_probability_score_loss(y_true, y_proba, labels=labels, sample_weight=weights)
    repeated = ranked_probability_score_loss(
        np.repeat(y_true, weights), np.repeat(y_proba, weights, axis=0), labels=labels
    )
    assert weighted == pytest.approx(repeated)
    kept = weights > 0
    assert weighted == pytest.approx(
        ranked_probability_score_loss(
            y_true[kept], y_proba[kept], labels=labels, sample_weight=weights[kept]
        )
    )
