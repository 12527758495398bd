"""``python -m sklearn_ordinal compare SCORES.csv --measure NAME``: the command line of
:func:`~sklearn_ordinal.stats.compare_across_datasets`.

The parser and the run function live here, beside the statistics; ``__main__`` only
registers them (``add_compare_parser``) and calls ``run_compare``.
"""

import argparse
from dataclasses import replace
from pathlib import Path

import pandas as pd

from .._table_files import as_numbers, read_table, refuse_repeated
from .._command_line import (
    check_output_folders,
    fraction,
    output_format,
    plotting,
    reworded,
    run_command,
    tell,
    write_output,
)
from ._across_datasets import compare_across_datasets
from ._critical_difference import CriticalDifferenceDisplay

_DESCRIPTION = """\
Compare systems across data sets, as sklearn_ordinal.stats.compare_across_datasets
does: each data set ranks the systems (1 = best in the measure's direction), then
Friedman's and Iman-Davenport's tests, every pair by the Wilcoxon signed-rank test
with Holm's correction and by Nemenyi's test, and every system against --control.

SCORES is a CSV (.csv) or TSV (.tsv) table, either long, with columns dataset,
system and score (and optionally measure, to hold several measures: the rows of
--measure are kept), or wide, with the data sets' names in the first column and one
column per system. A missing score is an error naming it, unless --drop-incomplete.

The direction is looked up from --measure: a scorer's name (neg_mean_absolute_error,
cem_ord) holds scores where higher is better, a loss's name (mean_absolute_error)
lower; --direction states it for other names. Bad input exits with code 2 and a
one-line message on standard error.
"""

_EPILOG = """\
example:
  python -m sklearn_ordinal compare scores.csv --measure mean_absolute_error \\
      --control trivial --format markdown --plot cd.png
"""

# The statistics' advice names Python arguments; here it names the options.
_OPTIONS = [
    ("drop_incomplete=True", "--drop-incomplete"),
    ("greater_is_better=", "--direction "),
    ("control=", "--control "),
]


def add_compare_parser(commands):
    """Add the ``compare`` subcommand to ``commands`` (an argparse subparsers object)."""
    parser = commands.add_parser(
        "compare", help="compare systems across data sets (ranks, tests, CD diagram)",
        description=_DESCRIPTION, epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("scores", type=Path, metavar="SCORES",
                        help="the table of scores (.csv or .tsv), long or wide")
    parser.add_argument("--measure", required=True, metavar="NAME",
                        help="the measure the scores are of; gives their direction")
    parser.add_argument("--direction", choices=["higher", "lower"],
                        help="which scores are better, for a measure the package does "
                        "not know (default: looked up from --measure)")
    parser.add_argument("--control", metavar="SYSTEM",
                        help="compare every system with this one too")
    parser.add_argument("--alpha", type=fraction, default=0.05, metavar="ALPHA",
                        help="significance level (default: 0.05)")
    parser.add_argument("--posthoc", choices=["wilcoxon", "nemenyi"], default="wilcoxon",
                        help="the pairwise test behind the decisions and the diagram's "
                        "bars (default: wilcoxon, Holm-adjusted)")
    parser.add_argument("--zero-method", choices=["wilcox", "pratt", "zsplit"],
                        default="wilcox", help="Wilcoxon's treatment of equal scores "
                        "(default: wilcox, SciPy's: dropped)")
    parser.add_argument("--drop-incomplete", action="store_true",
                        help="leave out the data sets that lack a score, instead of failing")
    parser.add_argument("--format", choices=["text", "markdown", "csv", "json"],
                        help="of the result (default: from --output's extension .md, .csv "
                        "or .json, else text)")
    parser.add_argument("--output", type=Path, metavar="FILE",
                        help="write the result to FILE instead of standard output")
    parser.add_argument("--plot", type=Path, metavar="FILE.png",
                        help="save the critical-difference diagram (needs matplotlib)")
    parser.set_defaults(run=run_compare)
    return parser


def _tell(what, message):
    tell("compare", what, message)


def run_compare(args):
    """Run the compare command; ValueErrors become exit code 2 and one line on stderr."""
    return run_command("compare", _run, args, advice=reworded(_OPTIONS))


def _read_scores(path, measure):
    table = read_table(path, formats={"csv", "tsv"})
    long = table.find("dataset", "system", "score")
    if long is not None:
        frame = table.frame
        found = table.find("measure")
        if found is not None:
            measures = list(pd.unique(frame[found[0]]))
            frame = frame[frame[found[0]] == measure]
            if frame.empty:
                raise ValueError(f"{path}: no rows of measure {measure!r}; it has {measures}.")
        refuse_repeated(replace(table, frame=frame), long[:2], what="data set and system",
                        advice="give one score per pair (average the folds or repetitions "
                        "first)")
        scores = as_numbers(table, [long[2]], what="score").loc[frame.index, long[2]]
        # Systems are names: 1 and "1" are the same system, as --control writes it.
        return pd.DataFrame({"dataset": frame[long[0]], "system": frame[long[1]].astype(str),
                             "score": scores})
    if table.frame.shape[1] < 3:
        raise ValueError(
            f"{path}: needs columns dataset, system and score, or the data sets' names "
            "and then one column per system (2 systems or more); got columns "
            f"{list(table.frame.columns)}."
        )
    refuse_repeated(table, [table.frame.columns[0]], what="data set",
                    advice="name each data set once")
    systems = list(table.frame.columns[1:])
    scores = as_numbers(table, systems, what="score")
    scores.index = pd.Index(table.frame.iloc[:, 0], name=table.frame.columns[0])
    return scores


def _run(args):
    check_output_folders(args)
    scores = _read_scores(args.scores, args.measure)
    direction = None if args.direction is None else args.direction == "higher"
    comparison = compare_across_datasets(
        scores, args.measure, greater_is_better=direction, alpha=args.alpha,
        control=args.control, posthoc=args.posthoc, zero_method=args.zero_method,
        drop_incomplete=args.drop_incomplete,
    )
    writers = {
        "text": comparison.to_string,
        "markdown": comparison.to_markdown,
        "csv": comparison.to_csv,
        "json": comparison.to_json,
    }
    text = writers[output_format(args, writers)]()
    write_output(text, args.output)
    if args.plot:
        plotting()
        display = CriticalDifferenceDisplay.from_comparison(comparison).plot()
        display.figure_.savefig(args.plot, bbox_inches="tight")
