"""One draw per report (#45): every bootstrap of a report whose units are its items
reads one draw, block by block, and gives the numbers of the separate calls."""

import numpy as np
import pytest

from sklearn_ordinal.evaluation import evaluate
from sklearn_ordinal.stats import _resampling, compare_scores, score_interval
from sklearn_ordinal.stats._intervals import comparison_steps, interval_steps
from sklearn_ordinal.stats._resampling import complete_together, shared_resamples

MEASURES = ["neg_macro_mean_absolute_error", "neg_mean_absolute_error", "vus", "u_cons"]


def _task(n=400, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.choice(4, n, p=[0.1, 0.2, 0.3, 0.4])
    systems = {name: y + rng.normal(0, spread, n)
               for name, spread in (("a", 0.8), ("b", 1.0), ("c", 1.3))}
    return y, systems


def _count_draws(monkeypatch):
    """Every draw made, as (law, number of cells, number of blocks)."""
    made = []
    for kind in ("bootstrap", "randomization"):
        original = getattr(_resampling, f"_draw_{kind}")

        def counted(counts, n_resamples, rng, _original=original, _kind=kind):
            made.append([_kind, len(counts), 0])
            for batch in _original(counts, n_resamples, rng):
                made[-1][2] += 1
                yield batch

        counted.__name__ = original.__name__
        monkeypatch.setattr(_resampling, f"_draw_{kind}", counted)
    return made


def _started(steps):
    return steps, next(steps), None


@pytest.mark.parametrize("method", ["bca", "percentile"])
def test_requests_run_together_equal_each_run_alone_resample_for_resample(method):
    y, systems = _task()
    a, b, c = systems.values()
    # Every system and pair under every measure, and the pairs' randomization
    # tests: all in one go, as a report runs them.
    computations = (
        [(interval_steps, (m, y, s)) for m in MEASURES for s in (a, b, c)]
        + [(comparison_steps, (m, y, s, t)) for m in MEASURES
           for s, t in ((a, b), (a, c), (b, c))]
    )
    together = complete_together([
        _started(steps(*args, n_resamples=199, method=method, random_state=5))
        for steps, args in computations])
    for (steps, args), shared in zip(computations, together):
        if steps is interval_steps:
            alone = score_interval(*args, n_resamples=199, method=method, random_state=5)
        else:
            alone = compare_scores(*args, n_resamples=199, method="percentile"
                                   if method == "percentile" else method, random_state=5)
            if alone.null_distribution is not None:
                np.testing.assert_array_equal(shared.null_distribution,
                                              alone.null_distribution)
            assert shared.pvalue == alone.pvalue
        np.testing.assert_array_equal(shared.bootstrap_distribution,
                                      alone.bootstrap_distribution)
        assert tuple(shared.confidence_interval) == tuple(alone.confidence_interval)


def test_a_pair_reads_the_same_resamples_as_its_two_systems():
    # The paired bootstrap of a - b on the items is the difference of the systems'
    # own resampled values: the same items in every resample.
    y, systems = _task()
    a, b, _ = systems.values()
    for measure in MEASURES:
        alone = [score_interval(measure, y, s, n_resamples=99, method="percentile",
                                random_state=1).bootstrap_distribution for s in (a, b)]
        paired = compare_scores(measure, y, a, b, n_resamples=99, method="percentile",
                                random_state=1).bootstrap_distribution
        np.testing.assert_allclose(paired, alone[0] - alone[1], rtol=0, atol=1e-12)


def test_a_report_of_real_values_draws_once_block_by_block(monkeypatch):
    y, systems = _task()
    # Blocks of 50 resamples: the 199 resamples come in 4 blocks, never whole.
    monkeypatch.setattr(_resampling, "_MAX_DRAWS_PER_BATCH", 50 * len(y))
    expected = {}
    for measure in MEASURES:
        for name, output in systems.items():
            expected[name, measure] = score_interval(
                measure, y, output, n_resamples=199, method="bca", random_state=0)
        for first, second in (("a", "b"), ("a", "c"), ("b", "c")):
            expected[first, second, measure] = compare_scores(
                measure, y, systems[first], systems[second], n_resamples=199,
                method="percentile", random_state=0)
    made = _count_draws(monkeypatch)
    report = evaluate(y, systems, measures=MEASURES, n_resamples=199, method="bca",
                      random_state=0)
    # Of the items: one bootstrap draw and one randomization draw for everything
    # (the trivial classifier's own interval resamples its confusion matrix).
    of_items = [draw for draw in made if draw[1] == len(y)]
    assert [draw[:1] for draw in of_items] == [["bootstrap"], ["randomization"]]
    assert all(draw[2] == 4 for draw in of_items)
    for measure in MEASURES:
        name = measure.removeprefix("neg_")
        for system in systems:
            row = report.scores.loc[system, name]
            alone = expected[system, measure]
            # The measure's own value (an error, not the scorer's negated one).
            assert row["estimate"] == alone.estimate
            assert (row["low"], row["high"]) == tuple(alone.confidence_interval)
        for first, second in (("a", "b"), ("a", "c"), ("b", "c")):
            row = report.comparisons.loc[(name, first, second)]
            alone = expected[first, second, measure]
            assert row["difference"] == alone.estimate
            assert (row["low"], row["high"]) == tuple(alone.confidence_interval)
            if measure in ("vus", "u_cons"):
                assert np.isnan(row["pvalue_randomization"])
            else:
                assert row["pvalue_randomization"] == alone.pvalue


def test_each_system_is_scored_once_per_block(monkeypatch):
    # Three systems, three pairs, and each system against the trivial classifier:
    # per block of the items' draw, each system's values are made once and the
    # trivial classifier's (paired with a system) once, whatever the pairs.
    y, systems = _task()
    calls = []
    original = _resampling._evaluated

    def counted(statistic, batch):
        calls.append(batch.shape)
        return original(statistic, batch)

    monkeypatch.setattr(_resampling, "_evaluated", counted)
    made = _count_draws(monkeypatch)
    evaluate(y, systems, measures=["neg_mean_absolute_error"], n_resamples=99,
             method="percentile", random_state=0)
    bootstrap = [draw for draw in made if draw[0] == "bootstrap"]
    blocks = sum(draw[2] for draw in bootstrap if draw[1] == len(y))
    assert blocks == 1
    # The exchanges score each pair's two systems (6 pairs x 2), per block.
    of_items = [shape for shape in calls if shape[0] == 99]
    assert len(of_items) == 3 + 1 + 6 * 2 + 1  # and the trivial's own interval


def test_identical_systems_get_identical_intervals_in_a_report():
    y, systems = _task()
    systems["copy"] = systems["a"].copy()
    report = evaluate(y, systems, measures=MEASURES, n_resamples=199, method="bca",
                      random_state=0)
    for measure in MEASURES:
        name = measure.removeprefix("neg_")
        assert report.scores.loc["a", name].equals(report.scores.loc["copy", name])


def test_shared_resamples_outside_a_report_still_reuse_a_draw(monkeypatch):
    y, systems = _task()
    made = _count_draws(monkeypatch)
    with shared_resamples():
        first = score_interval("vus", y, systems["a"], n_resamples=99, random_state=0)
        second = score_interval("u_cons", y, systems["b"], n_resamples=99, random_state=0)
    assert len(made) == 1
    assert first.method == second.method == "bca"


@pytest.mark.parametrize("options", ["groups", "sample_weight", "labels and real values"])
def test_a_mixed_report_equals_the_separate_calls(options):
    # Groups as units, weighted items, label systems beside real-valued ones: every
    # interval and comparison of the report is the separate call's with its seed.
    rng = np.random.default_rng(3)
    n = 300
    y = rng.choice(4, n)
    systems = {"a": y + rng.normal(0, 1, n), "b": y + rng.normal(0, 1.3, n),
               "l": np.clip(y + rng.integers(-1, 2, n), 0, 3),
               "m": np.clip(y + rng.integers(-2, 2, n), 0, 3)}
    extra = {"groups": {"groups": np.repeat(np.arange(30), 10)},
             "sample_weight": {"sample_weight": rng.uniform(0.5, 2, n)},
             "labels and real values": {}}[options]
    measures = {"neg_mean_absolute_error": "mean_absolute_error", "vus": "vus",
                "cem_ord": "cem_ord"}
    report = evaluate(y, systems, measures=list(measures), n_resamples=199,
                      method="bca", random_state=0, **extra)
    checked = 0
    for measure, name in measures.items():
        for system, output in systems.items():
            if np.isnan(report.scores.loc[system, (name, "estimate")]):
                continue
            alone = score_interval(measure, y, output, n_resamples=199, method="bca",
                                   random_state=0, **extra)
            assert (report.scores.loc[system, (name, "low")],
                    report.scores.loc[system, (name, "high")]) == tuple(
                        alone.confidence_interval)
            checked += 1
        for (_, a, b), row in report.comparisons.loc[[name]].iterrows():
            if b == "(trivial)":
                continue
            alone = compare_scores(measure, y, systems[a], systems[b], n_resamples=199,
                                   method="percentile", random_state=0, **extra)
            assert (row["low"], row["high"]) == tuple(alone.confidence_interval)
            if not np.isnan(row["pvalue_randomization"]):
                assert row["pvalue_randomization"] == alone.pvalue
            checked += 1
    assert checked >= 12


@pytest.mark.parametrize("weighted", [False, True])
def test_a_reports_delong_gradients_are_made_once_per_system(monkeypatch, weighted):
    # DeLong's interval and every comparison of a system read its item gradients,
    # made once per system in a report; the interval equals the separate call's.
    from sklearn_ordinal.stats import _placement

    y, systems = _task(n=1200, seed=3)
    weights = np.random.default_rng(3).uniform(0.5, 2, len(y)) if weighted else None
    made = []
    original = _placement._item_gradients

    def counted(spec, y_true, y_score, *args):
        made.append((spec.name, np.asarray(y_score).tobytes()))
        return original(spec, y_true, y_score, *args)

    influences = []
    original_influence = _placement.influence

    def counted_influence(function, *args):
        influences.append(function.__name__)
        return original_influence(function, *args)

    monkeypatch.setattr(_placement, "_item_gradients", counted)
    monkeypatch.setattr(_placement, "influence", counted_influence)
    report = evaluate(y, systems, measures=["u_cons", "u_pairs"], method="delong",
                      sample_weight=weights, random_state=0)
    # The influence values (placements) themselves: once per scorer and measure.
    assert sorted(influences) == sorted(name for name, _ in made)
    # Once per measure and scorer (the three systems and the trivial classifier's
    # scores), whatever the number of comparisons each is in.
    assert len(made) == len(set(made))
    for score in systems.values():
        assert {("u_cons_score", score.tobytes()), ("u_pairs_score", score.tobytes())} <= set(made)
    monkeypatch.setattr(_placement, "_item_gradients", original)
    monkeypatch.setattr(_placement, "influence", original_influence)
    for system, score in systems.items():
        for name in ("u_cons", "u_pairs"):
            alone = score_interval(name, y, score, method="delong", sample_weight=weights)
            cell = report.scores.loc[system, name]
            assert cell["estimate"] == pytest.approx(alone.estimate, rel=1e-13)
            assert cell["low"] == pytest.approx(alone.confidence_interval.low, rel=1e-12)
            assert cell["high"] == pytest.approx(alone.confidence_interval.high, rel=1e-12)


def test_a_reports_requests_keep_each_systems_sums_once(monkeypatch):
    # A system's share of the intermediate is the same in its intervals and in every
    # comparison: its sums (as large as the data) are kept once per run, the ranking
    # kernels' scratch buffers are let go when the run ends, and no draw is kept.
    from sklearn_ordinal.metrics import _ranking

    y, systems = _task(n=500, seed=4)
    plans = []
    original = _resampling._Plan

    class Recorded(original):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            plans.append(self)

    kept = []
    original_compact = _resampling._compact

    def compact(draws):
        kept.append(draws.shape)
        return original_compact(draws)

    monkeypatch.setattr(_resampling, "_Plan", Recorded)
    monkeypatch.setattr(_resampling, "_compact", compact)
    evaluate(y, systems, measures=["vus", "u_cons", "neg_mean_absolute_error"],
             method="bca", n_resamples=99, random_state=0)
    # The report's draws are read by all its requests at once: none is kept for later.
    assert kept == []
    wide = {id(sums) for plan in plans for sums in plan.sums if sums.by_position is not None}
    # The three systems' score tables (VUS and U_cons read the same), whatever the
    # number of intervals and comparisons that read them.
    assert len(wide) == len(systems)
    assert sum(len(plan.sums) for plan in plans if plan.wide) > 3 * len(wide)
    assert not _ranking._SCRATCH.__dict__
