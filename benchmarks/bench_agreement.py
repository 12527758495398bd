"""Krippendorff's alpha: speed against the ``krippendorff`` package and np.bincount.

Issue 42: alpha (ordinal) of 10 annotators x 10^6 units with 10 % of the annotations
missing, against ``krippendorff.alpha`` on the same data (goal: at least as fast),
with ``np.bincount`` of the pairable value pairs as the floor: the coincidence matrix
is, by definition, the weighted count of those pairs (every pair of two annotators'
values of one unit, weight ``1 / (m_u - 1)``), so counting them, with the pairs
already formed, is the least any implementation that forms them does. Ours counts
the ``(unit, value)`` annotations instead (one bincount of 9 x 10^6 codes, then a
``(K, N) x (N, K)`` product), so it may go below that floor; its own first step is
printed too. Then the unit-bootstrap interval at 9 999 resamples, as a ratio to the
point value. Best of a few repeats, the four timings taken in turn, as in
``bench_metrics.py``.

Issue 48: each chance-corrected coefficient (Gwet's AC2, Fleiss', Conger's,
Brennan-Prediger, percent agreement, quadratic weights) on the same data, against
the Python ``irrCAC`` package (timed once: it takes seconds to a minute; skipped if
not installed) and against the same ``np.bincount`` of the value pairs, as ratios
measured in the same run; then Gwet's analytic interval of each.

Run: ``python benchmarks/bench_agreement.py`` (``--units``, ``--reps``;
``--coefficients-only`` for the issue-48 lines).
"""

import argparse
import itertools
import warnings

import numpy as np

from bench_metrics import best_time, best_times_alternating  # one timing rule for all
from sklearn_ordinal.metrics import (
    brennan_prediger,
    conger_kappa,
    fleiss_kappa,
    gwet_ac,
    krippendorff_alpha,
    percent_agreement,
)
from sklearn_ordinal.stats import agreement_interval, krippendorff_alpha_interval

COEFFICIENTS = {
    "gwet_ac": (gwet_ac, "gwet"),
    "fleiss_kappa": (fleiss_kappa, "fleiss"),
    "conger_kappa": (conger_kappa, "conger"),
    "brennan_prediger": (brennan_prediger, "bp"),
    "percent_agreement": (percent_agreement, None),
}


def grades(n_annotators, n_units, missing, rng):
    """Grades 1..5: each unit's true grade, each annotator off by one now and then."""
    truth = rng.choice(5, size=n_units, p=[0.1, 0.2, 0.3, 0.25, 0.15]) + 1
    noise = rng.choice([-1, 0, 1], size=(n_annotators, n_units), p=[0.15, 0.7, 0.15])
    data = np.clip(truth + noise, 1, 5).astype(np.float64)
    data[rng.random(data.shape) < missing] = np.nan
    return data


def value_pairs(data):
    """Codes ``c * K + k`` and weights ``1 / (m_u - 1)`` of the pairable value pairs
    (each unordered pair of two annotators' values of a unit once)."""
    m = (~np.isnan(data)).sum(axis=0)
    weight = np.where(m >= 2, 1.0 / np.maximum(m - 1, 1), 0.0)
    codes, weights = [], []
    for i, j in itertools.combinations(range(len(data)), 2):
        both = ~np.isnan(data[i]) & ~np.isnan(data[j])
        codes.append((data[i][both] - 1).astype(np.int64) * 5 + (data[j][both] - 1)
                     .astype(np.int64))
        weights.append(weight[both])
    return np.concatenate(codes), np.concatenate(weights)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=float, default=1e6)
    parser.add_argument("--annotators", type=int, default=10)
    parser.add_argument("--missing", type=float, default=0.1)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--resamples", type=int, default=9999)
    parser.add_argument("--coefficients-only", action="store_true")
    args = parser.parse_args(argv)
    import krippendorff
    from importlib.metadata import version

    rng = np.random.default_rng(0)
    n_units = int(args.units)
    data = grades(args.annotators, n_units, args.missing, rng)
    codes, weights = value_pairs(data)
    if args.coefficients_only:
        coefficients(data, codes, weights, args)
        return
    print(f"Krippendorff's alpha (ordinal), {args.annotators} annotators x {n_units:.0e} units, "
          f"{args.missing:.0%} missing, grades 1-5 (float64, NaN for missing)")

    ours = krippendorff_alpha(data, level="ordinal")
    theirs = krippendorff.alpha(data, level_of_measurement="ordinal")
    print(f"  alpha: ours {ours:.15f}, krippendorff {version('krippendorff')} {theirs:.15f} "
          f"(difference {abs(ours - theirs):.1e})")

    keys = np.where(np.isnan(data), 5, data - 1).astype(np.int64) + 6 * np.arange(n_units)
    keys = keys.ravel()
    # In turn, so that a load spike of this shared machine hits all four alike.
    ours_time, theirs_time, floor_time, own_step = best_times_alternating([
        lambda: krippendorff_alpha(data, level="ordinal"),
        lambda: krippendorff.alpha(data, level_of_measurement="ordinal"),
        lambda: np.bincount(codes, weights, minlength=25),
        lambda: np.bincount(keys, minlength=6 * n_units),
    ], args.reps)
    verdict = "ok" if ours_time <= theirs_time else "MISSES goal: at least as fast"
    print(f"  {'krippendorff_alpha':<44s} {ours_time * 1e3:9.1f} ms")
    print(f"  {'krippendorff.alpha':<44s} {theirs_time * 1e3:9.1f} ms  "
          f"ours is {theirs_time / ours_time:.1f}x faster  {verdict}")
    print(f"  {f'np.bincount of the {len(codes):.2e} value pairs':<44s} "
          f"{floor_time * 1e3:9.1f} ms  ours is {ours_time / floor_time:.2f}x the floor")
    print(f"  {f'np.bincount of the {keys.size:.1e} (unit, value) codes':<44s} "
          f"{own_step * 1e3:9.1f} ms  ours is {ours_time / own_step:.2f}x its first count")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = krippendorff_alpha_interval(data, n_resamples=args.resamples, random_state=0)
        interval_time = best_time(lambda: krippendorff_alpha_interval(
            data, n_resamples=args.resamples, random_state=0), 1)
    low, high = result.confidence_interval
    print(f"  {f'krippendorff_alpha_interval, {args.resamples} BCa':<44s} "
          f"{interval_time * 1e3:9.1f} ms  {interval_time / ours_time:.1f}x one alpha; "
          f"[{low:.4f}, {high:.4f}]")

    coefficients(data, codes, weights, args)


def coefficients(data, codes, weights, args):
    """The issue-48 lines: each coefficient against irrCAC and the pairs' bincount."""
    import time

    import pandas as pd
    try:
        from irrCAC.raw import CAC
    except ImportError:
        CAC = None
    print(f"Agreement coefficients (quadratic weights), {data.shape[0]} annotators x "
          f"{data.shape[1]:.0e} units, {args.missing:.0%} missing")
    frame = pd.DataFrame(data.T)
    for name, (function, method) in COEFFICIENTS.items():
        ours_time, floor_time = best_times_alternating([
            lambda: function(data, weights="quadratic"),
            lambda: np.bincount(codes, weights, minlength=25),
        ], args.reps)
        line = (f"  {name:<18s} {ours_time * 1e3:9.1f} ms  "
                f"{ours_time / floor_time:5.2f}x the pairs' bincount")
        if CAC is not None and method is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                start = time.perf_counter()
                reference = getattr(CAC(frame, weights="quadratic",
                                        categories=[1.0, 2.0, 3.0, 4.0, 5.0], digits=15),
                                    method)()
                theirs_time = time.perf_counter() - start
            value = function(data, weights="quadratic")
            difference = abs(value - reference["est"]["coefficient_value"])
            line += (f"  irrCAC {theirs_time * 1e3:9.1f} ms: ours is "
                     f"{theirs_time / ours_time:6.1f}x faster (difference {difference:.1e})")
        print(line)
        interval_time = best_time(lambda: agreement_interval(
            data, coefficient=name, weights="quadratic"), 1)
        print(f"  {'  with Gwet analytic interval':<18s} {interval_time * 1e3:9.1f} ms  "
              f"{interval_time / ours_time:5.2f}x the coefficient")


if __name__ == "__main__":
    main()
