"""Ordinal quantification: the report over groups against its point estimates.

Issue 42's target: the quantification report of 100 topics x 200 items (K = 5, two
systems giving labels and one giving class probabilities, the three prevalence
measures) with 9999 resamples of the topics must take at most 20 times its point
estimates: ``quantification_error`` of every system under every measure, and the
trivial quantifier's value (the gold's prevalences per topic against its overall
prevalences), on the same arrays. Both best of ``--reps`` runs, in one process. The
report also includes ``evaluate(..., groups=..., measures=[...])`` end to end.

Run: ``python benchmarks/bench_quantification.py`` (``--reps``, ``--resamples``).
"""

import argparse
import platform
import time

import numpy as np

import sklearn_ordinal
from sklearn_ordinal import evaluate
from sklearn_ordinal.evaluation._quantification import quantification_records
from sklearn_ordinal.metrics import prevalences, quantification_error
from sklearn_ordinal.metrics._registry import prevalence_measure

MEASURES = ("match_distance", "normalized_match_distance",
            "root_normalized_order_aware_divergence")


def _data(n_topics, n_items, n_classes, seed=0):
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(n_topics), n_items)
    shares = rng.dirichlet(np.ones(n_classes), n_topics)
    y_true = np.concatenate([rng.choice(n_classes, n_items, p=p) for p in shares])
    near = np.clip(y_true + rng.choice([-1, 0, 0, 0, 1], len(y_true)), 0, n_classes - 1)
    far = np.clip(y_true + rng.choice([-2, 0, 1, 2], len(y_true)), 0, n_classes - 1)
    proba = 0.3 * rng.dirichlet(np.ones(n_classes), len(y_true)) + 0.7 * np.eye(n_classes)[y_true]
    return y_true, {"near": near, "far": far, "pcc": proba}, groups


def _best(function, reps):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--resamples", type=int, default=9999)
    args = parser.parse_args()
    n_topics, n_items, n_classes = 100, 200, 5
    y_true, systems, groups = _data(n_topics, n_items, n_classes)
    labels = list(range(n_classes))

    def point_estimates():
        for output in systems.values():
            for name in MEASURES:
                quantification_error(y_true, output, groups, measure=name, labels=labels)
        gold = prevalences(y_true, groups, labels=labels).to_numpy()
        trivial = np.bincount(y_true, minlength=n_classes) / len(y_true)
        for name in MEASURES:
            prevalence_measure(name).function(gold, np.tile(trivial, (n_topics, 1)))

    def report():
        quantification_records(y_true, systems, groups, labels, None, 0.95, args.resamples, 0,
                               measures={name: name for name in MEASURES})

    def through_evaluate():
        evaluate(y_true, systems, groups=groups, labels=labels, measures=list(MEASURES),
                 n_resamples=args.resamples, random_state=0)

    report()  # imports and first-call costs out of the timings
    point = _best(point_estimates, args.reps)
    full = _best(report, args.reps)
    whole = _best(through_evaluate, max(1, args.reps // 2))
    print(f"sklearn_ordinal {sklearn_ordinal.__version__}, numpy {np.__version__}, "
          f"Python {platform.python_version()}, {platform.machine()}")
    print(f"{n_topics} topics x {n_items} items, K = {n_classes}, {len(systems)} systems "
          f"(2 label, 1 probability) + the trivial quantifier, {len(MEASURES)} measures, "
          f"{args.resamples} resamples; best of {args.reps}")
    print(f"point estimates (quantification_error x {len(systems) * len(MEASURES)}, "
          f"trivial x {len(MEASURES)}): {point * 1e3:8.1f} ms")
    print(f"report (intervals, comparisons, trivial row):        {full * 1e3:8.1f} ms"
          f"   ratio {full / point:5.1f}x (goal <= 20x)")
    print(f"evaluate(..., groups=, measures=[3 prevalence measures]): {whole * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
