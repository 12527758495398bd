"""Regenerate the example files that ship in sklearn_ordinal/evaluation/data/.

    python tools/make_evaluation_example.py [--output-dir DIR]

The task is the demo's (``python -m sklearn_ordinal``): scikit-learn's diabetes data,
the disease progression cut into 5 ordered grades with TripAdvisor-15763's class
sizes (``diabetes_grades``). Two systems predict each patient's grade out of fold,
on the same 5 stratified folds:

- ``logistic.tsv``: a scaled, class-balanced logistic regression;
- ``ridge.tsv``: a scaled ridge regression of the grade, rounded to the nearest
  grade (1 to 5).

``gold.tsv`` holds the true grades. Every file is a TSV table in PyEvALL's format
(columns ``test_case``, ``id``, ``value``): the fold is the test case and the id is
the patient's row in ``sklearn.datasets.load_diabetes``. The grades are written as
words (``very_low`` ... ``very_high``, in ``GRADES``), not numbers: PyEvALL reads a
file of numeric values as a ranking and refuses Accuracy, F-measure and Kappa on it,
while text values are mono-label classification. Text has no order of its own, so
the order is given on the command line:
``--labels very_low,low,moderate,high,very_high``. The files are exactly the same on
every run (fixed folds, deterministic solvers); tests/test_evaluation_files.py
checks that the shipped ones are what this script writes.
"""

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_ordinal.__main__ import diabetes_grades

DATA = Path(__file__).resolve().parent.parent / "sklearn_ordinal" / "evaluation" / "data"

# The 5 grades, lowest first, as the files write them.
GRADES = ("very_low", "low", "moderate", "high", "very_high")

SYSTEMS = {
    "logistic": make_pipeline(
        StandardScaler(), LogisticRegression(class_weight="balanced", max_iter=1000)
    ),
    "ridge": make_pipeline(StandardScaler(), Ridge(alpha=1.0)),
}


def make_example():
    """The gold table and each system's table, in PyEvALL's columns."""
    X, y = diabetes_grades()
    folds = np.empty(len(y), dtype=object)
    predictions = {name: np.empty(len(y), dtype=np.int64) for name in SYSTEMS}
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    for number, (train, test) in enumerate(cv.split(X, y), start=1):
        folds[test] = f"fold{number}"
        for name, model in SYSTEMS.items():
            predicted = model.fit(X[train], y[train]).predict(X[test])
            # A regressor's grade: the nearest of the 5 grades.
            predictions[name][test] = np.clip(np.rint(predicted), 1, 5).astype(np.int64)

    def table(values):
        words = np.asarray(GRADES, dtype=object)[np.asarray(values) - 1]
        return pd.DataFrame({"test_case": folds, "id": np.arange(len(y)), "value": words})

    return {"gold": table(y), **{name: table(values) for name, values in predictions.items()}}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output-dir", type=Path, default=DATA,
                        help=f"where to write the files (default {DATA})")
    output_dir = parser.parse_args(argv).output_dir
    output_dir.mkdir(parents=True, exist_ok=True)
    for name, table in make_example().items():
        path = output_dir / f"{name}.tsv"
        table.to_csv(path, sep="\t", index=False, lineterminator="\n")
        print(f"{path}: {len(table)} items")


if __name__ == "__main__":
    main()
