"""Class probabilities in a prediction file: one ``proba_<class>`` column per class.

A system's file may give, beside (or instead of) its label column, its class
probabilities, the columns ``proba_<class>`` with ``<class>`` written as the class is
written in the files (``proba_3`` for the class 3, ``proba_very_low`` for
``"very_low"``). Each column is matched to one class of the class order, and every row
is checked as the ranked probability score checks ``predict_proba``'s rows: a wrong
cell is an error naming the file and the first bad row's id, never a number scored.
"""

import numpy as np
import pandas as pd

from ..metrics._probabilistic import _ROW_SUM_TOLERANCE
from ._text_numbers import text_to_numbers

PREFIX = "proba_"

# 1e-6, not Python's 1e-06.
_TOLERANCE = f"{_ROW_SUM_TOLERANCE:g}".replace("e-0", "e-")
_FIX = (
    "Every proba_ cell must be a number from 0 to 1 and each row must sum to 1 (within "
    f"{_TOLERANCE}), as predict_proba's rows do"
)


def _probability_columns(table):
    """The names of the table's ``proba_<class>`` columns, in the file's order."""
    return [column for column in table.columns
            if isinstance(column, str) and column.startswith(PREFIX)]


def _probability_classes(gold, labels, path):
    """The classes the ``proba_`` columns are matched to, in order.

    ``labels`` when given (as numbers when the gold labels are numbers: the command
    line gives them as text); else an ordered categorical's categories; else the gold
    labels' numbers in increasing order. Text classes have no order of their own.
    """
    numeric = pd.api.types.is_numeric_dtype(
        gold.cat.categories.dtype if isinstance(gold.dtype, pd.CategoricalDtype) else gold.dtype
    )
    if labels is not None:
        if not numeric:
            return np.asarray([str(label) for label in labels], dtype=object)
        numbers = pd.to_numeric(pd.Series(list(labels)), errors="coerce")
        if numbers.isna().any():
            raise ValueError(
                f"The gold labels are numbers, so the classes of labels= must be numbers too; "
                f"got {list(labels)[int(np.flatnonzero(numbers.isna())[0])]!r}."
            )
        return numbers.to_numpy()
    if isinstance(gold.dtype, pd.CategoricalDtype) and gold.cat.ordered:
        return np.asarray(gold.cat.categories)
    if numeric:
        return np.unique(gold.to_numpy())
    raise ValueError(
        f"{path} gives class probabilities (proba_ columns), which need the order of the "
        "text classes to be put in class order: give labels= (--labels LOW,...,HIGH, "
        "lowest class first)."
    )


def _column_of_each_class(columns, classes, path):
    """The ``proba_`` column of each class, in class order; an error for a class
    without its column and for a column of no class."""
    suffixes = pd.Series([column[len(PREFIX):] for column in columns], dtype=object)
    if classes.dtype.kind in "iuf":
        # proba_3 is the class 3 however the number is written (proba_3.0 too).
        found = pd.to_numeric(suffixes.str.strip(), errors="coerce").to_numpy()
    else:
        found = suffixes.to_numpy()
    position = pd.Index(classes).get_indexer(found)
    shown = ", ".join(f"{PREFIX}{label}" for label in classes.tolist())
    extra = [column for column, at in zip(columns, position) if at < 0]
    if extra:
        raise ValueError(
            f"{path}: the column(s) {', '.join(map(repr, extra))} name no class of the "
            f"class order {classes.tolist()}; give exactly one column per class ({shown}), "
            "or give every class in labels= (--labels) when the gold file lacks one."
        )
    counts = np.bincount(position, minlength=len(classes))
    if (counts > 1).any():
        twice = classes[counts > 1].tolist()
        raise ValueError(f"{path}: more than one proba_ column for the class(es) {twice}; "
                         f"give exactly one column per class ({shown}).")
    if (counts == 0).any():
        absent = [f"{PREFIX}{label}" for label in classes[counts == 0].tolist()]
        raise ValueError(
            f"{path}: no probability column for the class(es) "
            f"{classes[counts == 0].tolist()} ({', '.join(absent)}); give exactly one column "
            f"per class ({shown}), a probability of 0 included."
        )
    ordered = np.empty(len(classes), dtype=object)
    ordered[position] = columns
    return list(ordered)


def _read_probabilities(table, path, classes, keys):
    """The file's class probabilities, ``(n_rows, n_classes)`` in class order.

    ``keys``: each row's id (as the error messages quote it). A cell that is not a
    number, empty, infinite or negative, or a row that does not sum to 1 within
    1e-6 (the ranked probability score's own tolerance), is a ValueError naming the
    file, the first bad row's id and the fix.
    """
    columns = _column_of_each_class(_probability_columns(table), classes, path)
    cells = table[columns].reset_index(drop=True)
    values = np.column_stack([
        text_to_numbers(cells[column]) for column in columns
    ])
    empty = cells.isna().to_numpy().copy()
    # A cell written "NaN" (pandas' and NumPy's text for it) is as missing as an empty
    # one; only the few cells that did not read as numbers are looked at as text.
    rows, ks = np.nonzero(np.isnan(values) & ~empty)
    empty[rows, ks] = [str(cells.iat[row, k]).strip().lower() == "nan"
                       for row, k in zip(rows, ks)]
    not_number = ~empty & np.isnan(values)
    infinite = np.isinf(values)
    negative = values < 0
    with np.errstate(invalid="ignore"):
        sums = values.sum(axis=1)
    off = np.abs(sums - 1) > _ROW_SUM_TOLERANCE
    # One problem per row, the first that applies, in this order.
    problems = [
        (not_number, lambda row, k: f"{columns[k]} holds {cells.iat[row, k]!r}, not a number"),
        (empty, lambda row, k: f"{columns[k]} is missing (NaN or an empty cell)"),
        (infinite, lambda row, k: f"{columns[k]} is {float(values[row, k])!r}"),
        (negative, lambda row, k: f"{columns[k]} is negative ({float(values[row, k])!r})"),
    ]
    bad = off | np.any(not_number | empty | infinite | negative, axis=1)
    if not bad.any():
        return values
    row = int(np.argmax(bad))
    fix = f"{_FIX}."
    for mask, say in problems:
        if mask[row].any():
            problem = say(row, int(np.argmax(mask[row])))
            break
    else:
        problem = f"its probabilities sum to {float(sums[row])!r}, not 1"
        fix = f"{_FIX}: divide each row by its sum."
    n_bad = int(bad.sum())
    count = f"{n_bad} rows of class probabilities are" if n_bad > 1 else (
        "1 row of class probabilities is")
    raise ValueError(f"{path}: {count} not valid; the first, id {keys[row]}: {problem}. {fix}")
