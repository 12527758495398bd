"""Reproduce Table 3 (synthetic data) of Amigó et al. (2020): the coverage of each metric.

The 50 synthetic systems of section 5.3 (five kinds of mistake x ten error ratios)
are scored on 100 test cases of 200 items; the coverage of each metric is the
Spearman correlation, over all system pairs, between its mean difference and the
Unanimous Improvement Ratio of accuracy, Kendall's tau-a and mutual information.
It is computed on all systems and with each kind of system removed, over several
seeded draws of the task, and printed as mean +- sd beside the paper's value.

Where the paper leaves a choice open, both readings are printed: what an
ordinal-displacement system outputs for the top n/10 items (no item lies n/10
positions further), and how an undefined Spearman correlation (a constant output)
is ranked. Two alternatives that the paper does not support are printed as such:
its MAE_m and MSE rows read as swapped, and each unordered pair of systems taken
once instead of every ordered pair.

Run: ``python benchmarks/reproduce_cem_table3.py`` (10 seeds, about a quarter of a
second each; ``--seeds`` for another number, ``--n-jobs 2`` to draw them in two
processes, ``--quick`` for a small smoke test).
"""

import argparse
import multiprocessing
import os
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat

import numpy as np
import pandas as pd

from sklearn_ordinal.metaeval import make_synthetic_ordinal_task, score_systems
from sklearn_ordinal.metaeval._uir import _coverage_from_uir, _pairwise_uir, _rank_correlation
from sklearn_ordinal.metrics import get_scorer

# Row of the paper's Table 3 -> scorer of this package.
METRICS = {
    "Accuracy": "accuracy",
    "Kendall": "kendall_tau_a",
    "MI": "mutual_information",
    "F-measure": "macro_f1",
    "MAAC": "macro_accuracy",
    "Kappa": "cohen_kappa",
    "Acc with 1": "accuracy_within_1",
    "MAE": "neg_mean_absolute_error",
    "MAE_m": "neg_macro_mean_absolute_error",
    "MSE": "neg_mean_squared_error",
    "MSE_m": "neg_macro_mean_squared_error",
    "Pearson": "pearson",
    "Spearman": "spearman",
    "CEM-ORD": "cem_ord",
    "CEM-ORD flat": "cem_ord_flat",
}
SCORERS = {row: get_scorer(name) for row, name in METRICS.items()}
REFERENCE = ["Accuracy", "Kendall", "MI"]
# Correlations are undefined on a constant output; the scorers return 0 there.
CORRELATIONS = ["Pearson", "Spearman"]

# Column -> kind of system removed (None: all systems).
COLUMNS = {
    "all systems": None,
    "s_rand": "random",
    "s_prox": "proximity",
    "s_maj": "majority",
    "s_tDisp": "tag_displacement",
    "s_oDisp": "ordinal_displacement",
}

PAPER = pd.DataFrame.from_dict(
    {
        "Accuracy": [0.81, 0.77, 0.78, 0.78, 0.94, 0.77],
        "Kendall": [0.84, 0.81, 0.82, 0.82, 0.93, 0.82],
        "MI": [0.84, 0.82, 0.84, 0.82, 0.93, 0.82],
        "F-measure": [0.83, 0.80, 0.82, 0.81, 0.93, 0.81],
        "MAAC": [0.83, 0.81, 0.82, 0.79, 0.91, 0.81],
        "Kappa": [0.81, 0.78, 0.79, 0.77, 0.94, 0.77],
        "Acc with 1": [0.79, 0.75, 0.77, 0.80, 0.85, 0.79],
        "MAE": [0.84, 0.82, 0.83, 0.87, 0.86, 0.84],
        "MAE_m": [0.74, 0.73, 0.74, 0.80, 0.76, 0.73],
        "MSE": [0.89, 0.87, 0.87, 0.88, 0.93, 0.88],
        "MSE_m": [0.83, 0.80, 0.80, 0.82, 0.90, 0.83],
        "Pearson": [0.77, 0.79, 0.74, 0.73, 0.83, 0.79],
        "Spearman": [0.72, 0.67, 0.69, 0.77, 0.76, 0.70],
        "CEM-ORD": [0.91, 0.89, 0.90, 0.90, 0.95, 0.89],
        "CEM-ORD flat": [0.87, 0.84, 0.86, 0.88, 0.89, 0.87],
    },
    orient="index",
    columns=list(COLUMNS),
)

TOLERANCE = 0.05
READINGS = ("keep_gold", "last_class")  # displacement_overflow; the first is the default
F_AVERAGES = {
    "present (ours)": "classes in the gold standard or the output (scikit-learn's macro)",
    "gold": "classes in the gold standard",
    "all 11": "all 11 classes, 0 for a class absent from both",
    "weighted": "weighted by gold class size",
}


def pair_coverage(metric_scores, uir, *, pairs="ordered"):
    """Coverage from a precomputed UIR table, with undefined (NaN) means ranked highest.

    A system whose score is NaN on any test case has a NaN mean, so every pair it is
    in has a NaN difference; these are ranked above every number and tied with each
    other, as a sort by Java's ``Double.compare`` (NaN above +inf) would rank them.
    ``pairs="unordered"`` takes each pair ``(s, s')`` once, ``s`` listed first.
    On finite scores with ordered pairs, this is :func:`coverage`. Scores of shape
    ``(..., systems, test cases)`` give one coverage per metric.
    """
    mean = metric_scores.mean(axis=-1)
    difference = mean[..., :, np.newaxis] - mean[..., np.newaxis, :]
    n_systems = mean.shape[-1]
    if pairs == "ordered":
        keep = ~np.eye(n_systems, dtype=bool)
    else:
        keep = np.triu(np.ones((n_systems, n_systems), dtype=bool), k=1)
    difference, uir = difference[..., keep], uir[keep]
    result = _rank_correlation(np.where(np.isnan(difference), np.inf, difference), uir)
    return float(result) if np.ndim(result) == 0 else result


def metric_scores(task):
    """(systems, test cases) scores of every metric, greater is better."""
    with warnings.catch_warnings():
        # Correlations of a constant output are undefined: 0 with a warning.
        warnings.simplefilter("ignore")
        return score_systems(SCORERS, task.y_true, task.y_pred)


def rescore(scores, task, changed):
    """Scores of ``task`` where only the systems ``changed`` differ from ``scores``' task."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        changed_scores = score_systems(SCORERS, task.y_true, task.y_pred[changed])
    new = {}
    for row in METRICS:
        new[row] = scores[row].copy()
        new[row][changed] = changed_scores[row]
    return new


def f1_averages(task):
    """(systems, test cases) macro F1 under each average of ``F_AVERAGES``, counted
    from the items (not from the package's confusion matrices)."""
    n_classes = len(task.classes)
    n_systems, n_test_cases, _ = task.y_pred.shape
    gold = task.y_true - task.classes[0]  # class positions
    output = task.y_pred - task.classes[0]
    case = np.arange(n_test_cases)[:, np.newaxis] * n_classes
    system = (np.arange(n_systems) * n_test_cases * n_classes)[:, np.newaxis, np.newaxis]
    size = n_systems * n_test_cases * n_classes
    hits = np.bincount((system + case + gold).ravel(), weights=(output == gold).ravel(),
                       minlength=size).reshape(n_systems, n_test_cases, n_classes)
    n_output = np.bincount((system + case + output).ravel(),
                           minlength=size).reshape(n_systems, n_test_cases, n_classes)
    n_gold = np.bincount((case + gold).ravel(), minlength=n_test_cases * n_classes)
    n_gold = n_gold.reshape(n_test_cases, n_classes)
    total = n_gold + n_output
    f1 = np.divide(2 * hits, total, out=np.zeros(hits.shape), where=total > 0)
    n_gold = np.broadcast_to(n_gold, f1.shape)
    present, in_gold = total > 0, n_gold > 0
    return {
        "present (ours)": (f1 * present).sum(axis=2) / present.sum(axis=2),
        "gold": (f1 * in_gold).sum(axis=2) / in_gold.sum(axis=2),
        "all 11": f1.mean(axis=2),
        "weighted": (f1 * n_gold).sum(axis=2) / n_gold.sum(axis=2),
    }


def column_uirs(scores, kinds):
    """The UIR table of the reference metrics in each column (all systems, and without
    each kind of system): ``{column: (systems kept, UIR)}``, shared by every metric."""
    reference = np.stack([scores[row] for row in REFERENCE], axis=-1)
    uirs = {}
    for column, removed in COLUMNS.items():
        keep = kinds != removed
        uirs[column] = keep, _pairwise_uir(reference[keep])
    return uirs


def coverage_table(scores, uirs, rows=METRICS):
    """Coverage of every metric on all systems and without each kind of system."""
    metrics = np.stack([scores[row] for row in rows])
    table = np.empty((len(rows), len(COLUMNS)))
    for j, (keep, uir) in enumerate(uirs.values()):
        table[:, j] = _coverage_from_uir(metrics[:, keep], uir)
    return pd.DataFrame(table, index=list(rows), columns=list(COLUMNS))


def variant_rows(scores, undefined, uirs):
    """Coverage of the correlations with undefined values ranked highest, and of every
    metric over unordered pairs, on all systems and without each kind of system."""
    with_nan = np.stack([np.where(undefined, np.nan, scores[row]) for row in CORRELATIONS])
    metrics = np.stack([scores[row] for row in METRICS])
    nan_high = np.empty((len(CORRELATIONS), len(COLUMNS)))
    unordered = np.empty((len(METRICS), len(COLUMNS)))
    for j, (keep, uir) in enumerate(uirs.values()):
        nan_high[:, j] = pair_coverage(with_nan[:, keep], uir)
        unordered[:, j] = pair_coverage(metrics[:, keep], uir, pairs="unordered")
    return (pd.DataFrame(nan_high, index=CORRELATIONS, columns=list(COLUMNS)),
            pd.DataFrame(unordered, index=list(METRICS), columns=list(COLUMNS)))


def run_seed(seed, size):
    """Every table of one seeded draw of the task."""
    tasks = {reading: make_synthetic_ordinal_task(
        **size, displacement_overflow=reading, random_state=seed) for reading in READINGS}
    first, second = (tasks[reading] for reading in READINGS)
    scores = {READINGS[0]: metric_scores(first)}
    # Only the ordinal-displacement systems differ between the two readings.
    changed = (first.y_pred != second.y_pred).any(axis=(1, 2))
    scores[READINGS[1]] = rescore(scores[READINGS[0]], second, changed)

    result, uirs = {}, {}
    for reading, task in tasks.items():
        uirs[reading] = column_uirs(scores[reading], task.kind)
        result[reading] = coverage_table(scores[reading], uirs[reading])
        undefined = (np.ptp(task.y_pred, axis=2) == 0) | (np.ptp(task.y_true, axis=1) == 0)
        nan_high, unordered = variant_rows(scores[reading], undefined, uirs[reading])
        result[reading, "undefined ranked highest"] = nan_high
        result[reading, "unordered pairs"] = unordered
    f1 = f1_averages(first)
    # The first average is the scorer's own measure: the same numbers, or a bug here.
    np.testing.assert_allclose(f1["present (ours)"], scores[READINGS[0]]["F-measure"], atol=1e-12)
    result["F-measure averages"] = coverage_table(f1, uirs[READINGS[0]], rows=F_AVERAGES)
    result["undefined systems"] = sorted(
        {f"{first.kind[s]} r={first.error_ratio[s]:g}"
         for s in np.flatnonzero((np.ptp(first.y_pred, axis=2) == 0).any(axis=1))})
    return result


def seed_runs(seeds, size, n_jobs):
    """:func:`run_seed` of each seed, in order, in ``n_jobs`` processes (-1: one per
    core). The seeds are independent draws, so the tables do not depend on
    ``n_jobs``. The processes are forked where the platform can, so that they start
    with the imports done (importing scikit-learn takes longer than a seed)."""
    n_jobs = (os.cpu_count() or 1) if n_jobs == -1 else n_jobs
    if n_jobs == 1:
        yield from (run_seed(seed, size) for seed in seeds)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(min(n_jobs, len(seeds)), mp_context=context) as pool:
        yield from pool.map(run_seed, seeds, repeat(size))


def summary(stack):
    """Mean and sd over seeds of a (seeds, rows, columns) stack of tables."""
    values = np.stack([table.to_numpy(dtype=float) for table in stack])
    index, columns = stack[0].index, stack[0].columns
    sd = values.std(axis=0, ddof=1) if len(stack) > 1 else np.zeros(values.shape[1:])
    return (pd.DataFrame(values.mean(axis=0), index=index, columns=columns),
            pd.DataFrame(sd, index=index, columns=columns))


def side_by_side(mean, sd, paper):
    """'mean+-sd (paper)' cells, '*' where the mean is more than the tolerance off."""
    cells = pd.DataFrame(index=mean.index, columns=mean.columns, dtype=object)
    for row in mean.index:
        for column in mean.columns:
            ours, theirs = mean.loc[row, column], paper.loc[row, column]
            mark = "*" if abs(ours - theirs) > TOLERANCE else " "
            cells.loc[row, column] = f"{ours:.3f}+-{sd.loc[row, column]:.3f} ({theirs:.2f}){mark}"
    return cells


def n_within(table, paper):
    return int(((table - paper.loc[table.index]).abs() <= TOLERANCE).to_numpy().sum())


def spread(values):
    values = np.asarray(values, dtype=float)
    sd = values.std(ddof=1) if values.size > 1 else 0.0
    return (f"{values.mean():+.4f} +- {sd:.4f} (min {values.min():+.4f}, "
            f"max {values.max():+.4f})")


def counts(values):
    values = np.asarray(values)
    sd = values.std(ddof=1) if values.size > 1 else 0.0
    return f"{values.mean():.1f} +- {sd:.1f} (min {values.min()}, max {values.max()})"


def show(title, mean, sd, paper=PAPER):
    print(f"\n{title}")
    with pd.option_context("display.width", 250, "display.max_columns", None):
        print(side_by_side(mean, sd, paper).to_string())


def report_reading(reading, runs, seeds):
    """Tables and verdicts of one displacement reading; returns its mean table."""
    tables = [run[reading] for run in runs]
    mean, sd = summary(tables)
    show(f"Coverage, displacement_overflow={reading!r}: mean+-sd over {len(seeds)} seeds "
         f"(paper's value); * = mean off by more than {TOLERANCE}", mean, sd)
    per_seed = [n_within(table, PAPER) for table in tables]
    print(f"Cells within {TOLERANCE} of the paper's: {n_within(mean, PAPER)} of {PAPER.size} "
          f"for the mean; per seed {counts(per_seed)}.")
    all_systems = [table["all systems"] for table in tables]
    lead = [column["CEM-ORD"] - column.drop("CEM-ORD").max() for column in all_systems]
    lead_mae_m = [column["CEM-ORD"] - column["MAE_m"] for column in all_systems]
    first = sum(value > 0 for value in lead)
    print(f"All systems: CEM-ORD minus the best other metric {spread(lead)}; minus MAE_m "
          f"{spread(lead_mae_m)}; CEM-ORD highest on {first} of {len(seeds)} seeds "
          f"(the paper: highest, 0.91, ahead of MSE 0.89).")
    runner_up = pd.Series([column.drop("CEM-ORD").idxmax() for column in all_systems])
    print("  best other metric per seed: " + ", ".join(
        f"{name} x{n}" for name, n in runner_up.value_counts().items()))
    flat_below = sum(
        (table.loc["CEM-ORD"] > table.loc["CEM-ORD flat"]).all() for table in tables)
    print(f"CEM-ORD above CEM-ORD flat in all six columns on {flat_below} of {len(seeds)} "
          "seeds (the paper: systematically).")
    return mean, sd


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small task, for a smoke test")
    parser.add_argument("--seeds", type=int, default=None,
                        help="number of seeded draws of the task (default 10; 2 with --quick)")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first draw")
    parser.add_argument("--n-jobs", type=int, default=1,
                        help="processes drawing the seeds (-1: one per core); the same tables")
    args = parser.parse_args(argv)
    if args.n_jobs == 0 or args.n_jobs < -1:
        parser.error(f"--n-jobs must be a positive number of processes or -1; got {args.n_jobs}")
    n_seeds = args.seeds if args.seeds is not None else (2 if args.quick else 10)
    seeds = list(range(args.first_seed, args.first_seed + n_seeds))
    size = dict(n_test_cases=3, n_items=40) if args.quick else dict(n_test_cases=100, n_items=200)
    print(f"Synthetic task: {size['n_test_cases']} test cases x {size['n_items']} items, "
          f"11 classes, 50 systems; seeds {seeds[0]}..{seeds[-1]}")

    runs, start = [], time.perf_counter()
    for seed, run in zip(seeds, seed_runs(seeds, size, args.n_jobs)):
        runs.append(run)
        print(f"  seed {seed} done ({time.perf_counter() - start:6.1f} s)", flush=True)

    means = {reading: report_reading(reading, runs, seeds)[0] for reading in READINGS}
    default, other = READINGS
    moved = (means[default] - means[other]).abs()
    print(f"\nThe two readings differ only in the ordinal-displacement systems; '{default}' "
          f"moves the mean coverages by up to {moved.to_numpy().max():.3f} "
          f"({moved.stack().idxmax()}), and the F-measure gap to the paper from "
          f"{(PAPER.loc['F-measure'] - means[other].loc['F-measure']).mean():.3f} to "
          f"{(PAPER.loc['F-measure'] - means[default].loc['F-measure']).mean():.3f} "
          "on average over the columns.")

    print("\nUndefined correlations. A constant output (here: "
          + ", ".join(runs[0]["undefined systems"])
          + ") has no Spearman or Pearson correlation; the scorers return 0. Ranking that "
          "undefined value above every number instead, as sorting with Java's "
          "Double.compare ranks NaN (a guess at the original implementation, not a "
          "definition):")
    for reading in READINGS:
        high_mean, high_sd = summary([run[reading, "undefined ranked highest"] for run in runs])
        zero_mean, zero_sd = summary([run[reading].loc[CORRELATIONS] for run in runs])
        table = pd.concat({"undefined = 0": side_by_side(zero_mean, zero_sd, PAPER),
                           "undefined highest": side_by_side(high_mean, high_sd, PAPER)})
        with pd.option_context("display.width", 250, "display.max_columns", None):
            print(f"displacement_overflow={reading!r}:")
            print(table.to_string())
        for row in CORRELATIONS:
            print(f"  {row}: cells within {TOLERANCE}: undefined = 0 "
                  f"{n_within(zero_mean.loc[[row]], PAPER)} of 6, undefined highest "
                  f"{n_within(high_mean.loc[[row]], PAPER)} of 6; largest gap "
                  f"{(zero_mean.loc[row] - PAPER.loc[row]).abs().max():.3f} and "
                  f"{(high_mean.loc[row] - PAPER.loc[row]).abs().max():.3f}")

    # Unproven: our MAE_m row is close to the paper's MSE row and the other way round.
    swapped = PAPER.rename(index={"MAE_m": "MSE", "MSE": "MAE_m"}).loc[PAPER.index]
    print("\nAn alternative the paper does not support (unproven): its MAE_m and MSE rows "
          "read as swapped.")
    for reading in READINGS:
        gap, gap_swapped = (means[reading] - PAPER).abs(), (means[reading] - swapped).abs()
        print(f"  {reading}: " + "; ".join(
            f"our {row} vs the paper's {row} row, largest gap {gap.loc[row].max():.3f}, vs "
            f"its {other_row} row {gap_swapped.loc[row].max():.3f}"
            for row, other_row in (("MAE_m", "MSE"), ("MSE", "MAE_m")))
            + f"; cells within {TOLERANCE}: {n_within(means[reading], swapped)} of "
            f"{PAPER.size} read swapped, {n_within(means[reading], PAPER)} as printed.")

    unordered_moves = [
        (run[default, "unordered pairs"] - run[default]).abs().to_numpy() for run in runs]
    print("\nEach unordered pair of systems once (in listing order) instead of every ordered "
          f"pair ('{default}'): the coverage moves by up to "
          f"{max(move.max() for move in unordered_moves):.3f}; cells moving by more than "
          f"0.02 per seed: {counts([int((move > 0.02).sum()) for move in unordered_moves])} "
          f"of {PAPER.size}.")

    f1_mean, f1_sd = summary([run["F-measure averages"] for run in runs])
    print(f"\nF-measure averaged over different classes ('{default}'; the paper does not "
          "say which): mean+-sd over seeds (paper's F-measure)")
    f1_paper = pd.DataFrame([PAPER.loc["F-measure"]] * len(F_AVERAGES), index=list(F_AVERAGES))
    with pd.option_context("display.width", 250, "display.max_columns", None):
        print(side_by_side(f1_mean, f1_sd, f1_paper).to_string())
    spread_f1 = (f1_mean - f1_mean.loc["present (ours)"]).abs()
    print("  " + "; ".join(f"{name}: {text}" for name, text in F_AVERAGES.items()))
    print(f"  the averages differ from ours by up to {spread_f1.to_numpy().max():.3f} "
          f"({spread_f1.stack().idxmax()}); the closest to the paper, "
          f"{(f1_mean - PAPER.loc['F-measure']).abs().mean(axis=1).idxmin()!r}, is off by "
          f"{(f1_mean - PAPER.loc['F-measure']).abs().mean(axis=1).min():.3f} on average.")
    return {"mean": means[default], "sd": summary([run[default] for run in runs])[1],
            "runs": runs}


if __name__ == "__main__":
    main()
