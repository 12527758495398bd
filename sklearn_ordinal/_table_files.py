"""Reading tables from files: the one reader of every command's files.

``evaluate`` and ``compare`` (gold labels, predictions, scores), ``quantification``
(prevalence and item files) and ``agreement`` (annotations) all read their files
here, so that a file is decoded, bounded, told apart by format, cleared of missing
markers and matched to its columns the same way whichever command reads it:

- **formats**: CSV, TSV, JSON (a list of records or one record per line) and
  Parquet, by extension; a ``.txt`` file or one without an extension by its content;
- **encoding**: UTF-8, a byte-order mark stripped (Windows editors write one, and it
  would otherwise be part of the first column's name or the first topic); a file
  that is not UTF-8 is refused with its name;
- **line bound**: a line longer than ``MAX_LINE_BYTES`` is refused (a file without
  line breaks would otherwise be parsed as one line, taking memory many times its
  size);
- **missing markers**: a cell that is exactly one of ``MISSING_MARKERS`` (an empty
  cell, R's ``NA``, SPSS's ``.``, ``null``, ``NaN`` ...) is missing; a command whose
  values may be such words (text labels named ``NA``) reads only an empty cell as
  missing (``ONLY_EMPTY``);
- **columns** are matched ignoring case and spaces (``Unit``, `` unit`` and
  ``unit`` are one column), and a missing column is refused with the file's columns;
- **rows** keep the number of the line (or record) they were read from as their
  index, so that a message names the line of a repeated id or a bad value.

What is particular to one command's files (ids matched across prediction files,
probability columns, a layout of annotations) stays with that command.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

# The cells read as missing by default: pandas' own markers, and SPSS's ".". Only
# an exact cell counts (after the spaces that follow a separator), never a part of one.
MISSING_MARKERS: tuple[str, ...] = (
    "", "NA", "N/A", "n/a", "#N/A", "NaN", "nan", "-nan", "NULL", "null", "None",
    "<NA>", ".",
)
# Only an empty cell is missing: for files whose values may be the words above.
ONLY_EMPTY: tuple[str, ...] = ("",)

FORMATS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".json": "json",
    ".jsonl": "json",
    ".ndjson": "json",
    ".parquet": "parquet",
    ".pq": "parquet",
}
# Extensions that say nothing of the content (PyEvALL's files are .txt holding JSON):
# the format is read from the content.
BY_CONTENT = frozenset({".txt", ""})

# The longest line read from a CSV, TSV or JSON-lines file, in bytes: a row of a
# table of labels, scores or annotations is far shorter.
MAX_LINE_BYTES = 2**24
# Read in blocks of this many bytes to find the longest line.
_LINE_BLOCK = 2**20

# How many offending values a message names before it only counts the rest.
N_SHOWN = 5


def column_key(name: object) -> str:
    """A column's name as it is matched: without case and without spaces."""
    return "".join(str(name).split()).casefold()


@dataclass(frozen=True)
class Table:
    """A table read from a file.

    ``frame`` has one row per row of the file, indexed by the number of the line
    (``row_name`` ``"line"``), the JSON record (``"record"``) or the Parquet row
    (``"row"``) it was read from, counted from 1; missing cells are None (NaN in a
    numeric column). CSV and TSV cells are text; JSON and Parquet keep their types.
    """

    frame: pd.DataFrame
    path: Path
    format: str
    row_name: str

    def find(self, *names: str) -> list[str] | None:
        """The file's own names of the columns ``names`` (matched ignoring case and
        spaces), or None when one of them is absent."""
        own: dict[str, str] = {}
        for column in self.frame.columns:
            own.setdefault(column_key(column), column)
        found = [own.get(column_key(name)) for name in names]
        return [column for column in found if column is not None] if all(
            column is not None for column in found) else None

    def column(self, name: str, *, what: str = "column", option: str | None = None) -> str:
        """The file's own name of the column ``name``; a ValueError naming the file's
        columns (and the option that names the column) when it has none."""
        found = self.find(name)
        if found is not None:
            return found[0]
        advice = f" Name the column with {option}." if option else ""
        raise ValueError(
            f"{self.path}: no {what} {name!r}; the file has the columns "
            f"{', '.join(repr(str(column)) for column in self.frame.columns)}.{advice}"
        )

    def rows(self, mask: Iterable[bool] | np.ndarray) -> str:
        """The rows where ``mask`` holds, in words: ``"lines 3, 7 and 2 more"``."""
        numbers = self.frame.index.to_numpy()[np.asarray(mask, dtype=bool)]
        return count_of(numbers, self.row_name, shown=False) + " " + first(numbers,
                                                                           quote=False)

    def row(self, position: int) -> str:
        """One row in words: ``"line 4"``."""
        return f"{self.row_name} {self.frame.index[position]}"


def count_of(values: Sequence[object] | np.ndarray, what: str, shown: bool = True) -> str:
    """``"3 ids"``; ``shown=False`` leaves the count out when there is one value."""
    n = len(values)
    if not shown:
        return what if n == 1 else f"{what}s"
    return f"{n} {what}{'' if n == 1 else 's'}"


def first(values: Iterable[object], quote: bool = True) -> str:
    """The first few values (quoted unless ``quote=False``); '... and N more' after."""
    values = list(values)
    text = [repr(_plain(value)) if quote else str(_plain(value))
            for value in values[:N_SHOWN]]
    rest = len(values) - N_SHOWN
    return ", ".join(text) + (f" and {rest} more" if rest > 0 else "")


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def refuse_repeated(table: Table, columns: Sequence[str], *, what: str = "id",
                    advice: str = "give each once") -> None:
    """Refuse rows that repeat the values of ``columns`` (the file's own names),
    naming the first repeated value and the lines where it stands."""
    repeated = table.frame.duplicated(list(columns), keep=False).to_numpy()
    if not repeated.any():
        return
    values = table.frame.loc[repeated, list(columns)]
    first_value = tuple(values.iloc[0])
    same = (table.frame[list(columns)] == pd.Series(first_value, index=list(columns))
            ).all(axis=1).to_numpy()
    shown = first_value[0] if len(first_value) == 1 else first_value
    n_values = len(values.drop_duplicates())
    others = f" ({n_values - 1} more {what}s are repeated too)" if n_values > 1 else ""
    raise ValueError(
        f"{table.path}: the {what} {shown!r} is given on {table.rows(same)}{others}; "
        f"{advice}."
    )


def read_table(path: str | os.PathLike[str], *, formats: Collection[str] | None = None,
               missing_markers: Collection[str] = MISSING_MARKERS,
               header: bool = True, file_format: str | None = None) -> Table:
    """The table of the file at ``path``.

    ``formats`` limits the formats accepted (``{"csv", "tsv"}``), all by default;
    ``missing_markers`` are the cells read as missing (``MISSING_MARKERS``, or
    ``ONLY_EMPTY``); ``header=False`` reads a CSV or TSV file without a header line
    (its columns are numbered from 0, and a row may have fewer cells than another);
    ``file_format`` reads the file in that format whatever its extension (a shared
    task's ``.txt``, ``.output`` or ``.gold`` files that are all TSV).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if file_format is not None:
        if not path.is_file():
            raise ValueError(f"{path}: no such file.")
        return _read(path, file_format, missing_markers, header)
    file_format = FORMATS.get(suffix)
    accepted = set(FORMATS.values()) if formats is None else set(formats)
    extensions = [ext for ext, kind in FORMATS.items() if kind in accepted]
    if (file_format is None and suffix not in BY_CONTENT) or (
        file_format is not None and file_format not in accepted
    ):
        raise ValueError(
            f"{path}: unknown file type {path.suffix!r}; the extension must be one of "
            f"{', '.join(extensions)}, or .txt (or none) for a file whose format is read "
            "from its content."
        )
    if not path.is_file():
        raise ValueError(f"{path}: no such file.")
    if file_format is None:
        file_format = _sniff(path, header)
        if file_format not in accepted:
            raise ValueError(f"{path}: read as {file_format.upper()}, but this command "
                             f"reads {', '.join(sorted(accepted)).upper()} files.")
    return _read(path, file_format, missing_markers, header)


def _read(path, file_format, missing_markers, header):
    if file_format == "parquet":
        frame, row_name = _read_parquet(path), "row"
    elif file_format == "json":
        frame, row_name = _read_json(path)
    else:
        frame, row_name = _read_delimited(path, "," if file_format == "csv" else "\t",
                                          header), "line"
    if len(frame) == 0:
        raise ValueError(f"{path}: the file has no rows under its header." if header
                         else f"{path}: the file is empty.")
    frame = _clear_markers(frame, missing_markers)
    return Table(frame, path, file_format, row_name)


def read_lines(path: str | os.PathLike[str]) -> list[tuple[int, str]]:
    """``[(line number, line)]`` of a text file, blank lines skipped, each line
    without its line break (and without the spaces and tabs around it)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file.")
    text = _decoded(path)
    lines = [(number, line.strip(" \t\r"))
             for number, line in enumerate(text.split("\n"), start=1)
             if line.strip(" \t\r")]
    if not lines:
        raise ValueError(f"{path}: the file is empty.")
    return lines


def _clear_markers(frame, markers):
    """Cells equal to a marker become None, in text columns only."""
    markers = list(markers)
    for name in frame.columns:
        column = frame[name]
        if isinstance(column.dtype, pd.CategoricalDtype) or not (
            column.dtype == object or pd.api.types.is_string_dtype(column.dtype)
        ):
            continue
        marked = column.isin(markers).to_numpy() & column.notna().to_numpy()
        if marked.any():
            values = column.to_numpy(dtype=object, copy=True)
            values[marked] = None
            frame[name] = pd.Series(values, index=frame.index, dtype=object)
        elif column.dtype != object:
            frame[name] = column.astype(object)
    return frame


def _decoded(path):
    """The file's text: UTF-8, a byte-order mark dropped, lines bounded."""
    check_line_lengths(path)
    try:
        return path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text: {_one_line(error)}; save the file "
                         "as UTF-8.") from None


def _sniff(path, header=True):
    """JSON, TSV or CSV, from the first line of a file, as PyEvALL tells them apart.

    JSON starts with ``[`` or ``{``; otherwise the first line holds tabs (TSV) or
    commas (CSV). A first line with neither is refused rather than guessed (a file
    without a header, whose lines have one field, is TSV).
    """
    with open(path, "rb") as file:
        head = file.read(65536)
    if head.startswith(b"PAR1"):
        return "parquet"
    text = head.decode("utf-8-sig", errors="ignore").lstrip()
    if not text:
        raise ValueError(f"{path}: the file is empty.")
    if text[0] in "[{":
        return "json"
    first_line = text.splitlines()[0]
    if "\t" in first_line:
        return "tsv"
    if "," in first_line:
        return "csv"
    if not header:
        return "tsv"
    raise ValueError(
        f"{path}: the format cannot be read from the content: not JSON, and the first line "
        f"{first_line[:60]!r} has neither tabs (TSV) nor commas (CSV). Name the file .json, "
        ".tsv or .csv after its content."
    )


def check_line_lengths(path: Path) -> None:
    """Refuse a line longer than ``MAX_LINE_BYTES``, found in bounded blocks."""
    start, newlines, offset = 0, 0, 0  # current line's start; line breaks; bytes read
    with open(path, "rb") as file:
        while block := file.read(_LINE_BLOCK):
            breaks = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == 10) + offset
            if len(breaks):
                # The lines ending in this block, without their line break.
                lengths = np.diff(np.concatenate([[start], breaks + 1])) - 1
                too_long = np.flatnonzero(lengths > MAX_LINE_BYTES)
                if len(too_long):
                    _refuse_line(path, newlines + int(too_long[0]) + 1)
                newlines += len(breaks)
                start = int(breaks[-1]) + 1
            offset += len(block)
            if offset - start > MAX_LINE_BYTES:  # the line still open
                _refuse_line(path, newlines + 1)


def _refuse_line(path, number):
    raise ValueError(
        f"{path}: line {number} is longer than {MAX_LINE_BYTES} bytes, far longer than "
        "a row of a table; is this the right file? (A file with no line breaks reads as "
        "one line.)"
    )


def _read_delimited(path, separator, header):
    text = _decoded(path)
    name = "CSV" if separator == "," else "TSV"
    if not text.strip():
        raise ValueError(f"{path}: the file is empty." if not header else
                         f"{path}: the file is empty; it needs a header line and rows.")
    if not header:
        # Rows of different lengths (a prevalence file's topic and shares): split here.
        rows = [(number, [cell.strip(" ") for cell in line.rstrip("\r").split(separator)])
                for number, line in enumerate(text.split("\n"), start=1)
                if line.strip(" \t\r")]
        width = max(len(cells) for _, cells in rows)
        return pd.DataFrame([cells + [None] * (width - len(cells)) for _, cells in rows],
                            index=pd.Index([number for number, _ in rows]), dtype=object)
    try:
        # Every cell as text, as written (after the spaces that follow a separator):
        # ids are compared as written and each command types its own values.
        frame = pd.read_csv(io.StringIO(text), sep=separator, dtype=str, na_filter=False,
                            skip_blank_lines=False, skipinitialspace=True)
    except pd.errors.EmptyDataError:
        raise ValueError(f"{path}: the file is empty; it needs a header line and rows."
                         ) from None
    except pd.errors.ParserError as error:
        raise ValueError(f"{path}: not a readable {name} file: {_one_line(error)}") from None
    # Row i stands on line i + 2 (the header is line 1); blank lines are dropped after
    # numbering, so that the numbers stay those of the file.
    frame.index = pd.RangeIndex(2, len(frame) + 2)
    frame.columns = [str(column).strip() for column in frame.columns]
    blank = (frame == "").all(axis=1).to_numpy()
    return frame[~blank]


def _read_json(path):
    with open(path, "rb") as file:
        head = file.read(65536).lstrip()
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:].lstrip()
    if not head.startswith(b"["):
        # One record per line: each line is bounded as a CSV row is. (A JSON list may
        # be written on one line, whatever its length.)
        check_line_lengths(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text: {_one_line(error)}; save the file "
                         "as UTF-8.") from None
    if not text.strip():
        raise ValueError(f"{path}: the file is empty; it needs one record per row.")
    if text.lstrip().startswith("["):
        # PyEvALL's own files: one JSON list of records.
        try:
            records = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not valid JSON: {error}") from None
        if not isinstance(records, list):
            records = [records]
        numbers, row_name = list(range(1, len(records) + 1)), "record"
    else:
        records, numbers, row_name = [], [], "line"
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError as error:
                    raise ValueError(f"{path}, line {number}: not a JSON record: "
                                     f"{error}") from None
                numbers.append(number)
    for number, record in zip(numbers, records):
        if not isinstance(record, dict):
            raise ValueError(
                f"{path}, {row_name} {number}: not a JSON object but {record!r}; every "
                'record is an object such as {"test_case": "t1", "id": "1", "value": 3}.'
            )
    frame = pd.DataFrame.from_records(records)
    frame.index = pd.Index(numbers[:len(frame)]) if len(frame) else frame.index
    return frame, row_name


def _read_parquet(path):
    try:
        frame = pd.read_parquet(path)
    except ImportError:
        raise ValueError(
            f"{path}: reading Parquet files needs pyarrow: pip install pyarrow"
        ) from None
    except Exception as error:  # pyarrow's own errors have no common public base
        raise ValueError(f"{path}: not a readable Parquet file: {_one_line(error)}") from None
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    return frame


def _one_line(error):
    return " ".join(str(error).split())


def as_numbers(table: Table, columns: Sequence[str], *, what: str = "value",
               strict: bool = True) -> pd.DataFrame | None:
    """The cells of ``columns`` as float64, missing cells NaN.

    A cell that is not a number, or is infinite, is refused naming its line and the
    cell (``strict``); with ``strict=False`` a cell that is not a number gives None
    instead (the values are text), and an infinite one is still refused.
    """
    cells = table.frame[list(columns)]
    numbers = cells.apply(pd.to_numeric, errors="coerce").astype(np.float64)
    bad = (numbers.isna() & cells.notna()).to_numpy()
    if bad.any():
        if not strict:
            return None
        row, column = np.argwhere(bad)[0]
        raise ValueError(
            f"{table.path}: {table.row(int(row))}, column {cells.columns[column]!r}: "
            f"{cells.iat[row, column]!r} is not a number; every {what} is a number (or "
            "an empty cell, for a missing one)."
        )
    infinite = np.isinf(numbers.to_numpy())
    if infinite.any():
        row, column = np.argwhere(infinite)[0]
        raise ValueError(
            f"{table.path}: {table.row(int(row))}, column {cells.columns[column]!r}: "
            f"{cells.iat[row, column]!r} is infinite; every {what} must be a finite number."
        )
    return numbers
