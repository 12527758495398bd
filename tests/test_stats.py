"""Intervals and paired comparisons: against scipy.stats.bootstrap on the raw items,
brute-force randomization, a reduced coverage simulation, and degenerate input."""

import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_ordinal.metrics import (
    cem_score,
    macro_mean_absolute_error,
    make_ordinal_scorer,
    mean_absolute_error,
    vus_score,
)
from sklearn_ordinal.metrics._registry import confusion_kernel
from sklearn_ordinal._confusion import OrdinalConfusion
from sklearn_ordinal.stats import compare_scores, score_interval

N_RESAMPLES = 2999


def _ordinal_data(n, n_classes=3, seed=0, noise=1.0):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, n)
    score = y_true + rng.normal(0, noise, n)
    y_pred = np.clip(np.rint(score), 0, n_classes - 1).astype(int)
    return y_true, y_pred, score


def _scipy_interval(statistic, n_units, method, seed=1):
    """scipy.stats.bootstrap over the unit indices: the items themselves are redrawn."""
    return stats.bootstrap(
        (np.arange(n_units),),
        statistic,
        n_resamples=N_RESAMPLES,
        method=method,
        vectorized=False,
        random_state=np.random.default_rng(seed),  # "rng" only from SciPy 1.15
    )


def _assert_agree(ours, theirs):
    # Each end of an interval from B resamples has a Monte Carlo standard deviation
    # of about 0.05 standard errors at B = 2999 (sqrt(0.025 * 0.975 / B) / phi(1.96));
    # the difference of two, 0.07; 0.3 standard errors is > 4 of them.
    tolerance = 0.3 * theirs.standard_error
    assert abs(ours.confidence_interval.low - theirs.confidence_interval.low) < tolerance
    assert abs(ours.confidence_interval.high - theirs.confidence_interval.high) < tolerance
    assert ours.standard_error == pytest.approx(theirs.standard_error, rel=0.08)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_label_interval_matches_scipy_on_items(method):
    y_true, y_pred, _ = _ordinal_data(60)
    ours = score_interval(macro_mean_absolute_error, y_true, y_pred, method=method,
                          n_resamples=N_RESAMPLES, random_state=0)
    theirs = _scipy_interval(
        lambda i: macro_mean_absolute_error(y_true[i], y_pred[i], labels=[0, 1, 2]), 60, method
    )
    assert ours.estimate == macro_mean_absolute_error(y_true, y_pred)
    _assert_agree(ours, theirs)


def test_weighted_and_grouped_intervals_match_scipy():
    y_true, y_pred, _ = _ordinal_data(60, seed=3)
    weight = np.random.default_rng(4).choice([0.5, 1.0, 2.0], 60)
    ours = score_interval("cem_ord", y_true, y_pred, sample_weight=weight,
                          n_resamples=N_RESAMPLES, random_state=0)
    theirs = _scipy_interval(
        lambda i: cem_score(y_true[i], y_pred[i], labels=[0, 1, 2], sample_weight=weight[i]),
        60, "bca",
    )
    _assert_agree(ours, theirs)

    groups = np.arange(60) // 3  # 20 groups of 3 items move together
    ours = score_interval(macro_mean_absolute_error, y_true, y_pred, groups=groups,
                          n_resamples=N_RESAMPLES, random_state=0)
    members = [np.flatnonzero(groups == g) for g in range(20)]

    def grouped(g):
        items = np.concatenate([members[j] for j in g])
        return macro_mean_absolute_error(y_true[items], y_pred[items], labels=[0, 1, 2])

    _assert_agree(ours, _scipy_interval(grouped, 20, "bca"))


def test_ranking_and_real_valued_intervals_match_scipy():
    y_true, _, score = _ordinal_data(60, seed=5)
    ours = score_interval(vus_score, y_true, score, n_resamples=N_RESAMPLES, random_state=0)
    theirs = _scipy_interval(lambda i: vus_score(y_true[i], score[i]), 60, "bca")
    _assert_agree(ours, theirs)

    # Tied scores: a resample empties some scores, which must not upset the tie blocks.
    tied = np.round(score)
    ours = compare_scores(vus_score, y_true, tied, score, n_resamples=N_RESAMPLES,
                          random_state=0)
    theirs = _scipy_interval(
        lambda i: vus_score(y_true[i], tied[i]) - vus_score(y_true[i], score[i]), 60, "bca"
    )
    assert ours.estimate_a == vus_score(y_true, tied)
    _assert_agree(ours, theirs)

    ours = score_interval(mean_absolute_error, y_true, score, average="micro",
                          n_resamples=N_RESAMPLES, random_state=0)
    theirs = _scipy_interval(
        lambda i: mean_absolute_error(y_true[i], score[i], average="micro"), 60, "bca"
    )
    assert ours.estimate == pytest.approx(np.mean(np.abs(score - y_true)))
    _assert_agree(ours, theirs)

    # A regressor against a classifier, with class values that are not the labels.
    y_pred = np.clip(np.rint(score), 0, 2).astype(int)
    values = [0.0, 1.0, 3.0]
    ours = compare_scores(macro_mean_absolute_error, y_true, score, y_pred, class_values=values,
                          n_resamples=N_RESAMPLES, random_state=0)
    macro = (macro_mean_absolute_error(y_true, score, class_values=values)
             - macro_mean_absolute_error(y_true, y_pred, class_values=values))
    assert ours.estimate == pytest.approx(macro)
    assert ours.estimate_a == pytest.approx(
        np.mean([np.mean(np.abs(score[y_true == k] - values[k])) for k in range(3)])
    )


def test_paired_interval_matches_scipy_and_pvalue_brute_force():
    y_true, y_pred, score = _ordinal_data(80, seed=6)
    other = np.clip(np.rint(score + np.random.default_rng(7).normal(0, 0.7, 80)), 0, 2)
    other = other.astype(int)
    ours = compare_scores("neg_macro_mean_absolute_error", y_true, y_pred, other,
                          n_resamples=N_RESAMPLES, random_state=0)

    def difference(i):
        return (macro_mean_absolute_error(y_true[i], y_pred[i], labels=[0, 1, 2])
                - macro_mean_absolute_error(y_true[i], other[i], labels=[0, 1, 2]))

    _assert_agree(ours, _scipy_interval(difference, 80, "bca"))
    assert ours.estimate == pytest.approx(difference(np.arange(80)))
    assert ours.greater_is_better is False

    # Brute force: exchange the two systems' predictions item by item.
    rng = np.random.default_rng(8)
    null = []
    for _ in range(999):
        swap = rng.random(80) < 0.5
        a, b = np.where(swap, other, y_pred), np.where(swap, y_pred, other)
        null.append(macro_mean_absolute_error(y_true, a, labels=[0, 1, 2])
                    - macro_mean_absolute_error(y_true, b, labels=[0, 1, 2]))
    brute = (1 + np.sum(np.abs(null) >= abs(ours.estimate) - 1e-12)) / (1 + len(null))
    # Two Monte Carlo estimates of one p-value near 0.04: sd sqrt(p (1 - p) / B) is 0.006
    # at B = 999 and 0.004 at B = 2999; 0.025 is more than 3 sd of their difference.
    assert abs(ours.pvalue - brute) < 0.025
    assert 0.01 < ours.pvalue < 0.2  # the test above must be able to fail
    # Exchanging is symmetric: the null distribution is centred on 0.
    null = ours.null_distribution
    assert abs(null.mean()) < 4 * null.std() / np.sqrt(len(null))


@pytest.mark.parametrize("weighted", [False, True])
def test_bca_acceleration_equals_the_item_jackknife(weighted):
    """One leave-one-out value per cell, weighted by its count, is the item jackknife."""
    from sklearn_ordinal.metrics._registry import resolve as _resolve
    from sklearn_ordinal.stats._intervals import _data_statistic, _layout
    from sklearn_ordinal.stats._resampling import _acceleration, jackknife

    rng = np.random.default_rng(9)
    y_true = rng.choice(4, 50, p=[0.6, 0.25, 0.1, 0.05])
    y_pred = np.clip(y_true + rng.integers(-2, 2, 50), 0, 3)
    weight = rng.choice([1.0, 3.0], 50) if weighted else None
    spec = _resolve("cem_ord", {})
    units, parts = _layout(spec, y_true, [y_pred], None, None, weight, None)
    statistic = _data_statistic(parts)
    ours = _acceleration(jackknife(statistic, units), units.counts)

    left_out = np.array([
        cem_score(np.delete(y_true, i), np.delete(y_pred, i), labels=[0, 1, 2, 3],
                  sample_weight=None if weight is None else np.delete(weight, i))
        for i in range(50)
    ])
    deviation = left_out.mean() - left_out
    expected = np.sum(deviation**3) / (6 * np.sum(deviation**2) ** 1.5)
    assert abs(expected) > 1e-4  # not zero, so a sign error shows
    assert ours == pytest.approx(expected, rel=1e-9)


def _population(n_classes=4, noise=0.9):
    """Class priors and P(pred = j | true = k) of a fixed noisy classifier."""
    prior = np.array([0.45, 0.3, 0.17, 0.08])[:n_classes]
    cut = np.arange(n_classes - 1) + 0.5
    cdf = stats.norm.cdf((cut[None, :] - np.arange(n_classes)[:, None]) / noise)
    edges = np.column_stack([np.zeros(n_classes), cdf, np.ones(n_classes)])
    return prior, np.diff(edges, axis=1)


@pytest.mark.parametrize("measure", [mean_absolute_error, cem_score])
def test_reduced_coverage_simulation(measure):
    """The full simulation (95% +- 2%) is benchmarks/bench_intervals.py; here 100 reps."""
    prior, conditional = _population()
    classes = np.arange(4)
    truth = confusion_kernel(measure)(
        OrdinalConfusion(classes, classes.astype(float), prior[:, None] * conditional)
    )
    rng = np.random.default_rng(2024)
    covered = 0
    n_reps = 100
    for _ in range(n_reps):
        y_true = rng.choice(4, 300, p=prior)
        y_pred = (rng.random((300, 1)) > np.cumsum(conditional, axis=1)[y_true]).sum(axis=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = score_interval(measure, y_true, y_pred, labels=classes,
                                    n_resamples=399, random_state=int(rng.integers(2**31)))
        low, high = result.confidence_interval
        covered += low <= truth <= high
    # 100 repetitions: 95% coverage gives 95 +- 2.2; 88 is more than 3 sd below.
    assert 88 <= covered <= 100


def test_one_class_and_zero_variance_give_a_point_with_a_warning():
    with pytest.warns(stats.DegenerateDataWarning, match="same value 0.0"):
        result = score_interval(mean_absolute_error, [2] * 30, [2] * 30, random_state=0)
    assert result.confidence_interval == (0.0, 0.0)
    y = [0, 1, 2] * 10
    with pytest.warns(stats.DegenerateDataWarning, match="single point"):
        result = score_interval("cem_ord", y, y, random_state=0)
    assert result.confidence_interval == (1.0, 1.0)
    with pytest.raises(ValueError, match="at least two classes"):
        score_interval(vus_score, [1] * 10, np.arange(10.0))


def test_too_few_resamples_is_an_error():
    with pytest.raises(ValueError, match="n_resamples=30 leaves no resample.*at least 40"):
        score_interval(mean_absolute_error, [0, 1], [0, 1], n_resamples=30)
    with pytest.raises(ValueError, match="use at least 2000"):
        score_interval(mean_absolute_error, [0, 1], [0, 1], n_resamples=999,
                       confidence_level=0.999)


def test_undefined_and_flagged_resamples_are_counted():
    # One item of class 1: resamples without it have one class, where VUS is undefined.
    y_true = np.r_[np.zeros(19, dtype=int), 1]
    score = np.linspace(0, 1, 20)
    with pytest.warns(UserWarning, match=r"undefined \(NaN\) on \d+ of 999"):
        result = score_interval(vus_score, y_true, score, n_resamples=999,
                                method="percentile", random_state=0)
    n_nan = int(np.isnan(result.bootstrap_distribution).sum())
    assert result.n_undefined == n_nan
    # P(item missed) = (19/20)^20 = 0.358
    assert 0.3 * 999 < n_nan < 0.42 * 999
    assert np.isfinite(result.confidence_interval).all()
    assert np.isfinite(result.standard_error)

    # A rare class missing from a resample is left out of the macro average, as the
    # measure does on any data; the resamples are counted, not dropped.
    y_true = np.r_[np.zeros(30, dtype=int), np.ones(30, dtype=int), 2]
    # The rare class also skews the resamples so far that a BCa end needs more of them.
    flagged = r"On \d+ of 999 bootstrap resamples the measure warned"
    with pytest.warns(stats.DegenerateDataWarning, match="BCa-adjusted tail levels"), \
            pytest.warns(UserWarning, match=flagged):
        result = score_interval(macro_mean_absolute_error, y_true, y_true[::-1], n_resamples=999,
                                random_state=0)
    assert 0.3 * 999 < result.n_flagged < 0.42 * 999
    assert not np.isnan(result.bootstrap_distribution).any()


def test_bad_input_is_a_clear_error():
    y = [0, 1, 2] * 10
    with pytest.raises(ValueError, match="average=None gives one value per class"):
        score_interval(mean_absolute_error, y, y, average=None)
    with pytest.raises(ValueError, match="not a measure of sklearn_ordinal"):
        score_interval(lambda a, b: 0.0, y, y)
    with pytest.raises(ValueError, match="not a measure of sklearn_ordinal"):
        score_interval("macro_mae", y, y)
    with pytest.raises(ValueError, match="one group per item"):
        score_interval(mean_absolute_error, y, y, groups=[0, 1])
    with pytest.raises(ValueError, match="at least two"):
        score_interval(mean_absolute_error, y, y, groups=[0] * 30)
    with pytest.raises(ValueError, match="spearman takes no sample_weight"):
        score_interval("spearman", y, y, sample_weight=np.ones(30))


def test_string_labels_follow_the_given_order_and_scorers_give_the_measure():
    y_true = np.array(["low", "mid", "high"] * 20)
    y_pred = np.array(["low", "low", "high"] * 20)
    y_pred[:9] = "mid"
    with pytest.raises(ValueError, match="order cannot be guessed"):
        score_interval(mean_absolute_error, y_true, y_pred)
    result = score_interval("neg_macro_mean_absolute_error", y_true, y_pred,
                            labels=["low", "mid", "high"], random_state=0)
    assert result.estimate == pytest.approx(
        macro_mean_absolute_error(y_true, y_pred, labels=["low", "mid", "high"])
    )
    scorer = make_ordinal_scorer(macro_mean_absolute_error, labels=["low", "mid", "high"])
    assert score_interval(scorer, y_true, y_pred, random_state=0).estimate == result.estimate
    # Order-free measures take unordered strings, in the paired comparison too.
    result = compare_scores("accuracy", y_true, y_pred, y_true, random_state=0)
    assert result.estimate == pytest.approx(np.mean(y_true == y_pred) - 1)
    assert result.pvalue < 0.001


def test_compare_to_trivial_gains_the_paired_interval_of_the_pooled_predictions():
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    from sklearn_ordinal.dummy import TrivialOrdinalClassifier
    from sklearn_ordinal.metrics import get_scorer
    from sklearn_ordinal.model_selection import compare_to_trivial

    X, target = load_diabetes(return_X_y=True)
    y = np.digitize(target, np.quantile(target, [0.2, 0.5, 0.8]))
    model = LogisticRegression(max_iter=1000)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    name = "neg_macro_mean_absolute_error"
    table = compare_to_trivial(model, X, y, scoring=[name, "cem_ord"], cv=cv,
                               confidence_level=0.9, n_resamples=999, random_state=0)
    row = table.loc[name]
    # Brute force: the out-of-fold predictions of both, on the same folds.
    splits = list(cv.split(X, y))
    predicted = cross_val_predict(model, X, y, cv=splits)
    trivial = cross_val_predict(TrivialOrdinalClassifier(get_scorer(name)), X, y, cv=splits)
    expected = -(macro_mean_absolute_error(y, predicted) - macro_mean_absolute_error(y, trivial))
    assert row["difference"] == pytest.approx(expected)
    assert row["difference_low"] < row["difference"] < row["difference_high"]
    assert row["significantly_better"] == (row["difference_low"] > 0)
    # The interval's inversion (#41): 0 when every resample lies on one side.
    assert 0 <= row["pvalue"] <= 1
    excludes_zero = row["difference_low"] > 0 or row["difference_high"] < 0
    assert excludes_zero == (row["pvalue"] < 0.1)
    assert table.loc["cem_ord", "significantly_better"]


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_ranked_probability_score_interval_matches_scipy(method):
    # RPS is a weighted mean over items: resampling redraws the items' own values.
    from sklearn_ordinal.metrics import ranked_probability_score_loss

    y_true, y_pred, _ = _ordinal_data(60, seed=7)
    rng = np.random.default_rng(7)
    proba = 0.6 * np.eye(3)[y_pred] + 0.4 * rng.dirichlet(np.ones(3), size=60)
    ours = score_interval(ranked_probability_score_loss, y_true, proba, method=method,
                          n_resamples=N_RESAMPLES, random_state=0, labels=[0, 1, 2])
    theirs = _scipy_interval(
        lambda i: ranked_probability_score_loss(y_true[i], proba[i], labels=[0, 1, 2]), 60, method
    )
    assert ours.estimate == pytest.approx(ranked_probability_score_loss(y_true, proba))
    _assert_agree(ours, theirs)
    normalized = score_interval("neg_ranked_probability_score", y_true, proba, method=method,
                                n_resamples=N_RESAMPLES, random_state=0, normalize=True)
    assert normalized.confidence_interval.low == pytest.approx(ours.confidence_interval.low / 2)


@pytest.mark.parametrize("seed", range(20))
def test_unweighted_items_share_units_as_the_row_sort_finds_them(seed):
    # The int64-key shortcut for unweighted items must give the units, in the order,
    # of np.unique over the rows: the resamples (and so every interval) depend on it.
    from sklearn_ordinal.stats._resampling import units_from_items

    rng = np.random.default_rng(seed)
    size, width = int(rng.integers(2, 40)), int(rng.integers(1, 4))
    cells = rng.integers(size, size=(int(rng.integers(1, 300)), width))
    values = np.ones(cells.shape)
    units = units_from_items(cells, values, size)
    distinct, counts = np.unique(cells, axis=0, return_counts=True)
    if len(distinct) == len(cells):
        # No row repeats: the units are the items in their own order (#45).
        distinct, counts = cells, np.ones(len(cells), dtype=np.int64)
    np.testing.assert_array_equal(units.counts, counts)
    expected = np.zeros((len(distinct), size))
    for row, unit_cells in enumerate(distinct):
        np.add.at(expected[row], unit_cells, 1.0)
    np.testing.assert_array_equal(units.contributions.toarray(), expected)
    # Weighted rows take the general path, with the same result for unit weights.
    weighted = units_from_items(cells, values * 1.0, size)
    np.testing.assert_array_equal(weighted.counts, units.counts)


def test_few_groups_warn_and_many_do_not():
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.integers(3, size=200), rng.integers(3, size=200)
    with pytest.warns(UserWarning, match="Only 5 groups are resampled"):
        score_interval(mean_absolute_error, y_true, y_pred, groups=np.arange(200) % 5,
                       n_resamples=99, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        score_interval(mean_absolute_error, y_true, y_pred, groups=np.arange(200) % 20,
                       n_resamples=99, random_state=0)
