"""compare_across_datasets for 20 systems x 100 data sets: target <= 1 s.

The whole comparison: ranks, Friedman and Iman-Davenport, the 190 pairwise Wilcoxon
tests with Holm's correction, Nemenyi's p-values and critical difference, a control
against the 19 others, and the cliques. Timed apart: its parts, to see where the time
goes (the Wilcoxon tests and the studentized range dominate), and the critical-
difference diagram. Scores are continuous (no ties: SciPy's exact Wilcoxon
distribution is not used above 50 data sets anyway) and, in a second table, rounded
to 2 decimals (ties and zero differences in most pairs).

Run: ``python benchmarks/bench_across_datasets.py``.
"""

import warnings
from functools import partial

import numpy as np
import pandas as pd
from bench_metrics import best_time  # one timing rule for every benchmark
from scipy import stats

from sklearn_ordinal.stats import CriticalDifferenceDisplay, compare_across_datasets
from sklearn_ordinal.stats._across_datasets import _nemenyi_q, _wilcoxon

N_SYSTEMS, N_DATASETS, REPEAT = 20, 100, 5
TARGET_SECONDS = 1.0


def table(rng, decimals=None):
    skill = np.linspace(0, 0.1, N_SYSTEMS)
    values = rng.normal(0.7, 0.1, (N_DATASETS, 1)) + skill + rng.normal(0, 0.05,
                                                                         (N_DATASETS, N_SYSTEMS))
    values = values if decimals is None else np.round(values, decimals)
    return pd.DataFrame(values, columns=[f"system{j}" for j in range(N_SYSTEMS)])


def main():
    rng = np.random.default_rng(0)
    print(f"compare_across_datasets, {N_SYSTEMS} systems x {N_DATASETS} data sets "
          f"(best of {REPEAT}):")
    for name, scores in (("continuous scores", table(rng)),
                         ("scores rounded to 2 decimals", table(rng, 2))):
        seconds = best_time(partial(compare_across_datasets, scores, "cem_ord",
                                    control="system0"), REPEAT)
        verdict = "ok" if seconds <= TARGET_SECONDS else f"MISSES target <= {TARGET_SECONDS} s"
        print(f"  {name:<40s} {seconds * 1e3:8.1f} ms  {verdict}")
    values = scores.to_numpy()
    first, second = np.triu_indices(N_SYSTEMS, 1)
    parts = {
        "ranks (scipy.stats.rankdata)": lambda: stats.rankdata(-values, axis=1),
        "190 Wilcoxon tests": lambda: _wilcoxon(values[:, first] - values[:, second],
                                                "wilcox"),
        "q_alpha (studentized range ppf)": lambda: _nemenyi_q(0.05, N_SYSTEMS),
        "190 Nemenyi p-values (sf)": lambda: stats.studentized_range.sf(
            np.linspace(0, 6, 190), N_SYSTEMS, np.inf),
    }
    print("its parts (rounded scores):")
    for name, func in parts.items():
        print(f"  {name:<40s} {best_time(func, REPEAT) * 1e3:8.1f} ms")
    try:
        import matplotlib
    except ImportError:
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = compare_across_datasets(scores, "cem_ord")

    def draw():
        plt.close(CriticalDifferenceDisplay.from_comparison(result).figure_)

    print(f"  {'critical-difference diagram':<40s} {best_time(draw, REPEAT) * 1e3:8.1f} ms")


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        main()
