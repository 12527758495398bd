"""Comparing across data sets: the tables built from reports, cross_validate and
GridSearchCV results; the critical-difference diagram; ``python -m sklearn_ordinal
compare``."""

import contextlib
import io
import itertools
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, cross_validate

from sklearn_ordinal.__main__ import main
from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from sklearn_ordinal.evaluation import evaluate
from sklearn_ordinal.metrics import get_scorer
from sklearn_ordinal.stats import CriticalDifferenceDisplay, compare_across_datasets

MEASURE = "neg_mean_absolute_error"


def _datasets(n=5):
    return {
        f"task{seed}": make_classification(
            n_samples=60, n_features=4, n_informative=3, n_redundant=0, n_classes=3,
            random_state=seed)
        for seed in range(n)
    }


def _quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@pytest.fixture(scope="module")
def cv_results():
    systems = {"logistic": LogisticRegression(max_iter=500),
               "trivial": TrivialOrdinalClassifier("neg_mean_absolute_error")}
    return {
        name: {system: cross_validate(estimator, X, y, cv=3,
                                      scoring={MEASURE: get_scorer(MEASURE)})
               for system, estimator in systems.items()}
        for name, (X, y) in _datasets().items()
    }


def test_from_cross_validate_results(cv_results):
    result = _quietly(compare_across_datasets, cv_results, MEASURE)
    expected = pd.DataFrame({
        name: {system: np.mean(run[f"test_{MEASURE}"]) for system, run in systems.items()}
        for name, systems in cv_results.items()
    }).T
    np.testing.assert_allclose(result.scores.to_numpy(), expected.to_numpy())
    assert list(result.scores.columns) == ["logistic", "trivial"]
    assert result.greater_is_better  # scorer values: negated MAE
    assert result.average_ranks["logistic"] < result.average_ranks["trivial"]
    # The only test_ score: the measure is read from its key.
    alone = _quietly(compare_across_datasets, cv_results)
    assert alone.measure == MEASURE
    with pytest.raises(ValueError, match="has no test_cem_ord"):
        compare_across_datasets(cv_results, "cem_ord")


def test_from_grid_searches():
    searches = {
        name: GridSearchCV(LogisticRegression(max_iter=500), {"C": [0.01, 1.0]}, cv=3,
                           scoring={MEASURE: get_scorer(MEASURE), "cem_ord":
                                    get_scorer("cem_ord")}, refit=False).fit(X, y)
        for name, (X, y) in _datasets().items()
    }
    result = _quietly(compare_across_datasets, searches, "cem_ord")
    assert list(result.scores.columns) == ["C=0.01", "C=1.0"]
    np.testing.assert_allclose(
        result.scores["C=1.0"],
        [search.cv_results_["mean_test_cem_ord"][1] for search in searches.values()])
    # cv_results_ dicts work the same.
    plain = _quietly(compare_across_datasets,
                     {name: search.cv_results_ for name, search in searches.items()},
                     "cem_ord")
    pd.testing.assert_frame_equal(plain.scores, result.scores)
    with pytest.raises(ValueError, match="pass measure="):
        compare_across_datasets(searches)


def test_from_evaluation_reports():
    rng = np.random.default_rng(0)
    reports = []
    for _ in range(5):
        y = rng.integers(0, 3, 60)
        close = np.clip(y + rng.integers(-1, 2, 60), 0, 2)
        reports.append(_quietly(evaluate, y, {"close": close, "far": 2 - y},
                                measures=["neg_mean_absolute_error", "accuracy"],
                                n_resamples=99, random_state=0))
    # The report knows that lower MAE is better: no direction to give.
    result = _quietly(compare_across_datasets, reports, "mean_absolute_error")
    assert not result.greater_is_better
    assert result.average_ranks.to_dict() == {"close": 1.0, "far": 2.0}
    np.testing.assert_allclose(
        result.scores["close"],
        [report.scores.loc["close", ("mean_absolute_error", "estimate")]
         for report in reports])
    with_trivial = _quietly(compare_across_datasets, reports, "accuracy",
                            include_trivial=True)
    assert list(with_trivial.scores.columns) == ["close", "far", "(trivial)"]
    with pytest.raises(ValueError, match="several measures"):
        compare_across_datasets(reports)
    reports[0].greater_is_better["accuracy"] = False  # as a mislabelled report would say
    with pytest.raises(ValueError, match="disagree on the direction of 'accuracy'"):
        compare_across_datasets(reports, "accuracy")
    with pytest.raises(ValueError, match="contradicts"):
        compare_across_datasets(reports, "mean_absolute_error", greater_is_better=True)


def test_bad_dict():
    with pytest.raises(ValueError, match="A dict of scores must map each data set"):
        compare_across_datasets({"a": 1.0, "b": 2.0}, greater_is_better=True)


# --- the diagram --------------------------------------------------------------------


@pytest.mark.parametrize("n_systems", [2, 5, 20])
@pytest.mark.parametrize("posthoc", ["wilcoxon", "nemenyi"])
def test_display_draws(n_systems, posthoc):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(n_systems)
    table = pd.DataFrame(rng.random((30, n_systems)) + np.linspace(0, 1, n_systems),
                         columns=[f"system {j}" for j in range(n_systems)])
    display = CriticalDifferenceDisplay.from_scores(table, greater_is_better=True,
                                                    posthoc=posthoc)
    assert display.figure_ is display.ax_.figure
    labels = [text.get_text().strip() for text in display.ax_.texts]
    for name, rank in display.average_ranks.items():
        assert f"{name} ({rank:.2f})" in labels
    assert ("CD" in labels) == (posthoc == "nemenyi")
    # One line per system, one per clique, the axis (and the CD bar).
    thick = [line for line in display.ax_.lines if line.get_linewidth() == 3.5]
    assert len(thick) == len(display.cliques)
    assert display.comparison.n_systems == n_systems
    plt.close(display.figure_)


def test_display_on_given_axes_and_from_the_result():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = pd.DataFrame({"a": [0.1, 0.2, 0.3, 0.2, 0.1, 0.3],
                          "b": [0.3, 0.4, 0.5, 0.4, 0.3, 0.6]})
    result = compare_across_datasets(table, "mean_absolute_error")
    figure, ax = plt.subplots()
    display = CriticalDifferenceDisplay.from_comparison(result).plot(ax=ax)
    assert display.ax_ is ax and display.comparison is result
    assert display.ax_.get_title().startswith("mean_absolute_error: 2 systems, 6 data sets")
    plt.close(figure)


# --- the command line ---------------------------------------------------------------


def _run(argv):
    output, errors = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(errors):
        code = main(argv)
    return code, output.getvalue(), errors.getvalue()


@pytest.fixture
def demsar_csv(tmp_path):
    from test_across_datasets import DEMSAR_AUC

    path = tmp_path / "auc.csv"
    long = DEMSAR_AUC.rename_axis("dataset").reset_index().melt(
        id_vars="dataset", var_name="system", value_name="score")
    long.assign(measure="auc").to_csv(path, index=False)
    return path, DEMSAR_AUC


def test_cli_text_json_and_plot(demsar_csv, tmp_path):
    path, table = demsar_csv
    code, output, errors = _run(["compare", str(path), "--measure", "auc",
                                 "--direction", "higher", "--control", "C4.5"])
    assert code == 0, errors
    expected = compare_across_datasets(table, greater_is_better=True, control="C4.5",
                                       measure="auc")
    assert output == expected.to_string()
    code, output, _ = _run(["compare", str(path), "--measure", "auc", "--direction",
                            "higher", "--format", "json", "--posthoc", "nemenyi"])
    assert code == 0
    assert json.loads(output)["critical_difference"] == pytest.approx(1.254, abs=1e-3)
    pytest.importorskip("matplotlib")
    plot = tmp_path / "cd.png"
    wide = tmp_path / "wide.tsv"
    table.rename_axis("data set").to_csv(wide, sep="\t")
    code, output, errors = _run(["compare", str(wide), "--measure", "auc", "--direction",
                                 "higher", "--plot", str(plot), "--format", "markdown"])
    assert code == 0, errors
    assert plot.stat().st_size > 1000
    assert "| system_a | system_b |" in output


def test_cli_bad_input_exits_2_with_one_line(demsar_csv, tmp_path):
    path, table = demsar_csv
    code, output, errors = _run(["compare", str(path), "--measure", "auc"])
    assert code == 2 and output == ""
    assert errors.count("\n") == 1
    assert errors.startswith("python -m sklearn_ordinal compare: error: Unknown measure 'auc'")
    code, _, errors = _run(["compare", str(path), "--measure", "mae", "--direction", "lower"])
    assert code == 2 and "no rows of measure 'mae'" in errors
    code, _, errors = _run(["compare", str(path), "--measure", "auc", "--direction",
                            "higher", "--control", "J48"])
    assert code == 2 and "--control 'J48' is not a system" in errors
    missing = tmp_path / "missing.csv"
    table.iloc[1:].assign(**{"C4.5": [np.nan] + [0.5] * 12}).to_csv(missing)
    code, _, errors = _run(["compare", str(missing), "--measure", "accuracy"])
    # The option, not the Python argument (#41).
    assert code == 2 and "--drop-incomplete" in errors and "drop_incomplete=" not in errors
    code, output, errors = _run(["compare", str(missing), "--measure", "accuracy",
                                 "--drop-incomplete"])
    assert code == 0
    assert "warning: Left out 1 incomplete data set(s)" in errors
    code, _, errors = _run(["compare", str(tmp_path / "x.xlsx"), "--measure", "accuracy"])
    assert code == 2 and "the extension must be one of .csv, .tsv" in errors


def test_clique_bars_share_rows_without_touching():
    from sklearn_ordinal.stats._critical_difference import _pack

    spans = [(0, 2), (1, 3), (2.5, 4), (3.5, 5), (4.5, 6)]
    levels = _pack(spans)
    assert levels == [0, 1, 0, 1, 0]
    for level in set(levels):
        row = [span for span, at in zip(spans, levels) if at == level]
        assert all(left[1] < right[0] for left, right in itertools.pairwise(row))
