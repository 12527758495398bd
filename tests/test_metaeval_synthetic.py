"""The synthetic task of Amigó et al. (2020), section 5.3: shapes, seeding, mistakes."""

import numpy as np
import pytest
from sklearn.metrics import accuracy_score

from sklearn_ordinal.metaeval import make_synthetic_ordinal_task, score_systems

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
    # the sorted gold shifted by 20 positions, and never below the gold class.
    displaced = _system(task, "ordinal_displacement", 1.0)
    assert (displaced >= y_true).all()
    for truth, output in zip(y_true, displaced):
        order = np.argsort(truth, kind="stable")
        sorted_truth = truth[order]
        expected = sorted_truth[np.minimum(np.arange(200) + 20, 199)]
        np.testing.assert_array_equal(np.sort(output), np.sort(expected))

    # Proximity: between the gold class and the class of a random position.
    proximity = _system(task, "proximity", 1.0)
    assert 0 < (proximity != y_true).mean() < (_system(task, "random", 1.0) != y_true).mean()
    assert np.abs(proximity - y_true).mean() < np.abs(_system(task, "random", 1.0) - y_true).mean()


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
