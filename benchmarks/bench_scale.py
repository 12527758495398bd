"""Scale: measures of data in chunks and of Dask collections, as ratios in one run.

Each figure is a ratio to a floor timed in the same run, never an absolute time:

- chunks: ``sum(OrdinalConfusion.from_predictions(chunk, labels=...))`` then
  ``score`` (macro MAE and CEM-ORD), against the sum of ``np.bincount(true * K +
  pred)`` over the same chunks (the floor of any confusion matrix);
- Dask: the same measures on int8 labels generated blockwise on a ``LocalCluster``
  of two single-threaded worker processes (never materialised in the client),
  against the sum of the per-block NumPy floors timed in this process, and against
  generating the blocks plus those floors, which the cluster must do; and exact
  VUS of continuous scores through Dask against in-memory ``vus_score`` on the same
  data.

Run: ``python benchmarks/bench_scale.py`` (``--quick`` for small sizes).
"""

import argparse

import numpy as np

from sklearn_ordinal.metrics import OrdinalConfusion, cem_score, mean_absolute_error, vus_score
from bench_metrics import best_time  # one timing rule for every benchmark

K = 5
BLOCK = 2**20


def block_labels(seed, size):
    """One block of int8 labels and predictions near them."""
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, K, size=size, dtype=np.int8)
    y_pred = y_true + rng.integers(-1, 2, size=size, dtype=np.int8)
    np.clip(y_pred, 0, K - 1, out=y_pred)
    return y_true, y_pred


def floor(y_true, y_pred):
    return np.bincount(y_true.astype(np.intp) * K + y_pred, minlength=K * K)


def bench_chunks(n, repeat):
    blocks = [block_labels(seed, BLOCK) for seed in range(n // BLOCK)]
    labels = list(range(K))

    def chunked():
        confusion = sum(
            OrdinalConfusion.from_predictions(t, p, labels=labels) for t, p in blocks
        )
        return confusion.score(mean_absolute_error), confusion.score(cem_score)

    floor_time = best_time(lambda: [floor(t, p) for t, p in blocks], repeat)
    chunk_time = best_time(chunked, repeat)
    print(f"chunks, n = {len(blocks) * BLOCK:.1e} int8 labels in blocks of 2**20:")
    print(f"  sum of OrdinalConfusion + macro MAE + CEM-ORD: {chunk_time / floor_time:6.2f}x "
          "the per-block bincount floor")


def bench_dask(n, n_scores, repeat):
    import dask
    import dask.array as da
    from distributed import Client, LocalCluster

    n_blocks = n // BLOCK

    def labels_array(which):
        blocks = [
            da.from_delayed(dask.delayed(lambda s: block_labels(s, BLOCK)[which])(seed),
                            shape=(BLOCK,), dtype=np.int8)
            for seed in range(n_blocks)
        ]
        return da.concatenate(blocks)

    y_true, y_pred = labels_array(0), labels_array(1)
    one_true, one_pred = block_labels(0, BLOCK)
    block_floor = best_time(lambda: floor(one_true, one_pred), repeat) * n_blocks
    # What any blockwise computation on generated data does at least, on one core.
    made_floor = best_time(lambda: floor(*block_labels(0, BLOCK)), repeat) * n_blocks
    with LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster):
        print(f"Dask, n = {n_blocks * BLOCK:.1e} int8 labels generated blockwise, "
              "2 worker processes:")
        for name, measure in [("macro MAE", mean_absolute_error), ("CEM-ORD", cem_score)]:
            for given in (True, False):
                kwargs = {"labels": list(range(K))} if given else {}
                seconds = best_time(lambda: measure(y_true, y_pred, **kwargs), repeat)
                how = "labels=" if given else "class set by an extra pass"
                print(f"  {name:<10s} ({how:<27s}): {seconds / block_floor:6.2f}x the "
                      f"per-block floors, {seconds / made_floor:5.2f}x generation + floors "
                      "(one core)")
        rng = np.random.default_rng(0)
        scores_true = rng.integers(K, size=n_scores)
        scores = scores_true + rng.normal(size=n_scores)
        in_memory = best_time(lambda: vus_score(scores_true, scores), repeat)
        dask_true = da.from_array(scores_true, chunks=BLOCK).persist()
        dask_scores = da.from_array(scores, chunks=BLOCK).persist()
        through_dask = best_time(
            lambda: vus_score(dask_true, dask_scores, labels=list(range(K))), repeat
        )
        print(f"  exact VUS of {n_scores:.0e} continuous scores through Dask: "
              f"{through_dask / in_memory:6.2f}x in-memory vus_score (one table column per "
              "distinct score: the merged table is K x n)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        bench_chunks(2**22, 3)
        bench_dask(2**23, 10**6, 2)
    else:
        bench_chunks(2**26, 3)
        bench_dask(2**27, 10**7, 2)


if __name__ == "__main__":
    main()
