"""Resampling from the intermediates, drawn once: the report's shared resamples and the
batched jackknife give the numbers of separate, one-at-a-time computation."""

import numpy as np
import pytest

from sklearn_ordinal.metrics import cem_score, macro_mean_absolute_error
from sklearn_ordinal.metrics._registry import confusion_kernels
from sklearn_ordinal.stats import _resampling, compare_scores, score_interval
from sklearn_ordinal.metrics._registry import resolve as _resolve
from sklearn_ordinal.stats._intervals import _data_statistic, _layout
from sklearn_ordinal.stats._resampling import jackknife, shared_resamples


def _task(seed=0, n=300, k=5):
    rng = np.random.default_rng(seed)
    y_true = rng.choice(k, n, p=[0.5, 0.2, 0.15, 0.1, 0.05])
    y_a = np.clip(y_true + rng.integers(-1, 2, n), 0, k - 1)
    y_b = np.clip(y_true + rng.integers(-2, 3, n), 0, k - 1)
    return y_true, y_a, y_b


@pytest.mark.parametrize(
    "measure", sorted(confusion_kernels(), key=lambda f: f.__name__), ids=lambda f: f.__name__
)
@pytest.mark.parametrize("paired", [False, True])
def test_batched_jackknife_equals_one_call_per_left_out_unit(measure, paired):
    y_true, y_a, y_b = _task()
    spec = _resolve(measure, {})
    systems = [y_a, y_b] if paired else [y_a]
    units, parts = _layout(spec, y_true, systems, np.arange(5), None, None, None)
    statistic = _data_statistic(parts)
    assert hasattr(statistic, "batched")

    def unbatched(x):
        return statistic(x)

    fast = jackknife(statistic, units)
    slow = jackknife(unbatched, units)
    assert fast.shape == slow.shape == (units.contributions.shape[0],)
    np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-12, equal_nan=True)


def _count_draws(monkeypatch):
    calls = {"bootstrap": 0, "randomization": 0}
    for kind in calls:
        original = getattr(_resampling, f"_draw_{kind}")

        def counted(*args, _original=original, _kind=kind):
            calls[_kind] += 1
            return _original(*args)

        counted.__name__ = original.__name__
        monkeypatch.setattr(_resampling, f"_draw_{kind}", counted)
    return calls


def _same(a, b):
    assert a.estimate == b.estimate
    assert tuple(a.confidence_interval) == tuple(b.confidence_interval)
    np.testing.assert_array_equal(a.bootstrap_distribution, b.bootstrap_distribution)
    if hasattr(a, "pvalue"):
        assert a.pvalue == b.pvalue
        np.testing.assert_array_equal(a.null_distribution, b.null_distribution)


def test_shared_resamples_give_separate_calls_numbers_from_one_draw(monkeypatch):
    y_true, y_a, y_b = _task()
    measures = [macro_mean_absolute_error, cem_score, "quadratic_weighted_kappa"]
    alone = [score_interval(m, y_true, y_a, n_resamples=999, random_state=3) for m in measures]
    paired = [compare_scores(m, y_true, y_a, y_b, n_resamples=999, random_state=4)
              for m in measures]
    calls = _count_draws(monkeypatch)
    with shared_resamples():
        shared = [score_interval(m, y_true, y_a, n_resamples=999, random_state=3)
                  for m in measures]
        shared_paired = [compare_scores(m, y_true, y_a, y_b, n_resamples=999, random_state=4)
                         for m in measures]
    for a, b in zip(alone + paired, shared + shared_paired):
        _same(a, b)
    # One confusion matrix, one seed: one bootstrap draw for the three intervals, one
    # for the three paired comparisons, and one randomization draw.
    assert calls == {"bootstrap": 2, "randomization": 1}
    # Outside the context nothing is kept.
    score_interval(measures[0], y_true, y_a, n_resamples=999, random_state=3)
    assert calls["bootstrap"] == 3


def test_a_system_and_its_comparison_with_a_constant_share_one_draw(monkeypatch):
    # Paired with a constant prediction, a system's cells are its own: the same
    # counts, so the same draw from the same seed.
    y_true, y_a, _ = _task()
    constant = np.full_like(y_a, 2)
    alone = compare_scores(cem_score, y_true, y_a, constant, n_resamples=999, random_state=3)
    calls = _count_draws(monkeypatch)
    with shared_resamples():
        score_interval(cem_score, y_true, y_a, n_resamples=999, random_state=3)
        shared = compare_scores(cem_score, y_true, y_a, constant, n_resamples=999,
                                random_state=3)
    assert calls["bootstrap"] == 1
    _same(alone, shared)


def test_shared_resamples_draw_again_for_another_seed_or_other_units(monkeypatch):
    y_true, y_a, y_b = _task()
    calls = _count_draws(monkeypatch)
    with shared_resamples():
        first = score_interval(cem_score, y_true, y_a, n_resamples=999, random_state=3)
        other_seed = score_interval(cem_score, y_true, y_a, n_resamples=999, random_state=5)
        other_data = score_interval(cem_score, y_true, y_b, n_resamples=999, random_state=3)
        fewer = score_interval(cem_score, y_true, y_a, n_resamples=499, random_state=3)
    assert calls["bootstrap"] == 4
    assert not np.array_equal(first.bootstrap_distribution, other_seed.bootstrap_distribution)
    assert not np.array_equal(first.bootstrap_distribution, other_data.bootstrap_distribution)
    assert len(fewer.bootstrap_distribution) == 499


def test_resamples_beyond_the_memory_bound_are_drawn_each_time(monkeypatch):
    y_true, y_a, _ = _task()
    alone = score_interval(cem_score, y_true, y_a, n_resamples=999, random_state=3)
    monkeypatch.setattr(_resampling, "_MAX_SHARED_COUNTS", 10)
    calls = _count_draws(monkeypatch)
    with shared_resamples():
        for _ in range(2):
            _same(score_interval(cem_score, y_true, y_a, n_resamples=999, random_state=3),
                  alone)
    assert calls["bootstrap"] == 2


def test_a_statistic_writing_into_shared_resamples_fails_loudly():
    # The resampled matrices of a block are shared by every request that reads the
    # same units: a statistic writing into them would change the others' numbers,
    # so it cannot.
    y_true, y_a, _ = _task()
    alone = score_interval(cem_score, y_true, y_a, n_resamples=999, random_state=3)
    spec = _resolve(macro_mean_absolute_error, {})
    units, parts = _layout(spec, y_true, [y_a], np.arange(5), None, None, None)

    def writes(batch):
        batch[:] = 0
        return batch.sum(axis=1)

    writes.batched = writes
    request = _resampling.Resample(_resampling.BOOTSTRAP, units,
                                   [parts[0]._replace(statistic=writes, key=None)], 999,
                                   np.random.RandomState(3))
    with shared_resamples():
        with pytest.raises(ValueError, match="read-only"):
            _resampling.run_resamples([request])
        _same(score_interval(cem_score, y_true, y_a, n_resamples=999, random_state=3), alone)
