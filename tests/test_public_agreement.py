"""Issue #34, item 5: the measures that existed only as scorers are public functions.

Weighted kappa with a custom weight matrix is checked against the SAS and R values
that statsmodels' inter-rater tests carry (``statsmodels/stats/tests/
test_inter_rater.py``: a SAS example table, and R ``irr::kappa2`` on the ``anxiety``
ratings); statsmodels itself is not needed, its reference values are recorded here.
"""

import numpy as np
import pytest
import sklearn.metrics
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression

from sklearn_ordinal.metrics import (
    get_scorer,
    get_scorer_names,
    kendall_tau_b_score,
    make_ordinal_scorer,
    mutual_information_score,
    pearson_score,
    spearman_score,
    value_weighted_kappa_score,
    weighted_kappa_score,
)
from sklearn_ordinal.metrics._registry import lookup
from sklearn_ordinal.model_selection import compare_to_trivial
from sklearn_ordinal.stats import score_interval

# SAS example of statsmodels' tests: rater 1 in rows, rater 2 in columns.
TABLE10 = np.array([[0, 4, 1], [0, 8, 0], [0, 1, 5]])
SAS_SIMPLE_KAPPA, SAS_WEIGHTED_KAPPA = 0.4842, 0.4701  # weights [0, 1, 2]: linear

# R irr's anxiety ratings, raters 2 and 3 (levels 1, 2, 3, 4, 6: irr drops the empty 5).
RATER2 = [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4]
RATER3 = [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2]
LEVELS = [1, 2, 3, 4, 6]
R_KAPPA2 = {  # kappa2(anxiety[, 2:3], weight)
    "unweighted": -0.006289308,
    "equal": 0.1459075,
    "squared": 0.2520325,
    "c(0,0,1,1,2)": 0.2391304,  # a Toeplitz matrix of level distances 0,0,1,1,2
}


def _items(table):
    rows, columns = np.nonzero(table)
    counts = table[rows, columns]
    return np.repeat(rows, counts), np.repeat(columns, counts)


def test_weighted_kappa_gives_the_sas_values():
    y_true, y_pred = _items(TABLE10)
    assert weighted_kappa_score(y_true, y_pred) == pytest.approx(SAS_SIMPLE_KAPPA, abs=5e-5)
    assert weighted_kappa_score(y_true, y_pred, weights="linear") == pytest.approx(
        SAS_WEIGHTED_KAPPA, abs=5e-5
    )
    # The same linear weights as a matrix: |i - j|, any scale.
    distance = np.abs(np.subtract.outer(np.arange(3), np.arange(3)))
    for scale in (1.0, 0.5, 7.0):
        assert weighted_kappa_score(y_true, y_pred, weights=scale * distance) == pytest.approx(
            SAS_WEIGHTED_KAPPA, abs=5e-5
        )


def test_weighted_kappa_gives_rs_irr_values():
    distance = np.abs(np.subtract.outer(np.arange(5), np.arange(5)))
    toeplitz = np.array([0, 0, 1, 1, 2.0])[distance]
    cases = {
        "unweighted": None,
        "equal": "linear",
        "squared": "quadratic",
        "c(0,0,1,1,2)": toeplitz,
    }
    for name, weights in cases.items():
        value = weighted_kappa_score(RATER2, RATER3, weights=weights, labels=LEVELS)
        assert value == pytest.approx(R_KAPPA2[name], abs=5e-7), name
    # Named weights and their matrices are one measure.
    for name, matrix in (("linear", distance), ("quadratic", distance**2)):
        assert weighted_kappa_score(RATER2, RATER3, weights=matrix, labels=LEVELS) == (
            pytest.approx(weighted_kappa_score(RATER2, RATER3, weights=name, labels=LEVELS))
        )


@pytest.mark.parametrize(
    "weights, match",
    [
        (np.ones((4, 4)) - np.eye(4), r"shape \(5, 5\)"),
        (np.ones((5, 5)), "0 on the diagonal"),
        (-(np.ones((5, 5)) - np.eye(5)), "non-negative"),
        ("cubic", "weights"),
    ],
)
def test_a_bad_weight_matrix_is_refused(weights, match):
    with pytest.raises(ValueError, match=match):
        weighted_kappa_score(RATER2, RATER3, weights=weights, labels=LEVELS)


def test_a_custom_matrix_reaches_every_door():
    distance = np.abs(np.subtract.outer(np.arange(5), np.arange(5)))
    matrix = np.sqrt(distance)
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 5, 200)
    y_pred = np.clip(y_true + rng.integers(-1, 2, 200), 0, 4)
    direct = weighted_kappa_score(y_true, y_pred, weights=matrix)
    scorer = make_ordinal_scorer(weighted_kappa_score, weights=matrix)
    assert scorer._score_func(y_true, y_pred, **scorer.kwargs) == direct
    result = score_interval(weighted_kappa_score, y_true, y_pred, weights=matrix,
                            n_resamples=199, random_state=0)
    assert result.estimate == pytest.approx(direct)
    X = np.column_stack([y_true + rng.normal(0, 0.5, 200)])
    table = compare_to_trivial(
        LogisticRegression(), X, y_true,
        scoring={"sqrt kappa": make_ordinal_scorer(weighted_kappa_score, weights=matrix)},
        cv=3,
    )
    assert table.loc["sqrt kappa", "trivial_mean"] == 0.0
    assert 0 < table.loc["sqrt kappa", "skill"] < 1


@pytest.mark.parametrize("seed", range(4))
def test_the_public_functions_give_scikit_learn_and_scipys_numbers(seed):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 5, 150)
    y_pred = np.clip(y_true + rng.integers(-2, 3, 150), 0, 4)
    assert spearman_score(y_true, y_pred) == pytest.approx(
        stats.spearmanr(y_true, y_pred).statistic)
    assert kendall_tau_b_score(y_true, y_pred) == pytest.approx(
        stats.kendalltau(y_true, y_pred).statistic)
    assert pearson_score(y_true, y_pred) == pytest.approx(
        stats.pearsonr(y_true, y_pred).statistic)
    assert mutual_information_score(y_true, y_pred) == pytest.approx(
        sklearn.metrics.mutual_info_score(y_true, y_pred))
    for weights in (None, "linear", "quadratic"):
        assert weighted_kappa_score(y_true, y_pred, weights=weights) == pytest.approx(
            sklearn.metrics.cohen_kappa_score(y_true, y_pred, weights=weights))
    # Class values 0..4 are equidistant: the value-weighted kappa is the positional one.
    assert value_weighted_kappa_score(y_true, y_pred) == pytest.approx(
        weighted_kappa_score(y_true, y_pred, weights="linear"))


def test_every_scorers_measure_is_a_public_function():
    import sklearn_ordinal.metrics as metrics

    # The order-free four are scikit-learn's functions (documented in the API page);
    # macro_f1_gold is f1_score with labels= the gold classes.
    sklearns = {"accuracy", "balanced_accuracy", "macro_f1", "macro_f1_gold"}
    for name in get_scorer_names():
        record, _, _ = lookup(name)
        if record.name in sklearns:
            continue
        assert getattr(metrics, record.name) is record.function, name
        assert record.name in metrics.__all__


def test_public_functions_score_like_their_scorers():
    order = ["low", "mid", "high"]
    rng = np.random.default_rng(1)
    y_true = np.asarray(order, dtype=object)[rng.integers(0, 3, 90)]
    y_pred = np.asarray(order, dtype=object)[rng.integers(0, 3, 90)]

    class Fixed(ClassifierMixin, BaseEstimator):
        classes_ = np.asarray(order, dtype=object)

        def predict(self, X):
            return y_pred

    for name, function, kwargs in [
        ("quadratic_weighted_kappa", weighted_kappa_score, {"weights": "quadratic"}),
        ("spearman", spearman_score, {}),
        ("kendall_tau_b", kendall_tau_b_score, {}),
        ("pearson", pearson_score, {}),
        ("mutual_information", mutual_information_score, {}),
    ]:
        scorer = get_scorer(name, labels=order)
        assert scorer(Fixed(), None, y_true) == pytest.approx(
            function(y_true, y_pred, labels=order, **kwargs)
        )
