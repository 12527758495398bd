"""The closed forms of the trivial classifiers' scores, held against the per-class loop.

The loop (every trivial classifier scored on its own confusion matrix, one column of
class counts) is the reference: each closed form must give its scores, its NaNs, its
warnings and so its trivial class, for every registered measure and every keyword
argument the measure takes.
"""

import inspect
import re
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_ordinal._records import unwrap_partial as _unwrap_measure
from sklearn_ordinal.dummy import TrivialOrdinalClassifier, _trivial
from sklearn_ordinal.dummy._trivial_scores import (
    _CLOSED_FORMS,
    _closed_form_scores,
    _loop_scores,
    _trivial_confusion,
)
from sklearn_ordinal.metrics import get_scorer, get_scorer_names
from sklearn_ordinal.metrics._registry import confusion_kernel
from sklearn_ordinal.metrics._registry import confusion_kernels as _from_confusion_registry

_REGISTERED = sorted(
    {_unwrap_measure(function)[0] for function in _from_confusion_registry().values()},
    key=lambda function: function.__name__,
)
_LABEL_SCORERS = [name for name in get_scorer_names() if get_scorer(name).response == "labels"]

# Every value each keyword argument of a registered measure can take.
_OPTIONS = {
    "average": st.sampled_from(["macro", "micro", "max"]),
    "scale": st.sampled_from(["ordinal", "nominal", "interval"]),
    "flat": st.booleans(),
    "n": st.integers(0, 14),
    "weights": st.sampled_from([None, "linear", "quadratic"]),
    "on_values": st.booleans(),
}


def _keyword_defaults(function, skip):
    parameters = list(inspect.signature(function).parameters.values())[skip:]
    return {parameter.name: parameter.default for parameter in parameters}


@pytest.mark.parametrize("from_confusion", _REGISTERED, ids=lambda f: f.__name__)
def test_every_registered_measure_has_a_closed_form_with_its_keywords(from_confusion):
    # The closed form takes (counts, values) where the measure takes the confusion,
    # then the same keyword arguments with the same defaults.
    closed_form = _CLOSED_FORMS[from_confusion]
    assert _keyword_defaults(closed_form, 2) == _keyword_defaults(from_confusion, 1)
    assert set(_keyword_defaults(from_confusion, 1)) <= set(_OPTIONS)


_COUNT = st.one_of(
    st.just(0.0),
    st.integers(1, 40).map(float),
    st.floats(0.01, 100.0),  # weighted counts
)


@st.composite
def _class_counts_and_values(draw):
    counts = np.array(draw(st.lists(_COUNT, min_size=1, max_size=12)))
    if not counts.sum() > 0:
        counts[draw(st.integers(0, len(counts) - 1))] = draw(st.integers(1, 40))
    if draw(st.booleans()):
        values = np.arange(len(counts), dtype=np.float64)
    else:
        steps = draw(st.lists(st.floats(0.1, 10.0), min_size=len(counts), max_size=len(counts)))
        values = draw(st.floats(-1e3, 1e3)) + np.cumsum(steps)
    return counts, values


def _warned(call):
    """``(result, distinct warnings raised by call())``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, {(w.category, str(w.message)) for w in caught}


@pytest.mark.parametrize("from_confusion", _REGISTERED, ids=lambda f: f.__name__)
@given(data=st.data())
def test_closed_form_equals_the_per_class_loop(from_confusion, data):
    counts, values = data.draw(_class_counts_and_values())
    kwargs = {
        name: data.draw(_OPTIONS[name], label=name)
        for name in _keyword_defaults(from_confusion, 1)
    }
    classes = np.arange(len(counts)) * 10  # only the warnings' messages show them
    per_class = [
        _warned(lambda: from_confusion(_trivial_confusion(classes, values, counts, k), **kwargs))
        for k in range(len(counts))
    ]
    loop = np.array([score for score, _ in per_class])
    looped, _ = _warned(lambda: _loop_scores(from_confusion, classes, values, counts, **kwargs))
    np.testing.assert_array_equal(looped, loop)

    (scores, warns), raised = _warned(
        lambda: _closed_form_scores(from_confusion, counts, values, **kwargs)
    )
    assert not raised  # warnings come from the measure itself, once per fit
    np.testing.assert_allclose(scores, loop, rtol=1e-12, atol=1e-13, equal_nan=True)
    assert warns.tolist() == [bool(caught) for _, caught in per_class]
    # The trivial classifiers that warn all warn alike, so one of them stands for all.
    distinct = set().union(*(caught for _, caught in per_class))
    assert all(caught in (set(), distinct) for _, caught in per_class)
    if not np.isnan(loop).all():
        assert _trivial._best_position(scores, counts) == _trivial._best_position(loop, counts)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("name", _LABEL_SCORERS)
def test_fit_scores_every_label_scorer_by_its_closed_form(name, monkeypatch):
    def no_loop(*args, **kwargs):
        raise AssertionError("the per-class loop was used")

    monkeypatch.setattr(_trivial, "_loop_scores", no_loop)
    classes, counts = np.array([1, 2, 4, 7]), np.array([3.0, 0.0, 5.0, 2.0])
    scorer = TrivialOrdinalClassifier(name)._scorer(classes, True)
    assert _trivial._scores_from_counts(scorer, classes, counts) is not None


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("name", ["neg_max_mean_absolute_error", "cem_int", "cohen_kappa"])
def test_a_measure_without_closed_form_falls_back_to_the_loop(name, monkeypatch):
    X, y = np.zeros((9, 1)), [1, 1, 2, 4, 4, 4, 7, 7, 7]
    closed = TrivialOrdinalClassifier(name, labels=[0, 1, 2, 4, 7]).fit(X, y)
    from_confusion = confusion_kernel(get_scorer(name).score_func)
    monkeypatch.delitem(_CLOSED_FORMS, _unwrap_measure(from_confusion)[0])
    looped_calls = []

    def loop(*args, **kwargs):
        looped_calls.append(args[0])
        return _loop_scores(*args, **kwargs)

    monkeypatch.setattr(_trivial, "_loop_scores", loop)
    looped = TrivialOrdinalClassifier(name, labels=[0, 1, 2, 4, 7]).fit(X, y)
    assert len(looped_calls) == 1
    np.testing.assert_allclose(looped.class_scores_, closed.class_scores_, atol=1e-14)
    assert looped.trivial_class_ == closed.trivial_class_


@pytest.mark.parametrize(
    "metric, y, labels, match",
    [
        # Every trivial classifier warns, class 0 first (in the validating call).
        ("pearson", [1, 2, 2, 3], None, "Pearson's correlation is undefined"),
        ("neg_macro_mean_absolute_error", [1, 2, 2, 3], [1, 2, 3, 4], r"Classes \[4\]"),
        ("gmsec", [2, 2, 3], [1, 2, 3], r"Classes \[1\] have no true item"),
        # Only the trivial classifier of the one class with items warns.
        ("cohen_kappa", [2, 2, 2], [1, 2, 3], "no disagreement is expected"),
        ("quadratic_value_weighted_kappa", [3, 3], [1, 2, 3], "no disagreement"),
        ("neg_mean_absolute_error", [1, 2, 2, 3], [1, 2, 3, 4], None),
    ],
)
def test_a_fit_warns_once_not_once_per_class(metric, y, labels, match):
    clf = TrivialOrdinalClassifier(metric, labels=labels)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clf.fit(np.zeros((len(y), 1)), y)
    if match is None:
        assert not caught
    else:
        assert [w.category for w in caught] == [UndefinedMetricWarning]
        assert re.search(match, str(caught[0].message))
