"""``python -m sklearn_ordinal agreement FILE --coefficient ... --judge COLUMN``."""

import re

import numpy as np
import pandas as pd
import pytest

from sklearn_ordinal.metrics import brennan_prediger, fleiss_kappa, gwet_ac
from sklearn_ordinal.stats import intraclass_correlation_interval, judge_agreement

from _cli_runs import run_main as _run


@pytest.fixture
def ratings_file(tmp_path):
    rng = np.random.default_rng(0)
    truth = rng.integers(1, 6, size=60)
    frame = pd.DataFrame({name: np.clip(truth + rng.integers(-1, 2, size=60), 1, 5)
                          for name in ["ann", "bob", "cy"]}).astype(float)
    frame["model"] = np.clip(truth + 1, 1, 5).astype(float)
    frame.loc[[4, 9], "model"] = np.nan
    frame.loc[[1, 2], "bob"] = np.nan
    frame.insert(0, "unit", [f"u{i}" for i in range(60)])
    path = tmp_path / "ratings.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_coefficients_are_the_functions_numbers(capsys, ratings_file):
    path, frame = ratings_file
    code, out, err = _run(capsys, "agreement", path, "--coefficient", "ac1,ac2,fleiss,bp",
                          "--weights", "quadratic", "--seed", "0", "--n-resamples", "199")
    assert code == 0, err
    data = frame.drop(columns="unit").to_numpy().T
    assert re.search(rf"Gwet's AC1 +{gwet_ac(data):.3f} ", out)
    assert re.search(rf"Gwet's AC2 \(quadratic\) +{gwet_ac(data, weights='quadratic'):.3f} ", out)
    assert re.search(rf"Fleiss' kappa \(quadratic\) +{fleiss_kappa(data, weights='quadratic'):.3f} ",
                     out)
    assert re.search(rf"Brennan-Prediger \(quadratic\) +"
                     rf"{brennan_prediger(data, weights='quadratic'):.3f} ", out)
    assert "level" not in out  # no alpha table unless asked for


def test_icc_and_analytic_intervals(capsys, tmp_path):
    judges = pd.DataFrame([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6],
                           [10, 5, 6, 9], [6, 2, 4, 7]], columns=list("ABCD"))
    path = tmp_path / "sf.csv"
    judges.to_csv(path, index=False)
    code, out, err = _run(capsys, "agreement", path, "--coefficient", "icc", "--form",
                          "ICC(3,1)", "--method", "normal")
    assert code == 0, err
    result = intraclass_correlation_interval(judges.to_numpy().T, form="ICC(3,1)")
    low, high = result.confidence_interval
    assert re.search(rf"ICC\(3,1\) +0.715  \[{low:.3f}, {high:.3f}\]", out)


def test_judge_report(capsys, ratings_file):
    path, frame = ratings_file
    code, out, err = _run(capsys, "agreement", path, "--judge", "model", "--seed", "0",
                          "--n-resamples", "199")
    assert code == 0, err
    panel = frame.set_index("unit").T
    panel.index.name = "annotator"
    report = judge_agreement(panel, "model", n_resamples=199, random_state=0)
    assert report.to_string() in out
    assert "model against a panel of 3 annotators: 60 units, 2 abstentions" in out


def test_judge_in_a_long_file(capsys, ratings_file, tmp_path):
    _, frame = ratings_file
    long = frame.melt(id_vars="unit", var_name="annotator", value_name="value").dropna()
    path = tmp_path / "long.csv"
    long.to_csv(path, index=False)
    code, out, err = _run(capsys, "agreement", path, "--judge", "model", "--seed", "0",
                          "--n-resamples", "199")
    assert code == 0, err
    assert "model against a panel of 3 annotators: 60 units, 2 abstentions" in out


@pytest.mark.parametrize("argv, message", [
    (["--judge", "gpt"], "no annotator 'gpt' for --judge; the annotators are ann, bob, cy"),
    (["--coefficient", "icc"], "missing values.*--coefficient alpha --level interval"),
    (["--judge", "model", "--level", "ordinal,nominal"], "one --level"),
    (["--judge", "model", "--coefficient", "ac1,fleiss"], "one other coefficient"),
])
def test_bad_input_exits_2_with_one_line(capsys, ratings_file, argv, message):
    path, _ = ratings_file
    code, out, err = _run(capsys, "agreement", path, *argv)
    assert code == 2
    assert out == ""
    lines = [line for line in err.splitlines() if "error" in line]
    assert len(lines) == 1
    assert re.search(message, lines[0]), lines


def test_a_judge_with_no_rating(capsys, ratings_file, tmp_path):
    _, frame = ratings_file
    frame["model"] = np.nan
    path = tmp_path / "empty_judge.csv"
    frame.to_csv(path, index=False)
    code, _, err = _run(capsys, "agreement", path, "--judge", "model")
    assert code == 2
    assert "gave no rating at all" in err


def test_ordered_weights_of_text_need_labels(capsys, tmp_path):
    path = tmp_path / "text.csv"
    pd.DataFrame({"a": ["low", "mid", "high", "mid"], "b": ["low", "high", "high", "mid"]}
                 ).to_csv(path, index=False)
    code, _, err = _run(capsys, "agreement", path, "--coefficient", "fleiss", "--weights",
                        "linear")
    assert code == 2
    assert "--labels LOW,...,HIGH" in err and "leave out --weights" in err
    code, out, err = _run(capsys, "agreement", path, "--coefficient", "fleiss", "--weights",
                          "linear", "--labels", "low,mid,high", "--n-resamples", "99")
    assert code == 0, err
