"""``groups``: one check and one numbering for every door that takes them (#45).

``_validation.group_codes`` checks the groups (1-D, one per item, none missing, each
a hashable label) and numbers them in order of first appearance, as
``pandas.factorize`` does; the measures over groups (``prevalences``,
``quantification_error``) and the resampling doors (``score_interval``,
``compare_scores``, ``evaluate``, ``decomposition_interval``) all read it, so a bad
``groups`` gets the same message at each.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sklearn_ordinal import evaluate
from sklearn_ordinal._validation import group_codes
from sklearn_ordinal.metrics import prevalences, quantification_error
from sklearn_ordinal.stats import compare_scores, decomposition_interval, score_interval

INTEGER_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                  np.uint64]


@given(st.lists(st.sampled_from(["b", "a", "c", "topic 1", ""]), min_size=1, max_size=40))
def test_strings_are_numbered_in_order_of_first_appearance(groups):
    codes, names = group_codes(groups, len(groups))
    expected_codes, expected_names = pd.factorize(np.array(groups, dtype=object))
    np.testing.assert_array_equal(codes, expected_codes)
    assert names.tolist() == expected_names.tolist()
    # Directly: the name of each item's code is its group, and each name first appears
    # before the next one.
    assert [names[c] for c in codes] == groups
    firsts = [groups.index(name) for name in names]
    assert firsts == sorted(firsts)
    assert codes.dtype == np.intp


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_integers_of_every_dtype_keep_their_identity(dtype):
    groups = np.array([7, 3, 7, 0, 3, 120], dtype=dtype)
    codes, names = group_codes(groups, 6)
    np.testing.assert_array_equal(codes, [0, 1, 0, 2, 1, 3])
    np.testing.assert_array_equal(names, np.array([7, 3, 0, 120], dtype=dtype))


@pytest.mark.parametrize("container", [pd.Categorical, pd.Series, pd.Index])
def test_categoricals_are_numbered_by_appearance_not_by_category_order(container):
    # The categories' order (an ordering of the groups) is no order of appearance.
    values = ["late", "early", "late", "middle"]
    categorical = pd.Categorical(values, categories=["early", "middle", "late", "unused"],
                                 ordered=True)
    groups = categorical if container is pd.Categorical else container(categorical)
    codes, names = group_codes(groups, 4)
    np.testing.assert_array_equal(codes, [0, 1, 0, 2])
    assert names.tolist() == ["late", "early", "middle"]  # no unused category
    np.testing.assert_array_equal(codes, pd.factorize(np.asarray(groups))[0])


def test_zero_weight_items_are_dropped_before_numbering():
    groups = ["a", "b", "a", "c", "b"]
    codes, names = group_codes(groups, 5, sample_weight=[0, 1, 2, 0, 1.5])
    np.testing.assert_array_equal(codes, [0, 1, 0])
    assert names.tolist() == ["b", "a"]  # "c" holds only a zero-weight item
    # Without weights, or with every weight positive, nothing is dropped.
    assert group_codes(groups, 5, sample_weight=np.ones(5))[0].tolist() == [0, 1, 0, 2, 1]


@pytest.mark.parametrize(
    "groups, n_items, options, message",
    [
        ([0, 1], 3, {}, r"one group per item \(3 items\), a 1-D sequence.*got shape \(2,\)"),
        ([[0, 1], [1, 0]], 2, {}, r"one group per item .*got shape \(2, 2\)"),
        (5, 1, {}, r"one group per item \(1 item\).*got shape \(\)"),
        ([0, None, 1], 3, {}, r"missing values \(first at item 1\); every item needs a group"),
        ([0.0, 1.0, np.nan], 3, {}, r"missing values \(first at item 2\)"),
        (pd.array([1, pd.NA], dtype="Int64"), 2, {}, "missing values"),
        (pd.Categorical(["a", None]), 2, {}, "missing values"),
        ([[0], [1, 2], [0]], 3, {}, r"one label per item \(a string or a number\); got "
                                    "values of type list"),
        (np.array([{}, {"a": 1}], dtype=object), 2, {}, "values of type dict"),
        ([0, 0, 0], 3, {"resampled": True},
         r"groups holds 1 group; resampling groups needs at least two. Resample the items "
         r"\(groups=None\)"),
        ([0, 1, 1], 3, {"resampled": True, "sample_weight": [1, 0, 0]},
         "groups holds 1 group of positive weight; resampling groups needs at least two"),
        ([0, 1, 1], 3, {"sample_weight": [1, 0]}, "sample_weight has 2 values but there "
                                                  "are 3 items"),
        ([0, 1, 1], 3, {"sample_weight": [1, -1, 0]}, "negative"),
    ],
)
def test_bad_groups_get_a_clear_error(groups, n_items, options, message):
    with pytest.raises(ValueError, match=message):
        group_codes(groups, n_items, **options)


def test_one_group_is_allowed_unless_resampled():
    codes, names = group_codes(["x"] * 3, 3)
    assert codes.tolist() == [0, 0, 0] and names.tolist() == ["x"]


Y = np.array([0, 1, 2, 1] * 5)
PROBA = np.eye(3)[Y] * 0.8 + 0.2 / 3

DOORS = {
    "score_interval": lambda groups: score_interval(
        "neg_mean_absolute_error", Y, Y, groups=groups, n_resamples=99),
    "compare_scores": lambda groups: compare_scores(
        "neg_mean_absolute_error", Y, Y, Y[::-1], groups=groups, n_resamples=99),
    "evaluate": lambda groups: evaluate(Y, {"a": Y}, groups=groups, n_resamples=99),
    "decomposition_interval": lambda groups: decomposition_interval(
        Y, PROBA, groups=groups, n_resamples=99),
    "prevalences": lambda groups: prevalences(Y, groups),
    "quantification_error": lambda groups: quantification_error(Y, Y, groups),
}


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize(
    "groups, message",
    [
        ([0, 1] * 5, "one group per item"),
        ([0] * 19 + [None], r"missing values \(first at item 19\)"),
        ([[0]] * 19 + [[0, 1]], "one label per item"),
        (np.array([{}] * 20, dtype=object), "values of type dict"),
    ],
)
def test_every_door_gives_the_same_error(door, groups, message):
    with pytest.raises(ValueError, match=message):
        DOORS[door](groups)


@pytest.mark.parametrize("door", ["score_interval", "compare_scores", "evaluate",
                                  "decomposition_interval"])
def test_resampling_doors_need_two_groups(door):
    with pytest.raises(ValueError, match="at least two"):
        DOORS[door](["only"] * 20)


@pytest.mark.parametrize("door", ["score_interval", "compare_scores"])
def test_weights_of_the_wrong_length_beside_groups(door):
    # Was pandas' "Grouper and axis must be same length".
    call = {"score_interval": lambda: score_interval(
                "neg_mean_absolute_error", Y, Y, groups=[0, 1] * 10, sample_weight=[1] * 19,
                n_resamples=99),
            "compare_scores": lambda: compare_scores(
                "neg_mean_absolute_error", Y, Y, Y, groups=[0, 1] * 10,
                sample_weight=[1] * 19, n_resamples=99)}[door]
    with pytest.raises(ValueError, match="sample_weight has 19 values but there are 20 items"):
        call()


def test_the_command_line_names_its_option_for_one_group(tmp_path, capsys):
    from sklearn_ordinal.__main__ import main

    rows = "".join(f"only\t{i}\t{i % 3}\n" for i in range(12))
    for name in ("gold", "system"):
        (tmp_path / f"{name}.tsv").write_text("test_case\tid\tvalue\n" + rows)
    code = main(["evaluate", str(tmp_path / "gold.tsv"), str(tmp_path / "system.tsv"),
                 "--group-column", "test_case", "--n-resamples", "99"])
    err = capsys.readouterr().err
    assert code == 2
    assert "resampling groups needs at least two. Resample the items (--no-groups)" in err


def test_weights_of_the_wrong_length_get_the_measures_message_without_groups():
    # method="auto" reads the smallest class's weight before any measure runs: the
    # weights are checked there as the measures check them (pandas' "Grouper and
    # axis must be same length" before).
    from sklearn_ordinal.metrics import macro_mean_absolute_error
    from sklearn_ordinal.stats import compare_scores, score_interval

    y = np.array([0, 1, 2, 1, 0, 2] * 10)
    with pytest.raises(ValueError) as measure_error:
        macro_mean_absolute_error(y, y, sample_weight=np.ones(5))
    for door in (lambda: score_interval("neg_macro_mean_absolute_error", y, y,
                                        sample_weight=np.ones(5)),
                 lambda: compare_scores("neg_macro_mean_absolute_error", y, y, y,
                                        sample_weight=np.ones(5))):
        with pytest.raises(ValueError) as error:
            door()
        assert str(error.value) == str(measure_error.value)
    with pytest.raises(ValueError, match="negative"):
        score_interval("neg_macro_mean_absolute_error", y, y,
                       sample_weight=np.r_[-1.0, np.ones(59)])
