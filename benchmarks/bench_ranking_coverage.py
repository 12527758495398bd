"""Coverage of the ranking measures' intervals: where ``method="auto"`` switches to DeLong.

``evaluate(method="auto")`` gives VUS and U_cons DeLong's analytic interval (no
resampling) from ``sklearn_ordinal.stats._method.AUTO_ANALYTIC_FROM["ranking"]`` items on, the
BCa bootstrap below. This script measures, for VUS and U_cons, how often the 95 %
BCa, percentile and DeLong intervals cover the population value, at
n = 100, 300, 1000 and 3000 items, on three score models of five ordered classes:

- ``normal``: balanced classes, score = class + N(0, 1.2);
- ``imbalanced``: TripAdvisor-15763's class sizes (3.9 to 45 %), score = class + N(0, 1.2);
- ``skewed``: the same imbalance, score = class + a centred exponential of scale
  0.5 + 0.3 class (heteroscedastic, skewed: the setting where a normal interval
  is least at home).

The population values come from 2 x 10^6 items of each model. BCa and percentile are
read off one bootstrap of each test set (``--resamples``, 999 by default: the
coverage of a 95 % interval barely moves beyond that; 1999 gave the same shares
at n <= 300); DeLong costs one pass. Each
cell is ``--reps`` test sets (600 by default: a Monte Carlo standard deviation of
0.9 %). The table printed is the one on the uncertainty page of the User Guide.

Run: ``python benchmarks/bench_ranking_coverage.py [--reps 600] [--resamples 999]``
(about 30 minutes on 2 cores; ``--jobs`` processes).
"""

import argparse
import time
import warnings
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from sklearn_ordinal.metrics import u_cons_score, vus_score
from sklearn_ordinal.stats import score_interval
from sklearn_ordinal.stats._resampling import interval
from bench_intervals import machine

SIZES = (100, 300, 1000, 3000)
MEASURES = {"VUS": vus_score, "U_cons": u_cons_score}
BALANCED = np.full(5, 0.2)
TRIPADVISOR = np.array([0.039, 0.072, 0.094, 0.345, 0.450])
MODELS = ("normal", "imbalanced", "skewed")


def draw(model, n, rng):
    prior = BALANCED if model == "normal" else TRIPADVISOR
    y = rng.choice(5, n, p=prior)
    if model == "skewed":
        scale = 0.5 + 0.3 * y
        return y, y + rng.exponential(scale) - scale
    return y, y + rng.normal(0, 1.2, n)


def truths(model):
    rng = np.random.default_rng(7)
    y, score = draw(model, 2_000_000, rng)
    return {name: measure(y, score) for name, measure in MEASURES.items()}


def cell(args):
    """Coverage of the three methods for one (model, n, measure)."""
    model, n, name, truth, reps, resamples, seed = args
    rng = np.random.default_rng(seed)
    covered = {"bca": 0, "percentile": 0, "delong": 0}
    widths = {"bca": 0.0, "percentile": 0.0, "delong": 0.0}
    failed = {"bca": 0, "percentile": 0, "delong": 0}
    start = time.perf_counter()
    for _ in range(reps):
        y, score = draw(model, n, rng)
        seed = int(rng.integers(2**31))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found = {}
            try:
                bca = score_interval(MEASURES[name], y, score, n_resamples=resamples,
                                     random_state=seed)
                distribution = bca.bootstrap_distribution
                found["bca"] = bca.confidence_interval
                found["percentile"] = interval(
                    bca.estimate, distribution[~np.isnan(distribution)], "percentile", 0.95)
            except ValueError:
                pass  # e.g. all resamples on one side of the estimate: no interval
            try:
                found["delong"] = score_interval(MEASURES[name], y, score,
                                                 method="delong").confidence_interval
            except ValueError:
                pass  # a class of one item: DeLong's variance is undefined
        for method in covered:
            if method not in found:
                failed[method] += 1  # no interval counts as not covering
                continue
            low, high = found[method]
            covered[method] += low <= truth <= high
            widths[method] += high - low
    seconds = time.perf_counter() - start
    return model, n, name, {m: covered[m] / reps for m in covered}, \
        {m: widths[m] / max(reps - failed[m], 1) for m in widths}, failed, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=600)
    parser.add_argument("--resamples", type=int, default=999)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    args = parser.parse_args()
    population = {model: truths(model) for model in MODELS}
    tasks = [(model, n, name, population[model][name], args.reps, args.resamples,
              1000 * i + 17)
             for i, (model, n, name) in enumerate(
                 (m, n, name) for m in MODELS for n in args.sizes for name in MEASURES)]
    sd = np.sqrt(0.95 * 0.05 / args.reps)
    print(f"Coverage of 95% intervals: {args.reps} test sets per cell, {args.resamples} "
          f"resamples, 5 classes (Monte Carlo sd {sd:.1%}); mean width in brackets")
    print(f"({machine()})")
    print(f"{'model':<11s} {'measure':<7s} {'n':>5s}  {'BCa':>15s} {'percentile':>15s} "
          f"{'DeLong':>15s}")
    with ProcessPoolExecutor(args.jobs) as pool:
        for model, n, name, share, width, failed, seconds in pool.map(cell, tasks):
            row = "  ".join(f"{share[m]:6.1%} ({width[m]:.3f})"
                            for m in ("bca", "percentile", "delong"))
            none = ", ".join(f"{m} gave no interval on {k}" for m, k in failed.items() if k)
            print(f"{model:<11s} {name:<7s} {n:>5d}  {row}   [{seconds:.0f} s]"
                  + (f"  ({none}: counted as not covering)" if none else ""), flush=True)


if __name__ == "__main__":
    main()
