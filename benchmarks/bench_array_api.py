"""Array API inputs: macro MAE, quadratic kappa, CEM and VUS on Array API arrays.

Under ``sklearn.set_config(array_api_dispatch=True)``, each measure on the same items
as NumPy arrays (dispatch off, the baseline timed in the same run) and as:

- array-api-strict arrays on its CPU device (target: <= 1.5x NumPy; they are read by
  NumPy through DLPack, in place);
- array-api-strict arrays on its simulated second device, which refuses conversion to
  NumPy: the namespace's own sort compresses the items there (the path a GPU without
  ``bincount`` would take); on ``--second-device-n`` items (default 1e6), for the
  record (array-api-strict wraps NumPy one call at a time: no target);
- PyTorch CPU tensors where PyTorch is installed; CUDA tensors with ``--device cuda``
  (e.g. ``--device cuda --n 1e8``) against NumPy on the host.

It prints the machine it ran on (CPU, GPU, versions, load). Self-contained: run it from
a checkout, ``python benchmarks/bench_array_api.py [--n 1e7] [--device cuda]``; the
package is imported from the checkout when it is not installed.
"""

import argparse
import os
import platform
import sys
import time
from pathlib import Path

# scikit-learn dispatches only when SciPy's own Array API support is on, read at import.
os.environ.setdefault("SCIPY_ARRAY_API", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from bench_metrics import best_time  # noqa: E402  (one timing rule for every benchmark)

from sklearn_ordinal.metrics import (  # noqa: E402
    cem_score,
    macro_mean_absolute_error,
    vus_score,
    weighted_kappa_score,
)

N_CLASSES = 5
TARGET_RATIO = 1.5


def quadratic_kappa(y_true, y_pred):
    return weighted_kappa_score(y_true, y_pred, weights="quadratic")


MEASURES = {
    "macro MAE": (macro_mean_absolute_error, "labels"),
    "quadratic kappa": (quadratic_kappa, "labels"),
    "CEM": (cem_score, "labels"),
    "VUS": (vus_score, "scores"),
}


def data(n, seed=0):
    """Labels of 5 classes, predictions right 60% of the time, scores with ties."""
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, N_CLASSES, n)
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, N_CLASSES, n))
    y_score = y_true + rng.normal(size=n)
    return y_true, y_pred, y_score


def machine(torch):
    lines = [
        f"machine: {platform.node()} {platform.machine()}, {platform.processor() or '?'}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}",
        f"numpy {np.__version__}, scikit-learn {sklearn.__version__}",
    ]
    try:
        import array_api_strict

        lines.append(f"array-api-strict {array_api_strict.__version__}")
    except ImportError:
        lines.append("array-api-strict: not installed")
    if torch is None:
        lines.append("torch: not installed")
    else:
        lines.append(f"torch {torch.__version__}")
        if torch.cuda.is_available():
            lines.append(f"GPU: {torch.cuda.get_device_name(0)}")
    if hasattr(os, "getloadavg"):
        lines.append("load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    return lines


def timings(arrays, convert, repeat, sync=lambda: None):
    """``({measure: seconds}, {measure: NumPy seconds})``: each measure on
    ``convert(array)`` under dispatch and on the NumPy arrays without, the two runs
    alternating so that the machine's load falls on both alike."""
    converted = [convert(a) for a in arrays]
    found, baseline = {}, {}
    for name, (measure, reads) in MEASURES.items():
        column = 1 if reads == "labels" else 2
        ours = (converted[0], converted[column])
        theirs = (arrays[0], arrays[column])

        def on_device():
            with sklearn.config_context(array_api_dispatch=True):
                measure(*ours)
                sync()

        on_device()  # warm up (a GPU's first call loads its kernels)
        found[name], baseline[name] = np.inf, np.inf
        for _ in range(repeat):
            found[name] = min(found[name], best_time(on_device, 1))
            baseline[name] = min(baseline[name], best_time(lambda: measure(*theirs), 1))
    return found, baseline


def check_equal(arrays, convert):
    """Each measure's value on the converted arrays equals NumPy's to 1e-12."""
    y_true, y_pred, y_score = arrays
    converted = [convert(a) for a in arrays]
    for name, (measure, reads) in MEASURES.items():
        expected = measure(y_true, y_pred if reads == "labels" else y_score)
        with sklearn.config_context(array_api_dispatch=True):
            found = measure(converted[0], converted[1] if reads == "labels" else converted[2])
        assert abs(found - expected) <= 1e-12 * max(1.0, abs(expected)), (name, found, expected)


def report(title, timed, target=None):
    found, baseline = timed
    print(title)
    for name, seconds in found.items():
        ratio = seconds / baseline[name]
        verdict = ""
        if target is not None:
            verdict = "ok" if ratio <= target else f"MISSES target <= {target}x"
        print(f"  {name:<16s} {seconds * 1e3:10.1f} ms  NumPy {baseline[name] * 1e3:10.1f} ms"
              f"  ratio {ratio:6.2f}x  {verdict}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e7, help="items (default 1e7)")
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"],
                        help="cuda: PyTorch CUDA tensors against NumPy on the host")
    parser.add_argument("--second-device-n", type=float, default=1e6,
                        help="items for array-api-strict's second device (0: skip)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError:
        torch = None
    print("\n".join(machine(torch)))
    n = int(args.n)
    arrays = data(n)
    print(f"{n:.0e} items, {N_CLASSES} classes; best of {args.repeat}; ratio = Array API "
          "path / NumPy path, the two timed alternately in this run")

    if args.device == "cuda":
        if torch is None or not torch.cuda.is_available():
            sys.exit("--device cuda needs PyTorch with a CUDA GPU")
        convert = lambda a: torch.asarray(a, device="cuda")  # noqa: E731
        check_equal(data(10**5, seed=1), convert)
        report("PyTorch CUDA tensors (the items stay on the GPU; cells cross):",
               timings(arrays, convert, args.repeat, torch.cuda.synchronize))
        return

    import array_api_strict as xp

    cpu, second = xp.__array_namespace_info__().devices()[:2]
    convert = lambda a: xp.asarray(a, device=cpu)  # noqa: E731
    check_equal(data(10**4, seed=1), convert)
    report("array-api-strict, CPU device (read in place through DLPack):",
           timings(arrays, convert, args.repeat), TARGET_RATIO)
    if torch is not None:
        convert = lambda a: torch.asarray(a)  # noqa: E731
        check_equal(data(10**4, seed=1), convert)
        report("PyTorch CPU tensors:", timings(arrays, convert, args.repeat), TARGET_RATIO)
    else:
        print("PyTorch CPU tensors: skipped (PyTorch not installed)")
    if args.second_device_n:
        m = int(args.second_device_n)
        small = tuple(a[:m] for a in arrays)
        convert = lambda a: xp.asarray(a, device=second)  # noqa: E731
        check_equal(data(10**4, seed=1), convert)
        report(f"array-api-strict, second device ({m:.0e} items; sorted and compressed "
               "there, no bincount in the standard):",
               timings(small, convert, 1))
    if hasattr(os, "getloadavg"):
        print("load average after: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
