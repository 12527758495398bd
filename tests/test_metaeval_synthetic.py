"""The synthetic task of Amigó et al. (2020), section 5.3: shapes, seeding, mistakes."""

import numpy as np
import pytest
from sklearn.metrics import accuracy_score

from sklearn_ordinal.metaeval import make_synthetic_ordinal_task, score_systems
from sklearn_ordinal.metaeval._synthetic import _gold_ordering, _mistakes

KINDS = ("random", "proximity", "majority", "tag_displacement", "ordinal_displacement")


@pytest.fixture(scope="module")
def task():
    return make_synthetic_ordinal_task(n_test_cases=20, n_items=200, random_state=0)


def test_shapes_and_system_grid(task):
    assert task.y_true.shape == (20, 200)
    assert task.y_pred.shape == (50, 20, 200)
    assert task.kind.tolist() == [kind for kind in KINDS for _ in range(10)]
    assert task.error_ratio.tolist() == pytest.approx(list(np.arange(1, 11) / 10) * 5)
    np.testing.assert_array_equal(task.classes, np.arange(1, 12))
    assert task.y_true.min() >= 1 and task.y_true.max() <= 11
    assert task.y_pred.min() >= 1 and task.y_pred.max() <= 11


def test_gold_standard_follows_the_rounded_normal(task):
    # Majority class 4 (the mean); spread grows from the first to the last test case.
    assert np.bincount(task.y_true.ravel()).argmax() == 4
    spread = task.y_true.std(axis=1)
    assert spread[:5].mean() < spread[-5:].mean()
    assert 0.8 < spread[0] < 1.3


def test_seeding():
    first = make_synthetic_ordinal_task(n_test_cases=3, n_items=30, random_state=42)
    again = make_synthetic_ordinal_task(n_test_cases=3, n_items=30, random_state=42)
    other = make_synthetic_ordinal_task(n_test_cases=3, n_items=30, random_state=43)
    np.testing.assert_array_equal(first.y_pred, again.y_pred)
    np.testing.assert_array_equal(first.y_true, again.y_true)
    assert (first.y_pred != other.y_pred).any()


def test_error_ratios(task):
    changed = (task.y_pred != task.y_true[np.newaxis]).mean(axis=(1, 2))
    for kind in KINDS:
        systems = task.kind == kind
        # A mistake may happen to hit the gold class, never the other way round.
        assert (changed[systems] <= task.error_ratio[systems] + 1e-12).all()
        assert (np.diff(changed[systems]) > 0).all(), kind
    random = task.kind == "random"
    # A uniform class is the gold one about once in 11.
    assert changed[random] == pytest.approx(task.error_ratio[random] * 10 / 11, abs=0.02)


@pytest.mark.parametrize("n_items", [7, 40, 200])
def test_each_system_errs_on_exactly_its_ratio_of_every_test_case(n_items):
    # With classes far above the gold ones, the next class is always a change.
    ratios = np.arange(11) / 10
    task = make_synthetic_ordinal_task(n_test_cases=6, n_items=n_items, n_classes=60,
                                       kinds="tag_displacement", error_ratios=ratios,
                                       random_state=n_items)
    assert task.y_true.max() < 60
    changed = (task.y_pred != task.y_true).sum(axis=2)
    expected = np.round(ratios * n_items).astype(int)
    np.testing.assert_array_equal(changed, np.repeat(expected[:, np.newaxis], 6, axis=1))


def _system(task, kind, ratio):
    (index,) = np.flatnonzero((task.kind == kind) & np.isclose(task.error_ratio, ratio))
    return task.y_pred[index]


def test_kinds_of_mistake(task):
    y_true = task.y_true
    majority = _system(task, "majority", 1.0)
    modes = [np.bincount(row).argmax() for row in y_true]
    np.testing.assert_array_equal(majority, np.repeat(modes, y_true.shape[1]).reshape(y_true.shape))

    next_class = _system(task, "tag_displacement", 1.0)
    np.testing.assert_array_equal(next_class, np.minimum(y_true + 1, 11))

    # Displacing every item by n/10 = 20 positions in the gold order: the output is
    # the sorted gold shifted by 20 positions, and never below the gold class; the
    # top 20 items, with no item 20 positions further, keep their gold class.
    displaced = _system(task, "ordinal_displacement", 1.0)
    assert (displaced >= y_true).all()
    for truth, output in zip(y_true, displaced):
        sorted_truth = np.sort(truth)
        expected = np.concatenate([sorted_truth[20:], sorted_truth[180:]])
        np.testing.assert_array_equal(np.sort(output), np.sort(expected))

    # Proximity: between the gold class and the class of a random position.
    proximity = _system(task, "proximity", 1.0)
    assert 0 < (proximity != y_true).mean() < (_system(task, "random", 1.0) != y_true).mean()
    assert np.abs(proximity - y_true).mean() < np.abs(_system(task, "random", 1.0) - y_true).mean()


# 20 items (n / 10 = 2), listed in gold order but for a swap, so that the item at
# each position is known; the top two classes (8 and 9) are single items.
GOLD = np.array([[1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 9, 8, 7]])
ORDER = np.array([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 19, 18, 17]])


@pytest.mark.parametrize(
    "overflow, top_two",
    # Items 18 (class 8, position 18) and 17 (class 9, position 19) have no item two
    # positions further: they keep their class, or take the last item's class 9.
    [("keep_gold", [8, 9]), ("last_class", [9, 9])],
)
def test_ordinal_displacement_overflow_on_a_tiny_task(overflow, top_two):
    sorted_gold, position = _gold_ordering(GOLD, ORDER)
    output = _mistakes("ordinal_displacement", GOLD, sorted_gold, position, 11, None, overflow)
    sorted_gold = GOLD[0, ORDER[0]]
    expected = np.empty(20, dtype=int)
    expected[ORDER[0, :18]] = sorted_gold[2:]  # every other item: two positions up
    expected[[18, 17]] = top_two
    np.testing.assert_array_equal(output[0], expected)


def test_displacement_overflow_changes_only_the_top_items():
    size = dict(n_test_cases=30, n_items=50, random_state=0)
    keep = make_synthetic_ordinal_task(**size)
    last = make_synthetic_ordinal_task(**size, displacement_overflow="last_class")
    np.testing.assert_array_equal(keep.y_true, last.y_true)
    differ = keep.y_pred != last.y_pred
    # Only ordinal-displacement systems differ, on at most n / 10 = 5 items per test
    # case: there one keeps the gold class and the other outputs the highest one.
    assert not differ[keep.kind != "ordinal_displacement"].any()
    assert differ.any() and differ.sum(axis=2).max() <= 5
    systems, cases, items = np.nonzero(differ)
    np.testing.assert_array_equal(keep.y_pred[differ], keep.y_true[cases, items])
    np.testing.assert_array_equal(last.y_pred[differ], keep.y_true.max(axis=1)[cases])


def test_subset_of_kinds_and_ratios():
    task = make_synthetic_ordinal_task(
        n_test_cases=2, n_items=10, kinds=("majority",), error_ratios=[0.0, 0.5], random_state=0
    )
    assert task.y_pred.shape == (2, 2, 10)
    np.testing.assert_array_equal(task.y_pred[0], task.y_true)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"kinds": ("sideways",)}, "kinds must be a non-empty subset"),
        ({"error_ratios": [0.5, 1.5]}, r"error_ratios must be numbers in \[0, 1\]"),
        ({"std_range": (3.0, 1.0)}, "std_range"),
        ({"displacement_overflow": "wrap"}, "displacement_overflow"),
    ],
)
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_synthetic_ordinal_task(n_test_cases=2, n_items=10, **kwargs)


def test_score_systems_matches_a_loop(task):
    y_true, y_pred = task.y_true[:3], task.y_pred[:4, :3]
    scores = score_systems(accuracy_score, y_true, y_pred)
    assert scores.shape == (4, 3)
    for s in range(4):
        for t in range(3):
            assert scores[s, t] == accuracy_score(y_true[t], y_pred[s, t])
    with pytest.raises(ValueError, match="y_pred shape"):
        score_systems(accuracy_score, y_true, y_pred[0])


@pytest.mark.parametrize(
    "std_range", [("a", "b"), (1.0, float("inf")), (float("nan"), 2.0), (1.0,), (3.0, 1.0)]
)
def test_bad_std_range_is_a_clear_error(std_range):
    with pytest.raises(ValueError, match="finite positive standard deviations"):
        make_synthetic_ordinal_task(n_test_cases=2, n_items=5, std_range=std_range)
