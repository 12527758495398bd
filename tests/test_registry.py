"""The facts a registry record holds about its measure, each against a computation of
its own: the range of values against the measure's values on random inputs, the
kappa disagreement weights against scikit-learn's kappa, the related item-additive
measures against their item sums, and the trivial classifiers' closed forms against
the measure of each constant prediction.

Every test iterates the scorer names of the registry (a name fixes the parameters
that make one measure several), so a record added there is held to them for free.
"""

import warnings

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from sklearn_ordinal.metrics import weighted_kappa_score
from sklearn_ordinal.metrics._registry import _NAMES, lookup, resolve
from sklearn_ordinal.stats import score_interval

SCORER_NAMES = sorted(_NAMES)
SEEDS = range(12)


def _quiet(call):
    """``call()`` without the warnings of undefined measures (their value is NaN or
    a stated fallback, checked like any other)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call()


def _random_task(rng, reads):
    """``(y_true, y_pred, labels)``: K classes, items of random classes (both ends
    present, as a ranking measure needs two), and an output of the kind ``reads``:
    random, or the truth reversed (to reach the lowest values), or the truth."""
    n_classes = int(rng.integers(2, 6))
    labels = np.arange(n_classes)
    n_items = int(rng.integers(2, 25))
    y_true = rng.integers(0, n_classes, n_items)
    y_true[:2] = [0, n_classes - 1]
    how = rng.choice(["random", "reversed", "truth"])
    if reads == "scores":
        y_pred = {"random": rng.normal(size=n_items), "reversed": -y_true * 1.0,
                  "truth": y_true * 1.0}[how]
    elif reads == "proba":
        hot = np.eye(n_classes)
        y_pred = {"random": rng.dirichlet(np.ones(n_classes), n_items),
                  "reversed": hot[n_classes - 1 - y_true], "truth": hot[y_true]}[how]
    else:
        y_pred = {"random": rng.integers(0, n_classes, n_items),
                  "reversed": n_classes - 1 - y_true, "truth": y_true}[how]
    return y_true, y_pred, labels


# --- value_range --------------------------------------------------------------------


@pytest.mark.parametrize("name", SCORER_NAMES)
def test_value_range_holds_the_measures_values_and_its_perfect_value(name):
    record, fixed, _ = lookup(name)
    low, high = record.value_range
    assert low < high
    if record.perfect is not None:
        assert low <= record.perfect <= high
    rng = np.random.default_rng(sum(map(ord, name)))
    for _ in range(60):
        y_true, y_pred, labels = _random_task(rng, record.reads)
        value = _quiet(lambda: record.function(y_true, y_pred, labels=labels, **fixed))
        assert np.isnan(value) or low - 1e-12 <= value <= high + 1e-12, (value, low, high)
    # Every prediction right: the perfect value, inside the range.
    if record.reads == "labels":
        value = _quiet(lambda: record.function(y_true, y_true, labels=labels, **fixed))
        assert low <= value <= high
        if record.perfect is not None:
            assert value == pytest.approx(record.perfect)


def test_value_range_of_kappa_holds_a_users_matrix_below_minus_one():
    # Disagreement weight on one cell only: observed there 1/3 of the items, expected
    # 1/9, so kappa = 1 - 3 = -2.
    weights = [[0.0, 0.0], [1.0, 0.0]]
    value = weighted_kappa_score([0, 0, 1], [1, 1, 0], weights=weights)
    assert value == pytest.approx(-2.0)
    low, high = resolve(weighted_kappa_score, {"weights": weights}).value_range
    assert low <= value <= high


@pytest.mark.filterwarnings("ignore::scipy.stats.DegenerateDataWarning")
@pytest.mark.parametrize(
    "name", ["pearson", "spearman", "kendall_tau_b", "kendall_tau_a", "cohen_kappa",
             "quadratic_weighted_kappa", "linear_value_weighted_kappa"]
)
def test_interval_of_a_negative_agreement_keeps_its_negative_end(name):
    # The ranges were once keyed by names that no longer matched the records, so
    # these intervals were cut at 0, above their own (negative) estimate.
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 4, 80)
    y_pred = np.where(rng.random(80) < 0.8, 3 - y_true, rng.integers(0, 4, 80))
    result = score_interval(name, y_true, y_pred, n_resamples=199, random_state=0)
    low, high = result.confidence_interval
    assert result.estimate < 0
    assert low <= result.estimate <= high
    assert -1.0 <= low


# --- disagreement -------------------------------------------------------------------

_KAPPA_NAMES = [name for name in SCORER_NAMES if lookup(name)[0].disagreement is not None]


def test_the_kappas_state_their_disagreement():
    assert set(_KAPPA_NAMES) == {
        "cohen_kappa", "linear_weighted_kappa", "quadratic_weighted_kappa",
        "linear_value_weighted_kappa", "quadratic_value_weighted_kappa",
    }


@pytest.mark.parametrize("name", _KAPPA_NAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_disagreement_gives_the_kappa_of_random_confusion_matrices(name, seed):
    resolved = resolve(name)
    rng = np.random.default_rng(seed)
    n_classes = int(rng.integers(2, 7))
    labels = np.arange(n_classes)
    # Random class values: the value-weighted kappas read them.
    values = np.cumsum(rng.uniform(0.1, 5.0, n_classes))
    observed = rng.integers(0, 6, (n_classes, n_classes)) * rng.integers(0, 2, (n_classes, 1))
    observed[0, -1] += 1  # at least one disagreement expected
    y_true, y_pred = np.divmod(np.repeat(np.arange(n_classes**2), observed.ravel()), n_classes)
    weight = resolved.disagreement(values)
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / observed.sum()
    from_weights = 1 - np.sum(weight * observed) / np.sum(weight * expected)

    data = {"labels": labels}
    if resolved.record.takes("class_values"):
        data["class_values"] = values
    assert resolved.function(y_true, y_pred, **data) == pytest.approx(from_weights, abs=1e-12)
    if not resolved.record.takes("class_values"):
        # On class positions: scikit-learn's kappa, an implementation of its own.
        sklearn_kappa = cohen_kappa_score(
            y_true, y_pred, labels=labels, weights=resolved.params.get("weights")
        )
        assert from_weights == pytest.approx(sklearn_kappa, abs=1e-12)


# --- related_additive ---------------------------------------------------------------


def _is_item_additive(name):
    """Whether ``name`` has item costs for the gold class weights (for some data)."""
    resolved = resolve(name)
    costs = resolved.record.item_costs_for(np.ones(3), np.arange(3.0), resolved.params)
    return resolved.record.reads == "labels" and costs is not None


_NON_ADDITIVE = [name for name in SCORER_NAMES
                 if lookup(name)[0].reads == "labels" and not _is_item_additive(name)]


def test_every_non_additive_label_measure_names_related_additive_ones():
    assert "neg_max_mean_absolute_error" in _NON_ADDITIVE
    assert "macro_f1" in _NON_ADDITIVE
    for name in _NON_ADDITIVE:
        assert resolve(name).related_additive(), name


@pytest.mark.parametrize("name", _NON_ADDITIVE)
@pytest.mark.parametrize("seed", range(4))
def test_related_additive_measures_are_sums_of_their_item_costs(name, seed):
    # What makes them exact starts: each is the sum of its item costs over the items
    # (the dynamic programme's objective), here against the measure itself.
    rng = np.random.default_rng(seed)
    for related_name in resolve(name).related_additive():
        related = resolve(related_name)
        y_true, y_pred, labels = _random_task(rng, "labels")
        class_weights = np.bincount(y_true, minlength=len(labels)).astype(np.float64)
        values = labels.astype(np.float64)
        costs = related.record.item_costs_for(class_weights, values, related.params)
        value = _quiet(lambda: related.function(y_true, y_pred, labels=labels))
        assert costs[y_true, y_pred].sum() == pytest.approx(value, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("name", ["linear_weighted_kappa", "quadratic_weighted_kappa",
                                  "cohen_kappa"])
def test_a_kappas_related_error_weighs_disagreements_as_the_kappa(name):
    # On integer class values the micro error's item cost, times N, is the kappa's
    # disagreement weight: the same objective up to the kappa's chance term.
    resolved = resolve(name)
    (related_name,) = resolved.related_additive()
    related = resolve(related_name)
    values = np.arange(5.0)
    class_weights = np.array([3.0, 1.0, 4.0, 1.0, 5.0])
    costs = related.record.item_costs_for(class_weights, values, related.params)
    np.testing.assert_allclose(costs * class_weights.sum(), resolved.disagreement(values))


# --- trivial_scores -----------------------------------------------------------------

_CLOSED_FORM_NAMES = [name for name in SCORER_NAMES
                      if lookup(name)[0].trivial_scores is not None]


def test_every_label_measure_but_a_few_has_a_closed_form():
    label_names = {name for name in SCORER_NAMES if lookup(name)[0].reads == "labels"}
    assert set(_CLOSED_FORM_NAMES) == label_names


@pytest.mark.parametrize("name", _CLOSED_FORM_NAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_trivial_scores_are_the_measure_of_each_constant_prediction(name, seed):
    record, fixed, _ = lookup(name)
    rng = np.random.default_rng(seed)
    n_classes = int(rng.integers(1, 7))
    labels = np.arange(n_classes) * 10
    counts = rng.integers(0, 5, n_classes) * rng.integers(0, 2, n_classes)
    counts[rng.integers(n_classes)] += 1
    data = {"labels": labels}
    if record.takes("class_values"):
        values = np.cumsum(rng.uniform(0.1, 5.0, n_classes))
        data["class_values"] = values
    else:
        values = labels.astype(np.float64)
    y_true = np.repeat(labels, counts)
    # Brute force: the measure itself on every constant prediction.
    brute = np.array([
        _quiet(lambda: record.function(y_true, np.full(len(y_true), label), **data, **fixed))
        for label in labels
    ], dtype=np.float64)
    scores, warns = record.trivial_scores(counts.astype(np.float64), values, **fixed)
    np.testing.assert_allclose(scores, brute, rtol=1e-12, atol=1e-13, equal_nan=True)
    # And so the best constant prediction, which the trivial classifier makes.
    if not np.isnan(brute).all():
        best = np.nanmax if record.greater_is_better else np.nanmin
        assert best(scores) == pytest.approx(best(brute), rel=1e-12, abs=1e-13)
    assert np.shape(np.broadcast_to(warns, counts.shape)) == counts.shape
