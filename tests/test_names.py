"""scikit-learn's names mean scikit-learn's numbers; the package's own follow its patterns."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
import sklearn
import sklearn.metrics
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_validate

import sklearn_ordinal.metrics
from sklearn_ordinal.metrics import (
    get_scorer,
    get_scorer_names,
    macro_mean_absolute_error,
    make_ordinal_scorer,
    mean_absolute_error,
    ranked_probability_score_loss,
)
from sklearn_ordinal.metrics._registry import lookup
from sklearn_ordinal.model_selection import compare_to_trivial

# The measures (not the scorer helpers get_scorer & co., which take each package's names).
SHARED_FUNCTIONS = sorted(
    name for name in set(sklearn_ordinal.metrics.__all__) & set(dir(sklearn.metrics))
    if not name.startswith(("get_scorer", "make_"))
)
SHARED_SCORERS = sorted(set(get_scorer_names()) & set(sklearn.metrics.get_scorer_names()))


def _random_labels(seed, n=200, n_classes=5):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, n)
    y_pred = np.clip(y_true + rng.integers(-2, 3, n), 0, n_classes - 1)
    return y_true, y_pred


def test_the_shared_names_are_the_expected_ones():
    # A new shared name is a deliberate choice: it must then give scikit-learn's number.
    assert SHARED_FUNCTIONS == ["mean_absolute_error", "mean_squared_error",
                                "root_mean_squared_error"]
    assert set(SHARED_SCORERS) >= {"accuracy", "balanced_accuracy", "f1_macro",
                                   "mutual_info_score", "neg_mean_absolute_error",
                                   "neg_mean_squared_error", "neg_root_mean_squared_error"}


@pytest.mark.parametrize("name", SHARED_FUNCTIONS)
@pytest.mark.parametrize("seed", range(5))
def test_shared_functions_give_scikit_learns_number(name, seed):
    y_true, y_pred = _random_labels(seed)
    ours = getattr(sklearn_ordinal.metrics, name)
    theirs = getattr(sklearn.metrics, name)
    np.testing.assert_allclose(ours(y_true, y_pred), theirs(y_true, y_pred), rtol=1e-12)
    # A regressor's real-valued predictions too.
    real = y_pred + np.random.default_rng(seed).normal(0, 0.3, len(y_pred))
    np.testing.assert_allclose(ours(y_true, real), theirs(y_true, real), rtol=1e-12)


@pytest.mark.parametrize("name", SHARED_SCORERS)
@pytest.mark.parametrize("seed", range(3))
def test_shared_scorers_give_scikit_learns_number(name, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(300, 3))
    y = np.digitize(X[:, 0] + rng.normal(0, 0.5, 300), [-1, -0.3, 0.3, 1])
    model = LogisticRegression().fit(X[:200], y[:200])
    ours = get_scorer(name)(model, X[200:], y[200:])
    theirs = sklearn.metrics.get_scorer(name)(model, X[200:], y[200:])
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", [n for n in get_scorer_names() if n.startswith("neg_")])
def test_neg_x_is_minus_x(name):
    """``neg_X`` is ``-X(...)`` with X's defaults, wherever X is a function of ours."""
    function = getattr(sklearn_ordinal.metrics, name[4:], None)
    if function is None:
        record, fixed, _ = lookup(name)
        assert fixed, f"{name} fixes nothing, so {name[4:]} should be a function"
        return
    y_true, y_pred = _random_labels(7)
    X = np.arange(len(y_true)).reshape(-1, 1)

    class Fixed(ClassifierMixin, BaseEstimator):
        classes_ = np.arange(5)

        def predict(self, X):
            return y_pred[np.asarray(X).ravel()]

        def predict_proba(self, X):
            return np.eye(5)[y_pred[np.asarray(X).ravel()]]

    record = lookup(name)[0]
    output = np.eye(5)[y_pred] if record.reads == "proba" else y_pred
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        expected = function(y_true, output)
    assert get_scorer(name)(Fixed(), X, y_true) == pytest.approx(-expected, rel=1e-12)


def test_mean_absolute_error_defaults_to_scikit_learns_micro_average():
    y_true, y_pred = [0, 0, 0, 0, 1], [0, 0, 0, 0, 0]
    assert mean_absolute_error(y_true, y_pred) == pytest.approx(0.2)
    assert macro_mean_absolute_error(y_true, y_pred) == pytest.approx(0.5)
    assert mean_absolute_error(y_true, y_pred, average="macro") == pytest.approx(0.5)


def test_the_old_name_of_the_ranked_probability_loss_still_works_with_a_warning():
    y, proba = [0, 1], [[0.8, 0.2], [0.3, 0.7]]
    with pytest.warns(FutureWarning, match="renamed ranked_probability_score_loss"):
        old = sklearn_ordinal.metrics.ranked_probability_score(y, proba)
    assert old == ranked_probability_score_loss(y, proba)


def test_a_scorer_without_weights_refuses_to_request_them():
    scorer = get_scorer("kendall_tau_b")
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.raises(ValueError, match="cannot request sample_weight"):
            scorer.set_score_request(sample_weight=True)
        # A measure with weights accepts the request, and declining one stays possible.
        get_scorer("cem_ord").set_score_request(sample_weight=True)
        scorer.set_score_request(sample_weight=False)


def test_warnings_point_at_the_users_line():
    with pytest.warns(UndefinedMetricWarning) as record:
        macro_mean_absolute_error([0, 0], [0, 1], labels=[0, 1, 2])  # this line
    assert record[0].filename == __file__
    scorer = make_ordinal_scorer(macro_mean_absolute_error, greater_is_better=False)
    X, y = np.arange(8).reshape(-1, 1), np.array([0, 0, 0, 0, 1, 1, 1, 1])

    class Constant(ClassifierMixin, BaseEstimator):
        classes_ = np.array([0, 1, 2])

        def predict(self, X):
            return np.zeros(len(X), dtype=int)

    with pytest.warns(UndefinedMetricWarning) as record:
        scorer(Constant(), X, y)
    assert record[0].filename == __file__


def test_submodules_load_on_first_use():
    code = (
        "import sys, sklearn_ordinal\n"
        "assert 'sklearn' not in sys.modules\n"
        "assert 'metrics' in dir(sklearn_ordinal)\n"
        "print(sklearn_ordinal.metrics.vus_score([0, 1], [0.1, 0.9]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "1.0"


def test_compare_to_trivial_routes_weights_like_cross_validate():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 2))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    weight = rng.uniform(0.5, 2, 120)
    table = compare_to_trivial(LogisticRegression(), X, y,
                               scoring="neg_macro_mean_absolute_error",
                               params={"sample_weight": weight})
    expected = cross_validate(LogisticRegression(), X, y, cv=5,
                              scoring=get_scorer("neg_macro_mean_absolute_error"),
                              params={"sample_weight": weight})["test_score"].mean()
    assert table.loc["neg_macro_mean_absolute_error", "estimator_mean"] == pytest.approx(
        expected)
    unweighted = compare_to_trivial(LogisticRegression(), X, y,
                                    scoring="neg_macro_mean_absolute_error")
    assert unweighted.loc["neg_macro_mean_absolute_error", "estimator_mean"] != (
        pytest.approx(expected))


def test_macro_f1_over_the_gold_classes_is_pyevalls_and_scikit_learns_with_gold_labels():
    # PyEvALL's case: three gold A's predicted A, A, B. Over the gold classes F1 is
    # 2*2/(3+2) = 0.8; scikit-learn's f1_macro also counts B, whose F1 is 0.
    assert get_scorer("macro_f1_gold").score_func(["A"] * 3, ["A", "A", "B"]) == (
        pytest.approx(0.8))
    assert get_scorer("macro_f1").score_func(["A"] * 3, ["A", "A", "B"]) == pytest.approx(0.4)
    rng = np.random.default_rng(11)
    for _ in range(20):
        y_true, y_pred = rng.integers(0, 4, 50), rng.integers(0, 6, 50)
        weight = rng.uniform(0.1, 2, 50)
        expected = sklearn.metrics.f1_score(y_true, y_pred, labels=np.unique(y_true),
                                            average="macro", sample_weight=weight)
        assert get_scorer("macro_f1_gold").score_func(
            y_true, y_pred, sample_weight=weight) == pytest.approx(expected, rel=1e-12)
