"""Sensitivity measures: hand-computed values, identities, and the peers' conventions."""

import re
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from imblearn.metrics import geometric_mean_score as imblearn_geometric_mean
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import recall_score

from sklearn_ordinal.metrics import (
    geometric_mean_score,
    gmsec_score,
    macro_mean_zero_one_error,
    mean_zero_one_error,
    mes_score,
    minimum_sensitivity_score,
)

# The example that skordinal's and dlordinal's docstrings share: recalls 0.5, 1, 1, 1.
Y_TRUE = [0, 0, 1, 2, 3, 0, 0]
Y_PRED = [0, 1, 1, 2, 3, 0, 1]


def test_hand_computed_values():
    assert minimum_sensitivity_score(Y_TRUE, Y_PRED) == 0.5
    assert geometric_mean_score(Y_TRUE, Y_PRED) == pytest.approx(0.5**0.25)
    assert gmsec_score(Y_TRUE, Y_PRED) == pytest.approx(np.sqrt(0.5))
    assert mes_score(Y_TRUE, Y_PRED) == 0.75


def test_extreme_classes_follow_the_given_order():
    # With the order reversed, the extreme classes are still 0 and 3, and the
    # recalls of 1 and 2 never count.
    y_true, y_pred = [0, 1, 1, 2, 3, 3], [0, 0, 0, 0, 2, 3]
    assert mes_score(y_true, y_pred) == pytest.approx((1 + 0.5) / 2)
    assert mes_score(y_true, y_pred, labels=[3, 2, 1, 0]) == pytest.approx((0.5 + 1) / 2)
    order = [1, 0, 2, 3]  # now 1 (recall 0) is an extreme class
    assert gmsec_score(y_true, y_pred, labels=order) == 0.0
    assert mes_score(y_true, y_pred, labels=order) == pytest.approx(0.25)


def test_a_recall_of_zero():
    # Class 2 is never recognised: the minimum and both geometric means are 0.
    y_true, y_pred = [0, 1, 2, 2], [0, 1, 1, 1]
    assert imblearn_geometric_mean(y_true, y_pred) == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no log(0) on the way
        assert minimum_sensitivity_score(y_true, y_pred) == 0.0
        assert geometric_mean_score(y_true, y_pred) == 0.0
        assert gmsec_score(y_true, y_pred) == 0.0
        assert mes_score(y_true, y_pred) == 0.5


def test_a_class_with_no_true_item_is_left_out_with_a_warning():
    # Class 3 is only predicted: it has no recall.
    y_true, y_pred = [0, 0, 1, 2, 2], [0, 1, 1, 2, 3]
    with pytest.warns(UndefinedMetricWarning, match=r"\[3\] have no true item"):
        assert minimum_sensitivity_score(y_true, y_pred) == 0.5
    with pytest.warns(UndefinedMetricWarning, match=r"\[3\] have no true item"):
        assert geometric_mean_score(y_true, y_pred) == pytest.approx((0.5 * 1 * 0.5) ** (1 / 3))
    # imbalanced-learn counts it as a recall of 0 instead, which makes its G-mean 0.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert imblearn_geometric_mean(y_true, y_pred) == 0.0
    # The extreme class 3 is left out: the score is the recall of class 0.
    with pytest.warns(UndefinedMetricWarning, match="left out of GMSEC"):
        assert gmsec_score(y_true, y_pred) == 0.5
    with pytest.warns(UndefinedMetricWarning, match="left out of MES"):
        assert mes_score(y_true, y_pred) == 0.5
    # A class named in labels that no item has is left out too.
    with pytest.warns(UndefinedMetricWarning, match=r"\[3, 4\] have no true item"):
        assert minimum_sensitivity_score(y_true, y_pred, labels=[0, 1, 2, 3, 4]) == 0.5


def test_no_extreme_class_with_a_true_item_is_nan():
    undefined = r"\[0, 2\] have no true item, so (GMSEC|MES) is undefined; returning NaN"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert np.isnan(gmsec_score([1, 1], [0, 2]))
        assert np.isnan(mes_score([1, 1], [1, 1], labels=[0, 1, 2]))
    assert len(caught) == 2  # one warning per call
    for warning in caught:
        assert warning.category is UndefinedMetricWarning
        assert re.search(undefined, str(warning.message))
        assert warning.filename == __file__  # it points at the caller


def test_one_class_is_both_extremes():
    assert gmsec_score([2, 2], [2, 2]) == mes_score([2, 2], [2, 2]) == 1.0


def _all_classes_true(data):
    """Pairs whose predicted classes all occur in y_true: every class has a recall,
    so every peer's convention gives the same class set."""
    y_true, y_pred, weights = data
    present = set(y_true)
    y_pred = [p if p in present else t for t, p in zip(y_true, y_pred)]
    return np.array(y_true), np.array(y_pred), np.array(weights)


samples = st.integers(1, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 5), min_size=n, max_size=n),
        st.lists(st.integers(0, 5), min_size=n, max_size=n),
        st.lists(st.floats(0.1, 5.0), min_size=n, max_size=n),
    )
).map(_all_classes_true)


@given(data=samples)
def test_geometric_mean_matches_imbalanced_learn(data):
    y_true, y_pred, weights = data
    expected = imblearn_geometric_mean(y_true, y_pred, sample_weight=weights)
    assert geometric_mean_score(y_true, y_pred, sample_weight=weights) == pytest.approx(expected)


@given(data=samples)
def test_matches_scikit_learn_recalls(data):
    y_true, y_pred, weights = data
    recalls = recall_score(y_true, y_pred, average=None, sample_weight=weights)
    assert minimum_sensitivity_score(y_true, y_pred, sample_weight=weights) == pytest.approx(
        recalls.min()
    )
    assert gmsec_score(y_true, y_pred, sample_weight=weights) == pytest.approx(
        np.sqrt(recalls[0] * recalls[-1])
    )
    assert mes_score(y_true, y_pred, sample_weight=weights) == pytest.approx(
        (recalls[0] + recalls[-1]) / 2
    )


@given(data=samples)
def test_matches_skordinal(data):
    skordinal = pytest.importorskip("skordinal.metrics")
    y_true, y_pred, weights = data
    pairs = [
        (minimum_sensitivity_score, skordinal.minimum_sensitivity),
        (geometric_mean_score, skordinal.geometric_mean),
        (gmsec_score, skordinal.gmsec),
        (mes_score, skordinal.mean_extreme_sensitivity),
    ]
    for ours, theirs in pairs:
        assert ours(y_true, y_pred, sample_weight=weights) == pytest.approx(
            theirs(y_true, y_pred, sample_weight=weights)
        ), ours.__name__


@given(data=samples)
def test_identities_between_the_measures(data):
    y_true, y_pred, weights = data
    kwargs = {"sample_weight": weights}
    minimum = minimum_sensitivity_score(y_true, y_pred, **kwargs)
    assert minimum == pytest.approx(1 - mean_zero_one_error(y_true, y_pred, average="max",
                                                            **kwargs))
    geometric = geometric_mean_score(y_true, y_pred, **kwargs)
    assert minimum <= geometric + 1e-12
    # Arithmetic mean >= geometric mean, for the extreme classes too.
    assert 1 - macro_mean_zero_one_error(y_true, y_pred, **kwargs) >= geometric - 1e-12
    assert mes_score(y_true, y_pred, **kwargs) >= gmsec_score(y_true, y_pred, **kwargs) - 1e-12
