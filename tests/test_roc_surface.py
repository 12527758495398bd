"""The ROC surface of three ordered classes (Waegeman et al. 2008, Fig. 2) and its display."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_ordinal.metrics import RocSurfaceDisplay, roc_surface, vus_score
from sklearn_ordinal.metrics._plot.roc_surface import _surface_triangles

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


@st.composite
def three_class_data(draw):
    extra = draw(st.lists(st.integers(0, 2), max_size=12))
    y = np.array([0, 1, 2] + extra)
    s = np.array(draw(st.lists(st.integers(0, 4), min_size=len(y), max_size=len(y))), float)
    w = np.array(draw(st.lists(st.sampled_from([0.5, 1.0, 3.0]), min_size=len(y),
                               max_size=len(y))))
    return y, s, w


def _tpr_by_definition(y, s, w, b1, b2):
    """Eq. 9: TPR_k = weight of class k with b_{k-1} < score <= b_k, over n_k."""
    bounds = [-np.inf, b1, b2, np.inf]
    return [
        w[(y == k) & (bounds[k] < s) & (s <= bounds[k + 1])].sum() / w[y == k].sum()
        for k in range(3)
    ]


@given(data=three_class_data())
def test_points_follow_eq_9(data):
    y, s, w = data
    tpr, thresholds = roc_surface(y, s, sample_weight=w)
    levels = np.concatenate([[-np.inf], np.unique(s)])
    assert len(tpr) == len(levels) * (len(levels) + 1) // 2
    assert np.all(thresholds[:, 0] <= thresholds[:, 1])
    for point, (b1, b2) in zip(tpr, thresholds):
        np.testing.assert_allclose(point, _tpr_by_definition(y, s, w, b1, b2), atol=1e-12)


@given(data=three_class_data())
def test_theorem_3_1_volume_is_vus(data):
    # Eq. 13-14: VUS is the mean of TPR_3 over the threshold pairs placed at a
    # class-1 item (b_1) and a class-2 item (b_2) ranked strictly below it; with
    # ties this is the strict VUS of eq. 8.
    y, s, w = data
    tpr, thresholds = roc_surface(y, s, sample_weight=w)
    tpr_3 = {tuple(b): point[2] for b, point in zip(thresholds, tpr)}
    volume = sum(
        w[i] * w[j] * tpr_3[(s[i], s[j])]
        for i in np.flatnonzero(y == 0)
        for j in np.flatnonzero(y == 1)
        if s[i] < s[j]
    ) / (w[y == 0].sum() * w[y == 1].sum())
    assert volume == pytest.approx(vus_score(y, s, sample_weight=w, ties="strict"), abs=1e-12)


def test_corners_of_the_surface():
    y, s = np.array([0, 0, 1, 1, 2, 2]), np.array([0.1, 0.5, 0.3, 0.6, 0.4, 0.9])
    tpr, thresholds = roc_surface(y, s)
    points = {tuple(p) for p in tpr}
    # All items to class 3, to class 1, to class 2 (b_1 = -inf, b_2 = max).
    assert {(0.0, 0.0, 1.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)} <= points
    assert tuple(thresholds[0]) == (-np.inf, -np.inf)
    # Only a perfect ranking reaches (1, 1, 1).
    assert (1.0, 1.0, 1.0) not in points
    assert (1.0, 1.0, 1.0) in {tuple(p) for p in roc_surface(y, [1, 2, 3, 4, 5, 6])[0]}


def test_string_labels_in_given_order():
    y = np.array(["low", "high", "mid", "low", "high", "mid"])
    s = np.array([0.1, 0.9, 0.5, 0.2, 0.4, 0.6])
    codes = np.array([0, 2, 1, 0, 2, 1])
    for got, expected in zip(roc_surface(y, s, labels=["low", "mid", "high"]),
                             roc_surface(codes, s)):
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("max_thresholds", [2, 3, 10, 50])
def test_max_thresholds_keeps_exact_points_and_the_corners(max_thresholds):
    rng = np.random.default_rng(max_thresholds)
    y = rng.integers(0, 3, size=200)
    s = np.round(y + rng.normal(size=200), 2)
    full = {tuple(b): tuple(p) for p, b in zip(*roc_surface(y, s))}
    tpr, thresholds = roc_surface(y, s, max_thresholds=max_thresholds)
    levels = np.unique(thresholds)
    assert len(levels) == max_thresholds
    assert levels[0] == -np.inf and levels[-1] == s.max()
    assert len(tpr) == max_thresholds * (max_thresholds + 1) // 2
    for point, b in zip(tpr, thresholds):
        assert full[tuple(b)] == tuple(point)


def test_max_thresholds_below_two_is_an_error():
    with pytest.raises(ValueError, match="max_thresholds"):
        roc_surface([0, 1, 2], [0.1, 0.2, 0.3], max_thresholds=1)
    with pytest.raises(ValueError, match="max_thresholds must be at least 2"):
        RocSurfaceDisplay.from_predictions([0, 1, 2], [0.1, 0.2, 0.3], max_thresholds=1)


@pytest.mark.parametrize("y", [[0, 1, 0, 1], [0, 1, 2, 3]])
def test_needs_exactly_three_classes(y):
    with pytest.raises(ValueError, match="three classes"):
        roc_surface(y, [0.1, 0.2, 0.3, 0.4])


def test_triangles_join_neighbouring_threshold_pairs():
    n_levels = 5
    n_points = n_levels * (n_levels + 1) // 2
    triangles = _surface_triangles(n_points)
    assert len(triangles) == (n_levels - 1) ** 2
    lower, upper = np.triu_indices(n_levels)
    for triangle in triangles:
        i, j = lower[triangle], upper[triangle]
        assert np.ptp(i) <= 1 and np.ptp(j) <= 1 and len(set(zip(i, j))) == 3


@pytest.mark.parametrize("n_points", [1, 4, 7])
def test_triangles_refuse_points_not_from_a_surface(n_points):
    with pytest.raises(ValueError, match="L \\(L \\+ 1\\) / 2"):
        _surface_triangles(n_points)


# --- Display ---------------------------------------------------------------------


@pytest.fixture
def close_figures():
    import matplotlib.pyplot as plt

    yield
    plt.close("all")


def test_display_from_predictions(close_figures):
    y = np.array(["low", "mid", "high", "low", "mid", "high", "mid"])
    s = np.array([0.1, 0.5, 0.9, 0.4, 0.3, 0.6, 0.7])
    order = ["low", "mid", "high"]
    display = RocSurfaceDisplay.from_predictions(y, s, labels=order, name="model", alpha=0.5)
    tpr, thresholds = roc_surface(y, s, labels=order)
    np.testing.assert_array_equal(display.tpr, tpr)
    np.testing.assert_array_equal(display.thresholds, thresholds)
    assert display.vus == vus_score(y, s, labels=order)
    assert display.ax_.name == "3d" and display.figure_ is display.ax_.figure
    assert display.surface_.get_alpha() == 0.5
    assert display.ax_.get_title() == f"model (VUS = {display.vus:.3f})"
    assert display.ax_.get_xlabel() == "TPR of class low"
    assert display.ax_.get_zlabel() == "TPR of class high"
    display.figure_.canvas.draw()


def test_display_from_estimator_uses_the_scorer_scores(close_figures):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 2))
    y = np.digitize(X[:, 0] + 0.5 * rng.normal(size=90), [-0.5, 0.5])
    model = LogisticRegression().fit(X, y)
    display = RocSurfaceDisplay.from_estimator(model, X, y)
    assert display.vus == pytest.approx(vus_score(y, model.predict_proba(X) @ np.arange(3)))
    assert display.ax_.get_title().startswith("LogisticRegression (VUS = ")


def test_display_of_large_data_draws_at_most_max_thresholds(close_figures):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, size=5000)
    s = y + rng.normal(size=5000)
    display = RocSurfaceDisplay.from_predictions(y, s)
    assert len(display.tpr) == 100 * 101 // 2
    assert display.vus == vus_score(y, s)
    assert len(RocSurfaceDisplay.from_predictions(y[:50], s[:50], max_thresholds=None).tpr) == (
        51 * 52 // 2
    )


def test_display_from_a_regressor_in_a_pipeline(close_figures):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 2))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    model = make_pipeline(StandardScaler(), LinearRegression()).fit(X, y)
    display = RocSurfaceDisplay.from_estimator(model, X, y)
    assert display.vus == vus_score(y, model.predict(X))
    assert display.ax_.get_title().startswith("Pipeline (VUS = ")


def test_display_draws_on_given_3d_axes_and_refuses_2d(close_figures):
    import matplotlib.pyplot as plt

    y, s = [0, 1, 2, 0, 1, 2], [0.1, 0.2, 0.3, 0.3, 0.1, 0.5]
    ax = plt.figure().add_subplot(projection="3d")
    assert RocSurfaceDisplay.from_predictions(y, s, ax=ax).ax_ is ax
    with pytest.raises(ValueError, match="3-D axes"):
        RocSurfaceDisplay.from_predictions(y, s, ax=plt.figure().add_subplot())


@pytest.mark.parametrize(
    "tpr, thresholds, class_names, message",
    [
        (np.ones((6, 2)), None, None, r"shape \(n_points, 3\)"),
        (np.ones(6), None, None, r"shape \(n_points, 3\)"),
        (np.full((6, 3), "a"), None, None, r"shape \(n_points, 3\)"),
        (np.full((6, 3), 1.5), None, None, "between 0 and 1"),
        (np.ones((6, 3)), np.ones((5, 2)), None, r"thresholds must have shape \(6, 2\)"),
        (np.ones((6, 3)), None, ["low", "high"], "name the 3 classes"),
    ],
)
def test_display_refuses_arrays_that_are_not_a_surface(
    close_figures, tpr, thresholds, class_names, message
):
    display = RocSurfaceDisplay(tpr=tpr, thresholds=thresholds, class_names=class_names)
    with pytest.raises(ValueError, match=message):
        display.plot()
