"""Every trivial classifier's score from the class counts: by the closed form of the
measure's registry record (``trivial_scores``,
:mod:`sklearn_ordinal.metrics._trivial_closed_forms` for the formulas), or else by
scoring each of the K one-column confusion matrices.
"""

import numpy as np

from .._confusion import OrdinalConfusion
from .._records import unwrap_partial
from ..metrics._registry import records

# {function of the confusion matrix: closed form of its trivial classifiers}, read
# from the registry records. An index by kernel because a fit holds the kernel of its
# scorer's function, and one kernel serves several records (the kappas): a partial in
# a record fixes the same keywords on both sides, so the bare functions pair up. A
# closed form takes the class counts, the class values and the kernel's keyword
# arguments and returns ``(scores, warns)``: the measure for every trivial classifier
# and for which of them the measure warns (a bool for all).
_CLOSED_FORMS = {
    unwrap_partial(record.from_confusion)[0]: unwrap_partial(record.trivial_scores)[0]
    for record in records()
    if record.trivial_scores is not None
}


def _closed_form_scores(from_confusion, counts, values, **kwargs):
    """``(scores, warns)`` of every trivial classifier by the closed form, or None.

    ``from_confusion`` is a function of the confusion matrix (or a partial of one),
    ``kwargs`` its keyword arguments; ``warns`` is a bool array: for which trivial
    classifiers the measure warns.
    """
    function, keywords = unwrap_partial(from_confusion)
    closed_form = _CLOSED_FORMS.get(function)
    if closed_form is None:
        return None
    counts = np.asarray(counts, dtype=np.float64)
    scores, warns = closed_form(counts, values, **keywords, **kwargs)
    return np.asarray(scores, dtype=np.float64), np.broadcast_to(warns, counts.shape)


def _trivial_confusion(classes, values, counts, position):
    """The confusion of the trivial classifier that predicts ``classes[position]``."""
    matrix = np.zeros((len(classes), len(classes)))
    matrix[:, position] = counts
    return OrdinalConfusion(classes, values, matrix)


def _loop_scores(from_confusion, classes, values, counts, **kwargs):
    """Every trivial classifier scored on its own confusion matrix: ``K x O(K^2)``.

    The reference for the closed forms, and the way to score a measure that has none
    (each call raises the measure's warnings).
    """
    return np.array(
        [
            from_confusion(_trivial_confusion(classes, values, counts, k), **kwargs)
            for k in range(len(classes))
        ],
        dtype=np.float64,
    )
