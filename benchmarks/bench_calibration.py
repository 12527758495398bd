"""Ordinal calibration (#49): the speed of the CORP decomposition of the RPS, and
the coverage of the reliability diagram's consistency bands.

1. Speed: ``ranked_probability_score_decomposition`` on 1e6 items x 5 classes
   against one ``ranked_probability_score_loss`` call on the same arrays, as a ratio
   measured in the same run (the calls alternate, best of several; target <= 10x:
   K - 1 sorts and isotonic fits against one pass).
2. Coverage: for a calibrated forecast (outcomes drawn from the forecast itself),
   the share of the points of the CORP diagram that lie inside the consistency
   band of level 90% (and 50%), per threshold, over many simulated data sets. A
   band that is right holds the observed curve at about its level, pointwise.

3. ``--intervals``: the coverage of the 95% intervals of MCB and DSC
   (``stats.decomposition_interval``, every method) of a miscalibrated forecast
   (outcomes drawn from the squared probabilities, renormalized), against the
   population values, estimated on 2 million items.

Run: ``python benchmarks/bench_calibration.py`` (``--quick`` for small sizes);
the results are in ``benchmarks/results/bench_calibration.txt`` and, with
``--intervals``, ``bench_calibration_intervals.txt``.
"""

import argparse
import os
import time

import numpy as np

from sklearn_ordinal.metrics import (
    ordinal_calibration_curve,
    ranked_probability_score_decomposition,
    ranked_probability_score_loss,
)


def load():
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def bench_speed(n, n_classes, repeat, rng):
    y_proba = rng.dirichlet(np.ones(n_classes), size=n)
    y_true = np.array([np.searchsorted(row, u) for row, u in
                       zip(np.cumsum(y_proba[:1000], axis=1), rng.uniform(size=1000))])
    y_true = np.resize(y_true, n)  # labels need not follow the forecasts for timing
    y_true[:n_classes] = np.arange(n_classes)
    best_rps = best_decomposition = np.inf
    for _ in range(repeat):
        start = time.perf_counter()
        ranked_probability_score_loss(y_true, y_proba)
        best_rps = min(best_rps, time.perf_counter() - start)
        start = time.perf_counter()
        ranked_probability_score_decomposition(y_true, y_proba)
        best_decomposition = min(best_decomposition, time.perf_counter() - start)
    ratio = best_decomposition / best_rps
    verdict = "ok" if ratio <= 10 else "MISSES target <= 10x"
    print(f"n = {n:.0e}, K = {n_classes}: ranked_probability_score_loss "
          f"{best_rps * 1e3:.0f} ms, ranked_probability_score_decomposition "
          f"{best_decomposition * 1e3:.0f} ms: {ratio:.2f}x  {verdict}  (load {load()})")


def simulate_coverage(n, n_classes, levels, replications, n_resamples, rng, forecast="smooth"):
    """Mean pointwise share of the CORP curve inside the band, per level and threshold."""
    inside = {level: [] for level in levels}
    for _ in range(replications):
        if forecast == "smooth":
            y_proba = rng.dirichlet(np.full(n_classes, 2.0), size=n)
        else:  # few distinct forecasts: rounded to tenths
            y_proba = rng.multinomial(10, np.ones(n_classes) / n_classes, size=n) / 10
        cumulative = np.cumsum(y_proba, axis=1)
        y_true = (rng.uniform(size=(n, 1)) > cumulative).sum(axis=1).clip(0, n_classes - 1)
        seed = rng.randint(2**31)
        for level in levels:
            curve = ordinal_calibration_curve(
                y_true, y_proba, labels=np.arange(n_classes), n_resamples=n_resamples,
                confidence_level=level, random_state=seed)
            shares = []
            for k in range(n_classes - 1):
                at = np.searchsorted(curve.forecast[k], curve.band_forecast[k])
                observed = curve.recalibrated[k][at]
                covered = ((curve.band_low[k] <= observed + 1e-12)
                           & (observed <= curve.band_high[k] + 1e-12))
                shares.append(covered.mean())
            inside[level].append(shares)
    return {level: np.mean(values, axis=0) for level, values in inside.items()}


def _squared_forecast(rng, n):
    """Forecasts from a flat Dirichlet; outcomes from their squares, renormalized."""
    y_proba = rng.dirichlet([1, 1, 1], size=n)
    truth = y_proba**2 / (y_proba**2).sum(axis=1, keepdims=True)
    y_true = (rng.uniform(size=(n, 1)) > np.cumsum(truth, axis=1)).sum(axis=1).clip(0, 2)
    return y_true, y_proba


def interval_coverage(sizes, replications, n_resamples):
    import warnings

    from sklearn_ordinal.stats import decomposition_interval

    rng = np.random.RandomState(1)
    population = ranked_probability_score_decomposition(*_squared_forecast(rng, 2_000_000))
    print("\n## Coverage of the 95% intervals of MCB and DSC")
    print(f"Population values (2e6 items): MCB {population.miscalibration:.5f}, "
          f"DSC {population.discrimination:.5f}; {replications} data sets per row, "
          f"{n_resamples} resamples\n")
    print("| component | n | method | coverage | mean estimate |")
    print("| --- | --- | --- | --- | --- |")
    methods = ("percentile", "basic", "bca", "normal")
    for n in sizes:
        hits = {}
        estimates = {"miscalibration": [], "discrimination": []}
        for replication in range(replications):
            y_true, y_proba = _squared_forecast(rng, n)
            for component in estimates:
                for method in methods:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        result = decomposition_interval(
                            y_true, y_proba, component=component, method=method,
                            n_resamples=n_resamples, random_state=replication)
                    low, high = result.confidence_interval
                    hits.setdefault((component, method), []).append(
                        low <= getattr(population, component) <= high)
                estimates[component].append(result.estimate)
        for (component, method), covered in hits.items():
            print(f"| {component} | {n} | {method} | {np.mean(covered):.2f} | "
                  f"{np.mean(estimates[component]):.5f} |", flush=True)
    print(f"\n(load at the end {load()})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--intervals", action="store_true")
    args = parser.parse_args()
    if args.intervals:
        print(f"# bench_calibration.py --intervals  (load {load()})")
        interval_coverage([300] if args.quick else [500, 2000], 20 if args.quick else 50,
                          99 if args.quick else 299)
        return
    rng = np.random.RandomState(0)
    print(f"# bench_calibration.py{' --quick' if args.quick else ''}  (load {load()})")
    print("\n## Speed: decomposition against one RPS call (same arrays, same run)")
    for n in ([10**5] if args.quick else [10**5, 10**6]):
        bench_speed(n, 5, 3 if args.quick else 5, rng)
    print("\n## Coverage of the consistency bands for calibrated forecasts")
    print("Mean share of the CORP diagram's points inside the band (pointwise), "
          "K = 3, per threshold")
    replications = 20 if args.quick else 200
    n_resamples = 200 if args.quick else 500
    print(f"({replications} data sets per row, {n_resamples} resamples per band)\n")
    print("| forecasts | n | level | P(y <= 0) | P(y <= 1) |")
    print("| --- | --- | --- | --- | --- |")
    for forecast in ("smooth", "tenths"):
        for n in ([200] if args.quick else [100, 500, 2000]):
            result = simulate_coverage(n, 3, (0.5, 0.9), replications, n_resamples, rng,
                                       forecast)
            for level, shares in result.items():
                print(f"| {forecast} | {n} | {level:.0%} | {shares[0]:.3f} | "
                      f"{shares[1]:.3f} |", flush=True)
    print(f"\n(load at the end {load()})")


if __name__ == "__main__":
    main()
