"""Demo: which model does each measure choose, and does it beat the trivial baseline?

Run ``python -m sklearn_ordinal`` (``--help`` for the options); it takes a few
seconds and needs no network: the data ship with scikit-learn.

The diabetes data of scikit-learn (442 patients, 10 features) become an ordinal task
by cutting the disease progression target into 5 ordered grades with the class
sizes of TripAdvisor-15763 (3.9, 7.2, 9.4, 34.5 and 45.0 %), the imbalanced data set
of Baccianella et al. (2009), as Waegeman et al. (2008) cut Boston housing prices.

1. GridSearchCV tunes a scaled logistic regression (C, class_weight) once under
   each measure; the parameters each measure selects are printed.
2. Each selected model is cross-validated against the trivial classifier of every
   measure, with sklearn_ordinal.model_selection.compare_to_trivial: the trivial
   classifier predicts for every item the one class that scores best on the
   training folds under that measure.
3. How sure is each comparison? The out-of-fold predictions of the model and of the
   trivial classifier are pooled and compared item by item
   (sklearn_ordinal.stats.compare_scores): a paired 95% percentile bootstrap
   interval of the difference and the p-value of its inversion, as the evaluation
   report gives them, so that the interval excludes 0 exactly when p < 0.05.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from sklearn_ordinal._command_line import (
    check_output_folders,
    class_names,
    comma_names,
    fraction,
    joined_label_lists,
    output_format,
    plotting,
    positive,
    reworded,
    run_command,
    tell,
    whole_number,
    write_output,
)
from sklearn_ordinal.evaluation import evaluate, read_evaluation_files
from sklearn_ordinal.evaluation._quantification_cli import add_quantification_parser
from sklearn_ordinal.metrics import get_scorer, get_scorer_names
from sklearn_ordinal.stats._agreement_cli import add_agreement_parser
from sklearn_ordinal.stats._cli import add_compare_parser

# Share of the reviews with 1 to 5 stars in TripAdvisor-15763 (Baccianella et al. 2009).
TRIPADVISOR_SHARES = np.array([0.039, 0.072, 0.094, 0.345, 0.450])

# Micro- and macro-averaged MAE, then the closeness measure once the registry has it.
MEASURES = ("neg_mean_absolute_error", "neg_macro_mean_absolute_error", "cem_ord")

# The comparison's interval: 999 resamples keep the demo to a few seconds.
CONFIDENCE_LEVEL = 0.95
N_RESAMPLES = 999


def diabetes_grades():
    """Features and 5 ordered grades (1..5) with TripAdvisor-15763's class sizes."""
    # The demo's scikit-learn parts (its data set, estimators and search) are imported
    # by the demo alone, here and in _run: evaluate and the other commands would pay
    # for them (0.1 s) on every run.
    from sklearn.datasets import load_diabetes

    X, progression = load_diabetes(return_X_y=True)
    cuts = np.quantile(progression, np.cumsum(TRIPADVISOR_SHARES)[:-1])
    return X, np.digitize(progression, cuts) + 1


def _n_folds(text):
    value = whole_number(text)
    # Stratified folds need an item of every grade in each fold.
    smallest_grade = int(np.bincount(diabetes_grades()[1])[1:].min())
    if not 2 <= value <= smallest_grade:
        raise argparse.ArgumentTypeError(
            f"needs 2 to {smallest_grade} folds (the smallest grade has {smallest_grade} "
            f"patients and every fold needs one of each grade); got {value}"
        )
    return value


def _n_jobs(text):
    value = whole_number(text)
    if value == 0 or value < -1:
        raise argparse.ArgumentTypeError(
            f"needs a positive number of jobs, or -1 for all cores; got {value}"
        )
    return value


def _add_demo_options(parser, default):
    # The demo's options live both on the bare command and on "demo"; the subcommand's
    # copies default to SUPPRESS so that they never overwrite the bare command's values.
    parser.add_argument(
        "--cv", type=_n_folds, default=default(5),
        help="number of stratified folds (default 5)",
    )
    parser.add_argument(
        "--n-jobs",
        type=_n_jobs,
        default=default(None),
        help="parallel jobs for the model fits, -1 for all cores (default 1)",
    )


def _parse(argv):
    demo_description = __doc__.split("\n\n", 1)[0] + "\n\n" + __doc__.split("\n\n", 2)[2]
    parser = argparse.ArgumentParser(
        prog="python -m sklearn_ordinal",
        description=demo_description,
        epilog="Without a command, the demo runs. 'python -m sklearn_ordinal evaluate --help'\n"
        "explains the evaluation of prediction files.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_demo_options(parser, lambda value: value)
    commands = parser.add_subparsers(dest="command", title="commands",
                                     metavar="{demo,evaluate,compare,quantification,agreement}")
    demo = commands.add_parser(
        "demo", help="run the demo (what the bare command runs)",
        description=demo_description, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_demo_options(demo, lambda value: argparse.SUPPRESS)
    _add_evaluate_parser(commands)
    add_compare_parser(commands)
    add_quantification_parser(commands)
    add_agreement_parser(commands)
    args = parser.parse_args(joined_label_lists(sys.argv[1:] if argv is None else argv))
    args.command = args.command or "demo"
    return args


def _say(message):
    print(message, flush=True)


def _format_params(params):
    return ", ".join(f"{key.split('__')[-1]}={value}" for key, value in params.items())


def _print_selection(selected):
    width = max(len(name) for name in selected)
    _say(f"  {'measure':<{width}}  {'CV score':>8}  selected parameters")
    for name, (params, score) in selected.items():
        _say(f"  {name:<{width}}  {score:8.3f}  {_format_params(params)}")


def _print_comparison(table):
    width = max(len(name) for name in table.index)
    _say(
        f"  {'measure':<{width}}  {'model':>8}  {'trivial':>8}  {'trivial class':<13}"
        f"  {'mean diff':>9}  {'skill':>7}"
    )
    for name, row in table.iterrows():
        classes = "/".join(str(c) for c in sorted(set(row["trivial_class"])))
        _say(
            f"  {name:<{width}}  {row['estimator_mean']:8.3f}  {row['trivial_mean']:8.3f}"
            f"  {classes:<13}  {row['mean_difference']:+9.3f}  {row['skill']:+7.3f}"
        )
    losing = [name for name, row in table.iterrows() if row["mean_difference"] < 0]
    if losing:
        _say(f"  -> worse than the trivial classifier under: {', '.join(losing)}")
    else:
        _say("  -> better than the trivial classifier under every measure")
    _say(f"  paired {CONFIDENCE_LEVEL:.0%} interval of model - trivial, pooled out-of-fold "
         "predictions:")
    _say(f"  {'measure':<{width}}  {'difference':>10}  {'interval':^18}  {'p-value':>7}"
         "  significantly better?")
    for name, row in table.iterrows():
        interval = f"[{row['difference_low']:+.3f}, {row['difference_high']:+.3f}]"
        verdict = "yes" if row["significantly_better"] else "no"
        _say(f"  {name:<{width}}  {row['difference']:+10.3f}  {interval:^18}"
             f"  {row['pvalue']:7.3f}  {verdict}")


def main(argv=None):
    """Run a command; ``argv`` as on the command line (default ``sys.argv[1:]``).

    Without a command, the demo runs. Returns the exit code: 0 on success, 2 on bad
    input (argparse's usage errors exit with 2 themselves).
    """
    args = _parse(argv)
    if args.command == "evaluate":
        return _evaluate(args)
    if args.command in ("compare", "quantification", "agreement"):
        return args.run(args)
    from threadpoolctl import threadpool_limits  # the demo's (see diabetes_grades)

    # The problem is tiny: multi-threaded BLAS only adds start-up costs, and on a
    # busy machine oversubscribed threads make each fit tens of times slower.
    with threadpool_limits(limits=1):
        _run(args)
    return 0


def _run(args):
    # The demo's own parts (see diabetes_grades).
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from sklearn_ordinal.model_selection import compare_to_trivial

    start = time.perf_counter()
    measures = [name for name in MEASURES if name in get_scorer_names()]
    X, y = diabetes_grades()
    counts = np.bincount(y)[1:]
    cv = StratifiedKFold(args.cv, shuffle=True, random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    grid = {
        "logisticregression__C": [0.01, 0.1, 1, 10],
        "logisticregression__class_weight": [None, "balanced"],
    }
    n_fits = np.prod([len(values) for values in grid.values()]) * args.cv

    _say("sklearn-ordinal demo: which model does each measure choose, and does it beat")
    _say("the trivial classifier (one class for every item) under each measure?")
    _say("")
    _say(f"Data: scikit-learn's diabetes data, {X.shape[0]} patients, {X.shape[1]} features;")
    _say("disease progression cut into 5 ordered grades with TripAdvisor-15763's class sizes:")
    _say("  grade     " + "".join(f"{grade:>6d}" for grade in range(1, 6)))
    _say("  patients  " + "".join(f"{count:>6d}" for count in counts))
    _say(f"Model: StandardScaler + LogisticRegression, {args.cv}-fold stratified CV.")
    _say(f"Measures: {', '.join(measures)}")
    _say("(neg_ = negated error, so that higher is better for every measure).")
    _say("")

    selected = {}
    for step, name in enumerate(measures, start=1):
        _say(f"[{step}/{len(measures)}] GridSearchCV under {name}: {n_fits} fits ...")
        search = GridSearchCV(
            model, grid, scoring=get_scorer(name), refit=False, cv=cv, n_jobs=args.n_jobs
        ).fit(X, y)
        selected[name] = (search.best_params_, search.best_score_)
    _say(f"Each measure selects ({time.perf_counter() - start:.1f} s so far):")
    _print_selection(selected)
    _say("")

    distinct = []
    for params, _ in selected.values():
        if params not in distinct:
            distinct.append(params)
    for number, params in enumerate(distinct, start=1):
        chosen_by = [name for name, (chosen, _) in selected.items() if chosen == params]
        _say(f"Model {number}/{len(distinct)}: {_format_params(params)} "
             f"(selected by {', '.join(chosen_by)})")
        _say("  cross-validated against the trivial classifier of each measure ...")
        table = compare_to_trivial(
            model.set_params(**params), X, y, scoring=measures, cv=cv, n_jobs=args.n_jobs,
            confidence_level=CONFIDENCE_LEVEL, n_resamples=N_RESAMPLES, random_state=0,
        )
        _print_comparison(table)
        _say("")

    _say("mean diff = model - trivial, mean over the folds; skill = (model - trivial) /")
    _say("(perfect - trivial), as compare_to_trivial gives them: 1 is perfect, 0 no better")
    _say("than the trivial class, below 0 worse. The trivial class is chosen on each")
    _say("training fold for that measure (Baccianella et al. 2009).")
    _say("difference: the measure on all out-of-fold predictions, model minus trivial,")
    _say("higher = better; significantly better = its percentile bootstrap interval")
    _say("lies above 0; the p-value is that interval's inversion (p < 0.05 exactly when")
    _say("the interval excludes 0).")
    _say(f"Finished in {time.perf_counter() - start:.1f} s.")


# --- python -m sklearn_ordinal evaluate GOLD PRED [PRED ...] ----------------------------

_EVALUATE_DESCRIPTION = """\
Score systems' predictions against gold labels, read from files and matched item by
item by id: the measures, their confidence intervals, and the comparisons of the
systems, as sklearn_ordinal.evaluate computes them.

Each file is a table with one row per item, told apart by its extension: CSV (.csv),
TSV (.tsv), JSON (.json: a list of records, as PyEvALL writes it, or one record per
line), JSON lines (.jsonl) or Parquet (.parquet; needs pyarrow). A .txt file (as
PyEvALL names its files) is read by its content: JSON, TSV or CSV; the report says
which. The defaults read PyEvALL's columns test_case, id and value; --id-column,
--label-column and --group-column name others. Ids are compared as text, as written:
1 and "1" match, 1.0 does not. A gold id missing from a prediction file, an id that
the gold file lacks, or an id twice in one file is an error that names the ids;
--missing drop (or --allow-missing) scores only the items common to all files, and
--missing wrong counts a gold item without a prediction as wrong (PyEvALL's
convention); the report's header says which, and how many items it affected.

A prediction file may also give the system's class probabilities, one column per
class named proba_<class> (proba_3 for the class 3, proba_very_low for very_low),
exactly one per class of the order (--labels, or the gold numbers' own order), each
row summing to 1 within 1e-6: the ranked probability score reads them, and the
ranking measures their expected class. With a label column beside them the other
measures read the labels; without one, the file gives only probabilities and the
measures of classes are n/a for it (no class is derived from the probabilities).
A bad proba_ column or row exits with code 2, naming the first bad row's id.

Text labels have no order of their own: give it with --labels (lowest class first)
for every measure that depends on the order. Bad input exits with code 2 and a
one-line message on standard error.
"""

_EVALUATE_EPILOG = """\
example, on the files that ship with the package (two systems' out-of-fold grades):
  cd sklearn_ordinal/evaluation/data
  python -m sklearn_ordinal evaluate gold.tsv logistic.tsv ridge.tsv \\
      --labels very_low,low,moderate,high,very_high --output report.html
"""

# --format's default when --output names a file of one of these types.
# The report's method of each --format: the report formats itself.
_WRITER = {"text": "to_string", "markdown": "to_markdown", "csv": "to_csv", "json": "to_json",
           "html": "to_html"}


def _add_evaluate_parser(commands):
    parser = commands.add_parser(
        "evaluate", help="score prediction files against a gold file",
        description=_EVALUATE_DESCRIPTION, epilog=_EVALUATE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("gold", type=Path, metavar="GOLD", help="the file of the true labels")
    parser.add_argument("predictions", type=Path, nargs="+", metavar="PRED",
                        help="one file per system, named after the file (ridge.tsv: ridge)")
    files = parser.add_argument_group("reading the files")
    files.add_argument("--id-column", default="id", metavar="NAME",
                       help="the column of the item ids (default: id)")
    files.add_argument("--label-column", default="value", metavar="NAME",
                       help="the column of the labels (default: value)")
    files.add_argument("--prediction-column", metavar="NAME",
                       help="the column of the labels in the prediction files, when it is "
                       "not the label column")
    groups = files.add_mutually_exclusive_group()
    groups.add_argument("--group-column", default="auto", metavar="NAME",
                        help="the column of the items' groups (test cases, folds), scored "
                        "apart and resampled whole (default: test_case, when the gold file "
                        "has two or more test cases)")
    groups.add_argument("--no-groups", dest="group_column", action="store_const",
                        const=None, help="no groups, even with a test_case column")
    files.add_argument("--labels", type=class_names, metavar="LOW,...,HIGH",
                       help="the classes in order, lowest first, separated by commas; or "
                       "a JSON list ('[\"a, b\", \"c\"]') or @FILE (one class per line), "
                       "for names with commas; needed for text labels unless every "
                       "measure is order-free. Negative classes work as written: "
                       "--labels -1,0,1")
    missing = files.add_mutually_exclusive_group()
    missing.add_argument("--missing", choices=["error", "drop", "wrong"], default="error",
                         help="a gold item without a prediction: an error (default), "
                         "dropped from every system (drop), or counted as wrong for the "
                         "system that lacks it (wrong, PyEvALL's convention: it gets the "
                         "class farthest from its gold class)")
    missing.add_argument("--allow-missing", dest="missing", action="store_const",
                         const="drop", help="the same as --missing drop")
    scoring = parser.add_argument_group("scoring")
    scoring.add_argument("--measures", type=comma_names, metavar="NAME,...",
                         help="the measures, separated by commas (default: the report's "
                         "own set)")
    scoring.add_argument("--confidence-level", type=fraction, default=0.95, metavar="LEVEL",
                         help="of the bootstrap intervals (default: 0.95)")
    scoring.add_argument("--n-resamples", type=positive, metavar="N",
                         help="bootstrap resamples and random exchanges (default: 9999, as "
                         "sklearn_ordinal.evaluate and SciPy)")
    scoring.add_argument("--method",
                         choices=["auto", "bca", "percentile", "basic", "normal", "delong"],
                         default="auto",
                         help="interval method (default: auto, the analytic interval "
                              "(normal; DeLong's for the ranking measures) on large "
                              "data, where it covers as BCa does, else BCa)")
    scoring.add_argument("--seed", type=whole_number, metavar="N",
                         help="seed of the resampling, for numbers that repeat exactly")
    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=list(_WRITER),
                        help="of the report (default: from --output's extension .md, .csv, "
                        ".json or .html, else text); html is one self-contained page")
    output.add_argument("--output", type=Path, metavar="FILE",
                        help="write the report to FILE instead of standard output")
    output.add_argument("--plot", type=Path, metavar="FILE.png",
                        help="save the report's figure (needs matplotlib)")
    output.add_argument("--verbose", action="store_true",
                        help="progress on standard error (the default when it is a "
                        "terminal), and every warning of the resampling, not one per measure")


def _evaluate(args):
    """The evaluate command: exit code 2 and one line on stderr for bad input."""
    return run_command("evaluate", _run_evaluate, args, advice=reworded(_COMMAND_LINE_ADVICE))


# The package's advice names Python arguments; on the command line it names the options.
_ORDER_ADVICE = (
    "Give the order with labels=[...] (lowest class first), or pass an ordered pandas "
    "Categorical (pd.Categorical(y, categories=[...], ordered=True))."
)
_ORDER_OPTIONS = (
    "Give the order with --labels LOW,...,HIGH (lowest class first), or choose only "
    "measures that need no order with --measures (e.g. accuracy,macro_f1)."
)
_VALUES_ADVICE = "cannot serve as class values; pass class_values explicitly."
_VALUES_OPTIONS = (
    "cannot serve as class values; give numeric classes in increasing order with "
    "--labels (their values are the numbers themselves)."
)
_COMMAND_LINE_ADVICE = [
    (_ORDER_ADVICE, _ORDER_OPTIONS),
    (_VALUES_ADVICE, _VALUES_OPTIONS),
    ("labels=[...]", "--labels LOW,...,HIGH"),
    ("not in labels=", "not in --labels "),
    ("(groups=None)", "(--no-groups)"),
]


def _tell(what, message):
    tell("evaluate", what, message)


def _run_evaluate(args):
    start = time.perf_counter()
    verbose = args.verbose or sys.stderr.isatty()

    def progress(message):
        if verbose:
            print(f"[{time.perf_counter() - start:5.1f} s] {message}", file=sys.stderr,
                  flush=True)

    check_output_folders(args)
    progress(f"reading {args.gold} and {len(args.predictions)} prediction file(s)")
    data = read_evaluation_files(
        args.gold, args.predictions, id_column=args.id_column, label_column=args.label_column,
        prediction_column=args.prediction_column, group_column=args.group_column,
        missing=args.missing, labels=args.labels,
    )
    if not data.left_out.empty or not data.filled.empty:
        # Always said, not only with --verbose: the report covers other items.
        print(data.note, file=sys.stderr)
    labels = _class_labels(args.labels, data.y_true)
    options = {} if args.n_resamples is None else {"n_resamples": args.n_resamples}
    progress(f"scoring {len(data.systems)} system(s) on {len(data.y_true)} items"
             + ("" if data.groups is None else f" in {data.groups.nunique()} groups"))
    # In the files' order: a file of probabilities alone is a 2-D output of its own.
    predictions = {name: data.y_pred[name] if name in data.y_pred
                   else data.y_proba[name].to_numpy() for name in data.systems}
    y_proba = {name: frame.to_numpy() for name, frame in data.y_proba.items()
               if name in data.y_pred}
    report = evaluate(
        data.y_true, predictions, y_proba=y_proba, measures=args.measures, labels=labels,
        groups=data.groups,
        confidence_level=args.confidence_level, random_state=args.seed, method=args.method,
        verbose=True, **options,
    )
    report.input_note = data.note
    _note_systems_read_as_scores(report, data.y_pred)
    for system in report.settings["probabilities_given"]:
        progress(f"{system}: class probabilities read from its proba_ columns")
    if verbose:
        for row in report.warnings.itertuples():
            _tell("warning", f"{row.measure}, {row.system}: {row.message}")
    write_output(getattr(report, _WRITER[output_format(args, _WRITER)])(), args.output)
    if args.output:
        progress(f"wrote {args.output}")
    if args.plot:
        _save_plot(report, args.plot)
        progress(f"wrote {args.plot}")
    progress("done")


def _note_systems_read_as_scores(report, y_pred):
    """Say which files were read as real-valued scores rather than classes: half-steps
    are classes when the gold file has them, and a value that is no class (1.25) makes
    the whole file a ranker's or a regressor's output, which only some measures score."""
    classes = report.classes
    for system, kind in report.systems.items():
        if kind != "scores":
            continue
        values = pd.to_numeric(y_pred[system], errors="coerce").to_numpy(dtype=float)
        outside = values[~np.isin(values, classes)] if classes.dtype.kind in "iuf" else values
        example = f" (e.g. {float(outside[0])!r})" if outside.size else ""
        shown = ", ".join(str(label) for label in classes[:10].tolist())
        _tell("note", f"{system}: read as real-valued scores (a ranker's or a regressor's "
              f"output), not classes: it holds values that are no class{example}; the "
              f"classes read from the gold file are {shown}"
              + ("" if len(classes) <= 10 else f" and {len(classes) - 10} more")
              + ". Only the distance and ranking measures score it. If its values are "
              "classes, list every class with --labels LOW,...,HIGH: then a value among "
              "them is read as a class.")


def _class_labels(labels, y_true):
    """--labels as numbers when the gold labels are numbers, else as text."""
    if labels is None or not pd.api.types.is_numeric_dtype(y_true.dtype):
        return labels
    numbers = pd.to_numeric(pd.Series(labels), errors="coerce")
    if numbers.isna().any():
        raise ValueError(
            f"--labels: the gold labels are numbers, so the classes must be numbers too; "
            f"got {labels[int(np.flatnonzero(numbers.isna())[0])]!r}."
        )
    integral = (numbers == np.round(numbers)).all()
    return numbers.astype(np.int64 if integral else np.float64).tolist()


def _save_plot(report, path):
    plotting()
    axes = report.plot()
    np.ravel(axes)[0].figure.savefig(path, bbox_inches="tight")


if __name__ == "__main__":
    sys.exit(main())
