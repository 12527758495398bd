"""Label measures of many systems and test cases from one batched pass.

A meta-evaluation scores every system on every test case: thousands of small data
sets. A label measure is a function of the confusion matrix, and the measures of
this package take a whole stack of matrices at once, so all the matrices are
counted with one ``np.bincount`` and every measure is one NumPy pass over the
stack, instead of one validated call per (system, test case).

Each call of a measure on one (system, test case) infers its class set from the
labels of that pair, unless ``labels`` are given; some measures depend on it
(class positions, the extreme classes, which classes warn). So the matrices are
grouped by the set of classes they hold, and each group is scored over its own
class set: exactly the numbers, NaNs and warnings of the calls one by one, with
one warning per kind of undefined case instead of one per matrix.
"""

import warnings
import numpy as np

from .._blocks import _MAX_DIRECT_SPAN
from .._confusion import OrdinalConfusion
from .._validation import _check_1d_labels, _class_values, _classes_and_codes, _is_real_valued
from .._records import unwrap_partial
from .._confusion import _matrices_warning
from ..metrics._registry import confusion_kernels
from .._warnings import warn_user

# Cells of confusion matrices counted by one bincount (32 MB of float64): the systems
# are scored in chunks of this size, so memory does not grow with their number.
_MAX_CELLS = 2**22

# Arguments of a measure that the batched path takes into the matrices themselves.
_DATA_ARGUMENTS = ("labels", "class_values")


def _batched_form(measure):
    """``(from_confusion, keywords, labels, class_values)`` of a label measure of this
    package (or a ``functools.partial`` of one), or None for any other callable or for
    arguments the matrices cannot hold (item weights; class values without labels,
    whose length would have to match each pair's own class set)."""
    base, keywords = unwrap_partial(measure)
    try:
        from_confusion = confusion_kernels().get(base)
    except TypeError:  # an unhashable callable is no measure of this package
        return None
    if from_confusion is None or "sample_weight" in keywords:
        return None
    labels, class_values = (keywords.pop(name, None) for name in _DATA_ARGUMENTS)
    if class_values is not None and labels is None:
        return None
    return from_confusion, keywords, labels, class_values


def _codes(y_true, y_pred, labels):
    """``(classes, true_codes, pred_codes)`` of all the pairs at once, in the shapes of
    ``y_true`` and ``y_pred``; None when the predictions are a regressor's real values
    (which only the per-call path measures)."""
    flat_true = _check_1d_labels(y_true.ravel(), "y_true")
    flat_pred = _check_1d_labels(y_pred.ravel(), "y_pred")
    if flat_pred.dtype.kind == "f" and _is_real_valued(flat_pred, flat_true, labels):
        return None
    if labels is None and flat_true.dtype.kind in "iu" and flat_pred.dtype.kind in "iu":
        low = min(int(flat_true.min()), int(flat_pred.min()))
        high = max(int(flat_true.max()), int(flat_pred.max()))
        if low >= 0 and high < _MAX_DIRECT_SPAN:
            # Small non-negative integers are their own codes; absent ones drop out
            # with each pair's class set.
            dtype = np.result_type(flat_true.dtype, flat_pred.dtype)
            return np.arange(high + 1, dtype=dtype), y_true, y_pred
    classes, true_codes, pred_codes = _classes_and_codes(
        flat_true, flat_pred, labels, need_order=False, measure=None
    )
    return classes, true_codes.reshape(y_true.shape), pred_codes.reshape(y_pred.shape)


def _confusion_stack(true_codes, pred_codes, n_classes):
    """The matrices of every (system, test case) of ``pred_codes`` by one bincount:
    shape ``(n_systems * n_test_cases, K, K)``, in the order of the pairs."""
    n_systems, n_test_cases, _ = pred_codes.shape
    cells = n_classes * n_classes
    # ((system * T + case) * K + true) * K + pred
    index = (np.arange(n_test_cases)[:, np.newaxis] * n_classes + true_codes) * n_classes
    index = index + pred_codes
    index += (np.arange(n_systems) * (n_test_cases * cells))[:, np.newaxis, np.newaxis]
    counts = np.bincount(index.ravel(), minlength=n_systems * n_test_cases * cells)
    return counts.astype(np.float64).reshape(-1, n_classes, n_classes)


def _values(classes, class_values):
    """The class values each pair's own call would compute for ``classes``.

    Measures that read no values compute none, and some class sets have none
    (numeric ``labels`` in a custom order); those measures get positions, unused.
    """
    try:
        return _class_values(classes, class_values)
    except ValueError:
        return np.arange(len(classes), dtype=np.float64)


def _class_sets(matrices, classes, labels, class_values):
    """``(pairs, confusion)`` for each group of matrices that share a class set.

    With ``labels`` every pair has the same class set; without, it is the classes
    that occur in the pair (in its true or in its predicted labels).
    """
    if labels is not None:
        yield slice(None), OrdinalConfusion(classes, _values(classes, class_values), matrices)
        return
    # Counts are non-negative, so a class is present where its row or column adds up
    # to more than 0, in any order of summation: einsum's is 4x faster than np.sum's
    # over the short rows of a stack.
    present = (np.einsum("...ij->...i", matrices) + np.einsum("...ij->...j", matrices)) > 0
    if len(classes) < 63:
        # A number per class set (its bits): sorting numbers is faster than rows.
        keys = present.dot(1 << np.arange(len(classes), dtype=np.int64))
    else:
        keys = np.unique(present, axis=0, return_inverse=True)[1].ravel()
    keys, first, group = np.unique(keys, return_index=True, return_inverse=True)
    for g in range(len(keys)):
        pairs = np.flatnonzero(group == g)
        pattern = present[first[g]]
        own = classes[pattern]
        # Every class present (the common case): no need to index the classes.
        held = matrices[pairs] if pattern.all() else matrices[np.ix_(pairs, pattern, pattern)]
        yield pairs, OrdinalConfusion(own, _values(own, None), held)


def _merge_warnings(caught, n_pairs, classes):
    """Warn once per kind of undefined case over all the pairs (the groups each warned
    for their own matrices), and once per distinct other warning."""
    merged, others = {}, {}
    for record in caught:
        parts = getattr(record.message, "parts", None)
        if parts is None:
            others.setdefault((record.category, str(record.message)), record.message)
            continue
        template, n_affected, _, named = parts
        count, union = merged.setdefault(template, [0, set()])
        merged[template] = [count + (n_affected or 1), union | set(named or ())]
    for template, (count, union) in merged.items():
        named = [label for label in classes.tolist() if label in union] if union else None
        warn_user(_matrices_warning(template, count, n_pairs, named))
    for message in others.values():
        warn_user(message)


def _score_batched(forms, y_true, y_pred):
    """``{name: scores of shape (n_systems, n_test_cases)}`` for batched ``forms``
    (``{name: (from_confusion, keywords, labels, class_values)}``) sharing ``labels``;
    None when the labels are a regressor's real values."""
    labels, class_values = next(iter(forms.values()))[2:]
    codes = _codes(y_true, y_pred, labels)
    if codes is None:
        return None
    classes, true_codes, pred_codes = codes
    n_systems, n_test_cases, _ = y_pred.shape
    n_pairs = n_systems * n_test_cases
    chunk = max(1, _MAX_CELLS // (n_test_cases * len(classes) ** 2))
    scores = {name: np.empty(n_pairs) for name in forms}
    caught = {name: [] for name in forms}
    for start in range(0, n_systems, chunk):
        matrices = _confusion_stack(true_codes, pred_codes[start : start + chunk], len(classes))
        chunk_scores = {name: value[start * n_test_cases :][: len(matrices)]
                        for name, value in scores.items()}
        for pairs, confusion in _class_sets(matrices, classes, labels, class_values):
            for name, (from_confusion, keywords, _, _) in forms.items():
                with warnings.catch_warnings(record=True) as records:
                    warnings.simplefilter("always")
                    chunk_scores[name][pairs] = from_confusion(confusion, **keywords)
                caught[name].extend(records)
    for name in forms:
        _merge_warnings(caught[name], n_pairs, classes)
    return {name: value.reshape(n_systems, n_test_cases) for name, value in scores.items()}
