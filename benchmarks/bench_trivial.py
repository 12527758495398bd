"""TrivialOrdinalClassifier.fit with many classes, as ratios in one run.

Every trivial classifier's confusion matrix is one column of the class counts, so
``fit`` counts the classes in one pass over the items and scores all K trivial
classifiers of a confusion-matrix measure by its closed form (``O(K^2)`` at most);
with the closed forms switched off it scores each of the K matrices, ``K x O(K^2)``
(the loop a measure without a closed form still takes). The floor is one
``np.bincount`` of the labels (the class counts), timed in the same run; the target
is ``fit`` under 0.1 s for K = 1000 classes. Two parts of ``fit`` are timed apart:
the one scorer call that validates the measure's parameters (and scores class 0),
and the closed form alone.

Run: ``python benchmarks/bench_trivial.py`` (``--all-loops`` also times the loop of
every measure at K = 1000, several minutes).
"""

import sys
import warnings
from unittest import mock

import numpy as np

from sklearn_ordinal._validation import _class_values
from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from sklearn_ordinal.dummy._trivial import _TrivialClassifier
from sklearn_ordinal.dummy._trivial_scores import _CLOSED_FORMS, _closed_form_scores
from sklearn_ordinal.metrics._registry import confusion_kernel
from bench_metrics import best_time  # one timing rule for every benchmark

MEASURES = [
    "neg_macro_mean_absolute_error",
    "macro_f1",
    "neg_mean_squared_error",
    "neg_max_mean_zero_one_error",
    "cem_ord",
    "cem_int",
    "quadratic_weighted_kappa",
    "spearman",
    "gmsec",
    "accuracy_within_1",
]
TARGET_SECONDS = 0.1


def _parts(metric, X, y, classes, counts):
    """The validating scorer call of ``fit`` and the closed form, as fit makes them."""
    scorer = TrivialOrdinalClassifier(metric)._scorer(classes, True)
    kwargs = scorer.kwargs
    kwargs.pop("labels")
    from_confusion = confusion_kernel(scorer.score_func)
    values = _class_values(classes, kwargs.pop("class_values", None))
    trivial = _TrivialClassifier(classes, 0).fit()
    return (
        lambda: scorer(trivial, X, y),
        lambda: _closed_form_scores(from_confusion, counts, values, **kwargs),
    )


def main(all_loops=False):
    rng = np.random.default_rng(0)
    print(f"{'':34s} {'fit':>8s} {'/bincount':>9s} | {'scorer':>8s} {'closed':>8s} | "
          f"{'loop':>8s} {'/bincount':>9s} {'loop/fit':>8s}")
    for n_classes, n in [(5, 10**6), (100, 10**5), (1000, 10**5)]:
        y = rng.integers(n_classes, size=n)
        y[:n_classes] = np.arange(n_classes)
        X = np.zeros((n, 1))
        classes, counts = np.arange(n_classes), np.bincount(y).astype(np.float64)
        floor = best_time(lambda: np.bincount(y, minlength=n_classes), 5)
        print(f"K = {n_classes}, n = {n:.0e}: bincount {floor * 1e3:.2f} ms")
        for position, metric in enumerate(MEASURES):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the loop would print K warnings
                seconds = best_time(lambda: TrivialOrdinalClassifier(metric).fit(X, y), 3)
                scorer_call, closed_form = _parts(metric, X, y, classes, counts)
                scorer_seconds = best_time(scorer_call, 3)
                closed_seconds = best_time(closed_form, 3)
                loop = None
                if n_classes < 1000 or all_loops or position < 2:
                    with mock.patch.dict(_CLOSED_FORMS, clear=True):
                        loop = best_time(lambda: TrivialOrdinalClassifier(metric).fit(X, y), 1)
            line = (
                f"  {metric:<32s} {seconds:7.4f}s {seconds / floor:8.0f}x | "
                f"{scorer_seconds:7.4f}s {closed_seconds:7.4f}s |"
            )
            if loop is not None:
                line += f" {loop:7.3f}s {loop / floor:8.0f}x {loop / seconds:7.0f}x"
            else:
                line += f" {'-':>8s} {'':>9s} {'':>8s}"
            if n_classes == 1000:
                line += "  ok" if seconds < TARGET_SECONDS else "  MISSES < 0.1 s"
            print(line)


if __name__ == "__main__":
    main(all_loops="--all-loops" in sys.argv[1:])
