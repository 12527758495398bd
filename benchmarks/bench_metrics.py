"""Speed of the measures, as ratios to a baseline timed in the same run.

This machine is noisy, so absolute times mean little: each measure is timed
against the cheapest operation that any implementation must at least perform on the
same arrays (a bare ``np.bincount`` for label measures, ``np.argsort`` for ranking
measures), keeping the best of several repeats; the ranking section alternates the
calls so that a load spike hits the measure and its baseline alike, and measures the
peak memory with tracemalloc.

Run: ``python benchmarks/bench_metrics.py`` (``--quick`` for small sizes).
"""

import argparse
import time
import tracemalloc

import numpy as np


def best_time(func, repeat):
    """Best wall-clock time of ``repeat`` calls: the least disturbed by noise."""
    best = np.inf
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def report(name, seconds, baseline_name, baseline_seconds, target=None):
    ratio = seconds / baseline_seconds
    verdict = ""
    if target is not None:
        verdict = "  ok" if ratio <= target else f"  MISSES target <= {target}x"
    print(f"  {name:<52s} {seconds * 1e3:9.1f} ms  {ratio:7.2f}x {baseline_name}{verdict}")
    return ratio


def ordinal_labels(n, n_classes, rng):
    """Imbalanced integer labels with predictions near the truth."""
    p = np.array([0.04, 0.07, 0.09, 0.35, 0.45])[:n_classes]
    y_true = rng.choice(n_classes, size=n, p=p / p.sum())
    y_pred = np.clip(y_true + rng.integers(-1, 2, size=n), 0, n_classes - 1)
    return y_true, y_pred


def bench_error_measures(sizes, repeat, rng):
    from sklearn_ordinal.metrics import macro_mean_absolute_error

    print("Macro MAE on integer labels, K = 5")
    for n in sizes:
        y_true, y_pred = ordinal_labels(n, 5, rng)
        bincount = best_time(lambda: np.bincount(y_true), repeat)
        ours = best_time(lambda: macro_mean_absolute_error(y_true, y_pred), repeat)
        report(f"n = {n:.0e}: macro_mean_absolute_error", ours, "np.bincount", bincount,
               target=3 if n >= 10**7 else None)
        try:
            from imblearn.metrics import macro_averaged_mean_absolute_error
        except ImportError:
            print("  (imbalanced-learn not installed: pip install '.[benchmarks]')")
            continue
        theirs = best_time(lambda: macro_averaged_mean_absolute_error(y_true, y_pred),
                           max(1, repeat // 2))
        speedup = theirs / ours
        verdict = "  ok" if speedup >= 10 or n < 10**7 else "  MISSES target >= 10x"
        print(f"  {'imbalanced-learn macro_averaged_mean_absolute_error':<52s} "
              f"{theirs * 1e3:9.1f} ms  ours is {speedup:.1f}x faster{verdict}")

    print("Macro MAE on string labels (their order given by labels=), K = 5")
    n = sizes[0]
    order = ["awful", "poor", "fair", "good", "great"]
    names = np.array(order)
    y_true, y_pred = (names[y] for y in ordinal_labels(n, 5, rng))
    unique = best_time(lambda: np.unique(y_true, return_inverse=True), repeat)
    ours = best_time(lambda: macro_mean_absolute_error(y_true, y_pred, labels=order), repeat)
    report(f"n = {n:.0e}: macro_mean_absolute_error", ours, "np.unique(return_inverse)", unique)


def bench_closeness(sizes, repeat, rng):
    from sklearn_ordinal.metrics import cem_score, kendall_tau_a_score

    print("CEM-ORD and Kendall's tau-a on integer labels, K = 5")
    for n in sizes:
        y_true, y_pred = ordinal_labels(n, 5, rng)
        bincount = best_time(lambda: np.bincount(y_true), repeat)
        ours = best_time(lambda: cem_score(y_true, y_pred), repeat)
        report(f"n = {n:.0e}: cem_score", ours, "np.bincount", bincount,
               target=3 if n >= 10**7 else None)
        tau = best_time(lambda: kendall_tau_a_score(y_true, y_pred), repeat)
        report(f"n = {n:.0e}: kendall_tau_a_score", tau, "np.bincount", bincount)


def bench_trivial_classifier(sizes, repeat, rng):
    from sklearn_ordinal.dummy import TrivialOrdinalClassifier
    from sklearn_ordinal.metrics import macro_mean_absolute_error

    # fit scores each of the K trivial classifiers through the scorer, so the floor
    # is K evaluations of the measure itself. The rest is finding classes_ once, and
    # one hash pass per scorer call for test labels unseen in training.
    print("TrivialOrdinalClassifier.fit (macro MAE) on integer labels, K = 5")
    for n in sizes:
        y, _ = ordinal_labels(n, 5, rng)
        X = np.zeros((n, 1))
        constants = [np.full(n, k) for k in range(5)]
        measure = best_time(lambda: [macro_mean_absolute_error(y, c) for c in constants], repeat)
        ours = best_time(lambda: TrivialOrdinalClassifier().fit(X, y), repeat)
        report(f"n = {n:.0e}: TrivialOrdinalClassifier().fit", ours,
               "5 x macro_mean_absolute_error", measure, target=10 if n >= 10**7 else None)


def bench_metaeval(repeat, rng):
    from scipy.stats import spearmanr

    from sklearn_ordinal.metaeval import check_metric_properties, coverage
    from sklearn_ordinal.metrics import mean_absolute_error

    print("Meta-evaluation")
    n_systems, n_test_cases, n_reference = 50, 100, 3
    metric = rng.random((n_systems, n_test_cases))
    reference = rng.random((n_systems, n_test_cases, n_reference))
    # Any implementation ends with a Spearman correlation over the ordered pairs.
    x, y = rng.random((2, n_systems * (n_systems - 1)))
    spearman = best_time(lambda: spearmanr(x, y), repeat)
    ours = best_time(lambda: coverage(metric, reference), repeat)
    report(f"coverage, {n_systems} x {n_test_cases} x {n_reference}", ours,
           "spearmanr on the pairs", spearman)
    verdict = "ok" if ours < 1.0 else "MISSES target < 1 s"
    print(f"  {'(target: well under a second)':<52s} {ours * 1e3:9.1f} ms  {verdict}")

    # The property search calls the measure on small cases; its own overhead is the
    # ratio to the same number of bare calls on cases of the same size.
    calls = []

    def counted_mae(y_true, y_pred):
        calls.append((y_true, y_pred))
        return mean_absolute_error(y_true, y_pred)

    search = best_time(lambda: (calls.clear(), check_metric_properties(
        counted_mae, greater_is_better=False, n_trials=100, random_state=0)), 1)
    cases = list(calls)
    bare = best_time(lambda: [mean_absolute_error(a, b) for a, b in cases], 1)
    report(f"check_metric_properties (micro MAE, {len(cases)} calls)", search,
           "the same calls alone", bare, target=2)


def best_times_alternating(funcs, repeat):
    """Best time of each of ``funcs``, calling them in turn so that load spikes hit all."""
    best = [np.inf] * len(funcs)
    for _ in range(repeat):
        best = [min(b, best_time(func, 1)) for b, func in zip(best, funcs)]
    return best


def peak_memory(func):
    """Peak bytes that ``func()`` allocates on top of what exists already (tracemalloc
    sees NumPy's buffers)."""
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def bench_ranking_measures(sizes, repeat, rng):
    from sklearn_ordinal.metrics import u_cons_score, vus_score

    print("Ranking measures, 5 classes: time as a ratio to np.argsort and to np.sort of the")
    print("same scores; peak memory on top of the inputs as a ratio to y_true + y_score")
    for n in sizes:
        y_true = rng.integers(0, 5, size=n)
        continuous = y_true + rng.normal(scale=1.5, size=n)
        tied = np.round(continuous * 4) / 4
        cases = {"no ties": continuous, f"heavy ties ({len(np.unique(tied))} scores)": tied}
        for case, y_score in cases.items():
            argsort, sort, vus, u_cons = best_times_alternating(
                [
                    lambda: np.argsort(y_score),
                    lambda: np.sort(y_score),
                    lambda: vus_score(y_true, y_score),
                    lambda: u_cons_score(y_true, y_score),
                ],
                repeat if n < 10**7 else max(2, repeat // 2),
            )
            inputs = y_true.nbytes + y_score.nbytes
            for name, measure, seconds in [
                ("vus_score", vus_score, vus), ("u_cons_score", u_cons_score, u_cons)
            ]:
                label = f"n = {n:.0e}: {name}, {case}"
                report(label, seconds, "np.argsort", argsort, target=1.5)
                report("", seconds, "np.sort", sort, target=3)
                memory = peak_memory(lambda: measure(y_true, y_score)) / inputs
                verdict = "  ok" if memory <= 2 else "  MISSES target <= 2x"
                print(f"  {'':<52s} {'':>12s} {memory:7.2f}x inputs (peak memory){verdict}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument("--repeat", type=int, default=5, help="repeats per timing (best is kept)")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    sizes = [10**4, 10**5] if args.quick else [10**6, 10**7]
    repeat = 2 if args.quick else args.repeat
    bench_error_measures(sizes, repeat, rng)
    bench_closeness(sizes, repeat, rng)
    bench_trivial_classifier(sizes, repeat, rng)
    bench_ranking_measures(sizes, repeat, rng)
    bench_metaeval(repeat, rng)


if __name__ == "__main__":
    main()
