"""The ranking measures resampled in batches (issue 39).

The kernels score a stack of score tables on the same cells in one call; each
bootstrap resample must be the measure on the resampled items themselves; the draws
(unit indices counted per cell, random bits for exchanges) must have the law of the
multinomial and binomial draws they replace, and be reproducible from the seed.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sklearn_ordinal._score_table import _build_score_table
from sklearn_ordinal.metrics import (
    mean_absolute_error,
    u_cons_score,
    u_ovo_score,
    u_pairs_score,
    vus_score,
)
from sklearn_ordinal.metrics._ranking import _u_cons, _u_ovo, _u_pairs, _vus
from sklearn_ordinal.stats import _resampling, compare_scores, score_interval
from sklearn_ordinal.stats._interval_pvalue import percentile_interval_pvalue
from sklearn_ordinal.metrics._registry import resolve as _resolve
from sklearn_ordinal.stats._intervals import _data_statistic, _layout
from sklearn_ordinal.stats._resampling import (
    Evaluation,
    _draw_bootstrap,
    _draw_randomization,
    _evaluated,
    shared_resamples,
)

KERNELS = {vus_score: _vus, u_pairs_score: _u_pairs, u_ovo_score: _u_ovo,
           u_cons_score: _u_cons}


def _random_table(seed, n_classes, decimals, weighted):
    """``(rng, table)``: the score table of up to 60 random items of every class,
    scores rounded to ``decimals`` (0: many ties across classes)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(n_classes, 60))
    y = np.r_[np.arange(n_classes), rng.integers(0, n_classes, n - n_classes)]
    score = np.round(y + rng.normal(0, 1.0, n), decimals)
    weight = rng.uniform(0.1, 3.0, n) if weighted else None
    return rng, _build_score_table(y, score, None, weight, "test")


@given(
    seed=st.integers(0, 2**32 - 1),
    n_classes=st.integers(2, 5),
    decimals=st.sampled_from([0, 1, 3]),  # 0: many ties across classes
    weighted=st.booleans(),
    ties=st.sampled_from(["average", "strict"]),
)
def test_stacked_kernels_equal_one_table_at_a_time(seed, n_classes, decimals, weighted, ties):
    rng, table = _random_table(seed, n_classes, decimals, weighted)
    # Resampled weights: whole counts, zeros included (a cell left out of a resample).
    stack = rng.integers(0, 3, (6, len(table.weights))).astype(float)
    stack[:, table.bounds[:-1]] += 1  # every class keeps an item
    if weighted:
        stack *= table.weights
    for kernel in KERNELS.values():
        together = kernel(table._replace(weights=stack), ties)
        alone = [kernel(table._replace(weights=row), ties) for row in stack]
        assert together.shape == (6,)
        np.testing.assert_allclose(together, alone, rtol=1e-12, atol=1e-12)


def test_stacked_kernel_of_one_row_is_the_public_measure():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 80)
    score = np.round(y + rng.normal(0, 1, 80), 1)
    weight = rng.uniform(0, 2, 80)
    table = _build_score_table(y, score, None, weight, "test")
    for measure, kernel in KERNELS.items():
        value = kernel(table._replace(weights=table.weights[None, :]))
        assert value[0] == pytest.approx(measure(y, score, sample_weight=weight), abs=1e-12)


@pytest.mark.parametrize("measure", ["vus", "u_cons", "u_pairs"])
def test_resamples_lacking_a_class_are_scored_alone(measure):
    # A class of two items: some resamples lose it; the batched kernel leaves them
    # NaN and the resampler computes them with the measure's own rule (the class
    # left out, with a warning counted).
    y = np.r_[np.zeros(30, int), np.ones(30, int), [2, 2]]
    score = y + np.random.default_rng(1).normal(0, 1, len(y))
    spec = _resolve(measure, {})
    units, parts = _layout(spec, y, [score], None, None, None, None)
    statistic = _data_statistic(parts)
    draws = next(_draw_bootstrap(units.counts, 300, np.random.RandomState(0)))
    batch = draws @ units.contributions.toarray()
    values, flagged = _evaluated(statistic, batch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        alone = np.array([statistic(row) for row in batch])
    # The units are the items in their order: the last two are class 2's.
    lacking = (draws[:, -2:] == 0).all(axis=1)
    assert lacking.any() and not lacking.all()
    np.testing.assert_allclose(values, alone, rtol=1e-12, atol=1e-12)
    assert sorted(flagged) == np.flatnonzero(lacking).tolist()


def _recorded_draws(monkeypatch):
    """Record every batch of bootstrap counts drawn."""
    drawn = []

    def recording(counts, n_resamples, rng):
        for batch in _draw_bootstrap(counts, n_resamples, rng):
            drawn.append(batch.copy())
            yield batch

    monkeypatch.setattr(_resampling, "_draw_bootstrap", recording)
    return drawn


@pytest.mark.parametrize("measure", [vus_score, u_cons_score, u_pairs_score])
@pytest.mark.parametrize("paired", [False, True])
def test_each_resample_is_the_measure_on_the_resampled_items(monkeypatch, measure, paired):
    # Distinct continuous scores: every item is its own unit, so a resample's counts
    # say how often each item is drawn. 300 items: the index draw (not the multinomial).
    rng = np.random.default_rng(5)
    n = 300
    y = rng.choice(4, n, p=[0.1, 0.2, 0.3, 0.4])
    a = y + rng.normal(0, 1.0, n)
    b = y + rng.normal(0, 1.5, n)
    drawn = _recorded_draws(monkeypatch)
    if paired:
        result = compare_scores(measure, y, a, b, n_resamples=99, method="percentile",
                                random_state=2)
    else:
        result = score_interval(measure, y, a, n_resamples=99, method="percentile",
                                random_state=2)
    counts = np.concatenate(drawn)
    assert counts.shape == (99, n) and (counts.sum(axis=1) == n).all()
    for b_index in range(0, 99, 7):
        # The units are the items, in their order, alone or paired (so a report's
        # one draw resamples the same items for every system and measure).
        items = np.repeat(np.arange(n), counts[b_index].astype(int))
        expected = measure(y[items], a[items])
        if paired:
            expected -= measure(y[items], b[items])
        assert result.bootstrap_distribution[b_index] == pytest.approx(expected, abs=1e-12)


def test_weighted_and_grouped_ranking_resamples_are_the_measure_on_the_units(monkeypatch):
    # Groups: a unit is a group; each resample repeats whole groups.
    rng = np.random.default_rng(8)
    n_groups, size = 40, 6
    groups = np.repeat(np.arange(n_groups), size)
    y = rng.integers(0, 3, n_groups * size)
    score = np.round(y + rng.normal(0, 1, len(y)), 1)
    weight = rng.uniform(0.5, 2.0, len(y))
    drawn = _recorded_draws(monkeypatch)
    result = score_interval(vus_score, y, score, sample_weight=weight, groups=groups,
                            n_resamples=49, method="percentile", random_state=4)
    counts = np.concatenate(drawn)
    for b_index in range(0, 49, 6):
        items = np.concatenate([np.flatnonzero(groups == g)
                                for g in np.repeat(np.arange(n_groups),
                                                   counts[b_index].astype(int))])
        expected = vus_score(y[items], score[items], sample_weight=weight[items])
        assert result.bootstrap_distribution[b_index] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("measure", ["vus", "u_cons", "neg_macro_mean_absolute_error"])
def test_bootstrap_is_reproducible_bit_for_bit(measure):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 5, 400)
    score = y + rng.normal(0, 1, 400)
    first = score_interval(measure, y, score, n_resamples=199, random_state=7)
    again = score_interval(measure, y, score, n_resamples=199, random_state=7)
    with shared_resamples():
        shared = score_interval(measure, y, score, n_resamples=199, random_state=7)
    other = score_interval(measure, y, score, n_resamples=199, random_state=8)
    np.testing.assert_array_equal(first.bootstrap_distribution, again.bootstrap_distribution)
    np.testing.assert_array_equal(first.bootstrap_distribution, shared.bootstrap_distribution)
    assert not np.array_equal(first.bootstrap_distribution, other.bootstrap_distribution)


@pytest.mark.parametrize("counts", [np.ones(400, int), np.r_[np.ones(300, int), [3, 5, 40]]])
def test_index_draws_have_the_multinomial_law(counts):
    # Each cell's count is Binomial(N, m_c / N): mean and variance over 4000 resamples.
    n_units = counts.sum()
    draws = np.concatenate(list(_draw_bootstrap(counts, 4000, np.random.RandomState(0))))
    assert (draws.sum(axis=1) == n_units).all()
    p = counts / n_units
    se_mean = np.sqrt(n_units * p * (1 - p) / 4000)
    assert np.all(np.abs(draws.mean(axis=0) - n_units * p) < 5 * se_mean)
    variance = draws.var(axis=0, ddof=1)
    assert np.mean(variance) == pytest.approx(np.mean(n_units * p * (1 - p)), rel=0.05)
    # Two cells' counts are negatively correlated, -N p_i p_j, as in a multinomial.
    i, j = np.argsort(counts)[-2:]
    covariance = np.cov(draws[:, i], draws[:, j])[0, 1]
    variances = n_units * p * (1 - p)
    tolerance = 5 * np.sqrt(variances[i] * variances[j] / 4000)  # 5 standard errors
    assert covariance == pytest.approx(-n_units * p[i] * p[j], abs=tolerance)


class _CountingRandomState:
    """A RandomState that counts its multinomial draws."""

    def __init__(self, seed):
        self.rng, self.multinomials = np.random.RandomState(seed), 0

    def multinomial(self, *args, **kwargs):
        self.multinomials += 1
        return self.rng.multinomial(*args, **kwargs)

    def randint(self, *args, **kwargs):
        return self.rng.randint(*args, **kwargs)


def test_index_draw_is_chosen_for_many_cells_of_few_units():
    many = _CountingRandomState(0)
    list(_draw_bootstrap(np.ones(500, int), 10, many))
    assert many.multinomials == 0
    few = _CountingRandomState(0)  # 10 cells of 100 units: one multinomial per batch
    list(_draw_bootstrap(np.full(10, 100), 10, few))
    assert few.multinomials == 1


def test_random_bits_are_fair_exchanges():
    draws = np.concatenate(list(_draw_randomization(np.ones(1000, int), 2000,
                                                    np.random.RandomState(1))))
    assert set(np.unique(draws)) == {0.0, 1.0}
    assert draws.mean() == pytest.approx(0.5, abs=0.002)
    # Independent across cells: the share of agreement of two cells is 1/2.
    assert np.mean(draws[:, 0] == draws[:, 1]) == pytest.approx(0.5, abs=0.04)


@pytest.mark.parametrize("counts", [
    np.array([29, 3, 0, 5, 140, 1, 64, 65, 128, 1024]),  # every cell by its bits
    np.array([2, 1025, 7, 5000, 0]),  # beside cells drawn as one binomial each
])
def test_exchanged_counts_have_the_binomial_law(counts):
    # Each cell's count is Binomial(m_c, 1/2), independent across cells: mean,
    # variance and the correlation of two cells over 20 000 resamples.
    draws = np.concatenate(list(_draw_randomization(counts, 20_000,
                                                    np.random.RandomState(0))))
    assert draws.shape == (20_000, len(counts))
    assert np.array_equal(draws, np.round(draws)) and (draws >= 0).all()
    assert (draws <= counts).all() and (draws[:, counts == 0] == 0).all()
    moving = counts > 0
    se_mean = np.sqrt(counts[moving] / 4 / 20_000)
    assert np.all(np.abs(draws[:, moving].mean(axis=0) - counts[moving] / 2) < 5 * se_mean)
    # The sample variance of 20 000 draws is within 5% of m / 4 (its own error ~1%).
    np.testing.assert_allclose(draws[:, moving].var(axis=0, ddof=1), counts[moving] / 4,
                               rtol=0.05)
    largest = np.argsort(counts)[-2:]
    assert abs(np.corrcoef(draws[:, largest].T)[0, 1]) < 0.03
    # A cell of one unit is a fair coin. (A last word's mask that kept more or fewer
    # than m mod 64 bits would move the means of 29, 65 or 1024 above.)
    assert set(np.unique(draws[:, counts == 1])) <= {0.0, 1.0}


def test_popcount_without_bitwise_count_counts_the_same(monkeypatch):
    words = np.random.default_rng(0).integers(0, np.iinfo(np.uint64).max, size=(50, 9),
                                              dtype=np.uint64, endpoint=True)
    expected = np.array([[bin(int(w)).count("1") for w in row] for row in words])
    np.testing.assert_array_equal(_resampling._ones_in(words), expected)
    monkeypatch.delattr(np, "bitwise_count", raising=False)
    np.testing.assert_array_equal(_resampling._ones_in(words), expected)


def test_real_valued_randomization_matches_exchanged_items(monkeypatch):
    # Each null value is the difference with the drawn items exchanged.
    rng = np.random.default_rng(2)
    n = 300
    y = rng.integers(0, 4, n)
    a = y + rng.normal(0, 0.6, n)
    b = y + rng.normal(0, 0.9, n)
    exchanged = []

    def recording(counts, n_resamples, rng_):
        for batch in _draw_randomization(counts, n_resamples, rng_):
            exchanged.append(batch.copy())
            yield batch

    monkeypatch.setattr(_resampling, "_draw_randomization", recording)
    result = compare_scores(mean_absolute_error, y, a, b, n_resamples=99, random_state=3)
    bits = np.concatenate(exchanged).astype(bool)
    assert bits.shape == (99, n)
    # The units: items ordered as their distinct (cell, error) rows sort.
    spec = _resolve(mean_absolute_error, {})
    units, _ = _layout(spec, y, [a, b], None, None, None, None)
    assert len(units.counts) == n
    # Recover each unit's item by its contribution to system a's error sum.
    k = 4
    errors_a = units.contributions[:, k:2 * k].toarray().sum(axis=1)
    item_of_unit = np.array([np.argmin(np.abs(np.abs(a - y) - e)) for e in errors_a])
    assert len(set(item_of_unit)) == n
    for r in range(0, 99, 9):
        swap = np.zeros(n, bool)
        swap[item_of_unit[bits[r]]] = True
        a_r, b_r = np.where(swap, b, a), np.where(swap, a, b)
        expected = mean_absolute_error(y, a_r) - mean_absolute_error(y, b_r)
        assert result.null_distribution[r] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("measure", ["vus", "u_cons"])
def test_ranking_comparison_pvalue_inverts_the_percentile_interval(measure):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 4, 200)
    a, b = y + rng.normal(0, 1, 200), y + rng.normal(0, 2, 200)
    result = compare_scores(measure, y, a, b, n_resamples=999, random_state=0)
    assert result.test == "percentile inversion"
    assert result.null_distribution is None
    assert result.pvalue == percentile_interval_pvalue(result.bootstrap_distribution)
    # Scale-free: any increasing map of one system's scores changes nothing.
    rescaled = compare_scores(measure, y, np.exp(a), b * 100, n_resamples=999, random_state=0)
    np.testing.assert_allclose(rescaled.bootstrap_distribution,
                               result.bootstrap_distribution, atol=1e-12)
    assert compare_scores("neg_mean_absolute_error", y, a, b, n_resamples=99,
                          random_state=0).test == "randomization"


def test_evaluation_record_shape():
    # The resampler's result type, as the intervals read it.
    assert Evaluation._fields == ("values", "n_flagged", "first_message")


@pytest.mark.parametrize("ties", ["average", "strict"])
def test_u_cons_influence_read_in_small_blocks_is_the_same(monkeypatch, ties):
    # U_cons's placement values are read a block of cells at a time (memory): blocks
    # of 7 cells give the same estimate, gradient and leave-one-out values.
    from sklearn_ordinal import _blocks
    from sklearn_ordinal.stats._placement import influence

    rng = np.random.default_rng(6)
    y = rng.integers(0, 4, 90)
    score = np.round(y + rng.normal(0, 1, 90), 1)
    weight = rng.uniform(0.5, 2, 90)
    table = _build_score_table(y, score, None, weight, "test")
    cells = np.arange(len(table.scores))[::-1]
    unit = np.full(len(cells), 0.5)
    whole = influence(u_cons_score, table, ties)
    monkeypatch.setattr(_blocks, "_BLOCK", 7)
    blocked = influence(u_cons_score, table, ties)
    assert blocked.estimate == pytest.approx(whole.estimate, abs=1e-14)
    assert blocked.estimate == pytest.approx(u_cons_score(y, score, sample_weight=weight,
                                                          ties=ties), abs=1e-12)
    np.testing.assert_allclose(blocked.gradient, whole.gradient, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(blocked.leave_one_out(cells, unit),
                               whole.leave_one_out(cells, unit), rtol=1e-12, atol=1e-15)


@given(
    seed=st.integers(0, 2**32 - 1),
    n_classes=st.integers(2, 5),
    decimals=st.sampled_from([0, 1, 3]),  # 0: blocks of several classes tied
    weighted=st.booleans(),
    ties=st.sampled_from(["average", "strict"]),
)
def test_cells_made_once_give_the_fresh_kernels_values_bit_for_bit(
        seed, n_classes, decimals, weighted, ties):
    # _table_statistic makes what the kernels read of the cells (merges, score
    # order, ties) once and reads it on every batch: each batch, in any order and
    # with a class missing from some resamples, gives exactly the values of kernels
    # called afresh on it.
    from sklearn_ordinal.stats._intervals import _table_statistic

    rng, table = _random_table(seed, n_classes, decimals, weighted)
    for name in KERNELS:
        spec = _resolve(name, {"ties": ties})
        statistic = _table_statistic(spec, table)
        for batch in range(3):
            stack = rng.integers(0, 3, (5, len(table.weights))).astype(float)
            stack[:, table.bounds[:-1]] += 1
            if batch == 1:
                k = int(rng.integers(0, n_classes))
                stack[0, table.bounds[k]:table.bounds[k + 1]] = 0  # class k missing
            if weighted:
                stack *= table.weights
            fresh = np.array([spec.from_table(table._replace(weights=stack[1:]))])[0]
            found = statistic.batched(stack)
            np.testing.assert_array_equal(found[1:], fresh)
            if batch == 1:
                assert np.isnan(found[0])


@given(seed=st.integers(0, 2**32 - 1), n_classes=st.integers(2, 6),
       decimals=st.sampled_from([0, 1, 3]), ties=st.sampled_from(["average", "strict"]))
def test_stacked_u_cons_of_whole_counts_is_each_table_bit_for_bit(seed, n_classes,
                                                                  decimals, ties):
    # One body along the last axis: on whole counts (a bootstrap's resamples) every
    # sum is exact, so a stack gives each table's own float.
    rng, table = _random_table(seed, n_classes, decimals, weighted=False)
    stack = rng.integers(0, 4, (6, len(table.weights))).astype(float)
    stack[:, table.bounds[:-1]] += 1
    together = _u_cons(table._replace(weights=stack), ties)
    alone = [_u_cons(table._replace(weights=row), ties) for row in stack]
    np.testing.assert_array_equal(together, alone)


@pytest.mark.parametrize("weighted", [False, True])
def test_stacked_kernels_of_distinct_scores_are_each_table(weighted):
    # Continuous scores (one cell per item, a regressor's values) take their own
    # stacked paths: U_cons sums w M per class in score order and w^2 in the table's
    # order, VUS writes its chain ends in place. On whole counts each table's own
    # float, bit for bit, with cells made once and read by stacks of 1 and 7 rows;
    # classes of a single item included (the first and the last).
    from sklearn_ordinal.metrics import _ranking

    rng = np.random.default_rng(45)
    y = np.r_[0, rng.integers(1, 4, 300), 4]
    weight = rng.uniform(0.1, 3.0, len(y)) if weighted else None
    table = _build_score_table(y, y + rng.normal(0, 1.0, len(y)), None, weight, "test")
    assert len(table.scores) == len(y) and len(table.classes) == 5
    kept = _ranking._Cells(table)
    for n_rows in (1, 7, 1):
        stack = rng.integers(0, 4, (n_rows, len(table.weights))).astype(float)
        stack[:, table.bounds[:-1]] += 1  # every class keeps an item
        if weighted:
            stack *= table.weights
        for kernel in (_u_cons, _vus):
            alone = [kernel(table._replace(weights=row)) for row in stack]
            for cells in (kept, None):
                together = kernel(table._replace(weights=stack), cells=cells)
                assert together.shape == (n_rows,)
                if weighted:
                    np.testing.assert_allclose(together, alone, rtol=1e-12, atol=0)
                else:
                    np.testing.assert_array_equal(together, alone)


@given(seed=st.integers(0, 2**32 - 1), block=st.integers(1, 9),
       decimals=st.sampled_from([0, 1, 2]))
def test_merge_of_scores_read_in_blocks_is_searchsorted(seed, block, decimals):
    # _position_below merges long runs a block at a time (memory): the positions and
    # ties are np.searchsorted's, whatever the block size.
    from sklearn_ordinal import _blocks
    from sklearn_ordinal.metrics._ranking import _position_below

    rng = np.random.default_rng(seed)
    lower = np.unique(np.round(rng.normal(0, 1, int(rng.integers(1, 40))), decimals))
    scores = np.unique(np.round(rng.normal(0.3, 1, int(rng.integers(1, 40))), decimals))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_blocks, "_BLOCK", block)
        below, tied = _position_below(lower, scores)
    np.testing.assert_array_equal(below, np.searchsorted(lower, scores))
    np.testing.assert_array_equal(tied, np.flatnonzero(np.isin(scores, lower)))


@pytest.mark.parametrize("decimals", [0, 1, None])
@pytest.mark.parametrize("weighted", [False, True])
def test_cells_of_items_is_the_score_table_and_each_items_cell(decimals, weighted):
    # The resampler's table is the measures' own; each item's cell holds its class
    # and score.
    from sklearn_ordinal._score_table import _cells_of_items
    from sklearn_ordinal._validation import check_scored_targets

    rng = np.random.default_rng(3)
    y = rng.choice([2, 5, 7, 9], 300)  # a class in labels below has no item
    score = y + rng.normal(0, 2, 300)
    if decimals is not None:
        score = np.round(score, decimals)
    weight = rng.uniform(0.5, 2, 300) if weighted else None
    labels = [1, 2, 5, 7, 9]
    classes, codes, checked, weights, _ = check_scored_targets(
        y, score, labels=labels, sample_weight=weight, measure="test")
    with pytest.warns(UserWarning):
        expected = _present_classes_of(y, score, labels, weight)
    table, cell = _cells_of_items(classes, codes, checked, weights)
    np.testing.assert_array_equal(table.classes, expected.classes)
    np.testing.assert_array_equal(table.scores, expected.scores)
    np.testing.assert_allclose(table.weights, expected.weights, rtol=1e-12)
    np.testing.assert_array_equal(table.bounds, expected.bounds)
    np.testing.assert_array_equal(table.scores[cell], score)
    class_of_cell = np.searchsorted(table.bounds, np.arange(len(table.scores)), "right") - 1
    np.testing.assert_array_equal(table.classes[class_of_cell[cell]], y)


def _present_classes_of(y, score, labels, weight):
    from sklearn_ordinal._score_table import _present_classes

    return _present_classes(_build_score_table(y, score, labels, weight, "test"), "test")


@pytest.mark.parametrize("measure", ["vus", "u_pairs", "u_cons"])
def test_cells_are_merged_and_sorted_on_the_first_batch_only(monkeypatch, measure):
    # What depends on the cells alone is made once per table: later batches neither
    # merge the classes' scores nor sort the cells again.
    from sklearn_ordinal.metrics import _ranking
    from sklearn_ordinal.stats._intervals import _table_statistic

    calls = []

    def counting(function):
        def counted(*args, **kwargs):
            calls.append(function.__name__)
            return function(*args, **kwargs)
        return counted

    monkeypatch.setattr(_ranking, "_position_below", counting(_ranking._position_below))
    monkeypatch.setattr(_ranking, "_steps_up", counting(_ranking._steps_up))
    rng, table = _random_table(5, 4, 1, weighted=False)
    statistic = _table_statistic(_resolve(measure, {"ties": "strict"}), table)
    for batch in range(3):
        stack = rng.integers(1, 3, (4, len(table.weights))).astype(float)
        statistic.batched(stack)
        if batch == 0:
            assert calls
            calls.clear()
    assert calls == []
