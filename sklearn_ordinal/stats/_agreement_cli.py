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

from .._command_line import (
    class_names,
    fraction,
    positive,
    run_command,
    tell,
    whole_number,
)
from .._table_files import (
    MISSING_MARKERS,
    ONLY_EMPTY,
    as_numbers,
    column_key,
    read_table,
    refuse_repeated,
)
from .._validation import UndefinedMeasureError
from .._warnings import warn_user
from ..metrics._agreement_weights import WEIGHTS
from ..metrics._chance_corrected import _NAMES
from ..metrics._intraclass import FORMS
from ..metrics._krippendorff import LEVELS, _reliability_counts, krippendorff_alpha
from ._chance_corrected import agreement_interval
from ._intraclass import intraclass_correlation_interval
from ._judge import judge_agreement
from ._krippendorff import krippendorff_alpha_interval
from ._resampling import DEFAULT_N_RESAMPLES

_DESCRIPTION = """\
How far the annotators of a gold standard agree: Krippendorff's alpha at the
nominal, ordinal, interval and ratio levels, with missing annotations, and its
bootstrap interval over the units (sklearn_ordinal.stats.krippendorff_alpha_interval).

ANNOTATIONS is a CSV (.csv), TSV (.tsv), JSON (.json, .jsonl) or Parquet
(.parquet) table in one of two layouts, told apart by its columns (their names
matched ignoring case and spaces: Unit, " unit" and unit are one):
  long  columns annotator, unit and value (other columns are not read): one row
        per annotation; a unit an annotator did not label has no row (or a missing
        value). An annotator and a unit in two rows is an error.
  wide  any other columns: one row per unit and one column per annotator; a first
        column named unit, id or item holds the units' names and is no annotator.
        A column with a different value in each of 8 rows or more is read as an
        annotator with a warning: it looks like the units' names.
A missing annotation is an empty cell or one of the usual markers: NA (R), . (SPSS),
N/A, #N/A, NaN, nan, NULL, null, None, <NA>; with --no-missing-markers only an
empty cell is missing and the markers are values. The values are numbers when every
one of them is a number (an infinite one is an error), text otherwise.

By default every level the values allow is printed: all four for numbers (not
ratio when a value is negative: ratio values are amounts with a true zero); for
text, nominal, and with --labels (the values in order, lowest first) ordinal and
interval too (text values in that order are equally spaced; the ratio level needs
numbers). Bad input exits with code 2 and a one-line message on standard error.

--coefficient adds other coefficients (sklearn_ordinal.stats.agreement_interval and
intraclass_correlation_interval): alpha, ac1 (Gwet's AC1), ac2 (Gwet's AC2, with
--weights, default ordinal), fleiss, conger, bp (Brennan-Prediger), pa (percent
agreement), icc (--form, default ICC(2,1); needs every rating). fleiss, conger, bp
and pa use --weights (default identity). --method normal gives Gwet's variance
(the ICC's F interval); alpha's interval is then BCa.

--judge COLUMN holds the annotator COLUMN (a column of a wide table, or an
annotator of a long one) against the others as a panel
(sklearn_ordinal.stats.judge_agreement): agreement with intervals, the alternative
annotator test, leniency, confusion with the panel's consensus, the largest
disagreements, and the judge's abstentions (its missing ratings).
"""

_EPILOG = """\
example:
  python -m sklearn_ordinal agreement annotations.csv --level ordinal --seed 0
  python -m sklearn_ordinal agreement grades.tsv --labels low,mid,high
  python -m sklearn_ordinal agreement grades.csv --coefficient alpha,ac2,fleiss,icc
  python -m sklearn_ordinal agreement ratings.csv --judge gpt-4o --seed 0
"""

# The command line's names of the coefficients: (function's name, default weights).
_COEFFICIENTS = {
    "alpha": ("krippendorff_alpha", None),
    "ac1": ("gwet_ac", "identity"),
    "ac2": ("gwet_ac", "ordinal"),
    "fleiss": ("fleiss_kappa", "identity"),
    "conger": ("conger_kappa", "identity"),
    "bp": ("brennan_prediger", "identity"),
    "pa": ("percent_agreement", "identity"),
    "icc": ("intraclass_correlation", None),
}


def _coefficients(text):
    names = [name.strip().lower() for name in text.split(",")]
    unknown = [name for name in names if name not in _COEFFICIENTS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown coefficient(s) {unknown}; choose among {', '.join(_COEFFICIENTS)}, "
            "separated by commas")
    return names


def _form(text):
    forms = {name.lower().replace(" ", ""): form for form, aliases in FORMS.items()
             for name in (form,) + aliases}
    key = text.lower().replace(" ", "")
    if key not in forms:
        raise argparse.ArgumentTypeError(
            f"unknown ICC form {text!r}; choose among {', '.join(FORMS)}")
    return forms[key]


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


def add_agreement_parser(commands):
    """Add the ``agreement`` subcommand to ``commands`` (an argparse subparsers object)."""
    parser = commands.add_parser(
        "agreement", help="how far annotators agree (Krippendorff's alpha, with intervals)",
        description=_DESCRIPTION, epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("annotations", type=Path, metavar="ANNOTATIONS",
                        help="the table of annotations (.csv, .tsv, .json or .parquet), "
                        "long or wide")
    parser.add_argument("--level", type=_levels, default=None, metavar="LEVEL,...",
                        help="nominal, ordinal, interval or ratio, separated by commas, or "
                        "all (default: every level the values allow)")
    parser.add_argument("--labels", type=class_names, metavar="LOW,...,HIGH",
                        help="the values in order, lowest first, separated by commas; or "
                        "a JSON list ('[\"a, b\", \"c\"]') or @FILE (one value per "
                        "line), for values with commas; needed for text values at the "
                        "ordinal and interval levels "
                        "(negative values work as written: --labels -1,0,1)")
    parser.add_argument("--no-missing-markers", action="store_true",
                        help="read only an empty cell as a missing annotation (NA, ., "
                        "null and the other markers are then values)")
    parser.add_argument("--confidence-level", type=fraction, default=0.95, metavar="LEVEL",
                        help="of the bootstrap intervals (default: 0.95)")
    parser.add_argument("--n-resamples", type=positive, default=DEFAULT_N_RESAMPLES,
                        metavar="N", help="bootstrap resamples of the units (default: "
                        f"{DEFAULT_N_RESAMPLES})")
    parser.add_argument("--method", choices=["bca", "percentile", "basic", "normal"],
                        default="bca", help="interval method (default: bca; normal: "
                        "Gwet's variance and the ICC's F interval, alpha's stays BCa)")
    parser.add_argument("--coefficient", type=_coefficients, metavar="NAME,...",
                        help="coefficients to print: alpha, ac1, ac2, fleiss, conger, bp, "
                        "pa, icc, separated by commas (default: alpha)")
    parser.add_argument("--weights", choices=WEIGHTS, metavar="WEIGHTS",
                        help=f"weights of ac2, fleiss, conger, bp and pa: {', '.join(WEIGHTS)} "
                        "(default: ordinal for ac2, identity for the others)")
    parser.add_argument("--form", type=_form, default="ICC(2,1)", metavar="FORM",
                        help="the ICC's form: ICC(1,1), ICC(2,1), ICC(3,1), ICC(1,k), "
                        "ICC(2,k), ICC(3,k) (default: ICC(2,1))")
    parser.add_argument("--judge", metavar="COLUMN",
                        help="hold this annotator (a column of a wide table, an annotator "
                        "of a long one) against the others (a judge against a panel)")
    parser.add_argument("--epsilon", type=fraction, default=0.2, metavar="E",
                        help="with --judge: the alternative annotator test's margin "
                        "(default: 0.2, experts; 0.15 skilled, 0.1 crowd workers)")
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
    ("Keep the complete units (e.g. ratings[:, ~np.isnan(ratings).any(axis=0)]), or use "
     "krippendorff_alpha(level='interval'), which allows missing ratings.",
     "Keep the complete units, or use alpha (--coefficient alpha --level interval), which "
     "allows missing ratings."),
    ("choose weights='identity'", "leave out --weights"),
    ("The judge gave no rating at all", "The --judge annotator gave no rating at all"),
]


def _for_the_command_line(message):
    for python, option in _COMMAND_LINE_ADVICE:
        message = message.replace(python, option)
    return message


# A wide table's first column holds the units' names, not an annotator's values, when
# it is called one of these (matched ignoring case and spaces: "Unit", "ID", " item").
_UNIT_NAMES = ("unit", "units", "id", "item", "items", "unitid", "itemid")
# A column with a distinct value in every one of at least this many rows looks like
# the units' names: annotators of a handful of units may differ on each, but hardly
# on 8 or more without repeating a value.
_DISTINCT_ROWS = 8


def read_annotations(path, missing_markers=MISSING_MARKERS):
    """``(reliability_data, layout)``: annotators x units, as float64 (NaN where
    missing) when every annotation is a number, else as text (None where missing),
    and a sentence saying how the file was read."""
    wide, layout = read_annotation_table(path, missing_markers)
    data = wide.T.to_numpy(dtype=np.float64 if _numeric(wide) else object)
    return data, layout


def read_annotation_table(path, missing_markers=MISSING_MARKERS):
    """``(wide, layout)``: the annotations as a DataFrame of one row per unit and one
    column per annotator (named as in the file), and how the file was read."""
    table = read_table(path, missing_markers=missing_markers)
    frame = table.frame
    long = table.find("annotator", "unit", "value")
    if long is not None:
        annotator, unit, value = long
        for column in (annotator, unit):
            if frame[column].isna().any():
                raise ValueError(f"{path}: {table.rows(frame[column].isna())} without "
                                 f"{column}; every row needs one.")
        refuse_repeated(table, [annotator, unit], what="annotator and unit",
                        advice="give each annotation once")
        values = _values(table, [value])
        wide = values.assign(unit=frame[unit].astype(str), annotator=frame[annotator]
                             .astype(str)).pivot(index="unit", columns="annotator",
                                                 values=value)
        wide = wide.reindex(index=pd.unique(frame[unit].astype(str)),
                            columns=pd.unique(frame[annotator].astype(str)))
        layout = (f"long (annotator, unit, value): {wide.shape[1]} annotators, "
                  f"{wide.shape[0]} units")
    else:
        annotators = list(frame.columns)
        if column_key(annotators[0]) in _UNIT_NAMES:
            refuse_repeated(table, annotators[:1], what="unit",
                            advice="name each unit once")
            if frame[annotators[0]].isna().any():
                raise ValueError(f"{path}: {table.rows(frame[annotators[0]].isna())} "
                                 f"without a unit in column {annotators[0]!r}; name each "
                                 "unit.")
            annotators = annotators[1:]
        if len(annotators) < 2:
            raise ValueError(
                f"{path}: needs two annotators or more: columns annotator, unit and value "
                "(long), or one column per annotator (wide); got columns "
                f"{list(frame.columns)}.")
        _warn_unit_names(table, annotators)
        wide = _values(table, annotators)
        if len(annotators) < len(frame.columns):
            # The units by their names (the judge report lists units).
            wide.index = pd.Index(frame[frame.columns[0]].astype(str), name="unit")
        layout = (f"wide: {wide.shape[1]} annotators as columns, {wide.shape[0]} units as "
                  "rows")
    return wide, layout


def _values(table, columns):
    """The annotations of ``columns``: numbers when every one is a number (an infinite
    one refused, naming its line), else text."""
    numbers = as_numbers(table, columns, what="annotation", strict=False)
    if numbers is not None:
        return numbers
    cells = table.frame[columns].astype(object)
    return cells.where(cells.notna(), None).map(
        lambda value: value if value is None else str(value))


def _numeric(frame):
    return all(dtype.kind == "f" for dtype in frame.dtypes)


def _warn_unit_names(table, annotators):
    """A column of the units' names read as an annotator gives a wrong alpha silently."""
    frame = table.frame
    if len(frame) < _DISTINCT_ROWS:
        return
    for column in annotators:
        cells = frame[column]
        if cells.notna().all() and cells.is_unique:
            warn_user(
                f"{table.path}: column {column!r} holds a different value in each of its "
                f"{len(frame)} rows, as the units' names do, and is read as an annotator. "
                "If it names the units, call it unit, id or item and put it first.",
                UserWarning,
            )


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
    wide, layout = read_annotation_table(
        args.annotations, ONLY_EMPTY if args.no_missing_markers else MISSING_MARKERS)
    if args.judge is not None:
        _judge(args, wide, layout)
        return
    data = wide.T.to_numpy(dtype=np.float64 if _numeric(wide) else object)
    numbers = data.dtype.kind == "f"
    labels = args.labels
    if numbers:
        labels = None if labels is None else _number_labels(labels)
    levels = args.level
    notes = []
    if levels is None:
        if numbers and (data < 0).any():
            levels = ["nominal", "ordinal", "interval"]
            notes.append("the ratio level needs non-negative values (amounts with a true "
                         "zero); these include negative ones")
        elif numbers:
            levels = list(LEVELS)
        elif labels is not None:
            levels = ["nominal", "ordinal", "interval"]
            notes.append("the ratio level needs numbers; text values have no true zero")
        else:
            levels = ["nominal"]
            notes.append("text values without --labels: the ordinal and interval levels "
                         "need their order (--labels LOW,...,HIGH)")
    reliability = _reliability_counts(data, labels)
    coefficients = args.coefficient or ["alpha"]
    others = [name for name in coefficients if name != "alpha"]
    if "alpha" not in coefficients:
        levels = []
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
                    method="bca" if args.method == "normal" else args.method,
                    random_state=args.seed)
                low, high = result.confidence_interval
            except (UndefinedMeasureError, ValueError) as error:
                tell("agreement", "warning", f"{level}: no interval: {error}")
        rows.append((level, alpha, low, high))
    other_rows = [_other_coefficient(args, name, data, labels) for name in others]
    sys.stdout.write(_report(args, layout, reliability, rows, notes, other_rows))


def _other_coefficient(args, name, data, labels):
    """``(shown name, value, low, high)`` of a coefficient other than alpha."""
    function, default_weights = _COEFFICIENTS[name]
    common = dict(labels=labels, confidence_level=args.confidence_level,
                  n_resamples=args.n_resamples, random_state=args.seed)
    if name == "icc":
        result = intraclass_correlation_interval(
            data, form=args.form, method="f" if args.method == "normal" else args.method,
            **common)
        shown = args.form
    else:
        weights = "identity" if name == "ac1" else args.weights or default_weights
        result = agreement_interval(data, coefficient=function, weights=weights,
                                    method=args.method, **common)
        shown = _NAMES[function].replace("Gwet's AC", f"Gwet's {name.upper()}")
        shown += f" ({weights})" if weights != "identity" else ""
    low, high = result.confidence_interval
    return shown, result.estimate, low, high


def _report(args, layout, reliability, rows, notes, other_rows=()):
    classes = ", ".join(str(c) for c in _shown(reliability.classes)[:12])
    more = len(reliability.classes) - 12
    title = "Krippendorff's alpha" if rows else "Agreement"
    lines = [
        f"{title} of {args.annotations.name} ({layout})",
        f"{reliability.n_annotators} annotators, {reliability.n_units} units, "
        f"{reliability.n_values} annotations; {len(reliability.counts)} units have two or "
        "more (pairable)",
        f"values in order: {classes}" + (f" and {more} more" if more > 0 else ""),
    ]
    if rows:
        lines += ["", f"  {'level':<9}  {'alpha':>7}  {args.confidence_level:.0%} interval"]
    for level, alpha, low, high in rows:
        shown = "n/a" if np.isnan(low) else f"[{low:.3f}, {high:.3f}]"
        lines.append(f"  {level:<9}  {alpha:7.3f}  {shown}")
    if other_rows:
        width = max(len(row[0]) for row in other_rows)
        lines += ["", f"  {'coefficient':<{width}}  {'value':>7}  "
                      f"{args.confidence_level:.0%} interval"]
        for shown, value, low, high in other_rows:
            lines.append(f"  {shown:<{width}}  {value:7.3f}  [{low:.3f}, {high:.3f}]")
    seed = (f"seed {args.seed}" if args.seed is not None
            else "no seed (--seed N repeats the numbers)")
    method = _METHOD_NAMES[args.method]
    lines += [
        "",
        f"Intervals: {method} over the {len(reliability.counts)} pairable "
        f"units, {args.n_resamples} resamples, {seed}." if args.method != "normal" else
        f"Intervals: Gwet's analytic variance (the ICC's F interval; alpha's BCa bootstrap, "
        f"{args.n_resamples} resamples, {seed}).",
        "1 = perfect agreement, 0 = the agreement of chance.",
    ]
    lines += [f"Note: {note}." for note in notes]
    return "\n".join(lines) + "\n"


_METHOD_NAMES = {"bca": "BCa bootstrap", "percentile": "percentile bootstrap",
                 "basic": "basic bootstrap", "normal": "normal (Gwet's variance; the ICC's F interval)"}


def _judge(args, wide, layout):
    """The judge report of the annotator ``--judge`` against the others."""
    path = args.annotations
    if args.judge not in wide.columns:
        raise ValueError(
            f"{path}: no annotator {args.judge!r} for --judge; the annotators are "
            f"{', '.join(map(str, list(wide.columns)[:12]))}"
            f"{' and more' if wide.shape[1] > 12 else ''}.")
    if args.coefficient and len([c for c in args.coefficient if c != "alpha"]) > 1:
        raise ValueError("--judge reports alpha and one other coefficient; give one of "
                         "ac1, ac2, fleiss, conger, bp, pa in --coefficient.")
    numbers = _numeric(wide)
    labels = args.labels
    if numbers and labels is not None:
        labels = _number_labels(labels)
    if args.level is not None and len(args.level) > 1:
        raise ValueError("--judge reads one --level; give one of nominal, ordinal, interval.")
    level = args.level[0] if args.level else (
        "ordinal" if numbers or labels is not None else "nominal")
    if level == "ratio":
        raise ValueError("--judge reads the levels nominal, ordinal and interval; choose "
                         "one of them.")
    chosen = [c for c in (args.coefficient or []) if c not in ("alpha", "icc")]
    name = chosen[0] if chosen else "ac2" if level != "nominal" else "ac1"
    function, default_weights = _COEFFICIENTS[name]
    weights = None if name == "ac2" and args.weights is None else (
        "identity" if name == "ac1" else args.weights or default_weights)
    panel = wide.T
    panel.index.name = "annotator"
    report = judge_agreement(
        panel, args.judge, labels=labels, level=level, coefficient=function,
        weights=weights, confidence_level=args.confidence_level, method=args.method,
        n_resamples=args.n_resamples, epsilon=args.epsilon, random_state=args.seed)
    sys.stdout.write(f"Judge {args.judge!r} of {path.name} ({layout})\n\n")
    sys.stdout.write(report.to_string())


def _shown(classes):
    """Whole numbers without their ``.0``."""
    if classes.dtype.kind == "f" and np.all(classes == np.round(classes)):
        return classes.astype(np.int64)
    return classes
