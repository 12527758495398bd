"""Dask inputs: every measure on a cluster equals the same measure in memory."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from test_common import (
    LABEL_MEASURES,
    SCORE_MEASURES,
    _accepts_sample_weight,
    _random_labels,
    _random_scores,
    label_measures,
    score_measures,
)

from sklearn_ordinal.metrics import mean_absolute_error, ordinal_confusion_matrix, vus_score

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

NAMES = np.array(["poor", "fair", "good", "great"])


@pytest.fixture(scope="module")
def client():
    # Worker processes, as on a real cluster: every task and result is pickled.
    with distributed.LocalCluster(
        processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        yield client


def _weights(n, seed):
    rng = np.random.RandomState(seed)
    return rng.uniform(0, 1, size=n) * 10.0 ** rng.randint(-3, 4, size=n)


def _as_dask(kind, *arrays):
    """The arrays as Dask arrays in uneven chunks, or as columns of one Dask DataFrame
    (persisted, so that each measure's own passes are what the test runs)."""
    if kind == "array":
        return [None if y is None else da.from_array(y, chunks=(23, 30, 7, 20)) for y in arrays]
    frame = pd.DataFrame({str(i): y for i, y in enumerate(arrays) if y is not None})
    frame = dd.from_pandas(frame, npartitions=3).persist()
    columns = [None if y is None else frame[str(i)] for i, y in enumerate(arrays)]
    if kind == "one-column DataFrame":
        columns[0] = frame[["0"]]
    return columns


def _categorical(codes):
    return pd.Categorical.from_codes(codes, categories=NAMES, ordered=True)


@label_measures
def test_label_measure_on_dask_arrays_equals_numpy(client, name):
    y_true, y_pred = _random_labels(0, n=80)
    weight = _weights(len(y_true), 0) if _accepts_sample_weight(name) else None
    kwargs = {} if weight is None else {"sample_weight": weight}
    measure = LABEL_MEASURES[name]
    expected = measure(y_true, y_pred, **kwargs)
    dask_true, dask_pred, dask_weight = _as_dask("array", y_true, y_pred, weight)
    kwargs = {} if weight is None else {"sample_weight": dask_weight}
    got = measure(dask_true, dask_pred, **kwargs)
    assert type(got) is float
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-14)


@pytest.fixture(scope="module")
def categorical_columns(client):
    y_true, y_pred = _random_labels(1, n=80)
    y_true[y_true == 3] = 2  # a category without true items stays a class, as in memory
    return (_categorical(y_true), _categorical(y_pred)), _as_dask(
        "Series", _categorical(y_true), _categorical(y_pred)
    )


@label_measures
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_label_measure_on_ordered_categorical_dask_series(categorical_columns, name):
    (y_true, y_pred), (dask_true, dask_pred) = categorical_columns
    expected = LABEL_MEASURES[name](y_true, y_pred)
    got = LABEL_MEASURES[name](dask_true, dask_pred)
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("name", ["macro_mean_absolute_error", "cem_ord", "accuracy"])
@pytest.mark.parametrize("kind", ["Series", "one-column DataFrame"])
def test_label_measure_on_dask_columns_finds_the_classes(client, name, kind):
    y_true, y_pred = _random_labels(2, n=80)
    weight = _weights(len(y_true), 2)
    measure = LABEL_MEASURES[name]
    expected = measure(y_true, y_pred, sample_weight=weight)
    dask_true, dask_pred, dask_weight = _as_dask(kind, y_true, y_pred, weight)
    got = measure(dask_true, dask_pred, sample_weight=dask_weight)
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-14)


@score_measures
def test_ranking_measure_on_dask_equals_numpy(client, name):
    y_true, y_score = _random_scores(0, n=80)
    weight = _weights(len(y_true), 1)
    measure = SCORE_MEASURES[name]
    expected = measure(y_true, y_score, sample_weight=weight)
    dask_true, dask_score, dask_weight = _as_dask("array", y_true, y_score, weight)
    got = measure(dask_true, dask_score, sample_weight=dask_weight)
    assert type(got) is float
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-14)
    dask_true, dask_score = _as_dask("Series", _categorical(y_true), y_score)
    assert measure(dask_true, dask_score) == pytest.approx(
        measure(_categorical(y_true), y_score), rel=1e-12, abs=1e-14
    )


def test_confusion_matrix_and_labels_on_dask(client):
    y_true, y_pred = _random_labels(2, n=80)
    weight = _weights(len(y_true), 2)
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
    y_true, y_pred = _random_labels(3, n=80)
    floats = y_true.astype(float)
    floats[50] = np.nan
    dask_true, dask_pred = _as_dask("array", floats, y_pred)
    with pytest.raises(ValueError, match="y_true contains NaN; every item needs a finite label"):
        mean_absolute_error(dask_true, dask_pred)
    dask_true, dask_pred = _as_dask("array", y_true, y_pred)
    unknown = r"y_true contains labels not in labels=\[0, 1, 2\]: \[3\]"
    with pytest.raises(ValueError, match=unknown):
        mean_absolute_error(dask_true, dask_pred, labels=[0, 1, 2])
    weight = np.ones(len(y_true))
    weight[70] = -1
    dask_weight = da.from_array(weight, chunks=20)
    with pytest.raises(ValueError, match="sample_weight contains negative values"):
        mean_absolute_error(dask_true, dask_pred, sample_weight=dask_weight)
    dask_true, dask_pred = _as_dask("array", NAMES[y_true], NAMES[y_pred])
    with pytest.raises(ValueError, match="string labels, whose order cannot be guessed"):
        mean_absolute_error(dask_true, dask_pred)
    with pytest.raises(ValueError, match="Some inputs are Dask collections and some are not"):
        vus_score(dask_true, y_true.astype(float))


def test_importing_the_package_never_imports_dask():
    code = (
        "import sys, sklearn_ordinal, sklearn_ordinal.metrics, sklearn_ordinal.dummy, "
        "sklearn_ordinal.model_selection, sklearn_ordinal.metaeval\n"
        "from sklearn_ordinal.metrics import mean_absolute_error, vus_score\n"
        "mean_absolute_error([0, 1], [0, 1]); vus_score([0, 1], [0.1, 0.2])\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


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
