"""Weighted kappa with weights on class values (the reading of Amigó et al. 2020, Table 2)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import cohen_kappa_score

from sklearn_ordinal.metrics._agreement import _cohen_kappa, _value_weighted_kappa


@st.composite
def _case(draw):
    n_classes = draw(st.integers(2, 6))
    n = draw(st.integers(2, 25))
    codes = st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)
    y_true, y_pred = np.array(draw(codes)), np.array(draw(codes))
    weights = None
    if draw(st.booleans()):
        # Zero drops an item; no subnormal weights, which float64 cannot hold next to
        # 4.0 (a ValueError, tested in test_labels).
        weight = st.one_of(st.just(0.0), st.floats(1e-6, 4.0))
        weights = np.array(draw(st.lists(weight, min_size=n, max_size=n)))
        weights[0] = 1.0  # never all zero
    steps = draw(st.lists(st.floats(0.1, 10.0), min_size=n_classes, max_size=n_classes))
    return n_classes, y_true, y_pred, weights, np.cumsum(steps)


def _defined(y_true, y_pred, weights):
    used = weights is None or weights > 0
    return len(np.union1d(y_true[used], y_pred[used])) > 1


@given(_case(), st.sampled_from(["linear", "quadratic"]))
def test_positions_as_values_is_scikit_learns_weighted_kappa(case, weights):
    # Labels 0..K-1 are their own values and positions: the two readings coincide.
    n_classes, y_true, y_pred, sample_weight, _ = case
    if not _defined(y_true, y_pred, sample_weight):
        return
    labels = np.arange(n_classes)
    expected = cohen_kappa_score(
        y_true, y_pred, labels=labels, weights=weights, sample_weight=sample_weight
    )
    got = _value_weighted_kappa(
        y_true, y_pred, weights=weights, labels=labels, sample_weight=sample_weight
    )
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)


def _brute_force(y_true, y_pred, values, power, sample_weight):
    """1 - mean disagreement of the items / mean disagreement of all (true, pred) pairings."""
    w = np.ones(len(y_true)) if sample_weight is None else sample_weight
    distance = np.abs(values[y_true] - values[y_pred]) ** power
    observed = np.sum(w * distance) / w.sum()
    chance = sum(
        w[a] * w[b] * abs(values[y_true[a]] - values[y_pred[b]]) ** power
        for a in range(len(y_true))
        for b in range(len(y_true))
    ) / w.sum() ** 2
    return 1 - observed / chance


@given(_case(), st.sampled_from([("linear", 1), ("quadratic", 2)]))
def test_non_equidistant_values_match_a_brute_force_formula(case, weighting):
    n_classes, y_true, y_pred, sample_weight, values = case
    if not _defined(y_true, y_pred, sample_weight):
        return
    name, power = weighting
    got = _value_weighted_kappa(
        y_true, y_pred, weights=name, labels=np.arange(n_classes), class_values=values,
        sample_weight=sample_weight,
    )
    expected = _brute_force(y_true, y_pred, values, power, sample_weight)
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_relabelling_changes_it_but_not_the_positional_kappa():
    # Appendix B's map f(x) = 10 + x^3.
    y_true, y_pred = np.array([1, 2, 3, 3]), np.array([1, 3, 3, 2])
    image = 10 + np.arange(6) ** 3
    for weights in ("linear", "quadratic"):
        assert _value_weighted_kappa(y_true, y_pred, weights=weights) != pytest.approx(
            _value_weighted_kappa(image[y_true], image[y_pred], weights=weights)
        )
        assert _cohen_kappa(y_true, y_pred, weights=weights) == pytest.approx(
            _cohen_kappa(image[y_true], image[y_pred], weights=weights)
        )


def test_string_labels_use_positions_and_class_values_override():
    y_true, y_pred = ["lo", "mid", "hi", "hi"], ["lo", "hi", "hi", "mid"]
    labels = ["lo", "mid", "hi"]
    assert _value_weighted_kappa(y_true, y_pred, labels=labels) == pytest.approx(
        _value_weighted_kappa([0, 1, 2, 2], [0, 2, 2, 1])
    )
    assert _value_weighted_kappa(
        y_true, y_pred, labels=labels, class_values=[1, 2, 10]
    ) == pytest.approx(_value_weighted_kappa([1, 2, 10, 10], [1, 10, 10, 2]))


def test_undefined_and_bad_weights():
    with pytest.warns(UndefinedMetricWarning, match="one and the same class"):
        assert _value_weighted_kappa([2, 2], [2, 2]) == 0.0
    with pytest.raises(ValueError, match="'weights' parameter of value_weighted_kappa_score must be"):
        _value_weighted_kappa([1, 2], [1, 2], weights="cubic")


@given(_case(), st.data())
def test_linear_weights_are_monotonic_while_kappa_is_positive(case, data):
    # Moving predictions closer lowers the observed disagreement by some d and the
    # chance disagreement by at most d: kappa rises whenever it is above 0 (the claim
    # benchmarks/reproduce_cem_table2.py prints; below 0 it can stay or fall).
    n_classes, y_true, y_pred, _, values = case
    if not _defined(y_true, y_pred, None):
        return
    labels = np.arange(n_classes)
    before = _value_weighted_kappa(y_true, y_pred, labels=labels, class_values=values)
    wrong = np.flatnonzero(y_pred != y_true)
    if before <= 1e-9 or wrong.size == 0:  # above 0 beyond rounding
        return
    moved = data.draw(st.lists(st.sampled_from(wrong.tolist()), min_size=1, unique=True))
    closer = y_pred.copy()
    for j in moved:
        low, high = sorted((y_pred[j], y_true[j]))
        choices = [c for c in range(low, high + 1) if c != y_pred[j]]
        closer[j] = data.draw(st.sampled_from(choices))
    after = _value_weighted_kappa(y_true, closer, labels=labels, class_values=values)
    assert after > before


def test_linear_weights_can_stay_put_below_zero():
    # The counterexample the Table 2 reproduction prints: kappa -2/3 before and after.
    y_true, y_pred, closer = [1, 1, 1, 2, 3], [2, 2, 3, 1, 1], [2, 2, 2, 1, 1]
    assert _value_weighted_kappa(y_true, y_pred) == pytest.approx(-2 / 3)
    assert _value_weighted_kappa(y_true, closer) == pytest.approx(-2 / 3)
