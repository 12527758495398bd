"""Krippendorff's alpha and its unit-bootstrap interval (issue 42, the agreement half).

Held to: the worked example of Krippendorff (2011), the ``krippendorff`` package on
random data with missing values (test extra), a brute-force computation from the
definition of the pairable values (loops over units and pairs of annotators), and
bootstrap resamples rebuilt as data sets and scored by the public function.
"""

import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_ordinal._validation import UndefinedMeasureError
from sklearn_ordinal.metrics import krippendorff_alpha
from sklearn_ordinal.metrics._krippendorff import _reliability_counts
from sklearn_ordinal.stats import krippendorff_alpha_interval
from sklearn_ordinal.stats._krippendorff import _cells, _contributions, _jackknife_alphas
from sklearn_ordinal.metrics._krippendorff import _level_values

LEVELS = ["nominal", "ordinal", "interval", "ratio"]
nan = np.nan

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section on
# reliability data with missing values: 4 observers, 12 units, values 1 to 5.
WORKED_EXAMPLE = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
]
# The alphas the paper prints, to its three decimals.
PUBLISHED = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}
NAMES = {1: "very low", 2: "low", 3: "mid", 4: "high", 5: "very high"}
ORDER = ["very low", "low", "mid", "high", "very high"]


def _as_text(data):
    return [[None if np.isnan(v) else NAMES[int(v)] for v in row] for row in data]


def alpha_by_definition(data, level):
    """Alpha from the pairable values, one unit and one pair of annotators at a time."""
    data = np.asarray(data, dtype=float)
    values = np.unique(data[~np.isnan(data)])
    position = {v: i for i, v in enumerate(values)}
    k = len(values)
    o = np.zeros((k, k))
    for u in range(data.shape[1]):
        coded = [v for v in data[:, u] if not np.isnan(v)]
        m = len(coded)
        if m < 2:
            continue
        for i in range(m):
            for j in range(m):
                if i != j:
                    o[position[coded[i]], position[coded[j]]] += 1.0 / (m - 1)
    n_c = o.sum(axis=1)
    n = n_c.sum()

    def delta2(c, d):
        a, b = values[c], values[d]
        if level == "nominal":
            return float(c != d)
        if level == "ordinal":
            lo, hi = min(c, d), max(c, d)
            return (sum(n_c[g] for g in range(lo, hi + 1)) - (n_c[c] + n_c[d]) / 2) ** 2
        if level == "interval":
            return (a - b) ** 2
        return 0.0 if a + b == 0 else ((a - b) / (a + b)) ** 2

    observed = sum(o[c, d] * delta2(c, d) for c in range(k) for d in range(k))
    expected = sum(n_c[c] * n_c[d] * delta2(c, d) for c in range(k) for d in range(k))
    if expected == 0:
        return None
    return 1 - (n - 1) * observed / expected


def random_reliability_data(rng, n_annotators, n_units, n_values, missing=0.3, low=0):
    data = rng.integers(low, low + n_values, size=(n_annotators, n_units)).astype(float)
    data[rng.random(data.shape) < missing] = nan
    return data


# --- The point value ----------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_krippendorffs_worked_example(level):
    alpha = krippendorff_alpha(WORKED_EXAMPLE, level=level)
    assert round(alpha, 3) == PUBLISHED[level]
    assert alpha == pytest.approx(alpha_by_definition(WORKED_EXAMPLE, level), abs=1e-12)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_worked_example_as_text_with_labels(level):
    text = _as_text(WORKED_EXAMPLE)
    alpha = krippendorff_alpha(text, level=level, labels=ORDER)
    assert alpha == pytest.approx(krippendorff_alpha(WORKED_EXAMPLE, level=level), abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("level", LEVELS)
def test_equals_the_krippendorff_package(seed, level):
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(seed)
    data = random_reliability_data(rng, rng.integers(2, 8), rng.integers(5, 300),
                                   rng.integers(2, 9), missing=rng.uniform(0, 0.6), low=1)
    expected = krippendorff.alpha(data, level_of_measurement=level)
    assert krippendorff_alpha(data, level=level) == pytest.approx(expected, rel=1e-12,
                                                                  abs=1e-12)
    # Values listed but never given change nothing (the package's value_domain).
    domain = np.arange(0, 12)
    with_domain = krippendorff.alpha(data, level_of_measurement=level, value_domain=domain)
    assert krippendorff_alpha(data, level=level, labels=domain) == pytest.approx(
        with_domain, rel=1e-12, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 5), st.integers(1, 9), st.integers(1, 4), st.integers(0, 2**32 - 1),
       st.sampled_from(LEVELS))
def test_equals_the_definition_on_small_cases(n_annotators, n_units, n_values, seed, level):
    rng = np.random.default_rng(seed)
    data = random_reliability_data(rng, n_annotators, n_units, n_values, missing=0.3)
    expected = alpha_by_definition(data, level)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        alpha = krippendorff_alpha(data, level=level)
    undefined = [w for w in caught if w.category is UndefinedMetricWarning]
    transposed = [w for w in caught if "pass its transpose" in str(w.message)]
    # One unit is no table turned the wrong way: its transpose has one annotator (#46).
    assert len(transposed) == (n_annotators > n_units >= 2)
    assert len(caught) == len(undefined) + len(transposed)
    if expected is None:
        assert np.isnan(alpha)
        assert len(undefined) == 1
    else:
        assert alpha == pytest.approx(expected, rel=1e-12, abs=1e-12)
        assert not undefined


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_strings_integers_and_ordered_categoricals_give_the_same_alpha(seed):
    rng = np.random.default_rng(seed)
    data = random_reliability_data(rng, 3, 15, 5, low=1)
    text = _as_text(data)
    frame = pd.DataFrame(text).astype(pd.CategoricalDtype(ORDER, ordered=True))
    for level in ["nominal", "ordinal", "interval"]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            expected = krippendorff_alpha(data, level=level)
            assert np.allclose(krippendorff_alpha(text, level=level, labels=ORDER), expected,
                               rtol=1e-12, atol=1e-12, equal_nan=True)
            assert np.allclose(krippendorff_alpha(frame, level=level), expected,
                               rtol=1e-12, atol=1e-12, equal_nan=True)


def test_integer_dtypes_and_none_for_missing():
    as_lists = [[1, 2, 3, None], [1, 2, 2, 4], [None, 2, 3, 4]]
    as_floats = np.array([[1, 2, 3, nan], [1, 2, 2, 4], [nan, 2, 3, 4]])
    expected = krippendorff_alpha(as_floats)
    assert krippendorff_alpha(as_lists) == expected
    complete = np.array([[1, 2, 3, 4], [1, 2, 2, 4]])
    for dtype in (np.int8, np.uint16, np.int64):
        assert krippendorff_alpha(complete.astype(dtype)) == krippendorff_alpha(
            complete.astype(float))


def test_nan_among_text_is_missing_in_lists_and_numpy_text_arrays():
    text = _as_text(WORKED_EXAMPLE)
    with_nan = [[nan if v is None else v for v in row] for row in text]
    as_numpy = np.array(with_nan)  # NumPy writes the NaN as the text "nan"
    assert as_numpy.dtype.kind == "U" and "nan" in as_numpy
    expected = krippendorff_alpha(WORKED_EXAMPLE, level="nominal")
    for data in (with_nan, as_numpy):
        assert krippendorff_alpha(data, level="nominal") == pytest.approx(expected, abs=1e-12)
    assert krippendorff_alpha(as_numpy, labels=ORDER) == pytest.approx(
        krippendorff_alpha(WORKED_EXAMPLE), abs=1e-12)


def test_nominal_text_needs_no_order_and_ignores_it():
    text = _as_text(WORKED_EXAMPLE)
    assert krippendorff_alpha(text, level="nominal") == pytest.approx(0.743421052631579,
                                                                      abs=1e-12)
    assert krippendorff_alpha(text, level="nominal", labels=ORDER[::-1]) == pytest.approx(
        0.743421052631579, abs=1e-12)


def test_the_ordinal_level_reads_only_the_order():
    # Any strictly increasing relabelling leaves ordinal alpha unchanged, not interval's.
    data = np.asarray(WORKED_EXAMPLE)
    squashed = np.where(np.isnan(data), nan, np.exp(data))
    assert krippendorff_alpha(squashed) == pytest.approx(krippendorff_alpha(data), abs=1e-12)
    assert krippendorff_alpha(squashed, level="interval") != pytest.approx(
        krippendorff_alpha(data, level="interval"), abs=1e-3)


def test_ratio_level_with_zeros():
    # Two zeros do not differ: Krippendorff's 0/0 taken as 0.
    assert krippendorff_alpha([[0, 1, 2], [0, 1, 2]], level="ratio") == 1.0


def test_perfect_agreement_is_one():
    data = [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, nan, 4]]
    for level in LEVELS:
        assert krippendorff_alpha(data, level=level) == 1.0


@pytest.mark.parametrize("data, reason", [
    ([[1, nan], [nan, 2]], "no unit has two annotations"),
    ([[3, 3, nan], [3, 3, 1]], "every pairable annotation has the same value"),
])
def test_undefined_alpha_warns_and_is_nan(data, reason):
    with pytest.warns(UndefinedMetricWarning, match=reason):
        assert np.isnan(krippendorff_alpha(data))


@pytest.mark.parametrize("data, kwargs, message", [
    ([["low", "high"], ["low", "low"]], {}, r"text values, whose order cannot be guessed.*"
     r"labels=\[\.\.\.\]"),
    ([["low", "high"], ["low", "low"]], {"level": "interval"}, "the interval level depends"),
    ([["low", "high"], ["low", "low"]], {"level": "ratio", "labels": ["low", "high"]},
     "The ratio level needs numbers with a true zero"),
    ([[1, 2, 3], [1, 2, 7]], {"labels": [1, 2, 3]}, r"not in labels: \[7\.0\]"),
    ([[1, 2], [1, 2]], {"labels": [1, 2, 2]}, r"labels lists \[2\] more than once"),
    ([[1, 2], [1, 2]], {"labels": [1, None]}, "labels contains a missing value"),
    ([1, 2, 3], {}, r"must be 2-D, one row per annotator \(at least two\)"),
    ([[1, 2, 3]], {}, r"at least two"),
    ([[1, 2, np.inf], [1, 2, 3]], {}, "infinite value"),
    (np.array([["a", 1], ["a", "b"]], dtype=object), {"level": "nominal"},
     "mixes text with other values"),
])
def test_bad_input_is_a_clear_error(data, kwargs, message):
    with pytest.raises(ValueError, match=message):
        krippendorff_alpha(data, **kwargs)


def test_more_annotators_than_units_warns_of_a_transposed_table():
    data = np.asarray(WORKED_EXAMPLE)
    with pytest.warns(UserWarning, match=r"12 rows \(annotators\) and 4 columns \(units\)"):
        krippendorff_alpha(data.T, level="nominal")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        krippendorff_alpha(data, level="nominal")


def test_unknown_level_is_refused():
    with pytest.raises(InvalidParameterError, match="level"):
        krippendorff_alpha(WORKED_EXAMPLE, level="circular")


def test_categoricals_of_different_orders_are_refused():
    frame = pd.DataFrame({"a": pd.Categorical(["x", "y"], ["x", "y"], ordered=True),
                          "b": pd.Categorical(["x", "y"], ["y", "x"], ordered=True)})
    with pytest.raises(ValueError, match="different categories"):
        krippendorff_alpha(frame)


def test_the_counts_leave_out_units_with_one_value():
    reliability = _reliability_counts(WORKED_EXAMPLE)
    # Unit 12 has one value only (Krippendorff: it is not pairable).
    assert reliability.counts.shape == (11, 5)
    assert (reliability.n_units, reliability.n_values) == (12, 41)


# --- The interval -------------------------------------------------------------------


def _unit_data(cells):
    """One unit (a column, annotators as rows, NaN-padded) per row of value counts."""
    width = int(cells.sum(axis=1).max())
    columns = []
    for row in cells:
        values = np.repeat(np.arange(len(row), dtype=float), row)
        columns.append(np.concatenate([values, np.full(width - len(values), nan)]))
    return np.column_stack(columns)


@pytest.mark.parametrize("level", LEVELS)
def test_each_resample_is_alpha_of_the_units_it_draws(level):
    rng = np.random.default_rng(3)
    data = random_reliability_data(rng, 4, 60, 4, missing=0.3, low=1)
    result = krippendorff_alpha_interval(data, level=level, n_resamples=40, random_state=7,
                                         method="percentile")
    reliability = _reliability_counts(data)
    cells, multiplicity = _cells(reliability.counts, reliability.n_annotators)
    # The same draws, rebuilt as data sets of whole units and scored from scratch.
    draws = np.random.RandomState(7).multinomial(multiplicity.sum(),
                                                 multiplicity / multiplicity.sum(), size=40)
    units = _unit_data(cells) + 1  # values 1..K, as the data's
    for draw, value in zip(draws, result.bootstrap_distribution):
        resample = units[:, np.repeat(np.arange(len(cells)), draw)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            expected = krippendorff_alpha(resample, level=level, labels=[1, 2, 3, 4])
        assert np.allclose(value, expected, rtol=1e-10, atol=1e-12, equal_nan=True)


def test_each_unit_adds_its_own_coincidences():
    rng = np.random.default_rng(5)
    data = random_reliability_data(rng, 5, 40, 4, missing=0.4)
    reliability = _reliability_counts(data)
    cells, _ = _cells(reliability.counts, reliability.n_annotators)
    contributions = _contributions(cells).toarray()
    for cell, contribution in zip(cells, contributions):
        m = cell.sum()
        expected = (np.outer(cell, cell) - np.diag(cell)) / (m - 1)
        np.testing.assert_allclose(contribution.reshape(4, 4), expected, atol=1e-15)


@pytest.mark.parametrize("level", LEVELS)
def test_the_jackknife_leaves_one_unit_of_each_cell_out(level):
    rng = np.random.default_rng(6)
    data = random_reliability_data(rng, 3, 30, 3, missing=0.2, low=1)
    reliability = _reliability_counts(data)
    cells, multiplicity = _cells(reliability.counts, reliability.n_annotators)
    contributions = _contributions(cells)
    total = np.asarray(contributions.T @ multiplicity.astype(float)).ravel()
    values = _level_values(reliability.classes, level)
    jackknife = _jackknife_alphas(contributions, total, values, level)
    units = _unit_data(cells) + 1
    for c in range(len(cells)):
        kept = np.repeat(np.arange(len(cells)), multiplicity - (np.arange(len(cells)) == c))
        expected = krippendorff_alpha(units[:, kept], level=level, labels=[1, 2, 3])
        assert jackknife[c] == pytest.approx(expected, rel=1e-10, abs=1e-12)


def test_the_interval_is_seeded_and_its_estimate_is_alpha():
    rng = np.random.default_rng(1)
    data = random_reliability_data(rng, 3, 80, 5, missing=0.2, low=1)
    first = krippendorff_alpha_interval(data, n_resamples=999, random_state=0)
    again = krippendorff_alpha_interval(data, n_resamples=999, random_state=0)
    other = krippendorff_alpha_interval(data, n_resamples=999, random_state=1)
    np.testing.assert_array_equal(first.bootstrap_distribution, again.bootstrap_distribution)
    assert first.confidence_interval == again.confidence_interval
    assert not np.array_equal(first.bootstrap_distribution, other.bootstrap_distribution)
    assert first.estimate == krippendorff_alpha(data)
    low, high = first.confidence_interval
    assert low < first.estimate < high <= 1
    assert first.standard_error == pytest.approx(np.std(first.bootstrap_distribution, ddof=1))


def test_percentile_and_basic_ends():
    rng = np.random.default_rng(2)
    data = random_reliability_data(rng, 3, 50, 4, missing=0.2)
    percentile = krippendorff_alpha_interval(data, n_resamples=999, random_state=0,
                                             method="percentile", confidence_level=0.9)
    quantiles = np.quantile(percentile.bootstrap_distribution, [0.05, 0.95])
    np.testing.assert_allclose(percentile.confidence_interval, quantiles)
    basic = krippendorff_alpha_interval(data, n_resamples=999, random_state=0, method="basic",
                                        confidence_level=0.9)
    expected_basic = sorted(2 * basic.estimate - quantiles)
    np.testing.assert_allclose(basic.confidence_interval, np.minimum(expected_basic, 1.0))


def test_bca_uses_the_jackknife_over_units():
    # BCa differs from the percentile interval through its bias correction and
    # acceleration; on skewed data (alpha near 1) it moves the ends.
    rng = np.random.default_rng(4)
    truth = rng.integers(1, 6, size=60)
    data = np.vstack([truth, truth, np.where(rng.random(60) < 0.15, 3, truth)]).astype(float)
    bca = krippendorff_alpha_interval(data, n_resamples=1999, random_state=0)
    percentile = krippendorff_alpha_interval(data, n_resamples=1999, random_state=0,
                                             method="percentile")
    np.testing.assert_array_equal(bca.bootstrap_distribution, percentile.bootstrap_distribution)
    assert bca.confidence_interval != percentile.confidence_interval


def test_perfect_agreement_gives_a_point_interval():
    data = [[1, 2, 3, 4, 1], [1, 2, 3, 4, 1]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = krippendorff_alpha_interval(data, n_resamples=99, random_state=0)
    assert any("Every resample gives the same value" in str(w.message) for w in caught)
    assert result.confidence_interval == (1.0, 1.0)


def test_resamples_with_one_value_are_left_out_with_a_warning():
    # Two units: a resample of the first unit twice holds the value 1 only.
    data = [[1, 2], [1, 3]]
    with pytest.warns(UserWarning, match=r"undefined \(NaN\) on \d+ of 999"):
        result = krippendorff_alpha_interval(data, n_resamples=999, random_state=0,
                                             method="percentile")
    assert result.n_undefined == np.isnan(result.bootstrap_distribution).sum() > 0


def test_the_interval_refuses_undefined_data_and_bad_parameters():
    with pytest.raises(UndefinedMeasureError, match="undefined on these data"):
        krippendorff_alpha_interval([[1, 1], [1, 1]])
    with pytest.raises(ValueError, match="leaves no resample beyond each end"):
        krippendorff_alpha_interval(WORKED_EXAMPLE, n_resamples=9)
    with pytest.raises(InvalidParameterError, match="method"):
        krippendorff_alpha_interval(WORKED_EXAMPLE, method="delong")
    with pytest.raises(ValueError, match="order cannot be guessed"):
        krippendorff_alpha_interval(_as_text(WORKED_EXAMPLE))


def test_text_with_labels_gives_the_numbers_interval():
    numbers = krippendorff_alpha_interval(WORKED_EXAMPLE, n_resamples=999, random_state=0)
    text = krippendorff_alpha_interval(_as_text(WORKED_EXAMPLE), labels=ORDER, n_resamples=999,
                                       random_state=0)
    np.testing.assert_allclose(text.bootstrap_distribution, numbers.bootstrap_distribution,
                               rtol=1e-12)
    assert text.confidence_interval == pytest.approx(numbers.confidence_interval, rel=1e-12)


# --- The command line ---------------------------------------------------------------


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def _wide_file(tmp_path, data, unit_column=True, names=None):
    lines = [",".join((["unit"] if unit_column else []) + [f"a{i}" for i in range(len(data))])]
    for u, column in enumerate(np.asarray(data, dtype=float).T):
        cells = ["" if np.isnan(v) else (names[int(v)] if names else f"{v:g}") for v in column]
        lines.append(",".join(([f"u{u}"] if unit_column else []) + cells))
    return _write(tmp_path / "wide.csv", "\n".join(lines) + "\n")


def _long_file(tmp_path, data, names=None, suffix=".csv"):
    sep = "\t" if suffix == ".tsv" else ","
    lines = [sep.join(["annotator", "unit", "value", "note"])]
    for i, row in enumerate(np.asarray(data, dtype=float)):
        for u, v in enumerate(row):
            if not np.isnan(v):
                value = names[int(v)] if names else f"{v:g}"
                lines.append(sep.join([f"coder{i}", f"unit{u}", value, "seen"]))
    return _write(tmp_path / f"long{suffix}", "\n".join(lines) + "\n")


def _agreement(capsys, *argv):
    from sklearn_ordinal.__main__ import main
    try:
        code = main(["agreement", *map(str, argv)])
    except SystemExit as exit_info:  # argparse's usage errors
        code = exit_info.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _table(out):
    """``{level: (alpha, low, high)}`` as printed."""
    rows = {}
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0] in LEVELS:
            ends = line.split("[")[1].rstrip("]").split(",") if "[" in line else [nan, nan]
            rows[parts[0]] = (float(parts[1]), *map(float, ends))
    return rows


@pytest.mark.parametrize("layout", ["wide", "long", "wide without unit names"])
def test_the_command_prints_every_level_with_its_interval(tmp_path, capsys, layout):
    path = {"wide": lambda: _wide_file(tmp_path, WORKED_EXAMPLE),
            "long": lambda: _long_file(tmp_path, WORKED_EXAMPLE),
            "wide without unit names": lambda: _wide_file(tmp_path, WORKED_EXAMPLE, False)}[
        layout]()
    code, out, err = _agreement(capsys, path, "--seed", "3", "--n-resamples", "999")
    assert (code, err) == (0, "")
    assert "4 annotators, 12 units, 41 annotations; 11 units have two or more" in out
    table = _table(out)
    assert list(table) == LEVELS
    for level in LEVELS:
        result = krippendorff_alpha_interval(WORKED_EXAMPLE, level=level, n_resamples=999,
                                             random_state=3)
        expected = (result.estimate, *result.confidence_interval)
        np.testing.assert_allclose(table[level], expected, atol=5e-4)
        assert round(table[level][0], 3) == PUBLISHED[level]


def test_the_command_reads_text_in_the_order_of_labels(tmp_path, capsys):
    path = _long_file(tmp_path, WORKED_EXAMPLE, names=NAMES, suffix=".tsv")
    code, out, err = _agreement(capsys, path, "--labels", ",".join(ORDER), "--level",
                                "ordinal,interval", "--seed", "0", "--n-resamples", "999",
                                "--method", "percentile")
    assert (code, err) == (0, "")
    table = _table(out)
    assert list(table) == ["ordinal", "interval"]
    assert round(table["ordinal"][0], 3) == 0.815 and round(table["interval"][0], 3) == 0.849
    assert "values in order: very low, low, mid, high, very high" in out
    # Without labels, text gets the nominal level only, and a note says why.
    code, out, err = _agreement(capsys, path, "--n-resamples", "999")
    assert code == 0 and list(_table(out)) == ["nominal"]
    assert "the ordinal and interval levels need their order (--labels" in out


def test_the_command_takes_na_as_a_value_with_no_missing_markers(tmp_path, capsys):
    # #46 item 6: NA is missing by default (R's marker); --no-missing-markers keeps it.
    path = _write(tmp_path / "na.csv", "a,b\nNA,NA\nx,x\nNA,x\nx,\n")
    code, out, err = _agreement(capsys, path, "--n-resamples", "999", "--seed", "0",
                                "--no-missing-markers")
    assert code == 0, err
    assert "values in order: NA, x" in out
    assert "2 annotators, 4 units, 7 annotations; 3 units have two or more" in out
    code, out, err = _agreement(capsys, path, "--n-resamples", "999", "--seed", "0")
    assert "2 annotators, 4 units, 4 annotations; 1 units have two or more" in out


@pytest.mark.parametrize("content, argv, message", [
    ("a,b\nlow,high\nmid,mid\n", ["--level", "ordinal"],
     r"the annotations hold text values.*Give the order with --labels LOW,\.\.\.,HIGH"),
    ("a,b\nlow,high\nmid,mid\n", ["--labels", "low,mid"], r"not in --labels: \['high'\]"),
    ("a,b\n1,2\n2,2\n", ["--labels", "low,high"], "the labels must be numbers too"),
    ("annotator,unit,value\nx,1,2\nx,1,3\ny,1,2\n", [],
     r"the annotator and unit \('x', '1'\) is given on lines 2, 3; give each annotation"),
    ("unit,a\n1,2\n2,3\n", [], "needs two annotators or more"),
    ("unit,a,b\n1,2,3\n1,3,3\n", [], r"the unit '1' is given on lines 2, 3; name each unit once"),
    ("a,b\n1,\n,2\n", [], None),  # no pairable unit: alpha undefined, said as a warning
])
def test_bad_annotation_files_exit_2_with_one_line(tmp_path, capsys, content, argv, message):
    path = _write(tmp_path / "annotations.csv", content)
    code, out, err = _agreement(capsys, path, "--n-resamples", "999", *argv)
    if message is None:
        assert code == 0
        assert "nan  n/a" in out and "alpha is undefined" in err
        return
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert re.search(message, err), err


def test_the_command_reads_more_annotators_than_units_without_a_warning(tmp_path, capsys):
    path = _write(tmp_path / "many.csv", "a,b,c,d\n1,1,2,1\n2,2,2,3\n")
    code, out, err = _agreement(capsys, path, "--n-resamples", "999", "--level", "ordinal")
    assert code == 0 and "transpose" not in err
    assert "4 annotators, 2 units, 8 annotations" in out


def test_a_file_of_another_type_is_refused(tmp_path, capsys):
    code, _, err = _agreement(capsys, _write(tmp_path / "a.xlsx", "a,b\n1,2\n"))
    assert code == 2 and "unknown file type '.xlsx'" in err


def test_the_user_guide_shows_the_commands_output(tmp_path, capsys):
    page = (Path(__file__).resolve().parents[1] / "docs" / "user_guide"
            / "agreement_of_annotators.rst").read_text(encoding="utf-8")
    csv_text = page.split("as ``example.csv``::\n\n", 1)[1].split("\n\ngives::", 1)[0]
    _write(tmp_path / "example.csv",
           "\n".join(line[4:] for line in csv_text.splitlines()) + "\n")
    command = "    $ python -m sklearn_ordinal agreement example.csv --seed 0\n"
    shown = page.split(command, 1)[1].split("\n\nThe alphas are", 1)[0]
    code, out, err = _agreement(capsys, tmp_path / "example.csv", "--seed", "0")
    assert (code, err) == (0, "")
    assert shown.splitlines() == [("    " + line).rstrip() for line in out.splitlines()]
