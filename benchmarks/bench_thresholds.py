"""optimal_thresholds at 1e6 scores and K = 10 classes, as ratios in one run (#35).

The floor is ``np.argsort`` of the scores (every method must sort them with their
labels), timed in the same run. Timed, through the public function (validation
included):

- the exact optimum of an item-additive measure (macro MAE; goal <= 10x the sort);
- the coordinate ascent for quadratic weighted kappa (goal <= 30x the sort);
- the "OptimizedRounder" pattern of competition notebooks: ``scipy.optimize.minimize``
  with Nelder-Mead on the cut points, started at 0.5, 1.5, ..., 400 evaluations of
  kappa (each a vectorised ``np.searchsorted`` and the package's kappa kernel on the
  confusion matrix, faster than the notebooks' loops over items); goal: our kappa at
  least as high, our time at least 10x shorter.

Each call's peak memory (tracemalloc, on top of the inputs) is printed per item and
as a ratio to ``np.argsort``'s output (8 bytes an item). Issue #41 measured 128 bytes
an item for the exact optimum before its dynamic programme kept one class's prefix
sums at a time and one byte per class for the traceback, and 136 for kappa's
coordinate ascent before its steps summed over the moving cut point's range only;
goal: at most half.

Run: ``python benchmarks/bench_thresholds.py`` (about a minute).
"""

import numpy as np
from bench_metrics import best_time, peak_memory, report
from scipy.optimize import minimize

from sklearn_ordinal.metrics import OrdinalConfusion, optimal_thresholds
from sklearn_ordinal.metrics._registry import lookup

N, K = 10**6, 10
NELDER_MEAD_EVALUATIONS = 400
# Bytes an item of the exact optimum before #41; the goal is at most half.
BEFORE_EXACT_BYTES = 128
# And of the coordinate ascent for kappa (its K prefix arrays of the columns of W).
BEFORE_KAPPA_BYTES = 136


def memory(name, func, goal=None):
    """Print ``func()``'s peak memory per item and as a ratio to argsort's output."""
    per_item = peak_memory(func) / N
    verdict = "" if goal is None else f"  ({'ok' if per_item <= goal else 'MISSES'} goal <= {goal})"
    print(f"  peak memory, {name:<34} {per_item:7.1f} B/item {per_item / 8:6.2f}x argsort's"
          f" output{verdict}")


def main():
    rng = np.random.default_rng(0)
    y = rng.integers(0, K, N)
    score = y + rng.normal(0, 1.5, N)
    classes, values = np.arange(K), np.arange(K, dtype=float)
    record, fixed, _ = lookup("quadratic_weighted_kappa")

    def kappa(cuts):
        predicted = np.searchsorted(np.sort(cuts), score, side="left")
        matrix = np.bincount(y * K + predicted, minlength=K * K).reshape(K, K).astype(float)
        return float(record.from_confusion(OrdinalConfusion(classes, values, matrix), **fixed))

    print(f"optimal_thresholds, n = {N:.0e} scores, K = {K} classes")
    floor = best_time(lambda: np.argsort(score), 5)
    report("np.argsort(scores) (the floor)", floor, "argsort", floor)
    exact = best_time(
        lambda: optimal_thresholds(y, score, scoring="neg_macro_mean_absolute_error"), 3
    )
    report("exact optimum, macro MAE", exact, "argsort", floor, target=10)
    exact_micro = best_time(
        lambda: optimal_thresholds(y, score, scoring="neg_mean_squared_error"), 3
    )
    report("exact optimum, micro MSE", exact_micro, "argsort", floor, target=10)
    memory("np.argsort(scores)", lambda: np.argsort(score))
    memory("exact optimum, macro MAE",
           lambda: optimal_thresholds(y, score, scoring="neg_macro_mean_absolute_error"),
           goal=BEFORE_EXACT_BYTES // 2)
    memory("coordinate ascent, quadratic kappa",
           lambda: optimal_thresholds(y, score, scoring="quadratic_weighted_kappa"),
           goal=BEFORE_KAPPA_BYTES // 2)
    ours = {}

    def ascent():
        ours["cuts"] = optimal_thresholds(y, score, scoring="quadratic_weighted_kappa")

    seconds = best_time(ascent, 2)
    report("coordinate ascent, quadratic kappa", seconds, "argsort", floor, target=30)
    rounding = kappa(np.arange(K - 1) + 0.5)

    def nelder_mead():
        result = minimize(lambda cuts: -kappa(cuts), np.arange(K - 1) + 0.5,
                          method="Nelder-Mead",
                          options={"maxfev": NELDER_MEAD_EVALUATIONS, "maxiter": 10**6})
        ours["nelder_mead"] = (np.sort(result.x), result.nfev)

    nm_seconds = best_time(nelder_mead, 1)
    nm_cuts, evaluations = ours["nelder_mead"]
    report(f"Nelder-Mead, {evaluations} evaluations", nm_seconds, "argsort", floor)
    our_kappa, nm_kappa = kappa(ours["cuts"]), kappa(nm_cuts)
    print(f"  quadratic kappa: rounding {rounding:.5f}, Nelder-Mead {nm_kappa:.5f}, "
          f"coordinate ascent {our_kappa:.5f}"
          f"  ({'ok' if our_kappa >= nm_kappa else 'MISSES'}: ours at least as high)")
    speedup = nm_seconds / seconds
    print(f"  Nelder-Mead / coordinate ascent time: {speedup:.1f}x"
          f"  ({'ok' if speedup >= 10 else 'MISSES'} goal >= 10x)")


if __name__ == "__main__":
    main()
