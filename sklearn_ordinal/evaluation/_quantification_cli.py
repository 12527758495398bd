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

import numpy as np
import pandas as pd

from .._table_files import ONLY_EMPTY, read_table
from .._command_line import fraction, positive, run_command, whole_number
from ..metrics._quantification import ROW_SUM_TOLERANCE, check_prevalences
from ..metrics._registry import prevalence_measure
from ._quantification import records_from_prevalences

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
classes in class order (lowest first), summing to 1 within 0.001 (the official
scorer's tolerance); the numbers may also be separated by spaces.
GOLD: the same format (true prevalences), or one item per line, "id<TAB>topic<TAB>
label" (subtask C's gold), whose shares per topic are the true prevalences.

Note: the Perl scorer distributed with the task (score-semeval2016-task4-subtaskE.pl)
takes the absolute value inside the cumulative sum, which is not the task paper's
EMD and can exceed it; this command computes the paper's formula (see the user
guide). Bad input exits with code 2 and a one-line message on standard error.
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
    parser.add_argument("--labels", default=",".join(SEMEVAL_LABELS), metavar="L1,L2,...",
                        help="the classes in order, lowest first, as the gold's items "
                        "write them (default: SemEval-2016's -2,-1,0,1,2)")
    parser.add_argument("--measures", default=",".join(DEFAULT_MEASURES),
                        metavar="NAME,...", help="prevalence measures (match_distance or "
                        "emd, normalized_match_distance or nmd, "
                        "root_normalized_order_aware_divergence or rnod)")
    parser.add_argument("--n-resamples", type=positive, default=9999, metavar="B",
                        help="bootstrap resamples of the topics (default 9999)")
    parser.add_argument("--confidence-level", type=fraction, default=0.95, metavar="LEVEL",
                        help="of every interval (default 0.95)")
    parser.add_argument("--seed", type=whole_number, default=0,
                        help="seed of the resampling (default 0)")
    parser.set_defaults(run=run_quantification)
    return parser


def _lines(path):
    """``[(line number, fields)]`` of a tab-separated file, blank lines skipped."""
    # Every cell as written: a share that is not a number is refused with its line.
    table = read_table(path, header=False, file_format="tsv", missing_markers=ONLY_EMPTY)
    return [(number, [cell for cell in row if cell is not None])
            for number, row in zip(table.frame.index, table.frame.itertuples(index=False))]


def _numbers(path, number, fields):
    try:
        return [float(value) for value in fields]
    except ValueError:
        raise ValueError(
            f"{path} line {number}: {fields!r} are not all numbers; a line is "
            "'topic<TAB>p_1<TAB>...<TAB>p_K'."
        ) from None


def read_prevalences(path, n_classes):
    """``(topics, (G, K) prevalences)`` of a file in subtask E's format."""
    topics, rows = [], []
    for number, fields in _lines(path):
        topic, values = fields[0].strip(), " ".join(fields[1:]).split()
        if len(values) != n_classes:
            raise ValueError(
                f"{path} line {number} (topic {topic!r}): {len(values)} prevalences for "
                f"{n_classes} classes; a line is the topic, a tab, then one share per class."
            )
        row = np.array(_numbers(path, number, values))
        if abs(row.sum() - 1) > ROW_SUM_TOLERANCE or (row < 0).any():
            raise ValueError(
                f"{path} line {number} (topic {topic!r}): the prevalences {values} sum to "
                f"{row.sum():.6g}; they must be non-negative and sum to 1 (within "
                f"{ROW_SUM_TOLERANCE:g})."
            )
        topics.append(topic)
        rows.append(row)
    repeated = pd.Index(topics)[pd.Index(topics).duplicated()]
    if len(repeated):
        raise ValueError(f"{path}: topic {repeated[0]!r} has more than one line.")
    return topics, check_prevalences(np.array(rows), str(path))


def _is_items_file(rows, n_classes):
    """Items (id, topic, label) rather than prevalences (topic, K numbers)?"""
    first = rows[0][1]
    if len(first) != 3:
        return False
    if n_classes != 2:
        return True
    # Two classes: "topic, p, q" has three fields too; items have a label there.
    try:
        float(first[1])
        float(first[2])
    except ValueError:
        return True
    return False


def read_gold(path, labels):
    """``(topics, (G, K) true prevalences, what the file held)``."""
    rows = _lines(path)
    if not _is_items_file(rows, len(labels)):
        topics, prevalence = read_prevalences(path, len(labels))
        return topics, prevalence, "prevalences"
    position = {label: k for k, label in enumerate(labels)}
    topics, codes = [], []
    for number, fields in rows:
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
    group, names = pd.factorize(pd.Index(topics))
    counts = np.bincount(group * len(labels) + np.array(codes),
                         minlength=len(names) * len(labels)).reshape(len(names), len(labels))
    return list(names), counts / counts.sum(axis=1, keepdims=True), "items"


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
    labels = [label.strip() for label in args.labels.split(",") if label.strip()]
    if len(labels) < 2 or len(set(labels)) != len(labels):
        raise ValueError(f"--labels must name at least two distinct classes; got {labels}.")
    measures = {name.strip(): name.strip() for name in args.measures.split(",") if name.strip()}
    for name in measures:
        prevalence_measure(name)
    gold_topics, gold, held = read_gold(args.gold, labels)
    names = _system_names(args.submissions)
    predicted = {}
    for name, path in zip(names, args.submissions):
        topics, prevalence = read_prevalences(path, len(labels))
        predicted[name] = _aligned(path, topics, gold_topics, prevalence)
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
    return scores, comparisons, result.notes, header


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
