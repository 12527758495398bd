"""Every measure of the registry through every door: same names, same errors, same numbers.

The doors are the ways a measure enters the package: the function itself, its scorer
(``get_scorer``), the trivial classifier, the baseline comparison, intervals and
paired comparisons, the chunk intermediates (``OrdinalConfusion``/``ScoreTable``),
Dask inputs, :func:`evaluate` and the command line. Each resolves a measure through
the registry (:mod:`sklearn_ordinal.metrics._registry`), so these tests iterate the
registry: a measure added there is held to every door for free.
"""

import json
import warnings
from functools import partial

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval, StrOptions

from sklearn_ordinal.__main__ import main
from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from sklearn_ordinal.evaluation import evaluate
from sklearn_ordinal.metrics import (
    OrdinalConfusion,
    ScoreTable,
    get_scorer,
    get_scorer_names,
    kendall_tau_a_score,
    make_ordinal_scorer,
    mean_absolute_error,
)
from sklearn_ordinal.metrics._registry import _NAMES, _measure_names, lookup, records, resolve
from sklearn_ordinal.model_selection import compare_to_trivial
from sklearn_ordinal.stats import compare_scores, score_interval

N_CLASSES = 4
RNG = np.random.default_rng(26)
Y_TRUE = np.repeat(np.arange(N_CLASSES), 15)
RNG.shuffle(Y_TRUE)
Y_PRED = np.clip(Y_TRUE + RNG.integers(-1, 2, len(Y_TRUE)), 0, N_CLASSES - 1)
Y_OTHER = RNG.integers(0, N_CLASSES, len(Y_TRUE))
Y_SCORE = Y_TRUE + RNG.normal(0, 1.2, len(Y_TRUE))
Y_PROBA = RNG.dirichlet(np.ones(N_CLASSES), len(Y_TRUE))
X = np.arange(len(Y_TRUE)).reshape(-1, 1)
LABELS = np.arange(N_CLASSES)

SCORER_NAMES = sorted(_NAMES)
ALL_NAMES = sorted(_measure_names())


def _output(reads, other=False):
    if reads == "scores":
        return -Y_SCORE if other else Y_SCORE
    if reads == "proba":
        return Y_PROBA[::-1] if other else Y_PROBA
    return Y_OTHER if other else Y_PRED


def _direct(name):
    """The measure of ``name`` called directly on the data."""
    record, fixed, _ = lookup(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return record.function(Y_TRUE, _output(record.reads), **fixed)


class _Fixed(ClassifierMixin, BaseEstimator):
    """A fitted classifier whose outputs are the fixed arrays above."""

    def fit(self, X, y):
        self.classes_ = LABELS
        return self

    def predict(self, X):
        return Y_PRED[np.asarray(X).ravel()]

    def decision_function(self, X):
        return Y_SCORE[np.asarray(X).ravel()]

    def predict_proba(self, X):
        return Y_PROBA[np.asarray(X).ravel()]


def test_the_registry_names_every_scorer():
    assert get_scorer_names() == SCORER_NAMES
    # Every record is reachable by a name, and every name by its report name.
    assert {lookup(name)[0].function for name in SCORER_NAMES} == {
        record.function for record in records()
    }
    for name in SCORER_NAMES:
        if name.startswith("neg_"):
            assert lookup(name[4:])[1:] == lookup(name)[1:]


# --- Names: every door takes every name ----------------------------------------------


@pytest.mark.parametrize("name", SCORER_NAMES)
def test_scorer_door_gives_the_number(name):
    record, _, _ = lookup(name)
    sign = 1 if record.greater_is_better else -1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = get_scorer(name)(_Fixed().fit(X, Y_TRUE), X, Y_TRUE)
    np.testing.assert_allclose(value, sign * _direct(name), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ALL_NAMES)
def test_interval_doors_give_the_number(name):
    record, _, _ = lookup(name)
    output = _output(record.reads)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        interval = score_interval(name, Y_TRUE, output, n_resamples=99, random_state=0,
                                  method="percentile")
        comparison = compare_scores(name, Y_TRUE, output, _output(record.reads, True),
                                    n_resamples=99, random_state=0, method="percentile")
    np.testing.assert_allclose(interval.estimate, _direct(name), rtol=1e-12, atol=1e-12)
    expected_other = record.function(Y_TRUE, _output(record.reads, True), **lookup(name)[1])
    np.testing.assert_allclose(comparison.estimate, _direct(name) - expected_other,
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", SCORER_NAMES)
def test_chunk_doors_give_the_number(name):
    record, fixed, _ = lookup(name)
    measure = partial(record.function, **fixed)
    halves = [slice(0, 25), slice(25, None)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if record.from_confusion is not None:
            total = sum(OrdinalConfusion.from_predictions(Y_TRUE[h], Y_PRED[h], labels=LABELS)
                        for h in halves)
        elif record.from_table is not None:
            total = sum(ScoreTable.from_predictions(Y_TRUE[h], Y_SCORE[h], labels=LABELS)
                        for h in halves)
        else:
            pytest.skip(f"{name} is a mean over items: it has no intermediate to chunk")
        value = total.score(measure)
    np.testing.assert_allclose(value, _direct(name), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", SCORER_NAMES)
def test_dask_door_gives_the_number(name):
    da = pytest.importorskip("dask.array")
    record, fixed, _ = lookup(name)
    output = _output(record.reads)
    if output.ndim > 1:
        pytest.skip("probabilities are not taken as Dask arrays")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = record.function(da.from_array(Y_TRUE, chunks=17),
                                da.from_array(output, chunks=17), **fixed)
    np.testing.assert_allclose(value, _direct(name), rtol=1e-12, atol=1e-12)


def test_evaluate_and_the_command_line_take_every_name_with_the_same_numbers(tmp_path):
    label_names = [n for n in SCORER_NAMES if lookup(n)[0].reads == "labels"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = evaluate(Y_TRUE, {"system": Y_PRED}, measures=label_names, n_resamples=99,
                          random_state=0)
    for name in label_names:
        shown = name[4:] if name.startswith("neg_") else name
        np.testing.assert_allclose(report.scores.loc["system", (shown, "estimate")],
                                   _direct(name), rtol=1e-12, atol=1e-12)
    gold, pred = tmp_path / "gold.csv", tmp_path / "pred.csv"
    gold.write_text("id,value\n" + "".join(f"{i},{v}\n" for i, v in enumerate(Y_TRUE)))
    pred.write_text("id,value\n" + "".join(f"{i},{v}\n" for i, v in enumerate(Y_PRED)))
    out = tmp_path / "report.json"
    code = main(["evaluate", str(gold), str(pred), "--measures", ",".join(label_names),
                 "--n-resamples", "99", "--format", "json", "--output", str(out)])
    assert code in (0, None)
    rows = [row for row in json.loads(out.read_text())["scores"] if row["system"] == "pred"]
    by_name = {row["measure"]: row["estimate"] for row in rows}
    for name in label_names:
        shown = name[4:] if name.startswith("neg_") else name
        np.testing.assert_allclose(by_name[shown], _direct(name), rtol=1e-12, atol=1e-12)
    # The report's row names go back into --measures.
    code = main(["evaluate", str(gold), str(pred), "--measures", ",".join(by_name),
                 "--n-resamples", "99", "--format", "json", "--output", str(out)])
    assert code in (0, None)


@pytest.mark.parametrize("name", ALL_NAMES)
def test_the_trivial_classifier_and_compare_to_trivial_take_every_name(name):
    record, fixed, _ = lookup(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trivial = TrivialOrdinalClassifier(name).fit(X, Y_TRUE)
        if record.reads == "labels":
            # The trivial class's score is the measure of predicting it for everyone.
            constant = np.full_like(Y_TRUE, trivial.trivial_class_)
            value = record.function(Y_TRUE, constant, labels=LABELS, **fixed)
            sign = 1 if record.greater_is_better else -1
            np.testing.assert_allclose(np.nanmax(trivial.class_scores_), sign * value,
                                       rtol=1e-9, atol=1e-12)
        table = compare_to_trivial(_Fixed(), X, Y_TRUE, scoring=name, cv=2)
    assert list(table.index) == [name]


# --- Parameters: every door refuses a bad one with the measure's own message ----------


def _bad_values():
    """``(record, parameter, bad value)`` for every constrained parameter of a measure."""
    cases = []
    for record in records():
        for parameter, constraints in record.parameters.items():
            for constraint in constraints if isinstance(constraints, list) else []:
                if isinstance(constraint, StrOptions):
                    cases.append((record, parameter, "bogus"))
                elif isinstance(constraint, Interval):
                    cases.append((record, parameter, -1))
                elif constraint == "boolean":
                    cases.append((record, parameter, "bogus"))
                else:
                    continue
                break
    return cases


BAD = _bad_values()


def test_bad_parameters_are_found():
    named = {(record.name, parameter) for record, parameter, _ in BAD}
    assert {("cem_score", "scale"), ("vus_score", "ties"), ("accuracy_within_score", "n"),
            ("mean_absolute_error", "average"), ("weighted_kappa_score", "weights")} <= named


@pytest.mark.parametrize("record, parameter, bad", BAD,
                         ids=[f"{r.name}-{p}" for r, p, _ in BAD])
def test_every_door_refuses_a_bad_parameter_with_the_same_message(record, parameter, bad):
    output = _output(record.reads)
    with pytest.raises(ValueError) as direct:
        record.function(Y_TRUE, output, **{parameter: bad})
    message = str(direct.value)
    bad_partial = partial(record.function, **{parameter: bad})
    doors = {
        "make_ordinal_scorer": lambda: make_ordinal_scorer(record.function, **{parameter: bad}),
        "resolve": lambda: resolve(record.function, {parameter: bad}),
        "score_interval": lambda: score_interval(record.function, Y_TRUE, output,
                                                 n_resamples=99, **{parameter: bad}),
        "compare_scores": lambda: compare_scores(record.function, Y_TRUE, output, output,
                                                 n_resamples=99, **{parameter: bad}),
        "trivial": lambda: TrivialOrdinalClassifier(bad_partial).fit(X, Y_TRUE),
        "evaluate": lambda: evaluate(Y_TRUE, {"s": output}, measures=[bad_partial],
                                     n_resamples=99),
    }
    if record.from_confusion is not None:
        confusion = OrdinalConfusion.from_predictions(Y_TRUE, Y_PRED)
        doors["OrdinalConfusion.score"] = lambda: confusion.score(record.function,
                                                                  **{parameter: bad})
    if record.from_table is not None:
        table = ScoreTable.from_predictions(Y_TRUE, Y_SCORE)
        doors["ScoreTable.score"] = lambda: table.score(record.function, **{parameter: bad})
    for door, call in doors.items():
        if door == "evaluate" and record.reads == "proba":
            continue  # evaluate scores labels and scores, not probabilities
        with pytest.raises(ValueError) as refused:
            call()
        assert str(refused.value) == message, door


def test_an_unknown_parameter_is_refused_by_name():
    with pytest.raises(ValueError, match="cem_score has no parameter 'bogus'"):
        score_interval("cem_ord", Y_TRUE, Y_PRED, bogus=1)
    with pytest.raises(ValueError, match="cem_score has no parameter 'bogus'"):
        OrdinalConfusion.from_predictions(Y_TRUE, Y_PRED).score(lookup("cem_ord")[0].function,
                                                                bogus=1)


def test_per_class_results_from_a_confusion():
    confusion = OrdinalConfusion.from_predictions(Y_TRUE, Y_PRED)
    np.testing.assert_array_equal(
        confusion.score(mean_absolute_error, average=None),
        mean_absolute_error(Y_TRUE, Y_PRED, average=None),
    )


def test_a_weighted_confusion_is_refused_by_a_measure_without_weights():
    weighted = OrdinalConfusion.from_predictions(Y_TRUE, Y_PRED, sample_weight=np.ones(60))
    with pytest.raises(ValueError, match="kendall_tau_a_score has no weighted form"):
        weighted.score(kendall_tau_a_score)
    unweighted = OrdinalConfusion.from_predictions(Y_TRUE, Y_PRED)
    assert unweighted.score(kendall_tau_a_score) == kendall_tau_a_score(Y_TRUE, Y_PRED)
    # The flag survives addition.
    assert (weighted + unweighted).weighted
