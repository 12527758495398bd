"""Measures of data in chunks: the sum of the chunks' intermediates is the whole's."""

import numpy as np
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

from sklearn_ordinal.metrics import (
    OrdinalConfusion,
    ScoreTable,
    class_proximity,
    macro_mean_absolute_error,
    mean_absolute_error,
    ordinal_confusion_matrix,
    vus_score,
)

CLASSES = [0, 1, 2, 3]


def _chunks(n, seed):
    """Random cut points, one chunk holding a single item."""
    rng = np.random.RandomState(seed)
    cuts = np.sort(rng.choice(np.arange(2, n - 1), size=3, replace=False))
    cuts[0] = cuts[1] - 1
    return np.split(np.arange(n), cuts)


def _weights(n, seed):
    """Weights whose largest differs by orders of magnitude between the chunks, so
    that each chunk divides them by its own power of two."""
    rng = np.random.RandomState(seed)
    return rng.uniform(0, 1, size=n) * 10.0 ** rng.randint(-5, 6, size=n)


@label_measures
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weighted", [False, True])
def test_label_measure_of_summed_chunks_is_the_whole(name, seed, weighted):
    if weighted and not _accepts_sample_weight(name):
        pytest.skip("the measure takes no weights")
    y_true, y_pred = _random_labels(seed, n=80)
    weight = _weights(len(y_true), seed) if weighted else None
    kwargs = {"sample_weight": weight} if weighted else {}
    measure = LABEL_MEASURES[name]
    parts = [
        OrdinalConfusion.from_predictions(
            y_true[index],
            y_pred[index],
            labels=CLASSES,
            sample_weight=None if weight is None else weight[index],
        )
        for index in _chunks(len(y_true), seed)
    ]
    expected = measure(y_true, y_pred, labels=CLASSES, **kwargs)
    assert sum(parts).score(measure) == pytest.approx(expected, rel=1e-12, abs=1e-14)


@score_measures
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weighted", [False, True])
def test_ranking_measure_of_merged_chunks_is_the_whole(name, seed, weighted):
    y_true, y_score = _random_scores(seed, n=80)
    weight = _weights(len(y_true), seed) if weighted else None
    kwargs = {"sample_weight": weight} if weighted else {}
    measure = SCORE_MEASURES[name]
    parts = [
        ScoreTable.from_predictions(
            y_true[index],
            y_score[index],
            labels=CLASSES,
            sample_weight=None if weight is None else weight[index],
        )
        for index in _chunks(len(y_true), seed)
    ]
    expected = measure(y_true, y_score, labels=CLASSES, **kwargs)
    assert sum(parts).score(measure) == pytest.approx(expected, rel=1e-12, abs=1e-14)


def test_unweighted_chunks_add_exactly():
    y_true, y_score = _random_scores(0, n=80)
    halves = [slice(0, 40), slice(40, None)]
    merged = sum(ScoreTable.from_predictions(y_true[h], y_score[h], labels=CLASSES) for h in halves)
    whole = ScoreTable.from_predictions(y_true, y_score, labels=CLASSES)
    assert merged.table.dtype.kind == "i"
    np.testing.assert_array_equal(merged.thresholds, whole.thresholds)
    np.testing.assert_array_equal(merged.table, whole.table)
    assert merged.score(vus_score, ties="strict") == vus_score(y_true, y_score, ties="strict")


def test_weights_are_the_confusion_matrix():
    y_true, y_pred = _random_labels(0)
    weight = _weights(len(y_true), 0)
    confusion = OrdinalConfusion.from_predictions(y_true, y_pred, sample_weight=weight)
    np.testing.assert_array_equal(
        confusion.weights, ordinal_confusion_matrix(y_true, y_pred, sample_weight=weight)
    )
    first = OrdinalConfusion.from_predictions(y_true[:30], y_pred[:30], labels=CLASSES,
                                              sample_weight=weight[:30])
    second = OrdinalConfusion.from_predictions(y_true[30:], y_pred[30:], labels=CLASSES,
                                               sample_weight=weight[30:] * 1e6)
    expected = ordinal_confusion_matrix(
        y_true, y_pred, sample_weight=np.r_[weight[:30], weight[30:] * 1e6]
    )
    np.testing.assert_allclose((first + second).weights, expected, rtol=1e-12)


@pytest.mark.parametrize("intermediate", [OrdinalConfusion, ScoreTable])
@pytest.mark.parametrize("tiny_first", [False, True])
def test_chunks_whose_weights_float64_cannot_hold_together_are_refused(intermediate, tiny_first):
    # Each chunk divides its weights by its own power of two; on the common scale a
    # weight of 1e-300 next to 1e300 would count as zero. One array of those weights
    # is refused (sample_weight spans more than float64 can hold), so chunks are too.
    y_true, y_pred = np.array([0, 1, 2, 3]), np.array([0.5, 1.0, 2.5, 3.0])
    if intermediate is OrdinalConfusion:
        y_pred = y_pred.round().astype(int)
    huge = intermediate.from_predictions(y_true, y_pred, labels=CLASSES,
                                         sample_weight=[1e300] * 4)
    tiny = intermediate.from_predictions(y_true, y_pred[::-1], labels=CLASSES,
                                         sample_weight=[1e-300] * 4)
    first, second = (tiny, huge) if tiny_first else (huge, tiny)
    with pytest.raises(ValueError, match="spans? more than float64 can hold"):
        first + second
    with pytest.raises(ValueError, match="spans? more than float64 can hold"):
        macro_mean_absolute_error(np.r_[y_true, y_true], np.r_[y_true, y_true[::-1]],
                            sample_weight=[1e300] * 4 + [1e-300] * 4)
    # 1e-10 next to 1e300 is held: its items count.
    small = intermediate.from_predictions(y_true, y_pred[::-1], labels=CLASSES,
                                          sample_weight=[1e-10] * 4)
    merged = huge + small
    total = merged.weights.sum() if intermediate is ScoreTable else merged.matrix.sum()
    assert total * 2.0**merged.weight_exponent == 4e300 + 4e-10


def test_ordered_categorical_chunks_share_their_categories():
    import pandas as pd

    names = ["poor", "fair", "good"]
    y_true = pd.Categorical(["poor", "good", "fair", "good"], categories=names, ordered=True)
    y_pred = pd.Categorical(["fair", "good", "fair", "poor"], categories=names, ordered=True)
    parts = [OrdinalConfusion.from_predictions(y_true[i:i + 2], y_pred[i:i + 2]) for i in (0, 2)]
    assert sum(parts).score(macro_mean_absolute_error) == macro_mean_absolute_error(y_true, y_pred)


def test_chunks_of_different_classes_do_not_add():
    first = OrdinalConfusion.from_predictions([0, 1], [0, 1])
    second = OrdinalConfusion.from_predictions([0, 2], [0, 2])
    with pytest.raises(ValueError, match=r"different classes \(\[0, 1\] and \[0, 2\]\).*labels="):
        first + second
    first = ScoreTable.from_predictions([0, 1], [0.1, 0.2])
    second = ScoreTable.from_predictions([0, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match="different classes"):
        first + second
    first = OrdinalConfusion.from_predictions([0, 1], [0, 1], class_values=[0, 1])
    second = OrdinalConfusion.from_predictions([0, 1], [0, 1], class_values=[0, 5])
    with pytest.raises(ValueError, match="class values differ"):
        first + second


def test_score_refuses_what_it_cannot_compute():
    confusion = OrdinalConfusion.from_predictions([0, 1], [0, 1])
    with pytest.raises(ValueError, match="'vus_score' is not a label measure"):
        confusion.score(vus_score)
    with pytest.raises(ValueError, match="'class_proximity' is not a label measure"):
        confusion.score(class_proximity)
    table = ScoreTable.from_predictions([0, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match="'mean_absolute_error' is not a ranking measure"):
        table.score(mean_absolute_error)


def test_a_class_missing_from_every_chunk_warns_when_scored():
    from sklearn.exceptions import UndefinedMetricWarning

    table = ScoreTable.from_predictions([0, 1], [0.1, 0.2], labels=[0, 1, 2])
    with pytest.warns(UndefinedMetricWarning, match=r"classes \[2\] have no true item"):
        assert table.score(vus_score) == 1.0
