"""compare_to_trivial: the model and each measure's trivial classifier on the same folds."""

import numpy as np
import pandas as pd
import pytest
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold, KFold, StratifiedKFold, cross_validate

from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from sklearn_ordinal.metrics import get_scorer
from sklearn_ordinal.model_selection import compare_to_trivial
from sklearn_ordinal.model_selection._baseline import _skill

MICRO, MACRO = "neg_mean_absolute_error", "neg_macro_mean_absolute_error"
COLUMNS = [
    "estimator_mean",
    "estimator_std",
    "trivial_mean",
    "trivial_std",
    "trivial_class",
    "mean_difference",
    "skill",
]


def _ordinal_task(n=150, seed=0):
    """One informative feature, 4 imbalanced ordered classes."""
    rng = np.random.RandomState(seed)
    y = rng.choice(4, size=n, p=[0.1, 0.2, 0.3, 0.4])
    X = np.column_stack([y + rng.normal(scale=1.0, size=n), rng.normal(size=n)])
    return X, y


def test_table_matches_a_brute_force_cross_validation():
    X, y = _ordinal_task()
    model = LogisticRegression()
    table = compare_to_trivial(model, X, y, scoring=[MICRO, MACRO], cv=4)
    assert list(table.columns) == COLUMNS
    assert list(table.index) == [MICRO, MACRO]
    assert table.index.name == "measure"
    for name in (MICRO, MACRO):
        scorer = get_scorer(name)
        model_scores, trivial_scores, trivial_classes = [], [], []
        for train, test in StratifiedKFold(4).split(X, y):
            fitted = LogisticRegression().fit(X[train], y[train])
            model_scores.append(scorer(fitted, X[test], y[test]))
            trivial = TrivialOrdinalClassifier(name).fit(X[train], y[train])
            trivial_scores.append(scorer(trivial, X[test], y[test]))
            trivial_classes.append(int(trivial.trivial_class_))
        row = table.loc[name]
        assert row["estimator_mean"] == pytest.approx(np.mean(model_scores))
        assert row["estimator_std"] == pytest.approx(np.std(model_scores))
        assert row["trivial_mean"] == pytest.approx(np.mean(trivial_scores))
        assert row["trivial_std"] == pytest.approx(np.std(trivial_scores))
        assert row["trivial_class"] == trivial_classes
        # Errors are perfect at 0: the skill score is the relative error reduction.
        difference = np.mean(model_scores) - np.mean(trivial_scores)
        assert row["mean_difference"] == pytest.approx(difference)
        assert row["skill"] == pytest.approx(difference / abs(np.mean(trivial_scores)))
    # The trivial class depends on the measure: the macro one is a middle class.
    assert set(table.loc[MACRO, "trivial_class"]) <= {1, 2}


def test_both_sides_see_the_same_folds_even_with_a_shuffling_splitter():
    # The trivial classifier of the measure compared with itself: identical folds
    # give identical scores, so the skill is exactly 0.
    X, y = _ordinal_task(seed=1)
    cv = KFold(5, shuffle=True)  # no random_state: two split() calls differ
    table = compare_to_trivial(TrivialOrdinalClassifier(MICRO), X, y, scoring=MICRO, cv=cv)
    assert table.loc[MICRO, "estimator_mean"] == table.loc[MICRO, "trivial_mean"]
    assert table.loc[MICRO, "skill"] == 0.0


@pytest.mark.parametrize(
    "model, trivial, expected",
    [
        # For an error (perfect at 0) the skill is the relative error reduction.
        # Baccianella et al. (2009), section V, on Table I (MAE, lower is better):
        (-0.621, -0.631, 0.0158),  # Global, MAE^mu: "a mere +1.58% improvement"
        (-0.788, -1.200, 0.343),  # Global, MAE^M: "a brisk +34.3% improvement"
        (-0.847, -0.756, -0.120),  # Value, MAE^mu: "a 12.0% deterioration"
        (-1.085, -1.200, 0.0958),  # Value, MAE^M: "a 9.5% improvement" (9.58, truncated)
    ],
)
def test_skill_of_an_error_is_the_papers_relative_improvement(model, trivial, expected):
    assert _skill(model, trivial, 0.0) == pytest.approx(expected, abs=5e-4)


def test_trivial_score_perfect_gives_nan_skill():
    # One class only: every trivial classifier is perfect, MAE 0: no room to improve.
    X, y = np.zeros((10, 1)), np.full(10, 3)
    table = compare_to_trivial(
        DummyClassifier(strategy="most_frequent"), X, y, scoring=MICRO, cv=2
    )
    assert table.loc[MICRO, "trivial_mean"] == 0
    assert np.isnan(table.loc[MICRO, "skill"])
    assert "improvement" not in table.columns


def test_scoring_forms_name_the_rows():
    X, y = _ordinal_task(n=60)
    model = LogisticRegression()
    scorer = get_scorer(MACRO)
    assert list(compare_to_trivial(model, X, y, scoring=MICRO, cv=3).index) == [MICRO]
    by_scorer = compare_to_trivial(model, X, y, scoring=[scorer], cv=3)
    assert list(by_scorer.index) == [repr(scorer)]
    by_dict = compare_to_trivial(model, X, y, scoring={"macro MAE": scorer, "micro": MICRO}, cv=3)
    assert list(by_dict.index) == ["macro MAE", "micro"]
    by_name = compare_to_trivial(model, X, y, scoring=(MACRO,), cv=3)
    pd.testing.assert_series_equal(by_dict.loc["macro MAE"], by_name.loc[MACRO], check_names=False)


@pytest.mark.parametrize(
    "scoring, match",
    [
        ([], "empty"),
        ([MICRO, MICRO], "more than once"),
        ("neg_mean_absolute_eror", "Did you mean"),
        (3, "scoring"),
    ],
)
def test_bad_scoring_is_an_error(scoring, match):
    X, y = _ordinal_task(n=40)
    with pytest.raises(ValueError, match=match):
        compare_to_trivial(LogisticRegression(), X, y, scoring=scoring, cv=2)


def test_string_and_ordered_categorical_labels():
    X, codes = _ordinal_task(n=80, seed=2)
    names = np.array(["poor", "fair", "good", "great"])
    y = pd.Series(pd.Categorical(names[codes], categories=list(names), ordered=True))
    table = compare_to_trivial(LogisticRegression(), X, y, scoring=MACRO, cv=3)
    # The middle classes are fair and good, and good is more frequent. In alphabetical
    # order (fair < good < great < poor) they would be good and great, and great
    # would win.
    assert table.loc[MACRO, "trivial_class"] == ["good"] * 3
    assert table.loc[MACRO, "trivial_mean"] == pytest.approx(-1.0)


@pytest.mark.filterwarnings("ignore:Classes .* have no true item:UserWarning")
def test_groups_reach_the_splitter_and_n_jobs_gives_the_same_table():
    X, y = _ordinal_task(n=60, seed=3)
    groups = np.arange(60) % 6
    table = compare_to_trivial(
        LogisticRegression(), X, y, scoring=[MICRO, MACRO], cv=GroupKFold(3), groups=groups
    )
    parallel = compare_to_trivial(
        LogisticRegression(), X, y, scoring=[MICRO, MACRO], cv=GroupKFold(3), groups=groups,
        n_jobs=2,
    )
    pd.testing.assert_frame_equal(table, parallel)
    expected = cross_validate(
        LogisticRegression(), X, y, groups=groups, cv=GroupKFold(3), scoring=get_scorer(MICRO)
    )["test_score"].mean()
    assert table.loc[MICRO, "estimator_mean"] == pytest.approx(expected)
