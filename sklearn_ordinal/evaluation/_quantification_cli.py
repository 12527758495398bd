"""``python -m sklearn_ordinal quantification GOLD SUBMISSION...``: ordinal
quantification files, as SemEval-2016 Task 4 subtask E wrote them.

A submission has one line per topic: the topic, a tab, then the predicted share of
each class in class order (``topic<TAB>label-2<TAB>label-1<TAB>label0<TAB>label1
<TAB>label2`` on the task's five-point scale). The gold standard is either the same
format (true prevalences) or the items themselves, one per line, ``id<TAB>topic
<TAB>label`` (subtask C's gold, from which the task's organisers derived E's). The
parser and the run function live here; ``__main__`` only registers them.
"""

import argparse
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from .._table_files import ONLY_EMPTY, read_table, refuse_repeated
from .._command_line import (
    class_names,
    comma_names,
    fraction,
    positive,
    run_command,
    whole_number,
)
from ..metrics._quantification import ROW_SUM_TOLERANCE, check_prevalences
from ..metrics._registry import prevalence_measure
from ._quantification import records_from_prevalences

# A row whose float sum is this close to 1 sums to 1 as written.
_EXACT = 1e-9

# SemEval-2016 Task 4's five-point scale, lowest first (subtasks C and E).
SEMEVAL_LABELS = ("-2", "-1", "0", "1", "2")
DEFAULT_MEASURES = ("match_distance", "normalized_match_distance",
                    "root_normalized_order_aware_divergence")

_DESCRIPTION = """\
Score ordinal quantification submissions against a gold standard, as SemEval-2016
Task 4 subtask E did: for every topic, the match distance (the Earth Mover's
Distance on the ordinal scale, the task paper's EMD) between the true and the
predicted class prevalences, averaged over the topics; beside it NMD (LeQua 2024's
measure, the distance divided by K - 1) and RNOD (Sakai 2021). Each with a 95% BCa
interval from resampling the topics, the trivial quantifier (the gold's overall
prevalences for every topic) as a baseline, and every pair of submissions compared
(paired bootstrap over topics; Holm's adjustment within each measure).

SUBMISSION: one line per topic, "topic<TAB>p_1<TAB>...<TAB>p_K", the shares of the
classes in class order (lowest first); the numbers may also be separated by spaces.
A row must sum to 1 within what its decimals allow: K shares written with d
decimals, K x 0.5 x 10^-d (five shares of three decimals: 0.998 to 1.002), and
never less than 0.001. Rows are scored as written, as the official evaluation did
(--normalize rescales them to sum to 1 first); the report counts the rows that do
not sum to 1 exactly, and by how much.
GOLD: the same format (true prevalences), or one item per line, "id<TAB>topic<TAB>
label" (subtask C's gold, each id once), whose shares per topic are the true
prevalences.

Note: the Perl scorer first distributed with the task
(score-semeval2016-task4-subtaskE.pl, November 2015) takes the absolute value
inside the cumulative sum, which is not the task paper's EMD and can exceed it; its
revision of December 2016 and this command compute the paper's formula (see the
user guide). Bad input exits with code 2 and a one-line message on standard error.
"""

_EPILOG = """\
example:
  python -m sklearn_ordinal quantification gold-C.tsv team1.txt team2.txt
  python -m sklearn_ordinal quantification gold-E.txt team1.txt --labels 1,2,3,4,5
"""


def add_quantification_parser(commands):
    """Add the ``quantification`` subcommand to ``commands`` (argparse subparsers)."""
    parser = commands.add_parser(
        "quantification",
        help="score ordinal quantification files (SemEval-2016 Task 4 subtask E)",
        description=_DESCRIPTION, epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("gold", type=Path, metavar="GOLD",
                        help="true prevalences per topic, or items: id, topic, label")
    parser.add_argument("submissions", type=Path, nargs="+", metavar="SUBMISSION",
                        help="predicted prevalences per topic, one file per system")
    # argparse reads a string default through ``type``, as if it were given.
    parser.add_argument("--labels", type=class_names, default=",".join(SEMEVAL_LABELS),
                        metavar="L1,L2,...",
                        help="the classes in order, lowest first, as the gold's items "
                        "write them; or a JSON list or @FILE, as for evaluate "
                        "(default: SemEval-2016's -2,-1,0,1,2; a list that "
                        "starts with a negative class works as written: --labels -2,-1,0)")
    parser.add_argument("--measures", type=comma_names, default=",".join(DEFAULT_MEASURES),
                        metavar="NAME,...", help="prevalence measures (match_distance or "
                        "emd, normalized_match_distance or nmd, "
                        "root_normalized_order_aware_divergence or rnod)")
    parser.add_argument("--normalize", action="store_true",
                        help="rescale every prevalence row to sum to 1 before scoring "
                        "(default: score the rows as written, as the official evaluation "
                        "did; the report counts the rows that do not sum to 1)")
    parser.add_argument("--n-resamples", type=positive, default=9999, metavar="B",
                        help="bootstrap resamples of the topics (default 9999)")
    parser.add_argument("--confidence-level", type=fraction, default=0.95, metavar="LEVEL",
                        help="of every interval (default 0.95)")
    parser.add_argument("--seed", type=whole_number, default=0,
                        help="seed of the resampling (default 0)")
    parser.set_defaults(run=run_quantification)
    return parser


def _read(path):
    """The file's lines as a table without a header: one row per non-blank line, its
    tab-separated fields in columns 0, 1, ... (None past a short line's end)."""
    # Every cell as written: a share that is not a number is refused with its line.
    return read_table(path, header=False, file_format="tsv", missing_markers=ONLY_EMPTY)


def _fields(table):
    """``[(line number, fields)]`` of the table."""
    return [(number, [cell for cell in row if isinstance(cell, str)])
            for number, row in zip(table.frame.index, table.frame.itertuples(index=False))]


def _decimals(text):
    """How many decimals a share is written with: 3 for ``.125`` and ``0.125``."""
    mantissa = text.lower().split("e")[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else 0


def written_tolerance(shares):
    """How far from 1 a row of shares written as ``shares`` (their text) may sum.

    Each share written with ``d`` decimals is its true value rounded to ``d``
    decimals, off by at most half a unit of the last decimal, ``0.5 * 10**-d``: the
    ``K`` shares of a row may then sum to 1 give or take ``K * 0.5 * 10**-d`` (five
    shares with three decimals: 0.0025, so sums of 0.998 to 1.002). ``d`` is the
    most decimals written in the row (a zero written ``0`` is exact). Never below
    the API's ``ROW_SUM_TOLERANCE`` (0.001, for rows written with four decimals or
    more); the float slack of ``check_prevalences`` comes on top.
    """
    decimals = max(_decimals(share) for share in shares)
    return max(ROW_SUM_TOLERANCE, len(shares) * 0.5 * 10.0**-decimals)


class Prevalences(NamedTuple):
    """A prevalence file as read: its topics, its rows as written, and how far they
    are from summing to 1."""

    topics: list
    rows: np.ndarray
    off: np.ndarray
    """|sum - 1| of each row, as written."""


def read_prevalences(path, n_classes, table=None):
    """The :class:`Prevalences` of a file in subtask E's format, rows as written."""
    table = _read(path) if table is None else table
    topics, rows, tolerances = [], [], []
    for number, fields in _fields(table):
        topic, values = fields[0].strip(), " ".join(fields[1:]).split()
        where = f"{path} line {number} (topic {topic!r})"
        if len(values) != n_classes:
            raise ValueError(
                f"{where}: {len(values)} prevalences for {n_classes} classes; a line is the "
                "topic, a tab, then one share per class."
            )
        row = np.array(_numbers(where, values))
        if (row < 0).any():
            raise ValueError(f"{where}: the share {values[int(np.argmax(row < 0))]} is "
                             "negative; shares are non-negative.")
        topics.append(topic)
        rows.append(row)
        tolerances.append(written_tolerance(values))
    table.frame["topic"] = topics
    refuse_repeated(table, ["topic"], what="topic", advice="give one line per topic")
    # Each row against what its own decimals allow; the message says how.
    rows = check_prevalences(
        np.array(rows), str(path), tolerance=tolerances,
        row_names=[f"line {number} (topic {topic!r})"
                   for number, topic in zip(table.frame.index, topics)],
        why=" (K shares written with d decimals: the larger of 0.001 and K x 0.5 x 10^-d)")
    return Prevalences(topics, rows, np.abs(rows.sum(axis=1) - 1))


def _numbers(where, values):
    try:
        numbers = [float(value) for value in values]
    except ValueError:
        raise ValueError(
            f"{where}: {values!r} are not all numbers; a line is "
            "'topic<TAB>p_1<TAB>...<TAB>p_K'."
        ) from None
    if not np.isfinite(numbers).all():
        raise ValueError(f"{where}: the share {values[int(np.argmin(np.isfinite(numbers)))]}"
                         " is not a finite number; every share is a number from 0 to 1.")
    return numbers


def _is_items_file(lines, labels):
    """Items (id, topic, label) rather than prevalences (topic, K numbers)?

    Only a file of three fields a line can be items. With two classes a prevalence
    line ``topic<TAB>p<TAB>q`` has three fields too: it is prevalences when its two
    numbers sum to 1 (an item line ``17<TAB>2016<TAB>1``, with a numeric topic,
    does not).
    """
    first = lines[0][1]
    if len(first) != 3:
        return False
    if len(labels) != 2:
        return True
    try:
        shares = [float(first[1]), float(first[2])]
    except ValueError:
        return True
    return abs(sum(shares) - 1) > written_tolerance(first[1:])


def read_gold(path, labels):
    """``(topics, (G, K) true prevalences, what the file held, |sum - 1| per row)``."""
    table = _read(path)
    lines = _fields(table)
    if not _is_items_file(lines, labels):
        prevalence = read_prevalences(path, len(labels), table)
        return prevalence.topics, prevalence.rows, "prevalences", prevalence.off
    position = {label: k for k, label in enumerate(labels)}
    topics, codes = [], []
    for number, fields in lines:
        if len(fields) != 3:
            raise ValueError(
                f"{path} line {number}: {len(fields)} fields; an item line is "
                "'id<TAB>topic<TAB>label'."
            )
        label = fields[2].strip()
        if label not in position:
            raise ValueError(
                f"{path} line {number}: the label {label!r} is not one of the classes "
                f"{list(labels)}; give the classes with --labels."
            )
        topics.append(fields[1].strip())
        codes.append(position[label])
    # An item counted twice would weigh twice in its topic's shares.
    refuse_repeated(table, [0], what="id", advice="give each item once")
    group, names = pd.factorize(pd.Index(topics))
    counts = np.bincount(group * len(labels) + np.array(codes),
                         minlength=len(names) * len(labels)).reshape(len(names), len(labels))
    return (list(names), counts / counts.sum(axis=1, keepdims=True), "items",
            np.zeros(len(names)))


def _aligned(path, topics, gold_topics, prevalence):
    """The submission's rows in the gold's topic order; unknown or missing topics refused."""
    known = set(gold_topics)
    unknown = [topic for topic in topics if topic not in known]
    if unknown:
        raise ValueError(
            f"{path}: {len(unknown)} topic(s) not in the gold standard, e.g. {unknown[0]!r}; "
            "every line must name one of the gold's topics."
        )
    position = {topic: row for row, topic in enumerate(topics)}
    missing = [topic for topic in gold_topics if topic not in position]
    if missing:
        raise ValueError(
            f"{path}: {len(missing)} of the gold's {len(gold_topics)} topics have no line, "
            f"e.g. {missing[0]!r}; give a prevalence line for every topic."
        )
    return prevalence[[position[topic] for topic in gold_topics]]


def _system_names(paths):
    names = [path.stem for path in paths]
    return names if len(set(names)) == len(names) else [str(path) for path in paths]


def quantification_tables(args):
    """``(scores, comparisons, notes, header)`` of the command's arguments."""
    labels = args.labels
    if len(labels) < 2 or len(set(labels)) != len(labels):
        raise ValueError(f"--labels must name at least two distinct classes; got {labels}.")
    measures = {name: name for name in args.measures}
    for name in measures:
        prevalence_measure(name)
    gold_topics, gold, held, gold_off = read_gold(args.gold, labels)
    names = _system_names(args.submissions)
    predicted, off = {}, {"the gold": (gold_off, args.gold)}
    for name, path in zip(names, args.submissions):
        read = read_prevalences(path, len(labels))
        predicted[name] = _aligned(path, read.topics, gold_topics, read.rows)
        off[name] = (read.off, path)
    if args.normalize:
        gold = gold / gold.sum(axis=1, keepdims=True)
        predicted = {name: rows / rows.sum(axis=1, keepdims=True)
                     for name, rows in predicted.items()}
    result = records_from_prevalences(
        gold, predicted, gold.mean(axis=0), gold_topics, names, measures,
        args.confidence_level, args.n_resamples, args.seed,
        trivial_description=("the mean gold prevalences",
                             "the gold prevalences averaged over the topics"),
    )
    scores = pd.DataFrame.from_records(result.scores)
    comparisons = pd.DataFrame.from_records(result.comparisons)
    header = (f"{len(gold_topics)} topics, {len(labels)} classes in order "
              f"{', '.join(labels)}; gold from {held} ({args.gold}). Each measure is "
              "averaged over the topics (lower is better), with its "
              f"{args.confidence_level:.0%} BCa interval from {args.n_resamples} "
              f"resamples of the topics (seed {args.seed}).")
    rows_off = _rows_off(off, args.normalize)
    if rows_off:
        header += "\n" + rows_off
    return scores, comparisons, result.notes, header


def _rows_off(off, normalized):
    """How many rows of each file do not sum to 1 exactly, and by how much: the
    report says what was scored."""
    counted = [(name, int((gaps > _EXACT).sum()), len(gaps), float(gaps.max()))
               for name, (gaps, _) in off.items()]
    counted = [entry for entry in counted if entry[1]]
    if not counted:
        return ""
    each = "; ".join(f"{name}: {n} of {total} (|sum - 1| up to {largest:.3g})"
                     for name, n, total, largest in counted)
    how = ("rescaled to sum to 1 before scoring (--normalize)" if normalized else
           "scored as written, as the official evaluation did (--normalize rescales "
           "them first)")
    return f"Rows whose shares do not sum to 1 exactly: {each}; {how}."


def _show(scores, comparisons, notes, header):
    print(header)
    print()
    cells = scores.assign(cell=[f"{e:.4f} [{lo:.4f}, {hi:.4f}]" for e, lo, hi in
                                zip(scores["estimate"], scores["low"], scores["high"])])
    table = cells.pivot(index="system", columns="measure", values="cell")
    table = table.reindex(index=list(dict.fromkeys(scores["system"])),
                          columns=list(dict.fromkeys(scores["measure"])))
    table.index.name = table.columns.name = None
    print(table.to_string())
    if len(comparisons):
        print()
        print("Paired differences a - b over the topics, 95% percentile bootstrap "
              "intervals, Holm-adjusted p-values within each measure:")
        shown = comparisons.assign(
            difference=[f"{d:+.4f} [{lo:.4f}, {hi:.4f}]" for d, lo, hi in
                        zip(comparisons["difference"], comparisons["low"],
                            comparisons["high"])],
            holm=comparisons["pvalue_holm"].map("{:.4f}".format),
        )[["measure", "system_a", "system_b", "difference", "holm", "better"]]
        print(shown.to_string(index=False))
    for note in notes:
        print(f"- {note['system']}, {note['measure']}: {note['reason']}")


def run_quantification(args):
    """Run the command; its exit code (2 and one line on standard error for bad input)."""
    return run_command("quantification", lambda a: _show(*quantification_tables(a)), args)
