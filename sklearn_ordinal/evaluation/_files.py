"""Reading gold labels and systems' predictions from files, matched item by item.

A shared task's files (PyEvALL's ``test_case``/``id``/``value`` records, or any CSV,
TSV, JSON or Parquet table with an id column and a label column) become the aligned
arrays that ``sklearn_ordinal.evaluate`` takes. Items are matched by id, and a missing,
extra or duplicated id is an error that names the ids: a silently dropped item would
change every number of the report.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
from sklearn.utils import Bunch

from .._table_files import BY_CONTENT, ONLY_EMPTY, read_table
from ._text_numbers import text_to_numbers
from ._probability_columns import (
    PREFIX,
    _probability_classes,
    _probability_columns,
    _read_probabilities,
)

# How many offending ids an error message names before it only counts the rest.
_N_SHOWN = 5

# How a missing prediction is handled (see read_evaluation_files).
_MISSING = ("error", "drop", "wrong")

# The group column of PyEvALL's format, used when the gold file has it.
_PYEVALL_GROUP = "test_case"

# Between the group and the id in an item's key: a control character no id holds.
_SEPARATOR = "\x1f"

def read_evaluation_files(
    gold: str | os.PathLike[str],
    predictions: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    id_column: str = "id",
    label_column: str = "value",
    prediction_column: str | None = None,
    group_column: str | None = "auto",
    allow_missing: bool = False,
    missing: Literal["error", "drop", "wrong"] | None = None,
    labels: npt.ArrayLike | None = None,
) -> Bunch:
    """Read a gold file and systems' prediction files, matched item by item by id.

    Each file is a table with one row per item: CSV (``.csv``), TSV (``.tsv``,
    ``.tab``), JSON (``.json``: a list of records, as PyEvALL writes it, or one
    record per line), JSON lines (``.jsonl``, ``.ndjson``) or Parquet (``.parquet``,
    ``.pq``; needs ``pyarrow``). A ``.txt`` file (PyEvALL's own files are ``.txt``
    holding JSON) or one without an extension is read by its content, as PyEvALL
    reads it: JSON when it starts with ``[`` or ``{``, else TSV when its first line
    holds a tab, else CSV when it holds a comma; ``formats`` says what was read.
    The defaults read PyEvALL's format, records ``{"test_case": ..., "id": ...,
    "value": ...}``; other tables name their columns with ``id_column``,
    ``label_column`` and ``group_column``.

    Items are matched by id, never by position. Ids are compared as text, as they
    are written: ``1`` in a CSV file, ``1`` and ``"1"`` in a JSON file all match,
    but ``1.0`` does not match ``1``. Within a group (a ``test_case``) every id must
    be unique. A gold id missing from a prediction file, an id of a prediction file
    that the gold lacks, and an id that appears twice in one file are errors that
    name the first few ids and count them; ``missing`` chooses another convention for
    the first two (duplicates stay errors). An item with a list of labels (PyEvALL's
    multi-label files) is refused.

    Labels are numbers when every label of a file is a number or the text of one
    (``"3"``, ``3``, ``3.0`` all read as the integer 3), else text; an ordered
    categorical column of a Parquet file keeps its categories and their order. Text
    labels have no order of their own: give it to :func:`evaluate` with ``labels=``.

    **Class probabilities.** A prediction file may give a system's class
    probabilities in one column per class, named ``proba_<class>`` with the class
    written as in the files (``proba_3`` for the class 3, ``proba_very_low`` for
    ``"very_low"``): exactly one column for each class of the class order
    (``labels``, or the gold labels' numbers in increasing order), each row
    non-negative and summing to 1 within 1e-6. A missing or extra class column, a
    cell that is not a number, empty or negative, and a row that does not sum to 1
    are errors naming the file and the first bad row's id. The file may also have
    its label column: :func:`evaluate` then reads the labels for the measures of
    classes and the probabilities for the ranked probability score and the ranking
    measures (their expected class). A file with probabilities and no label column
    gives only probabilities: no class is derived from them (not even the most
    probable one), so the measures of classes have no value for it.

    Read more in the :ref:`User Guide <evaluating_files>`.

    Parameters
    ----------
    gold : str or path-like
        The file of the true labels.
    predictions : str, path-like or sequence of them
        One file per system, with the same items as the gold file. A system is
        named after its file's stem (``runs/ridge.tsv`` is ``ridge``), or after its
        path when two stems are alike.
    id_column : str, default="id"
        The column of the item ids, in every file.
    label_column : str, default="value"
        The column of the labels, in the gold file and, unless
        ``prediction_column`` is given, in the prediction files.
    prediction_column : str, default=None
        The column of the predicted labels in the prediction files, when it is
        named differently from ``label_column``.
    group_column : str or None, default="auto"
        The column of the items' groups (PyEvALL's test cases, a shared task's
        subsets, cross-validation folds), read from the gold file. ``"auto"`` uses
        ``"test_case"`` when the gold file has that column with at least two
        distinct values, and no groups otherwise; ``None`` never uses groups.
        With groups, an id is unique within its group and a prediction file that
        has the group column is matched on (group, id); one that lacks it is
        matched on the id alone, which must then be unique in the gold file.
    allow_missing : bool, default=False
        The same as ``missing="drop"``.
    missing : {"error", "drop", "wrong"}, default=None
        What a gold item without a prediction (or an id the gold file lacks) does:

        - ``"error"`` (the default, unless ``allow_missing``): a ``ValueError``
          naming the ids;
        - ``"drop"``: score only the items present in every file; ``left_out``
          says which items were left out;
        - ``"wrong"``: PyEvALL's convention, the item counts as wrong for the system
          that lacks it. It is given the class farthest from its gold class (the
          lowest class on a tie), which is wrong under every measure and the worst
          error under a distance; ``filled`` lists these items. Ids the gold file
          lacks are left out, as under ``"drop"``. Accuracy and recall are then
          PyEvALL's; precision, F-measure and Cohen's kappa are not quite, as the
          farthest class gains a false positive (and a share of kappa's chance
          agreement) where PyEvALL counts precision over the predicted items only
          and leaves a missing item out of every class in kappa's chance agreement.
    labels : array-like, default=None
        The classes in order, lowest first: needed by ``missing="wrong"`` and by
        ``proba_`` columns when the labels are text (numbers are ordered as numbers),
        and by ``proba_`` columns of a class the gold file lacks.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        Dictionary-like object, with the following attributes.

        y_true : pandas.Series of shape (n_samples,)
            The gold labels, indexed by id (by (group, id) when there are groups),
            in the gold file's order.
        y_pred : pandas.DataFrame of shape (n_samples, n_systems)
            The predicted labels, one column per prediction file that has a label
            column, on the index of ``y_true``.
        y_proba : dict
            ``{system: DataFrame of shape (n_samples, n_classes)}`` for the files with
            ``proba_`` columns: the class probabilities, one column per class in class
            order (the columns are the classes), on the index of ``y_true``. Under
            ``missing="wrong"`` a missing item gets probability 1 on the class it is
            given. Pass it to :func:`evaluate` as ``y_proba={name: frame.to_numpy()}``.
        systems : list of str
            The systems' names, in the order of the prediction files.
        groups : pandas.Series of shape (n_samples,) or None
            The items' groups, on the index of ``y_true``; None without groups.
        left_out : pandas.DataFrame
            The items left out under ``missing="drop"`` (and the extra ids under
            ``"wrong"``), one row per file and id, with columns ``file``, ``id``
            (and the group column, with groups) and ``reason``; empty when nothing
            was left out.
        filled : pandas.DataFrame
            Under ``missing="wrong"``, the gold items a system lacks, counted as
            wrong: columns ``system``, ``id`` (and the group column) and
            ``class_given``; empty otherwise.
        formats : dict
            ``{path: format read}``, the format being ``"csv"``, ``"tsv"``,
            ``"json"`` or ``"parquet"``.
        note : str
            The files' formats and the missing-prediction convention in words, with
            the number of items it affected: the header of the report.

    Raises
    ------
    ValueError
        When a file cannot be read, lacks a column, has no rows, an item without
        a label, ids that do not match those of the gold file, or ``proba_``
        columns that are not one valid probability row per item.

    See Also
    --------
    evaluate : Scores, intervals and comparisons of the systems.

    Examples
    --------
    >>> from pathlib import Path
    >>> from tempfile import mkdtemp
    >>> from sklearn_ordinal.evaluation import read_evaluation_files
    >>> folder = Path(mkdtemp())
    >>> _ = (folder / "gold.csv").write_text("id,value\\na,1\\nb,2\\nc,3\\n")
    >>> _ = (folder / "system.jsonl").write_text(
    ...     '{"id": "c", "value": 2}\\n{"id": "a", "value": 1}\\n{"id": "b", "value": 2}\\n')
    >>> data = read_evaluation_files(folder / "gold.csv", [folder / "system.jsonl"])
    >>> data.y_pred
        system
    id
    a        1
    b        2
    c        2
    >>> data.y_true.tolist()
    [1, 2, 3]
    """
    if missing is None:
        missing = "drop" if allow_missing else "error"
    elif missing not in _MISSING:
        raise ValueError(f"missing={missing!r}: it must be one of {', '.join(_MISSING)}.")
    elif allow_missing and missing != "drop":
        raise ValueError(f"allow_missing=True means missing='drop'; it contradicts "
                         f"missing={missing!r}. Give one of them.")
    paths = [Path(predictions)] if isinstance(predictions, (str, os.PathLike)) else [
        Path(path) for path in predictions
    ]
    if not paths:
        raise ValueError("No prediction file given: give at least one system's file.")
    for option, column in (("id_column", id_column), ("label_column", label_column)):
        if not isinstance(column, str):
            raise ValueError(
                f"{option}={column!r}: it must name a column of the gold file (a str); "
                "every gold item needs an id and a label."
            )
    prediction_column = label_column if prediction_column is None else prediction_column
    gold_path = Path(gold)
    gold_table = _read_table(gold_path)
    formats = {str(gold_path): gold_table.format}
    if group_column == "auto":
        # One test case for every item (a common PyEvALL file) groups nothing.
        found = gold_table.find(_PYEVALL_GROUP)
        several = (found is not None
                   and gold_table.frame[found[0]].nunique(dropna=False) > 1)
        group_column = _PYEVALL_GROUP if several else None
    gold_items = _items(gold_table, gold_path, id_column, label_column, group_column)

    gold_labels = gold_items["label"]
    systems, probabilities, proba_classes = {}, {}, None
    for name, path in zip(_system_names(paths), paths):
        table = _read_table(path)
        formats[str(path)] = table.format
        own_group = (group_column if group_column is not None and table.find(group_column)
                     else None)
        given = _probability_columns(table.frame)
        # A file of class probabilities alone has no label column.
        own_label = (None if given and not table.find(prediction_column)
                     else prediction_column)
        items = _items(table, path, id_column, own_label, own_group)
        systems[name] = (path, items)
        if given:
            if proba_classes is None:
                proba_classes = _probability_classes(gold_labels, labels, path)
            keys = [_quoted(key) for key in _keys(items)]
            probabilities[name] = _read_probabilities(table.frame, path, proba_classes,
                                                      keys)

    label_systems = {name: own for name, own in systems.items() if "label" in own[1]}
    for path, items in label_systems.values():
        _check_same_kind(gold_labels, gold_path, items["label"], path)

    keep, rows, left_out = _match(gold_items, gold_path, systems, group_column, missing)
    kept = gold_items[keep]
    index = _index(kept, id_column, group_column)
    y_true = pd.Series(kept["label"].to_numpy(), index=index, name=label_column)
    if isinstance(gold_labels.dtype, pd.CategoricalDtype):
        y_true = y_true.astype(gold_labels.dtype)
    predicted, y_proba, filled = {}, {}, []
    for name, (_, items) in systems.items():
        row = rows[name][keep]
        absent = row < 0
        if absent.any():  # only under missing="wrong"
            order = _class_order(gold_labels, [own["label"] for _, own
                                               in label_systems.values()], labels)
            farthest = _farthest(kept["label"].to_numpy()[absent], order)
            filled.append(pd.DataFrame({"system": name, "id": kept["id"].to_numpy()[absent],
                                        "group": kept["group"].to_numpy()[absent]
                                        if "group" in kept else None,
                                        "class_given": farthest}))
        if name in probabilities:
            proba = probabilities[name][np.maximum(row, 0)]
            if absent.any():
                # All the probability on the farthest class: as wrong as a class can be.
                proba[absent] = 0.0
                proba[np.flatnonzero(absent),
                      pd.Index(proba_classes).get_indexer(farthest)] = 1.0
            y_proba[name] = pd.DataFrame(proba, index=index,
                                         columns=pd.Index(proba_classes, name="class"))
        if "label" not in items:
            continue
        values = items["label"].to_numpy()[np.maximum(row, 0)]
        if absent.any():
            values = values.astype(object) if values.dtype.kind != "O" else values.copy()
            values[absent] = farthest
            values = _typed_labels(pd.Series(values), "the filled predictions").to_numpy()
        predicted[name] = values
    y_pred = pd.DataFrame(predicted, index=index)
    groups = None
    if group_column is not None:
        groups = pd.Series(kept["group"].to_numpy(), index=index, name=group_column)
    columns = ["file", id_column] + ([group_column] if group_column else []) + ["reason"]
    left_out = (pd.concat(left_out, ignore_index=True) if left_out
                else pd.DataFrame(columns=["file", "id", "group", "reason"]))
    left_out = left_out.rename(columns={"id": id_column, "group": group_column or "group"})
    filled = (pd.concat(filled, ignore_index=True) if filled
              else pd.DataFrame(columns=["system", "id", "group", "class_given"]))
    filled = filled.rename(columns={"id": id_column, "group": group_column or "group"})
    filled = filled[["system", id_column] + ([group_column] if group_column else [])
                    + ["class_given"]]
    left_out = left_out[columns]
    return Bunch(y_true=y_true, y_pred=y_pred, y_proba=y_proba, systems=list(systems),
                 groups=groups, left_out=left_out, filled=filled, formats=formats,
                 note=_note(formats, missing, left_out, filled, len(gold_items), len(kept)))


def _class_order(gold, predicted, labels):
    """The classes in order, for the farthest class: ``labels``, or numbers' order."""
    if labels is not None:
        if pd.api.types.is_numeric_dtype(gold.dtype):
            # --labels arrives as text; number labels are matched as numbers.
            return pd.to_numeric(pd.Series(labels)).to_numpy()
        return np.asarray(labels, dtype=object)
    if isinstance(gold.dtype, pd.CategoricalDtype) and gold.cat.ordered:
        return np.asarray(gold.cat.categories, dtype=object)
    every = [gold] + list(predicted)
    if all(pd.api.types.is_numeric_dtype(labels_.dtype) for labels_ in every):
        return np.unique(np.concatenate([labels_.to_numpy() for labels_ in every]))
    raise ValueError(
        "missing='wrong' gives a gold item without a prediction the class farthest from "
        "its gold class, which needs the order of the text labels: give labels= "
        "(--labels low,...,high)."
    )


def _farthest(gold, order):
    """The class farthest from each gold class: the lowest or the highest (lowest on a
    tie, e.g. the middle class)."""
    position = pd.Index(order).get_indexer(gold)
    if (position < 0).any():
        unknown = gold[position < 0][0]
        raise ValueError(f"The gold class {unknown!r} is not among labels "
                         f"{list(order)}; give every class in labels.")
    last = len(order) - 1
    return np.where(position >= last - position, order[0], order[last])


def _note(formats, missing, left_out, filled, n_gold, n_kept):
    """The files' formats and the missing convention, counted, for the report's header."""
    read = ", ".join(f"{Path(path).name} as {file_format.upper()}"
                     for path, file_format in formats.items()
                     if Path(path).suffix.lower() in BY_CONTENT)
    text = f"Files read by their content: {read}. " if read else ""
    if missing == "error":
        return text + ("Missing predictions: none allowed (every prediction file has "
                       "every gold item).")
    n_extra = int((left_out["reason"] != "missing").sum())
    extra = (f"; {n_extra} item(s) of prediction files that the gold file lacks were "
             "left out" if n_extra else "")
    if missing == "drop":
        return text + (f"Missing predictions: dropped (--missing drop): {n_kept} of the "
                       f"{n_gold} gold items are in every file and scored; "
                       f"{n_gold - n_kept} were left out{extra}.")
    counts = filled.groupby("system", sort=False).size()
    per_system = ", ".join(f"{name}: {count}" for name, count in counts.items())
    return text + (
        f"Missing predictions: counted as wrong (--missing wrong, PyEvALL's convention): "
        f"{len(filled)} (system, item) pair(s) without a prediction"
        + (f" ({per_system})" if per_system else "")
        + " were given the class farthest from the gold class" + extra + "."
    )


def _system_names(paths):
    stems = [path.stem for path in paths]
    if len(set(stems)) == len(stems):
        return stems
    names = [str(path) for path in paths]
    if len(set(names)) != len(names):
        twice = sorted({name for name in names if names.count(name) > 1})
        raise ValueError(f"The same prediction file is given twice: {', '.join(twice)}.")
    return names


# --- One file -----------------------------------------------------------------------


def _read_table(path):
    # Only an empty cell is missing: a text label may be "NA" or "null".
    return read_table(path, missing_markers=ONLY_EMPTY)


def _items(table, path, id_column, label_column, group_column):
    """The file's items: a DataFrame with the columns id, label (and group); no label
    when ``label_column`` is None (a file of class probabilities alone)."""
    wanted = {"id column": id_column}
    if label_column is not None:
        wanted["label column"] = label_column
    if group_column is not None:
        wanted["group column"] = group_column
    option = {"id column": "id_column", "label column": "label_column (or "
              "prediction_column)", "group column": "group_column"}
    own = {what: table.column(
        column, what=what, option=f"{option[what]} "
        f"(--{option[what].split()[0].replace('_', '-')} on the command line)")
        for what, column in wanted.items()}
    frame = table.frame
    items = pd.DataFrame({"id": _as_text(frame[own["id column"]])})
    if group_column is not None:
        items["group"] = _as_text(frame[own["group column"]])
    for column, what in (("id", "an id"), ("group", "a group")):
        if column in items and items[column].isna().any():
            raise ValueError(f"{path}: {table.rows(items[column].isna())} without {what}; "
                             "every row needs one.")
    if label_column is None:
        return items
    labels = frame[own["label column"]].reset_index(drop=True)
    if labels.isna().any():
        keys = _keys(items)[labels.isna().to_numpy()]
        raise ValueError(f"{path}: {_count_of(keys, 'item')} without a label: ids "
                         f"{_first(keys)}; every item needs a label.")
    _refuse_several_labels(labels, items, path)
    items["label"] = _typed_labels(labels, path)
    return items


def _refuse_several_labels(labels, items, path):
    """A list of labels per item (PyEvALL's multi-label format) is not one ordinal class.

    Only a column that is not all numbers or all text can hold lists: the common case
    costs one type inference, no look at each item.
    """
    if pd.api.types.infer_dtype(labels, skipna=True) not in ("mixed", "mixed-integer"):
        return
    several = labels.map(lambda value: isinstance(value, (list, tuple, dict))).to_numpy()
    if several.any():
        first = int(np.flatnonzero(several)[0])
        raise ValueError(
            f"{path}: {_count_of(np.flatnonzero(several), 'item')} with several labels "
            f"(a multi-label file), the first id {_quoted(_keys(items)[first])} with "
            f"{labels.iloc[first]!r}; an ordinal item has exactly one class. Give one "
            "value per item, as text or a number."
        )


def _as_text(column):
    """Ids and groups as text, as written; numbers of JSON and Parquet as their text."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        column = column.astype(object)
    missing = column.isna().to_numpy()
    if pd.api.types.infer_dtype(column, skipna=True) != "string":
        column = column.astype(str)  # what str() writes: 1 -> "1", 1.0 -> "1.0"
    text = column.to_numpy(dtype=object, copy=True)
    text[missing] = None
    return pd.Series(text, dtype=object)


def _typed_labels(labels, path):
    """Numbers when every label is a number or the text of one, else text."""
    if isinstance(labels.dtype, pd.CategoricalDtype):
        return labels
    if pd.api.types.is_bool_dtype(labels.dtype):
        raise ValueError(f"{path}: the labels are true/false, not ordinal classes.")
    _refuse_beyond_int64(labels, path)
    kind = pd.api.types.infer_dtype(labels, skipna=False)
    if pd.api.types.is_numeric_dtype(labels.dtype):
        numbers = labels
    elif kind in ("integer", "floating", "mixed-integer-float", "decimal"):
        numbers = pd.to_numeric(labels.astype(object))
    else:
        numbers = _integers(labels) if kind == "string" else None
        if numbers is None:
            # Text (a CSV cell), or JSON's numbers and strings in one column.
            numbers = labels.str.strip() if kind == "string" else labels.map(_number_or_none)
            numbers = pd.Series(text_to_numbers(numbers), index=labels.index)
        if numbers.isna().any():
            return labels.astype(str).astype(object)
    numbers = numbers.astype(np.float64) if numbers.dtype.kind != "i" else numbers
    if numbers.dtype.kind == "f":
        if not np.isfinite(numbers).all():
            raise ValueError(f"{path}: labels must be finite numbers; found "
                             f"{numbers[~np.isfinite(numbers)].iloc[0]}.")
        if (numbers == np.round(numbers)).all() and (numbers.abs() < 2.0**53).all():
            return numbers.astype(np.int64)
    return numbers


def _refuse_beyond_int64(labels, path):
    """Refuse whole-number labels outside int64, as the Python API does.

    Read as float64 they would lose their last digits: 2**70 and 2**70 + 1 became one
    class. Only labels written as integers (text of digits, JSON or Parquet integers)
    count; a float label such as ``1e300`` is a float, kept as one.
    """
    limits = np.iinfo(np.int64)
    if labels.dtype.kind == "u":
        beyond = labels > limits.max
        candidates = labels[beyond]
    elif labels.dtype.kind == "O" or pd.api.types.is_string_dtype(labels.dtype):
        text = labels.astype(str)
        # Only the rare texts of 19 digits or more can leave int64: parse those.
        text = text[text.str.len() >= 19].str.strip()
        candidates = text[text.str.fullmatch(r"[+-]?\d{19,}", na=False)]
        if candidates.empty:
            return
        beyond = candidates.map(lambda value: not limits.min <= int(value) <= limits.max)
        candidates = candidates[beyond]
    else:
        return
    if len(candidates):
        raise ValueError(
            f"{path}: {len(candidates)} label(s) are integers outside the int64 range "
            f"[{limits.min}, {limits.max}], such as {candidates.iloc[0]}; labels must fit "
            "in int64 (as float64 they would lose digits and merge classes). Renumber "
            "the classes, keeping their order."
        )


def _integers(text):
    """Text labels as int64 when every one is written as a whole number, else None.

    The common case, and the fast one: a single cast, where ``pd.to_numeric`` on a
    million strings takes seconds.
    """
    try:
        return text.astype(np.int64)
    except (ValueError, TypeError, OverflowError):  # pyarrow's ArrowInvalid is a ValueError
        return None


def _number_or_none(value):
    # JSON may hold numbers, booleans and strings in one column: only numbers and
    # numeric text count as numbers (True is not the class 1).
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float, np.integer, np.floating)):
        return value
    return value.strip() if isinstance(value, str) else None


def _check_same_kind(gold, gold_path, predicted, path):
    """Numbers against text would only surface as 'unknown classes' much later."""
    def kind(labels):
        if isinstance(labels.dtype, pd.CategoricalDtype):
            labels = labels.cat.categories
        return "number" if pd.api.types.is_numeric_dtype(labels.dtype) else "text"

    if kind(gold) != kind(predicted):
        text = gold if kind(gold) == "text" else predicted
        if isinstance(text.dtype, pd.CategoricalDtype):
            text = text.cat.categories.to_series()
        example = next((value for value in text if not _is_number(value)), text.iloc[0])
        raise ValueError(
            f"The gold labels of {gold_path} are {kind(gold)}s and the predicted labels of "
            f"{path} are {kind(predicted)}s (for example {example!r}); both files must "
            "name the classes the same way."
        )


def _is_number(value):
    return not pd.isna(pd.to_numeric(pd.Series([_number_or_none(value)]),
                                     errors="coerce").iloc[0])


# --- Matching the files -------------------------------------------------------------


def _keys(items, by_group=True):
    """Each item's key, as one string: its id, or its group and id with groups.

    One string per item, in a NumPy object array: hashed once by ``pd.factorize``,
    a million items match in seconds (a MultiIndex, or pandas 3's Arrow strings,
    take minutes).
    """
    if by_group and "group" in items:
        return (items["group"] + _SEPARATOR + items["id"]).to_numpy(dtype=object)
    return items["id"].to_numpy(dtype=object)


def _match(gold, gold_path, systems, group_column, missing):
    """The gold items kept (a mask), each system's row of every gold item (-1 when
    missing), and the frames of ``left_out``. Under ``missing="wrong"`` the gold items
    a system lacks are kept (their rows stay -1) and only extra ids are left out."""
    gold_keys = _keys(gold)
    _check_unique(gold_keys, pd.factorize(gold_keys)[0], gold_path, group_column)
    keep = np.ones(len(gold), dtype=bool)
    rows, left_out, problems = {}, [], []

    def left(items, mask, path, reason):
        return pd.DataFrame({"file": str(path), "id": items["id"][mask],
                             "group": items["group"][mask] if "group" in items else None,
                             "reason": reason})

    missing_convention = missing
    for name, (path, items) in systems.items():
        by_group = "group" in items
        gold_keys, own_keys = _keys(gold, by_group), _keys(items, by_group)
        # One numbering of both files' keys: every test below is on integers.
        codes, uniques = pd.factorize(np.concatenate([gold_keys, own_keys]))
        gold_codes, own_codes = codes[:len(gold_keys)], codes[len(gold_keys):]
        if group_column is not None and not by_group:
            # Matched on the id alone, which must then name one gold item.
            _check_unique(gold_keys, gold_codes, gold_path, None,
                          why=f"{path} has no column {group_column!r} to tell them apart")
        _check_unique(own_keys, own_codes, path, group_column if by_group else None)
        position = np.full(len(uniques), -1)
        position[own_codes] = np.arange(len(own_codes))
        rows[name] = position[gold_codes]
        missing = rows[name] < 0
        in_gold = np.zeros(len(uniques), dtype=bool)
        in_gold[gold_codes] = True
        extra = ~in_gold[own_codes]
        if missing.any():
            problems.append(f"{path} lacks {_count_of(gold_keys[missing], 'id')} of the gold "
                            f"file {gold_path}: {_first(gold_keys[missing])}")
            if missing_convention != "wrong":
                keep &= ~missing
                left_out.append(left(gold, missing, path, "missing"))
        if extra.any():
            problems.append(f"{path} has {_count_of(own_keys[extra], 'id')} that the gold "
                            f"file {gold_path} lacks: {_first(own_keys[extra])}")
            left_out.append(left(items, extra, path, "not in the gold file"))
    if problems and missing_convention == "error":
        raise ValueError(
            "The files do not have the same items: " + "; ".join(problems) + ". "
            + _hint(gold, systems) + "Give every file the same ids, score only the "
            "items common to all files with missing='drop' (--missing drop, or "
            "--allow-missing), or count a gold item without a prediction as wrong with "
            "missing='wrong' (--missing wrong)."
        )
    if not keep.any():
        raise ValueError("The files have no item in common: nothing to score.")
    return keep, rows, left_out


def _check_unique(keys, codes, path, group_column, why=None):
    duplicated = pd.unique(keys[np.bincount(codes)[codes] > 1])
    if len(duplicated):
        within = f" within a {group_column!r} group" if group_column else ""
        reason = f" ({why})" if why else ""
        raise ValueError(
            f"{path} has {_count_of(duplicated, 'duplicated id')}{within}{reason}: "
            f"{_first(duplicated)}; every item needs its own id."
        )


def _hint(gold, systems):
    """Ids that differ only in how a number is written, e.g. "1" and "1.0"."""
    def as_numbers(ids):
        return set(pd.to_numeric(pd.Series(list(ids)), errors="coerce").dropna())

    gold_ids = set(gold["id"])
    for path, items in systems.values():
        own_ids = set(items["id"])
        unmatched_gold, unmatched_own = gold_ids - own_ids, own_ids - gold_ids
        if unmatched_gold and unmatched_own and (
            as_numbers(unmatched_gold) & as_numbers(unmatched_own)
        ):
            return (f"Ids are compared as text, as written: {path} writes some ids as "
                    "different text for the same number (such as 1 and 1.0). ")
    return ""


def _index(items, id_column, group_column):
    if group_column is None:
        return pd.Index(items["id"].to_numpy(), name=id_column)
    return pd.MultiIndex.from_arrays([items["group"].to_numpy(), items["id"].to_numpy()],
                                     names=[group_column, id_column])


def _count_of(values, what):
    return f"{len(values)} {what}{'' if len(values) == 1 else 's'}"


def _first(values):
    """The first few values, quoted; '... and N more' for the rest."""
    values = list(values)
    shown = ", ".join(_quoted(value) for value in values[:_N_SHOWN])
    rest = len(values) - _N_SHOWN
    return shown + (f" and {rest} more" if rest > 0 else "")


def _quoted(value):
    if isinstance(value, str) and _SEPARATOR in value:
        group, item_id = value.split(_SEPARATOR, 1)
        return f"{item_id!r} (group {group!r})"
    return repr(value.item() if isinstance(value, np.generic) else value)
