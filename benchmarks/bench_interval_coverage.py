"""Coverage of every family's intervals: BCa, percentile and the analytic interval.

``method="auto"`` (``sklearn_ordinal.stats._method``) takes the analytic interval
(``method="normal"``: the delta-method variance of the measure's influence values)
where its coverage is within one point of BCa's, per family of measure. This
script measures, for each family, how often the 95 % BCa, percentile and analytic
intervals cover the population value:

- label measures (one confusion matrix): macro MAE of the predicted classes,
  quadratic weighted kappa, CEM-ORD;
- a regressor's real values under the distance measures: MAE, macro MAE, RMSE;
- class probabilities under the ranked probability score;

(the ranking measures' study, VUS and U_cons with DeLong's interval, is
``bench_ranking_coverage.py``), at n = 100, 300, 1000, 3000 and 10000 items, on
three data models of five ordered classes:

- ``normal``: balanced classes; prediction = class + N(0, 1);
- ``small class``: class 0 drawn with probability 8 / n (about 8 items, often
  fewer, at every n), the others TripAdvisor-15763's shares; prediction =
  class + N(0, 1);
- ``skewed``: TripAdvisor-15763's class sizes (3.9 to 45 %); prediction = class +
  a centred log-normal error (sigma 1, scale 0.6): skewed and heavy-tailed.

Predicted classes are the predictions rounded and clipped to the classes; class
probabilities a softmax of ``-(k - prediction)^2 / 2``. The population values come
from 3 x 10^6 items of each model (and n, for ``small class``). BCa and percentile
are read off one bootstrap of each test set; the measures of one group share its
draws. Each cell is ``--reps`` test sets (600: a Monte Carlo standard deviation of
0.9 %). Results are kept per cell in ``--cells`` (a JSON line each) so an
interrupted run resumes where it stopped; ``--jobs`` processes.

Run: ``python benchmarks/bench_interval_coverage.py --jobs 2``; the table is
``benchmarks/results/bench_interval_coverage.txt``, shown on the uncertainty page.
"""

import argparse
import json
import os
import time
import warnings
from multiprocessing import Pool

import numpy as np

from sklearn_ordinal.metrics._registry import resolve
from sklearn_ordinal.stats import score_interval
from sklearn_ordinal.stats._resampling import interval, shared_resamples

SIZES = (100, 300, 1000, 3000, 10000)
MODELS = ("normal", "small class", "skewed")
GROUPS = {
    "labels": ("neg_macro_mean_absolute_error", "quadratic_weighted_kappa", "cem_ord"),
    "real values": ("neg_mean_absolute_error", "neg_macro_mean_absolute_error",
                    "neg_root_mean_squared_error"),
    "probabilities": ("neg_ranked_probability_score",),
}
METHODS = ("bca", "percentile", "normal")
TRIPADVISOR = np.array([0.039, 0.072, 0.094, 0.345, 0.450])
HERE = os.path.dirname(os.path.abspath(__file__))


def prior(model, n):
    if model == "normal":
        return np.full(5, 0.2)
    if model == "small class":
        rest = TRIPADVISOR[1:] / TRIPADVISOR[1:].sum()
        return np.r_[8 / n, (1 - 8 / n) * rest]
    return TRIPADVISOR


def draw(model, n, rng, size=None):
    """``(y, prediction)`` of ``size`` items (default ``n``) of the model at size n."""
    size = n if size is None else size
    y = rng.choice(5, size, p=prior(model, n))
    if model == "skewed":
        error = 0.6 * (rng.lognormal(0.0, 1.0, size) - np.exp(0.5))
    else:
        error = rng.normal(0.0, 1.0, size)
    return y, y + error


def outputs(group, y, prediction):
    """What the group's measures read: classes, real values or probabilities."""
    if group == "labels":
        return np.clip(np.rint(prediction), 0, 4).astype(np.int64)
    if group == "real values":
        return prediction
    logits = -((np.arange(5)[None, :] - prediction[:, None]) ** 2) / 2
    proba = np.exp(logits - logits.max(axis=1, keepdims=True))
    return proba / proba.sum(axis=1, keepdims=True)


def truth(model, n, group):
    rng = np.random.default_rng(7)
    y, prediction = draw(model, n, rng, size=3_000_000)
    output = outputs(group, y, prediction)
    values = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in GROUPS[group]:
            spec = resolve(name, {})
            values.append(float(spec.function(y, output, labels=np.arange(5))))
    return values


def resamples_for(n, resamples):
    """Fewer resamples where a bootstrap costs O(n) per resample (stated in the table)."""
    return resamples if n <= 1000 else max(499, resamples // 2)


def cell(task):
    """Coverage and mean width of the three methods for one (model, n, group)."""
    model, n, group, reps, resamples, seed = task
    names = GROUPS[group]
    truths = truth(model, n, group)
    rng = np.random.default_rng(seed)
    b = resamples_for(n, resamples) if group != "labels" else resamples
    covered = np.zeros((len(names), len(METHODS)))
    widths = np.zeros((len(names), len(METHODS)))
    failed = np.zeros((len(names), len(METHODS)), dtype=int)
    start = time.process_time()
    for _ in range(reps):
        y, prediction = draw(model, n, rng)
        output = outputs(group, y, prediction)
        state = int(rng.integers(2**31))
        with warnings.catch_warnings(), shared_resamples():
            warnings.simplefilter("ignore")
            for i, name in enumerate(names):
                found = {}
                try:
                    bca = score_interval(name, y, output, labels=np.arange(5),
                                         n_resamples=b, method="bca", random_state=state)
                    found["bca"] = bca.confidence_interval
                    d = bca.bootstrap_distribution
                    found["percentile"] = interval(bca.estimate, d[~np.isnan(d)],
                                                   "percentile", 0.95)
                except ValueError:
                    pass  # all resamples on one side of the estimate: no interval
                try:
                    found["normal"] = score_interval(
                        name, y, output, labels=np.arange(5), method="normal"
                    ).confidence_interval
                except ValueError:
                    pass
                for j, method in enumerate(METHODS):
                    if method not in found:
                        failed[i, j] += 1  # counted as not covering
                        continue
                    low, high = found[method]
                    covered[i, j] += low <= truths[i] <= high
                    widths[i, j] += high - low
    seconds = time.process_time() - start
    return {
        "model": model, "n": n, "group": group, "reps": reps, "resamples": b,
        "measures": list(names),
        "coverage": (covered / reps).tolist(),
        "width": (widths / np.maximum(reps - failed, 1)).tolist(),
        "failed": failed.tolist(), "cpu_seconds": seconds,
    }


def read_cells(path):
    done = {}
    if os.path.exists(path):
        with open(path) as file:
            for line in file:
                if line.strip():
                    record = json.loads(line)
                    done[(record["model"], record["n"], record["group"])] = record
    return done


def table(done, reps):
    sd = np.sqrt(0.95 * 0.05 / reps)
    lines = [
        f"Coverage of 95% intervals: {reps} test sets per cell, 5 classes (Monte Carlo "
        f"sd {sd:.1%}); mean width in brackets. BCa and percentile: 999 resamples up to "
        "n = 1000, 499 beyond for real values and probabilities (O(n) per resample); "
        "normal: the analytic (delta-method) interval.",
        f"{'model':<12s} {'family':<14s} {'measure':<34s} {'n':>6s}  "
        + "  ".join(f"{m:>15s}" for m in ("BCa", "percentile", "normal")),
    ]
    for model in MODELS:
        for group in GROUPS:
            for n in SIZES:
                record = done.get((model, n, group))
                if record is None:
                    continue
                for i, name in enumerate(record["measures"]):
                    row = "  ".join(
                        f"{record['coverage'][i][j]:6.1%} ({record['width'][i][j]:.3f})"
                        for j in range(len(METHODS)))
                    lines.append(f"{model:<12s} {group:<14s} {name:<34s} {n:>6d}  {row}")
    return "\n".join(lines)


def rule(done, sizes=SIZES, models=MODELS):
    """Per family, the smallest n from which the analytic interval covers within one
    point of BCa in every cell (every model and measure) at that n and above: where
    ``method="auto"`` may switch. The ``small class`` model (a class of about 8
    items) is left out: auto keeps BCa there by its smallest-class condition."""
    lines = ["", "Rule (normal within 1 point of BCa in every cell from n on; the 'small "
             "class' model, whose class of ~8 items auto sends to BCa, left out):"]
    for group in GROUPS:
        good = []
        for n in sizes:
            records = [done.get((model, n, group)) for model in models
                       if model != "small class"]
            if any(record is None for record in records):
                good.append(None)
                continue
            gaps = [record["coverage"][i][2] - record["coverage"][i][0]
                    for record in records for i in range(len(record["measures"]))]
            good.append(min(gaps) >= -0.01)
        start = None
        for i in range(len(sizes) - 1, -1, -1):
            if good[i] is not True:
                break
            start = sizes[i]
        worst = {n: ok for n, ok in zip(sizes, good)}
        lines.append(f"  {group:<14s} analytic from n = {start} "
                     f"(per n, within a point everywhere: {worst})")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=600)
    parser.add_argument("--resamples", type=int, default=999)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--cells", default=os.path.join(
        HERE, "results", "bench_interval_coverage.cells.jsonl"))
    parser.add_argument("--table-only", action="store_true")
    args = parser.parse_args()
    done = read_cells(args.cells)
    tasks = [(model, n, group, args.reps, args.resamples, 1000 * i + 17)
             for i, (model, n, group) in enumerate(
                 (m, n, g) for m in MODELS for n in args.sizes for g in GROUPS)
             if (model, n, group) not in done]
    # The longest cells first, so the processes finish together.
    tasks.sort(key=lambda task: -task[1] * (1 if task[2] == "labels" else 10))
    if not args.table_only and tasks:
        with Pool(args.jobs) as pool:
            for record in pool.imap_unordered(cell, tasks):
                with open(args.cells, "a") as file:
                    file.write(json.dumps(record) + "\n")
                print(f"{record['model']} {record['n']} {record['group']}: "
                      f"{record['cpu_seconds']:.0f} s CPU", flush=True)
    done = read_cells(args.cells)
    print(table(done, args.reps))
    print(rule(done))


if __name__ == "__main__":
    main()
