"""Ranking measures for ordinal regression: VUS and its pairwise approximations.

Waegeman, De Baets and Boullart (2008) judge the single score ``f(x)`` of an ordinal
model by how well it *ranks* the items, whatever thresholds later turn the score
into a class (``SPEC.md`` section 3). Every measure here is a function of one small
intermediate, the *score table* ``W``: ``W[k, g]`` the weight of the items of class
``k`` whose score is the ``g``-th smallest distinct score, from one sort of the scores
(or one hashing of them, when they repeat a lot).

- VUS walks the table once, carrying for each class ``k`` the weight of the
  correctly ordered chains ``c_1 < ... < c_k`` seen so far (never enumerating tuples).
- U_pairs and U_ovo come from one ``r x r`` matrix of ordered pair weights, itself
  one product of the table with its running sums.
- U_cons comes from the rank sums of the classes, one running sum for all splits.
"""

import warnings
from numbers import Integral
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.exceptions import UndefinedMetricWarning
from .._compat import Interval, StrOptions, validate_params
from .._labels import (
    _any_dask,
    _check_same_classes,
    _common_scale,
    _unwrap_measure,
    check_scored_targets,
)

_RANKING_CONSTRAINTS = {
    "y_true": ["array-like"],
    "y_score": ["array-like"],
    "labels": ["array-like", None],
    "sample_weight": ["array-like", None],
    "ties": [StrOptions({"average", "strict"})],
}

# Scores are grouped by hashing when a regular sample of this size has at most this
# share of distinct values (hashing is then ~3x faster than sorting), else by sorting.
_SCORE_SAMPLE_SIZE = 4096
_MAX_DISTINCT_SHARE_TO_HASH = 0.25

# Share of a tied pair counted as correctly ordered, per tie policy.
_TIED_PAIR_CREDIT = {"average": 0.5, "strict": 0.0}


def _check_scores(y_score):
    """Return ``y_score`` as a 1-D array of finite numbers, or raise a ValueError."""
    y_score = np.asarray(y_score)
    if y_score.ndim != 1:
        raise ValueError(
            f"y_score must be 1-D, one real score per item (higher meaning a higher "
            f"class); got shape {y_score.shape}. Reduce class probabilities to one "
            "score first, e.g. the expected class position proba @ np.arange(n_classes)."
        )
    if y_score.dtype.kind == "O":
        if pd.isna(y_score).any():
            raise ValueError("y_score contains missing values (NaN or None).")
        try:
            y_score = y_score.astype(np.float64)
        except (TypeError, ValueError):
            pass
    if y_score.dtype.kind not in "biuf":
        raise ValueError(f"y_score must hold real numbers; got dtype {y_score.dtype}.")
    if y_score.dtype.kind == "f" and not np.isfinite(y_score).all():
        if np.isnan(y_score).any():
            raise ValueError("y_score contains NaN; every item needs a finite score.")
        raise ValueError("y_score contains infinity; every item needs a finite score.")
    return y_score


class ScoreTable(NamedTuple):
    r"""Weights per class and distinct score: what every ranking measure reads.

    ``table[k, g]`` is the weight of the items of class ``classes[k]`` scored
    ``thresholds[g]``. :func:`vus_score`, :func:`u_pairs_score`,
    :func:`u_ovo_score` and :func:`u_cons_score` turn their inputs into this table,
    then compute from it alone. The table of a union of data sets is the union of
    their distinct scores with the weights added, so a large data set can be
    scored chunk by chunk: build one table per chunk with :meth:`from_predictions`,
    add them with ``+`` (or ``sum()``), and call :meth:`score`. It has one column
    per distinct score: scores with many distinct values (continuous scores) make
    a table as large as the data, scores rounded to a few levels a small one.

    The class set must be the same in every chunk: give it with ``labels=`` (or
    ordered ``Categorical`` targets with the same categories). A class with no true
    item in any chunk is left out with a warning when scoring, as in memory.

    Read more in the :ref:`User Guide <chunks>`.

    Parameters
    ----------
    classes : ndarray of shape (n_classes,)
        The class labels, in class order.
    thresholds : ndarray of shape (n_scores,)
        The distinct scores, increasing.
    table : ndarray of shape (n_classes, n_scores)
        The weights, divided by ``2 ** weight_exponent`` (which changes no measure);
        integer counts without weights.
    weight_exponent : int
        ``table * 2 ** weight_exponent`` holds the weights' own sums.

    See Also
    --------
    OrdinalConfusion : The same for the label measures.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import ScoreTable, vus_score
    >>> first = ScoreTable.from_predictions([0, 1, 2], [0.1, 0.4, 0.3], labels=[0, 1, 2])
    >>> second = ScoreTable.from_predictions([0, 1, 2], [0.2, 0.5, 0.6], labels=[0, 1, 2])
    >>> (first + second).score(vus_score)
    0.5
    >>> vus_score([0, 1, 2, 0, 1, 2], [0.1, 0.4, 0.3, 0.2, 0.5, 0.6])
    0.5
    """

    classes: np.ndarray
    thresholds: np.ndarray
    table: np.ndarray
    weight_exponent: int = 0

    @classmethod
    def from_predictions(cls, y_true, y_score, *, labels=None, sample_weight=None):
        """The score table of one data set (or chunk), validated as every measure does.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True ordinal labels.
        y_score : array-like of shape (n_samples,)
            One real score per item, higher meaning a higher class.
        labels : array-like of shape (n_classes,), default=None
            The classes in order. Give it when the data come in chunks, since a
            chunk may lack a class.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative item weights.

        Returns
        -------
        table : ScoreTable
            The classes, the distinct scores and the weight of each pair.

        Examples
        --------
        >>> from sklearn_ordinal.metrics import ScoreTable
        >>> table = ScoreTable.from_predictions([0, 0, 1, 2], [0.1, 0.5, 0.5, 0.9])
        >>> table.thresholds.tolist(), table.table.tolist()
        ([0.1, 0.5, 0.9], [[1, 1, 0], [0, 1, 0], [0, 0, 1]])
        """
        return _build_score_table(y_true, y_score, labels, sample_weight, "ScoreTable")

    def __add__(self, other):
        if not isinstance(other, ScoreTable):
            return NotImplemented
        _check_same_classes(self, other, "ScoreTable")
        exponent, (first, second) = _common_scale(self, other, "table")
        thresholds = np.union1d(self.thresholds, other.thresholds)
        table = np.zeros((len(self.classes), len(thresholds)), np.result_type(first, second))
        table[:, np.searchsorted(thresholds, self.thresholds)] += first
        table[:, np.searchsorted(thresholds, other.thresholds)] += second
        return ScoreTable(self.classes, thresholds, table, exponent)

    def __radd__(self, other):
        # sum(tables) starts from 0.
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented

    def score(self, measure, **kwargs):
        """A ranking measure of the data, computed from the table alone.

        Parameters
        ----------
        measure : callable
            :func:`vus_score`, :func:`u_pairs_score`, :func:`u_ovo_score` or
            :func:`u_cons_score`, or a ``functools.partial`` of one.
        **kwargs
            The measure's own parameters (``ties``); ``labels`` and
            ``sample_weight`` are already in the table.

        Returns
        -------
        score : float
            ``measure(y_true, y_score, ...)`` on the data of the table.

        Examples
        --------
        >>> from sklearn_ordinal.metrics import ScoreTable, vus_score
        >>> first = ScoreTable.from_predictions([0, 1], [0.1, 0.4], labels=[0, 1, 2])
        >>> second = ScoreTable.from_predictions([2, 1], [0.9, 0.3], labels=[0, 1, 2])
        >>> (first + second).score(vus_score)
        1.0
        """
        function, keywords = _unwrap_measure(measure)
        from_table = _FROM_TABLE.get(function)
        if from_table is None:
            raise ValueError(
                f"{getattr(measure, '__name__', measure)!r} is not a ranking measure of "
                "sklearn_ordinal.metrics; label measures are computed from an "
                "OrdinalConfusion."
            )
        _, _, table = _present_classes(self, function.__name__, stacklevel=3)
        return float(from_table(table, **{**keywords, **kwargs}))


def _build_score_table(y_true, y_score, labels, sample_weight, measure):
    """Validate the inputs and build the :class:`ScoreTable` of every class."""
    if _any_dask(y_true, y_score, sample_weight):
        from .._dask import dask_score_table

        return dask_score_table(y_true, y_score, labels, sample_weight, measure)
    y_score = _check_scores(y_score)
    classes, codes, y_score, sample_weight, exponent = check_scored_targets(
        y_true, y_score, labels=labels, sample_weight=sample_weight, measure=measure
    )
    group, thresholds, order = _group_by_score(y_score)
    if order is not None:
        codes = codes[order]
        sample_weight = None if sample_weight is None else sample_weight[order]
    cell = codes * len(thresholds)
    cell += group
    # Integer counts stay integers (exact) until a measure divides them.
    table = np.bincount(cell, weights=sample_weight, minlength=len(classes) * len(thresholds))
    table = table.reshape(len(classes), len(thresholds))
    return ScoreTable(classes, thresholds, table, exponent)


def _present_classes(score_table, measure, stacklevel):
    """``(classes, thresholds, table)`` of the classes with a true item.

    A class in ``labels`` with no true item (or zero total weight) is left out with
    a warning; fewer than two classes left is a ValueError.
    """
    classes, thresholds, table, _ = score_table
    present = table.sum(axis=1) > 0
    if present.sum() < 2:
        raise ValueError(
            f"{measure} needs items of at least two classes to rank; y_true has only "
            f"class {classes[present].tolist()}."
        )
    if not present.all():
        warnings.warn(
            f"{measure}: classes {classes[~present].tolist()} have no true item "
            "(or zero total weight); they are left out.",
            UndefinedMetricWarning,
            stacklevel=stacklevel + 1,
        )
        classes, table = classes[present], table[present]
    return classes, thresholds, table


def _score_table(y_true, y_score, labels, sample_weight, measure):
    """Validate the inputs and build the score table of the classes present.

    Returns ``(classes, thresholds, table)``: the ``r`` present classes in order,
    the ``G`` distinct scores in increasing order, and the ``(r, G)`` array
    ``table[k, g]``, the weight of the items of class ``classes[k]`` scored
    ``thresholds[g]`` (one row per class, so that the per-class running sums run
    over contiguous memory). A class in ``labels`` with no true item (or zero total
    weight) is left out with a warning.
    """
    score_table = _build_score_table(y_true, y_score, labels, sample_weight, measure)
    return _present_classes(score_table, measure, stacklevel=4)


def _group_by_score(y_score):
    """Index of every item's score among the distinct scores, in increasing order.

    Returns ``(group, thresholds, order)``: ``thresholds`` the distinct scores,
    increasing, and ``group[i]`` the index in it of the score of item ``order[i]``
    (of item ``i`` when ``order`` is None). Scores that repeat a lot, as rounded
    scores or ``predict_proba`` of a few leaves do, are grouped by hashing and
    only the few distinct ones sorted; other scores by one sort. A regular sample
    of the scores decides; either way the result is the same.
    """
    sample = y_score[:: max(1, len(y_score) // _SCORE_SAMPLE_SIZE)]
    if len(np.unique(sample)) <= _MAX_DISTINCT_SHARE_TO_HASH * len(sample):
        codes, distinct = pd.factorize(y_score)
        order = np.argsort(distinct)
        rank = np.empty(len(distinct), dtype=np.intp)
        rank[order] = np.arange(len(distinct))
        return rank[codes], distinct[order], None
    order = np.argsort(y_score)
    sorted_scores = y_score[order]
    # A running count of the steps up between neighbours in score order.
    steps_up = np.empty(len(order), dtype=bool)
    steps_up[0] = False
    np.not_equal(sorted_scores[1:], sorted_scores[:-1], out=steps_up[1:])
    group = np.cumsum(steps_up)
    steps_up[0] = True
    return group, sorted_scores[steps_up], order


def _class_pair_aucs(table, ties):
    """``(aucs, sizes)``: AUC of class l against class k, and ``n_k n_l``, for k < l.

    From the matrix of ordered pair weights, ``pairs[k, l]``: the weight of the
    pairs (class k item, class l item) with the class k item ranked below, a pair
    weighing the product of its items' weights and a tied pair counting
    ``_TIED_PAIR_CREDIT[ties]`` of its weight.
    """
    table = table.astype(np.float64, copy=False)
    below = np.cumsum(table, axis=1)
    below -= (1.0 - _TIED_PAIR_CREDIT[ties]) * table
    pairs = below @ table.T
    n = table.sum(axis=1)
    upper = np.triu_indices(len(n), k=1)
    sizes = np.outer(n, n)[upper]
    return pairs[upper] / sizes, sizes


def _split_aucs(table, ties):
    """AUC of the classes above each split ``k`` against those at or below it.

    From rank sums, as Mann and Whitney do, so that one running sum serves every
    split: with the mid-rank ``rho_g`` of a score (weight below it plus half the
    weight at it), the upper items of split ``k``, of total weight ``U_k``, hold
    ``sum_{i upper} w_i rho_i = (pairs ranked lower < upper) + U_k^2 / 2`` under
    ``ties="average"``. ``"strict"`` then takes back the half credit of the pairs
    tied across the split.
    """
    at_score = table.sum(axis=0)
    mid_rank = np.cumsum(at_score)
    mid_rank -= 0.5 * at_score
    upper_rank_sum = np.cumsum((table @ mid_rank)[::-1])[::-1][1:]
    n = table.sum(axis=1)
    upper = np.cumsum(n[::-1])[::-1][1:]
    lower = n.sum() - upper
    ordered = upper_rank_sum - 0.5 * upper**2
    if ties == "strict":
        lower_at_score = np.cumsum(table[:-1], axis=0)
        ordered -= 0.5 * np.einsum("kg,kg->k", lower_at_score, at_score - lower_at_score)
    return ordered / (lower * upper)


def _vus(table, ties="average"):
    """Volume under the ROC surface, by one pass over the score table.

    After class ``k``, ``chains[g]`` is the normalised weight of the correctly
    ordered chains of the first ``k + 1`` classes that end at or below the ``g``-th
    distinct score; a class ``k + 1`` item at score ``g`` extends those ending
    strictly below it. Under ``ties="average"`` a chain may also end in a block of
    ``m`` consecutive classes tied at one score, which counts ``1 / m!``; only
    scores shared by two classes can hold a block, so that work is confined to
    them. Class weights are divided by ``n_k`` first, so every count is a fraction
    of ``prod_k n_k`` and stays in [0, 1] however large the data.
    """
    n_classes, n_groups = table.shape
    scale = 1.0 / table.sum(axis=1)
    shared = np.empty(0, dtype=np.intp)
    # With no empty column (as every table built here has; a resampled one must drop
    # its empty columns first), a score shared by two classes means more non-zero
    # cells than columns: the per-column count is skipped when none is.
    if ties == "average" and np.count_nonzero(table) > n_groups:
        shared = np.flatnonzero(np.count_nonzero(table, axis=0) > 1)
    share_shared = table[:, shared] * scale[:, np.newaxis]
    # before_shared[j]: chains of the first j classes ending below each shared score.
    before_shared = [np.ones(shared.size)]
    # Two buffers reused for every class: fresh arrays of n_groups would each
    # cost page faults comparable to the arithmetic.
    ends = np.multiply(table[0], scale[0], dtype=np.float64)
    chains = np.empty(n_groups)
    for k in range(1, n_classes):
        np.cumsum(ends, out=chains)
        before_shared.append(np.where(shared > 0, chains[shared - 1], 0.0))
        ends[0] = 0.0
        np.multiply(chains[:-1], table[k, 1:], out=ends[1:])
        ends *= scale[k]
        if shared.size:
            # block: weight of the blocks of classes k - m + 1 .. k tied at each
            # shared score, times 1 / m!; it dies out once a class is missing there.
            block = share_shared[k]
            tied_ends = np.zeros(shared.size)
            for m in range(2, k + 2):
                block = block * share_shared[k - m + 1] / m
                if not block.any():
                    break
                tied_ends += before_shared[k - m + 1] * block
            ends[shared] += tied_ends
    return float(ends.sum())


def _u_pairs(table, ties="average"):
    aucs, sizes = _class_pair_aucs(table, ties)
    return float(np.average(aucs, weights=sizes))


def _u_ovo(table, ties="average"):
    aucs, _ = _class_pair_aucs(table, ties)
    return float(np.mean(aucs))


def _u_cons(table, ties="average"):
    return float(np.mean(_split_aucs(table.astype(np.float64, copy=False), ties)))


@validate_params(_RANKING_CONSTRAINTS, prefer_skip_nested_validation=True)
def vus_score(y_true, y_score, *, labels=None, sample_weight=None, ties="average"):
    r"""Volume under the ordinal ROC surface (VUS).

    The fraction of the tuples that take one item from each of the :math:`r`
    classes present, in class order, whose scores are strictly increasing
    (Waegeman et al., eq. 8):

    .. math::

        \hat U(f, D) = \frac{1}{\prod_{k=1}^r n_k}
            \sum_{y_{j_1} < \dots < y_{j_r}} w_{j_1} \cdots w_{j_r} \,
            I_{f(x_{j_1}) < \dots < f(x_{j_r})}

    with :math:`n_k` the weight of the items of class :math:`c_k`. It estimates the
    probability that one random item of each class is ranked in class order, and
    equals the volume under the :math:`r`-dimensional ROC surface (Theorem 3.1). A
    random ranking scores :math:`1/r!` on average, a perfect one 1. With two
    classes it is ROC AUC.

    It is computed exactly in :math:`O(n \log n + G r^2)` time for :math:`G`
    distinct scores: one sort, then one pass that carries, for each class, the
    weight of the correctly ordered chains ending so far.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_score : array-like of shape (n_samples,)
        One real score per item, higher meaning a higher class, e.g. a
        ``decision_function`` or the expected class position under
        ``predict_proba``.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order. Default: the categories of an ordered
        ``Categorical`` ``y_true``, else the sorted labels of ``y_true``. A class
        with no true item is left out with a warning.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights; a tuple weighs the product of its items' weights.
    ties : {"average", "strict"}, default="average"
        ``"average"``: a tuple with non-decreasing scores whose equal scores form
        groups of sizes :math:`m_1, m_2, \dots` counts :math:`\prod_g 1/m_g!`, the
        chance that breaking the ties at random orders it correctly (so two classes
        give exactly :func:`sklearn.metrics.roc_auc_score`). ``"strict"``: only
        strictly increasing tuples count, as eq. 8 is written.

    Returns
    -------
    vus : float
        In [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If fewer than two classes have a true item, or ``y_score`` is not a finite
        1-D array of numbers as long as ``y_true``.

    Warns
    -----
    UndefinedMetricWarning
        When a class in ``labels`` has no true item: it is left out.

    See Also
    --------
    u_pairs_score : Fraction of correctly ordered pairs.
    u_ovo_score : Mean AUC over pairs of classes.
    u_cons_score : Mean AUC over the splits between consecutive classes.
    roc_surface : The ROC surface whose volume this is (three classes).

    References
    ----------
    .. [1] W. Waegeman, B. De Baets and L. Boullart, "ROC analysis in ordinal
       regression learning", Pattern Recognition Letters 29 (2008) 1-9, eq. (8).

    Examples
    --------
    >>> from sklearn_ordinal.metrics import vus_score
    >>> y_true = [0, 0, 1, 1, 2, 2]
    >>> vus_score(y_true, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    1.0
    >>> vus_score(y_true, [0.1, 0.4, 0.3, 0.2, 0.5, 0.6])
    0.5

    One tie between classes 0 and 1 counts half under the default policy:

    >>> vus_score(y_true, [0.1, 0.3, 0.3, 0.4, 0.5, 0.6])
    0.875
    >>> vus_score(y_true, [0.1, 0.3, 0.3, 0.4, 0.5, 0.6], ties="strict")
    0.75
    """
    _, _, table = _score_table(y_true, y_score, labels, sample_weight, "vus_score")
    return _vus(table, ties)


@validate_params(_RANKING_CONSTRAINTS, prefer_skip_nested_validation=True)
def u_pairs_score(y_true, y_score, *, labels=None, sample_weight=None, ties="average"):
    r"""Fraction of correctly ordered pairs of items from different classes.

    Over all pairs of items :math:`i, j` with :math:`y_i < y_j` (Waegeman et al.,
    eq. 16):

    .. math::

        \hat U_\mathrm{pairs}(f, D) = \frac{1}{\sum_{k < l} n_k n_l}
            \sum_{y_i < y_j} w_i w_j \, I_{f(x_i) < f(x_j)}

    It estimates the probability that of two random items from different classes
    the higher class gets the higher score (Theorem 3.2). It is the
    :math:`n_k n_l`-weighted mean of the pairwise AUCs (eq. 19), so large classes
    dominate it; on balanced data it equals :func:`u_ovo_score`. This is the
    C-index / concordance of the ranking with the classes, the quantity that
    preference-learning methods optimise, and the Jonckheere-Terpstra statistic
    divided by its maximum.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_score : array-like of shape (n_samples,)
        One real score per item, higher meaning a higher class.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order; a class with no true item is left out
        with a warning.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights; a pair weighs the product of its items' weights.
    ties : {"average", "strict"}, default="average"
        ``"average"``: a tied pair counts 1/2. ``"strict"``: it counts 0.

    Returns
    -------
    score : float
        In [0, 1]; higher is better, 1/2 for a random ranking.

    See Also
    --------
    vus_score, u_ovo_score, u_cons_score

    References
    ----------
    .. [1] W. Waegeman, B. De Baets and L. Boullart, "ROC analysis in ordinal
       regression learning", Pattern Recognition Letters 29 (2008) 1-9, eq. (16).

    Examples
    --------
    >>> from sklearn_ordinal.metrics import u_pairs_score
    >>> u_pairs_score([0, 0, 1, 1, 2, 2], [0.1, 0.4, 0.3, 0.2, 0.5, 0.6])
    0.833...
    """
    _, _, table = _score_table(y_true, y_score, labels, sample_weight, "u_pairs_score")
    return _u_pairs(table, ties)


@validate_params(_RANKING_CONSTRAINTS, prefer_skip_nested_validation=True)
def u_ovo_score(y_true, y_score, *, labels=None, sample_weight=None, ties="average"):
    r"""Mean, over all pairs of classes, of the AUC between the two classes.

    With :math:`\hat A_{kl}` the AUC of class :math:`c_l` against class :math:`c_k`
    (Waegeman et al., eq. 17):

    .. math::

        \hat U_\mathrm{ovo}(f, D) = \frac{2}{r(r-1)} \sum_{k < l} \hat A_{kl},
        \qquad
        \hat A_{kl} = \frac{1}{n_k n_l} \sum_{y_i = c_k} \sum_{y_j = c_l}
            w_i w_j \, I_{f(x_i) < f(x_j)}

    Every pair of classes weighs the same, whatever their sizes. (The paper calls
    this the Jonckheere-Terpstra statistic; strictly, that statistic sums the pair
    counts, so normalised it is :func:`u_pairs_score`. The two agree on balanced
    data.)

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_score : array-like of shape (n_samples,)
        One real score per item, higher meaning a higher class.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order; a class with no true item is left out
        with a warning.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.
    ties : {"average", "strict"}, default="average"
        ``"average"``: a tied pair counts 1/2. ``"strict"``: it counts 0.

    Returns
    -------
    score : float
        In [0, 1]; higher is better, 1/2 for a random ranking.

    See Also
    --------
    vus_score, u_pairs_score, u_cons_score

    References
    ----------
    .. [1] W. Waegeman, B. De Baets and L. Boullart, "ROC analysis in ordinal
       regression learning", Pattern Recognition Letters 29 (2008) 1-9, eq. (17).
    .. [2] D. J. Hand and R. J. Till, "A simple generalisation of the area under
       the ROC curve for multiple class classification problems", Machine Learning
       45 (2001) 171-186.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import u_ovo_score
    >>> u_ovo_score([0, 0, 1, 1, 2, 2], [0.1, 0.4, 0.3, 0.2, 0.5, 0.6])
    0.833...
    """
    _, _, table = _score_table(y_true, y_score, labels, sample_weight, "u_ovo_score")
    return _u_ovo(table, ties)


@validate_params(_RANKING_CONSTRAINTS, prefer_skip_nested_validation=True)
def u_cons_score(y_true, y_score, *, labels=None, sample_weight=None, ties="average"):
    r"""Mean, over the splits between consecutive classes, of the AUC of the split.

    With :math:`\hat A_k` the AUC of the items above :math:`c_k` against those at
    or below it (Waegeman et al., eq. 18):

    .. math::

        \hat U_\mathrm{cons}(f, D) = \frac{1}{r-1} \sum_{k=1}^{r-1} \hat A_k,
        \qquad
        \hat A_k = \frac{\sum_{y_i \le c_k} \sum_{y_j > c_k}
            w_i w_j \, I_{f(x_i) < f(x_j)}}
            {\sum_{i \le k} n_i \sum_{j > k} n_j}

    Each :math:`\hat A_k` judges the threshold between :math:`c_k` and
    :math:`c_{k+1}` of a threshold model (Waegeman et al., eq. 6).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels: numbers, strings or a pandas ordered ``Categorical``.
    y_score : array-like of shape (n_samples,)
        One real score per item, higher meaning a higher class.
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order; a class with no true item is left out
        with a warning.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.
    ties : {"average", "strict"}, default="average"
        ``"average"``: a tied pair counts 1/2. ``"strict"``: it counts 0.

    Returns
    -------
    score : float
        In [0, 1]; higher is better, 1/2 for a random ranking.

    See Also
    --------
    vus_score, u_pairs_score, u_ovo_score

    References
    ----------
    .. [1] W. Waegeman, B. De Baets and L. Boullart, "ROC analysis in ordinal
       regression learning", Pattern Recognition Letters 29 (2008) 1-9, eq. (18).

    Examples
    --------
    >>> from sklearn_ordinal.metrics import u_cons_score
    >>> u_cons_score([0, 0, 1, 1, 2, 2], [0.1, 0.4, 0.3, 0.2, 0.5, 0.6])
    0.875
    """
    _, _, table = _score_table(y_true, y_score, labels, sample_weight, "u_cons_score")
    return _u_cons(table, ties)


@validate_params(
    {
        "y_true": ["array-like"],
        "y_score": ["array-like"],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
        "max_thresholds": [Interval(Integral, 2, None, closed="left"), None],
    },
    prefer_skip_nested_validation=True,
)
def roc_surface(y_true, y_score, *, labels=None, sample_weight=None, max_thresholds=None):
    r"""Points of the ROC surface of a ranking of three ordered classes.

    Two thresholds :math:`b_1 \le b_2` turn the score into a class: :math:`c_1` up
    to :math:`b_1`, :math:`c_2` up to :math:`b_2`, :math:`c_3` above (Waegeman et
    al., eq. 6). Each pair of thresholds gives one point of true positive rates
    (eq. 9):

    .. math::

        \mathrm{TPR}_k(b) = \frac{1}{n_k} \sum_{y_i = c_k} w_i \,
            I_{b_{k-1} < f(x_i) \le b_k}, \qquad b_0 = -\infty,\; b_3 = +\infty

    The thresholds run over :math:`-\infty` and every distinct score, so there are
    :math:`(G + 1)(G + 2) / 2` points for :math:`G` distinct scores; for large data,
    ``max_thresholds`` keeps a subset of the thresholds, evenly spread in score
    order. The volume under the surface is :func:`vus_score` (Theorem 3.1; with
    ``ties="strict"`` when classes share scores).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True ordinal labels of exactly three classes.
    y_score : array-like of shape (n_samples,)
        One real score per item, higher meaning a higher class.
    labels : array-like of shape (3,), default=None
        The three classes in increasing order.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.
    max_thresholds : int >= 2, default=None
        At most this many values per threshold: :math:`-\infty`, the highest
        score and values evenly spaced among the distinct scores in between. The
        points are still exact points of the surface, only fewer. None keeps
        every distinct score.

    Returns
    -------
    tpr : ndarray of shape (n_points, 3)
        ``tpr[p] = (TPR_1, TPR_2, TPR_3)`` at the thresholds ``thresholds[p]``.
    thresholds : ndarray of shape (n_points, 2)
        ``(b_1, b_2)`` with ``b_1 <= b_2``, in increasing order of ``b_1`` then
        ``b_2``; ``-inf`` classifies every item above it.

    See Also
    --------
    RocSurfaceDisplay : Draws this surface.
    vus_score : The volume under it.

    References
    ----------
    .. [1] W. Waegeman, B. De Baets and L. Boullart, "ROC analysis in ordinal
       regression learning", Pattern Recognition Letters 29 (2008) 1-9, Fig. 2.

    Examples
    --------
    >>> from sklearn_ordinal.metrics import roc_surface
    >>> tpr, thresholds = roc_surface([0, 1, 2], [0.2, 0.5, 0.9])
    >>> tpr.shape, thresholds.shape
    ((10, 3), (10, 2))
    >>> thresholds[5], tpr[5]
    (array([0.2, 0.5]), array([1., 1., 1.]))
    """
    _, tpr, thresholds = _roc_surface(y_true, y_score, labels, sample_weight, max_thresholds)
    return tpr, thresholds


def _roc_surface(y_true, y_score, labels, sample_weight, max_thresholds):
    """``(classes, tpr, thresholds)``: :func:`roc_surface` and the three classes."""
    if max_thresholds is not None and max_thresholds < 2:
        raise ValueError(
            f"max_thresholds must be at least 2 (-inf and the highest score); got {max_thresholds}."
        )
    classes, scores, table = _score_table(
        y_true, y_score, labels, sample_weight, "roc_surface"
    )
    if len(classes) != 3:
        raise ValueError(
            f"roc_surface draws the surface of three classes; y_true has {len(classes)} "
            f"classes with true items: {classes.tolist()}."
        )
    # Share of each class at or below each threshold; row 0 is b = -inf.
    at_or_below = np.zeros((len(scores) + 1, 3))
    np.cumsum(table.T / table.sum(axis=1), axis=0, out=at_or_below[1:])
    levels = np.concatenate([[-np.inf], scores.astype(np.float64)])
    if max_thresholds is not None and len(levels) > max_thresholds:
        kept = np.unique(np.linspace(0, len(levels) - 1, max_thresholds).round().astype(int))
        at_or_below, levels = at_or_below[kept], levels[kept]
    lower, upper = np.triu_indices(len(levels))
    tpr = np.column_stack(
        [
            at_or_below[lower, 0],
            at_or_below[upper, 1] - at_or_below[lower, 1],
            1.0 - at_or_below[upper, 2],
        ]
    )
    # Rounding can take 1 - (a running sum ending at 1) a hair below 0.
    np.clip(tpr, 0.0, 1.0, out=tpr)
    return classes, tpr, np.column_stack([levels[lower], levels[upper]])


# Every ranking measure as a function of the score table of the classes present
# (for chunked data); a new ranking measure adds its pair here.
_FROM_TABLE = {vus_score: _vus, u_pairs_score: _u_pairs, u_ovo_score: _u_ovo, u_cons_score: _u_cons}
