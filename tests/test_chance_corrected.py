"""Gwet's AC1/AC2, Fleiss', Conger's, Brennan-Prediger and percent agreement.

Held against irrCAC's published outputs on its cac.raw4raters data (always run),
the Python irrCAC package on random data with missing ratings (when installed: it
pins SciPy 1.12, so no extra can carry it), scikit-learn's Cohen's kappa, a
brute-force count of pairs, and properties over random inputs.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import cohen_kappa_score

from sklearn_ordinal.metrics import (
    brennan_prediger,
    conger_kappa,
    fleiss_kappa,
    gwet_ac,
    percent_agreement,
)
from sklearn_ordinal.metrics._agreement_weights import agreement_weights
from sklearn_ordinal.metrics._chance_corrected import (
    _coefficient_from_totals,
    _ratings,
    _totals,
)
from sklearn_ordinal.stats import agreement_interval
from sklearn_ordinal.stats._chance_corrected import _cells

nan = np.nan
# irrCAC's cac.raw4raters (Gwet 2014, p. 120; Krippendorff 2011), annotators x units.
RAW4RATERS = np.array([
    [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, nan],
    [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
])

FUNCTIONS = {
    "gwet_ac": gwet_ac,
    "fleiss_kappa": fleiss_kappa,
    "conger_kappa": conger_kappa,
    "brennan_prediger": brennan_prediger,
    "percent_agreement": percent_agreement,
}

# The R package's README (github.com/kgwet/irrCAC, README.md, "Computing agreement
# coefficients from raw ratings"): coeff.val, coeff.se (5 decimals) and conf.int.
PUBLISHED_R_IDENTITY = {
    "percent_agreement": (0.8181818, 0.12561, 0.542),
    "gwet_ac": (0.77544, 0.14295, 0.461),
    "fleiss_kappa": (0.76117, 0.15302, 0.424),
    "conger_kappa": (0.76282, 0.14917, 0.435),
    "brennan_prediger": (0.77273, 0.14472, 0.454),
}

# The weighted outputs on cac.raw4raters as the irrCAC port records them (3 decimals;
# github.com/afergadis/irrCAC, test/unit/irrCAC/raw/test_*.py), which reproduce the R
# package's ``weights="ordinal"`` and ``"quadratic"``: coefficient, se, CI low.
PUBLISHED_WEIGHTED = {
    ("gwet_ac", "ordinal"): (0.899, 0.107, 0.664),
    ("gwet_ac", "quadratic"): (0.914, 0.104, 0.685),
    ("fleiss_kappa", "ordinal"): (0.850, 0.147, 0.527),
    ("fleiss_kappa", "quadratic"): (0.865, 0.146, 0.544),
    ("conger_kappa", "ordinal"): (0.844, 0.144, 0.526),
    ("conger_kappa", "quadratic"): (0.858, 0.144, 0.541),
    ("brennan_prediger", "ordinal"): (0.886, 0.114, 0.636),
    ("brennan_prediger", "quadratic"): (0.902, 0.111, 0.657),
}


@pytest.mark.parametrize("coefficient", list(PUBLISHED_R_IDENTITY))
def test_published_r_outputs_unweighted(coefficient):
    value, error, low = PUBLISHED_R_IDENTITY[coefficient]
    digits = 7 if coefficient == "percent_agreement" else 5
    assert round(FUNCTIONS[coefficient](RAW4RATERS), digits) == value
    result = agreement_interval(RAW4RATERS, coefficient=coefficient)
    assert round(result.estimate, digits) == value
    assert round(result.standard_error, 5) == error
    assert round(result.confidence_interval.low, 3) == low
    assert result.confidence_interval.high == 1.0


@pytest.mark.parametrize("coefficient, weights", list(PUBLISHED_WEIGHTED))
def test_published_weighted_outputs(coefficient, weights):
    value, error, low = PUBLISHED_WEIGHTED[coefficient, weights]
    result = agreement_interval(RAW4RATERS, coefficient=coefficient, weights=weights)
    assert round(FUNCTIONS[coefficient](RAW4RATERS, weights=weights), 3) == value
    assert round(result.standard_error, 3) == error
    assert round(result.confidence_interval.low, 3) == low


def _random_ratings(seed, n_annotators, n_units, k, missing=0.2):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, k + 1, size=n_units)
    ratings = np.clip(truth + rng.integers(-1, 2, size=(n_annotators, n_units)), 1, k)
    ratings = ratings.astype(float)
    ratings[rng.random(ratings.shape) < missing] = nan
    # Every unit keeps one rating (irrCAC divides by each unit's count).
    empty = np.isnan(ratings).all(axis=0)
    ratings[0, empty] = truth[empty]
    return ratings


_IRRCAC = {"gwet_ac": "gwet", "fleiss_kappa": "fleiss", "conger_kappa": "conger",
           "brennan_prediger": "bp"}


@pytest.mark.parametrize("weights", ["identity", "linear", "quadratic", "ordinal",
                                     "radical", "ratio"])
@pytest.mark.parametrize("coefficient", list(_IRRCAC))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_equals_irrcac_on_random_data_with_missing_ratings(seed, coefficient, weights):
    irrcac = pytest.importorskip("irrCAC.raw")
    ratings = _random_ratings(seed, 3 + seed, 40 + 30 * seed, 5)
    categories = sorted(np.unique(ratings[~np.isnan(ratings)]).tolist())
    # categories given: irrCAC 0.4.4 under pandas >= 3 counts NaN as a category
    # (DataFrame.stack keeps missing values), see test_irrcac_counts_nan_as_a_value.
    reference = getattr(irrcac.CAC(pd.DataFrame(ratings.T), weights=weights,
                                   categories=categories, digits=15), _IRRCAC[coefficient])()
    result = agreement_interval(ratings, coefficient=coefficient, weights=weights)
    assert result.estimate == pytest.approx(reference["est"]["coefficient_value"], abs=1e-10)
    assert result.standard_error == pytest.approx(reference["est"]["se"], abs=1e-10)


def test_irrcac_counts_nan_as_a_value():
    """The evidence for passing ``categories``: without it, irrCAC 0.4.4 reads a missing
    rating as one more category under pandas 3 (and its Gwet's AC1 on cac.raw4raters
    is then 0.7855, not the published 0.77544)."""
    irrcac = pytest.importorskip("irrCAC.raw")
    cac = irrcac.CAC(pd.DataFrame(RAW4RATERS.T))
    if not any(pd.isna(category) for category in cac.categories):
        pytest.skip("this irrCAC/pandas reads missing ratings as missing")
    assert round(cac.gwet()["est"]["coefficient_value"], 5) != 0.77544
    assert round(gwet_ac(RAW4RATERS), 5) == 0.77544


@pytest.mark.parametrize("weights", ["identity", "linear", "quadratic"])
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), n_units=st.integers(5, 60))
def test_conger_of_two_annotators_is_cohens_kappa(weights, seed, n_units):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, size=n_units)
    b = np.where(rng.random(n_units) < 0.6, a, rng.integers(0, 4, size=n_units))
    sklearn_weights = {"identity": None, "linear": "linear", "quadratic": "quadratic"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = cohen_kappa_score(a, b, labels=[0, 1, 2, 3],
                                     weights=sklearn_weights[weights])
        value = conger_kappa([a, b], weights=weights, labels=[0, 1, 2, 3])
    if np.isnan(expected):
        assert np.isnan(value)
    else:
        assert value == pytest.approx(expected, abs=1e-12)


def _brute_force_agreement(ratings, weights):
    """Percent agreement from every ordered pair of two annotators' ratings of a unit."""
    classes = np.unique(ratings[~np.isnan(ratings)])
    w = agreement_weights(weights, classes, True)
    position = {value: index for index, value in enumerate(classes)}
    shares = []
    for unit in ratings.T:
        values = [position[value] for value in unit if not np.isnan(value)]
        if len(values) < 2:
            continue
        pairs = [w[values[i], values[j]] for i in range(len(values))
                 for j in range(len(values)) if i != j]
        shares.append(np.mean(pairs))
    return np.mean(shares)


@pytest.mark.parametrize("weights", ["identity", "linear", "quadratic", "ordinal"])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_percent_agreement_counts_the_pairs(weights, seed):
    ratings = _random_ratings(seed, 4, 25, 4, missing=0.3)
    assert percent_agreement(ratings, weights=weights) == pytest.approx(
        _brute_force_agreement(ratings, weights), abs=1e-12)


def test_fleiss_kappa_of_complete_data_is_fleiss_1971():
    """Fleiss (1971)'s formula on complete data, written out."""
    ratings = _random_ratings(3, 5, 50, 4, missing=0.0)
    counts = np.stack([(ratings == value).sum(axis=0) for value in [1, 2, 3, 4]], axis=1)
    m = 5
    p_i = ((counts * (counts - 1)).sum(axis=1) / (m * (m - 1))).mean()
    p_j = counts.sum(axis=0) / counts.sum()
    expected = (p_i - (p_j**2).sum()) / (1 - (p_j**2).sum())
    assert fleiss_kappa(ratings) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("coefficient", list(FUNCTIONS))
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_invariant_to_the_order_of_units_and_annotators(coefficient, seed):
    ratings = _random_ratings(seed, 4, 30, 5)
    rng = np.random.default_rng(seed)
    shuffled = ratings[rng.permutation(4)][:, rng.permutation(30)]
    function = FUNCTIONS[coefficient]
    assert function(shuffled, weights="quadratic") == pytest.approx(
        function(ratings, weights="quadratic"), abs=1e-12)


@pytest.mark.parametrize("coefficient", list(FUNCTIONS))
def test_text_ordered_categoricals_and_every_integer_dtype_agree(coefficient):
    ratings = _random_ratings(5, 3, 40, 3, missing=0.0)
    function = FUNCTIONS[coefficient]
    expected = function(ratings, weights="linear")
    names = np.array(["low", "mid", "high"], dtype=object)[ratings.astype(int) - 1]
    assert function(names, weights="linear", labels=["low", "mid", "high"]) == pytest.approx(
        expected, abs=1e-12)
    frame = pd.DataFrame(names.T).astype(
        pd.CategoricalDtype(["low", "mid", "high"], ordered=True)).T
    assert function(frame.T.T, weights="linear") == pytest.approx(expected, abs=1e-12)
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64):
        assert function(ratings.astype(dtype), weights="linear") == pytest.approx(
            expected, abs=1e-12)


def test_an_unused_value_in_labels_changes_the_chance_agreement():
    """Brennan-Prediger's and Gwet's chance agreement count the values of the scale."""
    ratings = _random_ratings(6, 3, 30, 3, missing=0.0)
    assert brennan_prediger(ratings, labels=[1, 2, 3, 4]) != brennan_prediger(ratings)
    assert percent_agreement(ratings, labels=[1, 2, 3, 4]) == percent_agreement(ratings)


def test_the_bootstrap_batch_is_the_coefficient_of_each_resample():
    ratings = _random_ratings(7, 4, 35, 4)
    for coefficient in FUNCTIONS:
        parsed = _ratings(ratings, None, "quadratic")
        cells, multiplicity = _cells(parsed, coefficient)
        assert np.allclose(multiplicity @ cells, _totals(parsed, coefficient))
        rng = np.random.default_rng(0)
        draws = rng.multinomial(multiplicity.sum(), multiplicity / multiplicity.sum(), size=5)
        batch = _coefficient_from_totals(draws @ cells, coefficient, parsed.weights, 4)
        # Rebuild each resample as data: each cell's unit repeated as often as drawn.
        key = parsed.codes.T if coefficient == "conger_kappa" else parsed.counts
        _, first = np.unique(key, axis=0, return_index=True)
        for draw, value in zip(draws, batch):
            resample = np.repeat(parsed.codes[:, first], draw, axis=1)
            data = np.where(resample == 4, nan, resample.astype(float))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                expected = FUNCTIONS[coefficient](data, weights="quadratic",
                                                  labels=[0, 1, 2, 3])
            assert value == pytest.approx(expected, abs=1e-12, nan_ok=True)


@pytest.mark.parametrize("method", ["bca", "percentile", "basic"])
def test_bootstrap_interval_is_near_the_analytic_one_on_many_units(method):
    ratings = _random_ratings(8, 4, 400, 5)
    analytic = agreement_interval(ratings, coefficient="gwet_ac", weights="quadratic")
    boot = agreement_interval(ratings, coefficient="gwet_ac", weights="quadratic",
                              method=method, n_resamples=1999, random_state=0)
    assert boot.estimate == analytic.estimate
    assert boot.standard_error == pytest.approx(analytic.standard_error, rel=0.15)
    assert boot.confidence_interval.low < boot.estimate < boot.confidence_interval.high


def test_bad_input_gets_a_clear_error():
    with pytest.raises(ValueError, match=r"shape \(3, 3\).*5 values.*\(5, 5\)"):
        gwet_ac(RAW4RATERS, weights=np.eye(3))
    with pytest.raises(ValueError, match="in \\[0, 1\\]"):
        gwet_ac(RAW4RATERS, weights=2 * np.eye(5))
    with pytest.raises(ValueError, match="1 on its diagonal"):
        gwet_ac(RAW4RATERS, weights=np.zeros((5, 5)))
    with pytest.raises(ValueError, match="not in labels: \\[5.0\\]"):
        gwet_ac(RAW4RATERS, labels=[1, 2, 3, 4])
    with pytest.raises(ValueError, match="at least two"):
        fleiss_kappa([[1, 2, 3]])
    with pytest.raises(ValueError, match="order cannot be guessed.*labels="):
        gwet_ac([["a", "b"], ["b", "b"]], weights="quadratic")
    with pytest.raises(ValueError, match="weights"):
        gwet_ac(RAW4RATERS, weights="cubic")
    with pytest.raises(ValueError, match="not negative"):
        gwet_ac([[-1, 0, 1], [0, 0, 1]], weights="ratio")


def test_undefined_cases_warn_and_return_nan():
    with pytest.warns(UndefinedMetricWarning, match="no unit has two annotations"):
        assert np.isnan(gwet_ac([[1, nan], [nan, 2]]))
    with pytest.warns(UndefinedMetricWarning, match="chance is 1|by chance is 1"):
        assert np.isnan(fleiss_kappa([[1, 1, 1], [1, 1, 1]]))
    with pytest.warns(UndefinedMetricWarning, match="single value"):
        assert np.isnan(gwet_ac([[1, 1, 1], [1, 1, 1]]))
    with pytest.warns(UndefinedMetricWarning, match="gave no rating"):
        assert np.isnan(conger_kappa([[1, 2, 1], [1, 2, 2], [nan, nan, nan]]))
    # AC1 of perfect agreement on a skewed scale is 1, where kappa is undefined.
    assert gwet_ac([[1, 1, 1, 2], [1, 1, 1, 2]], labels=[1, 2, 3]) == 1.0
