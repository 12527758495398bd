"""Comparing systems across data sets: Demšar 2006's worked example, SciPy on random
tables, brute force, and the answers for ties, constant systems, k = 2 and N < 5."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from scipy import stats

from test_trust_fourth import _brute_force_wilcoxon_p

from sklearn_ordinal.stats._multiple_testing import holm_adjust
from sklearn_ordinal.stats import AcrossDatasetsComparison, compare_across_datasets
from sklearn_ordinal.stats._across_datasets import (
    _cliques,
    _friedman_statistic,
    _greater_is_better,
    _iman_davenport,
    _nemenyi_q,
)

# Demšar (2006), Table 6: AUC of C4.5 with and without tuned m and cf, 14 UCI data sets
# (the same numbers in Orange's and several public reimplementations' tests).
DEMSAR_SYSTEMS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_DATASETS = [
    "adult (sample)", "breast cancer", "breast cancer wisconsin", "cmc", "ionosphere",
    "iris", "liver disorders", "lung cancer", "lymphography", "mushroom",
    "primary tumor", "rheum", "voting", "wine",
]
DEMSAR_AUC = pd.DataFrame(
    [
        [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
        [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
        [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
        [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
        [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
        [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
        [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970],
    ],
    index=DEMSAR_DATASETS, columns=DEMSAR_SYSTEMS,
)
# The paper's average ranks (section 3.2.4).
DEMSAR_RANKS = np.array([3.143, 2.000, 2.893, 1.964])


# The tables are drawn from a seed, which hypothesis cannot shrink well: report the
# first failing example as found instead of searching minutes for a smaller one.
NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]


def _compare(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return compare_across_datasets(*args, **kwargs)


# --- Demšar 2006, section 3.2.4 ------------------------------------------------------


def test_demsar_statistics_from_the_papers_average_ranks():
    # The paper's chi2 and F follow from its average ranks by the formula without
    # tie correction (T = 0).
    chi2 = _friedman_statistic(14 * DEMSAR_RANKS, 14)
    assert round(chi2, 2) == 9.28
    statistic, pvalue = _iman_davenport(chi2, 14, 4)
    assert round(statistic, 2) == 3.69
    # "F(3, 39) ... the critical value is 2.85": F rejects at 0.05.
    assert round(stats.f.ppf(0.95, 3, 39), 2) == 2.85
    assert pvalue < 0.05


def test_demsar_critical_differences():
    result = _compare(DEMSAR_AUC, greater_is_better=True, control="C4.5")
    assert round(result.q_alpha, 3) == 2.569
    assert round(result.critical_difference, 2) == 1.25
    # At alpha = 0.10: q = 2.291 and CD = 1.12 (section 3.2.4).
    relaxed = _compare(DEMSAR_AUC, greater_is_better=True, alpha=0.10)
    assert round(relaxed.q_alpha, 3) == 2.291
    assert round(relaxed.critical_difference, 2) == 1.12
    # Bonferroni-Dunn against a control, k = 4, alpha = 0.05 (Table 5b): 2.394.
    assert round(result.bonferroni_dunn_critical_difference / (
        result.critical_difference / result.q_alpha), 3) == 2.394


def test_demsar_table_gives_the_papers_ranks_up_to_its_rounding_of_ties():
    result = _compare(DEMSAR_AUC, greater_is_better=True)
    ranks = result.average_ranks.to_numpy()
    # C4.5 and C4.5+m match; the two cf variants differ by 1/28 because the paper
    # broke some ties that its three-decimal table shows as ties (primary tumor,
    # voting): 2.929 and 1.929 instead of 2.893 and 1.964.
    np.testing.assert_allclose(ranks[:2], DEMSAR_RANKS[:2], atol=5e-4)
    np.testing.assert_allclose(ranks, [44 / 14, 28 / 14, 41 / 14, 27 / 14])
    # On the table itself, ties in 4 data sets: SciPy's tie-corrected statistic.
    scipy_result = stats.friedmanchisquare(*DEMSAR_AUC.to_numpy().T)
    assert result.friedman_statistic == pytest.approx(scipy_result.statistic, rel=1e-12)
    assert result.friedman_pvalue == pytest.approx(scipy_result.pvalue, rel=1e-12)
    assert result.friedman_statistic > 9.28


def test_demsar_wilcoxon_example():
    # Section 3.1.3: C4.5 against C4.5+m with zero differences split, R+ = 93, R- = 12,
    # T = min = 12, below the critical value 21 for N = 14 at alpha = 0.05.
    result = _compare(DEMSAR_AUC[["C4.5", "C4.5+m"]], greater_is_better=True,
                      zero_method="zsplit")
    assert result.pairwise["wilcoxon_statistic"].iloc[0] == 12
    assert result.pairwise["wilcoxon_pvalue"].iloc[0] < 0.05


def test_nemenyi_quantile_by_simulation():
    # The range of k standard normals, over sqrt(2): q_alpha for k = 4 by brute force.
    rng = np.random.default_rng(0)
    draws = rng.standard_normal((200_000, 4))
    simulated = np.quantile(draws.max(axis=1) - draws.min(axis=1), 0.95) / np.sqrt(2)
    assert simulated == pytest.approx(_nemenyi_q(0.05, 4), abs=0.02)
    # Two systems: the range of two normals over sqrt(2) is |z|, the normal quantile.
    assert _nemenyi_q(0.05, 2) == pytest.approx(stats.norm.isf(0.025), rel=1e-6)


# --- SciPy on random tables ---------------------------------------------------------


@st.composite
def score_tables(draw, min_systems=2):
    n = draw(st.integers(2, 25))
    k = draw(st.integers(min_systems, 7))
    # Few distinct values so that ties within and across data sets are common.
    levels = draw(st.integers(2, 30))
    seed = draw(st.integers(0, 2**32 - 1))
    values = np.random.default_rng(seed).integers(0, levels, size=(n, k)) / levels
    return pd.DataFrame(values, columns=[f"s{j}" for j in range(k)])


@settings(phases=NO_SHRINK, max_examples=60, deadline=None)
@given(table=score_tables(min_systems=3), higher=st.booleans())
def test_friedman_equals_scipy(table, higher):
    result = _compare(table, greater_is_better=higher)
    oriented = table.to_numpy() if higher else -table.to_numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = stats.friedmanchisquare(*oriented.T)
    if np.isnan(expected.statistic):  # every data set ties every system
        assert (result.friedman_statistic, result.friedman_pvalue) == (0.0, 1.0)
    else:
        assert result.friedman_statistic == pytest.approx(expected.statistic, rel=1e-9,
                                                          abs=1e-12)
        assert result.friedman_pvalue == pytest.approx(expected.pvalue, rel=1e-9, abs=1e-12)
    n, k = table.shape
    chi2 = result.friedman_statistic
    if chi2 < n * (k - 1) - 1e-9:
        f = (n - 1) * chi2 / (n * (k - 1) - chi2)
        assert result.iman_davenport_statistic == pytest.approx(f, rel=1e-9, abs=1e-12)
        assert result.iman_davenport_pvalue == pytest.approx(
            stats.f.sf(f, k - 1, (k - 1) * (n - 1)), rel=1e-9, abs=1e-12)


@settings(phases=NO_SHRINK, max_examples=40, deadline=None)
@given(table=score_tables(), zero_method=st.sampled_from(["wilcox", "zsplit", "pratt"]))
def test_pairs_equal_scipy_wilcoxon_and_studentized_range(table, zero_method):
    result = _compare(table, greater_is_better=True, zero_method=zero_method)
    n, k = table.shape
    for (a, b), row in result.pairwise.iterrows():
        difference = table[a] - table[b]
        if (difference == 0).all():
            assert (row["wilcoxon_statistic"], row["wilcoxon_pvalue"]) == (0, 1)
        else:
            # SciPy's exact distribution without zeros or tied |differences|; with
            # them, the enumeration of every sign flip (test_trust_fourth.py).
            size = np.abs(difference)
            exact = size.min() > 0 and size.nunique() == n
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = stats.wilcoxon(table[a], table[b], zero_method=zero_method,
                                          method="exact" if exact else "approx")
            assert row["wilcoxon_statistic"] == pytest.approx(expected.statistic)
            if exact:
                assert row["wilcoxon_pvalue"] == pytest.approx(expected.pvalue)
            elif (size > 0).sum() <= 12:
                assert row["wilcoxon_pvalue"] == pytest.approx(
                    _brute_force_wilcoxon_p(difference.to_numpy(), zero_method))
        gap = abs(result.average_ranks[a] - result.average_ranks[b])
        z = gap / np.sqrt(k * (k + 1) / (6 * n))
        expected_p = stats.studentized_range.sf(z * np.sqrt(2), k, np.inf)
        assert row["nemenyi_pvalue"] == pytest.approx(min(1, expected_p), abs=1e-9)
        assert row["average_rank_a"] == result.average_ranks[a]
    np.testing.assert_allclose(result.pairwise["wilcoxon_pvalue_holm"],
                               holm_adjust(result.pairwise["wilcoxon_pvalue"]))


@settings(phases=NO_SHRINK, max_examples=40, deadline=None)
@given(table=score_tables(), higher=st.booleans())
def test_ranks_by_brute_force(table, higher):
    # Rank 1 = best: count the systems strictly better, plus half of those tied.
    result = _compare(table, greater_is_better=higher)
    values = table.to_numpy() if higher else -table.to_numpy()
    better = (values[:, None, :] > values[:, :, None]).sum(axis=2)
    tied = (values[:, None, :] == values[:, :, None]).sum(axis=2) - 1
    np.testing.assert_array_equal(result.ranks.to_numpy(), 1 + better + tied / 2)
    np.testing.assert_allclose(result.average_ranks, result.ranks.mean())


@settings(phases=NO_SHRINK, max_examples=30, deadline=None)
@given(table=score_tables(min_systems=3), seed=st.integers(0, 1000))
def test_order_of_datasets_and_systems_does_not_matter(table, seed):
    rng = np.random.default_rng(seed)
    shuffled = table.iloc[rng.permutation(len(table)), rng.permutation(table.shape[1])]
    result = _compare(table, greater_is_better=False)
    other = _compare(shuffled, greater_is_better=False)
    assert other.friedman_statistic == pytest.approx(result.friedman_statistic)
    pd.testing.assert_series_equal(other.average_ranks.reindex(result.average_ranks.index),
                                   result.average_ranks)
    assert list(other.average_ranks.index) == list(shuffled.columns)  # order kept


@settings(phases=NO_SHRINK, max_examples=40, deadline=None)
@given(pvalues=st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_holm_matches_its_definition(pvalues):
    # min(1, max_{j <= i} (m - j + 1) p_(j)), by brute force over the sorted p-values.
    m = len(pvalues)
    ranked = sorted(range(m), key=lambda i: (pvalues[i], i))
    expected = np.empty(m)
    for position, i in enumerate(ranked):
        expected[i] = min(1.0, max((m - j) * pvalues[ranked[j]] for j in range(position + 1)))
    np.testing.assert_allclose(holm_adjust(pvalues), expected)


@settings(phases=NO_SHRINK, max_examples=30, deadline=None)
@given(table=score_tables(), alpha=st.sampled_from([0.01, 0.05, 0.1]),
       posthoc=st.sampled_from(["wilcoxon", "nemenyi"]))
def test_cliques_are_maximal_runs_without_a_significant_pair(table, alpha, posthoc):
    result = _compare(table, greater_is_better=True, alpha=alpha, posthoc=posthoc)
    significant = {frozenset(pair) for pair, flag in result.pairwise["significant"].items()
                   if flag}
    order = list(result.average_ranks.sort_values(kind="stable").index)

    def quiet(run):
        return all(frozenset((a, b)) not in significant
                   for i, a in enumerate(run) for b in run[i + 1:])

    runs = [order[i:j + 1] for i in range(len(order)) for j in range(i + 1, len(order))
            if quiet(order[i:j + 1])]
    maximal = [run for run in runs
               if not any(set(run) < set(other) for other in runs)]
    assert result.cliques == maximal
    if posthoc == "nemenyi":
        gaps = {frozenset(pair): abs(row["average_rank_a"] - row["average_rank_b"])
                for pair, row in result.pairwise.iterrows()}
        assert all((gaps[pair] >= result.critical_difference - 1e-12) == (pair in significant)
                   for pair in gaps)


def test_cliques_of_a_matrix():
    significant = np.zeros((4, 4), dtype=bool)
    significant[0, 3] = significant[3, 0] = True
    # Ranks in the order 0, 1, 2, 3: {0, 1, 2} and {1, 2, 3}.
    assert _cliques(np.array([1.0, 2.0, 3.0, 4.0]), significant) == [[0, 1, 2], [1, 2, 3]]
    significant[:] = True
    assert _cliques(np.array([1.0, 2.0, 3.0, 4.0]), significant) == []
    # Wilcoxon's decisions need not follow the ranks: 1 and 2 differ while 0 and 2 do
    # not. A bar is a run without a significant pair *anywhere* inside: {0, 1} only.
    significant[:] = False
    significant[1, 2] = significant[2, 1] = True
    assert _cliques(np.array([1.0, 2.0, 3.0]), significant[:3, :3]) == [[0, 1]]


# --- control ------------------------------------------------------------------------


def test_versus_control():
    result = _compare(DEMSAR_AUC, greater_is_better=True, control="C4.5")
    table = result.versus_control
    assert list(table.index) == ["C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    standard_error = np.sqrt(4 * 5 / (6 * 14))
    z = (result.average_ranks[table.index] - result.average_ranks["C4.5"]) / standard_error
    np.testing.assert_allclose(table["z"], z)
    np.testing.assert_allclose(table["pvalue"], 2 * stats.norm.sf(np.abs(z)))
    np.testing.assert_allclose(table["pvalue_holm"], holm_adjust(table["pvalue"]))
    np.testing.assert_allclose(table["pvalue_bonferroni_dunn"],
                               np.minimum(1, 3 * table["pvalue"]))
    for system in table.index:
        # Ties among the differences: the exact p-value, by enumerating every sign
        # flip (SciPy's default takes the normal approximation at N = 14 with ties).
        difference = (DEMSAR_AUC[system] - DEMSAR_AUC["C4.5"]).to_numpy()
        expected = _brute_force_wilcoxon_p(difference, "wilcox")
        assert table.loc[system, "wilcoxon_pvalue"] == pytest.approx(expected)
    # Bonferroni-Dunn: significant where the rank gap reaches its critical difference.
    reaches = np.abs(table["rank_difference"]) >= result.bonferroni_dunn_critical_difference
    assert ((table["pvalue_bonferroni_dunn"] <= 0.05) == reaches).all()
    assert table["significant"].tolist() == (table["wilcoxon_pvalue_holm"] <= 0.05).tolist()
    with pytest.raises(ValueError, match="control='J48' is not a system"):
        _compare(DEMSAR_AUC, greater_is_better=True, control="J48")


# --- direction ----------------------------------------------------------------------


def test_direction_from_the_measure_name():
    assert _greater_is_better("neg_mean_absolute_error") is True  # scorer values
    assert _greater_is_better("neg_macro_mean_absolute_error") is True
    assert _greater_is_better("cem_ord") is True
    assert _greater_is_better("vus") is True
    assert _greater_is_better("mean_absolute_error") is False  # the loss itself
    assert _greater_is_better("macro_mean_absolute_error") is False
    with pytest.raises(ValueError, match="Unknown measure 'auroc'.*greater_is_better"):
        _greater_is_better("auroc")


def test_a_loss_is_ranked_lowest_first():
    mae = pd.DataFrame({"good": [0.2, 0.3, 0.1, 0.4, 0.2],
                        "bad": [0.9, 0.8, 0.7, 0.95, 0.6]})
    result = _compare(mae, "mean_absolute_error")
    assert result.average_ranks.to_dict() == {"good": 1.0, "bad": 2.0}
    assert not result.greater_is_better
    negated = _compare(-mae, "neg_mean_absolute_error")
    pd.testing.assert_frame_equal(negated.ranks, result.ranks)
    stated = _compare(mae, greater_is_better=False)
    pd.testing.assert_frame_equal(stated.ranks, result.ranks)
    unknown = _compare(mae, "my_error", greater_is_better=False)
    pd.testing.assert_frame_equal(unknown.ranks, result.ranks)


def test_direction_errors():
    table = DEMSAR_AUC
    with pytest.raises(ValueError, match="direction of the scores is unknown"):
        compare_across_datasets(table)
    with pytest.raises(ValueError, match="Unknown measure 'auc'"):
        compare_across_datasets(table, "auc")
    with pytest.raises(ValueError, match="contradicts the measure 'mean_absolute_error'"):
        compare_across_datasets(table, "mean_absolute_error", greater_is_better=True)


# --- input --------------------------------------------------------------------------


def test_long_table_equals_wide_and_keeps_the_order():
    long = DEMSAR_AUC.rename_axis("dataset").reset_index().melt(
        id_vars="dataset", var_name="system", value_name="score")
    long = long.sample(frac=1, random_state=0)
    result = _compare(long, greater_is_better=True)
    wide = _compare(DEMSAR_AUC, greater_is_better=True)
    assert list(result.average_ranks.index) == list(pd.unique(long["system"]))
    pd.testing.assert_series_equal(result.average_ranks[DEMSAR_SYSTEMS], wide.average_ranks)
    assert result.friedman_statistic == wide.friedman_statistic
    # A (dataset, system) row absent from the long table is a missing score, named.
    absent = long[~((long["dataset"] == "wine") & (long["system"] == "C4.5"))]
    with pytest.raises(ValueError, match=r"1 score\(s\) are missing.*\('wine', 'C4.5'\)"):
        compare_across_datasets(absent, greater_is_better=True)
    twice = pd.concat([long, long.head(1)])
    with pytest.raises(ValueError, match=r"1 \(dataset, system\) pair\(s\) have more than"):
        compare_across_datasets(twice, greater_is_better=True)


def test_arrays_and_dicts():
    array = _compare(DEMSAR_AUC.to_numpy(), greater_is_better=True)
    assert list(array.average_ranks.index) == [0, 1, 2, 3]
    nested = {dataset: row.to_dict() for dataset, row in DEMSAR_AUC.iterrows()}
    from_dict = _compare(nested, greater_is_better=True)
    np.testing.assert_array_equal(from_dict.average_ranks, array.average_ranks)
    with pytest.raises(ValueError, match=r"table of data sets \(rows\) x systems"):
        compare_across_datasets([0.1, 0.2], greater_is_better=True)
    with pytest.raises(ValueError, match="scores must be numbers"):
        compare_across_datasets(pd.DataFrame({"a": ["x", "y"], "b": [1, 2]}),
                                greater_is_better=True)


def test_missing_scores_are_named_or_dropped():
    table = DEMSAR_AUC.copy()
    table.loc["iris", "C4.5+cf"] = np.nan
    with pytest.raises(ValueError, match=r"1 score\(s\) are missing.*\('iris', 'C4.5\+cf'\)"
                       r".*drop_incomplete=True"):
        compare_across_datasets(table, greater_is_better=True)
    with pytest.warns(UserWarning, match=r"Left out 1 incomplete data set\(s\) of 14: "
                      r"\['iris'\]"):
        result = compare_across_datasets(table, greater_is_better=True, drop_incomplete=True)
    assert result.n_datasets == 13 and result.dropped_datasets == ["iris"]
    expected = _compare(DEMSAR_AUC.drop(index="iris"), greater_is_better=True)
    assert result.friedman_statistic == expected.friedman_statistic
    inf = DEMSAR_AUC.copy()
    inf.iloc[0, 0] = np.inf
    with pytest.raises(ValueError, match="infinite"):
        compare_across_datasets(inf, greater_is_better=True)


def test_too_few_systems_or_datasets():
    with pytest.raises(ValueError, match="at least 2 systems; got 1"):
        compare_across_datasets(DEMSAR_AUC[["C4.5"]], greater_is_better=True)
    with pytest.raises(ValueError, match="at least 2 complete data sets; got 1"):
        _compare(DEMSAR_AUC.head(1), greater_is_better=True)


def test_bad_parameters():
    with pytest.raises(ValueError, match="alpha"):
        compare_across_datasets(DEMSAR_AUC, greater_is_better=True, alpha=1.5)
    with pytest.raises(ValueError, match="posthoc"):
        compare_across_datasets(DEMSAR_AUC, greater_is_better=True, posthoc="tukey")


# --- the documented answers: ties, a constant system, k = 2, N < 5 --------------------


def test_a_dataset_where_all_systems_tie_gives_mid_ranks():
    result = _compare(DEMSAR_AUC, greater_is_better=True)
    assert result.ranks.loc["mushroom"].tolist() == [2.5] * 4


def test_every_dataset_tied():
    table = pd.DataFrame(np.ones((6, 3)), columns=list("abc"))
    with pytest.warns(UserWarning, match="Every data set ties every system"):
        result = compare_across_datasets(table, greater_is_better=True)
    assert (result.friedman_statistic, result.friedman_pvalue) == (0.0, 1.0)
    assert result.iman_davenport_pvalue == 1.0
    assert (result.pairwise["wilcoxon_pvalue"] == 1).all()
    assert not result.pairwise["significant"].any()
    assert result.cliques == [["a", "b", "c"]]


def test_perfect_agreement_gives_an_infinite_f():
    table = pd.DataFrame({"a": np.arange(8.0) + 2, "b": np.arange(8.0) + 1,
                          "c": np.arange(8.0)})
    result = _compare(table, greater_is_better=True)
    assert result.friedman_statistic == pytest.approx(8 * 2)  # N (k - 1), its maximum
    assert result.iman_davenport_statistic == np.inf
    assert result.iman_davenport_pvalue == 0.0


def test_a_system_constant_across_datasets_is_ranked_like_any_other():
    rng = np.random.default_rng(1)
    table = pd.DataFrame(rng.random((12, 3)), columns=["a", "b", "c"])
    table["constant"] = 0.5
    result = _compare(table, greater_is_better=True)
    expected = stats.friedmanchisquare(*table.to_numpy().T)
    assert result.friedman_statistic == pytest.approx(expected.statistic)
    ranks = 1 + (table.to_numpy() > 0.5).sum(axis=1)
    np.testing.assert_array_equal(result.ranks["constant"], ranks)
    row = result.pairwise.loc[("a", "constant")]
    assert row["wilcoxon_pvalue"] == pytest.approx(
        stats.wilcoxon(table["a"], table["constant"]).pvalue)


def test_two_systems_friedman_is_the_sign_test():
    rng = np.random.default_rng(2)
    table = pd.DataFrame(rng.integers(0, 4, size=(30, 2)), columns=["a", "b"])
    result = _compare(table, greater_is_better=True)
    wins = (table["a"] > table["b"]).sum()
    losses = (table["a"] < table["b"]).sum()
    assert result.friedman_statistic == pytest.approx((wins - losses) ** 2 / (wins + losses))
    assert result.q_alpha == pytest.approx(stats.norm.isf(0.025), rel=1e-6)
    z = abs(result.average_ranks["a"] - result.average_ranks["b"]) / np.sqrt(2 * 3 / (6 * 30))
    assert result.pairwise["nemenyi_pvalue"].iloc[0] == pytest.approx(
        2 * stats.norm.sf(z), rel=1e-5)


def test_fewer_than_five_datasets_warn_what_to_trust():
    table = DEMSAR_AUC.head(4)
    with pytest.warns(UserWarning, match=r"Only 4 data sets.*below 0.125 \(2 / 2\*\*N\)"
                      r".*Trust only large"):
        result = compare_across_datasets(table, greater_is_better=True)
    assert not result.pairwise["significant"].any()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compare_across_datasets(DEMSAR_AUC.head(5), greater_is_better=True)


# --- the result ---------------------------------------------------------------------


def test_result_outputs():
    result = _compare(DEMSAR_AUC, "cem_ord", control="C4.5", posthoc="nemenyi")
    assert isinstance(result, AcrossDatasetsComparison)
    assert repr(result).startswith(
        "AcrossDatasetsComparison(systems=4, datasets=14, best='C4.5+m+cf'")
    text = result.to_string()
    assert "Friedman chi2 = 10.952 (df 3, tie-corrected)" in text
    assert "the omnibus test rejects" in text
    assert "Nemenyi critical difference = 1.254" in text
    assert str(result) == text
    document = json.loads(result.to_json())
    assert document["average_ranks"]["C4.5"] == pytest.approx(44 / 14)
    assert document["versus_control"][0]["system"] == "C4.5+m"
    assert document["cliques"] == [list(clique) for clique in result.cliques]
    markdown = result.to_markdown()
    assert "| system_a | system_b |" in markdown
    csv = result.to_csv()
    assert csv.splitlines()[0].startswith("system_a,system_b,average_rank_a")
    assert result.summary().index[0] == "C4.5+m+cf"
