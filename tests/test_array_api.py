"""Array API inputs: every measure and scorer on arrays of another namespace and device.

In the style of scikit-learn's ``check_array_api_metric``: each measure on NumPy
arrays and on array-api-strict arrays (its CPU device and its simulated second
device, which refuses any conversion to NumPy) under ``array_api_dispatch=True``,
integer and float labels, with and without weights, to 1e-12. PyTorch joins where
it is installed (CPU, and CUDA where a GPU is); otherwise its cases are skipped.

Tolerance: the counts are the same; only the order of the float64 sums of weights
differs (the device path adds the weights of each distinct cell first), so 1e-12
holds in float64. Labels in float32 are integers, exact in float32, and weights are
handed to both paths as the same float32 values: the same 1e-12.
"""

import numpy as np
import pytest
import sklearn
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from sklearn_ordinal import _array_api
from sklearn_ordinal.metrics import (
    OrdinalConfusion,
    ScoreTable,
    cem_score,
    get_scorer_names,
    get_scorers,
    macro_mean_absolute_error,
    mean_absolute_error,
    ordinal_confusion_matrix,
    prevalences,
    ranked_probability_score_loss,
    roc_surface,
    vus_score,
    weighted_kappa_score,
)
from sklearn_ordinal.metrics._registry import lookup

xps = pytest.importorskip("array_api_strict")


def _dispatch_refusal():
    """Why scikit-learn cannot dispatch here (None when it can): it needs SciPy >= 1.14
    and SCIPY_ARRAY_API=1 (tests/conftest.py sets it), which the minimum-versions job
    (SciPy 1.10) lacks."""
    try:
        with sklearn.config_context(array_api_dispatch=True):
            return None
    except (ImportError, RuntimeError) as error:
        return str(error)


pytestmark = pytest.mark.skipif(
    _dispatch_refusal() is not None, reason=f"no Array API dispatch: {_dispatch_refusal()}"
)

_STRICT_DEVICES = {
    "CPU_DEVICE": xps.__array_namespace_info__().devices()[0],
    "device1": xps.__array_namespace_info__().devices()[1],
}


def _torch_cases():
    try:
        import torch
    except ImportError:
        return [pytest.param("torch", "cpu", marks=pytest.mark.skip(reason="torch absent"))]
    cases = [("torch", "cpu")]
    if torch.cuda.is_available():
        cases.append(("torch", "cuda"))
    return cases


NAMESPACES = [("array_api_strict", "CPU_DEVICE"), ("array_api_strict", "device1"),
              *_torch_cases()]


def _to(namespace, device, array):
    """``array`` (NumPy) as an array of the namespace on the device."""
    if namespace == "array_api_strict":
        return xps.asarray(array, device=_STRICT_DEVICES[device])
    import torch

    return torch.asarray(array, device=device)


def _records_by_reading():
    """The scorer names, by what their measure reads."""
    reads = {}
    for name in get_scorer_names():
        try:
            record, fixed, _ = lookup(name)
        except ValueError:
            continue  # scikit-learn's own scorers
        reads.setdefault(record.reads, []).append((name, record, fixed))
    return reads


READS = _records_by_reading()
LABEL_NAMES = [name for name, _, _ in READS["labels"]]
SCORE_NAMES = [name for name, _, _ in READS["scores"]]


def _measure(name):
    record, fixed, _ = lookup(name)
    return record, lambda *args, **kwargs: record.function(*args, **fixed, **kwargs)


def _labels(n=400, seed=0, n_classes=5):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, n)
    # Mostly right, a class predicted that is rare in the gold standard.
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, n_classes, n))
    weights = rng.random(n) * 3
    weights[:7] = 0.0  # dropped items
    return y_true, y_pred, weights


def check_array_api_measure(measure, namespace, device, y_true, second, weights=None):
    """scikit-learn's ``check_array_api_metric`` for one of our measures: the number
    of NumPy input (dispatch off) and of the namespace's arrays on the device
    (dispatch on), to 1e-12, a Python float both times."""
    weighted = {} if weights is None else {"sample_weight": weights}
    expected = measure(y_true, second, **weighted)
    if weights is not None:
        weighted = {"sample_weight": _to(namespace, device, weights)}
    with sklearn.config_context(array_api_dispatch=True):
        found = measure(_to(namespace, device, y_true), _to(namespace, device, second),
                        **weighted)
    assert isinstance(found, float) and isinstance(expected, float)
    assert_allclose(found, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("namespace, device", NAMESPACES)
@pytest.mark.parametrize("dtype", ["int8", "int64", "float32", "float64"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("name", LABEL_NAMES)
def test_label_measures_match_numpy(name, namespace, device, dtype, weighted):
    record, measure = _measure(name)
    y_true, y_pred, weights = _labels()
    y_true, y_pred = y_true.astype(dtype), y_pred.astype(dtype)
    if weighted:
        if not record.weighted:
            pytest.skip(f"{name} has no weighted form")
        weights = weights.astype(np.float32).astype(np.float64)
    check_array_api_measure(measure, namespace, device, y_true, y_pred,
                            weights if weighted else None)


@pytest.mark.parametrize("namespace, device", NAMESPACES)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("name", SCORE_NAMES)
def test_ranking_measures_match_numpy(name, namespace, device, weighted):
    _, measure = _measure(name)
    y_true, _, weights = _labels(seed=1, n_classes=4)
    rng = np.random.default_rng(2)
    y_score = y_true * 0.4 + rng.normal(size=len(y_true))
    y_score[:150] = np.round(y_score[:150], 1)  # ties, within and across classes
    check_array_api_measure(measure, namespace, device, y_true, y_score,
                            weights if weighted else None)


@pytest.mark.parametrize("namespace, device", NAMESPACES)
@pytest.mark.parametrize("name", ["neg_mean_absolute_error", "neg_macro_mean_squared_error",
                                  "neg_max_root_mean_squared_error"])
def test_distance_measures_take_real_values_on_the_device(name, namespace, device):
    _, measure = _measure(name)
    y_true, _, weights = _labels(seed=3)
    y_pred = y_true + np.random.default_rng(4).normal(size=len(y_true))
    expected = measure(y_true, y_pred, sample_weight=weights, labels=[0, 1, 2, 3, 4, 5])
    with sklearn.config_context(array_api_dispatch=True):
        found = measure(_to(namespace, device, y_true), _to(namespace, device, y_pred),
                        sample_weight=_to(namespace, device, weights),
                        labels=[0, 1, 2, 3, 4, 5])
    assert_allclose(found, expected, rtol=1e-12, atol=1e-12)


@settings(max_examples=40)
@given(
    st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3),
                       st.sampled_from([0.0, 1e-300, 0.5, 1.0, 7.0, 1e300])),
             min_size=1, max_size=30),
)
def test_any_labels_and_weights_on_the_second_device_match_numpy(items):
    y_true, y_pred, weights = (np.array(column) for column in zip(*items))
    device = _STRICT_DEVICES["device1"]
    on_device = [xps.asarray(a, device=device) for a in (y_true, y_pred, weights)]
    for measure in (macro_mean_absolute_error, cem_score, mean_absolute_error):
        try:
            expected = measure(y_true, y_pred, sample_weight=weights)
        except ValueError as error:
            with sklearn.config_context(array_api_dispatch=True), pytest.raises(
                    ValueError, match=r"^" + _escaped(str(error)) + r"$"):
                measure(on_device[0], on_device[1], sample_weight=on_device[2])
            continue
        with sklearn.config_context(array_api_dispatch=True):
            found = measure(on_device[0], on_device[1], sample_weight=on_device[2])
        assert_allclose(found, expected, rtol=1e-12, atol=0)


def _escaped(message):
    import re

    return re.escape(message)


# --- What crosses to the host ------------------------------------------------------


def test_the_second_device_refuses_numpy_conversion():
    # What makes the tests above fail for a measure that converts the whole input.
    with pytest.raises(RuntimeError, match="onvert"):
        np.asarray(_to("array_api_strict", "device1", np.arange(3)))


@pytest.mark.parametrize("measure", [macro_mean_absolute_error, weighted_kappa_score,
                                     cem_score])
def test_only_the_confusion_cells_cross_to_the_host(measure, monkeypatch):
    crossed = []
    to_host = _array_api.to_host

    def recording(x):
        host = to_host(x)
        crossed.append(np.size(host))
        return host

    monkeypatch.setattr(_array_api, "to_host", recording)
    y_true, y_pred, weights = _labels(n=5000)
    with sklearn.config_context(array_api_dispatch=True):
        measure(*(_to("array_api_strict", "device1", a) for a in (y_true, y_pred)),
                sample_weight=_to("array_api_strict", "device1", weights))
    assert crossed and max(crossed) <= 25  # 5 classes: at most 5 x 5 cells


def test_only_the_score_cells_cross_to_the_host(monkeypatch):
    crossed = []
    to_host = _array_api.to_host
    monkeypatch.setattr(_array_api, "to_host",
                        lambda x: crossed.append(np.size(to_host(x))) or to_host(x))
    y_true, _, _ = _labels(n=5000, n_classes=4)
    y_score = np.round(y_true + np.random.default_rng(0).normal(size=5000), 1)
    n_cells = len({(t, s) for t, s in zip(y_true, y_score)})
    with sklearn.config_context(array_api_dispatch=True):
        vus_score(_to("array_api_strict", "device1", y_true),
                  _to("array_api_strict", "device1", y_score))
    assert max(crossed) == n_cells < 5000


def test_cpu_device_arrays_are_read_in_place():
    # DLPack hands NumPy the array's own memory: no copy of the items.
    y = _to("array_api_strict", "CPU_DEVICE", np.arange(10))
    view, = _array_api.host_views(y)
    assert np.shares_memory(view, np.from_dlpack(y))


# --- Errors ---------------------------------------------------------------------------


def test_mixed_namespaces_get_scikit_learns_error():
    # scikit-learn's get_namespace_and_device refuses them; (its metrics since 1.8
    # move y_true to y_pred's namespace instead: docs, Array API inputs).
    from sklearn_ordinal._compat import get_namespace_and_device

    y = np.array([0, 1, 2, 1])
    on_device = _to("array_api_strict", "device1", y)
    with sklearn.config_context(array_api_dispatch=True):
        with pytest.raises(ValueError) as theirs:
            get_namespace_and_device(y, on_device)
        with pytest.raises(ValueError) as ours:
            macro_mean_absolute_error(y, on_device)
    assert str(ours.value) == str(theirs.value)


def test_mixed_devices_get_scikit_learns_error():
    y = np.array([0, 1, 2, 1])
    with sklearn.config_context(array_api_dispatch=True):
        with pytest.raises(ValueError, match="different devices"):
            vus_score(_to("array_api_strict", "CPU_DEVICE", y),
                      _to("array_api_strict", "device1", y * 1.0))


@pytest.mark.parametrize("y_true, y_pred, weights, kwargs", [
    ([0.0, np.nan, 2.0], [0.0, 1.0, 2.0], None, {}),
    ([0.0, 1.0, 2.0], [0.0, np.inf, 2.0], None, {}),
    ([0, 1, 2], [0, 1, 2], [1.0, -1.0, 1.0], {}),
    ([0, 1, 2], [0, 1, 2], [0.0, 0.0, 0.0], {}),
    ([0, 1, 2], [0, 1, 2], [1.0, np.nan, 1.0], {}),
    ([0, 1, 2], [0, 1, 2], [1e-300, 1e300, 1.0], {}),
    ([0, 1, 2], [0, 1, 7], None, {"labels": [0, 1, 2]}),
    ([0, 1, 2], [0.5, 1.25, 2.0], None, {}),
    ([0, 1, 2], [0, 1], None, {}),
    ([[0, 1], [2, 1]], [0, 1], None, {}),
])
def test_bad_input_on_the_second_device_gets_numpys_message(y_true, y_pred, weights, kwargs):
    arrays = [np.asarray(y_true), np.asarray(y_pred)]
    weights = None if weights is None else np.asarray(weights)
    with pytest.raises(ValueError) as expected:
        weighted_kappa_score(*arrays, sample_weight=weights, **kwargs)
    on_device = [_to("array_api_strict", "device1", a) for a in arrays]
    with sklearn.config_context(array_api_dispatch=True), pytest.raises(ValueError) as found:
        weighted_kappa_score(*on_device, sample_weight=None if weights is None
                             else _to("array_api_strict", "device1", weights), **kwargs)
    assert str(found.value) == str(expected.value)


@pytest.mark.parametrize("call", [
    lambda y, p: ranked_probability_score_loss(y, p),
    lambda y, p: prevalences(y, y),
], ids=["ranked_probability_score_loss", "prevalences"])
def test_numpy_only_functions_say_why_on_the_second_device(call):
    y = _to("array_api_strict", "device1", np.array([0, 1, 2, 1]))
    proba = _to("array_api_strict", "device1", np.full((4, 3), 1 / 3))
    with sklearn.config_context(array_api_dispatch=True), pytest.raises(
            ValueError, match="reads every item on the host"):
        call(y, proba)


def test_numpy_only_functions_work_on_the_cpu_device():
    y = np.array([0, 1, 2, 1])
    proba = np.full((4, 3), 1 / 3)
    expected = ranked_probability_score_loss(y, proba)
    with sklearn.config_context(array_api_dispatch=True):
        found = ranked_probability_score_loss(_to("array_api_strict", "CPU_DEVICE", y),
                                              _to("array_api_strict", "CPU_DEVICE", proba))
    assert found == pytest.approx(expected, rel=1e-12)


def test_without_dispatch_nothing_changes():
    # As before: the CPU device's arrays are read by np.asarray, the second device's
    # conversion is refused by array-api-strict itself.
    y_true, y_pred, _ = _labels()
    cpu = [_to("array_api_strict", "CPU_DEVICE", a) for a in (y_true, y_pred)]
    assert macro_mean_absolute_error(*cpu) == macro_mean_absolute_error(y_true, y_pred)
    with pytest.raises(RuntimeError):
        macro_mean_absolute_error(*(_to("array_api_strict", "device1", a)
                                    for a in (y_true, y_pred)))


# --- Intermediates, scorers, searches -----------------------------------------------------


@pytest.mark.parametrize("namespace, device", NAMESPACES)
def test_confusion_matrix_comes_back_in_the_inputs_namespace(namespace, device):
    y_true, y_pred, weights = _labels()
    expected = ordinal_confusion_matrix(y_true, y_pred, sample_weight=weights)
    with sklearn.config_context(array_api_dispatch=True):
        found = ordinal_confusion_matrix(*(_to(namespace, device, a)
                                           for a in (y_true, y_pred)),
                                         sample_weight=_to(namespace, device, weights))
    assert str(found.device) == str(_to(namespace, device, y_true).device)
    assert_allclose(_array_api.to_host(found), expected, rtol=1e-12)


@pytest.mark.parametrize("namespace, device", NAMESPACES)
def test_confusion_accumulated_batch_by_batch_on_the_device(namespace, device):
    y_true, y_pred, weights = _labels(n=1000)
    labels = [0, 1, 2, 3, 4]
    total = 0
    with sklearn.config_context(array_api_dispatch=True):
        for start in range(0, 1000, 128):
            batch = [_to(namespace, device, a[start:start + 128])
                     for a in (y_true, y_pred, weights)]
            total = total + OrdinalConfusion.from_predictions(
                batch[0], batch[1], labels=labels, sample_weight=batch[2])
    expected = macro_mean_absolute_error(y_true, y_pred, sample_weight=weights)
    assert total.score(macro_mean_absolute_error) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("namespace, device", NAMESPACES)
def test_score_table_and_roc_surface_on_the_device(namespace, device):
    y_true, _, weights = _labels(n=300, n_classes=3)
    y_score = y_true + np.random.default_rng(5).normal(size=300)
    expected = roc_surface(y_true, y_score, sample_weight=weights)
    table = ScoreTable.from_predictions(y_true, y_score, sample_weight=weights)
    with sklearn.config_context(array_api_dispatch=True):
        on_device = [_to(namespace, device, a) for a in (y_true, y_score, weights)]
        found = roc_surface(on_device[0], on_device[1], sample_weight=on_device[2])
        found_table = ScoreTable.from_predictions(on_device[0], on_device[1],
                                                  sample_weight=on_device[2])
    for ours, theirs in zip(found, expected):
        assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)
    assert found_table.score(vus_score) == pytest.approx(table.score(vus_score), rel=1e-12)


def _search(X, y, scoring):
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.model_selection import GridSearchCV

    search = GridSearchCV(LinearDiscriminantAnalysis(), {"tol": [1e-4, 1e-2]},
                          scoring=scoring, refit=False, cv=3, error_score="raise")
    return search.fit(X, y).cv_results_


@pytest.mark.parametrize("device", ["CPU_DEVICE", "device1"])
def test_grid_search_with_our_scorers_gives_the_numpy_run(device):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 240)
    X = rng.normal(size=(240, 3)) + 0.8 * y[:, None]
    names = [name for name in get_scorer_names()
             if name in LABEL_NAMES + SCORE_NAMES]
    if device != "CPU_DEVICE":
        names.remove("neg_ranked_probability_score") if "neg_ranked_probability_score" in \
            names else None
    expected = _search(X, y, get_scorers(names))
    with sklearn.config_context(array_api_dispatch=True):
        found = _search(_to("array_api_strict", device, X),
                        _to("array_api_strict", device, y), get_scorers(names))
    for name in names:
        assert_allclose(found[f"split0_test_{name}"], expected[f"split0_test_{name}"],
                        rtol=1e-12, atol=1e-12)
        assert_allclose(found[f"mean_test_{name}"], expected[f"mean_test_{name}"],
                        rtol=1e-12, atol=1e-12)


def test_probabilistic_scorer_says_why_on_the_second_device():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 90)
    X = rng.normal(size=(90, 2)) + y[:, None]
    with sklearn.config_context(array_api_dispatch=True), pytest.raises(
            ValueError, match="need NumPy arrays on the host"):
        _search(_to("array_api_strict", "device1", X), _to("array_api_strict", "device1", y),
                get_scorers(["neg_ranked_probability_score"]))


def test_estimators_do_not_claim_array_api_support():
    # They fit on NumPy (docs: Array API inputs); a tag would promise more.
    from sklearn.utils import get_tags

    from sklearn_ordinal.dummy import TrivialOrdinalClassifier
    from sklearn_ordinal.model_selection import TunedThresholdsClassifierCV

    from sklearn.linear_model import Ridge

    for estimator in (TrivialOrdinalClassifier(), TunedThresholdsClassifierCV(Ridge())):
        assert not get_tags(estimator).array_api_support


@pytest.mark.parametrize("device", ["CPU_DEVICE", "device1"])
@pytest.mark.parametrize("method", ["percentile", "normal"])
@pytest.mark.parametrize("name", ["neg_macro_mean_absolute_error", "vus"])
def test_intervals_of_array_api_arrays_are_the_numpy_ones(name, method, device):
    from sklearn_ordinal.stats import compare_scores, score_interval

    y_true, y_pred, weights = _labels(n=300)
    second = y_pred if name != "vus" else y_pred + np.random.default_rng(6).normal(size=300)
    other = np.roll(second, 1)
    expected = score_interval(name, y_true, second, sample_weight=weights, method=method,
                              n_resamples=199, random_state=0)
    expected_comparison = compare_scores(name, y_true, second, other, n_resamples=199,
                                         random_state=0)
    on_device = [_to("array_api_strict", device, a) for a in (y_true, second, weights, other)]
    with sklearn.config_context(array_api_dispatch=True):
        found = score_interval(name, on_device[0], on_device[1], sample_weight=on_device[2],
                               method=method, n_resamples=199, random_state=0)
        comparison = compare_scores(name, on_device[0], on_device[1], on_device[3],
                                    n_resamples=199, random_state=0)
    assert found.estimate == pytest.approx(expected.estimate, rel=1e-12)
    assert_allclose(found.confidence_interval, expected.confidence_interval, rtol=1e-12)
    assert comparison.pvalue == pytest.approx(expected_comparison.pvalue, rel=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_compressing_by_bincount_and_by_sort_agree(weighted):
    # PyTorch and CuPy count integer cells by one bincount on the device; namespaces
    # without bincount (array-api-strict) sort. NumPy stands in for the former here.
    rng = np.random.default_rng(7)
    keys = [rng.integers(-3, 4, 500).astype(np.int8), rng.integers(0, 6, 500)]
    weights = rng.random(500) if weighted else None
    by_count = _array_api.compress(np, keys, weights)
    device = _STRICT_DEVICES["device1"]
    by_sort = _array_api.compress(xps, [xps.asarray(k, device=device) for k in keys],
                                  None if weights is None else xps.asarray(weights,
                                                                           device=device))
    for ours, theirs in zip(by_count[0], by_sort[0]):
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours, theirs)
    assert_allclose(by_count[1], by_sort[1], rtol=1e-13)
    cells = {}
    for a, b, w in zip(*keys, weights if weighted else np.ones(500)):
        cells[(a, b)] = cells.get((a, b), 0) + w
    assert_allclose(by_sort[1], [cells[cell] for cell in sorted(cells)], rtol=1e-12)


def test_the_training_loop_recipe_runs(capsys):
    # The recipe of docs/user_guide/chunks.rst ("A training loop"), run as written,
    # and its numbers against the measures on all the epoch's items at once.
    import textwrap
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "user_guide" / "chunks.rst")
    text = page.read_text()
    block = text[text.index("A training loop"):]
    block = block[block.index(".. code-block:: python") + len(".. code-block:: python"):]
    lines = []
    for line in block.splitlines()[1:]:
        if line.strip() and not line.startswith("   "):
            break
        lines.append(line)
    namespace = {}
    exec(textwrap.dedent("\n".join(lines)), namespace)
    printed = [float(value) for value in capsys.readouterr().out.split()]
    rng = np.random.default_rng(0)
    y_true, y_pred = [], []
    for _ in range(20):
        y = rng.integers(0, 5, 256)
        y_true.append(y)
        y_pred.append(np.clip(y + rng.integers(-1, 2, 256), 0, 4))
    y_true, y_pred = np.concatenate(y_true), np.concatenate(y_pred)
    expected = [macro_mean_absolute_error(y_true, y_pred),
                weighted_kappa_score(y_true, y_pred, weights="quadratic"),
                cem_score(y_true, y_pred)]
    assert_allclose(printed, expected, rtol=1e-12)


@pytest.mark.parametrize("device", ["CPU_DEVICE", "device1"])
def test_boolean_labels_on_the_device(device):
    # The standard sorts no booleans: they are compressed as 0 and 1, and come back
    # as the classes False and True, as NumPy input gives them.
    rng = np.random.default_rng(8)
    y_true, y_pred = rng.random(50) < 0.5, rng.random(50) < 0.4
    expected = OrdinalConfusion.from_predictions(y_true, y_pred)
    with sklearn.config_context(array_api_dispatch=True):
        found = OrdinalConfusion.from_predictions(_to("array_api_strict", device, y_true),
                                                  _to("array_api_strict", device, y_pred))
    np.testing.assert_array_equal(found.classes, expected.classes)
    assert found.classes.dtype == expected.classes.dtype
    np.testing.assert_array_equal(found.weights, expected.weights)


def test_scores_of_no_real_dtype_are_refused_on_the_device():
    with sklearn.config_context(array_api_dispatch=True), pytest.raises(
            ValueError, match="y_score must hold real numbers; got dtype .*complex128"):
        vus_score(_to("array_api_strict", "device1", np.array([0, 1, 2, 1])),
                  _to("array_api_strict", "device1", np.array([1 + 1j, 2, 3, 4])))


@pytest.mark.parametrize("device", ["CPU_DEVICE", "device1"])
@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weighted_kappa_answers_where_scikit_learns_does_not(weights, device):
    # scikit-learn 1.9.1's cohen_kappa_score(weights=...) fails under dispatch (a
    # dtype error on the CPU device, a device mismatch on the other); ours gives its
    # NumPy number.
    y_true, y_pred, _ = _labels()
    expected = sklearn.metrics.cohen_kappa_score(y_true, y_pred, weights=weights)
    with sklearn.config_context(array_api_dispatch=True):
        found = weighted_kappa_score(_to("array_api_strict", device, y_true),
                                     _to("array_api_strict", device, y_pred), weights=weights)
    assert found == pytest.approx(expected, rel=1e-12)
