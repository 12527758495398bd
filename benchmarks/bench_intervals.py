"""Intervals: the speed target and the full coverage simulation of sklearn_ordinal.stats.

Speed (issue 10): 9 999 BCa resamples of macro MAE at n = 10^7, K = 5 must take at
most 20 times one bare ``macro_mean_absolute_error`` call on the same arrays (the ratio is
printed, the baseline timed in the same run, best of a few repeats as in
``bench_metrics.py``). The second baseline is ``scipy.stats.bootstrap`` on the raw
items at n = 10^5 (percentile method and a vectorised NumPy statistic, its fastest
setting: its BCa would need 10^5 jackknife evaluations of O(n) each).

Coverage: a known population of ordinal labels (imbalanced priors) and a fixed
noisy classifier (``P(pred = j | true = k)`` from a rounded Gaussian), so the
population values of macro MAE and CEM-ORD are those of the population confusion
matrix; the classifier's scores are ``true + N(0, s)``, and the population VUS is
computed on 2 x 10^6 scores. Each repetition draws a test set, computes the 95% BCa
interval, and checks whether it covers the population value; the target is
95% +- 2%.

Run: ``python benchmarks/bench_intervals.py`` (``--reps``, ``--resamples``,
``--skip-speed``, ``--skip-coverage``).
"""

import argparse
import time
import warnings

import numpy as np
from scipy import stats

from sklearn_ordinal._confusion import OrdinalConfusion
from sklearn_ordinal.metrics import cem_score, macro_mean_absolute_error, vus_score
from sklearn_ordinal.metrics._registry import confusion_kernel as _measure_from_confusion
from sklearn_ordinal.stats import score_interval
from bench_metrics import best_time  # one timing rule for every benchmark

PRIOR = np.array([0.45, 0.3, 0.17, 0.08])
NOISE = 0.9


def macro_mae_vectorised(y_true, y_pred, axis=-1):
    """Macro MAE along the last axis, for scipy.stats.bootstrap(vectorized=True)."""
    error = np.abs(y_true - y_pred)
    per_class = []
    for k in range(5):
        mask = y_true == k
        with np.errstate(invalid="ignore", divide="ignore"):
            per_class.append((error * mask).sum(axis=axis) / mask.sum(axis=axis))
    return np.nanmean(per_class, axis=0)


def speed(n_resamples):
    rng = np.random.default_rng(0)
    print("Speed: BCa interval of macro MAE, K = 5")
    for n in (10**7, 10**5):
        y_true = rng.choice(5, size=n, p=[0.04, 0.07, 0.09, 0.35, 0.45])
        y_pred = np.clip(y_true + rng.integers(-1, 2, n), 0, 4)
        bare = best_time(lambda: macro_mean_absolute_error(y_true, y_pred), 5)
        ours = best_time(
            lambda: score_interval(macro_mean_absolute_error, y_true, y_pred,
                                   n_resamples=n_resamples, random_state=0), 3
        )
        print(f"  n = {n:>8d}: one macro_mean_absolute_error {bare * 1e3:8.1f} ms, "
              f"score_interval (B = {n_resamples}, bca) {ours * 1e3:8.1f} ms, "
              f"ratio {ours / bare:6.2f}x" + ("  (target <= 20x)" if n == 10**7 else ""))
    start = time.perf_counter()
    reference = stats.bootstrap((y_true, y_pred), macro_mae_vectorised, paired=True,
                                vectorized=True, n_resamples=n_resamples, batch=100,
                                method="percentile", rng=rng)
    scipy_time = time.perf_counter() - start
    print(f"  n = {10**5:>8d}: scipy.stats.bootstrap on raw items (percentile, vectorised) "
          f"{scipy_time * 1e3:8.1f} ms, {scipy_time / ours:6.1f}x score_interval's BCa")
    low, high = reference.confidence_interval
    print(f"    scipy percentile interval ({low:.4f}, {high:.4f})")


def population():
    cut = np.arange(len(PRIOR) - 1) + 0.5
    cdf = stats.norm.cdf((cut[None, :] - np.arange(len(PRIOR))[:, None]) / NOISE)
    edges = np.column_stack([np.zeros(len(PRIOR)), cdf, np.ones(len(PRIOR))])
    return np.diff(edges, axis=1)


def coverage(n_reps, n_resamples, n_items):
    conditional = population()
    classes = np.arange(len(PRIOR))
    joint = OrdinalConfusion(classes, classes.astype(float), PRIOR[:, None] * conditional)
    rng = np.random.default_rng(12345)
    big = rng.choice(len(PRIOR), 2_000_000, p=PRIOR)
    truths = {
        "macro MAE": _measure_from_confusion(macro_mean_absolute_error)(joint),
        "CEM-ORD": _measure_from_confusion(cem_score)(joint),
        "VUS": vus_score(big, big + rng.normal(0, NOISE, big.size)),
    }
    print(f"Coverage of the 95% BCa interval: {n_reps} test sets of {n_items} items, "
          f"B = {n_resamples}, K = {len(PRIOR)}, priors {PRIOR.tolist()}")
    cumulative = np.cumsum(conditional, axis=1)
    for name, truth in truths.items():
        covered, start = 0, time.perf_counter()
        for _ in range(n_reps):
            y_true = rng.choice(len(PRIOR), n_items, p=PRIOR)
            score = y_true + rng.normal(0, NOISE, n_items)
            y_pred = (rng.random((n_items, 1)) > cumulative[y_true]).sum(axis=1)
            measure, y = {"macro MAE": (macro_mean_absolute_error, y_pred),
                          "CEM-ORD": (cem_score, y_pred), "VUS": (vus_score, score)}[name]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = score_interval(measure, y_true, y, labels=classes,
                                        n_resamples=n_resamples,
                                        random_state=int(rng.integers(2**31)))
            low, high = result.confidence_interval
            covered += low <= truth <= high
        share = covered / n_reps
        sd = np.sqrt(0.95 * 0.05 / n_reps)
        verdict = "ok" if abs(share - 0.95) <= 0.02 else "OUTSIDE 95% +- 2%"
        print(f"  {name:<10s} population {truth:.4f}: covered {share:6.1%} "
              f"(Monte Carlo sd {sd:.1%})  {verdict}   [{time.perf_counter() - start:.0f} s]")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--resamples", type=int, default=1999,
                        help="bootstrap resamples per interval in the coverage runs")
    parser.add_argument("--items", type=int, default=300)
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-coverage", action="store_true")
    args = parser.parse_args()
    if not args.skip_speed:
        speed(9999)
    if not args.skip_coverage:
        coverage(args.reps, args.resamples, args.items)


if __name__ == "__main__":
    main()
