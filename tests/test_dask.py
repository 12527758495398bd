"""Dask inputs: every measure on a cluster equals the same measure in memory.

One cluster of worker processes serves the module. Each measure is called once on
Dask arrays (its own entry point); the other input kinds are compared for every
measure at once, through the one intermediate (an ``OrdinalConfusion`` or a
``ScoreTable``) that a single distributed call builds.
"""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from test_common import (
    DISTANCE_MEASURES,
    LABEL_MEASURES,
    ORDER_FREE,
    SCORE_MEASURES,
    _accepts_sample_weight,
    _random_labels,
    _random_scores,
    label_measures,
    score_measures,
)

from sklearn_ordinal.metrics import (
    OrdinalConfusion,
    ScoreTable,
    macro_mean_absolute_error,
    mean_absolute_error,
    ordinal_confusion_matrix,
    vus_score,
)

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

NAMES = np.array(["poor", "fair", "good", "great"])
# Uneven chunks; the 7-item one is given fewer classes below.
CHUNKS = ((23, 7, 30, 20),)
# More chunks than one task of the sum's tree adds up (16): two levels.
MANY_CHUNKS = ((23, 7) + (2,) * 25,)
N = sum(CHUNKS[0])
APPROX = {"rel": 1e-12, "abs": 1e-14}


@pytest.fixture(scope="module")
def import_check():
    """A fresh interpreter that imports and uses the package must not import Dask; it
    starts first and runs while the cluster starts."""
    code = (
        "import sys, sklearn_ordinal, sklearn_ordinal.metrics, sklearn_ordinal.dummy, "
        "sklearn_ordinal.model_selection, sklearn_ordinal.metaeval\n"
        "from sklearn_ordinal.metrics import mean_absolute_error, vus_score\n"
        "mean_absolute_error([0, 1], [0, 1]); vus_score([0, 1], [0.1, 0.2])\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')]\n"
        "assert not loaded, loaded\n"
    )
    process = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True)
    yield process
    process.kill()
    process.wait()


@pytest.fixture(scope="module")
def client(import_check):
    # Worker processes, as on a real cluster: every task and result is pickled. The
    # fixture runs in the test process only, never on import, so spawned workers
    # (which import what the tasks need) start no cluster of their own.
    with distributed.LocalCluster(
        processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        yield client


def _weights(n, seed):
    # Weights over six orders of magnitude: the blocks' power-of-two scales differ.
    rng = np.random.RandomState(seed)
    return rng.uniform(0, 1, size=n) * 10.0 ** rng.randint(-3, 4, size=n)


def _labels_with_gaps(seed):
    """Labels 0..3 of N items, where the 7-item chunk holds classes 1 and 2 only (and
    the 2-item chunks of MANY_CHUNKS few): blocks find different class sets, which
    must merge."""
    y_true, y_pred = _random_labels(seed, n=N)
    y_true[23:30] = np.clip(y_true[23:30], 1, 2)
    y_pred[23:30] = np.clip(y_pred[23:30], 1, 2)
    return y_true, y_pred


def _as_dask(kind, *arrays, chunks=CHUNKS):
    """The arrays as Dask arrays in ``chunks``, or as columns of one Dask DataFrame."""
    if kind == "array":
        return [None if y is None else da.from_array(y, chunks=chunks) for y in arrays]
    frame = pd.DataFrame({str(i): y for i, y in enumerate(arrays) if y is not None})
    frame = dd.from_pandas(frame, npartitions=3)
    columns = [None if y is None else frame[str(i)] for i, y in enumerate(arrays)]
    if kind == "one-column DataFrame":
        columns[0] = frame[["0"]]
    return columns


def _categorical(codes):
    return pd.Categorical.from_codes(codes, categories=NAMES, ordered=True)


def _assert_same_confusion(got, expected):
    assert got.classes.tolist() == expected.classes.tolist()
    assert got.classes.dtype == expected.classes.dtype
    np.testing.assert_array_equal(got.values, expected.values)
    np.testing.assert_allclose(got.weights, expected.weights, rtol=1e-12)


def _assert_every_label_measure(confusion, y_true, y_pred, **kwargs):
    for name, measure in LABEL_MEASURES.items():
        if "sample_weight" in kwargs and not _accepts_sample_weight(name):
            continue
        expected = measure(y_true, y_pred, **kwargs)
        assert confusion.score(measure) == pytest.approx(expected, **APPROX), name


@pytest.fixture
def synchronously():
    """Dask's synchronous scheduler in the test process: the same graph and per-block
    code as on the cluster, without a round trip per call."""
    import dask

    with dask.config.set(scheduler="sync"):
        yield


@label_measures
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_label_measure_takes_dask_arrays(synchronously, name):
    # Each measure's own entry point; the values on the cluster are compared below,
    # every measure at once. Order-free measures take unordered strings.
    y_true, y_pred = _labels_with_gaps(0)
    if name in ORDER_FREE:
        y_true, y_pred = NAMES[y_true], NAMES[y_pred]
    weight = _weights(N, 0) if _accepts_sample_weight(name) else None
    kwargs = {} if weight is None else {"sample_weight": weight}
    measure = LABEL_MEASURES[name]
    expected = measure(y_true, y_pred, **kwargs)
    dask_true, dask_pred, dask_weight = _as_dask("array", y_true, y_pred, weight,
                                                 chunks=MANY_CHUNKS)
    kwargs = {} if weight is None else {"sample_weight": dask_weight}
    got = measure(dask_true, dask_pred, **kwargs)
    assert type(got) is float
    assert got == pytest.approx(expected, **APPROX)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("weighted", [False, True])
def test_every_label_measure_on_dask_arrays_equals_numpy(client, weighted):
    # No labels=: each block counts its own classes, merged in the sum's tree.
    y_true, y_pred = _labels_with_gaps(0)
    weight = _weights(N, 0) if weighted else None
    if weighted:
        weight[30:40] = 0  # whole chunks of zero weight add nothing, and are no error
    dask_true, dask_pred, dask_weight = _as_dask("array", y_true, y_pred, weight,
                                                 chunks=MANY_CHUNKS)
    confusion = OrdinalConfusion.from_predictions(dask_true, dask_pred, sample_weight=dask_weight)
    _assert_same_confusion(
        confusion, OrdinalConfusion.from_predictions(y_true, y_pred, sample_weight=weight)
    )
    kwargs = {"sample_weight": weight} if weighted else {}
    _assert_every_label_measure(confusion, y_true, y_pred, **kwargs)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_every_label_measure_on_ordered_categorical_dask_series(client):
    y_true, y_pred = _random_labels(1, n=N)
    y_true[y_true == 3] = 2  # a category without true items stays a class, as in memory
    y_true, y_pred = _categorical(y_true), _categorical(y_pred)
    dask_true, dask_pred = _as_dask("Series", y_true, y_pred)
    confusion = OrdinalConfusion.from_predictions(dask_true, dask_pred)
    _assert_same_confusion(confusion, OrdinalConfusion.from_predictions(y_true, y_pred))
    _assert_every_label_measure(confusion, y_true, y_pred)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("labels", ["integers", "wide integers", "floats", "strings"])
@pytest.mark.parametrize("kind", ["array", "Series", "one-column DataFrame"])
def test_every_label_measure_finds_the_classes_of_dask_columns(client, kind, labels):
    # Integers and strings: one pass, each block's classes merged (the integers spread
    # over more than a lookup table holds); floats: a first pass finds the classes.
    y_true, y_pred = _labels_with_gaps(2)
    as_labels = {
        "integers": lambda y: y,
        "wide integers": lambda y: y * 5000 - 7,
        "floats": lambda y: y / 2,
        "strings": lambda y: NAMES[y],
    }[labels]
    y_true, y_pred = as_labels(y_true), as_labels(y_pred)
    weight = _weights(N, 2)
    dask_true, dask_pred, dask_weight = _as_dask(kind, y_true, y_pred, weight)
    if labels == "strings":
        # Without an order only the order-free measures take them, through Dask too.
        with pytest.raises(ValueError, match="order cannot be guessed"):
            OrdinalConfusion.from_predictions(dask_true, dask_pred, sample_weight=dask_weight)
        measures = {name: LABEL_MEASURES[name] for name in sorted(ORDER_FREE)}
        got = [measure(dask_true, dask_pred, sample_weight=dask_weight)
               for measure in list(measures.values())[:2]]
        expected = [measure(y_true, y_pred, sample_weight=weight)
                    for measure in list(measures.values())[:2]]
        assert got == pytest.approx(expected, **APPROX)
        return
    confusion = OrdinalConfusion.from_predictions(dask_true, dask_pred, sample_weight=dask_weight)
    _assert_same_confusion(
        confusion, OrdinalConfusion.from_predictions(y_true, y_pred, sample_weight=weight)
    )
    _assert_every_label_measure(confusion, y_true, y_pred, sample_weight=weight)


def test_class_values_apply_to_the_merged_classes(client):
    y_true, y_pred = _labels_with_gaps(3)
    values = [0.0, 1.0, 5.0, 6.0]
    dask_true, dask_pred = _as_dask("array", y_true, y_pred)
    name = sorted(DISTANCE_MEASURES)[0]
    measure = LABEL_MEASURES[name]
    assert measure(dask_true, dask_pred, class_values=values) == pytest.approx(
        measure(y_true, y_pred, class_values=values), **APPROX
    )
    with pytest.raises(ValueError, match="class_values must hold one number per class"):
        measure(dask_true, dask_pred, class_values=values[:3])


@score_measures
def test_ranking_measure_takes_dask_arrays(synchronously, name):
    # Scores rounded to 0.1 tie within and across blocks; no labels=: each block
    # finds its own classes.
    y_true, y_score = _random_scores(0, n=N)
    y_true[23:30] = np.clip(y_true[23:30], 1, 2)
    weight = _weights(N, 1)
    measure = SCORE_MEASURES[name]
    expected = measure(y_true, y_score, sample_weight=weight)
    dask_true, dask_score, dask_weight = _as_dask("array", y_true, y_score, weight,
                                                  chunks=MANY_CHUNKS)
    got = measure(dask_true, dask_score, sample_weight=dask_weight)
    assert type(got) is float
    assert got == pytest.approx(expected, **APPROX)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("kind", ["array", "Series"])
def test_every_ranking_measure_on_dask_equals_numpy(client, kind, weighted):
    # Arrays of integers: each block finds its own classes; Series: ordered categoricals.
    y_true, y_score = _random_scores(1, n=N)
    y_true[23:30] = np.clip(y_true[23:30], 1, 2)
    if kind == "Series":
        y_true = _categorical(y_true)
    weight = _weights(N, 3) if weighted else None
    dask_true, dask_score, dask_weight = _as_dask(kind, y_true, y_score, weight)
    table = ScoreTable.from_predictions(dask_true, dask_score, sample_weight=dask_weight)
    expected = ScoreTable.from_predictions(y_true, y_score, sample_weight=weight)
    assert table.classes.tolist() == expected.classes.tolist()
    np.testing.assert_array_equal(table.thresholds, expected.thresholds)
    if weighted:
        np.testing.assert_allclose(np.ldexp(table.table, table.weight_exponent),
                                   np.ldexp(expected.table, expected.weight_exponent),
                                   rtol=1e-12)
    else:
        # Counts stay integers and add exactly.
        assert table.table.dtype == expected.table.dtype
        np.testing.assert_array_equal(table.table, expected.table)
    for name, measure in SCORE_MEASURES.items():
        assert table.score(measure) == pytest.approx(
            measure(y_true, y_score, sample_weight=weight), **APPROX
        ), name


def test_confusion_matrix_and_labels_on_dask(client):
    y_true, y_pred = _random_labels(2, n=N)
    weight = _weights(N, 2)
    weight[:23] = 0  # a whole chunk of zero weight adds nothing, and is no error
    dask_true, dask_pred, dask_weight = _as_dask("array", NAMES[y_true], NAMES[y_pred], weight)
    labels = list(NAMES)
    np.testing.assert_allclose(
        ordinal_confusion_matrix(dask_true, dask_pred, labels=labels, sample_weight=dask_weight),
        ordinal_confusion_matrix(NAMES[y_true], NAMES[y_pred], labels=labels,
                                 sample_weight=weight),
        rtol=1e-12,
    )


def test_validation_happens_blockwise_with_the_numpy_messages(client):
    y_true, y_pred = _random_labels(3, n=N)
    floats = y_true.astype(float)
    floats[50] = np.nan
    dask_true, dask_pred = _as_dask("array", floats, y_pred)
    with pytest.raises(ValueError, match="y_true contains NaN; every item needs a finite label"):
        macro_mean_absolute_error(dask_true, dask_pred)
    dask_true, dask_pred = _as_dask("array", y_true, y_pred)
    # The first block to fail speaks: in some, only y_pred holds a 3.
    unknown = r"y_(true|pred) contains labels not in labels=\[0, 1, 2\]: \[3\]"
    with pytest.raises(ValueError, match=unknown):
        macro_mean_absolute_error(dask_true, dask_pred, labels=[0, 1, 2])
    weight = np.ones(N)
    weight[70] = -1
    dask_weight = da.from_array(weight, chunks=20)
    with pytest.raises(ValueError, match="sample_weight contains negative values"):
        macro_mean_absolute_error(dask_true, dask_pred, sample_weight=dask_weight)
    with pytest.raises(ValueError, match="no item of positive weight in any block"):
        macro_mean_absolute_error(dask_true, dask_pred, sample_weight=da.zeros(N, chunks=20))
    # Negative labels in one block, labels above 2**63 - 1 in another: no block alone
    # sees what the whole data is, an error.
    signed, unsigned = y_true.astype(np.int64), y_pred.astype(np.uint64)
    signed[0], unsigned[-1] = -1, 2**64 - 1
    dask_true, dask_pred = _as_dask("array", signed, unsigned)
    both = "both negative integers and integers above 2\\*\\*63 - 1"
    with pytest.raises(ValueError, match=both):
        macro_mean_absolute_error(signed, unsigned)
    with pytest.raises(ValueError, match=both):
        macro_mean_absolute_error(dask_true, dask_pred)
    dask_true, dask_pred = _as_dask("array", NAMES[y_true], NAMES[y_pred])
    with pytest.raises(ValueError, match="Some inputs are Dask collections and some are not"):
        vus_score(dask_true, y_true.astype(float))


@pytest.mark.parametrize("measure", [mean_absolute_error, vus_score])
def test_blocks_whose_weights_float64_cannot_hold_together_are_refused(synchronously, measure):
    # Each block scales its own weights; merged, 1e-300 next to 1e300 would count as
    # zero and drop its items. In memory that is a ValueError; through Dask too.
    y_true, y_pred = _random_labels(4, n=N)
    weight = np.where(np.arange(N) < 23, 1e300, 1e-300)  # the first block: huge
    y = y_pred.astype(float) if measure is vus_score else y_pred
    with pytest.raises(ValueError, match="spans? more than float64 can hold"):
        measure(y_true, y, sample_weight=weight)
    dask_true, dask_pred, dask_weight = _as_dask("array", y_true, y, weight)
    with pytest.raises(ValueError, match="spans? more than float64 can hold"):
        measure(dask_true, dask_pred, sample_weight=dask_weight, labels=[0, 1, 2, 3])


def test_importing_the_package_never_imports_dask(import_check):
    _, errors = import_check.communicate(timeout=120)
    assert import_check.returncode == 0, errors


def test_grid_search_on_the_cluster_equals_n_jobs_1(client):
    from joblib import parallel_backend
    from sklearn.base import clone
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV

    from sklearn_ordinal.metrics import get_scorer

    rng = np.random.RandomState(0)
    X = rng.normal(size=(120, 3))
    y = np.digitize(X @ [1.0, 0.5, -0.5] + rng.normal(scale=0.5, size=120), [-1, 0, 1])
    scoring = {name: get_scorer(name) for name in ["neg_macro_mean_absolute_error", "cem_ord",
                                                   "vus"]}
    grid = GridSearchCV(LogisticRegression(), {"C": [0.01, 0.1, 1.0]}, scoring=scoring,
                        refit="cem_ord", cv=3)
    serial = clone(grid).set_params(n_jobs=1).fit(X, y)
    with parallel_backend("dask"):
        spread = clone(grid).set_params(n_jobs=-1).fit(X, y)
    for key, values in serial.cv_results_.items():
        if "_test_" in key:
            np.testing.assert_array_equal(spread.cv_results_[key], values, err_msg=key)
    assert spread.best_params_ == serial.best_params_
