"""Speed and memory of turning labels into the confusion matrix, per input kind.

Every label measure, scorer call and chunk goes through
:meth:`OrdinalConfusion.from_predictions` (``ordinal_confusion``). Each input kind
is timed against its floor, the least work any implementation must do, timed in the
same run (best of several repeats, the two called in turn so that a load spike hits
both alike):

- integer labels and ordered Categoricals: ``np.bincount(codes_true * K +
  codes_pred, minlength=K * K)`` on the integer codes the labels stand for (the
  labels themselves, or the Categorical's codes);
- float-typed integer labels: the same after casting both arrays to int64;
- strings: hashing both arrays (``pd.factorize``), then the bincount of the codes;
- weighted: the same with ``weights=``, one weighted bincount.

Peak memory is what ``tracemalloc`` (which NumPy reports to) sees allocated above
the inputs during one call, as a multiple of the inputs' own size.

Run: ``python benchmarks/bench_labels.py`` (``--quick`` for 10**6 only; ``--big``
adds one 10**8 run of int8 labels).
"""

import argparse

import numpy as np
import pandas as pd

from bench_metrics import best_times_alternating, peak_memory  # one rule for every benchmark
from sklearn_ordinal.metrics import OrdinalConfusion

K = 5
NAMES = np.array(["awful", "poor", "fair", "good", "great"])
TARGET = 1.5


def codes(n, rng):
    """Imbalanced class codes with predictions near the truth."""
    p = np.array([0.04, 0.07, 0.09, 0.35, 0.45])
    true = rng.choice(K, size=n, p=p).astype(np.int8)
    pred = np.clip(true + rng.integers(-1, 2, size=n), 0, K - 1).astype(np.int8)
    return true, pred


def int_floor(true, pred, weights=None):
    return np.bincount(true * K + pred, weights=weights, minlength=K * K)


def cases(n, rng, kinds):
    """``(name, inputs, kwargs, floor)`` for every input kind asked for."""
    true, pred = codes(n, rng)
    weights = rng.uniform(0.5, 2.0, size=n)
    labels = list(range(K))
    for dtype in (np.int64, np.int32, np.int8):
        if "int" not in kinds:
            break
        t, p = true.astype(dtype), pred.astype(dtype)
        name = np.dtype(dtype).name
        floor = (lambda t=t, p=p: int_floor(t, p))
        yield name, (t, p), {}, floor
        yield name + " labels=", (t, p), {"labels": labels}, floor
        if dtype is np.int64:
            yield (name + " weighted", (t, p), {"sample_weight": weights},
                   lambda t=t, p=p: int_floor(t, p, weights))
            yield (name + " weighted labels=", (t, p),
                   {"labels": labels, "sample_weight": weights},
                   lambda t=t, p=p: int_floor(t, p, weights))
    if "float" in kinds:
        t, p = true.astype(np.float64), pred.astype(np.float64)
        floor = (lambda: int_floor(t.astype(np.int64), p.astype(np.int64)))
        yield "float64", (t, p), {}, floor
        yield "float64 labels=", (t, p), {"labels": labels}, floor
    if "category" in kinds:
        dtype = pd.CategoricalDtype(list(NAMES), ordered=True)
        t = pd.Series(pd.Categorical.from_codes(true, dtype=dtype))
        p = pd.Series(pd.Categorical.from_codes(pred, dtype=dtype))
        ct, cp = t.cat.codes.to_numpy(), p.cat.codes.to_numpy()
        floor = (lambda: int_floor(ct, cp))
        yield "ordered Categorical", (t, p), {}, floor
        yield "ordered Categorical labels=", (t, p), {"labels": list(NAMES)}, floor
        yield ("ordered Categorical weighted", (t, p), {"sample_weight": weights},
               lambda: int_floor(ct, cp, weights))
    if "str" in kinds:
        t, p = NAMES[true], NAMES[pred]
        floor = (lambda t=t, p=p: int_floor(pd.factorize(t)[0], pd.factorize(p)[0]))
        yield "str (<U5) labels=", (t, p), {"labels": list(NAMES)}, floor
        t, p = t.astype(object), p.astype(object)
        floor = (lambda t=t, p=p: int_floor(pd.factorize(t)[0], pd.factorize(p)[0]))
        yield "str (object) labels=", (t, p), {"labels": list(NAMES)}, floor


def input_bytes(arrays):
    return sum(np.asarray(a.cat.codes if hasattr(a, "cat") else a).nbytes for a in arrays)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10**6 items only")
    parser.add_argument("--big", action="store_true", help="add one 10**8 int8 run")
    parser.add_argument("--sizes", type=float, nargs="*", help="override the sizes")
    parser.add_argument("--kinds", nargs="*", default=["int", "float", "category", "str"])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes] if args.sizes else (
        [10**6] if args.quick else [10**6, 10**7])
    rng = np.random.default_rng(0)
    runs = [(n, args.kinds) for n in sizes]
    if args.big:
        runs.append((10**8, ["int8"]))
    print(f"{'n':>6s}  {'input kind':<34s} {'ms':>8s} {'floor ms':>9s} {'ratio':>7s} "
          f"{'peak MB':>8s} {'x inputs':>8s}")
    for n, kinds in runs:
        for name, inputs, kwargs, floor in cases(n, rng, ["int"] if kinds == ["int8"]
                                                  else kinds):
            if kinds == ["int8"] and not name.startswith("int8"):
                continue
            repeat = max(1, args.repeat if n <= 10**7 else 2)
            call = (lambda inputs=inputs, kwargs=kwargs:
                    OrdinalConfusion.from_predictions(*inputs, **kwargs))
            ours, base = best_times_alternating([call, floor], repeat)
            peak = peak_memory(call)
            size = input_bytes(inputs) + (
                kwargs["sample_weight"].nbytes if "sample_weight" in kwargs else 0)
            ratio = ours / base
            verdict = "" if ratio <= TARGET else "  > target"
            print(f"{n:6.0e}  {name:<34s} {ours * 1e3:8.1f} {base * 1e3:9.1f} {ratio:6.2f}x "
                  f"{peak / 2**20:8.1f} {peak / size:7.2f}x{verdict}", flush=True)


if __name__ == "__main__":
    main()
