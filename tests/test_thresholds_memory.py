"""Issue #41, item 4: optimal_thresholds' exact optimum keeps one class's prefix sums
at a time and one byte per class and distinct score for the traceback."""

import tracemalloc

import numpy as np
import pytest

from sklearn_ordinal.metrics import optimal_thresholds


def _peak(func):
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("scoring", ["neg_macro_mean_absolute_error", "neg_mean_squared_error",
                                     "quadratic_weighted_kappa"])
def test_peak_memory_is_under_half_of_before(scoring):
    n, k = 200_000, 10
    rng = np.random.default_rng(0)
    y = rng.integers(0, k, n)
    score = y + rng.normal(0, 1.5, n)
    per_item = _peak(lambda: optimal_thresholds(y, score, scoring=scoring)) / n
    # Before #41: 48 + 8K = 128 bytes an item for the exact optimum (K float prefix
    # arrays kept for the traceback, int64 sorted codes) and 136 for kappa's ascent
    # (K prefix arrays of its columns); now about 42 for both.
    assert per_item <= 64


def test_traceback_by_records_is_the_first_argmin():
    # Ties in the dynamic programme's candidates: the records keep np.argmin's first
    # minimum, so the cut points are those of a brute force over all boundaries.
    rng = np.random.default_rng(1)
    for _ in range(30):
        n = int(rng.integers(2, 12))
        y = rng.integers(0, 3, n)
        score = rng.integers(0, 4, n).astype(float)  # ties
        cuts = optimal_thresholds(y, score, scoring="neg_mean_absolute_error",
                                  labels=[0, 1, 2])
        distinct = np.unique(score)
        best = np.inf
        for a in range(len(distinct) + 1):
            for b in range(a, len(distinct) + 1):
                pred = (score >= (distinct[a] if a < len(distinct) else np.inf)).astype(int) + (
                    score >= (distinct[b] if b < len(distinct) else np.inf))
                best = min(best, np.abs(pred - y).mean())
        pred = np.searchsorted(cuts, score)
        assert np.abs(pred - y).mean() == pytest.approx(best)


@pytest.mark.parametrize("seed", range(40))
def test_kappa_ascent_is_its_brute_force_on_small_data(seed):
    # The ascent's gains, from running sums over the moving range and the confusion
    # matrix of the other classes, equal kappa computed directly: a local optimum
    # under single moves, checked against every single move.
    from sklearn_ordinal.metrics import weighted_kappa_score

    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(5, 40)), int(rng.integers(2, 5))
    y = rng.integers(0, k, n)
    score = np.round(y + rng.normal(0, 1, n), 1)
    weight = rng.choice([0.5, 1.0, 2.0], n) if seed % 2 else None
    cuts = optimal_thresholds(y, score, scoring="quadratic_weighted_kappa", labels=np.arange(k),
                              sample_weight=weight)

    def kappa(c):
        return weighted_kappa_score(y, np.searchsorted(np.sort(c), score), weights="quadratic",
                                    labels=np.arange(k), sample_weight=weight)

    here = kappa(cuts)
    distinct = np.unique(score)
    gaps = np.concatenate([[-np.inf], (distinct[:-1] + distinct[1:]) / 2, [np.inf]])
    for t in range(k - 1):
        lo = cuts[t - 1] if t > 0 else -np.inf
        hi = cuts[t + 1] if t + 1 < k - 1 else np.inf
        for gap in gaps[(gaps >= lo) & (gaps <= hi)]:
            moved = cuts.copy()
            moved[t] = gap
            assert kappa(moved) <= here + 1e-9
