"""TrivialOrdinalClassifier: the trivial class (docs: trivial_baseline.rst) and scikit-learn's contract."""

import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import accuracy_score, make_scorer
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from sklearn_ordinal.metrics import (
    get_scorer,
    get_scorer_names,
    make_ordinal_scorer,
    mean_absolute_error,
)

# TripAdvisor-15763, 1 to 5 stars, in tenths of a percent (trivial_baseline.rst).
TRIPADVISOR = {1: 39, 2: 72, 3: 94, 4: 345, 5: 450}


def _labels_from_counts(counts, classes=None):
    classes = np.arange(len(counts)) if classes is None else np.asarray(classes)
    return np.repeat(classes, counts)


def _fit(y, X=None, **params):
    X = np.zeros((len(y), 1)) if X is None else X
    return TrivialOrdinalClassifier(**params).fit(X, y)


def _pairwise_concordance(y_true, y_score):
    """Brute-force U_pairs (ties count 1/2): a ranking measure fed with scores."""
    y_true, y_score = np.asarray(y_true), np.asarray(y_score, dtype=float)
    lower = y_true[:, None] < y_true[None, :]
    wins = (y_score[:, None] < y_score[None, :]) + 0.5 * (y_score[:, None] == y_score[None, :])
    return float(wins[lower].sum() / lower.sum())


class _PlainMeasure:
    """A plain callable measure whose repr, and so the test ids, is the same every run
    (a function's repr holds its memory address, which breaks pytest-xdist and --lf)."""

    def __call__(self, y_true, y_pred, sample_weight=None):
        return accuracy_score(y_true, y_pred, sample_weight=sample_weight)

    def __repr__(self):
        return "accuracy_score"


def _expected_failed_checks(estimator):
    """The one check an ordinal measure must fail, and why (docs conventions page).

    ``check_classifiers_classes`` fits string labels ("one", "two", "three") with no
    order; a measure that depends on the order must refuse to guess it. Order-free
    measures pass it.
    """
    if isinstance(estimator.scoring, _PlainMeasure) or estimator.scoring in (
        "accuracy", "neg_mean_zero_one_error"
    ):
        return {}
    return {
        "check_classifiers_classes": (
            "string labels with no order given: an ordinal measure needs labels= or an "
            "ordered Categorical, and says so with a ValueError"
        )
    }


def test_the_check_estimator_recipe_of_the_docstring():
    # The recipe of the Notes: every other check passes, the one declared fails.
    from sklearn.utils.estimator_checks import check_estimator

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(
            TrivialOrdinalClassifier(),
            expected_failed_checks={
                "check_classifiers_classes": "unordered string labels: no class order"
            },
            on_fail=None,
        )
    failed = {r["check_name"] for r in results if r["status"] == "failed"}
    xfailed = {r["check_name"] for r in results if r["status"] == "xfail"}
    assert failed == set()
    assert xfailed == {"check_classifiers_classes"}


@parametrize_with_checks(
    [
        TrivialOrdinalClassifier(),
        TrivialOrdinalClassifier("neg_mean_squared_error"),
        TrivialOrdinalClassifier(_PlainMeasure()),
        TrivialOrdinalClassifier("vus"),
        TrivialOrdinalClassifier("u_cons"),
        TrivialOrdinalClassifier("accuracy"),
        TrivialOrdinalClassifier("neg_mean_zero_one_error"),
    ],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible_estimator(estimator, check):
    with warnings.catch_warnings():
        # One check trims a class away with zero weights: the macro measures rightly
        # warn that this class is left out of their average.
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        check(estimator)


# --- Trivial-class facts ---------------------------------------------------------------


@given(
    counts=st.lists(st.integers(1, 30), min_size=2, max_size=9),
    start=st.integers(-5, 5),
    spacing=st.sampled_from([1, 2, 5]),
)
def test_macro_mae_trivial_class_is_a_middle_class(counts, start, spacing):
    # Equidistant classes: whatever the class distribution, the trivial class for
    # MAE^M is a middle class, with MAE^M (K^2 - 1) / (4K) (K odd) or K / 4 (K even)
    # in units of the spacing.
    n_classes = len(counts)
    classes = start + spacing * np.arange(n_classes)
    clf = _fit(_labels_from_counts(counts, classes))
    middle = [(n_classes - 1) // 2, n_classes // 2]
    expected = (n_classes**2 - 1) / (4 * n_classes) if n_classes % 2 else n_classes / 4
    assert clf.trivial_class_ in classes[middle]
    assert clf.class_scores_.max() == pytest.approx(-expected * spacing)
    assert clf.class_scores_[middle[0]] == pytest.approx(-expected * spacing)


def test_macro_mae_five_and_four_classes():
    clf = _fit(_labels_from_counts([3, 50, 1, 7, 900], [1, 2, 3, 4, 5]))
    assert clf.trivial_class_ == 3
    assert clf.class_scores_ == pytest.approx([-2.0, -1.4, -1.2, -1.4, -2.0])
    clf = _fit(_labels_from_counts([3, 50, 1, 7], [1, 2, 3, 4]))
    assert clf.class_scores_ == pytest.approx([-1.5, -1.0, -1.0, -1.5])
    assert clf.trivial_class_ == 2  # tie between 2 and 3: 2 is more frequent


def test_tripadvisor_micro_mae_picks_four_stars():
    y = _labels_from_counts(list(TRIPADVISOR.values()), list(TRIPADVISOR))
    clf = _fit(y, scoring="neg_mean_absolute_error")
    assert clf.trivial_class_ == 4
    assert clf.class_scores_[3] == pytest.approx(-0.805)
    assert clf.class_scores_[4] == pytest.approx(-0.905)
    assert clf.predict(np.zeros((3, 2))).tolist() == [4, 4, 4]
    # The macro measure picks the middle class instead.
    assert _fit(y).trivial_class_ == 3


def test_class_scores_are_the_measure_of_each_trivial_classifier():
    # Brute force: macro MSE of predicting k for every item, class by class.
    y = np.array([0, 0, 0, 1, 2, 2, 3, 7])
    clf = _fit(y, scoring="neg_macro_mean_squared_error")
    expected = [
        -np.mean([np.mean((k - y[y == c]) ** 2) for c in np.unique(y)]) for k in clf.classes_
    ]
    np.testing.assert_allclose(clf.class_scores_, expected)
    assert clf.trivial_class_ == 3  # the class nearest the mean of the class values


# Correlations are undefined for a constant prediction: they warn and give 0.0.
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("name", get_scorer_names())
def test_every_registry_scorer_scores_the_trivial_classifiers(name):
    # Each class score is what the scorer gives scikit-learn's own constant
    # predictor; the best one (by the tie rule) is the trivial class.
    y = _labels_from_counts([6, 2, 9, 4], [1, 2, 3, 4])
    X = np.zeros((len(y), 1))
    clf = TrivialOrdinalClassifier(name).fit(X, y)
    scorer = get_scorer(name)
    expected = [
        scorer(DummyClassifier(strategy="constant", constant=k).fit(X, y), X, y)
        for k in clf.classes_
    ]
    np.testing.assert_allclose(clf.class_scores_, expected)
    best = np.flatnonzero(np.isclose(expected, np.max(expected)))
    counts = np.array([6, 2, 9, 4])
    assert clf.trivial_class_ == clf.classes_[best[np.argmax(counts[best])]]


# --- ties -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "counts, expected",
    [
        ([1, 2, 5, 1], 2),  # the two middle classes tie: the more frequent wins
        ([1, 5, 2, 1], 1),
        ([1, 3, 3, 1], 1),  # equally frequent too: the lower class wins
    ],
)
def test_ties_go_to_the_more_frequent_then_the_lower_class(counts, expected):
    assert _fit(_labels_from_counts(counts)).trivial_class_ == expected


def test_tie_rule_uses_weighted_counts():
    y = _labels_from_counts([1, 3, 3, 1])
    weight = np.where(y == 2, 2.0, 1.0)
    assert _fit(y).trivial_class_ == 1
    clf = TrivialOrdinalClassifier().fit(np.zeros((len(y), 1)), y, sample_weight=weight)
    assert clf.trivial_class_ == 2


def test_ranking_scorer_sees_constant_scores_and_all_classes_tie():
    # A scores-based measure sees the same score for every item whatever the class,
    # so every trivial classifier gets U_pairs = 1/2 and the most frequent class wins.
    scorer = make_ordinal_scorer(_pairwise_concordance, response="scores")
    y = _labels_from_counts([2, 9, 4], [1, 2, 3])
    clf = _fit(y, scoring=scorer)
    assert clf.class_scores_.tolist() == [0.5, 0.5, 0.5]
    assert clf.trivial_class_ == 2
    positions = clf.predict_proba(np.zeros((4, 1))) @ np.arange(3)
    assert positions.tolist() == [1.0, 1.0, 1.0, 1.0]


# --- the metric parameter ---------------------------------------------------------


def test_scoring_as_name_scorer_or_function_agree():
    y = _labels_from_counts([5, 1, 1, 2, 8])
    by_name = _fit(y, scoring="neg_mean_absolute_error")
    by_scorer = _fit(y, scoring=get_scorer("neg_mean_absolute_error"))
    by_function = _fit(
        y,
        scoring=lambda t, p: mean_absolute_error(t, p, average="micro"),
        greater_is_better=False,
    )
    for clf in (by_scorer, by_function):
        assert clf.trivial_class_ == by_name.trivial_class_
        np.testing.assert_allclose(clf.class_scores_, by_name.class_scores_)


def test_greater_is_better_applies_to_functions_only():
    y = _labels_from_counts([5, 1, 8])
    assert _fit(y, scoring=accuracy_score).trivial_class_ == 2
    assert _fit(y, scoring=accuracy_score, greater_is_better=False).trivial_class_ == 1
    # A name or a scorer already knows its direction.
    worse = _fit(y, scoring="neg_mean_zero_one_error", greater_is_better=False)
    assert worse.trivial_class_ == 2
    assert _fit(y, scoring=make_scorer(accuracy_score)).trivial_class_ == 2


def test_function_gets_labels_when_it_accepts_them():
    seen = []

    def error(y_true, y_pred, labels=None):
        seen.append(labels)
        return mean_absolute_error(y_true, y_pred, average="micro", labels=labels)

    clf = _fit(np.array([1, 1, 5, 5, 5]), scoring=error, greater_is_better=False,
               labels=[1, 2, 3, 4, 5])
    assert [list(labels) for labels in seen] == [[1, 2, 3, 4, 5]] * 5
    assert clf.trivial_class_ == 5


def test_class_absent_from_training_can_be_trivial():
    # Micro MSE on {1, 1, 5, 5, 5} is smallest near the mean 3.4: class 3, which
    # only `labels` knows about.
    y = np.array([1, 1, 5, 5, 5])
    clf = _fit(y, scoring="neg_mean_squared_error", labels=[1, 2, 3, 4, 5])
    assert clf.classes_.tolist() == [1, 2, 3, 4, 5]
    assert clf.trivial_class_ == 3
    assert clf.class_scores_ == pytest.approx([-9.6, -5.8, -4.0, -4.2, -6.4])
    assert _fit(y, scoring="neg_mean_squared_error").trivial_class_ == 5


def test_sample_weight_equals_repetition_in_scores():
    y = np.array([0, 1, 1, 2, 3, 3])
    weight = np.array([3, 1, 0, 2, 1, 4])
    weighted = TrivialOrdinalClassifier("neg_mean_squared_error").fit(
        np.zeros((len(y), 1)), y, sample_weight=weight
    )
    repeated = _fit(np.repeat(y, weight), scoring="neg_mean_squared_error")
    np.testing.assert_allclose(weighted.class_scores_, repeated.class_scores_)
    assert weighted.trivial_class_ == repeated.trivial_class_


def test_sample_weight_with_a_measure_that_ignores_it_is_an_error():
    y = [0, 1, 1]
    clf = TrivialOrdinalClassifier(lambda t, p: float(np.mean(t == p)))
    with pytest.raises(ValueError, match="no weighted form"):
        clf.fit(np.zeros((3, 1)), y, sample_weight=[1, 2, 3])


def test_unknown_metric_name_is_an_error_with_suggestions():
    with pytest.raises(ValueError, match="neg_macro_mean_absolute_error"):
        _fit([0, 1], scoring="neg_macro_mean_absolut_error")


def test_scoring_of_wrong_type_is_an_error():
    with pytest.raises(ValueError, match="scoring"):
        _fit([0, 1], scoring=3)


def test_metric_undefined_everywhere_is_an_error():
    with pytest.raises(ValueError, match="undefined"):
        _fit([0, 1], scoring=lambda t, p: float("nan"))


@pytest.mark.parametrize(
    "n_rows, y, match",
    [
        (3, [0, np.nan, 1], "NaN"),
        (3, [0, 1], "inconsistent numbers of samples"),
        (0, [], "empty"),
        (2, [[0, 1], [1, 0]], "1-D"),
        (3, [0, 1, 7], r"not in labels=\[0, 1, 2\]: \[7\]"),
    ],
)
def test_bad_targets_are_errors(n_rows, y, match):
    with pytest.raises(ValueError, match=match):
        TrivialOrdinalClassifier(labels=[0, 1, 2]).fit(np.zeros((n_rows, 1)), y)


# --- predictions ----------------------------------------------------------------


def test_predictions_are_constant_and_one_hot():
    clf = _fit(np.array(["lo", "hi", "mid", "mid"]), labels=["lo", "mid", "hi"])
    X = np.zeros((3, 5))
    assert clf.predict(X).tolist() == ["mid"] * 3
    np.testing.assert_array_equal(clf.predict_proba(X), [[0, 1, 0]] * 3)
    with np.errstate(divide="ignore"):
        expected_log = np.log([[0, 1, 0]] * 3)
    np.testing.assert_array_equal(clf.predict_log_proba(X), expected_log)
    assert not hasattr(clf, "decision_function")


def test_ordered_categorical_target_gives_its_order():
    y = pd.Series(pd.Categorical(["low"] * 5 + ["high"] * 2 + ["mid"],
                                 categories=["low", "mid", "high", "top"], ordered=True))
    with pytest.warns(UndefinedMetricWarning, match="top"):
        clf = _fit(y)
    assert clf.classes_.tolist() == ["low", "mid", "high", "top"]
    assert clf.trivial_class_ == "mid"


def test_dataframe_features_pickle_clone_and_pipeline():
    X = pd.DataFrame({"a": np.arange(8.0), "b": np.ones(8)})
    y = np.array([0, 0, 0, 0, 0, 1, 2, 2])
    clf = TrivialOrdinalClassifier().fit(X, y)
    assert clf.n_features_in_ == 2
    assert clf.feature_names_in_.tolist() == ["a", "b"]
    restored = pickle.loads(pickle.dumps(clf))
    assert restored.trivial_class_ == clf.trivial_class_ == 1
    assert clone(clf).get_params() == clf.get_params()
    pipe = make_pipeline(StandardScaler(), TrivialOrdinalClassifier("neg_mean_absolute_error"))
    assert pipe.fit(X, y).predict(X).tolist() == [0] * 8
    assert pipe.score(X, y) == accuracy_score(y, [0] * 8)


def test_grid_search_over_scoring():
    y = _labels_from_counts(list(TRIPADVISOR.values()), list(TRIPADVISOR))
    X = np.zeros((len(y), 1))
    search = GridSearchCV(
        TrivialOrdinalClassifier(),
        {"scoring": ["neg_mean_absolute_error", "neg_macro_mean_absolute_error"]},
        scoring=get_scorer("neg_macro_mean_absolute_error"),
        cv=3,
    ).fit(X, y)
    assert search.best_params_ == {"scoring": "neg_macro_mean_absolute_error"}
    assert search.best_estimator_.trivial_class_ == 3
    assert search.best_score_ == pytest.approx(-1.2)


# --- Clear errors and edge cases (trust issue, family 6) ---------------------------


@pytest.mark.parametrize(
    "bad_metric",
    [lambda t, p: np.array([0.1, 0.2]), lambda t, p: None, lambda t, p: "high"],
    ids=["array", "None", "string"],
)
def test_metric_must_return_one_number(bad_metric):
    with pytest.raises(ValueError, match="must return one real number"):
        TrivialOrdinalClassifier(bad_metric).fit(np.zeros((4, 1)), [0, 1, 1, 2])


def test_metric_undefined_for_every_class_is_an_error():
    with pytest.raises(ValueError, match=r"undefined \(NaN\) for every trivial classifier"):
        TrivialOrdinalClassifier(lambda t, p: np.nan).fit(np.zeros((4, 1)), [0, 1, 1, 2])


@pytest.mark.parametrize("metric", ["vus", "u_cons", "neg_macro_mean_absolute_error"])
def test_one_training_class_needs_no_score(metric):
    # Ranking measures are undefined on one class; one class is the only choice anyway.
    with pytest.warns(UndefinedMetricWarning, match="y holds one class, 4"):
        clf = TrivialOrdinalClassifier(metric).fit(np.zeros((3, 1)), [4, 4, 4])
    assert clf.trivial_class_ == 4 and clf.predict([[0]]).tolist() == [4]


def test_fit_without_features_like_dummy_classifier():
    clf = TrivialOrdinalClassifier().fit(None, [1, 2, 2, 3, 3])
    assert clf.predict(np.zeros((2, 1))).tolist() == [2, 2]


def test_given_order_reaches_the_scorer_even_when_alphabetical():
    # labels= states the order; sorted strings in classes_ alone would state none.
    y = ["a"] * 5 + ["b"] * 1 + ["c"] * 4
    clf = TrivialOrdinalClassifier("neg_mean_absolute_error", labels=["a", "b", "c"])
    clf.fit(np.zeros((10, 1)), y)
    np.testing.assert_allclose(clf.class_scores_, [-(1 + 8) / 10, -(5 + 4) / 10, -(10 + 1) / 10])
    with pytest.raises(ValueError, match="order cannot be guessed"):
        TrivialOrdinalClassifier("neg_mean_absolute_error").fit(np.zeros((10, 1)), y)
    # An order-free measure takes unordered strings as a set.
    assert TrivialOrdinalClassifier("accuracy").fit(np.zeros((10, 1)), y).trivial_class_ == "a"


def test_zero_weight_items_are_dropped_from_the_choice():
    X, y = np.zeros((6, 1)), [0, 0, 0, 1, 2, 2]
    weights = [1, 1, 1, 1, 0, 0]  # class 2 is not in the training data at all
    clf = TrivialOrdinalClassifier("neg_mean_absolute_error").fit(X, y, sample_weight=weights)
    assert clf.classes_.tolist() == [0, 1] and clf.trivial_class_ == 0


@pytest.mark.parametrize(
    "name", [n for n in get_scorer_names() if get_scorer(n).response == "labels"]
)
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("weighted", [False, True])
def test_class_scores_from_the_counts_equal_the_scorer_on_each_trivial_classifier(
    name, weighted
):
    # fit scores the trivial classifiers from the class counts (one column of the
    # confusion matrix each); the scorer called on each must agree.
    from sklearn_ordinal.dummy import _trivial

    rng = np.random.RandomState(0)
    y = rng.choice([1, 2, 4, 7], size=50, p=[0.1, 0.2, 0.3, 0.4])
    X = np.zeros((len(y), 1))
    weight = rng.uniform(0.5, 2.0, size=len(y)) if weighted else None
    scorer = get_scorer(name)
    kwargs = {} if weight is None else {"sample_weight": weight}
    try:
        expected = [
            scorer(DummyClassifier(strategy="constant", constant=c).fit(X, y), X, y, **kwargs)
            for c in [1, 2, 4, 7]
        ]
    except ValueError:
        pytest.skip("the measure takes no weights")
    clf = TrivialOrdinalClassifier(name)
    classes = np.array([1, 2, 4, 7])
    from_counts = _trivial._scores_from_counts(clf._scorer(classes, True), classes, np.ones(4))
    assert from_counts is not None  # the counts path is the one tested
    np.testing.assert_allclose(clf.fit(X, y, **kwargs).class_scores_, expected, rtol=1e-12,
                               atol=1e-14)
