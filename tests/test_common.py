"""Invariances every measure must have, in the shape of scikit-learn's test_common.

Adding a measure means adding one line to a registry below; it then gets every test
of this file for free. Measure-specific facts (paper numbers, identities) live in
each measure's own test file.
"""

import pickle
import re
import warnings
from functools import partial

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_ordinal._records import unwrap_partial
from sklearn_ordinal.metrics import (
    accuracy_within_score,
    cem_score,
    geometric_mean_score,
    gmsec_score,
    kendall_tau_a_score,
    macro_mean_absolute_error,
    macro_mean_squared_error,
    macro_mean_zero_one_error,
    macro_root_mean_squared_error,
    mean_absolute_error,
    mean_squared_error,
    mean_zero_one_error,
    mes_score,
    minimum_sensitivity_score,
    ranked_probability_score_loss,
    root_mean_squared_error,
    u_cons_score,
    u_ovo_score,
    u_pairs_score,
    vus_score,
)
from sklearn_ordinal.metrics._agreement import (
    _accuracy,
    _balanced_accuracy,
    _cohen_kappa,
    _kendall_tau_b,
    _macro_f1,
    macro_f1_gold_score,
    _mutual_information,
    _pearson,
    _spearman,
    _value_weighted_kappa,
)
from sklearn_ordinal.metrics._registry import records

# Label measures: f(y_true, y_pred, *, labels=None, sample_weight=None, ...) -> float.
LABEL_MEASURES = {
    # Error measures (Baccianella et al. 2009)
    "macro_mean_absolute_error": macro_mean_absolute_error,
    "micro_mean_absolute_error": partial(mean_absolute_error, average="micro"),
    "macro_mean_squared_error": macro_mean_squared_error,
    "micro_mean_squared_error": partial(mean_squared_error, average="micro"),
    "macro_root_mean_squared_error": macro_root_mean_squared_error,
    "micro_root_mean_squared_error": partial(root_mean_squared_error, average="micro"),
    "macro_mean_zero_one_error": macro_mean_zero_one_error,
    "micro_mean_zero_one_error": partial(mean_zero_one_error, average="micro"),
    # The worst class (Cruz-Ramírez et al. 2014)
    "max_mean_absolute_error": partial(mean_absolute_error, average="max"),
    "max_mean_squared_error": partial(mean_squared_error, average="max"),
    "max_root_mean_squared_error": partial(root_mean_squared_error, average="max"),
    "max_mean_zero_one_error": partial(mean_zero_one_error, average="max"),
    # Sensitivities
    "minimum_sensitivity": minimum_sensitivity_score,
    "geometric_mean": geometric_mean_score,
    "gmsec": gmsec_score,
    "mes": mes_score,
    # Closeness (Amigó et al. 2020) and the measures it is compared with
    "cem_ord": cem_score,
    "cem_nom": partial(cem_score, scale="nominal"),
    "cem_int": partial(cem_score, scale="interval"),
    "cem_ord_flat": partial(cem_score, flat=True),
    "accuracy_within_1": partial(accuracy_within_score, n=1),
    "kendall_tau_a": kendall_tau_a_score,
    "accuracy": _accuracy,
    "macro_accuracy": _balanced_accuracy,
    "cohen_kappa": _cohen_kappa,
    "linear_weighted_kappa": partial(_cohen_kappa, weights="linear"),
    "quadratic_weighted_kappa": partial(_cohen_kappa, weights="quadratic"),
    "linear_value_weighted_kappa": partial(_value_weighted_kappa, weights="linear"),
    "quadratic_value_weighted_kappa": partial(_value_weighted_kappa, weights="quadratic"),
    "macro_f1": _macro_f1,
    "macro_f1_gold": macro_f1_gold_score,
    "kendall_tau_b": _kendall_tau_b,
    "spearman": _spearman,
    "pearson": _pearson,
    "mutual_information": _mutual_information,
}



def test_every_registry_measure_is_held_to_these_tests():
    # A measure added to the registry must be added to the tables of this file.
    listed = {unwrap_partial(f)[0] for table in (LABEL_MEASURES, SCORE_MEASURES, PROBA_MEASURES)
              for f in table.values()}
    assert {record.function for record in records()} <= listed


_CEM_SECTION = {
    "cem_ord", "cem_nom", "cem_int", "cem_ord_flat", "accuracy_within_1", "kendall_tau_a",
    "accuracy", "macro_accuracy", "cohen_kappa", "linear_weighted_kappa",
    "quadratic_weighted_kappa", "linear_value_weighted_kappa", "quadratic_value_weighted_kappa",
    "macro_f1", "macro_f1_gold", "kendall_tau_b", "spearman", "pearson",
    "mutual_information",
}

# Label measures that take ``class_values`` (distance measures).
DISTANCE_MEASURES = {
    "macro_mean_absolute_error",
    "micro_mean_absolute_error",
    "macro_mean_squared_error",
    "micro_mean_squared_error",
    "macro_root_mean_squared_error",
    "micro_root_mean_squared_error",
    "max_mean_absolute_error",
    "max_mean_squared_error",
    "max_root_mean_squared_error",
    # CEM takes class_values on every scale (and checks them); only "interval" uses them.
    "cem_ord",
    "cem_nom",
    "cem_int",
    "cem_ord_flat",
    "pearson",
    "linear_value_weighted_kappa",
    "quadratic_value_weighted_kappa",
}

# Label measures that ignore the order of the classes: they take unordered strings as
# a mere set. Every other measure refuses strings whose order is not given.
ORDER_FREE = {
    "macro_mean_zero_one_error",
    "micro_mean_zero_one_error",
    "max_mean_zero_one_error",
    "minimum_sensitivity",
    "geometric_mean",
    "cem_nom",
    "accuracy",
    "macro_accuracy",
    "cohen_kappa",
    "macro_f1",
    "macro_f1_gold",
    "mutual_information",
}

# Label measures for which a higher value is better (the others are errors).
GREATER_IS_BETTER = set(_CEM_SECTION) | {
    "minimum_sensitivity", "geometric_mean", "gmsec", "mes",
}

# Label measures that do not take ``sample_weight`` (their definition has no
# weighted form): they are left out of the weight tests.
NO_SAMPLE_WEIGHT = {"kendall_tau_a", "kendall_tau_b", "spearman"}

# Score measures: f(y_true, y_score, *, labels=None, sample_weight=None) -> float,
# higher is better.
SCORE_MEASURES = {
    # Ranking (Waegeman et al. 2008)
    "vus_score": vus_score,
    "u_pairs_score": u_pairs_score,
    "u_ovo_score": u_ovo_score,
    "u_cons_score": u_cons_score,
    "vus_score_strict_ties": partial(vus_score, ties="strict"),
    "u_cons_score_strict_ties": partial(u_cons_score, ties="strict"),
}

# Probabilistic measures: f(y_true, y_proba, *, labels=None, sample_weight=None) -> float,
# ``y_proba`` holding one column per class in class order; lower is better.
PROBA_MEASURES = {
    "ranked_probability_score_loss": ranked_probability_score_loss,
    "normalized_ranked_probability_score": partial(ranked_probability_score_loss, normalize=True),
}


def _random_labels(seed, n=60, n_classes=4):
    rng = np.random.RandomState(seed)
    y_true = rng.randint(n_classes, size=n)
    y_true[:n_classes] = np.arange(n_classes)  # every class has a true item
    y_pred = np.clip(y_true + rng.randint(-2, 3, size=n), 0, n_classes - 1)
    return y_true, y_pred


def _random_scores(seed, n=60, n_classes=4):
    rng = np.random.RandomState(seed)
    y_true = rng.randint(n_classes, size=n)
    y_true[:n_classes] = np.arange(n_classes)
    # Rounded scores, so that ties occur.
    y_score = np.round(y_true + rng.normal(scale=1.5, size=n), 1)
    return y_true, y_score


def _random_proba(seed, n=60, n_classes=4):
    rng = np.random.RandomState(seed)
    y_true = rng.randint(n_classes, size=n)
    y_true[:n_classes] = np.arange(n_classes)  # every column is a class of y_true
    return y_true, rng.dirichlet(np.ones(n_classes), size=n)


def _accepts_sample_weight(name):
    return name not in NO_SAMPLE_WEIGHT


label_measures = pytest.mark.parametrize("name", sorted(LABEL_MEASURES))
score_measures = pytest.mark.parametrize("name", sorted(SCORE_MEASURES))
proba_measures = pytest.mark.parametrize("name", sorted(PROBA_MEASURES))
all_measures = pytest.mark.parametrize(
    "name", sorted(LABEL_MEASURES) + sorted(SCORE_MEASURES) + sorted(PROBA_MEASURES)
)


def _measure(name):
    return {**LABEL_MEASURES, **SCORE_MEASURES, **PROBA_MEASURES}[name]


def _data(name, seed=0, **kwargs):
    if name in PROBA_MEASURES:
        return _random_proba(seed, **kwargs)
    return (_random_scores if name in SCORE_MEASURES else _random_labels)(seed, **kwargs)


@all_measures
@pytest.mark.parametrize("seed", range(3))
def test_sample_order_invariance(name, seed):
    y_true, y_pred = _data(name, seed)
    order = np.random.RandomState(seed + 100).permutation(len(y_true))
    measure = _measure(name)
    assert measure(y_true, y_pred) == pytest.approx(measure(y_true[order], y_pred[order]))


@all_measures
def test_returns_python_float(name):
    y_true, y_pred = _data(name)
    assert type(_measure(name)(y_true, y_pred)) is float


@all_measures
def test_input_containers_agree(name):
    y_true, y_pred = _data(name)
    measure = _measure(name)
    expected = measure(y_true, y_pred)
    assert measure(list(y_true), list(y_pred)) == pytest.approx(expected)
    as_pandas = pd.DataFrame if np.ndim(y_pred) == 2 else pd.Series
    assert measure(pd.Series(y_true), as_pandas(y_pred)) == pytest.approx(expected)
    assert measure(y_true.reshape(-1, 1), y_pred) == pytest.approx(expected)


# Class names whose alphabetical order is not their ordinal order.
ORDINAL_NAMES = ["poor", "fair", "good", "great"]


@label_measures
def test_strings_in_a_given_order_match_numbers(name):
    # Labels 0..K-1 are their own positions, so string labels given in the same
    # (non-alphabetical) order must give exactly the same value, distances included.
    y_true, y_pred = _random_labels(1)
    names = np.array(ORDINAL_NAMES)
    measure = LABEL_MEASURES[name]
    expected = measure(y_true, y_pred)
    assert measure(names[y_true], names[y_pred], labels=ORDINAL_NAMES) == pytest.approx(expected)


@label_measures
def test_unordered_strings_need_an_order_unless_the_measure_ignores_it(name):
    y_true, y_pred = _random_labels(1)
    names = np.array(ORDINAL_NAMES)
    measure = LABEL_MEASURES[name]
    if name in ORDER_FREE:
        # A relabelling that breaks the order changes nothing for these measures.
        assert measure(names[y_true], names[y_pred]) == pytest.approx(measure(y_true, y_pred))
    else:
        with pytest.raises(ValueError, match=r"order cannot be guessed.*labels=\[\.\.\.\]"):
            measure(names[y_true], names[y_pred])


def _ordered_containers(names, codes):
    """The same ordered-categorical labels in every pandas container."""
    dtype = pd.CategoricalDtype(ORDINAL_NAMES, ordered=True)
    series = pd.Series(np.asarray(names)[codes]).astype(dtype)
    return {
        "Series": series,
        "Categorical": series.array,
        "one-column DataFrame": series.to_frame("grade"),
        "CategoricalIndex": pd.CategoricalIndex(series),
    }


@label_measures
@pytest.mark.parametrize(
    "container", ["Series", "Categorical", "one-column DataFrame", "CategoricalIndex"]
)
def test_ordered_categorical_order_wins(name, container):
    # Categories in an order that differs from the alphabetical one: the
    # categorical (in any pandas container) and the numeric codes must agree.
    y_true, y_pred = _random_labels(2)
    measure = LABEL_MEASURES[name]
    expected = measure(y_true, y_pred)
    as_categorical = _ordered_containers(ORDINAL_NAMES, y_true)[container]
    predicted = np.array(ORDINAL_NAMES)[y_pred]
    assert measure(as_categorical, predicted) == pytest.approx(expected)
    predicted_categorical = _ordered_containers(ORDINAL_NAMES, y_pred)[container]
    assert measure(as_categorical, predicted_categorical) == pytest.approx(expected)


@label_measures
def test_labels_given_in_order_match_inferred(name):
    y_true, y_pred = _random_labels(3)
    measure = LABEL_MEASURES[name]
    assert measure(y_true, y_pred, labels=[0, 1, 2, 3]) == pytest.approx(measure(y_true, y_pred))


@label_measures
def test_perfect_prediction_is_optimal(name):
    y_true, y_pred = _random_labels(4)
    measure = LABEL_MEASURES[name]
    perfect, imperfect = measure(y_true, y_true), measure(y_true, y_pred)
    if name in GREATER_IS_BETTER:
        assert perfect > imperfect
    else:
        assert perfect == 0.0 < imperfect


@all_measures
def test_integer_weights_equal_repeated_rows(name):
    if not _accepts_sample_weight(name):
        pytest.skip(f"{name} has no weighted form")
    y_true, y_pred = _data(name, 5)
    weights = np.random.RandomState(5).randint(1, 4, size=len(y_true))
    measure = _measure(name)
    repeated = measure(np.repeat(y_true, weights), np.repeat(y_pred, weights, axis=0))
    assert measure(y_true, y_pred, sample_weight=weights) == pytest.approx(repeated)


@all_measures
def test_unit_and_scaled_weights_change_nothing(name):
    if not _accepts_sample_weight(name):
        pytest.skip(f"{name} has no weighted form")
    y_true, y_pred = _data(name, 6)
    measure = _measure(name)
    expected = measure(y_true, y_pred)
    ones = np.ones(len(y_true))
    assert measure(y_true, y_pred, sample_weight=ones) == pytest.approx(expected)
    weights = np.random.RandomState(6).uniform(0.1, 2.0, size=len(y_true))
    weighted = measure(y_true, y_pred, sample_weight=weights)
    assert measure(y_true, y_pred, sample_weight=weights * 7.5) == pytest.approx(weighted)


@all_measures
@pytest.mark.parametrize("seed", range(3))
def test_zero_weight_equals_removing_the_row(name, seed):
    # Conventions (docs): a zero-weight row is a dropped row, class set included: here every
    # item of one class (and of one predicted class) weighs zero.
    if not _accepts_sample_weight(name):
        pytest.skip(f"{name} has no weighted form")
    y_true, y_pred = _data(name, 7 + seed, n_classes=5)
    rng = np.random.RandomState(seed)
    weights = rng.uniform(0.5, 2.0, size=len(y_true))
    drop = (y_true == 4) | (rng.uniform(size=len(y_true)) < 0.2)
    if name in LABEL_MEASURES:
        drop |= y_pred == 4
    weights[drop] = 0
    measure = _measure(name)
    if name in PROBA_MEASURES:
        # The columns name the classes: dropping every item of one keeps its column.
        measure = partial(measure, labels=np.arange(5))
    expected = measure(y_true[~drop], y_pred[~drop], sample_weight=weights[~drop])
    assert measure(y_true, y_pred, sample_weight=weights) == pytest.approx(expected)


@all_measures
@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e200, 1e300])
def test_extreme_weight_scales_change_nothing(name, scale):
    # Only the ratios of the weights matter: no overflow, underflow or NaN.
    if not _accepts_sample_weight(name):
        pytest.skip(f"{name} has no weighted form")
    y_true, y_pred = _data(name, 11)
    weights = np.random.RandomState(11).uniform(0.1, 2.0, size=len(y_true))
    measure = _measure(name)
    expected = measure(y_true, y_pred, sample_weight=weights)
    assert measure(y_true, y_pred, sample_weight=weights * scale) == pytest.approx(
        expected, rel=1e-9, abs=1e-12
    )


@all_measures
def test_measures_pickle(name):
    y_true, y_pred = _data(name, 8)
    measure = pickle.loads(pickle.dumps(_measure(name)))
    assert measure(y_true, y_pred) == pytest.approx(_measure(name)(y_true, y_pred))


# --- Bad input: each case names the problem in its message --------------------------

_BAD_LABEL_INPUT = {
    "different lengths": (([0, 1, 2], [0, 1]), {}, "inconsistent numbers of samples"),
    "empty": (([], []), {}, "empty"),
    "2-D y_true": ((np.zeros((4, 2), dtype=int), [0, 1, 0, 1]), {}, "1-D"),
    "2-D y_pred": (([0, 1, 0, 1], np.zeros((4, 2), dtype=int)), {}, "1-D"),
    "NaN in y_true": (([0.0, np.nan, 1.0], [0, 1, 1]), {}, "NaN"),
    "infinity in y_pred": (([0, 1, 1], [0.0, np.inf, 1.0]), {}, "infinity"),
    "None in y_true": ((["a", None, "b"], ["a", "b", "b"]), {}, "missing"),
    "label outside labels": (([0, 1, 2], [0, 1, 5]), {"labels": [0, 1, 2]}, r"not in labels.*\[5\]"),
    "duplicated labels": (([0, 1, 2], [0, 1, 2]), {"labels": [0, 1, 1, 2]}, "duplicates"),
    "strings mixed with numbers": ((["a", 1, "b"], ["a", "b", "b"]), {}, "[Mm]ix"),
    "strings against numbers": ((["a", "b", "b"], [0, 1, 1]), {}, "[Mm]ix"),
    "negative weight": (([0, 1, 2], [0, 1, 2]), {"sample_weight": [1, -1, 1]}, "negative"),
    "NaN weight": (([0, 1, 2], [0, 1, 2]), {"sample_weight": [1, np.nan, 1]}, "NaN"),
    "all-zero weights": (([0, 1, 2], [0, 1, 2]), {"sample_weight": [0, 0, 0]}, "zero everywhere"),
    "weights of another length": (([0, 1, 2], [0, 1, 2]), {"sample_weight": [1, 1]}, "sample_weight"),
}


@label_measures
@pytest.mark.parametrize("case", sorted(_BAD_LABEL_INPUT))
def test_bad_label_input_is_a_clear_value_error(name, case):
    (y_true, y_pred), kwargs, message = _BAD_LABEL_INPUT[case]
    if "sample_weight" in kwargs and not _accepts_sample_weight(name):
        pytest.skip(f"{name} has no weighted form")
    with pytest.raises(ValueError, match=message):
        LABEL_MEASURES[name](y_true, y_pred, **kwargs)


_BAD_CLASS_VALUES = {
    "wrong length": ([0.0, 1.0], "one number per class"),
    "not increasing": ([0.0, 2.0, 1.0], "strictly increasing"),
    "repeated": ([0.0, 1.0, 1.0], "strictly increasing"),
    "not finite": ([0.0, 1.0, np.inf], "finite"),
    "complex": ([0.0, 1.0j, 2.0], "real numbers"),
    "strings": (["0", "1", "2"], "real numbers"),
}


@pytest.mark.parametrize("name", sorted(DISTANCE_MEASURES))
@pytest.mark.parametrize("case", sorted(_BAD_CLASS_VALUES))
def test_bad_class_values_are_a_clear_value_error(name, case):
    class_values, message = _BAD_CLASS_VALUES[case]
    with pytest.raises(ValueError, match=message):
        LABEL_MEASURES[name](
            ["c", "b", "a"], ["c", "a", "b"], labels=["c", "b", "a"], class_values=class_values
        )


@pytest.mark.parametrize("name", sorted(DISTANCE_MEASURES))
def test_class_values_default_to_positions_for_strings(name):
    measure = LABEL_MEASURES[name]
    order = ["low", "mid", "high"]
    y_true, y_pred = ["low", "mid", "high", "high"], ["low", "high", "low", "high"]
    assert measure(y_true, y_pred, labels=order) == pytest.approx(
        measure(y_true, y_pred, labels=order, class_values=[0, 1, 2])
    )
    assert measure([0, 1, 2, 2], [0, 2, 0, 2]) == pytest.approx(
        measure(y_true, y_pred, labels=order, class_values=[0, 1, 2])
    )


_BAD_SCORE_INPUT = {
    "NaN score": (([0, 1, 2], [0.1, np.nan, 0.3]), {}, "NaN"),
    "infinite score": (([0, 1, 2], [0.1, np.inf, 0.3]), {}, "infinit"),
    "one class present": (([1, 1, 1], [0.1, 0.2, 0.3]), {}, "class"),
    "2-D scores": (([0, 1, 2], np.ones((3, 2))), {}, "1-D"),
    "different lengths": (([0, 1, 2], [0.1, 0.2]), {}, "inconsistent numbers of samples"),
    "empty": (([], []), {}, "empty"),
    "NaN in y_true": (([0.0, np.nan, 1.0], [0.1, 0.2, 0.3]), {}, "NaN"),
    "negative weight": (([0, 1, 2], [0.1, 0.2, 0.3]), {"sample_weight": [1, -1, 1]}, "negative"),
}


@score_measures
@pytest.mark.parametrize("case", sorted(_BAD_SCORE_INPUT))
def test_bad_score_input_is_a_clear_value_error(name, case):
    (y_true, y_score), kwargs, message = _BAD_SCORE_INPUT[case]
    with pytest.raises(ValueError, match=message):
        SCORE_MEASURES[name](y_true, y_score, **kwargs)


@score_measures
def test_score_measures_ignore_increasing_transforms(name):
    y_true, y_score = _random_scores(9)
    measure = SCORE_MEASURES[name]
    assert measure(y_true, np.exp(y_score) * 3 - 1) == pytest.approx(measure(y_true, y_score))


# --- Probabilistic measures: one column per class, in class order -------------------


@proba_measures
def test_proba_strings_in_a_given_order_match_numbers(name):
    y_true, y_proba = _random_proba(1)
    measure = PROBA_MEASURES[name]
    named = np.array(ORDINAL_NAMES)[y_true]
    assert measure(named, y_proba, labels=ORDINAL_NAMES) == pytest.approx(
        measure(y_true, y_proba)
    )


@proba_measures
def test_proba_unordered_strings_need_an_order(name):
    y_true, y_proba = _random_proba(1)
    with pytest.raises(ValueError, match=r"order cannot be guessed.*labels=\[\.\.\.\]"):
        PROBA_MEASURES[name](np.array(ORDINAL_NAMES)[y_true], y_proba)


@proba_measures
@pytest.mark.parametrize(
    "container", ["Series", "Categorical", "one-column DataFrame", "CategoricalIndex"]
)
def test_proba_ordered_categorical_order_wins(name, container):
    y_true, y_proba = _random_proba(2)
    measure = PROBA_MEASURES[name]
    as_categorical = _ordered_containers(ORDINAL_NAMES, y_true)[container]
    assert measure(as_categorical, y_proba) == pytest.approx(measure(y_true, y_proba))


@proba_measures
def test_proba_labels_given_in_order_match_inferred(name):
    y_true, y_proba = _random_proba(3)
    measure = PROBA_MEASURES[name]
    expected = measure(y_true, y_proba)
    assert measure(y_true, y_proba, labels=[0, 1, 2, 3]) == pytest.approx(expected)
    # Only the order counts: other numbers in the same order give the same score.
    assert measure(10 * y_true - 7, y_proba) == pytest.approx(expected)


@proba_measures
def test_proba_one_hot_forecast_of_the_truth_is_optimal(name):
    y_true, y_proba = _random_proba(4)
    measure = PROBA_MEASURES[name]
    assert measure(y_true, np.eye(4)[y_true]) == 0.0 < measure(y_true, y_proba)


_BAD_PROBA_INPUT = {
    "1-D y_proba": (([0, 1, 1], [0.2, 0.5, 0.3]), {}, "2-D"),
    "one column": (([0, 0], [[1.0], [1.0]]), {}, "at least 2 classes"),
    "strings": (([0, 1], [["1", "0"], ["0", "1"]]), {}, "real numbers"),
    "row not summing to 1": (([0, 1], [[0.5, 0.4], [0.5, 0.5]]), {}, r"row 0 sums to 0\.9"),
    "negative probability": (([0, 1], [[1.2, -0.2], [0.5, 0.5]]), {}, "negative"),
    "NaN probability": (([0, 1], [[np.nan, 1.0], [0.5, 0.5]]), {}, "NaN"),
    "infinite probability": (([0, 1], [[np.inf, 0.0], [0.5, 0.5]]), {}, "infinity"),
    "more columns than classes": (
        ([0, 1], [[0.5, 0.3, 0.2], [0.5, 0.3, 0.2]]), {}, r"3 columns but there are 2 classes"
    ),
    "columns not matching labels": (
        ([0, 1], [[0.5, 0.5], [0.5, 0.5]]), {"labels": [0, 1, 2]}, "2 columns but there are 3"
    ),
    "label outside labels": (([0, 2], [[1.0, 0.0], [0.0, 1.0]]), {"labels": [0, 1]},
                             r"not in labels.*\[2\]"),
    "different lengths": (([0, 1, 0], [[1.0, 0.0], [0.0, 1.0]]), {},
                          "inconsistent numbers of samples"),
    "empty": (([], np.zeros((0, 2))), {}, "empty"),
    "NaN in y_true": (([0.0, np.nan], [[1.0, 0.0], [0.0, 1.0]]), {}, "NaN"),
    "negative weight": (([0, 1], [[1.0, 0.0], [0.0, 1.0]]), {"sample_weight": [1, -1]},
                        "negative"),
    "all-zero weights": (([0, 1], [[1.0, 0.0], [0.0, 1.0]]), {"sample_weight": [0, 0]},
                         "zero everywhere"),
}


@proba_measures
@pytest.mark.parametrize("case", sorted(_BAD_PROBA_INPUT))
def test_bad_proba_input_is_a_clear_value_error(name, case):
    (y_true, y_proba), kwargs, message = _BAD_PROBA_INPUT[case]
    with pytest.raises(ValueError, match=message):
        PROBA_MEASURES[name](y_true, y_proba, **kwargs)


def test_registries_are_consistent():
    assert DISTANCE_MEASURES <= set(LABEL_MEASURES)
    assert GREATER_IS_BETTER <= set(LABEL_MEASURES)
    assert NO_SAMPLE_WEIGHT <= set(LABEL_MEASURES)
    assert not set(LABEL_MEASURES) & set(SCORE_MEASURES)
    assert not (set(LABEL_MEASURES) | set(SCORE_MEASURES)) & set(PROBA_MEASURES)
    for name in LABEL_MEASURES:
        assert re.fullmatch(r"[a-z0-9_]+", name)


@label_measures
@pytest.mark.parametrize("seed", range(3))
def test_every_label_measure_is_a_function_of_the_confusion_matrix(name, seed):
    # The form that resampling and chunked data use gives the measure's own value.
    from sklearn_ordinal._confusion import ordinal_confusion
    from sklearn_ordinal.metrics._registry import (
        confusion_kernel,
    )

    y_true, y_pred = _random_labels(seed)
    measure = LABEL_MEASURES[name]
    from_confusion = confusion_kernel(measure)
    assert from_confusion is not None, f"{name} has no confusion-matrix form"
    weights = None
    if _accepts_sample_weight(name):
        weights = np.random.RandomState(seed).uniform(0.1, 3.0, size=len(y_true))
    confusion = ordinal_confusion(y_true, y_pred, sample_weight=weights)
    kwargs = {} if weights is None else {"sample_weight": weights}
    assert from_confusion(confusion) == pytest.approx(measure(y_true, y_pred, **kwargs))


# --- Numbers that were wrong before (trust issue, family 5) --------------------------


def test_zero_weight_rows_hide_no_tie_and_shift_no_position():
    from sklearn_ordinal.metrics import get_scorer
    from sklearn_ordinal.metrics._agreement import _macro_f1

    # A score group holding only a zero-weight item hid the tie at 0.5.
    assert vus_score([0, 1, 0], [0.5, 0.5, 0.9], sample_weight=[1, 1, 0]) == 0.5
    # A class seen only on a zero-weight row shifted the positions.
    assert accuracy_within_score([0, 2, 1], [2, 0, 1], sample_weight=[1, 1, 0]) == 1.0
    assert _macro_f1([0, 1], [0, 1], sample_weight=[0, 1]) == 1.0
    assert get_scorer("macro_f1").score_func([0, 1], [0, 1], sample_weight=[0, 1]) == 1.0


@pytest.mark.parametrize("weight", [1e308, 1e-200, 5e-324])
def test_extreme_equal_weights_are_no_weights(weight):
    # Sums of weights near 1e308 overflow and products near 1e-200 underflow unless
    # the weights are rescaled first.
    y_true, y_pred = _random_labels(12)
    weights = np.full(len(y_true), weight)
    for name in ("cem_ord", "macro_mean_absolute_error", "pearson", "macro_accuracy"):
        measure = LABEL_MEASURES[name]
        assert measure(y_true, y_pred, sample_weight=weights) == pytest.approx(
            measure(y_true, y_pred)
        ), name
    y_true, y_score = _random_scores(12)
    for name in SCORE_MEASURES:
        measure = SCORE_MEASURES[name]
        assert measure(y_true, y_score, sample_weight=weights) == pytest.approx(
            measure(y_true, y_score)
        ), name


# --- Every measure, every label kind (the trust issue's checklist) ----------------------


@all_measures
@pytest.mark.parametrize(
    "dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
)
def test_every_integer_dtype_gives_the_same_value(name, dtype):
    y_true, y_pred = _data(name, 13)
    measure = _measure(name)
    expected = measure(y_true, y_pred)
    labels_only = name in LABEL_MEASURES
    converted = y_true.astype(dtype), (y_pred.astype(dtype) if labels_only else y_pred)
    assert measure(*converted) == pytest.approx(expected)
    # Shifted into the dtype's upper range: only the order of the labels may matter
    # (distance measures see the same differences).
    if labels_only and name not in ORDER_FREE:
        top = dtype(np.iinfo(dtype).max - 4)
        shifted = y_true.astype(dtype) + top, y_pred.astype(dtype) + top
        assert measure(*shifted) == pytest.approx(expected, abs=1e-9)


@score_measures
@pytest.mark.parametrize(
    "container", ["Series", "Categorical", "one-column DataFrame", "CategoricalIndex"]
)
def test_score_measures_take_the_order_of_an_ordered_categorical(name, container):
    y_true, y_score = _random_scores(14)
    measure = SCORE_MEASURES[name]
    as_categorical = _ordered_containers(ORDINAL_NAMES, y_true)[container]
    assert measure(as_categorical, y_score) == pytest.approx(measure(y_true, y_score))
    names = np.array(ORDINAL_NAMES)[y_true]
    assert measure(names, y_score, labels=ORDINAL_NAMES) == pytest.approx(
        measure(y_true, y_score)
    )
    with pytest.raises(ValueError, match="order cannot be guessed"):
        measure(names, y_score)


@label_measures
def test_one_class_gives_a_number_or_a_clear_warning(name):
    # One class everywhere: a perfect prediction, whose value is defined by every
    # measure or is undefined with an UndefinedMetricWarning (never NaN, never a crash).
    measure = LABEL_MEASURES[name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = measure([3, 3, 3], [3, 3, 3])
    assert np.isfinite(value)
    undefined = [w for w in caught if issubclass(w.category, UndefinedMetricWarning)]
    if undefined:
        assert "undefined" in str(undefined[0].message)


@score_measures
def test_one_class_is_a_clear_error_for_a_ranking(name):
    with pytest.raises(ValueError, match="at least two classes"):
        SCORE_MEASURES[name]([3, 3, 3], [0.1, 0.2, 0.3])
