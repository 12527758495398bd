"""The weights of the weighted agreement coefficients: how much two values agree.

Gwet (2014, chapter 3) weighs the agreement of two annotators who gave the values
``k`` and ``l`` by ``w_kl`` in [0, 1], 1 on the diagonal; identity weights give
the unweighted coefficients. The named weights are those of irrCAC, computed from
the values themselves when they are numbers and from their positions 1, ..., K in
the order ``labels`` gives when they are text (text values in order are equally
spaced, as everywhere in the package).
"""

import numpy as np

WEIGHTS = ("identity", "linear", "quadratic", "ordinal", "radical", "ratio")


def _scale(classes):
    """The numbers the weights read: the values, or the positions of text values."""
    if classes.dtype.kind in "biuf":
        return classes.astype(np.float64)
    return np.arange(1, len(classes) + 1, dtype=np.float64)


def agreement_weights(weights, classes, ordered):
    """The ``(K, K)`` weight matrix ``weights`` names (or checks) for ``classes``.

    Refuses an ordered weighting of text values whose order is unknown, and a
    custom matrix of the wrong shape or with values outside [0, 1] or a diagonal
    other than 1, naming the fix.
    """
    k = len(classes)
    if not isinstance(weights, str):
        matrix = np.asarray(weights, dtype=np.float64)
        if matrix.shape != (k, k):
            raise ValueError(
                f"weights is a matrix of shape {matrix.shape}, but the ratings have {k} "
                f"values ({_shown(classes)}); give a ({k}, {k}) matrix, one row and "
                "column per value in order, or list every value in labels=[...]."
            )
        if not np.isfinite(matrix).all() or (matrix < 0).any() or (matrix > 1).any():
            raise ValueError("weights must hold numbers in [0, 1] (1 = full agreement).")
        if not np.all(np.diag(matrix) == 1):
            raise ValueError(
                "weights must have 1 on its diagonal: two annotators who give the same "
                "value agree fully."
            )
        if k > 1 and not ordered:
            raise ValueError(_NO_ORDER.format(what="a custom weights matrix"))
        return matrix
    if weights not in WEIGHTS:
        raise ValueError(f"weights={weights!r} is not one of {', '.join(WEIGHTS)} or a "
                         "(K, K) matrix.")
    if weights == "identity" or k == 1:
        return np.eye(k)
    if not ordered:
        raise ValueError(_NO_ORDER.format(what=f"weights={weights!r}"))
    if weights == "ordinal":
        # Gwet's ordinal weights: 1 - C(m_kl, 2) / C(K, 2), m_kl = |k - l| + 1
        # values from k to l, whatever the values are.
        positions = np.arange(k, dtype=np.float64)
        span = np.abs(positions[:, np.newaxis] - positions[np.newaxis, :]) + 1
        pairs = span * (span - 1) / 2
        return 1 - pairs / pairs.max()
    x = _scale(classes)
    difference = x[:, np.newaxis] - x[np.newaxis, :]
    width = x.max() - x.min()
    if weights == "linear":
        return 1 - np.abs(difference) / width
    if weights == "quadratic":
        return 1 - difference**2 / width**2
    if weights == "radical":
        return 1 - np.sqrt(np.abs(difference)) / np.sqrt(width)
    # ratio
    if (x < 0).any():
        raise ValueError(
            f"weights='ratio' needs values that are not negative (a true zero); got "
            f"{_shown(classes)}. Choose weights='quadratic' or 'linear'."
        )
    total = x[:, np.newaxis] + x[np.newaxis, :]
    ratio = np.divide(difference, total, out=np.zeros_like(difference), where=total != 0)
    largest = width / (x.max() + x.min())
    return 1 - ratio**2 / largest**2


_NO_ORDER = (
    "reliability_data holds text values, whose order cannot be guessed (sorting them "
    "alphabetically would put 'high' before 'low'), and {what} depends on the order of "
    "the values. Give the order with labels=[...] (lowest value first), or choose "
    "weights='identity'."
)


def _shown(classes):
    shown = ", ".join(str(value) for value in classes[:8])
    return shown + (" ..." if len(classes) > 8 else "")
