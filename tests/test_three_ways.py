"""The same data three ways: NumPy arrays, Dask arrays and chunked intermediates.

Issue #28's "Done when": for random data (classes or a regressor's real values,
integer or string labels, with or without ``labels=`` and weights, zero weights
included) and a random chunking, every measure of the registry gives the same
number (to 1e-12) in memory, as Dask blocks, and from the sum of the chunks'
:class:`OrdinalConfusion` (label measures) or :class:`ScoreTable` (ranking
measures), or the same error. Dask runs on its synchronous scheduler, so that the
test stays fast and deterministic.

Two kinds of input have no chunk door, and are said here rather than skipped
silently: probabilities (``ranked_probability_score_loss`` is a mean over items, and
probabilities are not taken as Dask arrays) and a regressor's real values (they have
no confusion matrix; ``OrdinalConfusion`` refuses them with its own name in the
message, so only the refusal is compared).
"""

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sklearn_ordinal.metrics import OrdinalConfusion, ScoreTable
from sklearn_ordinal.metrics._registry import _NAMES, lookup

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

NAMES = np.array(["poor", "fair", "good", "great", "superb"])

# registry: what each name reads and the arguments it fixes.
MEASURES = {name: lookup(name)[:2] for name in sorted(_NAMES)}
BY_READS = {
    reads: [name for name, (record, _) in MEASURES.items() if record.reads == reads]
    for reads in ("labels", "scores")
}


def _outcome(compute):
    """``("value", result)`` or ``("error", type, message)``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ("value", compute())
    except (ValueError, TypeError) as error:
        return ("error", type(error), str(error))


def _assert_same(expected, got, door, name):
    assert expected[0] == got[0], (door, name, expected, got)
    if expected[0] == "value":
        np.testing.assert_allclose(np.asarray(got[1], dtype=float),
                                   np.asarray(expected[1], dtype=float), rtol=1e-12, atol=1e-12,
                                   err_msg=f"{door}: {name}")
    else:
        assert got[1:] == expected[1:], (door, name)


@st.composite
def datasets(draw, reads):
    n = draw(st.integers(1, 30))
    n_classes = draw(st.integers(2, 5))
    y_true = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)))
    kind = draw(st.sampled_from(["classes", "real"] if reads == "labels" else ["scores"]))
    if kind == "classes":
        y_out = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n,
                                       max_size=n)))
    else:
        noise = draw(st.lists(st.floats(-1.5, 1.5, allow_nan=False), min_size=n, max_size=n))
        y_out = y_true + np.array(noise)
    strings = kind == "classes" and draw(st.booleans())
    give_labels = draw(st.booleans())
    labels = np.arange(n_classes) if give_labels else None
    if strings:
        y_true, y_out = NAMES[y_true], NAMES[y_out]
        labels = None if labels is None else NAMES[labels]
    weights = None
    if draw(st.booleans()):
        weights = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0, 1e10]),
                                         min_size=n, max_size=n)))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=4)))
    chunks = tuple(np.diff([0, *cuts, n]).tolist())
    return y_true, y_out, labels, weights, chunks


def _dask(array, chunks):
    return None if array is None else da.from_array(array, chunks=(chunks,))


def _pieces(chunks):
    bounds = np.cumsum([0, *chunks])
    return [slice(a, b) for a, b in itertools.pairwise(bounds) if b > a]


def _chunked(intermediate, y_true, y_out, labels, weights, chunks):
    """The sum of the chunks' intermediates, all over the class set of the whole data
    (a chunk may lack a class); None when the chunks cannot hold it."""
    if labels is None:
        if y_true.dtype.kind == "U":
            return None  # strings with no order: nothing fixes one class set up front
        # The classes of the items of positive weight, as in memory: y_true's alone
        # for a ranking measure, with y_pred's for a label measure.
        kept = slice(None) if weights is None else weights > 0
        present = [y_true[kept]] + ([] if intermediate is ScoreTable else [y_out[kept]])
        labels = np.unique(np.concatenate(present))
    parts = [
        intermediate.from_predictions(
            y_true[piece], y_out[piece], labels=labels,
            sample_weight=None if weights is None else weights[piece],
        )
        for piece in _pieces(chunks)
        if weights is None or weights[piece].any()
    ]
    return sum(parts) if parts else None


def _three_ways(reads, data):
    y_true, y_out, labels, weights, chunks = data
    intermediate = OrdinalConfusion if reads == "labels" else ScoreTable
    with dask.config.set(scheduler="synchronous"):
        for name in BY_READS[reads]:
            _one_measure(name, reads, intermediate, y_true, y_out, labels, weights, chunks)


def _one_measure(name, reads, intermediate, y_true, y_out, labels, weights, chunks):
    record, fixed = MEASURES[name]
    w = weights if record.weighted else None
    if w is not None and not w.any():
        w = None
    weighting = {} if w is None else {"sample_weight": w}
    dask_weighting = {} if w is None else {"sample_weight": _dask(w, chunks)}
    expected = _outcome(lambda: record.function(y_true, y_out, labels=labels, **weighting,
                                                **fixed))
    got = _outcome(lambda: record.function(
        _dask(y_true, chunks), _dask(y_out, chunks), labels=labels, **dask_weighting,
        **fixed))
    _assert_same(expected, got, "dask", name)
    kept = slice(None) if w is None else w > 0
    # The labels are whole numbers here: a fractional prediction is no class.
    real = reads == "labels" and y_out.dtype.kind == "f" and bool(
        np.any(y_out[kept] != np.trunc(y_out[kept])))
    if real:
        # No confusion matrix of real values: the chunk door refuses them.
        # (The class set of the chunks is the true labels', as in memory.)
        classes = np.unique(y_true[kept]) if labels is None else labels
        with pytest.raises(ValueError, match="real-valued predictions"):
            _chunked(intermediate, y_true, y_out, classes, w, chunks)
        return
    total = _outcome(lambda: _chunked(intermediate, y_true, y_out, labels, w, chunks))
    if total[0] == "error":
        # The chunks refuse what the measure refuses, with the same message.
        assert expected[0] == "error", (name, total)
        assert total[1:] == expected[1:] or "OrdinalConfusion" in total[2], name
        return
    if total[1] is None:
        return  # string labels with no order given: no class set up front
    scored = _outcome(lambda: total[1].score(record.function, **fixed))
    _assert_same(expected, scored, "chunks", name)


SETTINGS = settings(max_examples=20, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(data=datasets("labels"))
def test_label_measures_three_ways(data):
    _three_ways("labels", data)


@SETTINGS
@given(data=datasets("scores"))
def test_ranking_measures_three_ways(data):
    _three_ways("scores", data)


def test_every_registry_name_is_held_to_the_three_ways():
    # Only the probabilistic measures read neither labels nor scores.
    held = set(BY_READS["labels"]) | set(BY_READS["scores"])
    rest = {name for name, (record, _) in MEASURES.items() if record.reads == "proba"}
    assert held | rest == set(_NAMES)
    assert len(held) >= 40
