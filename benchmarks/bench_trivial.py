"""TrivialOrdinalClassifier.fit with many classes, as ratios in one run.

Every trivial classifier's confusion matrix is one column of the class counts, so
a confusion-matrix measure scores all K of them from the counts (``fit`` makes one
pass over the items); the scorer path, kept for ranking measures, calls the scorer
K times. The floor is one ``np.bincount`` of the labels (the class counts).

Run: ``python benchmarks/bench_trivial.py``.
"""


import numpy as np

from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from bench_metrics import best_time  # one timing rule for every benchmark


def main():
    rng = np.random.default_rng(0)
    for n_classes, n in [(5, 10**6), (100, 10**5), (1000, 10**5)]:
        y = rng.integers(n_classes, size=n)
        y[:n_classes] = np.arange(n_classes)
        X = np.zeros((n, 1))
        floor = best_time(lambda: np.bincount(y, minlength=n_classes), 3)
        print(f"K = {n_classes}, n = {n:.0e}:")
        for metric in ["neg_macro_mean_absolute_error", "cem_ord", "macro_f1"]:
            seconds = best_time(lambda: TrivialOrdinalClassifier(metric).fit(X, y), 1)
            print(f"  {metric:<32s} {seconds:8.3f} s  {seconds / floor:9.1f}x bincount")


if __name__ == "__main__":
    main()
