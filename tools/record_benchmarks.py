"""Run the benchmark scripts and record their output for the documentation.

    python tools/record_benchmarks.py [NAME ...]

Each script of ``benchmarks/`` listed in ``RUNS`` runs with its arguments, from
``benchmarks/``, and its standard output and error go to
``benchmarks/results/NAME.txt`` under a header that says the command, the date, the
machine's cores and the versions. ``docs/benchmarks.rst`` includes these files
verbatim, and ``tests/test_benchmarks_page.py`` checks that every performance
figure the pages state is in one of them: a number in the docs is a number a script
printed, with the machine it ran on.

The repository's own folder is written as ``.`` in the output, so that no page shows
the path of the machine the benchmarks ran on.
"""

import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
RESULTS = BENCHMARKS / "results"

# name: arguments. Sizes chosen to finish in minutes on a shared 2-core machine.
RUNS = {
    "bench_metrics": [],
    "bench_intervals": ["--skip-coverage"],
    "bench_trivial": [],
    "bench_thresholds": [],
    "bench_evaluate": [],
    "bench_across_datasets": [],
    "bench_quantification": [],
    "bench_agreement": [],
    "bench_labels": ["--quick"],
    "bench_scale": ["--labels", "1.3e8", "--scores", "1e7"],
    "bench_array_api": [],
    # Needs PyTorch and a CUDA GPU: recorded on the GPU machine a session is lent.
    "bench_array_api_cuda": ["--device", "cuda", "--n", "1e8", "--repeat", "2"],
    "reproduce_waegeman_figures": [],
    "reproduce_cem_table3": [],
    # A second run of one script, under a name of its own: issue 29's table.
    "bench_intervals_issue_table": ["--issue-table", "--skip-speed", "--skip-coverage"],
    # And issue 39's: the ranking measures' intervals and the reports.
    "bench_intervals_issue_39": ["--issue-39"],
    # About 30 minutes on 2 cores.
    "bench_ranking_coverage": [],
    # The quantification intervals' coverage by the number of groups (#46); the
    # recorded file adds a second run at 80 and 100 groups (--reps 1000).
    "bench_quantification_groups": ["--reps", "2000", "--groups", "10", "15", "20", "25",
                                    "30", "35", "40", "50", "60"],
    # Issue 48: the agreement coefficients against irrCAC (a few minutes), and the
    # coverage of their intervals (about 25 minutes on a loaded machine).
    "bench_agreement_issue_48": ["--coefficients-only"],
    "agreement_coverage": ["--replications", "1000", "--resamples", "1999"],
    # Issue 49: the CORP decomposition's speed, the consistency bands' coverage.
    "bench_calibration": [],
    "bench_calibration_intervals": ["--intervals"],
    # Issue 45's: the analytic intervals, the reports, U_pairs' memory.
    "bench_intervals_issue_45": ["--issue-45"],
    # And its command line's evaluate against the package's import.
    "bench_cli": ["--repeat", "7"],
    # About 60 minutes on 2 quiet cores (--jobs 16 on 16).
    "bench_interval_coverage": ["--jobs", "2"],
}

# The script of a results file whose name is not the script's.
SCRIPTS = {"bench_array_api_cuda": "bench_array_api",
           "bench_intervals_issue_table": "bench_intervals",
           "bench_intervals_issue_39": "bench_intervals",
           "bench_intervals_issue_45": "bench_intervals",
           "bench_agreement_issue_48": "bench_agreement",
           "bench_calibration_intervals": "bench_calibration"}


def script_of(name):
    """The benchmark script a results file ``name`` records."""
    return SCRIPTS.get(name, name)


def header(name, args):
    import numpy
    import scipy
    import sklearn

    command = " ".join(["python", f"benchmarks/{script_of(name)}.py", *args])
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"$ {command}\n# {now}; {os.cpu_count()} cores ({platform.machine()}), "
            f"load average {os.getloadavg()[0]:.1f}; Python {platform.python_version()}, "
            f"NumPy {numpy.__version__}, SciPy {scipy.__version__}, "
            f"scikit-learn {sklearn.__version__}\n")


def without_machine_paths(text):
    """The output with the repository's folder written as ``.``."""
    return text.replace(str(ROOT) + os.sep, "./").replace(str(ROOT), ".")


def record(name, args, output=None):
    """Run one script (or take its ``output``) and write its results file."""
    head = header(name, args)
    if output is None:
        environment = {**os.environ,
                       "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        done = subprocess.run([sys.executable, f"{script_of(name)}.py", *args], cwd=BENCHMARKS,
                              capture_output=True, text=True, env=environment, check=False)
        output = done.stdout + done.stderr
        if done.returncode:
            output += f"\n(exit status {done.returncode})\n"
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.txt"
    path.write_text(head + without_machine_paths(output), encoding="utf-8")
    return path


def main(argv):
    names = argv or list(RUNS)
    unknown = sorted(set(names) - set(RUNS))
    if unknown:
        print(f"unknown benchmark(s) {unknown}; known: {', '.join(RUNS)}", file=sys.stderr)
        return 2
    for name in names:
        print(f"{record(name, RUNS[name]).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
