"""How many groups the quantification intervals need: coverage of the BCa interval
over resampled groups, by the number of groups.

A prevalence measure of a report (``evaluate(..., groups=, measures=["nmd"])``, and
the ``quantification`` command) is the mean of one value per group, and its 95 %
BCa interval resamples the groups (``evaluation/_quantification.py``). With few
groups that interval is too narrow; below ``FEW_GROUPS`` groups the report says so
in a note. This script measures the coverage of the interval for the population
value (the expected per-group value, from 200 000 groups) at 10 to 60 groups, on
three models of five ordered classes, each group a topic whose items a system
classifies and the report counts (classify and count):

- ``semeval``: topics of 20 to 150 items (SemEval-2016 subtask E had about 100
  tweets a topic), true shares Dirichlet(2, 4, 8, 4, 2); the system moves an item
  one class down or up with probability 0.2 each;
- ``biased``: as ``semeval``, but on 15 % of the topics the system is off by a
  class for every item (a topic it misreads): a long right tail of per-topic errors;
- ``sparse``: topics of 5 to 30 items and flat true shares Dirichlet(1, ..., 1):
  noisy per-topic prevalences.

Each cell is ``--reps`` draws of the groups (1000 by default: Monte Carlo sd 0.7 %),
each interval from ``--resamples`` resamples (999). ``FEW_GROUPS`` is the number of
groups from which every model's coverage is 0.94 or more, as in the ranking
measures' coverage runs (``bench_ranking_coverage.py``).

Run: ``nice python benchmarks/bench_quantification_groups.py [--reps 1000]`` (about
5 minutes on one core).
"""

import argparse
import time
import warnings

import numpy as np

from sklearn_ordinal.evaluation._quantification import FEW_GROUPS, records_from_prevalences
from sklearn_ordinal.metrics._quantification import _normalized_match_distance_rows
from bench_intervals import machine

GROUPS = (10, 15, 20, 25, 30, 40, 60)
MODELS = ("semeval", "biased", "sparse")
K = 5


def _confusion(shift_probability):
    """Row k: where an item of class k is put, one class down or up with the given
    probability each (at an end, the step that leaves the scale stays)."""
    matrix = np.zeros((K, K))
    for k in range(K):
        matrix[k, max(k - 1, 0)] += shift_probability
        matrix[k, min(k + 1, K - 1)] += shift_probability
        matrix[k, k] += 1 - 2 * shift_probability
    return matrix


NOISY = _confusion(0.2)
OFF_BY_ONE = np.roll(np.eye(K), 1, axis=1)
OFF_BY_ONE[-1] = np.eye(K)[K - 2]  # the top class is put one below


def draw(model, n_groups, rng):
    """``(true prevalences, predicted prevalences)`` of ``n_groups`` topics."""
    if model == "sparse":
        sizes = rng.integers(5, 31, n_groups)
        shares = rng.dirichlet(np.ones(K), n_groups)
    else:
        sizes = rng.integers(20, 151, n_groups)
        shares = rng.dirichlet([2, 4, 8, 4, 2], n_groups)
    counts = np.array([rng.multinomial(n, p) for n, p in zip(sizes, shares)])
    confusion = np.broadcast_to(NOISY, (n_groups, K, K)).copy()
    if model == "biased":
        confusion[rng.random(n_groups) < 0.15] = OFF_BY_ONE
    predicted = np.zeros_like(counts)
    for k in range(K):
        predicted += rng.multinomial(counts[:, k], confusion[:, k, :])
    return (counts / counts.sum(axis=1, keepdims=True),
            predicted / predicted.sum(axis=1, keepdims=True))


def population(model):
    rng = np.random.default_rng(7)
    values = [_normalized_match_distance_rows(*draw(model, 20_000, rng)) for _ in range(10)]
    return float(np.mean(np.concatenate(values)))


def coverage(model, n_groups, truth, reps, resamples, seed):
    rng = np.random.default_rng(seed)
    covered = 0
    for _ in range(reps):
        gold, predicted = draw(model, n_groups, rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = records_from_prevalences(
                gold, {"system": predicted}, gold.mean(axis=0),
                [f"g{g}" for g in range(n_groups)], ["system"], {"nmd": "nmd"}, 0.95,
                resamples, int(rng.integers(2**31)))
        record = next(r for r in result.scores if r["system"] == "system")
        covered += record["low"] <= truth <= record["high"]
    return covered / reps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--resamples", type=int, default=999)
    parser.add_argument("--groups", type=int, nargs="*", default=list(GROUPS))
    args = parser.parse_args()
    sd = np.sqrt(0.95 * 0.05 / args.reps)
    print(f"Coverage of the 95% BCa interval of NMD over resampled groups: {args.reps} "
          f"draws per cell, {args.resamples} resamples (Monte Carlo sd {sd:.1%}); the "
          f"report's note appears below FEW_GROUPS = {FEW_GROUPS} groups")
    print(f"({machine()})")
    truths = {model: population(model) for model in MODELS}
    print("groups  " + "  ".join(f"{model:>8s}" for model in MODELS))
    for i, n_groups in enumerate(args.groups):
        start = time.perf_counter()
        shares = [coverage(model, n_groups, truths[model], args.reps, args.resamples,
                           1000 * i + j) for j, model in enumerate(MODELS)]
        print(f"{n_groups:6d}  " + "  ".join(f"{share:8.1%}" for share in shares)
              + f"   [{time.perf_counter() - start:.0f} s]", flush=True)


if __name__ == "__main__":
    main()
