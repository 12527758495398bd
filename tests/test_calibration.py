"""The CORP decomposition of the RPS and the ordinal reliability diagram: against
model-diagnostics' decompose, the package's RPS, scikit-learn's isotonic fit,
repetition, and bad input at every door."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.isotonic import IsotonicRegression

from sklearn_ordinal import _compat
from sklearn_ordinal.metrics import (
    ordinal_calibration_curve,
    ranked_probability_score_decomposition,
    ranked_probability_score_loss,
)

COMPONENTS = ["score", "miscalibration", "discrimination", "uncertainty"]


def _forecasts_with_ties(rng, n, n_classes):
    """Half the rows from a grid of eighths (many exact ties in every cumulative
    forecast, and sums without rounding), half continuous."""
    grid = rng.multinomial(8, np.ones(n_classes) / n_classes, size=n // 2) / 8
    continuous = rng.dirichlet(np.ones(n_classes), size=n - n // 2)
    y_proba = np.concatenate([grid, continuous])
    # Outcomes drawn from a distorted forecast: miscalibrated, but informative.
    sharpened = y_proba**2 + 0.05
    sharpened /= sharpened.sum(axis=1, keepdims=True)
    y_true = np.array([rng.choice(n_classes, p=row) for row in sharpened])
    return y_true, y_proba


def _corp_reference(forecast, outcome, weights=None):
    """MCB, DSC, UNC of one binary forecast by their definitions: scikit-learn's
    isotonic fit (exactly tied forecasts only), scores item by item."""
    outcome = outcome.astype(float)
    recalibrated = IsotonicRegression().fit(forecast, outcome, sample_weight=weights)
    recalibrated = recalibrated.predict(forecast)
    base = np.average(outcome, weights=weights)

    def score(value):
        return np.average((value - outcome) ** 2, weights=weights)

    return (score(forecast) - score(recalibrated), score(base) - score(recalibrated),
            score(base))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
def test_every_threshold_equals_model_diagnostics(seed, weighted):
    md = pytest.importorskip("model_diagnostics.scoring")  # numpy>=2, scipy>=1.13: no extra
    rng = np.random.RandomState(seed)
    n_classes = 3 + seed % 3
    y_true, y_proba = _forecasts_with_ties(rng, 300, n_classes)
    weights = rng.uniform(0.1, 3, size=len(y_true)) if weighted else None
    result = ranked_probability_score_decomposition(
        y_true, y_proba, labels=np.arange(n_classes), sample_weight=weights
    )
    cumulative = np.cumsum(y_proba, axis=1)
    for k in range(n_classes - 1):
        theirs = md.decompose(
            (y_true <= k).astype(float), cumulative[:, k], weights,
            scoring_function=md.SquaredError(),
        )
        for column in COMPONENTS:
            assert result.per_threshold[column].iloc[k] == pytest.approx(
                theirs[column][0], abs=1e-10
            ), (k, column)


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_sums_equal_the_ranked_probability_score(weighted, normalize):
    rng = np.random.RandomState(1)
    y_true, y_proba = _forecasts_with_ties(rng, 500, 5)
    weights = rng.exponential(size=len(y_true)) if weighted else None
    result = ranked_probability_score_decomposition(
        y_true, y_proba, sample_weight=weights, normalize=normalize
    )
    rps = ranked_probability_score_loss(
        y_true, y_proba, sample_weight=weights, normalize=normalize
    )
    assert abs(result.score - rps) <= 1e-12
    identity = result.miscalibration - result.discrimination + result.uncertainty
    assert abs(identity - rps) <= 1e-12
    per_threshold = result.per_threshold
    assert np.allclose(per_threshold.sum().to_numpy(),
                       [result.score, result.miscalibration, result.discrimination,
                        result.uncertainty], rtol=0, atol=1e-14)
    # UNC is the gold standard's alone: o_k (1 - o_k) of the weighted base rates.
    base = np.array([np.average(y_true <= k, weights=weights) for k in range(4)])
    scale = 1 / 4 if normalize else 1
    assert np.allclose(per_threshold["uncertainty"], base * (1 - base) * scale, atol=1e-15)


def test_weights_are_repetitions():
    rng = np.random.RandomState(2)
    y_true, y_proba = _forecasts_with_ties(rng, 120, 4)
    repeats = rng.randint(0, 4, size=len(y_true))
    weighted = ranked_probability_score_decomposition(y_true, y_proba, sample_weight=repeats)
    repeated = ranked_probability_score_decomposition(
        np.repeat(y_true, repeats), np.repeat(y_proba, repeats, axis=0)
    )
    pd.testing.assert_frame_equal(weighted.per_threshold, repeated.per_threshold,
                                  check_exact=False, atol=1e-13, rtol=0)
    # Weights scaled by any factor are the same data.
    scaled = ranked_probability_score_decomposition(y_true, y_proba,
                                                    sample_weight=repeats * 1e-200)
    pd.testing.assert_frame_equal(weighted.per_threshold, scaled.per_threshold,
                                  check_exact=False, atol=1e-13, rtol=0)


def test_forecasts_equal_up_to_rounding_are_pooled():
    # 0.1 + 0.2 + 0.7 and 0.3 + 0.7 give cumulative forecasts 0.30000000000000004 and
    # 0.3 at the first threshold; 0.9999999999999999 and 1.0 at the second: one value.
    y_proba = np.array([[0.1, 0.2, 0.7, 0.0], [0.3, 0.0, 0.7, 0.0],
                        [0.1, 0.2, 0.3, 0.4], [0.3, 0.0, 0.3, 0.4],
                        [0.1, 0.2, 0.6999999999999999, 0.0], [0.3, 0.0, 0.7, 0.0],
                        [0.5, 0.2, 0.3, 0.0], [0.5, 0.2, 0.3, 0.0]])
    y_true = np.array([0, 2, 1, 3, 2, 1, 0, 2])
    cumulative = np.cumsum(y_proba, axis=1)
    assert cumulative[0, 1] != cumulative[1, 1]  # the rounding is real
    assert cumulative[4, 2] == 0.9999999999999999 and cumulative[5, 2] == 1.0
    # The trap: scikit-learn's IsotonicRegression merges the near-equal values, then
    # predicts NaN for the one it dropped.
    fitted = IsotonicRegression().fit(cumulative[:, 2], y_true <= 2).predict(cumulative[:, 2])
    assert np.isnan(fitted).any()
    result = ranked_probability_score_decomposition(y_true, y_proba)
    assert np.isfinite(result.per_threshold.to_numpy()).all()
    # The same as CORP on the forecasts made exactly equal.
    for k in range(3):
        expected = _corp_reference(np.round(cumulative[:, k], 12), y_true <= k)
        got = result.per_threshold.iloc[k][["miscalibration", "discrimination", "uncertainty"]]
        assert np.allclose(got.to_numpy(), expected, rtol=0, atol=1e-15)
    curve = ordinal_calibration_curve(y_true, y_proba, n_resamples=0)
    assert [len(values) for values in curve.forecast] == [3, 2, 2]
    assert all(np.isfinite(values).all() for values in curve.recalibrated)


def test_a_constant_forecast_discriminates_nothing():
    rng = np.random.RandomState(3)
    y_true = rng.randint(4, size=200)
    y_proba = np.tile([0.1, 0.2, 0.3, 0.4], (200, 1))
    result = ranked_probability_score_decomposition(y_true, y_proba)
    assert result.discrimination == 0.0
    assert (result.per_threshold["discrimination"] == 0.0).all()
    # Its miscalibration is its distance from the base rates.
    base = np.array([np.mean(y_true <= k) for k in range(3)])
    assert np.allclose(result.per_threshold["miscalibration"], (base - [0.1, 0.3, 0.6]) ** 2,
                       atol=1e-15)


def test_a_calibrated_forecast_has_no_miscalibration():
    # Each forecast is the observed frequency of its items, increasing in the
    # forecast at every threshold: its isotonic fit is itself.
    y_true = np.array([0] * 6 + [1] * 2 + [2] * 2 + [0] * 1 + [1] * 1 + [2] * 8)
    first, second = [0.6, 0.2, 0.2], [0.05, 0.05, 0.9]
    y_proba = np.array([first] * 10 + [[0.1, 0.1, 0.8]] * 10)
    result = ranked_probability_score_decomposition(y_true, y_proba)
    assert np.allclose(result.per_threshold["miscalibration"], 0.0, atol=1e-15)
    curve = ordinal_calibration_curve(y_true, y_proba, n_resamples=0)
    for forecast, recalibrated in zip(curve.forecast, curve.recalibrated):
        assert np.allclose(forecast, recalibrated, atol=1e-15)
    # Moved away from the frequencies, it is miscalibrated.
    worse = ranked_probability_score_decomposition(y_true, np.array([second] * 20))
    assert worse.miscalibration > 0.1


@pytest.mark.parametrize("weighted", [False, True])
def test_recalibrated_values_are_the_isotonic_fit(weighted):
    rng = np.random.RandomState(4)
    y_true, y_proba = _forecasts_with_ties(rng, 400, 4)
    weights = rng.uniform(0.5, 2, size=len(y_true)) if weighted else None
    curve = ordinal_calibration_curve(y_true, y_proba, sample_weight=weights, n_resamples=0)
    cumulative = np.cumsum(y_proba, axis=1)
    for k in range(3):
        direct = IsotonicRegression(out_of_bounds="clip").fit(
            cumulative[:, k], y_true <= k, sample_weight=weights)
        assert np.allclose(curve.forecast[k], np.unique(cumulative[:, k]))
        assert np.allclose(curve.recalibrated[k], direct.predict(curve.forecast[k]),
                           rtol=0, atol=1e-12)
        totals = pd.Series(np.ones(400) if weights is None else weights).groupby(
            cumulative[:, k]).sum()
        assert np.allclose(curve.weight[k], totals.to_numpy())


def test_scikit_learn_fallback_gives_the_same_numbers(monkeypatch):
    rng = np.random.RandomState(5)
    y_true, y_proba = _forecasts_with_ties(rng, 300, 4)
    weights = rng.uniform(0.5, 2, size=len(y_true))
    scipy_result = ranked_probability_score_decomposition(y_true, y_proba, sample_weight=weights)
    monkeypatch.setattr(_compat, "_scipy_isotonic_regression", None)
    sklearn_result = ranked_probability_score_decomposition(y_true, y_proba,
                                                            sample_weight=weights)
    pd.testing.assert_frame_equal(scipy_result.per_threshold, sklearn_result.per_threshold,
                                  check_exact=False, atol=1e-14, rtol=0)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 6).flatmap(
        lambda k: st.tuples(
            st.just(k),
            st.lists(st.tuples(st.integers(0, k - 1),
                               st.lists(st.integers(0, 4), min_size=k, max_size=k)
                               .filter(lambda row: sum(row) > 0),
                               st.sampled_from([0.0, 0.5, 1.0, 3.0])),
                     min_size=1, max_size=40),
        )
    )
)
def test_identity_and_signs_on_any_data(case):
    n_classes, items = case
    y_true = np.array([item[0] for item in items])
    counts = np.array([item[1] for item in items], dtype=float)
    y_proba = counts / counts.sum(axis=1, keepdims=True)
    weights = np.array([item[2] for item in items])
    if weights.sum() == 0:
        weights[0] = 1.0
    labels = np.arange(n_classes)
    result = ranked_probability_score_decomposition(y_true, y_proba, labels=labels,
                                                    sample_weight=weights)
    rps = ranked_probability_score_loss(y_true, y_proba, labels=labels, sample_weight=weights)
    assert result.score == pytest.approx(rps, abs=1e-12)
    table = result.per_threshold
    assert np.allclose(table["miscalibration"] - table["discrimination"] + table["uncertainty"],
                       table["score"], rtol=0, atol=1e-12)
    assert (table[["miscalibration", "discrimination"]] >= -1e-12).all().all()
    assert (table["discrimination"] <= table["uncertainty"] + 1e-12).all()


def test_labels_of_any_kind_give_the_same_numbers():
    rng = np.random.RandomState(6)
    y_codes, y_proba = _forecasts_with_ties(rng, 100, 3)
    names = np.array(["low", "mid", "high"])
    expected = ranked_probability_score_decomposition(y_codes, y_proba).per_threshold
    for dtype in (np.int8, np.uint16, np.int64):
        got = ranked_probability_score_decomposition(y_codes.astype(dtype), y_proba)
        assert np.allclose(got.per_threshold.to_numpy(), expected.to_numpy())
    strings = ranked_probability_score_decomposition(names[y_codes], y_proba, labels=names)
    assert np.allclose(strings.per_threshold.to_numpy(), expected.to_numpy())
    assert list(strings.per_threshold.index) == ["low", "mid"]
    ordered = pd.Categorical(names[y_codes], categories=names, ordered=True)
    for container in (ordered, pd.Series(ordered), pd.Index(ordered)):
        got = ranked_probability_score_decomposition(container, pd.DataFrame(y_proba))
        assert np.allclose(got.per_threshold.to_numpy(), expected.to_numpy())


def test_string_labels_need_their_order():
    with pytest.raises(ValueError, match="order"):
        ranked_probability_score_decomposition(["a", "b"], [[0.5, 0.5], [0.2, 0.8]])


BAD_PROBA = [
    ([[0.5, 0.4], [0.2, 0.8]], "row 0 sums to 0.9"),
    ([[1.5, -0.5], [0.2, 0.8]], "negative"),
    ([[np.nan, 1.0], [0.2, 0.8]], "NaN"),
    ([[0.5, 0.5, 0.0], [0.2, 0.8, 0.0]], "3 columns but there are 2 classes"),
    ([0.5, 0.5], "2-D"),
]


def _doors():
    """Every public function that reads y_proba for the decomposition."""
    from sklearn_ordinal.stats import decomposition_interval

    doors = [
        ranked_probability_score_decomposition,
        lambda y, p, **kw: ordinal_calibration_curve(y, p, n_resamples=10, **kw),
        lambda y, p, **kw: decomposition_interval(y, p, n_resamples=99, **kw),
    ]
    try:
        import matplotlib

        matplotlib.use("Agg")
        from sklearn_ordinal.metrics import OrdinalCalibrationDisplay

        doors.append(lambda y, p, **kw: OrdinalCalibrationDisplay.from_predictions(
            y, p, n_resamples=10, **kw))
    except ImportError:
        pass
    return doors


@pytest.mark.parametrize("y_proba, message", BAD_PROBA)
def test_bad_probabilities_are_refused_at_every_door(y_proba, message):
    for door in _doors():
        with pytest.raises(ValueError, match=message):
            door([0, 1], y_proba)


def test_a_class_missing_from_labels_is_refused_at_every_door():
    for door in _doors():
        with pytest.raises(ValueError, match="not in labels|not among"):
            door([0, 1, 2], [[0.5, 0.5], [0.2, 0.8], [0.1, 0.9]], labels=[0, 1])


def test_bad_weights_are_refused():
    with pytest.raises(ValueError, match="negative|non-negative"):
        ranked_probability_score_decomposition([0, 1], [[0.5, 0.5], [0.2, 0.8]],
                                               sample_weight=[1, -1])
    with pytest.raises(ValueError, match="sample_weight|length|samples"):
        ranked_probability_score_decomposition([0, 1], [[0.5, 0.5], [0.2, 0.8]],
                                               sample_weight=[1, 1, 1])


def test_the_band_holds_a_calibrated_forecasts_curve():
    rng = np.random.RandomState(7)
    y_proba = rng.dirichlet([2, 2, 2], size=2000)
    y_true = np.array([rng.choice(3, p=row) for row in y_proba])
    curve = ordinal_calibration_curve(y_true, y_proba, n_resamples=300, random_state=0)
    for k in range(2):
        assert len(curve.band_forecast[k]) <= 200
        assert np.all(curve.band_low[k] <= curve.band_high[k])
        # The band surrounds the diagonal: a calibrated forecast's own value.
        inside = ((curve.band_low[k] <= curve.band_forecast[k] + 1e-12)
                  & (curve.band_forecast[k] <= curve.band_high[k] + 1e-12))
        assert inside.mean() > 0.85
        at = np.searchsorted(curve.forecast[k], curve.band_forecast[k])
        observed = curve.recalibrated[k][at]
        covered = (curve.band_low[k] <= observed) & (observed <= curve.band_high[k])
        assert covered.mean() > 0.6
    again = ordinal_calibration_curve(y_true, y_proba, n_resamples=300, random_state=0)
    assert all(np.array_equal(a, b) for a, b in zip(curve.band_low, again.band_low))


def test_the_band_flags_a_miscalibrated_forecast():
    rng = np.random.RandomState(8)
    y_proba = rng.dirichlet([2, 2, 2], size=2000)
    y_true = np.array([rng.choice(3, p=row) for row in y_proba])
    overconfident = y_proba**3 / (y_proba**3).sum(axis=1, keepdims=True)
    curve = ordinal_calibration_curve(y_true, overconfident, n_resamples=200, random_state=0)
    at = np.searchsorted(curve.forecast[0], curve.band_forecast[0])
    observed = curve.recalibrated[0][at]
    outside = (observed < curve.band_low[0]) | (observed > curve.band_high[0])
    assert outside.mean() > 0.3


def test_weighted_band_draws_each_weight():
    # Weights of one item each, doubled: the band of repetitions is the band of
    # weights 2 only in law; check its shape and that weights shift nothing absurd.
    rng = np.random.RandomState(9)
    y_proba = rng.dirichlet([1, 1], size=300)
    y_true = (rng.uniform(size=300) > y_proba[:, 0]).astype(int)
    weights = rng.choice([0.5, 1.0, 2.0], size=300)
    curve = ordinal_calibration_curve(y_true, y_proba, sample_weight=weights,
                                      n_resamples=200, random_state=1)
    assert curve.band_low[0].shape == curve.band_forecast[0].shape
    assert np.all((curve.band_low[0] >= 0) & (curve.band_high[0] <= 1))


# --- intervals ----------------------------------------------------------------------


def _miscalibrated(seed, n, n_classes=3):
    rng = np.random.RandomState(seed)
    y_proba = rng.dirichlet(np.ones(n_classes), size=n)
    truth = y_proba**2 / (y_proba**2).sum(axis=1, keepdims=True)
    y_true = np.array([rng.choice(n_classes, p=row) for row in truth])
    return rng, y_true, y_proba


@pytest.mark.parametrize("component", ["miscalibration", "discrimination", "uncertainty"])
def test_a_resample_is_the_decomposition_of_its_items(component):
    from sklearn_ordinal.metrics._calibration import _corp_fits
    from sklearn_ordinal.stats._calibration_intervals import _bootstrap_layout, _frozen_values

    rng, y_true, y_proba = _miscalibrated(10, 150)
    y_proba = np.round(y_proba * 4) / 4 + [[0, 0, 0]]  # ties
    y_proba[:, 2] = 1 - y_proba[:, :2].sum(axis=1)
    keep = y_proba[:, 2] >= 0
    y_true, y_proba = y_true[keep], y_proba[keep]
    weights = rng.uniform(0.5, 2, size=len(y_true))
    classes, codes, cumulative, w, fits = _corp_fits(y_true, y_proba, None, weights, "test")
    frozen = _frozen_values(component, codes, cumulative, fits)
    # One group per item: the units are the items, in order.
    units, statistic = _bootstrap_layout(component, codes, cumulative, w, fits, frozen,
                                         np.arange(len(codes)), 1.0)
    draws = rng.multinomial(len(codes), np.ones(len(codes)) / len(codes), size=5)
    totals = draws @ units.contributions.toarray()
    batched = statistic.batched(totals)
    for draw, value in zip(draws, batched):
        direct = ranked_probability_score_decomposition(
            y_true, y_proba, sample_weight=weights * draw)
        assert value == pytest.approx(getattr(direct, component), abs=1e-12)
        assert statistic(draw @ units.contributions.toarray()) == pytest.approx(value, abs=1e-13)


@pytest.mark.parametrize("component", ["miscalibration", "discrimination", "uncertainty"])
def test_the_normal_interval_is_the_frozen_values_mean(component):
    from sklearn_ordinal.stats import decomposition_interval

    _, y_true, y_proba = _miscalibrated(11, 1500)
    result = decomposition_interval(y_true, y_proba, component=component, method="normal")
    assert result.method == "normal"
    direct = ranked_probability_score_decomposition(y_true, y_proba)
    assert result.estimate == pytest.approx(getattr(direct, component), abs=1e-14)
    # The influence values by hand: each item's score terms with the fits held fixed.
    cumulative = np.cumsum(y_proba, axis=1)[:, :-1]
    values = np.zeros(len(y_true))
    for k in range(2):
        outcome = (y_true <= k).astype(float)
        fit = IsotonicRegression().fit(cumulative[:, k], outcome).predict(cumulative[:, k])
        base = outcome.mean()
        own = {"miscalibration": (cumulative[:, k] - outcome) ** 2,
               "discrimination": (base - outcome) ** 2,
               "uncertainty": (base - outcome) ** 2}[component]
        values += own - (0 if component == "uncertainty" else (fit - outcome) ** 2)
    assert values.mean() == pytest.approx(result.estimate, abs=1e-14)
    assert result.standard_error == pytest.approx(values.std(ddof=1) / np.sqrt(len(values)),
                                                  rel=1e-6)


@pytest.mark.filterwarnings("ignore::scipy.stats.DegenerateDataWarning")
@pytest.mark.parametrize("method", ["bca", "percentile", "basic"])
def test_bootstrap_intervals_surround_the_estimate(method):
    from sklearn_ordinal.stats import decomposition_interval

    _, y_true, y_proba = _miscalibrated(12, 300)
    result = decomposition_interval(y_true, y_proba, component="discrimination",
                                    method=method, n_resamples=499, random_state=0)
    low, high = result.confidence_interval
    assert result.method == method and len(result.bootstrap_distribution) == 499
    assert low < result.estimate < high
    # Its standard error agrees with the analytic one.
    normal = decomposition_interval(y_true, y_proba, component="discrimination",
                                    method="normal")
    assert result.standard_error == pytest.approx(normal.standard_error, rel=0.3)
    again = decomposition_interval(y_true, y_proba, component="discrimination",
                                   method=method, n_resamples=499, random_state=0)
    assert again.confidence_interval == result.confidence_interval


def test_grouped_intervals_resample_groups():
    from sklearn_ordinal.stats import decomposition_interval

    _, y_true, y_proba = _miscalibrated(13, 400)
    groups = np.repeat(np.arange(40), 10)
    grouped = decomposition_interval(y_true, y_proba, groups=groups, n_resamples=499,
                                     method="percentile", random_state=0)
    plain = decomposition_interval(y_true, y_proba, n_resamples=499, method="percentile",
                                   random_state=0)
    assert grouped.estimate == plain.estimate
    assert np.isfinite(grouped.standard_error) and grouped.standard_error > 0


def test_rps_difference_of_two_systems_is_the_difference_of_mcb_minus_dsc():
    from sklearn_ordinal.stats import compare_scores

    _, y_true, y_proba = _miscalibrated(14, 400)
    sharper = y_proba**2 / (y_proba**2).sum(axis=1, keepdims=True)  # the true law
    result = compare_scores("ranked_probability_score_loss", y_true, y_proba, sharper,
                            n_resamples=999, random_state=0)
    a = ranked_probability_score_decomposition(y_true, y_proba)
    b = ranked_probability_score_decomposition(y_true, sharper)
    assert a.uncertainty == b.uncertainty
    assert result.estimate == pytest.approx(
        (a.miscalibration - a.discrimination) - (b.miscalibration - b.discrimination),
        abs=1e-12)


# --- the display --------------------------------------------------------------------


def test_display_draws_one_panel_per_threshold_with_its_decomposition():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sklearn_ordinal.metrics import OrdinalCalibrationDisplay

    _, y_true, y_proba = _miscalibrated(20, 300, n_classes=4)
    display = OrdinalCalibrationDisplay.from_predictions(y_true, y_proba, name="m",
                                                         n_resamples=50, random_state=0)
    table = ranked_probability_score_decomposition(y_true, y_proba).per_threshold
    assert len(display.ax_) == 3 and len(set(map(id, display.ax_))) == 3
    for k, (line, band) in enumerate(zip(display.lines_, display.bands_)):
        row = table.iloc[k]
        assert line.get_label() == (f"m (MCB {row['miscalibration']:.3f}, DSC "
                                    f"{row['discrimination']:.3f}, UNC {row['uncertainty']:.3f})")
        assert band is not None
        curve = ordinal_calibration_curve(y_true, y_proba, n_resamples=0)
        assert np.array_equal(line.get_xdata(), curve.forecast[k])
        assert np.array_equal(line.get_ydata(), curve.recalibrated[k])
    fig, ax = plt.subplots()
    overlay = OrdinalCalibrationDisplay(curve=ordinal_calibration_curve(
        y_true, y_proba, n_resamples=0)).plot(ax, kind="overlay")
    assert all(a is ax for a in overlay.ax_) and overlay.figure_ is fig
    with pytest.raises(ValueError, match="one axes per threshold: pass 3 axes"):
        OrdinalCalibrationDisplay.from_predictions(y_true, y_proba, n_resamples=0, ax=ax)
    with pytest.raises(ValueError, match="kind must be"):
        overlay.plot(kind="stacked")
    plt.close("all")


def test_display_from_estimator_puts_the_columns_in_class_order():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.linear_model import LogisticRegression

    from sklearn_ordinal.metrics import OrdinalCalibrationDisplay

    rng = np.random.RandomState(21)
    X = rng.normal(size=(300, 2))
    codes = np.digitize(X[:, 0] + 0.5 * rng.normal(size=300), [-0.5, 0.5])
    names = np.array(["low", "mid", "high"])  # classes_ sorts them: high, low, mid
    y = pd.Categorical(names[codes], categories=names, ordered=True)
    model = LogisticRegression().fit(X, names[codes])
    display = OrdinalCalibrationDisplay.from_estimator(model, X, y, n_resamples=0)
    proba = model.predict_proba(X)[:, [1, 2, 0]]  # low, mid, high
    expected = ranked_probability_score_decomposition(codes, proba).per_threshold
    assert display.lines_[0].get_label().startswith("LogisticRegression (MCB "
                                                    f"{expected['miscalibration'].iloc[0]:.3f}")
    assert [a.get_title() for a in display.ax_] == ["P(y <= low)", "P(y <= mid)"]
    with pytest.raises(ValueError, match="order"):
        OrdinalCalibrationDisplay.from_estimator(model, X, names[codes], n_resamples=0)
    mord = pytest.importorskip("mord")
    ordinal = mord.LogisticAT().fit(X, codes)
    display = OrdinalCalibrationDisplay.from_estimator(ordinal, X, codes, n_resamples=0)
    expected = ranked_probability_score_decomposition(codes, ordinal.predict_proba(X))
    assert display.lines_[1].get_label().endswith(
        f"UNC {expected.per_threshold['uncertainty'].iloc[1]:.3f})")
    plt.close("all")


def test_negative_zero_probabilities_are_zero():
    # -0.0 passes the check for negative values; it must not change a number.
    y_true = [0, 1, 2, 1]
    y_proba = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5], [0.0, 0.5, 0.5], [0.2, 0.3, 0.5]])
    signed = y_proba.copy()
    signed[signed == 0] = -0.0
    pd.testing.assert_frame_equal(
        ranked_probability_score_decomposition(y_true, signed).per_threshold,
        ranked_probability_score_decomposition(y_true, y_proba).per_threshold)


def test_dask_inputs_are_refused_with_the_way_out():
    da = pytest.importorskip("dask.array")
    y_true = da.from_array(np.array([0, 1, 2, 1]), chunks=2)
    y_proba = da.from_array(np.full((4, 3), 1 / 3), chunks=2)
    with pytest.raises(ValueError, match=r"not Dask collections.*compute\(\)"):
        ranked_probability_score_decomposition(y_true, y_proba)
    with pytest.raises(ValueError, match="not Dask collections"):
        ordinal_calibration_curve(y_true, y_proba)


def test_auto_is_basic_then_normal(monkeypatch):
    from sklearn_ordinal.stats import _calibration_intervals, decomposition_interval

    _, y_true, y_proba = _miscalibrated(15, 200)
    assert decomposition_interval(y_true, y_proba, n_resamples=99,
                                  random_state=0).method == "basic"
    monkeypatch.setattr(_calibration_intervals, "_AUTO_NORMAL_FROM", 200)
    assert decomposition_interval(y_true, y_proba).method == "normal"
