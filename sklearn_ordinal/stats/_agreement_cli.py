"""``python -m sklearn_ordinal agreement ANNOTATIONS.csv``: the command line of
:func:`~sklearn_ordinal.metrics.krippendorff_alpha` and
:func:`~sklearn_ordinal.stats.krippendorff_alpha_interval`.

The parser and the run function live here, beside the interval; ``__main__`` only
registers them (``add_agreement_parser``).
"""

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .._command_line import fraction, positive, run_command, tell, whole_number
from .._validation import UndefinedMeasureError
from ..metrics._krippendorff import LEVELS, _reliability_counts, krippendorff_alpha
from ._krippendorff import krippendorff_alpha_interval
from ._resampling import DEFAULT_N_RESAMPLES

_DESCRIPTION = """\
How far the annotators of a gold standard agree: Krippendorff's alpha at the
nominal, ordinal, interval and ratio levels, with missing annotations, and its
bootstrap interval over the units (sklearn_ordinal.stats.krippendorff_alpha_interval).

ANNOTATIONS is a CSV (.csv) or TSV (.tsv) table in one of two layouts, told apart
by its columns:
  long  columns annotator, unit and value (other columns are not read): one row
        per annotation; a unit an annotator did not label has no row (or an empty
        value). An annotator and a unit in two rows is an error.
  wide  any other columns: one row per unit and one column per annotator; a first
        column named unit or id holds the units' names and is no annotator.
An empty cell is a missing annotation; every other cell is a value (so NA or None
are values, not missing). The values are numbers when every one of them is a
number, text otherwise.

By default every level the values allow is printed: all four for numbers; for
text, nominal, and with --labels (the values in order, lowest first) ordinal and
interval too (text values in that order are equally spaced; the ratio level needs
numbers). Bad input exits with code 2 and a one-line message on standard error.
"""

_EPILOG = """\
example:
  python -m sklearn_ordinal agreement annotations.csv --level ordinal --seed 0
  python -m sklearn_ordinal agreement grades.tsv --labels low,mid,high
"""


def _levels(text):
    levels = [level.strip() for level in text.split(",")]
    if levels == ["all"]:
        return None
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown level(s) {unknown}; choose among {', '.join(LEVELS)}, separated by "
            "commas, or all")
    return levels


def _names(text):
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"an empty name in {text!r}; separate names by "
                                         "commas, as in low,mid,high")
    return names


def add_agreement_parser(commands):
    """Add the ``agreement`` subcommand to ``commands`` (an argparse subparsers object)."""
    parser = commands.add_parser(
        "agreement", help="how far annotators agree (Krippendorff's alpha, with intervals)",
        description=_DESCRIPTION, epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("annotations", type=Path, metavar="ANNOTATIONS",
                        help="the table of annotations (.csv or .tsv), long or wide")
    parser.add_argument("--level", type=_levels, default=None, metavar="LEVEL,...",
                        help="nominal, ordinal, interval or ratio, separated by commas, or "
                        "all (default: every level the values allow)")
    parser.add_argument("--labels", type=_names, metavar="LOW,...,HIGH",
                        help="the values in order, lowest first, separated by commas; "
                        "needed for text values at the ordinal and interval levels")
    parser.add_argument("--confidence-level", type=fraction, default=0.95, metavar="LEVEL",
                        help="of the bootstrap intervals (default: 0.95)")
    parser.add_argument("--n-resamples", type=positive, default=DEFAULT_N_RESAMPLES,
                        metavar="N", help="bootstrap resamples of the units (default: "
                        f"{DEFAULT_N_RESAMPLES})")
    parser.add_argument("--method", choices=["bca", "percentile", "basic"], default="bca",
                        help="interval method (default: bca)")
    parser.add_argument("--seed", type=whole_number, metavar="N",
                        help="seed of the resampling, for numbers that repeat exactly")
    parser.set_defaults(run=run_agreement)
    return parser


def run_agreement(args):
    """Run the agreement command; ValueErrors become exit code 2 and one line on stderr."""
    return run_command("agreement", _run, args, advice=_for_the_command_line)


# The functions' advice names Python arguments; on the command line it names options.
_COMMAND_LINE_ADVICE = [
    ("labels=[...]", "--labels LOW,...,HIGH"),
    ("choose level='nominal'", "choose --level nominal"),
    ("choose level='interval' or 'ordinal'", "choose --level interval or ordinal"),
    ("not in labels: ", "not in --labels: "),
    ("reliability_data holds", "the annotations hold"),
    ("mark a missing annotation with NaN or None", "leave a missing annotation's cell empty"),
]


def _for_the_command_line(message):
    for python, option in _COMMAND_LINE_ADVICE:
        message = message.replace(python, option)
    return message


def _read_table(path):
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".tsv"):
        raise ValueError(f"{path}: needs a .csv or .tsv file; got {suffix or 'no extension'}.")
    # Text as written: only an empty cell is missing (pandas would read NA, None or
    # null as missing too, and they may be values).
    table = pd.read_csv(path, sep="\t" if suffix == ".tsv" else ",", dtype=str,
                        keep_default_na=False, na_values=[""])
    if table.empty:
        raise ValueError(f"{path}: holds no annotation (no row under the header).")
    return table


def read_annotations(path):
    """``(reliability_data, layout)``: annotators x units, as text (None where missing),
    and a sentence saying how the file was read."""
    table = _read_table(path)
    if {"annotator", "unit", "value"} <= set(table.columns):
        for column in ("annotator", "unit"):
            if table[column].isna().any():
                row = int(np.flatnonzero(table[column].isna())[0]) + 2
                raise ValueError(f"{path}: line {row} has no {column}; every row needs one.")
        repeated = table.duplicated(["annotator", "unit"])
        if repeated.any():
            first = table[repeated].iloc[0]
            raise ValueError(
                f"{path}: annotator {first['annotator']!r} labels unit {first['unit']!r} in "
                f"{int(((table['annotator'] == first['annotator']) & (table['unit'] == first['unit'])).sum())} "
                "rows; give each annotation once.")
        wide = table.pivot(index="unit", columns="annotator", values="value")
        wide = wide.reindex(index=pd.unique(table["unit"]),
                            columns=pd.unique(table["annotator"]))
        layout = (f"long (annotator, unit, value): {wide.shape[1]} annotators, "
                  f"{wide.shape[0]} units")
    else:
        wide = table
        if table.columns[0] in ("unit", "id"):
            ids = table.iloc[:, 0]
            if ids.isna().any() or ids.duplicated().any():
                bad = ids[ids.isna() | ids.duplicated()].iloc[0]
                raise ValueError(f"{path}: the unit {bad!r} of column {table.columns[0]!r} "
                                 "is empty or repeated; name each unit once.")
            wide = table.set_index(table.columns[0])
        layout = (f"wide: {wide.shape[1]} annotators as columns, {wide.shape[0]} units as "
                  "rows")
        if wide.shape[1] < 2:
            raise ValueError(
                f"{path}: needs two annotators or more: columns annotator, unit and value "
                "(long), or one column per annotator (wide); got columns "
                f"{list(table.columns)}.")
    return wide.T.to_numpy(dtype=object), layout


def _as_numbers(data):
    """The annotations as float64 when every one is a number, else None."""
    missing = pd.isna(data)
    try:
        # NumPy's cast reads each text to the nearest float64.
        numbers = np.asarray(np.where(missing, "nan", data), dtype=np.float64)
    except ValueError:
        return None
    return None if np.isinf(numbers).any() else numbers


def _number_labels(labels):
    try:
        return np.asarray(labels, dtype=np.float64)
    except ValueError:
        raise ValueError(
            f"--labels: the values are numbers, so the labels must be numbers too; got "
            f"{labels}.") from None


def _run(args):
    with warnings.catch_warnings():
        # The file's layout says which are the annotators: no table to transpose.
        warnings.filterwarnings("ignore", message="reliability_data has .* more annotators")
        _score(args)


def _score(args):
    data, layout = read_annotations(args.annotations)
    numbers = _as_numbers(data)
    labels = args.labels
    if numbers is not None:
        data = numbers
        labels = None if labels is None else _number_labels(labels)
    levels = args.level
    notes = []
    if levels is None:
        if numbers is not None:
            levels = list(LEVELS)
        elif labels is not None:
            levels = ["nominal", "ordinal", "interval"]
            notes.append("the ratio level needs numbers; text values have no true zero")
        else:
            levels = ["nominal"]
            notes.append("text values without --labels: the ordinal and interval levels "
                         "need their order (--labels LOW,...,HIGH)")
    reliability = _reliability_counts(data, labels)
    rows = []
    for level in levels:
        # Bad input for this level (text without an order) is refused here, before
        # any resampling.
        alpha = krippendorff_alpha(data, level=level, labels=labels)
        low = high = np.nan
        if not np.isnan(alpha):
            try:
                result = krippendorff_alpha_interval(
                    data, level=level, labels=labels,
                    confidence_level=args.confidence_level, n_resamples=args.n_resamples,
                    method=args.method, random_state=args.seed)
                low, high = result.confidence_interval
            except (UndefinedMeasureError, ValueError) as error:
                tell("agreement", "warning", f"{level}: no interval: {error}")
        rows.append((level, alpha, low, high))
    sys.stdout.write(_report(args, layout, reliability, rows, notes))


def _report(args, layout, reliability, rows, notes):
    classes = ", ".join(str(c) for c in _shown(reliability.classes)[:12])
    more = len(reliability.classes) - 12
    lines = [
        f"Krippendorff's alpha of {args.annotations.name} ({layout})",
        f"{reliability.n_annotators} annotators, {reliability.n_units} units, "
        f"{reliability.n_values} annotations; {len(reliability.counts)} units have two or "
        "more (pairable)",
        f"values in order: {classes}" + (f" and {more} more" if more > 0 else ""),
        "",
        f"  {'level':<9}  {'alpha':>7}  {args.confidence_level:.0%} interval",
    ]
    for level, alpha, low, high in rows:
        shown = "n/a" if np.isnan(low) else f"[{low:.3f}, {high:.3f}]"
        lines.append(f"  {level:<9}  {alpha:7.3f}  {shown}")
    seed = (f"seed {args.seed}" if args.seed is not None
            else "no seed (--seed N repeats the numbers)")
    lines += [
        "",
        f"Intervals: {_METHOD_NAMES[args.method]} bootstrap over the {len(reliability.counts)} pairable "
        f"units, {args.n_resamples} resamples, {seed}.",
        "1 = perfect agreement, 0 = the agreement of chance.",
    ]
    lines += [f"Note: {note}." for note in notes]
    return "\n".join(lines) + "\n"


_METHOD_NAMES = {"bca": "BCa", "percentile": "percentile", "basic": "basic"}


def _shown(classes):
    """Whole numbers without their ``.0``."""
    if classes.dtype.kind == "f" and np.all(classes == np.round(classes)):
        return classes.astype(np.int64)
    return classes
