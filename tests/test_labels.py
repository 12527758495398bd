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
        # The public matrix holds the weights' own sums, exactly.
        np.testing.assert_array_equal(
            ordinal_confusion_matrix(y_true, y_pred, sample_weight=sample_weight),
            _brute_force_confusion(y_true, y_pred, classes, w),
        )


@given(label_pairs, st.integers(-1000, 10**6))
def test_every_path_gives_the_same_matrix(data, shift):
    # Shifted labels (negative or far from zero) go through np.unique; strings go
    # through np.unique on strings; given labels go through a lookup table. All agree.
    y_true, y_pred, weights = data
    reference = ordinal_confusion(y_true, y_pred, sample_weight=weights).matrix
    shifted = ordinal_confusion(y_true + shift, y_pred + shift, sample_weight=weights)
    np.testing.assert_allclose(shifted.matrix, reference)
    as_strings = ordinal_confusion(  # zero-padded: the string set sorts like the numbers
        np.char.zfill(y_true.astype(str), 3), np.char.zfill(y_pred.astype(str), 3),
        sample_weight=weights, need_order=False,
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
    confusion = ordinal_confusion(y_true, ["a", "a"], need_order=False)
    np.testing.assert_array_equal(confusion.classes, ["a", "b"])
    with pytest.raises(ValueError, match="order cannot be guessed"):
        ordinal_confusion(y_true, ["a", "a"])


def test_categorical_prediction_outside_categories_is_named():
    y_true = pd.Categorical(["low", "mid"], categories=["low", "mid"], ordered=True)
    with pytest.raises(ValueError, match=r"y_pred contains labels not in .*\['top'\]"):
        ordinal_confusion(y_true, ["low", "top"])


def test_class_values():
    # Numeric labels are their own values, measured from the lowest class (measures
    # see only differences), exactly even near 2**63.
    assert ordinal_confusion([1, 3], [3, 10]).values.tolist() == [0, 2, 9]
    huge = np.array([2**63 - 3, 2**63 - 2, 2**63 - 1], dtype=np.uint64)
    assert ordinal_confusion(huge, huge).values.tolist() == [0, 1, 2]
    assert ordinal_confusion(["y", "x"], ["y", "y"], labels=["y", "x"]).values.tolist() == [0, 1]
    values = ordinal_confusion(["x", "y"], ["y", "y"], labels=["x", "y"], class_values=[-1, 5]).values
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
    classes, codes, pred, weights = check_ordinal_targets(["b", "c", "b"], need_order=False)
    assert classes.tolist() == ["b", "c"] and codes.tolist() == [0, 1, 0]
    assert pred is None and weights is None


def test_zero_weight_items_are_dropped_rows():
    # SPEC 1: integer weights equal repeated rows, so a zero-weight item is no item:
    # a label seen only on zero-weight items is no class (it would shift positions).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        confusion = ordinal_confusion([0, 1, 2], [0, 1, 2], sample_weight=[1, 1, 0])
    np.testing.assert_array_equal(confusion.classes, [0, 1])
    # With labels= the class set is given, and a dropped item's label is not checked.
    confusion = ordinal_confusion([0, 1, 7], [0, 1, 7], labels=[0, 1, 2], sample_weight=[1, 1, 0])
    np.testing.assert_array_equal(confusion.matrix, np.diag([1.0, 1.0, 0.0]))


def test_large_integer_labels_fall_back_to_sorting():
    y = np.array([0, 10**9, 5, 10**9])
    confusion = ordinal_confusion(y, y)
    assert confusion.classes.tolist() == [0, 5, 10**9]
    np.testing.assert_array_equal(np.diag(confusion.matrix), [1, 1, 2])


# --- Integers are exact (every NumPy integer dtype, Python ints up to int64) --------

INTEGER_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                  np.uint64]


def _fits(values, dtype):
    info = np.iinfo(dtype)
    return all(info.min <= v <= info.max for v in values)


# Labels near the edges of the dtypes, where float64 or a small dtype would merge or
# wrap them, and small ones that every dtype holds.
_EDGE_LABELS = st.sampled_from(
    [-(2**63), -(2**31) - 1, -129, -128, -1, 127, 128, 255, 256, 2**31, 2**53 + 1,
     2**62, 2**62 + 1, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1]
) | st.integers(-3, 3)


@given(
    st.lists(_EDGE_LABELS, min_size=1, max_size=6, unique=True),
    st.lists(st.integers(0, 5), min_size=1, max_size=30),
    st.lists(st.integers(0, 5), min_size=1, max_size=30),
    st.sampled_from(INTEGER_DTYPES),
    st.sampled_from(INTEGER_DTYPES),
    st.sampled_from(INTEGER_DTYPES + [None]),
)
def test_integer_labels_keep_their_identity_in_every_dtype(
    pool, true_index, pred_index, true_dtype, pred_dtype, labels_dtype
):
    # Labels of any two integer dtypes (and labels= of a third) are compared as
    # integers: never through float64, never wrapped around.
    n = min(len(true_index), len(pred_index))
    y_true = [pool[k % len(pool)] for k in true_index[:n]]
    y_pred = [pool[k % len(pool)] for k in pred_index[:n]]
    if not (_fits(y_true, true_dtype) and _fits(y_pred, pred_dtype)):
        return
    classes = sorted(set(y_true) | set(y_pred))
    expected = _brute_force_confusion(y_true, y_pred, classes, np.ones(n))
    if min(classes) < 0 and max(classes) > 2**63 - 1:
        with pytest.raises(ValueError, match="no integer dtype holds together"):
            ordinal_confusion(np.array(y_true, true_dtype), np.array(y_pred, pred_dtype))
        return
    confusion = ordinal_confusion(
        np.array(y_true, true_dtype), np.array(y_pred, pred_dtype), need_values=False
    )
    assert [int(c) for c in confusion.classes] == classes
    np.testing.assert_array_equal(confusion.matrix, expected)
    # As class values, the labels' distances must be exact in float64, or refused.
    try:
        values = ordinal_confusion(
            np.array(y_true, true_dtype), np.array(y_pred, pred_dtype)
        ).values
    except ValueError as error:
        assert "too close for their size" in str(error)
    else:
        # Exact up to float64's own rounding of each distance.
        assert values.tolist() == pytest.approx([c - classes[0] for c in classes], rel=1e-15)
    if labels_dtype is not None and _fits(classes, labels_dtype):
        given_labels = ordinal_confusion(
            np.array(y_true, true_dtype),
            np.array(y_pred, pred_dtype),
            labels=np.array(classes, labels_dtype),
            need_values=False,
        )
        np.testing.assert_array_equal(given_labels.matrix, expected)


def test_python_ints_are_exact_up_to_int64():
    big = [2**62, 2**62 + 1, 2**62]
    confusion = ordinal_confusion(big, [2**62 + 1, 2**62 + 1, 2**62], need_values=False)
    assert confusion.classes.tolist() == [2**62, 2**62 + 1]
    np.testing.assert_array_equal(confusion.matrix, [[1, 1], [0, 1]])
    with pytest.raises(ValueError, match="int64"):
        ordinal_confusion([2**64 - 1, 0], [0, 0])
    # The same label as a NumPy uint64 array is an ordinary integer label.
    labels = np.array([0, 2**64 - 1], dtype=np.uint64)
    confusion = ordinal_confusion(labels, labels, need_values=False)
    assert confusion.classes.tolist() == [0, 2**64 - 1]
    # uint64 against a signed dtype: NumPy would promote both to float64.
    confusion = ordinal_confusion(
        np.array([2**62, 2**62 + 1], dtype=np.uint64), np.array([2**62 + 1, -1]),
        need_values=False,
    )
    assert confusion.classes.tolist() == [-1, 2**62, 2**62 + 1]


def test_small_dtype_labels_do_not_wrap_in_the_lookup_table():
    # int8 labels and data: classes - lowest label must not wrap around (27 is not 125).
    labels = np.array([-100, 27, 100], dtype=np.int8)
    y = np.array([27, 100, -100, 27], dtype=np.int8)
    confusion = ordinal_confusion(y, y, labels=labels)
    np.testing.assert_array_equal(np.diag(confusion.matrix), [1, 2, 1])
    # uint8 data with a negative label in labels: a plain class with no item.
    confusion = ordinal_confusion(
        np.array([0, 5], dtype=np.uint8), np.array([5, 5], dtype=np.uint8),
        labels=np.array([-1, 0, 5], dtype=np.int8),
    )
    np.testing.assert_array_equal(confusion.matrix, [[0, 0, 0], [0, 0, 1], [0, 0, 1]])


def test_negative_int8_labels_for_items_alone():
    # The path of the ranking measures and the trivial classifier (one target array).
    y = np.array([-128, 127, 0, 127], dtype=np.int8)
    classes, codes, _, _ = check_ordinal_targets(y)
    assert classes.tolist() == [-128, 0, 127] and codes.tolist() == [0, 2, 1, 2]


def test_bytes_and_strings_never_match():
    with pytest.raises(ValueError, match="y_true holds string labels but labels holds bytes"):
        ordinal_confusion(["a", "b"], ["a", "b"], labels=[b"a", b"b"])
    with pytest.raises(ValueError, match="y_pred holds bytes labels but y_true holds string"):
        ordinal_confusion(["a", "b"], [b"a", b"b"], need_order=False)
