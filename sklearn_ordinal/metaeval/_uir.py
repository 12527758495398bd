"""Unanimous Improvement Ratio and the coverage of a metric (Amigó et al. 2020, §5.1).

UIR tells how consistently one system beats another across several reference
metrics at once; the coverage of a metric is how well its differences between
systems follow those unanimous improvements. Both are computed for all system
pairs at once from a ``(systems, systems, test cases)`` table of unanimous wins.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from sklearn.exceptions import UndefinedMetricWarning

from .._compat import validate_params
from .._warnings import warn_user


def _check_scores(scores: npt.ArrayLike, name: str, ndim: int) -> npt.NDArray[np.float64]:
    """Return ``scores`` as a finite float array with ``ndim`` dimensions, or raise."""
    try:
        scores = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of numbers.") from None
    if scores.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-D array; got shape {scores.shape}.")
    if 0 in scores.shape:
        raise ValueError(f"{name} is empty (shape {scores.shape}).")
    if not np.isfinite(scores).all():
        raise ValueError(
            f"{name} contains NaN or infinity; every score must be a finite number "
            "(replace undefined scores by a value before meta-evaluating)."
        )
    return scores


def _pairwise_uir(reference_scores):
    """``UIR[s, s']`` for every pair of systems; input of shape (S, T, M).

    ``wins[s, s', t]`` is True when system ``s`` is at least as good as ``s'`` on
    test case ``t`` for every metric. One metric at a time keeps the memory at
    ``S * S * T`` booleans however many reference metrics there are.
    """
    n_systems, n_test_cases, n_metrics = reference_scores.shape
    wins = np.ones((n_systems, n_systems, n_test_cases), dtype=bool)
    for m in range(n_metrics):
        scores = reference_scores[:, :, m]
        wins &= scores[:, np.newaxis, :] >= scores[np.newaxis, :, :]
    n_wins = wins.sum(axis=2)
    return (n_wins - n_wins.T) / n_test_cases


@validate_params(
    {"scores_a": ["array-like"], "scores_b": ["array-like"]},
    prefer_skip_nested_validation=True,
)
def unanimous_improvement_ratio(scores_a: npt.ArrayLike, scores_b: npt.ArrayLike) -> float:
    r"""Unanimous Improvement Ratio of system a over system b.

    With :math:`\mathcal T` the test cases and :math:`\mathcal M` the metrics,

    .. math::

        \mathrm{UIR}_{\mathcal M}(a, b) = \frac{|\{t : a_t \ge_{\mathcal M} b_t\}|
            - |\{t : b_t \ge_{\mathcal M} a_t\}|}{|\mathcal T|},
        \qquad
        a_t \ge_{\mathcal M} b_t \iff \forall m \in \mathcal M:\ m(a_t) \ge m(b_t).

    A test case on which the two systems tie on every metric counts for both and
    so cancels out. UIR is antisymmetric, :math:`\mathrm{UIR}(a, b) = -\mathrm{UIR}(b, a)`.

    Parameters
    ----------
    scores_a : array-like of shape (n_test_cases, n_metrics)
        Scores of system a, one row per test case and one column per metric;
        higher must mean better for every metric (negate error measures).
    scores_b : array-like of shape (n_test_cases, n_metrics)
        Scores of system b on the same test cases and metrics.

    Returns
    -------
    uir : float
        Between -1 (b improves on a unanimously on every test case) and 1.

    See Also
    --------
    coverage : How well one metric follows UIR over many system pairs.

    References
    ----------
    .. [1] E. Amigó, J. Gonzalo, J. Artiles and F. Verdejo, "Combining evaluation
       metrics via the unanimous improvement ratio and its application to
       clustering tasks", JAIR 42, 2011, pp. 689-718.
    .. [2] E. Amigó, J. Gonzalo, S. Mizzaro and J. Carrillo-de-Albornoz, "An
       effectiveness metric for ordinal classification: formal properties and
       experimental results", Proc. ACL 2020, section 5.1.

    Examples
    --------
    >>> from sklearn_ordinal.metaeval import unanimous_improvement_ratio
    >>> a = [[0.9, 0.8], [0.5, 0.7], [0.6, 0.6]]   # 3 test cases, 2 metrics
    >>> b = [[0.8, 0.7], [0.6, 0.6], [0.6, 0.6]]
    >>> unanimous_improvement_ratio(a, b)   # (2 - 1) / 3: a wins case 0, both case 2
    0.3333333333333333
    """
    scores_a = _check_scores(scores_a, "scores_a", 2)
    scores_b = _check_scores(scores_b, "scores_b", 2)
    if scores_a.shape != scores_b.shape:
        raise ValueError(
            "scores_a and scores_b must have the same shape (n_test_cases, n_metrics); "
            f"got {scores_a.shape} and {scores_b.shape}."
        )
    return float(_pairwise_uir(np.stack([scores_a, scores_b]))[0, 1])


@validate_params(
    {"metric_scores": ["array-like"], "reference_scores": ["array-like"]},
    prefer_skip_nested_validation=True,
)
def coverage(metric_scores: npt.ArrayLike, reference_scores: npt.ArrayLike) -> float:
    r"""Coverage of a metric: how well it follows unanimous improvements.

    For every ordered pair of distinct systems :math:`(s, s')`, the difference of
    the metric's mean over the test cases, :math:`\bar m(s) - \bar m(s')`, is set
    against :math:`\mathrm{UIR}_{\mathcal M}(s, s')` over the reference metrics
    :math:`\mathcal M`; the coverage is the Spearman correlation of the two over
    all pairs:

    .. math::

        \mathrm{Cov}_{\mathcal M}(m) = \mathrm{Spearman}_{s \ne s'}
            \bigl(\bar m(s) - \bar m(s'),\ \mathrm{UIR}_{\mathcal M}(s, s')\bigr).

    Both quantities are antisymmetric, so taking every ordered pair (rather than
    one arbitrary orientation of each unordered pair) makes the result independent
    of the order in which the systems are listed; the paper does not say which it
    used.

    Parameters
    ----------
    metric_scores : array-like of shape (n_systems, n_test_cases)
        The metric's score for each system on each test case; higher must mean
        better (negate error measures).
    reference_scores : array-like of shape (n_systems, n_test_cases, n_reference_metrics)
        The reference metrics' scores, higher meaning better, on the same systems
        and test cases. The paper uses accuracy, Kendall's tau-a and mutual
        information.

    Returns
    -------
    coverage : float
        A Spearman correlation in [-1, 1]; NaN, with a warning, when the metric or
        UIR is the same for every pair.

    Warns
    -----
    UndefinedMetricWarning
        When the metric differences or the UIR values are constant over all pairs.

    See Also
    --------
    unanimous_improvement_ratio : UIR of one pair of systems.
    make_synthetic_ordinal_task : The paper's synthetic systems to compute it on.

    References
    ----------
    .. [1] E. Amigó, J. Gonzalo, S. Mizzaro and J. Carrillo-de-Albornoz, "An
       effectiveness metric for ordinal classification: formal properties and
       experimental results", Proc. ACL 2020, section 5.1 and Table 3.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ordinal.metaeval import coverage
    >>> rng = np.random.RandomState(0)
    >>> quality = np.array([0.2, 0.4, 0.6, 0.8])     # 4 systems
    >>> reference = quality[:, None, None] + rng.normal(0, 0.1, size=(4, 20, 3))
    >>> metric = quality[:, None] + rng.normal(0, 0.1, size=(4, 20))
    >>> print(f"{coverage(metric, reference):.2f}")
    0.96
    """
    metric_scores = _check_scores(metric_scores, "metric_scores", 2)
    reference_scores = _check_scores(reference_scores, "reference_scores", 3)
    if metric_scores.shape != reference_scores.shape[:2]:
        raise ValueError(
            "metric_scores (n_systems, n_test_cases) and reference_scores "
            "(n_systems, n_test_cases, n_reference_metrics) must describe the same "
            f"systems and test cases; got shapes {metric_scores.shape} and "
            f"{reference_scores.shape}."
        )
    n_systems = metric_scores.shape[0]
    if n_systems < 3:
        raise ValueError(
            f"coverage needs at least 3 systems (a correlation over their pairs); got {n_systems}."
        )
    return _coverage_from_uir(metric_scores, _pairwise_uir(reference_scores))


def _coverage_from_uir(metric_scores, uir):
    """:func:`coverage` of checked scores given the UIR table of the reference metrics,
    which a meta-evaluation of many metrics computes once; scores of shape
    ``(..., n_systems, n_test_cases)`` (several metrics) give one coverage each."""
    n_systems = metric_scores.shape[-2]
    mean_score = metric_scores.mean(axis=-1)
    difference = mean_score[..., :, np.newaxis] - mean_score[..., np.newaxis, :]
    off_diagonal = ~np.eye(n_systems, dtype=bool)
    difference, uir = difference[..., off_diagonal], uir[off_diagonal]
    flat_metric = np.ptp(difference, axis=-1) == 0
    if flat_metric.any() or np.ptp(uir) == 0:
        constant = "UIR values" if np.ptp(uir) == 0 else "metric differences"
        warn_user(
            f"Coverage is undefined: the {constant} are the same for every pair of "
            "systems. Returning NaN.",
            UndefinedMetricWarning
        )
    with np.errstate(invalid="ignore", divide="ignore"):  # NaN where undefined, warned
        result = _rank_correlation(difference, uir)
    return float(result) if np.ndim(result) == 0 else result


def _mid_ranks(x):
    """Ranks along the last axis, ties sharing the mean of their ranks, as
    :func:`scipy.stats.rankdata` of each row (no NaN; infinities tie): one sort of all the
    rows and one pass over it, where SciPy's per-call overhead doubled the cost of
    the many small rankings of a meta-evaluation."""
    x = np.asarray(x, dtype=np.float64)
    n = x.shape[-1]
    rows = x.reshape(-1, n)
    order = np.argsort(rows, axis=-1)
    ordered = np.take_along_axis(rows, order, axis=-1)
    # A tie run never crosses rows: each row's first item starts a new run.
    new_run = np.ones(ordered.shape, dtype=bool)
    new_run[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    new_run = new_run.ravel()
    starts = np.flatnonzero(new_run)
    ends = np.append(starts[1:], new_run.size)
    # Ranks start+1 .. end within the row of the run: their mean.
    run_rank = (starts + ends + 1) / 2 - starts // n * n
    ranks = np.empty(rows.shape)
    np.put_along_axis(ranks, order, run_rank[np.cumsum(new_run) - 1].reshape(rows.shape),
                      axis=-1)
    return ranks.reshape(x.shape)


def _rank_correlation(x, y):
    """Spearman's correlation of each row of ``x`` (shape ``(..., n)``) with ``y``:
    Pearson's of their mid-ranks, as :func:`scipy.stats.spearmanr`, ranking ``y``
    once for all the rows."""
    x_rank = _mid_ranks(x)
    y_rank = _mid_ranks(y)
    x_rank -= x_rank.mean(axis=-1, keepdims=True)
    y_rank -= y_rank.mean()
    return np.sum(x_rank * y_rank, axis=-1) / np.sqrt(
        np.sum(x_rank**2, axis=-1) * np.sum(y_rank**2)
    )
