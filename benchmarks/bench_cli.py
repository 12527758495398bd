"""The command line's ``evaluate`` against the package's import (issue 45).

Target: ``python -m sklearn_ordinal evaluate GOLD A B C`` on 3 systems x 500 labels
(integer grades 1-5, imbalanced, default measures and settings) takes at most 1.6x
the wall time of ``python -c "from sklearn_ordinal import evaluate"``, the import a
Python user pays before the same report. Both are timed in fresh processes,
interleaved, best of ``--repeat`` runs (the machine is shared: the best run is the
one least disturbed), in wall time and in CPU time (user + system: what the process
itself costs), with the load average written beside them.
``python -c "import sklearn_ordinal"`` (which imports nothing heavy) and
``python -c "import sklearn"`` are timed beside them for scale.

Then, in one fresh process, where the command's time goes: the import of
``sklearn_ordinal.__main__`` (what the command imports beyond the package: its
parser and the other commands), then the command's own parts, each the best of
``--repeat`` in-process runs, in CPU time: reading the files, ``evaluate()``
itself, and the report's formatting (``to_string``).

Run: ``python benchmarks/bench_cli.py`` (``--repeat``).
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

TARGET = 1.6

# In a fresh process: the import of the command line, then its parts, best of runs.
_PARTS = """\
import contextlib, io, sys, time
start = time.process_time()
from sklearn_ordinal.__main__ import main
imported = time.process_time() - start
from sklearn_ordinal.evaluation import evaluate, read_evaluation_files
arguments, repeat = {arguments!r}, {repeat}
gold, *predictions = arguments[1:]

def best(func):
    times = []
    for _ in range(repeat):
        start = time.process_time()
        result = func()
        times.append(time.process_time() - start)
    return min(times), result

def command():
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(arguments) == 0

start = time.process_time()
command()
first = time.process_time() - start
whole, _ = best(command)
reading, data = best(lambda: read_evaluation_files(gold, predictions))
scoring, report = best(lambda: evaluate(data.y_true, data.y_pred, groups=data.groups))
formatting, _ = best(report.to_string)
print(imported, first, whole, reading, scoring, formatting)
"""


def write_files(folder, n=500, seed=45):
    """A gold file and 3 systems' files of ``n`` integer grades 1-5 (PyEvALL's id and
    value columns), the systems of growing noise."""
    rng = np.random.default_rng(seed)
    y_true = rng.choice(5, size=n, p=[0.04, 0.07, 0.09, 0.35, 0.45]) + 1
    outputs = {"gold": y_true}
    for number, spread in enumerate((0.8, 1.0, 1.2)):
        noisy = np.rint(y_true + rng.normal(0, spread, n))
        outputs[f"system{number}"] = np.clip(noisy, 1, 5).astype(int)
    paths = []
    for name, values in outputs.items():
        path = Path(folder) / f"{name}.tsv"
        path.write_text("id\tvalue\n" + "".join(f"{i}\t{v}\n" for i, v in enumerate(values)))
        paths.append(str(path))
    return paths


def timed(command):
    """Wall and CPU seconds (user + system) of ``command`` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load average at the start: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as folder:
        files = write_files(folder)
        arguments = ["evaluate", *files]
        python = [sys.executable, "-c"]
        commands = {
            "import sklearn_ordinal": [*python, "import sklearn_ordinal"],
            "import sklearn": [*python, "import sklearn"],
            "from sklearn_ordinal import evaluate": [*python,
                                                     "from sklearn_ordinal import evaluate"],
            "python -m sklearn_ordinal evaluate": [sys.executable, "-m", "sklearn_ordinal",
                                                   *arguments],
        }
        times = {name: [] for name in commands}
        for _ in range(args.repeat):
            for name, command in commands.items():
                times[name].append(timed(command))
        # Best of the runs, wall and CPU time apart (the machine is shared: other
        # jobs inflate wall time, CPU time is what the process itself costs).
        best = {name: np.min(values, axis=0) for name, values in times.items()}
        base_wall, base_cpu = best["from sklearn_ordinal import evaluate"]
        print(f"Fresh processes, best of {args.repeat} (interleaved), as ratios to the "
              "package's import:")
        for name, (seconds, cpu) in best.items():
            print(f"  {name:<36s} wall {seconds:5.2f} s = {seconds / base_wall:4.2f}x; CPU "
                  f"{cpu:5.2f} s = {cpu / base_cpu:4.2f}x"
                  + (f"  (target <= {TARGET}x)" if name.startswith("python -m") else ""))
        out = subprocess.run(
            [sys.executable, "-c", _PARTS.format(arguments=arguments, repeat=args.repeat)],
            check=True, capture_output=True, text=True).stdout.split()
        imported, first, whole, reading, scoring, formatting = map(float, out[-6:])
        print(f"One process, CPU time: import of sklearn_ordinal.__main__ {imported:.2f} s; "
              f"the command "
              f"{first:.2f} s (first run), {whole:.2f} s (best of {args.repeat}), of which "
              f"reading the files {reading:.3f} s, evaluate() {scoring:.2f} s, to_string "
              f"{formatting:.3f} s")
    print(f"Load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
