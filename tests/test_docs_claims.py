"""Claims of the user guide's prose that no doctest prints, checked against the code.

Each test quotes the sentence it guards, so that a change of the code or of the data
that makes the sentence false fails here rather than misleading a reader.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "user_guide"
DATA = ROOT / "sklearn_ordinal" / "evaluation" / "data"


def _prose(page):
    return " ".join((GUIDE / page).read_text(encoding="utf-8").split())


def test_ridge_never_predicts_the_rarest_grade_and_low_twice():
    assert ("it never predicts the rarest grade (``very_low``) and predicts ``low`` only "
            "twice, for 31 patients of that grade" in _prose("evaluating_files.rst"))
    ridge = pd.read_csv(DATA / "ridge.tsv", sep="\t")["value"].value_counts()
    gold = pd.read_csv(DATA / "gold.tsv", sep="\t")["value"].value_counts()
    assert "very_low" not in ridge and ridge["low"] == 2 and gold["low"] == 31


def _evaluating_example():
    # The example of evaluating.rst, drawn in the same order.
    rng = np.random.default_rng(0)
    n = 600
    y = rng.choice(5, size=n, p=[0.05, 0.1, 0.15, 0.3, 0.4])
    rng.choice(5, size=2000, p=[0.05, 0.1, 0.15, 0.3, 0.4])
    near = np.clip(y + rng.integers(-1, 2, n), 0, 4)
    hit_or_miss = np.where(rng.random(n) < 0.6, y, rng.integers(0, 5, n))
    return y, near, hit_or_miss


def test_hit_or_miss_is_wide_for_the_spread_of_its_errors_not_its_recall():
    prose = _prose("evaluating.rst")
    assert "its recall is 0.65 to 0.75 in every class" in prose
    assert ("(a standard deviation of 0.6 in the middle grade and 0.9 to 1.5 in the others, "
            "against 0.46 for ``near``)" in prose)
    assert "the 23 items of the rarest grade" in prose
    y, near, hit_or_miss = _evaluating_example()
    classes = np.arange(5)
    recall = np.array([np.mean(hit_or_miss[y == k] == k) for k in classes])
    spread = np.array([np.std(np.abs(hit_or_miss[y == k] - k)) for k in classes])
    spread_near = np.array([np.std(np.abs(near[y == k] - k)) for k in classes])
    assert 0.645 <= recall.min() and recall.max() < 0.75
    assert round(spread[2], 1) == 0.6
    others = np.delete(spread, 2)
    assert 0.9 <= others.min() and others.max() < 1.55
    assert np.allclose(spread_near.round(2), 0.46, atol=0.011)
    assert np.sum(y == 0) == 23


@pytest.mark.slow
def test_1999_resamples_move_the_interval_ends_by_about_a_hundredth():
    # evaluating.rst: "with 1999 resamples the ends of a 95% BCa interval move by about
    # 0.01 from one seed to another (on the example above)".
    from sklearn_ordinal import evaluate

    assert ("with 1999 resamples the ends of a 95% BCa interval move by about 0.01 from "
            "one seed to another" in _prose("evaluating.rst"))
    y, near, hit_or_miss = _evaluating_example()
    ends = []
    for seed in range(4):
        report = evaluate(y, {"hit or miss": hit_or_miss},
                          measures=["macro_mean_absolute_error"], n_resamples=1999,
                          random_state=seed)
        ends.append(report.scores.loc["hit or miss"].to_numpy()[1:])
    moved = np.ptp(np.array(ends), axis=0).max()
    assert 0.003 < moved < 0.03
