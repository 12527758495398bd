"""Intraclass correlations: Shrout and Fleiss (1979)'s Table 4, pingouin, identities."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sklearn_ordinal.metrics import intraclass_correlation
from sklearn_ordinal.metrics._intraclass import FORMS
from sklearn_ordinal.stats import intraclass_correlation_interval

# Shrout and Fleiss (1979), Table 4: four judges (rows) rate six targets.
SHROUT_FLEISS = np.array([[9, 6, 8, 7, 10, 6], [2, 1, 4, 1, 5, 2],
                          [5, 3, 6, 2, 6, 4], [8, 2, 8, 6, 9, 7]])
# Their published ICCs (two decimals; the psych package's tests hold them too).
PUBLISHED = {"ICC(1,1)": 0.17, "ICC(2,1)": 0.29, "ICC(3,1)": 0.71,
             "ICC(1,k)": 0.44, "ICC(2,k)": 0.62, "ICC(3,k)": 0.91}


@pytest.mark.parametrize("form", list(PUBLISHED))
def test_shrout_fleiss_table_4(form):
    assert round(intraclass_correlation(SHROUT_FLEISS, form=form), 2) == PUBLISHED[form]
    result = intraclass_correlation_interval(SHROUT_FLEISS, form=form)
    assert result.confidence_interval.low < result.estimate < result.confidence_interval.high


def _anova_icc(table, form):
    """The mean squares written out with explicit loops over the cells."""
    n, k = table.shape
    grand = table.mean()
    msr = k * sum((table[i].mean() - grand) ** 2 for i in range(n)) / (n - 1)
    msc = n * sum((table[:, j].mean() - grand) ** 2 for j in range(k)) / (k - 1)
    sst = sum((table[i, j] - grand) ** 2 for i in range(n) for j in range(k))
    mse = (sst - msr * (n - 1) - msc * (k - 1)) / ((n - 1) * (k - 1))
    msw = (sst - msr * (n - 1)) / (n * (k - 1))
    return {
        "ICC(1,1)": (msr - msw) / (msr + (k - 1) * msw),
        "ICC(2,1)": (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n),
        "ICC(3,1)": (msr - mse) / (msr + (k - 1) * mse),
        "ICC(1,k)": (msr - msw) / msr,
        "ICC(2,k)": (msr - mse) / (msr + (msc - mse) / n),
        "ICC(3,k)": (msr - mse) / msr,
    }[form]


@pytest.mark.parametrize("form", list(FORMS))
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(6, 30), k=st.integers(2, 6))
def test_equals_the_anova_written_out(form, seed, n, k):
    rng = np.random.default_rng(seed)
    ratings = rng.normal(size=(k, n)) + rng.normal(size=n) + 100.0
    assert intraclass_correlation(ratings, form=form) == pytest.approx(
        _anova_icc(ratings.T, form), abs=1e-9)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_equals_pingouin_on_random_complete_data(seed):
    pingouin = pytest.importorskip("pingouin")
    rng = np.random.default_rng(seed)
    k, n = 3 + seed, 20 + 10 * seed
    ratings = rng.normal(size=(k, n)) + 1.5 * rng.normal(size=n) + 0.3 * np.arange(k)[:, None]
    long = pd.DataFrame([(u, a, ratings[a, u]) for a in range(k) for u in range(n)],
                        columns=["unit", "annotator", "rating"])
    rounding = dict(pingouin.options)
    pingouin.options["round.column.CI95"] = None
    try:
        table = pingouin.intraclass_corr(long, targets="unit", raters="annotator",
                                         ratings="rating").set_index("Type")
    finally:
        pingouin.options.update(rounding)
    for form, aliases in FORMS.items():
        name = next(alias for alias in (form,) + aliases if alias in table.index)
        result = intraclass_correlation_interval(ratings, form=form)
        assert result.estimate == pytest.approx(table.loc[name, "ICC"], abs=1e-10)
        assert np.allclose(result.confidence_interval, table.loc[name, "CI95"], atol=1e-10)


def test_aliases_give_the_same_number():
    for form, aliases in FORMS.items():
        for alias in aliases:
            assert intraclass_correlation(SHROUT_FLEISS, form=alias) == \
                intraclass_correlation(SHROUT_FLEISS, form=form)


@pytest.mark.parametrize("method", ["bca", "percentile", "basic"])
def test_bootstrap_interval_near_the_f_interval_on_many_units(method):
    rng = np.random.default_rng(3)
    ratings = rng.normal(size=(4, 300)) + 1.2 * rng.normal(size=300)
    f = intraclass_correlation_interval(ratings, form="ICC(3,1)")
    boot = intraclass_correlation_interval(ratings, form="ICC(3,1)", method=method,
                                           n_resamples=1999, random_state=0)
    assert boot.estimate == f.estimate
    assert boot.confidence_interval.low == pytest.approx(f.confidence_interval.low, abs=0.04)
    assert boot.confidence_interval.high == pytest.approx(f.confidence_interval.high, abs=0.04)


def test_text_with_labels_reads_positions():
    names = np.array(["low", "mid", "high"], dtype=object)
    codes = np.array([[0, 1, 2, 2, 1], [0, 1, 2, 1, 1], [1, 1, 2, 2, 0]])
    assert intraclass_correlation(names[codes], labels=["low", "mid", "high"]) == \
        pytest.approx(intraclass_correlation(codes))


def test_bad_input():
    with pytest.raises(ValueError, match="missing values.*annotator 1, unit 2"):
        intraclass_correlation([[1, 2, 3], [1, 2, np.nan]])
    with pytest.raises(ValueError, match="order cannot be guessed"):
        intraclass_correlation([["a", "b"], ["b", "b"]])
    with pytest.raises(ValueError, match="form"):
        intraclass_correlation(SHROUT_FLEISS, form="ICC(4,1)")
    with pytest.warns(UserWarning, match="undefined"):
        assert np.isnan(intraclass_correlation([[1, 1], [1, 1]]))
