"""Reproduce Figures 3-6 and Lemma 3.3 of Waegeman, De Baets and Boullart (2008).

Figures 3-5: scores of 100 items per class drawn from N(k d, 1) for classes
k = 1..r, r = 2..5, as the distance d between class means grows from 0 to 5 in steps
of 0.25, averaged over 20 runs: VUS against U_cons (Fig. 3), VUS against U_ovo
(Fig. 4) and U_cons against U_ovo (Fig. 5). Figure 6: the four measures on 1000
random rankings of a balanced 4-class set of 200 items, as histograms and pairwise
scatter plots. Lemma 3.3: for a random ranking, E[VUS] = 1/r! and the three
pairwise measures have expectation 1/2.

The paper's figures carry no numbers, so the script prints the facts they show
beside ours and saves the figures as PNG files.

Run: ``python benchmarks/reproduce_waegeman_figures.py [--quick] [--out DIR]``.
"""

import argparse
import math
import time
from pathlib import Path

import numpy as np
from scipy import stats

from sklearn_ordinal.metrics import u_cons_score, u_ovo_score, u_pairs_score, vus_score

MEASURES = {
    "VUS": vus_score, "U_cons": u_cons_score, "U_ovo": u_ovo_score, "U_pairs": u_pairs_score,
}


def separation_curves(class_counts, distances, n_per_class, n_runs, rng, progress=True):
    """Mean VUS, U_cons and U_ovo for each number of classes and distance."""
    curves = {}
    start = time.perf_counter()
    for r in class_counts:
        y_true = np.repeat(np.arange(r), n_per_class)
        values = np.zeros((len(distances), n_runs, 3))
        for i, d in enumerate(distances):
            for run in range(n_runs):
                y_score = rng.normal(loc=y_true * d, scale=1.0)
                values[i, run] = [vus_score(y_true, y_score), u_cons_score(y_true, y_score),
                                  u_ovo_score(y_true, y_score)]
        curves[r] = values.mean(axis=1)
        if progress:
            print(f"  r = {r}: {len(distances)} distances x {n_runs} runs "
                  f"({time.perf_counter() - start:4.1f} s)", flush=True)
    return curves


def random_rankings(n_rankings, n_per_class, n_classes, rng):
    """The four measures on random rankings (a random permutation as scores)."""
    y_true = np.repeat(np.arange(n_classes), n_per_class)
    scores = np.empty((n_rankings, len(MEASURES)))
    for i in range(n_rankings):
        y_score = rng.permutation(y_true.size)
        scores[i] = [measure(y_true, y_score) for measure in MEASURES.values()]
    return scores


def _pyplot():
    """matplotlib, imported only when figures are drawn, without a display."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_curves(curves, out):
    plt = _pyplot()
    figures = {
        "waegeman_fig3_vus_vs_ucons.png": (1, 0, "U_cons", "VUS", "Fig. 3: VUS against U_cons"),
        "waegeman_fig4_vus_vs_uovo.png": (2, 0, "U_ovo", "VUS", "Fig. 4: VUS against U_ovo"),
        "waegeman_fig5_ucons_vs_uovo.png": (
            2, 1, "U_ovo", "U_cons", "Fig. 5: U_cons against U_ovo"),
    }
    paths = []
    for name, (x, y, xlabel, ylabel, title) in figures.items():
        fig, ax = plt.subplots(figsize=(4.2, 3.6))
        for r, values in curves.items():
            ax.plot(values[:, x], values[:, y], "o-", markersize=3, label=f"r = {r}")
        if y:  # U_cons against U_ovo: the diagonal is where they agree
            ax.plot([0.5, 1], [0.5, 1], ":", color="grey", linewidth=0.8)
        ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
        ax.legend(fontsize=8)
        fig.tight_layout()
        paths.append(out / name)
        fig.savefig(paths[-1], dpi=80)
        plt.close(fig)
    return paths


def plot_rankings(scores, out):
    plt = _pyplot()
    names = list(MEASURES)
    k = len(names)
    fig, axes = plt.subplots(k, k, figsize=(7, 7))
    for i in range(k):
        for j in range(k):
            ax = axes[i, j]
            if i == j:
                ax.hist(scores[:, i], bins=25, color="tab:blue")
            else:
                ax.scatter(scores[:, j], scores[:, i], s=2, alpha=0.5)
            ax.tick_params(labelsize=6)
            if i == k - 1:
                ax.set_xlabel(names[j], fontsize=8)
            if j == 0:
                ax.set_ylabel(names[i], fontsize=8)
    fig.suptitle(f"Fig. 6: {len(scores)} random rankings, balanced 4 classes", fontsize=9)
    fig.tight_layout()
    path = out / "waegeman_fig6_random_rankings.png"
    fig.savefig(path, dpi=70)
    plt.close(fig)
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs and rankings")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "output",
                        help="directory for the PNG files")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    step, n_runs, n_rankings = (1.0, 2, 60) if args.quick else (0.25, 20, 1000)
    distances = np.arange(0, 5 + step / 2, step)

    print(f"Figures 3-5: 100 items per class, d = 0..5 step {step}, {n_runs} runs each")
    curves = separation_curves(range(2, 6), distances, 100, n_runs, rng)
    print("\n r   d    VUS   (paper: 1/r! at d=0, -> 1)   U_cons (1/2 -> 1)   U_ovo (1/2 -> 1)")
    for r, values in curves.items():
        for i in (0, len(distances) // 4, len(distances) - 1):
            target = f"1/r! = {1 / math.factorial(r):.3f}" if i == 0 else ""
            print(f" {r}  {distances[i]:4.2f}  {values[i, 0]:.3f}  {target:<27s}"
                  f"  {values[i, 1]:.3f}              {values[i, 2]:.3f}")
    gap = {r: np.abs(values[:, 1] - values[:, 2]).max() for r, values in curves.items()}
    print("Largest |U_cons - U_ovo| per r (paper: they grow apart as r grows): "
          + ", ".join(f"r={r}: {g:.3f}" for r, g in gap.items()))
    print("With r = 2 all three are the same AUC: "
          f"max |VUS - U_cons| = {np.abs(curves[2][:, 0] - curves[2][:, 1]).max():.1e}")

    print(f"\nFigure 6: {n_rankings} random rankings of 4 classes x 50 items", flush=True)
    start = time.perf_counter()
    scores = random_rankings(n_rankings, 50, 4, rng)
    print(f"  done in {time.perf_counter() - start:.1f} s")
    print("Lemma 3.3 (random ranking): measure, mean, expected, skewness, "
          "Kolmogorov-Smirnov p-value against a fitted normal")
    expected = [1 / math.factorial(4), 0.5, 0.5, 0.5]
    for k, name in enumerate(MEASURES):
        column = scores[:, k]
        # A frozen distribution's cdf, not "norm" with args=: SciPy 1.18 maps "norm" to
        # the standard normal's ndtr, which takes no location or scale.
        fitted = stats.norm(loc=column.mean(), scale=column.std(ddof=1))
        ks = stats.kstest(column, fitted.cdf).pvalue
        print(f"  {name:<8s} {column.mean():.4f}  {expected[k]:.4f}  "
              f"{stats.skew(column):+.2f}  {ks:.3f}")
    print("  (paper: the VUS distribution is skewed and fails the normality test; "
          "the three pairwise measures look normal)")
    same = np.abs(scores[:, 2] - scores[:, 3]).max()
    print(f"U_ovo = U_pairs on balanced data (eq. 19): max difference {same:.1e}")
    vus, u_cons = scores[:, 0], scores[:, 1]
    order_vus = np.sign(vus[:, None] - vus[None, :])
    discordant = order_vus * np.sign(u_cons[:, None] - u_cons[None, :]) < 0
    print(f"Not comonotone (paper's point): {discordant.sum() // 2} pairs of rankings are "
          "ordered one way by VUS and the other way by U_cons")

    paths = plot_curves(curves, args.out) + [plot_rankings(scores, args.out)]
    print("\nSaved: " + ", ".join(str(path) for path in paths))
    return curves, scores


if __name__ == "__main__":
    main()
