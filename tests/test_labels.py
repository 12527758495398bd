"""The ordered-labels module: class order, class values and the confusion matrix."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.metrics import confusion_matrix

from sklearn_ordinal import _blocks, _confusion, _counting, _validation
from sklearn_ordinal._confusion import ordinal_confusion
from sklearn_ordinal._counting import _fast_confusion
from sklearn_ordinal._validation import _validate, check_ordinal_targets
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
    # Conventions (docs): integer weights equal repeated rows, so a zero-weight item is no item:
    # a label seen only on zero-weight items is no class (it would shift positions).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        confusion = ordinal_confusion([0, 1, 2], [0, 1, 2], sample_weight=[1, 1, 0])
    np.testing.assert_array_equal(confusion.classes, [0, 1])
    # With labels= the class set is given, and a dropped item's label is not checked.
    confusion = ordinal_confusion([0, 1, 7], [0, 1, 7], labels=[0, 1, 2], sample_weight=[1, 1, 0])
    np.testing.assert_array_equal(confusion.matrix, np.diag([1.0, 1.0, 0.0]))


@pytest.mark.parametrize(
    "y_true, labels",
    [([4, 4, 0, 0], None), ([4, 4, 0, 0], [0, 4]), (["b", "b", "a", "a"], ["a", "b"]),
     (np.array([4.0, 4.0, 0.0, 0.0]), None)],
)
def test_weights_too_far_apart_for_float64_are_refused_not_dropped(y_true, labels):
    # 5e-324 next to 2.0 would become 0 on the common scale: a dropped item, silently.
    weights = np.array([1.0, 2.0, 0.0, 5e-324])
    with pytest.raises(ValueError, match="smallest positive weight .* would count as zero"):
        ordinal_confusion_matrix(y_true, y_true, labels=labels, sample_weight=weights)
    from sklearn_ordinal.metrics import vus_score

    with pytest.raises(ValueError, match="would count as zero"):
        vus_score(y_true, np.arange(4.0), labels=labels, sample_weight=weights)
    # Far apart but representable: kept, at the ratio given.
    matrix = ordinal_confusion_matrix(y_true, y_true, labels=labels,
                                      sample_weight=[1.0, 1e200, 0.0, 1e-100])
    assert matrix[0, 0] == 1e-100 and matrix[-1, -1] == 1e200 + 1.0


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


@given(
    st.sampled_from(["int8", "int16", "int64", "uint8", "uint64"]),
    st.lists(st.integers(-130, 300), min_size=1, max_size=40),
    st.sampled_from([0, 5000, 2**62]),
)
@example("int64", [0, 2, 1, 2], 0)  # codes equal to the labels: still a copy
@example("int8", [-128, 127, 0], 0)
def test_classes_and_codes_of_one_integer_array_are_np_unique(dtype, values, shift):
    # One array of integers (ranking measures, the trivial classifier): bounded by one
    # unsigned max when non-negative, the codes taken as offsets when the classes have
    # no gap, else looked up; always what np.unique gives.
    info = np.iinfo(dtype)
    values = [v + shift if info.max > 2**62 + 300 else v for v in values]
    if not _fits(values, np.dtype(dtype)):
        return
    y = np.array(values, dtype=dtype)
    classes, codes, _ = _validation._unique_classes([y], True, None)
    expected_classes, expected_codes = np.unique(y, return_inverse=True)
    assert classes.dtype == y.dtype
    np.testing.assert_array_equal(classes, expected_classes)
    np.testing.assert_array_equal(codes, expected_codes)
    assert codes.dtype == np.intp and not np.shares_memory(codes, y)


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


# --- Counting in blocks (every input kind, against brute force) ---------------------

_NAMES = np.array(["awful", "poor", "fair", "good", "great", "top"])


def _as_kind(codes, kind, offset=0):
    """The labels ``codes + offset`` stand for, in one input kind."""
    if kind == "object":
        return _NAMES[codes].astype(object)
    if kind == "unicode":
        return _NAMES[codes]
    if kind in ("Categorical", "Series", "DataFrame"):
        dtype = pd.CategoricalDtype(list(_NAMES), ordered=True)
        y = pd.Categorical.from_codes(codes.astype(np.int8), dtype=dtype)
        return {"Categorical": y, "Series": pd.Series(y), "DataFrame": pd.DataFrame({"y": y})}[kind]
    return (codes + offset).astype(kind)


def _classes_of(kind, offset):
    if kind in ("object", "unicode", "Categorical", "Series", "DataFrame"):
        return _NAMES
    return np.arange(len(_NAMES)) + offset


_KINDS = ["int64", "int32", "int8", "uint8", "uint64", "float64", "float32", "object",
          "unicode", "Categorical", "Series", "DataFrame"]

# Blocks hold at least as many items as the matrix has cells (36 here).
blocks_and_codes = st.integers(1, 150).flatmap(
    lambda n: st.tuples(
        arrays(np.int64, n, elements=st.integers(0, 5)),
        arrays(np.int64, n, elements=st.integers(0, 5)),
        arrays(np.float64, n, elements=st.sampled_from([0.0, 0.25, 1.0, 3.5])),
    )
)


@given(
    blocks_and_codes,
    st.sampled_from(_KINDS),
    st.sampled_from([1, 7, 40, 2**20]),
    st.sampled_from([0, -3, 1000]),
    st.booleans(),
    st.booleans(),
)
def test_counting_in_blocks_matches_brute_force(
    data, kind, block, offset, weighted, given_labels
):
    # Each kind is counted in blocks by its own path (a grid of integer values, the
    # Categorical codes, a search among sorted strings, hashing objects); whatever
    # the block size, the matrix is the brute-force one, and is the slow path's.
    true_codes, pred_codes, weights = data
    if kind.startswith(("int", "uint")) and not _fits([offset, offset + 5], np.dtype(kind)):
        return
    if kind in ("object", "unicode") and not given_labels:
        return  # strings without labels= have no order: the slow path refuses them
    y_true, y_pred = _as_kind(true_codes, kind, offset), _as_kind(pred_codes, kind, offset)
    labels = _classes_of(kind, offset) if given_labels else None
    sample_weight = weights if weighted else None
    if weighted and not weights.any():
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_blocks, "_BLOCK", block)
        found = _fast_confusion(y_true, y_pred, labels, sample_weight, True)
        counted = ordinal_confusion(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    assert found is not None, "valid input must be counted in blocks"
    classes, matrix, exponent = found
    w = np.ones(len(true_codes)) if sample_weight is None else sample_weight
    kept = w > 0  # zero-weight items are no items
    names = _classes_of(kind, offset)
    everything = names
    if labels is None and kind not in ("Categorical", "Series", "DataFrame"):
        everything = names[np.unique(np.concatenate([true_codes[kept], pred_codes[kept]]))]
    expected = _brute_force_confusion(
        names[true_codes[kept]].tolist(), names[pred_codes[kept]].tolist(),
        everything.tolist(), w[kept],
    )
    assert np.asarray(classes).tolist() == everything.tolist()
    np.testing.assert_allclose(np.ldexp(matrix, exponent), expected, rtol=1e-14)
    np.testing.assert_array_equal(counted.matrix, matrix)
    # The slow path (validate, encode, count) agrees.
    valid_true, valid_pred, valid_weight, _ = _validate(y_true, y_pred, sample_weight)
    slow = _confusion._confusion(valid_true, valid_pred, labels, None, valid_weight, True, True, None)
    np.testing.assert_allclose(slow.matrix, matrix, rtol=1e-14)


@pytest.mark.parametrize("kind", ["int64", "float64", "object", "unicode", "Series"])
def test_a_late_block_with_an_unknown_label_gets_the_usual_error(kind):
    codes = np.zeros(50, dtype=np.int64)
    labels = _classes_of(kind, 0)[:5]
    y_true, y_pred = _as_kind(codes, kind), _as_kind(codes, kind)
    y_pred[45] = _as_kind(np.array([5]), kind)[0]  # the sixth name: not in labels
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_blocks, "_BLOCK", 4)
        assert _fast_confusion(y_true, y_pred, labels, None, True) is None
        unknown = r"y_pred contains labels not in labels=.*: \['?(5|top)"
        with pytest.raises(ValueError, match=unknown):
            ordinal_confusion(y_true, y_pred, labels=labels)
        # A zero-weight item is no item: its label is not checked.
        weights = np.ones(50)
        weights[45] = 0
        confusion = ordinal_confusion(y_true, y_pred, labels=labels, sample_weight=weights)
    assert confusion.matrix[0, 0] == 49


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize(
    "kind, missing, message",
    [
        ("float64", np.nan, "y_true contains NaN"),
        ("float64", np.inf, "y_true contains infinity"),
        ("object", None, "y_true contains missing values"),
        ("Series", np.nan, "y_true contains missing values"),
    ],
)
def test_a_late_block_with_a_missing_label_gets_the_usual_error(
    kind, missing, message, reverse
):
    # reverse: labels= in another order than a Categorical's categories, whose codes
    # then go through a lookup table (the code -1 must not be read as a class).
    codes = np.zeros(50, dtype=np.int64)
    y_true, y_pred = _as_kind(codes, kind), _as_kind(codes, kind)
    if kind == "Series":
        y_true = y_true.astype(object)
        y_true[45] = missing
        y_true = y_true.astype(y_pred.dtype)
    else:
        y_true[45] = missing
    weights = np.ones(50)
    weights[45] = 0  # missing labels are refused even on a zero-weight item
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_blocks, "_BLOCK", 4)
        for sample_weight in (None, weights):
            with pytest.raises(ValueError, match=message):
                labels = _classes_of(kind, 0)
                ordinal_confusion(y_true, y_pred, labels=labels[::-1] if reverse else labels,
                                  sample_weight=sample_weight)


def test_fractional_predictions_are_left_to_the_distance_measures():
    # Integer-valued floats are classes; a regressor's outputs are not, even in a
    # late block, and only the distance measures take them.
    y_true = np.zeros(50)
    y_pred = np.zeros(50)
    y_pred[45] = 0.5
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_blocks, "_BLOCK", 4)
        with pytest.raises(ValueError, match="real-valued predictions"):
            ordinal_confusion(y_true, y_pred)


def test_weights_are_checked_as_before():
    y = np.array([0, 1, 1])
    for weights, message in [([1, -1, 1], "negative"), ([1, np.nan, 1], "NaN or infinity"),
                             ([1, np.inf, 1], "NaN or infinity"), ([0, 0, 0], "zero everywhere")]:
        with pytest.raises(ValueError, match=message):
            ordinal_confusion(y, y, sample_weight=weights)
    # Huge and tiny weights: divided by a power of two per item, as the slow path does.
    confusion = ordinal_confusion(y, y, sample_weight=[1e300, 1e300, 1e-10])
    assert confusion.weight_exponent == 996
    np.testing.assert_array_equal(confusion.weights, np.diag([1e300, 1e300 + 1e-10]))
    # 1e-300 next to 1e300 would underflow to 0 on that scale: refused, not dropped.
    with pytest.raises(ValueError, match="would count as zero"):
        ordinal_confusion(y, y, sample_weight=[1e300, 1e300, 1e-300])


_WEIGHT_DTYPES = ["float64", "float32", "float16", "int64", "int8", "uint8", "uint64", "bool"]
_WEIGHT_VALUES = [0.0, -0.0, 1.0, 2.5, -1.0, 1e-310, 1e300, np.nan, -np.nan, np.inf, -np.inf]


@given(
    st.sampled_from(_WEIGHT_DTYPES),
    st.lists(st.sampled_from(_WEIGHT_VALUES), min_size=1, max_size=6),
    st.booleans(),
)
@example("float64", [1e-310, 1e300], False)  # found by hypothesis: refused per block
def test_the_one_reduction_accepts_only_what_the_weight_checks_accept(dtype, values, swap):
    # The blockwise path checks weights with one max over their bits; whatever it
    # accepts, the full checks accept with the same scale, and whatever they refuse
    # (negative, NaN, infinite, all zero) it leaves to them. Weights too far apart
    # for float64 (1e-310 next to 1e300) it refuses later, as it scales each block.
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        weights = np.array(values).astype(dtype)
    if swap:
        weights = weights.astype(weights.dtype.newbyteorder())  # same values, other bytes
    try:
        _, expected = _validation._check_sample_weight(weights, len(weights))
        refusal = None
    except ValueError as error:
        expected, refusal = None, str(error)
    found = _counting._fast_weights(weights, len(weights))
    if found is None:
        return  # left to the full checks, which give the result or the error
    if refusal is not None and "would count as zero" in refusal:
        scaled = _blocks._scaled_block_weights(found[0], 0, len(weights), found[1])
        assert scaled is None, f"a block would drop weights the checks refuse: {weights!r}"
        return
    assert expected is not None, f"accepted weights the checks refuse: {weights!r}"
    assert found[1] == expected


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint8", "uint64"])
@pytest.mark.parametrize(
    "labels, bad",
    [([0, 1, 2, 3, 4], -1), ([0, 1, 2, 3, 4], 5), ([0, 1, 2, 3, 4], 100), ([0, 2, 4], 1),
     ([3, 4, 5], 2)],
)
def test_small_integer_classes_are_checked_in_every_block(dtype, labels, bad):
    # With labels= of small non-negative integers, the labels are checked block by
    # block (no bounds pass): a late block's unknown label, negative ones included,
    # still gets the usual error, in y_true as in y_pred.
    if not _fits([bad], np.dtype(dtype)):
        return
    for where in ("y_true", "y_pred"):
        y = {name: np.full(50, labels[0], dtype=dtype) for name in ("y_true", "y_pred")}
        y[where][45] = bad
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_blocks, "_BLOCK", 40)  # item 45 is in the second block
            assert _counting._blockwise_bound(np.array(labels), y["y_true"], y["y_pred"])
            assert _fast_confusion(y["y_true"], y["y_pred"], labels, None, True) is None
            with pytest.raises(ValueError, match=f"{where} contains labels not in labels="):
                ordinal_confusion(y["y_true"], y["y_pred"], labels=labels)
            # Without the bad item, the same arrays are counted in blocks.
            weights = np.ones(50)
            weights[45] = 0
            counted = ordinal_confusion(y["y_true"], y["y_pred"], labels=labels,
                                        sample_weight=weights)
        assert counted.matrix[0, 0] == 49 and counted.matrix.sum() == 49


@pytest.mark.parametrize("labels", [None, list(range(201))])
def test_negative_labels_never_pass_as_large_ones(labels):
    # Seen as unsigned, the int8 label -56 is 200: a blockwise check against classes
    # up to 200 would take it for one. It is an unknown label (or a class of its own).
    y_true = np.array([1, 3, 0, 100], dtype=np.int8)
    y_pred = np.array([1, 3, -56, 100], dtype=np.int8)
    classes = None if labels is None else np.array(labels)
    assert _counting._blockwise_bound(classes, y_true, y_pred) is None
    if labels is None:
        confusion = ordinal_confusion(y_true, y_pred)
        assert confusion.classes.tolist() == [-56, 0, 1, 3, 100]
        assert confusion.matrix[1, 0] == 1  # true 0, predicted -56
    else:
        with pytest.raises(ValueError, match=r"y_pred contains labels not in labels=.*-56"):
            ordinal_confusion(y_true, y_pred, labels=labels)


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16"])
@pytest.mark.parametrize("late", [7, 15, -1, 300])
def test_a_late_label_beyond_the_first_blocks_labels_is_counted(dtype, late):
    # Without labels=, the grid is guessed from the first block and checked block by
    # block; a later block's larger (or negative) label makes the whole count start
    # again on the bounds of all labels, with the same result as the slow path.
    if not _fits([late], np.dtype(dtype)):
        return
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 3, 200).astype(dtype)
    y_pred = rng.integers(0, 3, 200).astype(dtype)
    y_pred[150] = late
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_blocks, "_BLOCK", 64)
        assert _counting._blockwise_bound(None, y_true, y_pred) == 2  # the first block's
        found = _fast_confusion(y_true, y_pred, None, None, True)
    classes = np.unique(np.r_[y_true, y_pred])
    assert found[0].tolist() == classes.tolist()
    expected = _brute_force_confusion(y_true, y_pred, classes.tolist(), np.ones(200))
    np.testing.assert_array_equal(found[1], expected)


@pytest.mark.parametrize(
    "dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
)
@pytest.mark.parametrize("hi", [0, 10, 11, 127, 180, 181, 255, 400])
@pytest.mark.parametrize("given_labels", [False, True])
@pytest.mark.parametrize("weight_scale", [None, 1e-300, 1e300])
def test_the_grid_index_in_the_labels_own_width_never_wraps(
    dtype, hi, given_labels, weight_scale
):
    # Integer labels 0..hi are counted with their flat cell index computed in the
    # labels' own width where it holds every cell: (hi + 1) ** 2 - 1 is 120 for hi = 10
    # (int8 holds it) and 143 for hi = 11 (it does not), 32760 and 33123 for 180
    # and 181 (int16); hi = 0 is one class. Both extremes are present, so the grid
    # spans 0..hi. Weighted, one item has weight 0: it is no item, even at the top.
    if not _fits([hi], np.dtype(dtype)):
        return
    rng = np.random.default_rng(hi)
    y_true = rng.integers(0, hi + 1, 3000).astype(dtype)
    y_pred = rng.integers(0, hi + 1, 3000).astype(dtype)
    y_true[:3], y_pred[:3] = [0, hi, hi], [hi, 0, hi]
    weights = np.ones(3000)
    if weight_scale is not None:
        weights = rng.uniform(0.5, 2.0, 3000) * weight_scale
        weights[2] = 0.0  # the only (hi, hi) item of the first three
    labels = np.arange(hi + 1) if given_labels else None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_blocks, "_BLOCK", 2**10)  # three blocks
        found = _fast_confusion(
            y_true, y_pred, labels, None if weight_scale is None else weights, True
        )
    kept = weights > 0
    expected = np.zeros((hi + 1, hi + 1))
    np.add.at(expected, (y_true[kept].astype(np.int64), y_pred[kept].astype(np.int64)),
              weights[kept])
    present = np.arange(hi + 1) if given_labels else np.unique(np.r_[y_true, y_pred])
    classes, matrix, exponent = found
    assert classes.tolist() == present.tolist()
    if weight_scale is None:  # counts: exact
        np.testing.assert_array_equal(matrix, expected[np.ix_(present, present)])
    else:  # sums in another order than np.add.at's
        np.testing.assert_allclose(
            np.ldexp(matrix, exponent), expected[np.ix_(present, present)], rtol=1e-12
        )


@pytest.mark.parametrize("dtype, lo", [("int8", -128), ("int16", 30000), ("uint16", 65000)])
def test_narrow_labels_far_from_zero_are_counted_exactly(dtype, lo):
    # A grid that does not start at 0 shifts every cell by lo * (span + 1), which the
    # labels' own width cannot hold here: the index is then computed in intp.
    rng = np.random.default_rng(0)
    y_true = (lo + rng.integers(0, 12, 500)).astype(dtype)
    y_pred = (lo + rng.integers(0, 12, 500)).astype(dtype)
    found = _fast_confusion(y_true, y_pred, None, None, True)
    classes = np.unique(np.r_[y_true, y_pred])
    assert found[0].tolist() == classes.tolist()
    expected = _brute_force_confusion(y_true, y_pred, classes.tolist(), np.ones(500))
    np.testing.assert_array_equal(found[1], expected)


@pytest.mark.parametrize("n_classes", [2, 11, 12, 128, 182])
def test_categorical_codes_of_many_classes_are_counted_exactly(n_classes):
    # The flat index of in-order codes is computed in the narrowest integer type
    # that holds the K * K cells (int8 up to 11 classes, int16 up to 181, ...).
    rng = np.random.default_rng(n_classes)
    true_codes = rng.integers(0, n_classes, 500)
    pred_codes = rng.integers(0, n_classes, 500)
    true_codes[:2], pred_codes[:2] = n_classes - 1, [n_classes - 1, 0]  # the last cells
    names = [f"c{k}" for k in range(n_classes)]
    dtype = pd.CategoricalDtype(names, ordered=True)
    y_true = pd.Categorical.from_codes(true_codes, dtype=dtype)
    y_pred = pd.Categorical.from_codes(pred_codes, dtype=dtype)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_blocks, "_BLOCK", 64)
        found = _fast_confusion(y_true, y_pred, None, None, True)
    expected = np.zeros((n_classes, n_classes))
    np.add.at(expected, (true_codes, pred_codes), 1)
    np.testing.assert_array_equal(found[1], expected)


def test_memory_above_the_inputs_is_one_block_not_n():
    import tracemalloc

    rng = np.random.default_rng(0)
    n = 2**20
    y_true = rng.integers(0, 5, n).astype(np.int8)
    y_pred = rng.integers(0, 5, n).astype(np.int8)
    weights = rng.uniform(size=n)
    categorical = pd.Categorical.from_codes(y_true, categories=list("abcde"), ordered=True)
    predicted = pd.Categorical.from_codes(y_pred, categories=list("abcde"), ordered=True)
    names = np.array(list("abcde"), dtype=object)
    cases = [
        (y_true, y_pred, {}),
        (y_true, y_pred, {"labels": [0, 1, 2, 3, 4]}),
        (y_true, y_pred, {"sample_weight": weights}),
        (y_true.astype(float), y_pred.astype(float), {"labels": [0, 1, 2, 3, 4]}),
        (categorical, predicted, {"labels": list("abcde")}),
        (pd.Series(categorical), pd.Series(predicted), {}),
        (names[y_true], names[y_pred], {"labels": list("abcde")}),
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_blocks, "_BLOCK", 2**12)
        for y, y_hat, kwargs in cases:
            tracemalloc.start()
            ordinal_confusion(y, y_hat, **kwargs)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            # A few blocks of 2**12 intp items, not the 8 bytes per item of an index.
            assert peak < 2**20, (kwargs, peak)


@given(blocks_and_codes, st.permutations(range(6)), st.permutations(range(6)), st.booleans())
def test_categoricals_in_another_order_are_counted_through_their_codes(
    data, label_order, pred_order, weighted
):
    # labels= in another order than the categories, and predictions whose categories
    # are in a third order: the codes go through one lookup table per array.
    true_codes, pred_codes, weights = data
    sample_weight = weights if weighted and weights.any() else None
    labels = _NAMES[list(label_order)]
    y_true = pd.Categorical(_NAMES[true_codes], categories=_NAMES, ordered=True)
    y_pred = pd.Categorical(_NAMES[pred_codes], categories=_NAMES[list(pred_order)])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_blocks, "_BLOCK", 3)
        found = _fast_confusion(y_true, y_pred, labels, sample_weight, True)
    assert found is not None
    classes, matrix, exponent = found
    w = np.ones(len(true_codes)) if sample_weight is None else sample_weight
    expected = _brute_force_confusion(_NAMES[true_codes], _NAMES[pred_codes], labels, w)
    assert classes.tolist() == labels.tolist()
    np.testing.assert_allclose(np.ldexp(matrix, exponent), expected, rtol=1e-14)


@given(
    st.lists(_EDGE_LABELS, min_size=1, max_size=6, unique=True),
    st.lists(st.integers(0, 5), min_size=1, max_size=30),
    st.permutations(range(6)),
    st.sampled_from(INTEGER_DTYPES),
    st.sampled_from(INTEGER_DTYPES),
)
def test_item_codes_by_lookup_in_blocks_are_exact(pool, index, order, dtype, labels_dtype):
    # The items' codes (ranking measures, the trivial classifier) in given labels of
    # another dtype, block by block: exact near the dtypes' edges, where an offset
    # from the lowest label wraps around.
    y = [pool[k % len(pool)] for k in index]
    labels = [pool[k] for k in order if k < len(pool)]
    if not (_fits(y, dtype) and _fits(labels, labels_dtype)):
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_blocks, "_BLOCK", 4)
        try:
            _, codes, _, _ = check_ordinal_targets(
                np.array(y, dtype), labels=np.array(labels, labels_dtype), need_order=False
            )
        except ValueError as error:
            assert "no integer dtype holds together" in str(error)
            return
    assert codes.tolist() == [labels.index(label) for label in y]


def test_item_codes_name_an_unknown_label_of_a_late_block():
    y = np.zeros(50, dtype=np.int8)
    y[45] = -7
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_blocks, "_BLOCK", 4)
        unknown = r"y_true contains labels not in labels=\[0, 1\]: \[-7\]"
        with pytest.raises(ValueError, match=unknown):
            check_ordinal_targets(y, labels=[0, 1])
