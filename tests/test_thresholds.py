"""Cut points on a score (#35): the exact optimum against brute force, the coordinate
ascent against rounding, Nelder-Mead and brute force, invariances and bad input."""

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import minimize
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_ordinal.metrics import (
    OrdinalConfusion,
    get_scorer_names,
    optimal_thresholds,
)
from sklearn_ordinal.metrics._registry import lookup, resolve
from sklearn_ordinal.metrics._thresholds import (
    _KappaObjective,
    _SortedTask,
    _StackObjective,
    _tune,
)


def _additive_names():
    """Every scorer name whose record gives per-item costs with its fixed parameters."""
    names = []
    for name in get_scorer_names():
        record, fixed, _ = lookup(name)
        if (
            record.reads == "labels"
            and record.item_costs is not None
            and record.item_costs_for(np.ones(3), np.arange(3.0), fixed) is not None
        ):
            names.append(name)
    return names


ADDITIVE = _additive_names()


def test_the_additive_measures_are_those_of_the_issue():
    expected = {
        f"neg_{average}{error}" for average in ("", "macro_")
        for error in ("mean_absolute_error", "mean_squared_error", "root_mean_squared_error",
                      "mean_zero_one_error")
    } | {"cem_ord", "cem_nom", "cem_int", "cem_ord_flat", "accuracy_within_1", "accuracy",
         "macro_accuracy", "balanced_accuracy"}
    assert set(ADDITIVE) == expected
    assert "quadratic_weighted_kappa" not in ADDITIVE
    assert "neg_max_mean_absolute_error" not in ADDITIVE


@pytest.mark.parametrize("name", ADDITIVE)
def test_item_costs_sum_to_the_measure(name):
    """The identity behind the exact search: with the gold class weights fixed, the
    measure is sum(M * C) over the confusion matrix (its square root for RMSE)."""
    rng = np.random.default_rng(sum(map(ord, name)))
    record, fixed, _ = lookup(name)
    classes = np.array([1, 2, 4, 7, 8])
    values = (classes - classes[0]).astype(float)
    gold = np.array([3.0, 0.0, 5.5, 1.0, 2.0])  # one class absent
    # Matrices whose rows share the gold weights: each row split at random.
    shares = rng.dirichlet(np.ones(5), size=(50, 5))
    matrices = shares * gold[:, np.newaxis]
    costs = record.item_costs_for(gold, values, fixed)
    summed = np.sum(matrices * costs, axis=(-2, -1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        measured = record.from_confusion(OrdinalConfusion(classes, values, matrices),
                                         **fixed)
    if record.distance is not None and record.distance[1]:  # RMSE: the root of the sum
        summed = np.sqrt(summed)
    np.testing.assert_allclose(measured, summed, rtol=1e-12, atol=1e-15)


def _stack_scores(name, classes, values, matrices, weighted):
    resolved = resolve(name)
    confusion = OrdinalConfusion(classes, values, matrices, 0, weighted)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        scores = np.asarray(resolved.from_confusion(confusion), dtype=float)
    sign = 1.0 if resolved.greater_is_better else -1.0
    return np.where(np.isnan(scores), -np.inf, sign * scores)


def _brute_force(name, y_true, y_score, labels, sample_weight):
    """The best value (greater is better) over every monotone assignment of the distinct
    scores (of the kept items) to the classes, and the value of each cut-point vector,
    both by the measure's own kernel on the confusion matrices."""
    labels = np.asarray(labels)
    n_classes = len(labels)
    codes = np.searchsorted(labels, y_true)
    kept = sample_weight > 0
    distinct = np.unique(y_score[kept])
    matrices = []
    for bounds in itertools.combinations_with_replacement(range(len(distinct) + 1),
                                                          n_classes - 1):
        predicted = np.searchsorted(np.asarray(bounds), np.searchsorted(distinct, y_score),
                                    side="right")
        matrices.append(np.bincount(codes * n_classes + predicted, weights=sample_weight,
                                    minlength=n_classes**2).reshape(n_classes, n_classes))
    values = labels.astype(float) - labels[0]
    return _stack_scores(name, labels, values, np.array(matrices), True).max()


def _value(name, y_true, y_score, labels, sample_weight, cut_points):
    labels = np.asarray(labels)
    n_classes = len(labels)
    codes = np.searchsorted(labels, y_true)
    predicted = np.searchsorted(cut_points, y_score, side="left")
    matrix = np.bincount(codes * n_classes + predicted, weights=sample_weight,
                         minlength=n_classes**2).reshape(n_classes, n_classes)
    values = labels.astype(float) - labels[0]
    return _stack_scores(name, labels, values, matrix[np.newaxis], True)[0]


def _random_task(rng):
    n_classes = int(rng.integers(2, 6))
    n = int(rng.integers(1, 41))
    n_distinct = int(rng.integers(1, 9))
    labels = np.arange(n_classes) * 2 + 1  # not positions: values are the labels
    present = rng.choice(labels, size=int(rng.integers(1, n_classes + 1)), replace=False)
    y_true = rng.choice(present, size=n)
    grid = np.sort(rng.normal(size=n_distinct))
    # Scores loosely follow the classes, with ties (few distinct values).
    drift = np.searchsorted(labels, y_true) * rng.uniform(0, 1)
    y_score = grid[np.clip(np.rint(rng.uniform(0, n_distinct - 1, n) * 0.5
                                   + drift).astype(int), 0, n_distinct - 1)]
    sample_weight = rng.choice([0.0, 0.5, 1.0, 3.0], size=n, p=[0.15, 0.25, 0.4, 0.2])
    if not sample_weight.any():
        sample_weight[0] = 1.0
    return y_true, y_score, labels, sample_weight


@pytest.mark.parametrize("name", ADDITIVE)
def test_exact_optimum_equals_brute_force(name):
    rng = np.random.default_rng(sum(map(ord, name)))
    for _ in range(12):
        y_true, y_score, labels, weight = _random_task(rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            _, cuts, score, method = _tune(y_true, y_score, name, labels, weight)
        assert method == "exact"
        assert np.all(cuts[1:] >= cuts[:-1])
        best = _brute_force(name, y_true, y_score, labels, weight)
        ours = _value(name, y_true, y_score, labels, weight, cuts)
        assert ours == pytest.approx(best, rel=1e-9, abs=1e-12), (name, y_true, y_score)
        # The score reported is the measure of these cut points.
        sign = 1 if resolve(name).greater_is_better else -1
        assert sign * score == pytest.approx(ours, rel=1e-9, abs=1e-12)


def test_exact_score_is_the_public_measure_of_the_predictions():
    rng = np.random.default_rng(3)
    labels = np.array(["low", "mid", "high", "top"])
    y_true = rng.choice(labels, size=300)
    position = np.searchsorted(["high", "low", "mid", "top"], y_true)  # alphabetical
    rank = np.array([1, 0, 2, 3])[position]  # low=0, mid=1, high=2, top=3
    y_score = rank + rng.normal(0, 0.8, 300)
    weight = rng.uniform(0, 2, 300)
    for name in ("neg_macro_mean_absolute_error", "cem_ord", "quadratic_weighted_kappa"):
        record, fixed, _ = lookup(name)
        classes, cuts, score, _ = _tune(y_true, y_score, name, labels, weight)
        assert classes.tolist() == labels.tolist()
        y_pred = classes[np.searchsorted(cuts, y_score)]
        assert score == pytest.approx(
            record.function(y_true, y_pred, labels=labels, sample_weight=weight, **fixed),
            rel=1e-12,
        )


def _nelder_mead(objective, n_classes, evaluations=200):
    result = minimize(lambda cuts: -objective(np.sort(cuts)), np.arange(n_classes - 1) + 0.5,
                      method="Nelder-Mead", options={"maxfev": evaluations})
    return objective(np.sort(result.x))


@pytest.mark.parametrize("name", ["quadratic_weighted_kappa", "gmsec"])
def test_coordinate_ascent_beats_rounding_and_nelder_mead(name):
    rng = np.random.default_rng(35)
    sign = 1 if resolve(name).greater_is_better else -1
    worse_than_nelder_mead = 0
    for _ in range(100):
        n_classes = int(rng.integers(3, 7))
        n = int(rng.integers(30, 300))
        labels = np.arange(n_classes)
        y_true = rng.choice(labels, size=n, p=rng.dirichlet(np.ones(n_classes) * 2))
        y_score = y_true * rng.uniform(0.5, 1.5) + rng.normal(0, rng.uniform(0.3, 2), n)
        weight = np.ones(n)

        def objective(cuts, y_true=y_true, y_score=y_score, labels=labels, weight=weight):
            return _value(name, y_true, y_score, labels, weight, cuts)

        _, cuts, score, method = _tune(y_true, y_score, name, labels)
        assert method == "coordinate ascent"
        ours = objective(cuts)
        assert ours == pytest.approx(sign * score, rel=1e-9)
        rounding = objective(labels[:-1] + 0.5)
        assert ours >= rounding - 1e-12
        if ours < _nelder_mead(objective, n_classes) - 1e-12:
            worse_than_nelder_mead += 1
    assert worse_than_nelder_mead == 0


@pytest.mark.parametrize("name", ["quadratic_weighted_kappa", "gmsec", "linear_weighted_kappa",
                                  "minimum_sensitivity", "spearman",
                                  "neg_max_mean_absolute_error"])
def test_coordinate_ascent_mostly_equals_brute_force_on_small_cases(name):
    rng = np.random.default_rng(7)
    hits, total = 0, 60
    for _ in range(total):
        y_true, y_score, labels, weight = _random_task(rng)
        given = weight
        if not resolve(name).record.weighted:
            weight = np.ones(len(y_true))
            given = None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            _, cuts, _, _ = _tune(y_true, y_score, name, labels, given)
        best = _brute_force(name, y_true, y_score, labels, weight)
        ours = _value(name, y_true, y_score, labels, weight, cuts)
        assert ours <= best + 1e-9
        hits += bool(ours >= best - 1e-9)
    print(f"{name}: coordinate ascent found the brute-force optimum in {hits}/{total}")
    assert hits >= 0.8 * total


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_kappa_in_constant_time_equals_the_kernel_on_stacks(weights):
    rng = np.random.default_rng(1)
    n_classes, n = 5, 400
    codes = rng.integers(0, n_classes, n)
    scores = np.round(codes + rng.normal(0, 1, n), 1)
    weight = rng.uniform(0, 1, n)
    task = _SortedTask(codes, scores, weight, n_classes)
    resolved = resolve("cohen_kappa", {"weights": weights} if weights else {})
    classes, values = np.arange(n_classes), np.arange(n_classes, dtype=float)
    stack = _StackObjective(task, resolved, classes, values, True)
    position = np.arange(n_classes, dtype=float)
    distance = np.abs(position[:, None] - position)
    disagreement = {None: (distance > 0) * 1.0, "linear": distance,
                    "quadratic": distance**2}[weights]
    kappa = _KappaObjective(task, disagreement)
    for _ in range(20):
        boundaries = np.sort(rng.integers(0, task.m + 1, n_classes - 1))
        t = int(rng.integers(0, n_classes - 1))
        lo = boundaries[t - 1] if t else 0
        hi = boundaries[t + 1] if t + 1 < n_classes - 1 else task.m
        # Between its neighbours, where both move only cut point t.
        positions = np.arange(lo, hi + 1)
        np.testing.assert_allclose(kappa.gains(boundaries, t, positions),
                                   stack.gains(boundaries, t, positions), atol=1e-12)


@pytest.mark.parametrize("name", ["neg_macro_mean_absolute_error", "cem_ord",
                                  "quadratic_weighted_kappa", "gmsec"])
def test_cut_points_follow_a_monotone_transform_of_the_scores(name):
    rng = np.random.default_rng(11)
    y_true = rng.integers(0, 4, 500)
    y_score = y_true + rng.normal(0, 1, 500)
    cuts = optimal_thresholds(y_true, y_score, scoring=name)
    # An increasing transform: the same classes for every item.
    transformed = np.exp(y_score) ** 3
    new_cuts = optimal_thresholds(y_true, transformed, scoring=name)
    np.testing.assert_array_equal(np.searchsorted(cuts, y_score),
                                  np.searchsorted(new_cuts, transformed))
    # An affine one maps the cut points themselves (midpoints map to midpoints).
    np.testing.assert_allclose(optimal_thresholds(y_true, 4 * y_score - 3, scoring=name),
                               4 * cuts - 3, rtol=1e-12)


@pytest.mark.parametrize("name", ["neg_mean_absolute_error", "quadratic_weighted_kappa"])
def test_zero_weight_items_are_ignored(name):
    rng = np.random.default_rng(5)
    y_true = rng.integers(0, 4, 200)
    y_score = y_true + rng.normal(0, 1, 200)
    weight = rng.uniform(0.5, 2, 200)
    cuts = optimal_thresholds(y_true, y_score, scoring=name, sample_weight=weight)
    extra_true = rng.integers(0, 4, 50)
    extra_score = rng.normal(0, 3, 50)
    with_ignored = optimal_thresholds(
        np.r_[y_true, extra_true], np.r_[y_score, extra_score], scoring=name,
        sample_weight=np.r_[weight, np.zeros(50)],
    )
    np.testing.assert_array_equal(cuts, with_ignored)


def test_weights_equal_repetition():
    rng = np.random.default_rng(8)
    y_true = rng.integers(0, 3, 60)
    y_score = np.round(y_true + rng.normal(0, 1, 60), 1)
    repeats = rng.integers(1, 4, 60)
    for name in ("neg_macro_mean_squared_error", "quadratic_weighted_kappa"):
        weighted = optimal_thresholds(y_true, y_score, scoring=name, sample_weight=repeats)
        repeated = optimal_thresholds(np.repeat(y_true, repeats), np.repeat(y_score, repeats),
                                      scoring=name)
        np.testing.assert_array_equal(weighted, repeated)


def test_cut_points_lie_between_training_scores_or_at_infinity():
    y_true = [0, 0, 0, 2, 2]
    y_score = [1.0, 2.0, 3.0, 4.0, 5.0]
    cuts = optimal_thresholds(y_true, y_score, scoring="neg_mean_absolute_error",
                              labels=[0, 1, 2])
    # Class 1 has no item: both cut points in the same gap, class 1 left empty.
    np.testing.assert_array_equal(cuts, [3.5, 3.5])
    # All items in the top class: cut points below every score are -inf.
    cuts = optimal_thresholds([2, 2, 2], [1.0, 2.0, 3.0], scoring="neg_mean_absolute_error",
                              labels=[0, 1, 2])
    assert cuts.tolist() == [-np.inf, -np.inf]
    cuts = optimal_thresholds([0, 0, 0], [1.0, 2.0, 3.0], scoring="neg_mean_absolute_error",
                              labels=[0, 1, 2])
    assert cuts.tolist() == [np.inf, np.inf]


def test_adjacent_floats_are_still_split():
    low = 1.0
    high = np.nextafter(low, 2.0)
    cuts = optimal_thresholds([0, 1], [low, high], scoring="accuracy")
    assert np.searchsorted(cuts, [low, high]).tolist() == [0, 1]


def test_string_classes_in_a_given_order_and_scorers():
    y_true = ["bad", "good", "fair", "good", "bad", "fair"]
    y_score = [0.1, 2.2, 1.1, 1.9, 0.3, 0.9]
    labels = ["bad", "fair", "good"]
    cuts = optimal_thresholds(y_true, y_score, scoring="neg_macro_mean_absolute_error",
                              labels=labels)
    assert (np.asarray(labels)[np.searchsorted(cuts, y_score)] == y_true).all()
    from sklearn_ordinal.metrics import get_scorer

    scorer_cuts = optimal_thresholds(y_true, y_score,
                                     scoring=get_scorer("neg_macro_mean_absolute_error"),
                                     labels=labels)
    np.testing.assert_array_equal(cuts, scorer_cuts)
    with pytest.raises(ValueError, match="order"):
        optimal_thresholds(y_true, y_score, scoring="neg_macro_mean_absolute_error")


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"scoring": "vus"}, "judges scores, not classes"),
        ({"scoring": "neg_ranked_probability_score"}, "judges proba"),
        ({"scoring": "no_such_measure"}, "not a measure"),
        ({"scoring": "neg_mean_absolute_error", "y_score": [0.0, np.nan, 1.0]}, "NaN"),
        ({"scoring": "neg_mean_absolute_error", "y_score": ["a", "b", "c"]}, "real numbers"),
        ({"scoring": "spearman", "sample_weight": [1, 1, 1]}, "takes no sample_weight"),
    ],
)
def test_bad_input_is_a_clear_error(kwargs, match):
    arguments = {"y_true": [0, 1, 2], "y_score": [0.0, 0.5, 1.0], **kwargs}
    with pytest.raises(ValueError, match=match):
        optimal_thresholds(**arguments)


def test_one_class_and_one_distinct_score():
    assert optimal_thresholds([3, 3, 3], [1.0, 2.0, 3.0],
                              scoring="neg_macro_mean_absolute_error").shape == (0,)
    assert optimal_thresholds([3, 3, 3], [1.0, 2.0, 3.0],
                              scoring="quadratic_weighted_kappa").shape == (0,)
    # One score for all: the best single class, here the middle one (the trivial
    # class of the macro MAE), its cut points at -inf and +inf.
    cuts = optimal_thresholds([1, 2, 3], [5.0, 5.0, 5.0],
                              scoring="neg_macro_mean_absolute_error")
    assert cuts.tolist() == [-np.inf, np.inf]


@given(
    data=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 6), st.sampled_from([0.0, 0.5, 1.0, 2.0])),
        min_size=1, max_size=25,
    ),
    name=st.sampled_from(["neg_macro_mean_absolute_error", "neg_mean_squared_error", "cem_ord",
                          "cem_int", "neg_macro_mean_zero_one_error"]),
)
def test_exact_optimum_beats_every_assignment_property(data, name):
    """Hypothesis: over any small weighted task, no monotone assignment beats ours."""
    y_true, y_score, weight = (np.array(column) for column in zip(*data))
    if not weight.any():
        weight[0] = 1.0
    labels = np.array([0, 1, 2, 3])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        cuts = optimal_thresholds(y_true, y_score.astype(float), scoring=name, labels=labels,
                                  sample_weight=weight)
    best = _brute_force(name, y_true, y_score, labels, weight)
    ours = _value(name, y_true, y_score, labels, weight, cuts)
    assert ours == pytest.approx(best, rel=1e-9, abs=1e-12)
