"""Scale: measures of data in chunks and of Dask collections, as ratios in one run.

Each figure is a ratio to a floor timed in the same run, never an absolute time.
The floor of any confusion matrix is ``np.bincount(codes_true * K + codes_pred,
minlength=K * K)``; of data in blocks, the sum over the blocks of that bincount.

- chunks: ``sum(OrdinalConfusion.from_predictions(chunk, labels=...))`` then
  ``score`` (macro MAE and CEM-ORD), against the per-chunk floors on the same
  chunks, in memory;
- Dask: the same measures on int8 labels generated blockwise (both arrays of a
  block by one task, never materialised in the client) on a ``LocalCluster`` of two
  single-threaded worker processes, against three floors: (a) the sum of the
  per-block bincounts, timed in this process on one core, generation excluded (the
  issue's floor); (b) generating each block and its bincount in a plain NumPy loop,
  one core; (c) the same Dask graph (same generation, same blocks, same tree of
  additions) with the bincount in place of the measure, which is what any Dask
  computation of these data does at least. With ``labels=`` and without (then each
  block counts its own classes, merged when added: still one pass). The peak
  resident memory of the worker processes and of this client process is sampled;
- exact VUS of continuous scores through Dask against in-memory ``vus_score`` on
  the same data, with the client's peak memory: the merged score table has one
  cell per distinct score of each class, 16 bytes (score and weight).

Run: ``python benchmarks/bench_scale.py`` (``--quick`` for small sizes; ``--labels``
and ``--scores`` set the sizes, e.g. ``--labels 1e9 --scores 1e8``).
"""

import argparse
import os
import threading
import time

import numpy as np
import psutil

from sklearn_ordinal.metrics import OrdinalConfusion, cem_score, macro_mean_absolute_error, vus_score
from bench_metrics import best_time  # one timing rule for every benchmark

K = 5
CHUNK = 2**20
# Dask blocks: large enough that the per-task cost of the scheduler vanishes, small
# enough that a worker holds a few of them (int8: 16 MiB a block, 128 MiB as indices).
BLOCK = 2**24
SCORE_BLOCK = 2**22


def block_labels(seed, size):
    """One block of int8 labels and predictions near them, as rows of one array."""
    rng = np.random.default_rng(seed)
    pair = np.empty((2, size), dtype=np.int8)
    pair[0] = rng.integers(0, K, size=size, dtype=np.int8)
    np.add(pair[0], rng.integers(-1, 2, size=size, dtype=np.int8), out=pair[1])
    np.clip(pair[1], 0, K - 1, out=pair[1])
    return pair


def floor(y_true, y_pred):
    return np.bincount(y_true.astype(np.intp) * K + y_pred, minlength=K * K)


def bench_chunks(n, repeat):
    blocks = [block_labels(seed, CHUNK) for seed in range(n // CHUNK)]
    labels = list(range(K))

    def chunked():
        confusion = sum(
            OrdinalConfusion.from_predictions(t, p, labels=labels) for t, p in blocks
        )
        return confusion.score(macro_mean_absolute_error), confusion.score(cem_score)

    floor_time = best_time(lambda: [floor(t, p) for t, p in blocks], repeat)
    chunk_time = best_time(chunked, repeat)
    print(f"chunks, n = {len(blocks) * CHUNK:.2e} int8 labels in chunks of 2**20:")
    print(f"  sum of OrdinalConfusion + macro MAE + CEM-ORD: {chunk_time / floor_time:6.2f}x "
          "the per-chunk bincount floors")


class PeakMemory:
    """Peak resident memory of some processes, sampled every 20 ms in a thread."""

    def __init__(self, pids):
        self.processes = [psutil.Process(pid) for pid in pids]

    def __enter__(self):
        self.start = [p.memory_info().rss for p in self.processes]
        self.peak = list(self.start)
        self.running = True
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()
        return self

    def _sample(self):
        while self.running:
            for i, p in enumerate(self.processes):
                self.peak[i] = max(self.peak[i], p.memory_info().rss)
            time.sleep(0.02)

    def __exit__(self, *exc):
        self.running = False
        self.thread.join()

    def __str__(self):
        return " + ".join(f"{peak / 2**20:.0f} MiB (+{(peak - start) / 2**20:.0f})"
                          for peak, start in zip(self.peak, self.start))


def bench_dask(n_labels, n_scores, repeat):
    import dask.array as da
    from distributed import Client, LocalCluster

    from sklearn_ordinal._dask import _per_block, _tree_sum

    n_blocks = max(1, n_labels // BLOCK)
    seeds = da.arange(n_blocks, chunks=1)
    pairs = seeds.map_blocks(lambda seed: block_labels(int(seed[0]), BLOCK), new_axis=0,
                             chunks=((2,), (BLOCK,) * n_blocks), dtype=np.int8)
    y_true, y_pred = pairs[0], pairs[1]
    one = block_labels(0, BLOCK)
    bincounts = best_time(lambda: floor(*one), repeat) * n_blocks
    made = best_time(lambda: floor(*block_labels(0, BLOCK)), repeat) * n_blocks
    labels = list(range(K))
    with LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        workers = list(client.run(os.getpid).values())
        client.run(lambda: __import__("sklearn_ordinal.metrics"))

        def dask_floor():
            return _tree_sum(_per_block(lambda t, p: floor(t, p), [y_true, y_pred]), sum)

        assert (dask_floor() == floor(y_true.compute(), y_pred.compute())).all() \
            if n_labels <= 2**24 else True
        graph = best_time(dask_floor, repeat)
        print(f"Dask, n = {n_blocks * BLOCK:.2e} int8 labels generated blockwise in "
              f"{n_blocks} blocks of 2**{BLOCK.bit_length() - 1}, 2 worker processes; "
              "floors: (a) per-block bincounts, (b) generation + bincounts, one core, "
              "(c) the same Dask graph with bincounts:")
        print(f"  (c) / (a) = {graph / bincounts:.2f}, (b) / (a) = {made / bincounts:.2f}")
        for name, measure in [("macro MAE", macro_mean_absolute_error), ("CEM-ORD", cem_score)]:
            for given in (True, False):
                kwargs = {"labels": labels} if given else {}
                with PeakMemory(workers) as peak:
                    seconds = best_time(lambda: measure(y_true, y_pred, **kwargs), repeat)
                how = "labels=" if given else "classes found blockwise"
                print(f"  {name:<9s} ({how:<23s}): {seconds / bincounts:5.2f}x (a), "
                      f"{seconds / made:5.2f}x (b), {seconds / graph:5.2f}x (c); "
                      f"peak worker RSS {peak}")
    bench_dask_vus(n_scores)


def score_block(seed, size):
    """One block of int8 labels and continuous scores near them, as rows of one array."""
    rng = np.random.default_rng(10**6 + seed)
    pair = np.empty((2, size))
    pair[0] = rng.integers(0, K, size=size)
    np.add(pair[0], rng.normal(size=size), out=pair[1])
    return pair


def bench_dask_vus(n_scores):
    import gc

    import dask.array as da
    from distributed import Client, LocalCluster

    n_blocks = max(1, n_scores // SCORE_BLOCK)
    labels = list(range(K))
    client_process = [os.getpid()]
    # In memory first, then freed: the two never hold their tables at once.
    blocks = [score_block(seed, SCORE_BLOCK) for seed in range(n_blocks)]
    scores_true = np.concatenate([pair[0] for pair in blocks]).astype(np.int8)
    scores = np.concatenate([pair[1] for pair in blocks])
    del blocks
    with PeakMemory(client_process) as in_memory_peak:
        start = time.perf_counter()
        expected = vus_score(scores_true, scores, labels=labels)
        in_memory = time.perf_counter() - start
    del scores_true, scores
    gc.collect()
    with LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        workers = list(client.run(os.getpid).values())
        client.run(lambda: __import__("sklearn_ordinal.metrics"))
        seeds = da.arange(n_blocks, chunks=1)
        pairs = seeds.map_blocks(lambda seed: score_block(int(seed[0]), SCORE_BLOCK),
                                 new_axis=0, chunks=((2,), (SCORE_BLOCK,) * n_blocks),
                                 dtype=np.float64)
        dask_true, dask_scores = pairs[0].astype(np.int8).persist(), pairs[1].persist()
        with PeakMemory(client_process + workers) as dask_peak:
            start = time.perf_counter()
            got = vus_score(dask_true, dask_scores, labels=labels)
            through_dask = time.perf_counter() - start
    assert got == expected, (got, expected)
    n = n_blocks * SCORE_BLOCK
    print(f"exact VUS of {n:.2e} continuous scores (all distinct) through Dask, "
          f"{n_blocks} blocks of 2**{SCORE_BLOCK.bit_length() - 1} (persisted): "
          f"{through_dask / in_memory:.2f}x in-memory vus_score (one run each, same value)")
    print(f"  peak RSS: in memory {in_memory_peak}; through Dask, client + 2 workers "
          f"{dask_peak}; the merged table alone: {16 * n / 2**20:.0f} MiB "
          "(a score and a weight of 8 bytes per distinct score of each class)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--labels", type=float, default=2**30)
    parser.add_argument("--scores", type=float, default=1e8)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    if args.quick:
        bench_chunks(2**22, 3)
        bench_dask(2**25, 10**6, 2)
    else:
        bench_chunks(2**26, 3)
        bench_dask(int(args.labels), int(args.scores), args.repeat)


if __name__ == "__main__":
    main()
