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
   (sklearn_ordinal.stats.compare_scores): a paired 95% BCa interval of the
   difference and a paired randomization p-value.
"""

import argparse
import sys
import time

import numpy as np
from sklearn.datasets import load_diabetes
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from sklearn_ordinal.metrics import get_scorer, get_scorer_names
from sklearn_ordinal.model_selection import compare_to_trivial

# Share of the reviews with 1 to 5 stars in TripAdvisor-15763 (Baccianella et al. 2009).
TRIPADVISOR_SHARES = np.array([0.039, 0.072, 0.094, 0.345, 0.450])

# Micro- and macro-averaged MAE, then the closeness measure once the registry has it.
MEASURES = ("neg_mean_absolute_error", "neg_macro_mean_absolute_error", "cem_ord")

# The comparison's interval: 999 resamples keep the demo to a few seconds.
CONFIDENCE_LEVEL = 0.95
N_RESAMPLES = 999


def diabetes_grades():
    """Features and 5 ordered grades (1..5) with TripAdvisor-15763's class sizes."""
    X, progression = load_diabetes(return_X_y=True)
    cuts = np.quantile(progression, np.cumsum(TRIPADVISOR_SHARES)[:-1])
    return X, np.digitize(progression, cuts) + 1


def _whole_number(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _n_folds(text):
    value = _whole_number(text)
    # Stratified folds need an item of every grade in each fold.
    smallest_grade = int(np.bincount(diabetes_grades()[1])[1:].min())
    if not 2 <= value <= smallest_grade:
        raise argparse.ArgumentTypeError(
            f"needs 2 to {smallest_grade} folds (the smallest grade has {smallest_grade} "
            f"patients and every fold needs one of each grade); got {value}"
        )
    return value


def _n_jobs(text):
    value = _whole_number(text)
    if value == 0 or value < -1:
        raise argparse.ArgumentTypeError(
            f"needs a positive number of jobs, or -1 for all cores; got {value}"
        )
    return value


def _parse(argv):
    parser = argparse.ArgumentParser(
        prog="python -m sklearn_ordinal",
        description=__doc__.split("\n\n", 1)[0] + "\n\n" + __doc__.split("\n\n", 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--cv", type=_n_folds, default=5, help="number of stratified folds (default 5)"
    )
    parser.add_argument(
        "--n-jobs",
        type=_n_jobs,
        default=None,
        help="parallel jobs for the model fits, -1 for all cores (default 1)",
    )
    return parser.parse_args(argv)


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
        "  improvement"
    )
    for name, row in table.iterrows():
        classes = "/".join(str(c) for c in sorted(set(row["trivial_class"])))
        _say(
            f"  {name:<{width}}  {row['estimator_mean']:8.3f}  {row['trivial_mean']:8.3f}"
            f"  {classes:<13}  {row['improvement']:+10.1%}"
        )
    losing = [name for name, row in table.iterrows() if row["improvement"] < 0]
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
    """Run the demo; ``argv`` as on the command line (default ``sys.argv[1:]``)."""
    args = _parse(argv)
    # The problem is tiny: multi-threaded BLAS only adds start-up costs, and on a
    # busy machine oversubscribed threads make each fit tens of times slower.
    with threadpool_limits(limits=1):
        _run(args)
    return 0


def _run(args):
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

    _say("improvement = (model - trivial) / |trivial|, mean over the folds; the trivial class")
    _say("is chosen on each training fold for that measure (Baccianella et al. 2009).")
    _say("difference: the measure on all out-of-fold predictions, model minus trivial,")
    _say("higher = better; significantly better = its BCa interval lies above 0.")
    _say(f"Finished in {time.perf_counter() - start:.1f} s.")


if __name__ == "__main__":
    sys.exit(main())
