"""Error measures of Baccianella et al. (2009): definitions, identities, paper facts."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import balanced_accuracy_score

from sklearn_ordinal.metrics import (
    macro_mean_absolute_error,
    macro_mean_squared_error,
    macro_mean_zero_one_error,
    mean_absolute_error,
    mean_squared_error,
    mean_zero_one_error,
    root_mean_squared_error,
)

MEASURES = {
    "absolute": (mean_absolute_error, lambda t, p: abs(p - t)),
    "squared": (mean_squared_error, lambda t, p: (p - t) ** 2),
    "zero_one": (mean_zero_one_error, lambda t, p: float(p != t)),
}


def _brute_force(error, y_true, y_pred, weights, average):
    """The paper's equations (1)-(4), one item at a time."""
    if average == "micro":
        return sum(w * error(t, p) for t, p, w in zip(y_true, y_pred, weights)) / sum(weights)
    per_class = []
    for c in sorted(set(y_true)):
        items = [(p, w) for t, p, w in zip(y_true, y_pred, weights) if t == c]
        per_class.append(sum(w * error(c, p) for p, w in items) / sum(w for _, w in items))
    return sum(per_class) / len(per_class)


samples = st.integers(1, 30).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(1, 6), min_size=n, max_size=n),
        st.lists(st.integers(1, 6), min_size=n, max_size=n),
        st.lists(st.floats(0.1, 5.0), min_size=n, max_size=n),
    )
)


@pytest.mark.parametrize("measure", sorted(MEASURES))
@pytest.mark.parametrize("average", ["macro", "micro"])
@given(data=samples)
def test_matches_the_paper_item_by_item(measure, average, data):
    y_true, y_pred, weights = data
    function, error = MEASURES[measure]
    expected = _brute_force(error, y_true, y_pred, weights, average)
    if average == "macro" and set(y_pred) - set(y_true):
        # A predicted class with no true item is left out of the mean, with a warning.
        with pytest.warns(UndefinedMetricWarning):
            got = function(y_true, y_pred, average=average, sample_weight=weights)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error", UndefinedMetricWarning)
            got = function(y_true, y_pred, average=average, sample_weight=weights)
    assert got == pytest.approx(expected)


balanced = st.integers(2, 6).flatmap(
    lambda k: st.integers(1, 8).flatmap(
        lambda m: st.lists(st.integers(0, k - 1), min_size=k * m, max_size=k * m).map(
            lambda pred: (np.repeat(np.arange(k), m), np.array(pred))
        )
    )
)


@pytest.mark.parametrize("function", [mean_absolute_error, mean_squared_error,
                                      root_mean_squared_error, mean_zero_one_error])
@given(data=balanced)
def test_macro_equals_micro_on_balanced_data(function, data):
    # Paper, section IV: with |Te_j| = |Te| / n for every class, MAE^M = MAE^mu.
    y_true, y_pred = data
    assert function(y_true, y_pred) == pytest.approx(function(y_true, y_pred, average="micro"))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@given(data=samples, shift=st.integers(-50, 50), scale=st.floats(0.1, 10))
def test_zero_one_error_ignores_increasing_relabelling(data, shift, scale):
    y_true, y_pred, weights = data
    relabel = lambda y: np.exp(scale * np.asarray(y, dtype=float)) + shift  # noqa: E731
    # Non-integral float classes: labels= says which floats are classes (else a float
    # never seen in y_true reads as a regressor's real-valued prediction).
    classes = relabel(np.union1d(y_true, y_pred))
    for average in ("macro", "micro"):
        expected = mean_zero_one_error(y_true, y_pred, average=average, sample_weight=weights)
        got = mean_zero_one_error(relabel(y_true), relabel(y_pred), average=average,
                                  labels=classes, sample_weight=weights)
        assert got == pytest.approx(expected)


def test_zero_one_error_is_one_minus_balanced_accuracy():
    rng = np.random.RandomState(0)
    y_true, y_pred = rng.randint(5, size=300), rng.randint(5, size=300)
    assert macro_mean_zero_one_error(y_true, y_pred) == pytest.approx(
        1 - balanced_accuracy_score(y_true, y_pred)
    )


def test_root_is_square_root_of_squared_error():
    rng = np.random.RandomState(1)
    y_true, y_pred = rng.randint(5, size=100), rng.randint(5, size=100)
    for average in ("macro", "micro"):
        assert root_mean_squared_error(y_true, y_pred, average=average) == pytest.approx(
            np.sqrt(mean_squared_error(y_true, y_pred, average=average))
        )
    np.testing.assert_allclose(
        root_mean_squared_error(y_true, y_pred, average=None),
        np.sqrt(mean_squared_error(y_true, y_pred, average=None)),
    )


def test_class_values_set_the_distances():
    y_true, y_pred, order = ["low", "mid", "high"], ["high", "low", "low"], ["low", "mid", "high"]
    # Positions 0, 1, 2: errors 2, 1, 2. Values 0, 1, 10: errors 10, 1, 10.
    assert macro_mean_absolute_error(y_true, y_pred, labels=order) == pytest.approx(5 / 3)
    assert macro_mean_absolute_error(
        y_true, y_pred, labels=order, class_values=[0, 1, 10]
    ) == pytest.approx(7)
    assert macro_mean_squared_error(
        y_true, y_pred, labels=order, class_values=[0, 1, 10]
    ) == pytest.approx(67)


def test_class_without_true_item_warns_and_is_left_out():
    # imbalanced-learn crashes on this input; the macro mean over present classes is 0.5.
    with pytest.warns(UndefinedMetricWarning, match=r"Classes \[1\] have no true item"):
        assert macro_mean_absolute_error([0, 0], [0, 1]) == 0.5
    with pytest.warns(UndefinedMetricWarning, match="left out of the macro average"):
        assert macro_mean_absolute_error([0, 2], [0, 1], labels=[0, 1, 2]) == 0.5
    with pytest.warns(UndefinedMetricWarning, match="NaN"):
        per_class = mean_absolute_error([0, 2], [0, 1], labels=[0, 1, 2], average=None)
    np.testing.assert_array_equal(per_class, [0, np.nan, 1])


def test_micro_average_never_warns():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert mean_absolute_error([0, 0], [0, 1], average="micro") == 0.5


def test_unknown_average_is_rejected():
    with pytest.raises(ValueError, match="average"):
        mean_absolute_error([0, 1], [0, 1], average="weighted")


# --- The trivial class (trivial_baseline.rst) ------------------------------------------------------

def _trivial_errors(counts, measure, average):
    """Error of each trivial classifier Phi_k on data with these class counts."""
    k = len(counts)
    y_true = np.repeat(np.arange(k), counts)
    return np.array([measure(y_true, np.full(len(y_true), c), average=average, labels=range(k))
                     for c in range(k)])


@given(st.lists(st.integers(1, 500), min_size=5, max_size=5))
def test_five_equidistant_classes_trivial_class_is_the_middle_one(counts):
    errors = _trivial_errors(counts, mean_absolute_error, "macro")
    assert np.argmin(errors) == 2
    assert errors.min() == pytest.approx(1.2)


@given(st.lists(st.integers(1, 500), min_size=4, max_size=4))
def test_four_equidistant_classes_trivial_classes_are_the_middle_two(counts):
    errors = _trivial_errors(counts, mean_absolute_error, "macro")
    assert set(np.flatnonzero(np.isclose(errors, errors.min()))) == {1, 2}
    assert errors.min() == pytest.approx(1.0)


@pytest.mark.parametrize("k", range(2, 10))
def test_trivial_macro_error_formula(k):
    # (K^2 - 1) / (4K) for odd K, K / 4 for even K, in units of the class spacing.
    counts = np.random.RandomState(k).randint(1, 100, size=k)
    expected = (k * k - 1) / (4 * k) if k % 2 else k / 4
    assert _trivial_errors(counts, mean_absolute_error, "macro").min() == pytest.approx(expected)


def test_tripadvisor_trivial_class_for_micro_mae_is_four_stars():
    # 1..5 stars: 3.9, 7.2, 9.4, 34.5, 45.0 % of the reviews.
    counts = [39, 72, 94, 345, 450]
    errors = _trivial_errors(counts, mean_absolute_error, "micro")
    assert np.argmin(errors) == 3  # 4 stars, not the majority class 5 stars
    assert errors[3] == pytest.approx(0.805)
    assert errors[4] == pytest.approx(0.905)


# --- A regressor's real-valued predictions (docs conventions page) ----------------------------------

_regression_samples = st.integers(1, 40).flatmap(
    lambda n: st.tuples(
        arrays(np.int64, n, elements=st.integers(1, 5)),
        arrays(np.float64, n, elements=st.floats(-2.0, 8.0)),
        arrays(np.float64, n, elements=st.floats(0.1, 3.0)),
    )
)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("power, measure", [(1, mean_absolute_error), (2, mean_squared_error)])
@given(data=_regression_samples)
def test_real_valued_predictions_are_measured_as_they_are(power, measure, data):
    # e_d = |y_hat_d - v(y_d)|, micro over items and macro over the true classes.
    y_true, y_pred, weights = data
    y_pred = y_pred + 0.25  # at least one non-integral prediction
    errors = np.abs(y_pred - y_true) ** power
    assert measure(y_true, y_pred, average="micro", sample_weight=weights) == pytest.approx(
        np.average(errors, weights=weights)
    )
    per_class = [np.average(errors[y_true == c], weights=weights[y_true == c])
                 for c in np.unique(y_true)]
    assert measure(y_true, y_pred, average="macro", sample_weight=weights) == pytest.approx(
        np.mean(per_class))


def test_real_valued_predictions_use_class_values_and_never_a_huge_matrix():
    # 10^5 distinct predictions would be a 10^5 x 10^5 confusion matrix (80 GB).
    rng = np.random.RandomState(0)
    y_true = rng.randint(3, size=100_000)
    y_pred = y_true + rng.normal(scale=0.3, size=y_true.size)
    assert mean_absolute_error(y_true, y_pred, average="micro") == pytest.approx(
        np.mean(np.abs(y_pred - y_true))
    )
    order = ["low", "mid", "high"]
    names = np.array(order)[y_true]
    values = np.array([0.0, 10.0, 20.0])
    assert mean_absolute_error(
        names, 10 * y_pred, labels=order, class_values=values, average="micro"
    ) == pytest.approx(np.mean(np.abs(10 * y_pred - values[y_true])))


def test_float_predictions_that_are_classes_stay_classes():
    # Integral floats, or the class labels themselves, are class predictions.
    assert mean_absolute_error([1, 2, 3], [1.0, 2.0, 2.0], average="micro") == pytest.approx(1 / 3)
    assert mean_zero_one_error([0.5, 1.5], [0.5, 0.5], average="micro") == 0.5


@pytest.mark.parametrize("where", [0, 1023, 1024, 4999])
@pytest.mark.parametrize("labels", [None, [0.0, 1.0, 1.5, 2.0, 3.0]])
def test_one_real_value_anywhere_makes_real_valued_predictions(where, labels):
    # The first predictions are tested alone before all of them: a value that is no
    # class is found wherever it is, and a half-step class is a class wherever it is.
    from sklearn_ordinal._validation import _is_real_valued

    y_true = np.arange(5000) % 4
    y_pred = y_true.astype(float)
    assert not _is_real_valued(y_pred, y_true, labels)
    y_pred[where] = 1.5
    assert _is_real_valued(y_pred, y_true, labels) is (labels is None)
    y_pred[where] = 1.25
    assert _is_real_valued(y_pred, y_true, labels)


@pytest.mark.parametrize(
    "name",
    ["mean_zero_one_error", "cem_score", "accuracy_within_score", "kendall_tau_a_score",
     "ordinal_confusion_matrix"],
)
def test_other_label_measures_refuse_real_valued_predictions(name):
    import sklearn_ordinal.metrics as metrics

    with pytest.raises(ValueError, match=r"real-valued predictions \(e\.g\. 1\.37\).*[Rr]ound"):
        getattr(metrics, name)([1, 2, 3], [1.37, 2.0, 3.0])


# --- The worst class: average="max" (Cruz-Ramírez et al. 2014) ----------------------

samples_with_regressor = st.integers(1, 30).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(1, 6), min_size=n, max_size=n),
        st.lists(st.integers(1, 6), min_size=n, max_size=n),
        st.lists(st.floats(0.1, 5.0), min_size=n, max_size=n),
        st.lists(st.floats(-0.49, 0.49), min_size=n, max_size=n),
    )
)


@pytest.mark.parametrize("measure", sorted(MEASURES))
@given(data=samples_with_regressor)
def test_max_lies_above_macro_and_the_best_class(measure, data):
    # MMAE >= MAE^M >= the smallest per-class error, with the max the brute-force
    # largest per-class error, for classes and for a regressor's real values alike.
    y_true, y_pred, weights, noise = data
    function, error = MEASURES[measure]
    predictions = [y_pred]
    if measure != "zero_one":
        predictions.append(np.array(y_pred) + np.array(noise) + 0.003)
    for prediction in predictions:
        per_class = [
            sum(w * error(c, p) for t, p, w in zip(y_true, prediction, weights) if t == c)
            / sum(w for t, w in zip(y_true, weights) if t == c)
            for c in sorted(set(y_true))
        ]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            largest = function(y_true, prediction, average="max", sample_weight=weights)
            macro = function(y_true, prediction, sample_weight=weights)
            by_class = function(y_true, prediction, average=None, sample_weight=weights)
        assert largest == pytest.approx(max(per_class))
        assert largest >= macro - 1e-12
        assert macro >= np.nanmin(by_class) - 1e-12


@given(data=samples)
def test_max_root_mean_squared_error_is_the_root_of_the_max(data):
    y_true, y_pred, weights = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        mse = mean_squared_error(y_true, y_pred, average="max", sample_weight=weights)
        rmse = root_mean_squared_error(y_true, y_pred, average="max", sample_weight=weights)
        per_class = root_mean_squared_error(y_true, y_pred, average=None, sample_weight=weights)
    assert rmse == pytest.approx(np.sqrt(mse))
    assert rmse == pytest.approx(np.nanmax(per_class))


def test_max_hand_computed_and_skordinal():
    y_true = [0, 0, 1, 2, 3, 0, 0]
    y_pred = [0, 1, 1, 2, 3, 0, 1]
    # Class 0: two of four items one class off; the others exact.
    assert mean_absolute_error(y_true, y_pred, average="max") == 0.5
    assert mean_zero_one_error(y_true, y_pred, average="max") == 0.5
    skordinal = pytest.importorskip("skordinal.metrics")
    assert skordinal.maximum_mean_absolute_error(y_true, y_pred) == 0.5


def test_max_leaves_out_a_class_with_no_true_item():
    with pytest.warns(UndefinedMetricWarning, match=r"\[3\] have no true item.*maximum"):
        assert mean_absolute_error([1, 1, 2], [1, 3, 2], labels=[1, 2, 3], average="max") == 1.0
