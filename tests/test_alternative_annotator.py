"""The alternative annotator test against a plain re-statement of Calderon et al. (2025).

The reference implementation (``alt_test`` of github.com/nitaytech/AltTest) was run
on its nine data sets and gave the same winning rates and advantage probabilities
(recorded in CHANGELOG.md); its example data carry no licence, so they are not
copied here. Instead, a plain loop over annotators and units, written from the
paper's definitions, is held against the vectorized test on random panels, and its
properties: a judge that copies the leave-one-out consensus wins, a random one loses.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from sklearn_ordinal.stats import alternative_annotator_test
from sklearn_ordinal.stats._multiple_testing import benjamini_yekutieli_rejections


def _plain_alt_test(panel, judge, scoring, epsilon, q=0.05, min_units=30):
    """The test written out: dictionaries, one unit and one annotator at a time."""
    n_annotators, n_units = panel.shape
    rated = {a: {u: panel[a, u] for u in range(n_units) if not np.isnan(panel[a, u])}
             for a in range(n_annotators)}
    kept = [u for u in range(n_units) if not np.isnan(judge[u])
            and sum(u in rated[a] for a in rated) >= 2]

    def score(x, others):
        if scoring == "accuracy":
            return np.mean([x == y for y in others])
        return -np.sqrt(np.mean([(x - y) ** 2 for y in others]))

    pvalues, advantages = [], []
    for a in range(n_annotators):
        units = [u for u in kept if u in rated[a]]
        if len(units) < min_units:
            continue
        judge_wins, human_wins = [], []
        for u in units:
            others = [rated[b][u] for b in rated if b != a and u in rated[b]]
            s_judge, s_human = score(judge[u], others), score(rated[a][u], others)
            judge_wins.append(float(s_judge >= s_human))
            human_wins.append(float(s_human >= s_judge))
        difference = np.array(human_wins) - np.array(judge_wins)
        with np.errstate(divide="ignore", invalid="ignore"):
            pvalues.append(stats.ttest_1samp(difference, epsilon, alternative="less").pvalue)
        advantages.append(np.mean(judge_wins))
    # Benjamini-Yekutieli, step up.
    m = len(pvalues)
    order = np.argsort(pvalues)
    harmonic = sum(1 / j for j in range(1, m + 1))
    largest = -1
    for rank, index in enumerate(order, start=1):
        if pvalues[index] <= rank / m * q / harmonic:
            largest = rank
    return max(largest, 0) / m, float(np.mean(advantages))


def _panel(seed, n_annotators, n_units, k, missing, noise):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, k + 1, size=n_units)
    panel = np.where(rng.random((n_annotators, n_units)) < noise,
                     rng.integers(1, k + 1, size=(n_annotators, n_units)), truth)
    panel = panel.astype(float)
    panel[rng.random(panel.shape) < missing] = np.nan
    return rng, truth, panel


@pytest.mark.parametrize("level, scoring", [("nominal", "accuracy"), ("ordinal", "neg_rmse"),
                                            ("interval", "neg_rmse")])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n_annotators=st.integers(2, 5),
       n_units=st.integers(30, 90), missing=st.sampled_from([0.0, 0.2]),
       epsilon=st.sampled_from([0.0, 0.1, 0.2]))
def test_equals_the_plain_statement_on_random_panels(level, scoring, seed, n_annotators,
                                                      n_units, missing, epsilon):
    rng, truth, panel = _panel(seed, n_annotators, n_units, 4, missing, 0.3)
    judge = np.where(rng.random(n_units) < 0.3, rng.integers(1, 5, size=n_units), truth)
    judge = judge.astype(float)
    judge[rng.random(n_units) < 0.1] = np.nan
    try:
        expected = _plain_alt_test(panel, judge, scoring, epsilon, min_units=10)
    except ZeroDivisionError:
        expected = None
    if expected is None or np.isnan(judge).all():
        return
    result = alternative_annotator_test(panel, judge, level=level, epsilon=epsilon,
                                        min_units=10)
    assert result.winning_rate == pytest.approx(expected[0], abs=1e-12)
    assert result.advantage_probability == pytest.approx(expected[1], abs=1e-12)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), n_annotators=st.integers(3, 6))
def test_a_judge_copying_the_consensus_wins_and_a_random_one_loses(seed, n_annotators):
    rng, truth, panel = _panel(seed, n_annotators, 200, 5, 0.0, 0.3)
    consensus = np.median(panel, axis=0).round()
    assert alternative_annotator_test(panel, consensus, epsilon=0.2).passed
    random_judge = rng.integers(1, 6, size=200)
    result = alternative_annotator_test(panel, random_judge, epsilon=0.2)
    assert not result.passed
    assert result.advantage_probability < alternative_annotator_test(
        panel, consensus, epsilon=0.2).advantage_probability


def test_benjamini_yekutieli_equals_scipy():
    if not hasattr(stats, "false_discovery_control"):
        pytest.skip("scipy.stats.false_discovery_control needs SciPy 1.11")
    rng = np.random.default_rng(0)
    for _ in range(50):
        p = rng.random(rng.integers(1, 12)) ** 3
        adjusted = stats.false_discovery_control(p, method="by")
        assert (benjamini_yekutieli_rejections(p, 0.05) == (adjusted <= 0.05)).all()


def test_annotators_with_too_few_units_are_not_tested():
    _, truth, panel = _panel(1, 3, 60, 4, 0.0, 0.2)
    panel[2, 20:] = np.nan
    result = alternative_annotator_test(panel, truth)
    assert result.per_annotator["tested"].tolist() == [True, True, False]
    assert np.isnan(result.per_annotator.loc[2, "pvalue"])


def test_bad_input():
    _, truth, panel = _panel(1, 3, 40, 4, 0.0, 0.2)
    with pytest.raises(ValueError, match="1 annotator"):
        alternative_annotator_test(panel[:1], truth)
    with pytest.raises(ValueError, match="no rating at all"):
        alternative_annotator_test(panel, np.full(40, np.nan))
    with pytest.raises(ValueError, match="40 units.*39 ratings"):
        alternative_annotator_test(panel, truth[:-1])
    with pytest.raises(ValueError, match="No annotator rated 30 units"):
        alternative_annotator_test(panel[:, :20], truth[:20])
    with pytest.raises(ValueError, match="not in labels"):
        alternative_annotator_test(panel, truth, labels=[1, 2, 3])
    import pandas as pd
    frame = pd.DataFrame(panel, index=["ann", "bob", "cy"])
    with pytest.raises(ValueError, match="'gpt' is not a row of panel"):
        alternative_annotator_test(frame, "gpt")
    result = alternative_annotator_test(frame, "cy")
    assert list(result.per_annotator.index) == ["ann", "bob"]
