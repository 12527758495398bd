"""The ordered-labels module: class order, class values and the confusion matrix."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.metrics import confusion_matrix

from sklearn_ordinal._labels import check_ordinal_targets, ordinal_confusion
from sklearn_ordinal.metrics import ordinal_confusion_matrix


def _brute_force_confusion(y_true, y_pred, classes, weights):
    index = {c: k for k, c in enumerate(classes)}
    matrix = np.zeros((len(classes), len(classes)))
    for t, p, w in zip(y_true, y_pred, weights):
        matrix[index[t], index[p]] += w
    return matrix


label_pairs = st.integers(1, 40).flatmap(
    lambda n: st.tuples(
        arrays(np.int64, n, elements=st.integers(0, 12)),
        arrays(np.int64, n, elements=st.integers(0, 12)),
        arrays(np.float64, n, elements=st.floats(0.5, 3.0)),
    )
)


@given(label_pairs)
def test_integer_fast_path_matches_brute_force(data):
    y_true, y_pred, weights = data
    classes = np.unique(np.concatenate([y_true, y_pred]))
    for sample_weight in (None, weights):
        confusion = ordinal_confusion(y_true, y_pred, sample_weight=sample_weight)
        w = np.ones(len(y_true)) if sample_weight is None else sample_weight
        np.testing.assert_array_equal(confusion.classes, classes)
        np.testing.assert_allclose(
            confusion.matrix, _brute_force_confusion(y_true, y_pred, classes, w)
        )


@given(label_pairs, st.integers(-1000, 10**6))
def test_every_path_gives_the_same_matrix(data, shift):
    # Shifted labels (negative or far from zero) go through np.unique; strings go
    # through np.unique on strings; given labels go through a lookup table. All agree.
    y_true, y_pred, weights = data
    reference = ordinal_confusion(y_true, y_pred, sample_weight=weights).matrix
    shifted = ordinal_confusion(y_true + shift, y_pred + shift, sample_weight=weights)
    np.testing.assert_allclose(shifted.matrix, reference)
    as_strings = ordinal_confusion(
        np.char.zfill(y_true.astype(str), 3), np.char.zfill(y_pred.astype(str), 3),
        sample_weight=weights,
    )
    np.testing.assert_allclose(as_strings.matrix, reference)
    classes = np.unique(np.concatenate([y_true, y_pred]))
    given_labels = ordinal_confusion(y_true, y_pred, labels=classes, sample_weight=weights)
    np.testing.assert_allclose(given_labels.matrix, reference)


def test_matches_scikit_learn_confusion_matrix():
    rng = np.random.RandomState(0)
    y_true, y_pred = rng.randint(1, 6, 200), rng.randint(1, 6, 200)
    weights = rng.uniform(size=200)
    np.testing.assert_allclose(
        ordinal_confusion_matrix(y_true, y_pred, sample_weight=weights),
        confusion_matrix(y_true, y_pred, sample_weight=weights),
    )


def test_labels_order_is_kept_and_extra_labels_get_empty_rows():
    matrix = ordinal_confusion_matrix(["b", "a"], ["b", "b"], labels=["c", "b", "a"])
    np.testing.assert_array_equal(matrix, [[0, 0, 0], [0, 1, 0], [0, 1, 0]])


def test_ordered_categorical_order_wins_over_sorting():
    dtype = pd.CategoricalDtype(["low", "mid", "high"], ordered=True)
    y_true = pd.Series(["high", "low", "mid"], dtype=dtype)
    confusion = ordinal_confusion(y_true, ["mid", "low", "mid"])
    np.testing.assert_array_equal(confusion.classes, ["low", "mid", "high"])
    np.testing.assert_array_equal(confusion.values, [0, 1, 2])
    np.testing.assert_array_equal(confusion.matrix, [[1, 0, 0], [0, 1, 0], [0, 1, 0]])
    # Unused categories are classes too: the order, not the data, defines them.
    dtype = pd.CategoricalDtype(["low", "mid", "high", "top"], ordered=True)
    confusion = ordinal_confusion(pd.Categorical(["low", "top"], dtype=dtype), ["low", "mid"])
    np.testing.assert_array_equal(confusion.values, [0, 1, 2, 3])
    # ...but labels= wins over the categories.
    confusion = ordinal_confusion(y_true, ["mid", "low", "mid"], labels=["high", "mid", "low"])
    np.testing.assert_array_equal(confusion.classes, ["high", "mid", "low"])


def test_unordered_categorical_is_sorted_like_plain_labels():
    y_true = pd.Categorical(["b", "a"], categories=["b", "a"], ordered=False)
    np.testing.assert_array_equal(ordinal_confusion(y_true, ["a", "a"]).classes, ["a", "b"])


def test_categorical_prediction_outside_categories_is_named():
    y_true = pd.Categorical(["low", "mid"], categories=["low", "mid"], ordered=True)
    with pytest.raises(ValueError, match=r"y_pred contains labels not in .*\['top'\]"):
        ordinal_confusion(y_true, ["low", "top"])


def test_class_values():
    assert ordinal_confusion([1, 3], [3, 10]).values.tolist() == [1, 3, 10]
    assert ordinal_confusion(["x", "y"], ["y", "y"]).values.tolist() == [0, 1]
    values = ordinal_confusion(["x", "y"], ["y", "y"], class_values=[-1, 5]).values
    assert values.tolist() == [-1, 5]
    with pytest.raises(ValueError, match="not in increasing order"):
        ordinal_confusion([1, 3], [3, 1], labels=[3, 1])
    # Measures that ignore distances accept numeric labels in any order.
    confusion = ordinal_confusion([1, 3], [3, 1], labels=[3, 1], need_values=False)
    np.testing.assert_array_equal(confusion.matrix, [[0, 1], [1, 0]])


def test_numbers_given_as_objects_are_numbers():
    confusion = ordinal_confusion(np.array([10, 9], dtype=object), [9, 10])
    assert confusion.classes.tolist() == [9, 10]  # numeric, not lexicographic, order


def test_score_targets_take_classes_from_y_true_alone():
    classes, codes, pred, weights = check_ordinal_targets(["b", "c", "b"])
    assert classes.tolist() == ["b", "c"] and codes.tolist() == [0, 1, 0]
    assert pred is None and weights is None


def test_weights_are_not_mistaken_for_presence():
    # A label seen only on zero-weight items still belongs to the class set, as in
    # scikit-learn; its row and column hold zeros.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        confusion = ordinal_confusion([0, 1, 2], [0, 1, 2], sample_weight=[1, 1, 0])
    np.testing.assert_array_equal(confusion.classes, [0, 1, 2])
    assert confusion.matrix[2, 2] == 0


def test_large_integer_labels_fall_back_to_sorting():
    y = np.array([0, 10**9, 5, 10**9])
    confusion = ordinal_confusion(y, y)
    assert confusion.classes.tolist() == [0, 5, 10**9]
    np.testing.assert_array_equal(np.diag(confusion.matrix), [1, 1, 2])
