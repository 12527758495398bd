"""Label measures of a stack of confusion matrices, and score_systems built on them.

Every from-confusion form takes a stack of matrices (shape (..., K, K)); its result
must be, matrix by matrix, the result of the matrix alone: the same numbers, the
same NaNs, and the same warnings, merged into one per kind saying how many matrices
it concerns. score_systems must give exactly the calls one by one.
"""

import warnings
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import accuracy_score

from sklearn_ordinal._confusion import OrdinalConfusion
from sklearn_ordinal.metaeval import make_synthetic_ordinal_task, score_systems
from sklearn_ordinal.metaeval._measures import _as_measure
from sklearn_ordinal.metrics import (
    get_scorer,
    get_scorer_names,
    macro_mean_absolute_error,
    mean_absolute_error,
)
from sklearn_ordinal.metrics._registry import confusion_kernel
from sklearn_ordinal.metrics._registry import confusion_kernels as _from_confusion_registry

LABEL_SCORERS = [name for name in get_scorer_names() if get_scorer(name).response == "labels"]

# Every registered measure with each value of the arguments its matrix form takes.
_MEASURES = {
    name: confusion_kernel(partial(scorer.score_func, **scorer.kwargs))
    for name, scorer in ((name, get_scorer(name)) for name in LABEL_SCORERS)
}
_ARGUMENTS = {
    "mean_absolute_error": [{"average": average} for average in ("micro", "macro", "max", None)],
    "mean_squared_error": [{"average": None}],
    "root_mean_squared_error": [{"average": None}],
    "mean_zero_one_error": [{"average": None}],
    "accuracy_within_score": [{"n": 0}, {"n": 2}],
    "cem_score": [{"scale": "interval", "flat": True}, {"scale": "nominal", "flat": True}],
}
for measure in _from_confusion_registry():
    for kwargs in _ARGUMENTS.get(measure.__name__, []):
        _MEASURES[f"{measure.__name__}{kwargs}"] = confusion_kernel(
            partial(measure, **kwargs)
        )


def test_every_registered_measure_is_tested():
    scored = {get_scorer(name).score_func for name in LABEL_SCORERS}
    assert set(_from_confusion_registry()) <= scored


@st.composite
def stacks(draw):
    """A stack of 1 to 6 confusion matrices, each with some weight, with empty rows
    and columns, single classes, single items and fractional weights."""
    n_classes = draw(st.integers(2, 5))
    n_matrices = draw(st.integers(1, 6))
    integers = draw(st.booleans())
    matrices = []
    for _ in range(n_matrices):
        kind = draw(st.sampled_from(["dense", "sparse", "one cell", "one row"]))
        cells = st.integers(0, 4) if integers else st.sampled_from([0.0, 0.25, 1.5, 3.0])
        matrix = np.array(draw(st.lists(cells, min_size=n_classes**2,
                                        max_size=n_classes**2)), dtype=np.float64)
        matrix = matrix.reshape(n_classes, n_classes)
        if kind == "sparse":
            matrix *= np.array(draw(st.lists(st.booleans(), min_size=n_classes,
                                             max_size=n_classes)))[:, np.newaxis]
        elif kind != "dense":
            i, j = draw(st.integers(0, n_classes - 1)), draw(st.integers(0, n_classes - 1))
            keep = np.zeros_like(matrix)
            if kind == "one cell":
                keep[i, j] = 1
            else:
                keep[i] = 1
            matrix *= keep
        if matrix.sum() == 0:  # no item: not a confusion matrix of any data
            matrix[draw(st.integers(0, n_classes - 1)), draw(st.integers(0, n_classes - 1))] = 1
        matrices.append(matrix)
    values = np.cumsum(draw(st.lists(st.sampled_from([0.5, 1.0, 3.0]), min_size=n_classes,
                                     max_size=n_classes)))
    return np.arange(10, 10 + n_classes), values, np.stack(matrices)


def _recorded(function):
    """``(result, [(template, n_affected, classes)], [other warnings])`` of a call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function()
    parts, others = [], []
    for record in caught:
        if getattr(record.message, "parts", None) is not None:
            assert record.category is UndefinedMetricWarning
            template, n_affected, _, classes = record.message.parts
            parts.append((template, n_affected, classes))
        else:
            others.append((record.category, str(record.message)))
    return result, parts, others


@pytest.mark.parametrize("name", sorted(_MEASURES))
@settings(max_examples=25, deadline=None)
@given(stack=stacks())
def test_stack_equals_each_matrix_alone(name, stack):
    from_confusion = _MEASURES[name]
    classes, values, matrices = stack
    alone = [_recorded(lambda m=m: from_confusion(OrdinalConfusion(classes, values, m)))
             for m in matrices]
    together, parts, others = _recorded(
        lambda: from_confusion(OrdinalConfusion(classes, values, matrices))
    )
    expected = np.array([result for result, _, _ in alone])
    assert all(isinstance(result, float) for result in expected.ravel()) or expected.ndim > 1
    np.testing.assert_array_equal(together, expected)  # NaN where NaN
    # One warning per kind, counting the matrices that warned alone, naming their classes.
    merged = {}
    for _, single_parts, _ in alone:
        for template, _, named in single_parts:
            count, union = merged.get(template, (0, set()))
            merged[template] = (count + 1, union | set(named or ()))
    assert {template: (n, set(named or ())) for template, n, named in parts} == merged
    assert len(parts) == len(merged)
    assert others == [warning for _, _, single in alone for warning in single] == []


def test_a_stack_warns_once_and_counts_the_matrices():
    confusion = OrdinalConfusion(
        np.array([1, 2, 3]),
        np.array([0.0, 1.0, 2.0]),
        np.array([np.diag([1.0, 1.0, 0.0]), np.eye(3), np.diag([0.0, 2.0, 0.0])]),
    )
    with pytest.warns(UndefinedMetricWarning) as caught:
        errors = confusion_kernel(macro_mean_absolute_error)(confusion)
    assert [str(warning.message) for warning in caught] == [
        "Classes [1, 3] have no true item in 2 of 3 confusion matrices: they are left out "
        "of the macro average."
    ]
    np.testing.assert_array_equal(errors, [0.0, 0.0, 0.0])


def test_one_matrix_gives_a_python_float_and_its_old_message():
    confusion = OrdinalConfusion(np.array([1, 2, 3]), np.arange(3.0), np.diag([1.0, 1.0, 0.0]))
    with pytest.warns(UndefinedMetricWarning, match=r"^Classes \[3\] have no true item: they"):
        error = confusion_kernel(macro_mean_absolute_error)(confusion)
    assert type(error) is float


def _one_by_one(metric, y_true, y_pred):
    """The direct calls, one per (system, test case), and their warnings."""
    measure, sign = _as_measure(metric)
    return _recorded(lambda: np.array(
        [[sign * float(measure(t, p)) for t, p in zip(y_true, system)] for system in y_pred]
    ))


@st.composite
def tasks(draw):
    """Small meta-evaluation tasks over labels with gaps (classes absent from a pair)."""
    n_systems, n_test_cases = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    n_items = draw(st.integers(1, 8))
    alphabet = draw(st.sampled_from([[0, 1, 2, 3], [-3, 5, 6, 40], [2, 3]]))
    labels = st.lists(st.sampled_from(alphabet), min_size=n_items, max_size=n_items)
    y_true = np.array([draw(labels) for _ in range(n_test_cases)])
    y_pred = np.array([[draw(labels) for _ in range(n_test_cases)] for _ in range(n_systems)])
    return y_true, y_pred


@pytest.mark.parametrize("name", LABEL_SCORERS)
@settings(max_examples=15, deadline=None)
@given(task=tasks())
def test_score_systems_equals_the_calls_one_by_one(name, task):
    y_true, y_pred = task
    expected, single_parts, single_others = _one_by_one(get_scorer(name), y_true, y_pred)
    scores, parts, others = _recorded(lambda: score_systems(get_scorer(name), y_true, y_pred))
    np.testing.assert_array_equal(scores, expected)
    merged = {}
    for template, _, named in single_parts:
        count, union = merged.get(template, (0, set()))
        merged[template] = (count + 1, union | set(named or ()))
    assert {template: (n, set(named or ())) for template, n, named in parts} == merged
    assert len(parts) == len(merged)
    assert set(others) == set(single_others)


def test_score_systems_merges_warnings_across_class_sets():
    y_true = np.array([[0, 0, 1], [0, 1, 2]])
    y_pred = np.array([[[0, 2, 1], [0, 1, 2]], [[0, 0, 1], [3, 1, 2]]])
    with pytest.warns(UndefinedMetricWarning) as caught:
        score_systems(get_scorer("neg_macro_mean_absolute_error"), y_true, y_pred)
    assert [str(warning.message) for warning in caught] == [
        "Classes [2, 3] have no true item in 2 of 4 confusion matrices: they are left out "
        "of the macro average."
    ]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_score_systems_dict_labels_strings_and_other_callables():
    task = make_synthetic_ordinal_task(n_test_cases=3, n_items=30, random_state=0)
    names = ["cem_ord", "accuracy_within_1", "gmsec", "linear_weighted_kappa"]
    scores = score_systems({name: get_scorer(name) for name in names}, task.y_true, task.y_pred)
    for name in names:
        np.testing.assert_array_equal(
            scores[name], _one_by_one(get_scorer(name), task.y_true, task.y_pred)[0]
        )
    # A callable that is no measure of the package is called pair by pair.
    np.testing.assert_array_equal(
        score_systems(accuracy_score, task.y_true, task.y_pred),
        score_systems(get_scorer("accuracy"), task.y_true, task.y_pred),
    )
    # Strings with their order given by labels=, through a partial.
    words = np.array(["none", "low", "mid", "high", "top"] + [f"c{k}" for k in range(6)])
    classes = list(words)
    metric = partial(mean_absolute_error, labels=classes)
    y_true, y_pred = words[task.y_true - 1], words[task.y_pred - 1]
    np.testing.assert_array_equal(
        score_systems(metric, y_true, y_pred), _one_by_one(metric, y_true, y_pred)[0]
    )


def test_score_systems_raises_what_the_calls_raise():
    y_true, y_pred = np.array([["a", "b"]]), np.array([[["b", "b"]]])
    with pytest.raises(ValueError, match="cem_score"):
        score_systems(get_scorer("cem_ord"), y_true, y_pred)
    with pytest.raises(ValueError, match="one real number"):
        score_systems(partial(mean_absolute_error, average=None), [[1, 2]], [[[1, 1]]])


def test_score_systems_real_valued_predictions_are_scored_one_by_one():
    y_true, y_pred = np.array([[1, 2, 3]]), np.array([[[1.5, 2.0, 2.5]]])
    np.testing.assert_array_equal(
        score_systems(get_scorer("neg_mean_absolute_error"), y_true, y_pred), [[-1 / 3]]
    )
