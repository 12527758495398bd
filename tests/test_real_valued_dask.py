"""Real-valued predictions (a regressor's output) behave as Dask blocks as in memory.

Issue #28, items 1 and 7: in memory, ``y_pred=[0.3, 1.7, ...]`` is a regressor's
output, which the distance measures measure as it is and every other label measure
refuses; as Dask blocks the same data became classes of a confusion matrix. Half-step
classes are classes when the gold standard has them, and the refusal names a
prediction that is no class and the classes read.
"""

import numpy as np
import pytest

from sklearn_ordinal.metrics import (
    cem_score,
    macro_mean_absolute_error,
    macro_mean_squared_error,
    macro_root_mean_squared_error,
    mean_absolute_error,
    mean_squared_error,
    root_mean_squared_error,
)

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

DISTANCE = [mean_absolute_error, mean_squared_error, root_mean_squared_error,
            macro_mean_absolute_error, macro_mean_squared_error,
            macro_root_mean_squared_error]


@pytest.fixture(autouse=True)
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield


def _data(seed=0, n=60):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 4, n)
    y_pred = y_true + rng.normal(0, 0.7, n)
    return y_true, y_pred, rng.uniform(0, 3, n)


def _brute_force(y_true, y_pred, power, average, weights, class_values=None):
    values = np.arange(4.0) if class_values is None else np.asarray(class_values, float)
    errors = np.abs(y_pred - values[y_true]) ** power
    if average == "micro":
        return np.sum(weights * errors) / np.sum(weights)
    return np.mean([np.sum((weights * errors)[y_true == k]) / np.sum(weights[y_true == k])
                    for k in range(4)])


@pytest.mark.parametrize("measure", DISTANCE, ids=lambda m: m.__name__)
@pytest.mark.parametrize("chunks", [7, 60, (1, 29, 30)])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("class_values", [None, [0, 1, 5, 6]])
def test_distance_measures_of_real_values_as_dask_blocks(measure, chunks, weighted,
                                                         class_values):
    y_true, y_pred, weights = _data()
    if not weighted:
        weights = np.ones_like(weights)
    # Blocks of very different weights: each block scales its weights by its own
    # power of two, which the sum must bring to one scale.
    weights[:30] *= 2.0**40
    kwargs = {"class_values": class_values}
    expected = measure(y_true, y_pred, sample_weight=weights, **kwargs)
    power = 2 if "squared" in measure.__name__ else 1
    average = "macro" if measure.__name__.startswith("macro") else "micro"
    brute = _brute_force(y_true, y_pred, power, average, weights, class_values)
    if "root" in measure.__name__:
        brute = np.sqrt(brute)
    assert expected == pytest.approx(brute, rel=1e-12)
    got = measure(da.from_array(y_true, chunks=chunks), da.from_array(y_pred, chunks=chunks),
                  sample_weight=da.from_array(weights, chunks=chunks), **kwargs)
    assert got == pytest.approx(expected, rel=1e-12)


def test_a_block_of_whole_numbers_is_still_a_regressors_block():
    # The first block's predictions are all whole numbers (one even no class, 7.0):
    # only the whole data say they are real values.
    y_true = np.array([0, 1, 2, 0, 1, 2])
    y_pred = np.array([0.0, 7.0, 2.0, 0.5, 1.25, 2.0])
    expected = macro_mean_absolute_error(y_true, y_pred)
    got = macro_mean_absolute_error(da.from_array(y_true, chunks=3),
                                    da.from_array(y_pred, chunks=3))
    assert got == pytest.approx(expected, rel=1e-12)
    assert expected == pytest.approx(np.mean([0.25, 3.125, 0.0]))


@pytest.mark.parametrize("labels", [None, [0, 1, 2, 3]])
def test_label_measures_refuse_real_values_as_dask_blocks_with_the_numpy_message(labels):
    y_true, y_pred, _ = _data()
    with pytest.raises(ValueError) as numpy_error:
        cem_score(y_true, y_pred, labels=labels)
    with pytest.raises(ValueError) as dask_error:
        cem_score(da.from_array(y_true, chunks=7), da.from_array(y_pred, chunks=7),
                  labels=labels)
    assert str(dask_error.value) == str(numpy_error.value)
    assert "real-valued predictions" in str(numpy_error.value)


def test_dask_predictions_that_are_classes_still_count_as_classes():
    y_true = np.array([1, 1.5, 2, 2.5, 1.5, 2.0])
    y_pred = np.array([1.5, 1.5, 2, 2.5, 1.0, 2.5])
    expected = cem_score(y_true, y_pred)
    got = cem_score(da.from_array(y_true, chunks=2), da.from_array(y_pred, chunks=2))
    assert got == pytest.approx(expected, rel=1e-12)


def test_half_step_message_names_a_prediction_that_is_no_class_and_the_classes_read():
    # 1.5 is a class of the gold standard; 1.25 is the first prediction that is none.
    y_true = [1, 1.5, 2, 2.5]
    with pytest.raises(ValueError) as error:
        cem_score(y_true, [1.5, 1.25, 2, 2])
    message = str(error.value)
    assert "(e.g. 1.25)" in message
    assert "classes read from y_true: 1.0, 1.5, 2.0, 2.5" in message
    assert "np.rint" not in message
    with pytest.raises(ValueError, match=r"e\.g\. 1\.25\).*read from labels"):
        cem_score(y_true, [1.5, 1.25, 2, 2], labels=[1, 1.5, 2, 2.5])
