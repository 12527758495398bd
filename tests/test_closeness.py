"""CEM: the paper's numbers, its formal properties, and a brute force by definition."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import accuracy_score

from sklearn_ordinal.metrics import class_proximity, cem_score, mean_absolute_error
from sklearn_ordinal.metrics._closeness import _interval_stretch, _proximity

SCALES = ["ordinal", "nominal", "interval"]
APPENDIX_A_CLASSES = ["neg", "neu", "pos"]
# Confusion matrices of the paper's Appendix A: rows = predicted, columns = gold.
SYSTEM_A = np.array([[5, 5, 7], [1, 50, 8], [4, 5, 15]])
SYSTEM_B = np.array([[7, 12, 4], [1, 45, 8], [2, 3, 18]])


def _items(pred_by_gold, classes):
    """Labels ``(y_true, y_pred)`` whose counts are ``pred_by_gold[pred, gold]``."""
    counts = np.asarray(pred_by_gold).ravel()
    classes = np.asarray(classes)
    n = len(classes)
    y_pred = np.repeat(np.repeat(classes, n), counts)
    y_true = np.repeat(np.tile(classes, n), counts)
    return y_true, y_pred


# --- Brute force, straight from the definition, one item at a time ------------------


def _closer(x, a, b, scale, values):
    """Is class x at least as close to b as a is, on the scale (paper, Definition 1)?"""
    if scale == "ordinal":
        return min(a, b) <= x <= max(a, b)
    if scale == "nominal":
        return x == b or b != a
    return abs(values[x] - values[b]) <= abs(values[a] - values[b])


def _brute_prox(gold, weights, a, b, scale, values, flat):
    total = sum(weights)
    mass = sum(
        w / 2 if x == a else w * _closer(x, a, b, scale, values) for x, w in zip(gold, weights)
    )
    probability = mass / total
    if flat:
        return 1 - probability
    return math.inf if probability == 0 else -math.log2(probability)


def _brute_cem(gold, pred, weights, scale, values, flat):
    def prox(a, b):
        return _brute_prox(gold, weights, a, b, scale, values, flat)

    achieved = sum(w * prox(s, g) for s, g, w in zip(pred, gold, weights))
    best = sum(w * prox(g, g) for g, w in zip(gold, weights))
    return achieved / best


@st.composite
def _systems(draw, min_classes=1, max_classes=6, weighted=None, every_class_in_gold=False):
    """Gold and predicted class codes in 0..K-1, optional weights, class values."""
    n_classes = draw(st.integers(min_classes, max_classes))
    n = draw(st.integers(max(1, n_classes if every_class_in_gold else 1), 30))
    codes = st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)
    gold = np.array(draw(codes))
    if every_class_in_gold:
        gold[:n_classes] = np.arange(n_classes)
    pred = np.array(draw(codes))
    if weighted is None:
        weighted = draw(st.booleans())
    weights = None
    if weighted:
        weights = np.array(draw(st.lists(st.floats(0.1, 5.0), min_size=n, max_size=n)))
    steps = draw(st.lists(st.floats(0.1, 10.0), min_size=n_classes, max_size=n_classes))
    values = np.cumsum(steps) - 3.0
    return n_classes, gold, pred, weights, values


# --- The paper's numbers -------------------------------------------------------------


def test_appendix_a_proximity_table():
    gold = np.repeat(APPENDIX_A_CLASSES, [10, 60, 30])
    expected = [[4.32, 0.62, 0.07], [1.32, 1.74, 0.74], [0.23, 0.42, 2.74]]
    proximity = class_proximity(gold, labels=APPENDIX_A_CLASSES)
    assert np.round(proximity, 2).tolist() == expected
    assert proximity[0, 1] == pytest.approx(-np.log2((10 / 2 + 60) / 100))
    assert proximity[2, 0] == pytest.approx(-np.log2((30 / 2 + 60 + 10) / 100))


@pytest.mark.parametrize("system, expected", [(SYSTEM_A, 0.71170), (SYSTEM_B, 0.75962)])
def test_appendix_a_systems(system, expected):
    y_true, y_pred = _items(system, APPENDIX_A_CLASSES)
    assert cem_score(y_true, y_pred, labels=APPENDIX_A_CLASSES) == pytest.approx(expected, abs=5e-6)
    # Both systems have accuracy 0.70; CEM prefers B, which errs less across the scale.
    assert accuracy_score(y_true, y_pred) == pytest.approx(0.70)


def test_figure_1_proximities():
    reviews = ["reject", "weak_reject", "undecided", "weak_accept", "accept"]
    left = class_proximity(np.repeat(reviews, [7, 105, 193, 90, 7]), labels=reviews)
    assert left[3, 1] == pytest.approx(0.229, abs=5e-4)  # weak accept vs weak reject
    assert left[0, 0] == pytest.approx(6.84, abs=5e-3)
    assert left[2, 2] == pytest.approx(2.06, abs=5e-3)
    right = class_proximity(np.repeat(reviews, [180, 10, 3, 10, 173]), labels=reviews)
    assert right[3, 1] == pytest.approx(4.385, abs=5e-4)


def test_interval_scale_by_hand():
    # Values 0, 1, 3; gold counts 2, 4, 2. Predicting class 0 for a true class 1:
    # |0 - 1| = 1, class 2 is 2 away, so only classes 0 (half) and 1 qualify.
    gold = np.repeat([0, 1, 3], [2, 4, 2])
    proximity = class_proximity(gold, scale="interval")
    assert proximity[0, 1] == pytest.approx(-np.log2((1 + 4) / 8))
    # With values 0, 1, 2, class 2 is as close to class 1 as class 0 is.
    proximity = class_proximity(gold, scale="interval", class_values=[0, 1, 2])
    assert proximity[0, 1] == pytest.approx(-np.log2((1 + 4 + 2) / 8))
    # The ordinal scale never counts the class on the far side.
    assert class_proximity(gold)[0, 1] == pytest.approx(-np.log2((1 + 4) / 8))


# --- Brute force ---------------------------------------------------------------------


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("flat", [False, True])
@given(system=_systems())
def test_cem_matches_brute_force(scale, flat, system):
    n_classes, gold, pred, weights, values = system
    labels = np.arange(n_classes)
    expected = _brute_cem(
        gold, pred, np.ones(len(gold)) if weights is None else weights, scale, values, flat
    )
    got = cem_score(
        gold, pred, scale=scale, flat=flat, labels=labels, class_values=values,
        sample_weight=weights,
    )
    assert got == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("flat", [False, True])
@given(system=_systems(every_class_in_gold=True))
def test_class_proximity_matches_brute_force(scale, flat, system):
    n_classes, gold, _, weights, values = system
    ones = np.ones(len(gold)) if weights is None else weights
    expected = [
        [_brute_prox(gold, ones, a, b, scale, values, flat) for b in range(n_classes)]
        for a in range(n_classes)
    ]
    got = class_proximity(
        gold, scale=scale, flat=flat, class_values=values, sample_weight=weights
    )
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)


def test_class_without_gold_item():
    # Class 2 is only predicted, class 3 only named in labels.
    y_true, y_pred, labels = [0, 0, 1], [2, 0, 1], [0, 1, 2, 3]
    with pytest.warns(UndefinedMetricWarning, match=r"\[2, 3\].*infinite"):
        proximity = class_proximity(y_true, labels=labels)
    # Infinite exactly where no gold item lies close enough: P = 0.
    assert np.isinf(proximity).tolist() == [
        [False, False, False, False],
        [False, False, False, False],
        [False, False, True, True],
        [False, False, True, True],
    ]
    # CEM never uses those entries: it is finite and warns about nothing.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        score = cem_score(y_true, y_pred, labels=labels)
    expected = _brute_cem([0, 0, 1], [2, 0, 1], [1, 1, 1], "ordinal", None, False)
    assert score == pytest.approx(expected)
    # Every gold item lies between class 3 and class 0: prox = -log2(1) = 0 (not -0).
    assert str(proximity[3, 0]) == "0.0"


# --- Proximities of some pairs, and the runs of classes behind them -------------------


@st.composite
def _class_values(draw, n_classes):
    """Increasing class values of every kind the interval scale treats apart: whole
    numbers close together or far apart, fractions, and values so far apart that
    distances from the first class round to the same number (ties on one side)."""
    kind = draw(st.sampled_from(["close", "far", "fractions", "rounded"]))
    if kind in ("close", "far"):
        high = 3 if kind == "close" else 10**6
        steps = draw(st.lists(st.integers(1, high), min_size=n_classes, max_size=n_classes))
        return draw(st.integers(-50, 50)) + np.cumsum(steps).astype(np.float64)
    steps = draw(st.lists(st.floats(0.1, 10.0), min_size=n_classes, max_size=n_classes))
    values = draw(st.floats(-1e3, 1e3)) + np.cumsum(steps)
    if kind == "rounded":
        values[0] = -1e20
    return values


@st.composite
def _weights_values_and_pairs(draw):
    n_classes = draw(st.integers(1, 7))
    weight = st.one_of(st.just(0.0), st.integers(1, 9).map(float), st.floats(0.01, 5.0))
    n_matrices = draw(st.sampled_from([(), (2,)]))  # one gold standard, or a stack
    size = n_classes * int(np.prod(n_matrices))
    weights = np.array(draw(st.lists(weight, min_size=size, max_size=size)))
    weights = weights.reshape(n_matrices + (n_classes,))
    assume((weights.sum(axis=-1) > 0).all())
    # From one pair to every pair, so that each way of finding the runs is used.
    position = st.integers(0, n_classes - 1)
    n_pairs = draw(st.integers(1, n_classes**2))
    predicted = np.array(draw(st.lists(position, min_size=n_pairs, max_size=n_pairs)))
    true = np.array(draw(st.lists(position, min_size=n_pairs, max_size=n_pairs)))
    return weights, draw(_class_values(n_classes)), predicted, true


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("flat", [False, True])
@given(case=_weights_values_and_pairs())
def test_proximity_of_pairs_is_the_table_entry(scale, flat, case):
    # cem_score computes proximities only at the cells with weight; they must be the
    # table's entries to the last bit (infinite ones included).
    weights, values, predicted, true = case
    with np.errstate(divide="ignore", invalid="ignore"):
        table = _proximity(weights, values, scale, flat)
        pairs = _proximity(weights, values, scale, flat, predicted, true)
    np.testing.assert_array_equal(pairs, table[..., predicted, true])


@given(case=_weights_values_and_pairs())
def test_interval_runs_are_the_definition(case):
    # The classes at least as close to b as a is, tested one by one with the
    # definition's floating-point test, are exactly the run lo..hi.
    _, values, predicted, true = case
    n_classes = len(values)
    every = np.arange(n_classes)
    for pairs in [(predicted, true), (every[:, np.newaxis], every)]:
        lo, hi = np.broadcast_arrays(*_interval_stretch(values, *pairs))
        for (a, b), first, last in zip(np.broadcast(*pairs), lo.ravel(), hi.ravel()):
            closer = [
                x for x in range(n_classes)
                if abs(values[x] - values[b]) <= abs(values[a] - values[b])
            ]
            assert (first, last) == (closer[0], closer[-1])
            assert closer == list(range(first, last + 1))


def test_far_apart_values_tie_on_one_side():
    # From -1e20, the distances to 0, 1 and 2 round to the same number, so predicting
    # class 1 for true class 0 counts classes 1, 2 and 3 (the definition, in floats).
    values = np.array([-1e20, 0.0, 1.0, 2.0])
    assert [int(end) for end in _interval_stretch(values, np.array(1), np.array(0))] == [0, 3]
    proximity = class_proximity(
        np.repeat([0, 1, 2, 3], [1, 2, 3, 4]), scale="interval", class_values=values
    )
    assert proximity[1, 0] == pytest.approx(-np.log2((1 + 2 / 2 + 3 + 4) / 10))


# --- Identities ----------------------------------------------------------------------


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("flat", [False, True])
@given(system=_systems())
def test_gold_against_itself_is_one(scale, flat, system):
    _, gold, _, weights, values = system
    labels = np.unique(gold)
    score = cem_score(
        gold, gold, scale=scale, flat=flat, sample_weight=weights,
        class_values=values[labels],
    )
    assert score == pytest.approx(1.0)


@given(system=_systems())
def test_class_values_do_not_change_the_ordinal_scale(system):
    n_classes, gold, pred, weights, values = system
    labels = np.arange(n_classes)
    for flat in (False, True):
        expected = cem_score(gold, pred, flat=flat, labels=labels, sample_weight=weights)
        got = cem_score(
            gold, pred, flat=flat, labels=labels, class_values=values, sample_weight=weights
        )
        assert got == expected


@given(system=_systems())
def test_integer_weights_equal_repeated_rows(system):
    n_classes, gold, pred, _, values = system
    weights = np.arange(len(gold)) % 3 + 1
    for scale in SCALES:
        repeated = cem_score(
            np.repeat(gold, weights), np.repeat(pred, weights), scale=scale,
            labels=np.arange(n_classes), class_values=values,
        )
        weighted = cem_score(
            gold, pred, scale=scale, labels=np.arange(n_classes), class_values=values,
            sample_weight=weights,
        )
        assert weighted == pytest.approx(repeated, rel=1e-12)


@pytest.mark.parametrize("scale", SCALES)
def test_string_and_number_labels_agree(scale):
    rng = np.random.RandomState(0)
    gold, pred = rng.randint(5, size=50), rng.randint(5, size=50)
    order = ["awful", "poor", "fair", "good", "great"]
    names = np.array(order)
    # String labels in their given order take their positions as values, like 0..4.
    assert cem_score(names[gold], names[pred], scale=scale, labels=order) == pytest.approx(
        cem_score(gold, pred, scale=scale)
    )


@given(
    n_classes=st.integers(2, 6),
    per_class=st.integers(1, 6),
    data=st.data(),
)
def test_proposition_1_nominal_cem_is_affine_in_accuracy(n_classes, per_class, data):
    # Uniform gold: prox(a, a) = log2(2K) and prox(a, b) = -log2(1 - 1/(2K)) for
    # a != b, so CEM_NOM = c + (1 - c) * accuracy with c = the second over the first.
    gold = np.repeat(np.arange(n_classes), per_class)
    pred = np.array(
        data.draw(st.lists(st.integers(0, n_classes - 1), min_size=len(gold), max_size=len(gold)))
    )
    offset = -np.log2(1 - 1 / (2 * n_classes)) / np.log2(2 * n_classes)
    accuracy = accuracy_score(gold, pred)
    cem = cem_score(gold, pred, scale="nominal", labels=np.arange(n_classes))
    assert cem == pytest.approx(offset + (1 - offset) * accuracy)


# --- Formal properties of section 4.1 ------------------------------------------------


@given(system=_systems(), data=st.data())
def test_ordinal_invariance(system, data):
    n_classes, gold, pred, weights, _ = system
    # A random strictly increasing f on the class codes, applied to both sides.
    steps = data.draw(st.lists(st.integers(1, 1000), min_size=n_classes, max_size=n_classes))
    f = np.cumsum(steps) - 500
    for flat in (False, True):
        expected = cem_score(gold, pred, flat=flat, sample_weight=weights)
        assert cem_score(f[gold], f[pred], flat=flat, sample_weight=weights) == pytest.approx(
            expected, rel=1e-12
        )


@pytest.mark.parametrize("flat", [False, True])
@given(system=_systems(min_classes=2, weighted=False, every_class_in_gold=True), data=st.data())
def test_ordinal_monotonicity(flat, system, data):
    n_classes, gold, pred, _, _ = system
    # s' moves some predictions strictly towards the truth (possibly onto it), never away.
    movable = np.flatnonzero(pred != gold)
    assume(len(movable) > 0)
    moved = data.draw(st.lists(st.sampled_from(movable.tolist()), min_size=1, unique=True))
    better = pred.copy()
    for d in moved:
        low, high = sorted((pred[d], gold[d]))
        choices = [c for c in range(low, high + 1) if c != pred[d]]
        better[d] = data.draw(st.sampled_from(choices))
    labels = np.arange(n_classes)
    assert cem_score(gold, better, flat=flat, labels=labels) > cem_score(
        gold, pred, flat=flat, labels=labels
    )


def test_monotonicity_needs_every_class_in_gold():
    # Classes 1 and 2 have no gold item: moving predictions from 1 to 2 gains nothing.
    gold, labels = [3, 3], [1, 2, 3]
    assert cem_score(gold, [2, 2], labels=labels) == cem_score(gold, [1, 1], labels=labels)


@pytest.mark.parametrize("scale", ["ordinal", "nominal"])
@given(
    counts=st.lists(st.integers(1, 8), min_size=3, max_size=6),
    data=st.data(),
)
def test_imbalance(scale, counts, data):
    # Contiguous classes c1, c2, c3 with n_c1 > n_c3: predicting c2 for one gold c1
    # item costs less than predicting c2 for one gold c3 item.
    middle = data.draw(st.integers(1, len(counts) - 2))
    below, above = middle - 1, middle + 1
    assume(counts[below] != counts[above])
    large, small = (below, above) if counts[below] > counts[above] else (above, below)
    gold = np.repeat(np.arange(len(counts)), counts)

    def moved(source):
        pred = gold.copy()
        pred[np.flatnonzero(gold == source)[0]] = middle
        return cem_score(gold, pred, scale=scale)

    assert moved(large) > moved(small)


# --- Appendix B: the counterexamples, and CEM-ORD where the others fail --------------


def _cube(x):
    return 10 + np.asarray(x) ** 3


def test_appendix_b_mae_breaks_ordinal_invariance():
    gold, system = [3, 4, 5], [1, 2, 3]
    assert mean_absolute_error(gold, system, average="micro") != pytest.approx(
        mean_absolute_error(_cube(gold), _cube(system), average="micro")
    )
    assert cem_score(gold, system) == cem_score(_cube(gold), _cube(system))


def test_appendix_b_accuracy_breaks_monotonicity():
    gold, worse, better = [3, 4, 5], [1, 2, 3], [2, 3, 4]
    assert accuracy_score(gold, worse) == accuracy_score(gold, better)
    labels = [1, 2, 3, 4, 5]
    assert cem_score(gold, better, labels=labels) > cem_score(gold, worse, labels=labels)


def test_appendix_b_imbalance():
    gold = [1, 1, 2, 3]
    small_class_moved, large_class_moved = [1, 2, 2, 3], [1, 1, 2, 2]
    assert accuracy_score(gold, small_class_moved) == accuracy_score(gold, large_class_moved)
    assert cem_score(gold, small_class_moved) > cem_score(gold, large_class_moved)


# --- Bad input -------------------------------------------------------------------------


def test_unknown_scale_is_a_clear_value_error():
    with pytest.raises(ValueError, match="scale"):
        cem_score([0, 1], [0, 1], scale="ratio")
    with pytest.raises(ValueError, match="scale"):
        class_proximity([0, 1], scale="ratio")


@pytest.mark.parametrize("scale", SCALES)
def test_class_values_are_checked_on_every_scale(scale):
    with pytest.raises(ValueError, match="strictly increasing"):
        cem_score([0, 1, 2], [0, 2, 1], scale=scale, class_values=[0, 2, 1])
    with pytest.raises(ValueError, match="one number per class"):
        class_proximity([0, 1, 2], scale=scale, class_values=[0, 1])


def test_only_the_interval_scale_needs_increasing_numeric_labels():
    # Numbers given as labels in a custom order are fine when distances play no part.
    labels = [3, 1, 2]
    assert cem_score([3, 1, 2], [3, 1, 2], labels=labels) == 1.0
    with pytest.raises(ValueError, match="class_values"):
        cem_score([3, 1, 2], [3, 1, 2], labels=labels, scale="interval")
    assert cem_score(
        [3, 1, 2], [3, 1, 2], labels=labels, scale="interval", class_values=[0, 1, 2]
    ) == 1.0
