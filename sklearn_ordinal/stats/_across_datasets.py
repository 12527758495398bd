"""Comparing systems across data sets: ranks, Friedman's test and the post-hoc tests.

One score per system and data set is all these tests read. Within each data set the
systems are ranked, 1 = best in the measure's direction (ties get mid-ranks); the
omnibus tests (Friedman, Iman-Davenport) ask whether the average ranks differ at
all, and the post-hoc tests which pairs differ: the Wilcoxon signed-rank test of
every pair with Holm's correction (the default, Benavoli et al. 2016), Nemenyi's test
with its critical difference, or every system against a control (Demšar 2006).

The distributions are SciPy's (chi-square, F, studentized range, normal, Wilcoxon's),
so any ``alpha`` and any number of systems is allowed: no table of critical values.
"""

from __future__ import annotations

import json
import math
import numbers
import textwrap
import warnings
from dataclasses import dataclass, field
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Optional

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats

from .._markdown import markdown_cell, markdown_text
from .._warnings import warn_user
from .._compat import Interval, StrOptions, validate_params
from ..metrics._registry import check_recorded_scores, lookup
from ._multiple_testing import holm_adjust

# Fewer data sets than this: the omnibus tests' approximations and the pairwise tests
# say little (no two-sided Wilcoxon p-value can be below 2 / 2**N = 0.125 at N = 4).
_MIN_DATASETS = 5

# SciPy's friedmanchisquare notes: its chi-square p-value is "only reliable for n > 10
# and more than 6 repeated samples"; below, Iman-Davenport's F is the one to read.
_CHI2_RELIABLE_DATASETS = 10
_CHI2_RELIABLE_SYSTEMS = 6

# The exact Wilcoxon null distribution (ties and zeros included) is used up to this
# many nonzero differences; beyond, SciPy's normal approximation.
_WILCOXON_EXACT_MAX = 50
# ... and while twice the sum of their ranks (the span of the exact distribution) stays
# below this: under "pratt" and "zsplit" the zeros push the ranks up with N.
_WILCOXON_EXACT_SPAN = 2**16

# Columns of the long form of a score table.
_LONG_COLUMNS = ("dataset", "system", "score")


# registry: the direction of a measure (its record's greater_is_better), resolved from
# the name the table's scores were recorded under.
def _greater_is_better(measure_name):
    """Whether a higher score is better, for scores recorded under ``measure_name``.

    The measure registry tells: a scorer's name (``neg_mean_absolute_error``,
    ``cem_ord``, ``vus``) means the table holds the scorer's values, which
    scikit-learn's convention makes higher is better whatever the measure (``neg_``
    negates a loss); a measure's own name (``macro_mean_absolute_error``,
    ``cem_score``) has the measure's own direction. Any other name is a ValueError
    asking for ``greater_is_better``.
    """
    try:
        record, _, scorer_name = lookup(measure_name)
    except ValueError:
        raise ValueError(
            f"Unknown measure {measure_name!r}: its direction cannot be looked up. Pass "
            "greater_is_better=True (higher scores are better) or False (lower are "
            "better), or a measure name of sklearn_ordinal (a scorer name of "
            "sklearn_ordinal.metrics.get_scorer_names(), or a measure's own name)."
        ) from None
    return True if measure_name == scorer_name else record.greater_is_better


# --- the score table ----------------------------------------------------------------


def _is_report(value):
    # An EvaluationReport, recognised by what is read from it: importing the class
    # would point upward (evaluation sits above stats).
    return all(hasattr(value, name) for name in ("scores", "systems", "greater_is_better"))


def _measure_of(measure, available, what):
    if measure is None:
        if len(available) == 1:
            return next(iter(available))
        raise ValueError(f"{what} hold several measures {sorted(available)}; pass measure=.")
    if measure not in available:
        raise ValueError(f"{what} have no measure {measure!r}; they have {sorted(available)}.")
    return measure


def _from_reports(reports, measure, include_trivial):
    measures = set.intersection(*(set(report.greater_is_better) for report in reports.values()))
    measure = _measure_of(measure, measures, "The reports")
    directions = {report.greater_is_better[measure] for report in reports.values()}
    if len(directions) > 1:
        raise ValueError(
            f"The reports disagree on the direction of {measure!r}: higher is better in "
            "some, lower in others; compare reports of one measure."
        )
    columns = {}
    for dataset, report in reports.items():
        systems = list(report.systems)
        if include_trivial:
            systems += [name for name in report.scores.index if name not in report.systems]
        columns[dataset] = report.scores.loc[systems, (measure, "estimate")]
    return pd.DataFrame(columns).T, measure, directions.pop()


def _cv_score(result, measure, dataset, system):
    """The mean test score of one ``cross_validate`` result under ``measure``."""
    keys = [key for key in result if key.startswith("test_")]
    if measure is None:
        if len(keys) != 1:
            raise ValueError(
                f"The cross_validate result of {system!r} on {dataset!r} holds "
                f"{keys or 'no test_ scores'}; pass measure= (the scorer's name)."
            )
        return float(np.mean(result[keys[0]])), keys[0][len("test_"):]
    for key in (f"test_{measure}", "test_score"):
        if key in result:
            return float(np.mean(result[key])), measure
    raise ValueError(
        f"The cross_validate result of {system!r} on {dataset!r} has no test_{measure} "
        f"(it has {keys}); score with scoring={{{measure!r}: ...}} or pass that measure."
    )


def _from_cv_results(results, measure):
    scores, names = {}, set()
    for dataset, systems in results.items():
        scores[dataset] = {}
        for system, result in systems.items():
            if isinstance(result, dict):
                scores[dataset][system], name = _cv_score(result, measure, dataset, system)
                names.add(name)
            else:
                scores[dataset][system] = result
    if len(names) > 1:
        raise ValueError(f"The results hold several measures {sorted(names)}; pass measure=.")
    return pd.DataFrame.from_dict(scores, orient="index"), measure or next(iter(names), None)


def _candidate_name(params):
    return ", ".join(f"{key.split('__')[-1]}={value}" for key, value in params.items())


def _from_searches(searches, measure):
    """``{dataset: GridSearchCV or its cv_results_}``: the candidates are the systems."""
    scores, names = {}, set()
    for dataset, search in searches.items():
        results = getattr(search, "cv_results_", search)
        keys = [key for key in results if key.startswith("mean_test_")]
        if measure is not None and f"mean_test_{measure}" in results:
            key = f"mean_test_{measure}"
        elif len(keys) == 1:
            key = keys[0]
        else:
            raise ValueError(
                f"The search results of {dataset!r} hold {keys}; pass measure= (the "
                "scorer's name) to choose one."
            )
        names.add(measure if key == "mean_test_score" and measure else key[len("mean_test_"):])
        systems = [_candidate_name(params) for params in results["params"]]
        scores[dataset] = pd.Series(np.asarray(results[key], dtype=float), index=systems)
    names.discard("score")
    return pd.DataFrame(scores).T, measure or next(iter(names), None)


def _from_long(table):
    duplicated = table.duplicated(["dataset", "system"], keep=False)
    if duplicated.any():
        pairs = table.loc[duplicated, ["dataset", "system"]].drop_duplicates()
        raise ValueError(
            f"{len(pairs)} (dataset, system) pair(s) have more than one score, e.g. "
            f"{list(map(tuple, pairs.head(3).to_numpy()))}; give one score per pair "
            "(average the folds or repetitions first)."
        )
    # pivot sorts the data sets and systems by name; the comparison keeps them in the
    # order in which they first appear, as the wide table keeps its columns.
    datasets = pd.unique(table["dataset"])
    systems = pd.unique(table["system"])
    wide = table.pivot(index="dataset", columns="system", values="score")
    return wide.reindex(index=datasets, columns=systems)


def _score_table(scores, measure, include_trivial):
    """``(table, measure, direction or None)``: data sets x systems, from any input kind."""
    direction = None
    if isinstance(scores, (list, tuple)) and scores and all(map(_is_report, scores)):
        scores = dict(enumerate(scores))
    if isinstance(scores, dict) and scores:
        values = list(scores.values())
        if all(map(_is_report, values)):
            table, measure, direction = _from_reports(scores, measure, include_trivial)
        elif all(hasattr(value, "cv_results_") or (isinstance(value, dict) and "params" in value)
                 for value in values):
            table, measure = _from_searches(scores, measure)
        elif all(isinstance(value, dict) for value in values):
            table, measure = _from_cv_results(scores, measure)
        else:
            raise ValueError(
                "A dict of scores must map each data set to {system: score}, to "
                "{system: cross_validate result}, to a GridSearchCV (or its cv_results_) "
                "or to an EvaluationReport."
            )
    elif isinstance(scores, pd.DataFrame) and set(_LONG_COLUMNS) <= set(scores.columns):
        table = _from_long(scores)
    elif isinstance(scores, pd.DataFrame):
        table = scores.copy()
    else:
        array = np.asarray(scores)
        if array.ndim != 2:
            raise ValueError(
                "scores must be a table of data sets (rows) x systems (columns); got an "
                f"array of shape {array.shape}."
            )
        table = pd.DataFrame(array)
    try:
        table = table.astype(np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"scores must be numbers: {error}") from None
    table.index.name, table.columns.name = "dataset", "system"
    return table, measure, direction


def _checked(table, drop_incomplete):
    """The complete data sets, or a ValueError naming the missing cells."""
    if table.index.has_duplicates or table.columns.has_duplicates:
        raise ValueError("Each data set (row) and each system (column) must be named once.")
    values = table.to_numpy()
    if np.isinf(values).any():
        raise ValueError("scores hold an infinite value; every score must be finite.")
    missing = np.isnan(values)
    dropped = []
    if missing.any():
        incomplete = missing.any(axis=1)
        if not drop_incomplete:
            rows, columns = np.nonzero(missing)
            cells = [(table.index[i], table.columns[j]) for i, j in zip(rows[:5], columns[:5])]
            raise ValueError(
                f"{missing.sum()} score(s) are missing (dataset, system): {cells}"
                f"{' ...' if missing.sum() > 5 else ''}. Every system needs a score on "
                "every data set; pass drop_incomplete=True to leave out the "
                f"{incomplete.sum()} incomplete data set(s)."
            )
        dropped = list(table.index[incomplete])
        warn_user(
            f"Left out {len(dropped)} incomplete data set(s) of {len(table)}: {dropped}.",
            UserWarning,
        )
        table = table.loc[~incomplete]
    if table.shape[1] < 2:
        raise ValueError(f"Comparing needs at least 2 systems; got {table.shape[1]}.")
    if table.shape[0] < 2:
        raise ValueError(
            f"Comparing needs at least 2 complete data sets; got {table.shape[0]}."
        )
    return table, dropped


# --- the statistics -----------------------------------------------------------------


def _friedman_statistic(rank_sums, n_datasets, tie_sum=0.0):
    r"""Friedman's chi-square from the systems' rank sums, corrected for ties.

    ``12 / (N k (k + 1)) (sum_j R_j^2 - N^2 k (k + 1)^2 / 4)`` divided by
    ``1 - T / (N k (k^2 - 1))``, where ``T`` sums ``t^3 - t`` over the groups of
    ``t`` tied systems within each data set (``T = 0``: Demšar's formula). NaN when
    every data set ties every system (0 / 0).
    """
    rank_sums = np.asarray(rank_sums, dtype=np.float64)
    k = len(rank_sums)
    n = n_datasets
    spread = np.sum(rank_sums**2) - n**2 * k * (k + 1) ** 2 / 4
    chi2 = 12 / (n * k * (k + 1)) * spread
    correction = 1 - tie_sum / (n * k * (k**2 - 1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(chi2 / correction) if correction > 1e-12 else np.nan


def _iman_davenport(chi2, n_datasets, n_systems):
    """Iman and Davenport's ``F = (N - 1) chi2 / (N (k - 1) - chi2)`` and its p-value."""
    df1 = n_systems - 1
    df2 = (n_systems - 1) * (n_datasets - 1)
    denominator = n_datasets * df1 - chi2
    # chi2 = N (k - 1): every data set ranks the systems alike, F is infinite.
    statistic = np.inf if denominator <= 1e-12 * n_datasets * df1 else (
        (n_datasets - 1) * chi2 / denominator
    )
    return float(statistic), float(stats.f.sf(statistic, df1, df2))


def _nemenyi_q(alpha, n_systems):
    """``q_alpha``: the studentized range quantile ``(1 - alpha, k, inf)`` over sqrt(2)."""
    return float(stats.studentized_range.ppf(1 - alpha, n_systems, np.inf) / np.sqrt(2))


def _rank_standard_error(n_datasets, n_systems):
    """Standard error of a difference of two average ranks: ``sqrt(k (k + 1) / (6 N))``."""
    return math.sqrt(n_systems * (n_systems + 1) / (6 * n_datasets))


def _signed_ranks(differences, zero_method):
    """Ranks of ``|differences|`` (mid-ranks for ties) as SciPy ranks them, per column.

    ``"wilcox"`` ranks the nonzero differences only; ``"pratt"`` and ``"zsplit"``
    rank the zeros too (``"pratt"`` then leaves their ranks out of both sums,
    ``"zsplit"`` gives half of them to each side). Zeros get rank 0 under
    ``"wilcox"``, so that every column has the same length.
    """
    size = np.abs(differences)
    if zero_method == "wilcox":
        # Zeros ranked below everything, then the ranks shifted down by the zeros'
        # count: the nonzero differences' ranks among themselves.
        ranks = stats.rankdata(size, axis=0) - (size == 0).sum(axis=0)
        return np.where(size == 0, 0.0, ranks)
    return stats.rankdata(size, axis=0)


def _exact_signed_rank_pvalue(ranks, positive, nonzero):
    """Two-sided exact p-value of the signed-rank sum, ties and zeros allowed.

    Under the null hypothesis each nonzero difference is positive or negative with
    probability 1/2, independently, whatever its (mid-)rank. The null distribution
    of ``T`` = the sum of the ranks of the positive differences is the convolution
    of the two-point distributions {0, r_i}; mid-ranks are halves, so twice the
    ranks are integers and the convolution runs on integer sums (twice the largest
    total rank sum plus one of them), one vectorized step per nonzero difference for
    all columns.
    ``T`` is symmetric about half the total, so the p-value is
    ``P(|T - total/2| >= |t - total/2|) = 2 P(T <= min(t, total - t))`` (at most 1).
    Zeros (rank excluded, or split evenly under ``"zsplit"``) add the same constant
    to both sides of every sign pattern and do not change the p-value.
    """
    doubled = np.rint(2 * np.where(nonzero, ranks, 0.0)).astype(np.int64)
    totals = doubled.sum(axis=0)
    # A zero rank leaves the distribution as it is: only the nonzero ones, sorted to
    # the bottom of each column, need a step.
    doubled = np.sort(doubled, axis=0)[-max(int(nonzero.sum(axis=0).max()), 1):]
    n_columns = doubled.shape[1]
    width = int(totals.max()) + 1
    distribution = np.zeros((n_columns, width))
    distribution[:, 0] = 1.0
    sums = np.arange(width)
    rows = np.arange(n_columns)[:, None]
    for rank in doubled:  # one step per data set; all columns at once
        source = sums[None, :] - rank[:, None]
        shifted = np.where(source >= 0, distribution[rows, np.maximum(source, 0)], 0.0)
        distribution = 0.5 * (distribution + shifted)
    observed = np.rint(2 * np.sum(np.where(nonzero & positive, ranks, 0.0), axis=0))
    lower = np.minimum(observed, totals - observed).astype(np.int64)
    cumulative = np.cumsum(distribution, axis=1)
    return np.minimum(1.0, 2 * cumulative[np.arange(n_columns), lower])


def _wilcoxon(differences, zero_method):
    """Two-sided Wilcoxon signed-rank statistic and p-value of each column.

    The statistic is SciPy's, ``min(R+, R-)`` (``scipy.stats.wilcoxon(column,
    zero_method=zero_method)``; a test holds them equal). The p-value is exact up to
    50 nonzero differences, ties and zeros included (:func:`_exact_signed_rank_pvalue`): the
    normal approximation can fall far below the smallest p-value the test can
    attain with few data sets (0.046 where the exact one is 0.125 with four equal
    differences), and SciPy's exact method does not take ties or zeros in every
    supported release. Beyond 50 nonzero differences (or a span of rank sums over
    2**16, when the zeros' ranks count), SciPy's normal approximation with its tie
    correction.

    A column of zero differences only (two systems with the same score on every
    data set) gets statistic 0 and p-value 1: no data set tells them apart (SciPy
    says the same with a warning, or NaN, depending on its version).
    """
    n_pairs = differences.shape[1]
    statistic = np.zeros(n_pairs)
    pvalue = np.ones(n_pairs)
    differing = (differences != 0).any(axis=0)
    if not differing.any():
        return statistic, pvalue
    columns = np.flatnonzero(differing)
    part = differences[:, columns]
    ranks = _signed_ranks(part, zero_method)
    nonzero = part != 0
    positive = part > 0
    plus = np.sum(np.where(positive, ranks, 0.0), axis=0)
    minus = np.sum(np.where(part < 0, ranks, 0.0), axis=0)
    if zero_method == "zsplit":
        half_zeros = np.sum(np.where(nonzero, 0.0, ranks), axis=0) / 2
        plus, minus = plus + half_zeros, minus + half_zeros
    statistic[columns] = np.minimum(plus, minus)
    span = 2 * np.sum(np.where(nonzero, ranks, 0.0), axis=0)
    exact = (nonzero.sum(axis=0) <= _WILCOXON_EXACT_MAX) & (span <= _WILCOXON_EXACT_SPAN)
    if exact.any():
        pvalue[columns[exact]] = _exact_signed_rank_pvalue(
            ranks[:, exact], positive[:, exact], nonzero[:, exact])
    if not exact.all():
        with warnings.catch_warnings():
            # SciPy before 1.13 warns that the normal approximation is poor below
            # 10 pairs (not reached here: more than 50 nonzero differences).
            warnings.filterwarnings("ignore", message="Sample size too small",
                                    category=UserWarning)
            result = stats.wilcoxon(part[:, ~exact], zero_method=zero_method,
                                    method="approx", axis=0)
        pvalue[columns[~exact]] = result.pvalue
    return statistic, pvalue


def _cliques(average_ranks, significant):
    """Maximal runs of systems, in rank order, with no significant pair among them.

    ``significant`` is a (k, k) boolean matrix in the order of ``average_ranks``.
    Returns lists of positions (best first), each of 2 or more systems, none inside
    another, as the bars of a critical-difference diagram.
    """
    order = np.argsort(average_ranks, kind="stable")
    inside = significant[np.ix_(order, order)]
    k = len(order)
    cliques, reach = [], -1
    for start in range(k):
        # The run from start may grow while no member differs from the newcomer.
        end = start
        while end + 1 < k and not inside[start:end + 2, end + 1].any():
            end += 1
        if end > start and end > reach:
            cliques.append(order[start:end + 1].tolist())
            reach = end
    return cliques


@dataclass
class AcrossDatasetsComparison:
    """Systems compared over data sets: ranks, omnibus tests and post-hoc tests.

    Made by :func:`compare_across_datasets`. Tables are pandas objects whose index
    names the systems (in the order given) or their pairs. Its properties
    ``n_datasets`` (``N``), ``n_systems`` (``k``) and ``omnibus_rejected`` (whether
    Iman-Davenport's F rejects equivalence of all systems at ``alpha``) follow from
    the fields below.

    Parameters
    ----------
    scores : pandas.DataFrame
        The scores compared, data sets (rows) x systems (columns); incomplete data
        sets left out with ``drop_incomplete=True`` are not in it.
    ranks : pandas.DataFrame
        Each system's rank within each data set, 1 = best, ties sharing their
        mid-rank.
    average_ranks : pandas.Series
        The mean rank of each system over the data sets.
    measure : str or None
        The name the scores were recorded under.
    greater_is_better : bool
        The direction the ranks were taken in.
    alpha : float
        The significance level of the decisions.
    friedman_statistic, friedman_pvalue : float
        Friedman's chi-square with SciPy's tie correction, on ``k - 1`` degrees of
        freedom (equal to :func:`scipy.stats.friedmanchisquare`).
    iman_davenport_statistic, iman_davenport_pvalue : float
        Iman and Davenport's F, on ``(k - 1, (k - 1)(N - 1))`` degrees of freedom.
        Its decision at ``alpha`` is the property ``omnibus_rejected``; the post-hoc
        tests are reported whatever it says.
    q_alpha : float
        The studentized range quantile ``(1 - alpha, k, inf)`` over ``sqrt(2)``.
    critical_difference : float
        Nemenyi's critical difference ``q_alpha sqrt(k (k + 1) / (6 N))``.
    posthoc : {"wilcoxon", "nemenyi"}
        The test behind ``pairwise["significant"]`` and ``cliques``.
    pairwise : pandas.DataFrame
        One row per pair ``(system_a, system_b)``, a before b in the order given:
        ``average_rank_a``, ``average_rank_b``, ``wilcoxon_statistic``,
        ``wilcoxon_pvalue``, ``wilcoxon_pvalue_holm`` (Holm over all pairs),
        ``nemenyi_pvalue``, ``better`` (the system with the lower average rank) and
        ``significant`` (by ``posthoc`` at ``alpha``).
    control : object, default=None
        The control system, when one was given.
    versus_control : pandas.DataFrame, default=None
        With a control, one row per other system: ``rank_difference`` (its average
        rank minus the control's), ``z``, ``pvalue`` (two-sided normal),
        ``pvalue_holm``, ``pvalue_bonferroni_dunn``, ``wilcoxon_pvalue``,
        ``wilcoxon_pvalue_holm`` and ``significant`` (Holm's adjusted Wilcoxon
        p-value at ``alpha`` when ``posthoc="wilcoxon"``, else Holm's over the
        mean-rank z tests).
    bonferroni_dunn_critical_difference : float, default=None
        With a control: ``z_(alpha / (2 (k - 1))) sqrt(k (k + 1) / (6 N))``.
    cliques : list of lists, default=[]
        Groups of systems, best first, within which no pair differs significantly:
        the bars of the critical-difference diagram.
    dropped_datasets : list, default=[]
        The incomplete data sets left out.
    zero_method : {"wilcox", "pratt", "zsplit"}, default="wilcox"
        How the Wilcoxon test treated zero differences (SciPy's ``zero_method``).

    See Also
    --------
    compare_across_datasets : Makes it.
    CriticalDifferenceDisplay : Draws it.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_ordinal.stats import compare_across_datasets
    >>> mae = pd.DataFrame({"a": [0.4, 0.5, 0.3, 0.6, 0.5, 0.4],
    ...                     "b": [0.5, 0.6, 0.4, 0.5, 0.7, 0.6]})
    >>> result = compare_across_datasets(mae, "mean_absolute_error")
    >>> result
    AcrossDatasetsComparison(systems=2, datasets=6, best='a', ...)
    >>> result.pairwise[["wilcoxon_pvalue", "better"]].round(4)
                       wilcoxon_pvalue better
    system_a system_b
    a        b                   0.125      a
    """

    scores: pd.DataFrame
    ranks: pd.DataFrame
    average_ranks: pd.Series
    measure: Optional[str]
    greater_is_better: bool
    alpha: float
    friedman_statistic: float
    friedman_pvalue: float
    iman_davenport_statistic: float
    iman_davenport_pvalue: float
    q_alpha: float
    critical_difference: float
    posthoc: Literal["wilcoxon", "nemenyi"]
    pairwise: pd.DataFrame
    control: object = None
    versus_control: Optional[pd.DataFrame] = None
    bonferroni_dunn_critical_difference: Optional[float] = None
    cliques: list[list[Any]] = field(default_factory=list)
    dropped_datasets: list[Any] = field(default_factory=list)
    zero_method: Literal["wilcox", "pratt", "zsplit"] = "wilcox"

    @property
    def n_datasets(self) -> int:
        """``N``, the data sets compared."""
        return self.scores.shape[0]

    @property
    def n_systems(self) -> int:
        """``k``, the systems compared."""
        return self.scores.shape[1]

    @property
    def omnibus_rejected(self) -> bool:
        """Whether Iman-Davenport's F rejects equivalence of all systems at ``alpha``."""
        return bool(self.iman_davenport_pvalue <= self.alpha)

    def __repr__(self):
        best = self.average_ranks.idxmin()
        return (
            f"AcrossDatasetsComparison(systems={self.n_systems}, datasets={self.n_datasets}, "
            f"best={best!r}, friedman_pvalue={self.friedman_pvalue:.4g}, "
            f"iman_davenport_pvalue={self.iman_davenport_pvalue:.4g}, "
            f"critical_difference={self.critical_difference:.4g})"
        )

    def summary(self) -> pd.DataFrame:
        """One row per system, best first: average rank, and against the control.

        Returns
        -------
        table : pandas.DataFrame
            ``average_rank`` and, with a control, the columns of ``versus_control``.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_ordinal.stats import compare_across_datasets
        >>> mae = pd.DataFrame({"a": [0.4, 0.5, 0.3, 0.6, 0.5, 0.4],
        ...                     "b": [0.5, 0.6, 0.4, 0.5, 0.7, 0.6]})
        >>> result = compare_across_datasets(mae, "mean_absolute_error", control="b")
        >>> result.summary()[["average_rank", "rank_difference", "wilcoxon_pvalue"]].round(3)
                average_rank  rank_difference  wilcoxon_pvalue
        system
        a              1.167           -0.667            0.125
        b              1.833              NaN              NaN
        """
        table = self.average_ranks.rename("average_rank").to_frame()
        if self.versus_control is not None:
            table = table.join(self.versus_control)
        return table.sort_values("average_rank", kind="stable")

    def _lines(self):
        direction = "higher" if self.greater_is_better else "lower"
        measure = "" if self.measure is None else f" under {self.measure}"
        decision = "rejects" if self.omnibus_rejected else "does not reject"
        lines = [
            (f"{self.n_systems} systems over {self.n_datasets} data sets{measure} "
             f"({direction} scores are better; rank 1 = best, ties share mid-ranks)."),
            (f"Friedman chi2 = {self.friedman_statistic:.3f} (df {self.n_systems - 1}, tie-"
             f"corrected), p = {self.friedman_pvalue:.4g}; Iman-Davenport F = "
             f"{self.iman_davenport_statistic:.3f}, p = {self.iman_davenport_pvalue:.4g}: "
             f"at alpha = {self.alpha:g} the omnibus test {decision} that all systems are "
             "equivalent."),
            (f"Nemenyi critical difference = {self.critical_difference:.3f} (q_alpha = "
             f"{self.q_alpha:.3f})."),
        ]
        if self.n_datasets <= _CHI2_RELIABLE_DATASETS:
            lines.append(f"With {self.n_datasets} data sets, read the F test rather than "
                         "Friedman's chi-square p-value (SciPy: reliable for n > 10).")
        if self.dropped_datasets:
            lines.append(f"Left out incomplete data sets: {self.dropped_datasets}.")
        return lines

    def _pairwise_display(self, digits):
        table = self.pairwise.copy()
        numeric = table.select_dtypes("number").columns
        table[numeric] = table[numeric].round(digits)
        return table

    def to_string(self, *, digits: int = 3, width: int = 80) -> str:
        """The comparison as plain text: the tests, the ranks and the pairs.

        Prose is wrapped at ``width`` characters and tables wider than it are cut
        into blocks of columns, as in the evaluation report, so the text fits a
        terminal for any number of systems.

        Parameters
        ----------
        digits : int, default=3
            Decimals shown.
        width : int, default=80
            Characters per line, prose and tables alike.

        Returns
        -------
        text : str
            The omnibus tests in words, the average ranks (and the comparisons with
            the control), the pairs and the cliques.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_ordinal.stats import compare_across_datasets
        >>> mae = pd.DataFrame({"a": [0.4, 0.5, 0.3, 0.6, 0.5, 0.4],
        ...                     "b": [0.5, 0.6, 0.4, 0.5, 0.7, 0.6]})
        >>> text = compare_across_datasets(mae, "mean_absolute_error").to_string()
        >>> for line in text.splitlines()[:2]:
        ...     print(line)
        2 systems over 6 data sets under mean_absolute_error (lower scores are better;
        rank 1 = best, ties share mid-ranks).
        >>> max(len(line) for line in text.splitlines()) <= 80
        True
        """
        test = ("Wilcoxon signed-rank, Holm-adjusted" if self.posthoc == "wilcoxon"
                else "Nemenyi")
        def prose(text):
            return textwrap.fill(text, width=width, break_on_hyphens=False)

        def table(frame):
            # pandas may pass line_width by one (its " \" continuation mark) and pads
            # with trailing spaces.
            lines = [line.rstrip() for line in
                     frame.to_string(line_width=width - 1).splitlines()]
            return "\n".join(line[:-1].rstrip() + " \\" if line.endswith("\\") else line
                             for line in lines)

        sections = [
            "\n".join(prose(line) for line in self._lines()),
            table(self.summary().round(digits)),
            prose(f"Pairs (significant: {test}, at alpha = {self.alpha:g}):"),
            table(self._pairwise_display(digits)),
            prose("Groups with no significant difference inside: " + (
                "; ".join("{" + ", ".join(map(str, clique)) + "}" for clique in self.cliques)
                or "none")),
        ]
        return "\n\n".join(sections) + "\n"

    def __str__(self):
        return self.to_string()

    def to_markdown(self, *, digits: int = 3) -> str:
        """The comparison as Markdown: the tests in prose, then two tables.

        Parameters
        ----------
        digits : int, default=3
            Decimals shown.

        Returns
        -------
        text : str
            The prose of :meth:`to_string`, the summary table and the pairs.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_ordinal.stats import compare_across_datasets
        >>> mae = pd.DataFrame({"a": [0.4, 0.5, 0.3, 0.6, 0.5, 0.4],
        ...                     "b": [0.5, 0.6, 0.4, 0.5, 0.7, 0.6]})
        >>> text = compare_across_datasets(mae, "mean_absolute_error").to_markdown()
        >>> print(text.split("\\n\\n")[1])  # the summary table
        | system | average_rank |
        |---|---|
        | a | 1.167 |
        | b | 1.833 |
        """

        def markdown_table(table):
            table = table.reset_index()
            header = "| " + " | ".join(map(markdown_cell, table.columns)) + " |"
            rule = "|" + "---|" * len(table.columns)
            rows = ["| " + " | ".join(map(markdown_cell, row)) + " |"
                    for row in table.to_numpy()]
            return "\n".join([header, rule, *rows])

        return "\n\n".join([
            "\n".join(map(markdown_text, self._lines())),
            markdown_table(self.summary().round(digits)),
            markdown_table(self._pairwise_display(digits)),
        ]) + "\n"

    def to_csv(self) -> str:
        """The pairwise table as CSV (one row per pair), the average ranks in it.

        Returns
        -------
        text : str
            ``pairwise`` with its index as the first two columns.

        Examples
        --------
        >>> import io
        >>> import pandas as pd
        >>> from sklearn_ordinal.stats import compare_across_datasets
        >>> mae = pd.DataFrame({"a": [0.4, 0.5, 0.3, 0.6, 0.5, 0.4],
        ...                     "b": [0.5, 0.6, 0.4, 0.5, 0.7, 0.6]})
        >>> text = compare_across_datasets(mae, "mean_absolute_error").to_csv()
        >>> pairs = pd.read_csv(io.StringIO(text), index_col=["system_a", "system_b"])
        >>> pairs[["wilcoxon_pvalue", "better"]]
                           wilcoxon_pvalue better
        system_a system_b
        a        b                   0.125      a
        """
        return self.pairwise.to_csv()

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain Python values (NaN as None), for JSON.

        Returns
        -------
        data : dict
            The statistics, ``average_ranks`` as ``{system: rank}`` and the tables as
            lists of records.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_ordinal.stats import compare_across_datasets
        >>> mae = pd.DataFrame({"a": [0.4, 0.5, 0.3, 0.6, 0.5, 0.4],
        ...                     "b": [0.5, 0.6, 0.4, 0.5, 0.7, 0.6]})
        >>> data = compare_across_datasets(mae, "mean_absolute_error").to_dict()
        >>> data["omnibus_rejected"], data["cliques"], data["pairwise"][0]["better"]
        (False, [['a', 'b']], 'a')
        """

        def plain(value):
            if isinstance(value, np.generic):
                value = value.item()
            if isinstance(value, float) and not math.isfinite(value):
                return None if math.isnan(value) else str(value)
            return value

        def records(table):
            if table is None:
                return None
            return [{key: plain(value) for key, value in row.items()}
                    for row in table.reset_index().to_dict("records")]

        return {
            "measure": self.measure,
            "greater_is_better": self.greater_is_better,
            "alpha": self.alpha,
            "n_datasets": self.n_datasets,
            "n_systems": self.n_systems,
            "friedman_statistic": plain(self.friedman_statistic),
            "friedman_pvalue": plain(self.friedman_pvalue),
            "iman_davenport_statistic": plain(self.iman_davenport_statistic),
            "iman_davenport_pvalue": plain(self.iman_davenport_pvalue),
            "omnibus_rejected": self.omnibus_rejected,
            "q_alpha": self.q_alpha,
            "critical_difference": self.critical_difference,
            "posthoc": self.posthoc,
            "zero_method": self.zero_method,
            "average_ranks": {str(k): plain(v) for k, v in self.average_ranks.items()},
            "pairwise": records(self.pairwise),
            "control": plain(self.control),
            "versus_control": records(self.versus_control),
            "bonferroni_dunn_critical_difference": plain(
                self.bonferroni_dunn_critical_difference),
            "cliques": [[plain(system) for system in clique] for clique in self.cliques],
            "dropped_datasets": [plain(name) for name in self.dropped_datasets],
        }

    def to_json(self, *, indent: int = 2) -> str:
        """:meth:`to_dict` as a JSON text.

        Parameters
        ----------
        indent : int, default=2
            As in ``json.dumps``.

        Returns
        -------
        text : str
            The JSON text.

        Examples
        --------
        >>> import json
        >>> import pandas as pd
        >>> from sklearn_ordinal.stats import compare_across_datasets
        >>> mae = pd.DataFrame({"a": [0.4, 0.5, 0.3, 0.6, 0.5, 0.4],
        ...                     "b": [0.5, 0.6, 0.4, 0.5, 0.7, 0.6]})
        >>> text = compare_across_datasets(mae, "mean_absolute_error").to_json()
        >>> data = json.loads(text)
        >>> data["measure"], data["n_datasets"], data["pairwise"][0]["wilcoxon_pvalue"]
        ('mean_absolute_error', 6, 0.125)
        """
        return json.dumps(self.to_dict(), indent=indent, default=str)


def _small_sample_warning(n_datasets, alpha):
    smallest = 2 / 2**n_datasets
    warn_user(
        f"Only {n_datasets} data sets: the chi-square and F approximations of the "
        f"omnibus tests are poor, and no pairwise Wilcoxon test can reach a p-value "
        f"below {smallest:.3g} (2 / 2**N){' <= alpha' if smallest <= alpha else ''}; "
        f"Nemenyi's critical difference assumes many data sets. Trust only large, "
        "consistent differences in the average ranks, and add data sets if you can "
        f"(Demšar 2006 asks for at least {_MIN_DATASETS}, better 10 or more).",
        UserWarning,
    )


@validate_params(
    {
        "scores": "no_validation",
        "measure": [str, None],
        "greater_is_better": ["boolean", None],
        "alpha": [Interval(numbers.Real, 0, 1, closed="neither")],
        "control": "no_validation",
        "posthoc": [StrOptions({"wilcoxon", "nemenyi"})],
        "zero_method": [StrOptions({"wilcox", "pratt", "zsplit"})],
        "drop_incomplete": ["boolean"],
        "include_trivial": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def compare_across_datasets(
    scores: pd.DataFrame | Mapping[Any, Any] | Sequence[Any] | npt.ArrayLike,
    measure: str | None = None,
    *,
    greater_is_better: bool | None = None,
    alpha: float = 0.05,
    control: object = None,
    posthoc: Literal["wilcoxon", "nemenyi"] = "wilcoxon",
    zero_method: Literal["wilcox", "pratt", "zsplit"] = "wilcox",
    drop_incomplete: bool = False,
    include_trivial: bool = False,
) -> AcrossDatasetsComparison:
    r"""Rank systems over data sets and test which of them differ (Demšar 2006).

    Each data set ranks the systems by their scores, 1 = best in the measure's
    direction, tied systems sharing the mean of their ranks. With ``N`` data sets,
    ``k`` systems and average ranks :math:`R_j`:

    - Friedman's statistic
      :math:`\chi^2_F = \frac{12N}{k(k+1)} \big(\sum_j R_j^2 - \frac{k(k+1)^2}{4}\big)`,
      divided by SciPy's tie correction :math:`1 - \sum (t^3 - t) / (N k (k^2 - 1))`
      (``t`` the sizes of the groups of tied systems within a data set), on
      ``k - 1`` degrees of freedom; Iman and Davenport's
      :math:`F_F = (N-1)\chi^2_F / (N(k-1) - \chi^2_F)` on ``(k - 1, (k - 1)(N - 1))``.
    - Every pair: the two-sided Wilcoxon signed-rank test of the paired scores
      (:func:`scipy.stats.wilcoxon`), Holm-adjusted over the ``k (k - 1) / 2`` pairs;
      and Nemenyi's test: two systems differ when their average ranks differ by at
      least :math:`CD = q_\alpha \sqrt{k(k+1)/(6N)}`, :math:`q_\alpha` the
      studentized range quantile :math:`(1 - \alpha, k, \infty)` over
      :math:`\sqrt 2`.
    - Against a ``control``: :math:`z = (R_i - R_c) / \sqrt{k(k+1)/(6N)}` with
      two-sided normal p-values, Holm- and Bonferroni-Dunn-adjusted over the
      ``k - 1`` comparisons, and the Wilcoxon test of each system with the control.

    Parameters
    ----------
    scores : DataFrame, array-like, dict or list
        One score per data set and system, as any of:

        - a wide table: data sets as rows, systems as columns (a DataFrame, or a 2-D
          array whose columns are systems 0, 1, ...);
        - a long DataFrame with columns ``dataset``, ``system`` and ``score``;
        - ``{dataset: {system: score}}``, or ``{dataset: {system: result}}`` with
          each ``result`` a :func:`sklearn.model_selection.cross_validate` dict (its
          ``test_<measure>`` or ``test_score`` averaged over the folds);
        - ``{dataset: search}``, each ``search`` a fitted
          :class:`~sklearn.model_selection.GridSearchCV` or its ``cv_results_``
          (the candidates are the systems, named by their parameters, scored by
          ``mean_test_<measure>`` or ``mean_test_score``);
        - ``{dataset: report}`` or a list of reports of
          :func:`~sklearn_ordinal.evaluation.evaluate` (the systems' estimates of
          ``measure``, whose direction the report knows).
    measure : str, default=None
        The name the scores were recorded under; the direction is looked up from
        it: a scorer's name (``neg_mean_absolute_error``, ``cem_ord``) means the
        scores are the scorer's, higher is better; a measure whose ``neg_`` form is a
        scorer (``mean_absolute_error``) means lower is better.
    greater_is_better : bool, default=None
        The direction, when ``measure`` is not given or unknown. Given with a known
        ``measure`` it must agree with it (a ValueError otherwise).
    alpha : float, default=0.05
        Significance level of every decision.
    control : object, default=None
        A system to compare every other against.
    posthoc : {"wilcoxon", "nemenyi"}, default="wilcoxon"
        The pairwise test behind ``pairwise["significant"]`` and the cliques.
        Wilcoxon-Holm is the default, as Benavoli et al. (2016) recommend: the
        outcome of a mean-rank test of two systems depends on which other systems
        are in the comparison, the Wilcoxon test of their paired scores does not.
    zero_method : {"wilcox", "pratt", "zsplit"}, default="wilcox"
        SciPy's treatment of data sets on which two systems score the same:
        ``"wilcox"`` drops them (SciPy's default), ``"zsplit"`` splits their ranks
        between the two sides as in Demšar's worked example.
    drop_incomplete : bool, default=False
        Leave out, with a warning, the data sets that lack a system's score; by
        default a missing score is a ValueError naming it.
    include_trivial : bool, default=False
        For reports: also compare their ``"(trivial)"`` row, the trivial classifier
        of the measure, as a system.

    Returns
    -------
    comparison : AcrossDatasetsComparison
        The ranks, the omnibus tests, the pairwise tests and the cliques;
        :meth:`CriticalDifferenceDisplay.from_comparison` draws its diagram.

    Warns
    -----
    UserWarning
        With fewer than 5 data sets, saying what can be trusted; when incomplete
        data sets are dropped; when every data set ties every system.

    Notes
    -----
    The statistic reported is the tie-corrected one, as SciPy's and R's
    ``friedman.test``: without the correction ties make the test conservative.
    Demšar's worked example uses the uncorrected formula on its average ranks.

    The Wilcoxon p-values come from the exact null distribution of the signed-rank
    sum up to 50 nonzero differences, tied and zero differences included (each nonzero
    difference's sign equally likely, its mid-rank fixed), the same in every SciPy
    release; beyond, SciPy's normal approximation with tie correction. The normal
    approximation with few data sets can fall below the smallest p-value the test
    can attain.

    With ``k = 2`` the Friedman test is the two-sided sign test of the two systems
    (tied data sets left out); the Wilcoxon test is the more powerful one to read.
    A system whose score is the same on every data set is ranked within each data
    set like any other. A data set on which all systems tie gives every system
    the mid-rank ``(k + 1) / 2``; when every data set does, Friedman's statistic is
    0 / 0 and is reported as 0 with p-value 1, with a warning.

    References
    ----------
    .. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
       sets", Journal of Machine Learning Research 7, 2006, pp. 1-30.
    .. [2] A. Benavoli, G. Corani and F. Mangili, "Should we really use post-hoc
       tests based on mean-ranks?", Journal of Machine Learning Research 17(5),
       2016, pp. 1-10.
    .. [3] R. L. Iman and J. M. Davenport, "Approximations of the critical region of
       the Friedman statistic", Communications in Statistics 9(6), 1980.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_ordinal.stats import compare_across_datasets
    >>> mae = pd.DataFrame(
    ...     {"ordinal": [0.50, 0.61, 0.42, 0.70, 0.55, 0.48],
    ...      "logistic": [0.58, 0.66, 0.49, 0.71, 0.60, 0.57],
    ...      "trivial": [0.90, 0.95, 0.80, 1.02, 0.85, 0.88]},
    ...     index=["a", "b", "c", "d", "e", "f"])
    >>> result = compare_across_datasets(mae, "mean_absolute_error")
    >>> result.average_ranks
    system
    ordinal     1.0
    logistic    2.0
    trivial     3.0
    Name: average_rank, dtype: float64
    >>> round(result.friedman_statistic, 2), round(result.critical_difference, 3)
    (12.0, 1.353)
    """
    table, measure, source_direction = _score_table(scores, measure, include_trivial)
    direction = _direction(measure, greater_is_better, source_direction)
    table, dropped = _checked(table, drop_incomplete)
    k = table.shape[1]
    if measure is not None:
        # Ranked as given: a loss's values under its neg_ scorer name (or the reverse)
        # would reverse every rank.
        check_recorded_scores(table.to_numpy(), measure, lambda i: (
            f"data set {table.index[i // k]!r}, system {table.columns[i % k]!r}"))
    if control is not None and control not in table.columns:
        raise ValueError(
            f"control={control!r} is not a system; the systems are {list(table.columns)}."
        )
    n = table.shape[0]
    if n < _MIN_DATASETS:
        _small_sample_warning(n, alpha)

    values = table.to_numpy()
    # Rank 1 = best: rank the scores oriented so that larger is better, descending.
    oriented = values if direction else -values
    ranks = stats.rankdata(-oriented, axis=1)
    rank_sums = ranks.sum(axis=0)
    average = rank_sums / n
    # sum over data sets of sum (t^3 - t), from the ranks' sum of squares (untied
    # ranks 1..k square-sum to k (k + 1) (2k + 1) / 6; each tie group lowers it).
    tie_sum = 2 * n * k * (k + 1) * (2 * k + 1) - 12 * np.sum(ranks**2)
    chi2 = _friedman_statistic(rank_sums, n, tie_sum)
    if np.isnan(chi2):
        warn_user(
            "Every data set ties every system: nothing tells the systems apart, so "
            "Friedman's statistic (0 / 0) is reported as 0 with p-value 1.",
            UserWarning,
        )
        chi2 = 0.0
    friedman_p = float(stats.chi2.sf(chi2, k - 1))
    f_statistic, f_p = _iman_davenport(chi2, n, k)

    q_alpha = _nemenyi_q(alpha, k)
    standard_error = _rank_standard_error(n, k)
    critical_difference = q_alpha * standard_error

    first, second = np.triu_indices(k, 1)
    w_statistic, w_p = _wilcoxon(values[:, first] - values[:, second], zero_method)
    w_holm = holm_adjust(w_p)
    gap = np.abs(average[first] - average[second])
    nemenyi_p = stats.studentized_range.sf(gap / standard_error * np.sqrt(2), k, np.inf)
    nemenyi_p = np.clip(nemenyi_p, 0.0, 1.0)
    decisive = w_holm if posthoc == "wilcoxon" else nemenyi_p
    systems = table.columns
    pairwise = pd.DataFrame(
        {
            "average_rank_a": average[first],
            "average_rank_b": average[second],
            "wilcoxon_statistic": w_statistic,
            "wilcoxon_pvalue": w_p,
            "wilcoxon_pvalue_holm": w_holm,
            "nemenyi_pvalue": nemenyi_p,
            "better": np.where(average[first] <= average[second],
                               systems[first], systems[second]),
            "significant": decisive <= alpha,
        },
        index=pd.MultiIndex.from_arrays([systems[first], systems[second]],
                                        names=["system_a", "system_b"]),
    )
    significant = np.zeros((k, k), dtype=bool)
    significant[first, second] = significant[second, first] = decisive <= alpha

    versus_control, bd_difference = None, None
    if control is not None:
        versus_control, bd_difference = _versus_control(
            table, average, control, standard_error, alpha, posthoc, zero_method
        )

    ranks_table = pd.DataFrame(ranks, index=table.index, columns=systems)
    return AcrossDatasetsComparison(
        scores=table,
        ranks=ranks_table,
        average_ranks=pd.Series(average, index=systems, name="average_rank"),
        measure=measure,
        greater_is_better=direction,
        alpha=alpha,
        friedman_statistic=chi2,
        friedman_pvalue=friedman_p,
        iman_davenport_statistic=f_statistic,
        iman_davenport_pvalue=f_p,
        q_alpha=q_alpha,
        critical_difference=critical_difference,
        posthoc=posthoc,
        pairwise=pairwise,
        control=control,
        versus_control=versus_control,
        bonferroni_dunn_critical_difference=bd_difference,
        cliques=[[systems[i] for i in clique] for clique in _cliques(average, significant)],
        dropped_datasets=dropped,
        zero_method=zero_method,
    )


def _direction(measure, greater_is_better, source_direction):
    """The direction: stated, known to the source (reports) or looked up; never guessed."""
    known = source_direction
    if known is None and measure is not None:
        try:
            known = _greater_is_better(measure)
        except ValueError:
            if greater_is_better is None:
                raise
    if greater_is_better is None:
        if known is None:
            raise ValueError(
                "The direction of the scores is unknown: pass measure= (a name known to "
                "sklearn_ordinal.metrics) or greater_is_better=True/False."
            )
        return bool(known)
    if known is not None and bool(known) != bool(greater_is_better):
        better = "higher" if known else "lower"
        raise ValueError(
            f"greater_is_better={greater_is_better} contradicts the measure {measure!r}, "
            f"for which {better} scores are better; leave greater_is_better out."
        )
    return bool(greater_is_better)


def _versus_control(table, average, control, standard_error, alpha, posthoc, zero_method):
    systems = table.columns
    position = systems.get_loc(control)
    others = np.flatnonzero(systems != control)
    k = len(systems)
    difference = average[others] - average[position]
    z = difference / standard_error
    pvalue = 2 * stats.norm.sf(np.abs(z))
    values = table.to_numpy()
    _, w_p = _wilcoxon(values[:, others] - values[:, [position]], zero_method)
    w_holm = holm_adjust(w_p)
    z_holm = holm_adjust(pvalue)
    decisive = w_holm if posthoc == "wilcoxon" else z_holm
    versus = pd.DataFrame(
        {
            "rank_difference": difference,
            "z": z,
            "pvalue": pvalue,
            "pvalue_holm": z_holm,
            "pvalue_bonferroni_dunn": np.minimum(1.0, pvalue * (k - 1)),
            "wilcoxon_pvalue": w_p,
            "wilcoxon_pvalue_holm": w_holm,
            "significant": decisive <= alpha,
        },
        index=pd.Index(systems[others], name="system"),
    )
    q_bonferroni_dunn = stats.norm.isf(alpha / (2 * (k - 1)))
    return versus, float(q_bonferroni_dunn * standard_error)
