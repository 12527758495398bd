"""judge_agreement and JudgeReport: a judge held against a panel of annotators."""

import json

import numpy as np
import pandas as pd
import pytest

from sklearn_ordinal.stats import JudgeReport, judge_agreement
from sklearn_ordinal.metrics import gwet_ac, krippendorff_alpha
from sklearn_ordinal.stats import alternative_annotator_test


def _panel(seed=0, n_units=80, n_annotators=4):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, size=n_units)
    panel = np.clip(truth + rng.integers(-1, 2, size=(n_annotators, n_units)), 1, 5)
    return rng, truth, panel.astype(float)


def test_every_part_is_the_function_of_its_own_home():
    rng, truth, panel = _panel()
    judge = truth.astype(float)
    judge[[3, 7]] = np.nan
    report = judge_agreement(panel, judge, n_resamples=199, random_state=0)
    assert isinstance(report, JudgeReport)
    rows = report.agreement.set_index("comparison")
    assert rows.loc["panel", "alpha"] == pytest.approx(krippendorff_alpha(panel))
    assert rows.loc["panel", "coefficient"] == pytest.approx(gwet_ac(panel, weights="ordinal"))
    both = np.vstack([panel, judge])
    assert rows.loc["panel + judge", "alpha"] == pytest.approx(krippendorff_alpha(both))
    # The annotator 0 against the lower median of the other three.
    rest = np.sort(panel[1:], axis=0)[1]
    # On the units the judge rated too.
    annotator_there = np.where(np.isnan(judge), np.nan, panel[0])
    assert rows.loc["0 vs rest", "alpha"] == pytest.approx(
        krippendorff_alpha(np.vstack([annotator_there, rest]), labels=[1, 2, 3, 4, 5]))
    assert rows.loc["judge vs rest of 0", "coefficient"] == pytest.approx(
        gwet_ac(np.vstack([judge, rest]), weights="ordinal", labels=[1, 2, 3, 4, 5]))
    test = alternative_annotator_test(panel, judge)
    assert report.alternative_annotator_test.winning_rate == test.winning_rate
    assert report.n_abstentions == 2 and report.abstained_units == [3, 7]
    assert report.confusion_matrix.to_numpy().sum() == 78
    low, high = rows.loc["panel", ["coefficient_low", "coefficient_high"]]
    assert low < rows.loc["panel", "coefficient"] < high


def test_leniency_is_the_mean_signed_difference_from_the_panel():
    rng, truth, panel = _panel(1)
    judge = np.clip(truth + 1, 1, 5)
    report = judge_agreement(panel, judge, n_resamples=99, random_state=0)
    expected = np.mean(judge - panel.mean(axis=0))
    assert report.leniency.loc["judge", "leniency"] == pytest.approx(expected)
    assert report.leniency.loc["judge", "low"] > 0
    # An annotator against the mean of the others.
    assert report.leniency.loc[0, "leniency"] == pytest.approx(
        np.mean(panel[0] - panel[1:].mean(axis=0)))
    assert report.disagreements["distance"].is_monotonic_decreasing


def test_exports():
    _, truth, panel = _panel(2, n_units=40)
    frame = pd.DataFrame(panel, index=["ann", "bob", "cy", "dee"])
    frame.loc["model"] = truth
    report = judge_agreement(frame, "model", n_resamples=99, random_state=0)
    content = json.loads(report.to_json())
    assert content["settings"]["judge"] == "model"
    assert content["settings"]["annotators"] == ["ann", "bob", "cy", "dee"]
    assert len(content["agreement"]) == 3 + 2 * 4
    assert report.to_frame().equals(report.agreement)
    text = report.to_string()
    assert "model against a panel of 4 annotators" in text
    assert "judge vs rest of bob" in text and "Leniency" in text
    assert "JudgeReport" in repr(report)


def test_same_seed_same_numbers():
    _, truth, panel = _panel(3, n_units=50)
    first = judge_agreement(panel, truth, n_resamples=99, random_state=4).to_json()
    assert first == judge_agreement(panel, truth, n_resamples=99, random_state=4).to_json()


def test_too_few_units_for_the_test_is_a_note_not_an_error():
    _, truth, panel = _panel(4, n_units=12)
    report = judge_agreement(panel, truth, n_resamples=99, random_state=0)
    assert report.alternative_annotator_test is None
    assert any("not run" in note for note in report.notes)


def test_bad_input():
    _, truth, panel = _panel(5, n_units=30)
    frame = pd.DataFrame(panel, index=list("abcd"))
    with pytest.raises(ValueError, match="'z' is not a row of panel"):
        judge_agreement(frame, "z")
    with pytest.raises(ValueError, match="no rating at all"):
        judge_agreement(panel, np.full(30, np.nan))
    with pytest.raises(ValueError, match="1 annotator"):
        judge_agreement(panel[:1], truth)
    with pytest.raises(ValueError, match=r"shape \(2, 2\)"):
        judge_agreement(panel, truth, weights=np.eye(2))
    with pytest.raises(ValueError, match="not in labels"):
        judge_agreement(panel, truth, labels=[1, 2, 3])
    with pytest.raises(ValueError, match="order cannot be guessed"):
        judge_agreement([["a", "b"], ["b", "a"]], ["a", "a"])


def test_the_judge_and_each_annotator_are_read_on_the_same_units():
    rng, truth, panel = _panel(6, n_units=90)
    panel[0, 30:] = np.nan  # annotator 0 rated the first 30 units only
    truth = truth.astype(float)
    truth[:3] = np.nan  # and the judge abstained on three of them
    report = judge_agreement(panel, truth, n_resamples=99, random_state=0)
    rows = report.agreement.set_index("comparison")
    assert rows.loc["0 vs rest", "n_units"] == rows.loc["judge vs rest of 0", "n_units"] == 27
    rest = np.sort(panel[1:], axis=0)[1]
    judge_there = np.where(np.isnan(panel[0]), np.nan, truth)
    assert rows.loc["judge vs rest of 0", "alpha"] == pytest.approx(
        krippendorff_alpha(np.vstack([judge_there, rest]), labels=[1, 2, 3, 4, 5]))


def test_nominal_judges_have_no_leniency():
    panel = [["cat", "dog", "cat", "bird"] * 10, ["cat", "dog", "dog", "bird"] * 10,
             ["cat", "cat", "cat", "bird"] * 10]
    report = judge_agreement(panel, ["cat", "dog", "cat", "cat"] * 10, level="nominal",
                             n_resamples=99, random_state=0)
    assert report.leniency.empty
    assert any("no leniency" in note for note in report.notes)
    assert report.alternative_annotator_test.scoring == "accuracy"
    assert "Leniency" in report.to_string()
