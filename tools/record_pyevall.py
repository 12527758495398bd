"""Record PyEvALL's numbers on the shipped example, for tests/test_pyevall_agreement.py.

    python tools/record_pyevall.py --pyevall-src DIR [--cases-dir DIR]

PyEvALL (https://github.com/UNEDLENAR/PyEvALL) is not a dependency of this package,
not even of its tests: this script runs it once and prints the numbers, which the
test keeps as recorded values. Nothing of PyEvALL is copied here; ``--pyevall-src``
is a checkout of its repository (the folder holding its ``pyevall`` package), run in
an environment with PyEvALL's own requirements (``pip install jsbeautifier
jsonschema numpy "pandas<3" tabulate``), for instance a scratch virtual environment
outside this repository.

The cases (``make_cases``; the test writes the same files):

- ``example``: the shipped files ``gold.tsv``, ``logistic.tsv`` and ``ridge.tsv``
  (TSV, text grades, 5 test cases: the folds);
- ``txt_missing``: the same items as PyEvALL's own kind of file, ``.txt`` files
  holding a JSON list of records, where ``logistic.txt`` lacks every 7th item and
  ``ridge.txt`` every 11th: PyEvALL counts a gold item without a prediction as wrong.

For each case and system it prints PyEvALL's Accuracy, Precision, Recall, FMeasure
and Kappa: the mean over the test cases (PyEvALL's headline) and each test case's
value, as a Python literal.
"""

import argparse
import json
import pprint
import sys
import tempfile
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "sklearn_ordinal" / "evaluation" / "data"
SYSTEMS = ("logistic", "ridge")
METRICS = ("Accuracy", "Precision", "Recall", "FMeasure", "Kappa")
# Every how many items a system's .txt file lacks one (the first of each run is kept).
DROP_EVERY = {"logistic": 7, "ridge": 11}


def make_cases(folder):
    """Write the cases' files under ``folder``; ``{case: (gold, {system: path})}``."""
    folder = Path(folder)
    cases = {}
    example = folder / "example"
    example.mkdir(parents=True, exist_ok=True)
    for name in ("gold", *SYSTEMS):
        (example / f"{name}.tsv").write_bytes((DATA / f"{name}.tsv").read_bytes())
    cases["example"] = (example / "gold.tsv",
                        {name: example / f"{name}.tsv" for name in SYSTEMS})
    missing = folder / "txt_missing"
    missing.mkdir(parents=True, exist_ok=True)

    def records(table):
        # PyEvALL's own files: every field a string.
        return [{"test_case": str(row.test_case), "id": str(row.id), "value": str(row.value)}
                for row in table.itertuples()]

    gold = pd.read_csv(DATA / "gold.tsv", sep="\t", dtype=str)
    (missing / "gold.txt").write_text(json.dumps(records(gold), indent=1), encoding="utf-8")
    paths = {}
    for name in SYSTEMS:
        table = pd.read_csv(DATA / f"{name}.tsv", sep="\t", dtype=str)
        kept = table[[position % DROP_EVERY[name] != DROP_EVERY[name] - 1
                      for position in range(len(table))]]
        paths[name] = missing / f"{name}.txt"
        paths[name].write_text(json.dumps(records(kept), indent=1), encoding="utf-8")
    cases["txt_missing"] = (missing / "gold.txt", paths)
    return cases


def run_pyevall(gold, prediction):
    """PyEvALL's results: ``{metric: {"mean": float, "test_cases": {case: float}}}``."""
    from pyevall.evaluation import PyEvALLEvaluation
    from pyevall.utils.utils import PyEvALLUtils

    params = {PyEvALLUtils.PARAM_REPORT: PyEvALLUtils.PARAM_OPTION_REPORT_EMBEDDED,
              PyEvALLUtils.PARAM_LOG_LEVEL: PyEvALLUtils.PARAM_OPTION_LOG_LEVEL_NONE}
    report = PyEvALLEvaluation().evaluate(str(prediction), str(gold), list(METRICS),
                                          **params).report
    results = {}
    for metric in METRICS:
        section = report["metrics"][metric]["results"]
        results[metric] = {
            "mean": float(section["average_per_test_case"]),
            "test_cases": {case["name"]: float(case["average"])
                           for case in section["test_cases"]},
        }
    return results, report.get("files")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyevall-src", type=Path, required=True,
                        help="a checkout of PyEvALL's repository")
    parser.add_argument("--cases-dir", type=Path, help="where to write the cases' files "
                        "(default: a temporary folder)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.pyevall_src.resolve()))
    folder = args.cases_dir or Path(tempfile.mkdtemp())
    recorded, files = {}, {}
    for case, (gold, systems) in make_cases(folder).items():
        for name, path in systems.items():
            recorded[case, name], files[case, name] = run_pyevall(gold, path)
    print("# PyEvALL's file messages (formats detected, warnings):")
    pprint.pprint(files, width=100)
    print("PYEVALL = \\")
    pprint.pprint(recorded, width=100)


if __name__ == "__main__":
    main()
