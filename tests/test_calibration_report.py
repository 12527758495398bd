"""The calibration section of evaluate's report: the RPS's MCB, DSC and UNC of each
system giving class probabilities (as arrays, beside labels, or as proba_ columns on
the command line), and its reliability diagrams in the HTML page and the JSON."""

import json

import numpy as np
import pandas as pd
import pytest

from sklearn_ordinal.__main__ import main
from sklearn_ordinal.evaluation import EvaluationReport, evaluate
from sklearn_ordinal.metrics import (
    ordinal_calibration_curve,
    ranked_probability_score_decomposition,
)

QUICK = {"n_resamples": 99, "random_state": 0,
         "measures": ["neg_ranked_probability_score", "neg_mean_absolute_error"]}
pytestmark = pytest.mark.filterwarnings("ignore:.*while resampling:UserWarning")


def _task(seed=0, n=200):
    rng = np.random.RandomState(seed)
    proba = rng.dirichlet([2, 2, 2], size=n)
    y = (rng.uniform(size=(n, 1)) > np.cumsum(proba, axis=1)).sum(axis=1).clip(0, 2) + 1
    sharp = proba**3 / (proba**3).sum(axis=1, keepdims=True)
    labels = proba.argmax(axis=1) + 1
    return y, proba, sharp, labels


def test_each_probabilistic_system_gets_its_decomposition():
    y, proba, sharp, labels = _task()
    weights = np.random.RandomState(1).uniform(0.5, 2, size=len(y))
    report = evaluate(y, {"labels_only": labels, "beside": labels, "alone": sharp},
                      y_proba={"beside": proba}, sample_weight=weights, **QUICK)
    table = report.calibration
    assert list(table.index) == ["beside", "alone"]
    for name, given in (("beside", proba), ("alone", sharp)):
        expected = ranked_probability_score_decomposition(y, given, sample_weight=weights)
        assert table.loc[name, "miscalibration"] == pytest.approx(expected.miscalibration,
                                                                  abs=1e-14)
        assert table.loc[name, "discrimination"] == pytest.approx(expected.discrimination,
                                                                  abs=1e-14)
        # Its score is the report's RPS, and UNC the gold standard's.
        assert table.loc[name, "score"] == pytest.approx(
            report.scores.loc[name, ("ranked_probability_score", "estimate")], abs=1e-12)
        assert table.loc[name, "uncertainty"] == table["uncertainty"].iloc[0]
    diagram = report.reliability_diagrams["alone"]
    curve = ordinal_calibration_curve(y, sharp, sample_weight=weights, n_resamples=0)
    assert diagram["thresholds"] == ["1", "2"]
    step = len(curve.forecast[0]) > 200
    assert len(diagram["forecast"][0]) == min(200, len(curve.forecast[0]))
    if not step:
        assert np.allclose(diagram["recalibrated"][0], curve.recalibrated[0])
    # Every point drawn is a point of the curve.
    at = np.searchsorted(curve.forecast[1], diagram["forecast"][1])
    assert np.allclose(np.asarray(curve.recalibrated[1])[at], diagram["recalibrated"][1])
    assert "miscalibration" in report.to_string()
    markdown = report.to_markdown()
    assert "| system | RPS | MCB | DSC | UNC |" in markdown
    assert f"| alone | {table.loc['alone', 'score']:.3f} |" in markdown


def test_a_report_of_labels_has_no_calibration():
    y, _, _, labels = _task()
    report = evaluate(y, {"a": labels}, **QUICK)
    assert report.calibration is None and report.reliability_diagrams is None
    assert "Calibration" not in report.to_html()
    content = json.loads(report.to_json())
    assert content["calibration"] is None
    assert EvaluationReport.from_json(report.to_json()).calibration is None


def test_json_round_trip_and_html_diagrams():
    y, proba, sharp, _ = _task(seed=3)
    report = evaluate(y, {"calibrated": proba, "overconfident": sharp}, **QUICK)
    again = EvaluationReport.from_json(report.to_json())
    pd.testing.assert_frame_equal(again.calibration, report.calibration)
    assert again.reliability_diagrams == report.reliability_diagrams
    page = report.to_html()
    assert page.count('class="reliability"') == 2
    assert page.count('class="threshold"') == 4
    assert "Calibration of the class probabilities" in page
    # The overconfident forecast is the miscalibrated one.
    assert (report.calibration.loc["overconfident", "miscalibration"]
            > report.calibration.loc["calibrated", "miscalibration"])


def test_command_line_reads_proba_columns(tmp_path, capsys):
    y, proba, _, labels = _task(seed=4, n=60)
    ids = [f"i{k}" for k in range(len(y))]
    pd.DataFrame({"id": ids, "value": y}).to_csv(tmp_path / "gold.csv", index=False)
    table = pd.DataFrame({"id": ids, "value": labels})
    for k in range(3):
        table[f"proba_{k + 1}"] = proba[:, k]
    table.to_csv(tmp_path / "model.csv", index=False, float_format="%.17g")
    output = tmp_path / "report.json"
    code = main(["evaluate", str(tmp_path / "gold.csv"), str(tmp_path / "model.csv"),
                 "--n-resamples", "99", "--seed", "0", "--output", str(output)])
    assert code in (0, None)
    content = json.loads(output.read_text())
    record = content["calibration"][0]
    expected = ranked_probability_score_decomposition(y, proba)
    assert record["system"] == "model"
    assert record["miscalibration"] == pytest.approx(expected.miscalibration, abs=1e-12)
    assert record["uncertainty"] == pytest.approx(expected.uncertainty, abs=1e-12)
    assert len(content["reliability_diagrams"]["model"]["forecast"]) == 2
