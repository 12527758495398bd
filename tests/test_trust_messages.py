"""Issue #28, item 9: each bad input is refused with a message naming its own problem,
and a one-class fit is scored rather than stopped by scikit-learn's internals."""

import datetime
import decimal
import warnings

import numpy as np
import pytest

from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from sklearn_ordinal.metaeval import make_synthetic_ordinal_task
from sklearn_ordinal.metrics import (
    get_scorer,
    mean_absolute_error,
    ranked_probability_score_loss,
    u_cons_score,
    vus_score,
)


def test_nested_kinds_of_the_synthetic_task_are_named():
    with pytest.raises(ValueError, match=r"flat list of kind names.*got \['random'\]"):
        make_synthetic_ordinal_task(kinds=[["random"]])


def test_a_two_dimensional_target_of_the_trivial_classifier_is_named_y():
    with pytest.raises(ValueError, match=r"^y must be 1-D.*shape \(1, 3\).*\[\[1, 2, 3\]\]"):
        TrivialOrdinalClassifier().fit(np.zeros((1, 1)), [[1, 2, 3]])
    with pytest.raises(ValueError, match=r"^labels must be a flat list of the classes"):
        TrivialOrdinalClassifier(labels=[[1, 2, 3]]).fit(np.zeros((3, 1)), [1, 2, 3])
    # A column vector is one target, as in scikit-learn.
    fitted = TrivialOrdinalClassifier().fit(np.zeros((3, 1)), [[1], [2], [3]])
    assert fitted.classes_.tolist() == [1, 2, 3]


@pytest.mark.parametrize("y_true, problem", [
    ([datetime.date(2020, 1, 1), datetime.date(2020, 1, 2)], "holds date values"),
    ([datetime.datetime(2020, 1, 1), datetime.datetime(2020, 1, 2)], "holds datetime values"),
    ([1 + 1j, 2], r"holds complex numbers \(e\.g\. \(1\+1j\)\)"),
    ([[1, 2], [3]], r"holds sequences as items \(e\.g\. \[1, 2\]\)"),
    ([1, "a"], r"mixes label types \(int, str\).*Mix of string and number"),
])
def test_objects_that_are_no_labels_are_named(y_true, problem):
    with pytest.raises(ValueError, match=problem) as error:
        mean_absolute_error(y_true, [1, 2])
    if "str" not in problem:
        assert "Mix of string and number" not in str(error.value)


def test_decimal_labels_next_to_other_numbers_are_numbers():
    y_true = [decimal.Decimal(1), 2, 2.5]
    assert mean_absolute_error(y_true, [1, 2, 2.5]) == 0.0
    assert mean_absolute_error(y_true, [1, 2.5, 2.5]) == pytest.approx(0.5 / 3)


def test_object_weights_are_numbers_or_named():
    expected = mean_absolute_error([1, 2], [1, 1], sample_weight=[1.0, 2.0])
    weights = np.array([decimal.Decimal(1), 2], dtype=object)
    assert mean_absolute_error([1, 2], [1, 1], sample_weight=weights) == expected
    with pytest.raises(ValueError, match=r"sample_weight holds str values \(e\.g\. 'a'\)"):
        mean_absolute_error([1, 2], [1, 1], sample_weight=np.array([1, "a"], dtype=object))
    with pytest.raises(ValueError, match="sample_weight contains missing values"):
        mean_absolute_error([1, 2], [1, 1], sample_weight=[1, None])


@pytest.mark.parametrize("name, measure, response", [
    ("vus", vus_score, "scores"),
    ("u_cons", u_cons_score, "scores"),
    ("neg_ranked_probability_score", ranked_probability_score_loss, "proba"),
])
def test_a_one_class_fit_is_scored(name, measure, response):
    X, y_test = np.zeros((3, 1)), np.array([1, 2, 3])
    fitted = TrivialOrdinalClassifier(scoring=name).fit(X, [2, 2, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = get_scorer(name)(fitted, X, y_test)
    # Every item gets class 2: one tied score, or all probability on class 2.
    if response == "scores":
        expected = measure(y_test, np.zeros(3), labels=[1, 2, 3])
    else:
        proba = np.tile([0.0, 1.0, 0.0], (3, 1))
        expected = -measure(y_test, proba, labels=[1, 2, 3])
    assert value == pytest.approx(expected, rel=1e-12)
