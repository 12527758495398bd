r"""The alternative annotator test: may a model's ratings replace a human annotator's?

Calderon et al. (2025) hold a judge (an "LLM-as-a-judge") against a panel of
human annotators, one annotator at a time: with annotator :math:`h` left out, the
judge and :math:`h` are each scored against the remaining annotators on every
unit, and a one-sided t-test asks whether :math:`h` beats the judge on fewer than
a share :math:`\varepsilon` of the units more than the judge beats :math:`h`. The
judge *wins* against the annotators whose test rejects after the
Benjamini-Yekutieli correction; the winning rate is the share of annotators it
wins against, and the judge passes when it is at least 0.5.

Everything is computed from the panel's value counts per unit (one ``bincount``);
the only loop is over the annotators (each needs its own t-test).
"""

from dataclasses import dataclass
from numbers import Integral, Real
from typing import Literal, Optional, Union

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import stats

from .._compat import Interval, StrOptions, validate_params
from ..metrics._krippendorff import (
    _annotation_codes,
    _level_values,
    _ordered_categories,
    _oriented,
)
from ._multiple_testing import benjamini_yekutieli_rejections

JUDGE_LEVELS = ("nominal", "ordinal", "interval")


@dataclass
class Panel:
    """A panel of annotators and a judge, read on one scale."""

    classes: np.ndarray
    """The values in order."""
    panel: np.ndarray
    """``(n_annotators, n_units)`` positions of the panel's ratings in ``classes``,
    ``K`` where missing."""
    judge: np.ndarray
    """``(n_units,)`` the judge's positions, ``K`` where it abstained."""
    annotators: list
    """The annotators' names (the panel's row labels, or 0, 1, ...)."""
    units: list
    """The units' names (the panel's column labels, or 0, 1, ...)."""
    ordered: bool
    judge_name: str = "judge"

    @property
    def n_values(self):
        return len(self.classes)

    def values(self, level):
        """The number each value stands for at ``level`` (positions 0, 1, ... for
        ordinal, and for text)."""
        if level == "ordinal":
            return np.arange(self.n_values, dtype=np.float64)
        return _level_values(self.classes, "interval")

    def counts(self):
        """``(n_units, K)``: how many annotators of the panel gave each unit each value."""
        k = self.n_values
        keys = self.panel + (k + 1) * np.arange(self.panel.shape[1])
        counts = np.bincount(keys.ravel(), minlength=self.panel.shape[1] * (k + 1))
        return counts.reshape(-1, k + 1)[:, :k]


def read_panel(panel, judge, labels=None, level="ordinal"):
    """:class:`Panel` of ``panel`` (annotators x units) and ``judge`` (one rating per
    unit, or the name of one of a DataFrame panel's rows), with bad input refused."""
    annotators = units = None
    judge_name = "judge"
    if isinstance(panel, pd.DataFrame):
        categories = _ordered_categories(panel)
        if labels is None and categories is not None:
            labels = categories
        # One row per annotator, by the frame's labelled axes (as for alpha).
        panel = _oriented(panel)
        annotators, units = list(panel.index), list(panel.columns)
        if isinstance(judge, str):
            if judge not in panel.index:
                raise ValueError(
                    f"The judge {judge!r} is not a row of panel, whose rows (annotators) "
                    f"are {annotators[:10]}; name one of them, or pass the judge's ratings.")
            judge_name = judge
            judge = panel.loc[judge]
            panel = panel.drop(index=judge_name)
            annotators = list(panel.index)
        panel = panel.to_numpy(dtype=object)
    elif isinstance(judge, str):
        raise ValueError(f"judge={judge!r} names a row, but panel is not a DataFrame with "
                         "named rows; pass the judge's ratings, one per unit.")
    if isinstance(judge, pd.Series):
        judge_array = judge.to_numpy(dtype=object)
    else:
        judge_array = np.asarray(judge, dtype=None if isinstance(judge, np.ndarray) else object)
    if judge_array.ndim != 1:
        raise ValueError(f"judge must hold one rating per unit (1-D); got shape "
                         f"{judge_array.shape}.")
    rows = panel if isinstance(panel, np.ndarray) else np.asarray(panel, dtype=object)
    if rows.ndim != 2:
        raise ValueError(f"panel must be 2-D, one row per annotator and one column per "
                         f"unit; got shape {rows.shape}.")
    if rows.shape[1] != len(judge_array):
        raise ValueError(
            f"panel has {rows.shape[1]} units (columns) but judge has {len(judge_array)} "
            "ratings; give the judge one rating per unit, in the panel's column order "
            "(missing where it abstained).")
    stacked = np.vstack([rows.astype(object), judge_array.astype(object)[np.newaxis, :]])
    n_annotators = len(stacked) - 1
    if n_annotators < 2:
        raise ValueError(
            f"The panel has {n_annotators} annotator; holding a judge against a panel "
            "needs two annotators or more (each is compared with the rest).")
    classes, codes, _, ordered = _annotation_codes(stacked, labels)
    if level != "nominal" and not ordered:
        raise ValueError(
            "The ratings are text values, whose order cannot be guessed; give the order "
            f"with labels=[...] (lowest first), or choose level='nominal' (level={level!r}).")
    k = len(classes)
    if (codes[-1] == k).all():
        raise ValueError("The judge gave no rating at all (every one missing); there is "
                         "nothing to compare with the panel.")
    n_units = codes.shape[1]
    return Panel(classes, codes[:-1], codes[-1],
                 annotators if annotators is not None else list(range(n_annotators)),
                 units if units is not None else list(range(n_units)), ordered, judge_name)


def _distances(data, level):
    """``(judge, annotator, compared, others)``: for each annotator ``(n_annotators,
    n_units)``, the judge's and the annotator's disagreement with the other
    annotators on each unit (mismatches, or the sum of squared differences), whether
    the unit is compared, and how many other annotators rated it."""
    k = data.n_values
    counts = data.counts()
    rated = counts @ np.ones(k, dtype=counts.dtype)
    panel, judge = data.panel, data.judge
    present = panel < k
    others = rated[np.newaxis, :] - present
    # Reference implementation: units with two panel ratings or more that the judge
    # rated; each annotator is compared on those it rated.
    compared = present & (rated >= 2)[np.newaxis, :] & (judge < k)[np.newaxis, :]
    padded = np.hstack([counts, np.zeros((len(counts), 1), dtype=counts.dtype)])
    if level == "nominal":
        same_as_judge = padded[np.arange(len(judge)), judge][np.newaxis, :] - (panel == judge)
        same_as_self = np.take_along_axis(padded.T, panel, axis=0) - 1
        return others - same_as_judge, others - same_as_self, compared, others
    values = np.append(data.values(level), 0.0)
    first = counts @ values[:k]
    second = counts @ values[:k] ** 2
    own = values[panel]
    first_rest = first[np.newaxis, :] - own
    second_rest = second[np.newaxis, :] - own**2
    x = values[judge][np.newaxis, :]
    judge_distance = others * x**2 - 2 * x * first_rest + second_rest
    self_distance = others * own**2 - 2 * own * first_rest + second_rest
    return judge_distance, self_distance, compared, others


@dataclass
class AlternativeAnnotatorTest:
    """The result of :func:`alternative_annotator_test`.

    Parameters
    ----------
    winning_rate : float
        The share of the tested annotators the judge wins against (their test
        rejects after the Benjamini-Yekutieli correction at ``q``); the judge
        passes when it is at least 0.5.
    advantage_probability : float
        The mean over the tested annotators of the share of units on which the
        judge is at least as close to the other annotators as the annotator is:
        higher is better, for comparing judges.
    passed : bool
        ``winning_rate >= 0.5``.
    per_annotator : pandas.DataFrame
        One row per annotator: ``n_units`` compared, ``judge_advantage`` (share of
        units where the judge is at least as close), ``annotator_advantage``,
        ``pvalue``, ``wins`` (rejected), ``tested`` (False when fewer than
        ``min_units`` units, with NaN p-value).
    epsilon : float
        The cost-benefit margin the annotators were tested with.
    q : float
        The false discovery rate of the Benjamini-Yekutieli correction.
    scoring : str
        ``"accuracy"`` or ``"neg_rmse"``.

    See Also
    --------
    alternative_annotator_test : Makes it.
    judge_agreement : The test with the agreement coefficients, in one report.

    Examples
    --------
    A judge that gives the ratings the annotators are noisy copies of:

    >>> import numpy as np
    >>> from sklearn_ordinal.stats import alternative_annotator_test
    >>> truth = np.tile([1, 2, 3, 4, 5], 8)
    >>> noise = (np.arange(40) // np.arange(1, 5)[:, None]) % 3 - 1  # -1, 0 or 1
    >>> panel = np.clip(truth + noise, 1, 5)  # 4 annotators x 40 units
    >>> result = alternative_annotator_test(panel, truth)
    >>> result.winning_rate, result.passed, result.scoring
    (1.0, True, 'neg_rmse')
    >>> result.per_annotator[["judge_advantage", "annotator_advantage", "wins"]]
               judge_advantage  annotator_advantage  wins
    annotator
    0                    0.775                0.675  True
    1                    0.775                0.725  True
    2                    0.800                0.650  True
    3                    0.775                0.650  True
    """

    winning_rate: float
    advantage_probability: float
    passed: bool
    per_annotator: pd.DataFrame
    epsilon: float
    q: float
    scoring: str


def _alternative_annotator_test(data, level, epsilon, q, min_units):
    judge_distance, self_distance, compared, _ = _distances(data, level)
    rows = []
    for index, name in enumerate(data.annotators):
        on = compared[index]
        judge_close = judge_distance[index, on] <= self_distance[index, on]
        self_close = self_distance[index, on] <= judge_distance[index, on]
        n_units = int(on.sum())
        tested = n_units >= min_units
        pvalue = np.nan
        if tested:
            difference = self_close.astype(np.float64) - judge_close
            with np.errstate(divide="ignore", invalid="ignore"):
                pvalue = float(stats.ttest_1samp(difference, epsilon, alternative="less").pvalue)
        rows.append({"annotator": name, "n_units": n_units,
                     "judge_advantage": float(judge_close.mean()) if n_units else np.nan,
                     "annotator_advantage": float(self_close.mean()) if n_units else np.nan,
                     "pvalue": pvalue, "tested": tested})
    table = pd.DataFrame(rows).set_index("annotator")
    table["wins"] = False
    tested = table["tested"].to_numpy()
    if not tested.any():
        raise ValueError(
            f"No annotator rated {min_units} units or more that the judge and another "
            "annotator also rated, so the test cannot be run; lower min_units (the "
            "reference uses 30) or give more units.")
    table.loc[tested, "wins"] = benjamini_yekutieli_rejections(
        table.loc[tested, "pvalue"].to_numpy(), q)
    winning_rate = float(table.loc[tested, "wins"].mean())
    return AlternativeAnnotatorTest(
        winning_rate=winning_rate,
        advantage_probability=float(table.loc[tested, "judge_advantage"].mean()),
        passed=winning_rate >= 0.5, per_annotator=table, epsilon=epsilon, q=q,
        scoring="accuracy" if level == "nominal" else "neg_rmse")


_PANEL_PARAMETERS = {
    "panel": ["array-like"],
    "judge": ["array-like", str],
    "labels": ["array-like", None],
    "level": [StrOptions(set(JUDGE_LEVELS))],
}


@validate_params(
    dict(_PANEL_PARAMETERS,
         epsilon=[Interval(Real, 0, 1, closed="both")],
         q=[Interval(Real, 0, 1, closed="neither")],
         min_units=[Interval(Integral, 2, None, closed="left")]),
    prefer_skip_nested_validation=True,
)
def alternative_annotator_test(
    panel: ArrayLike,
    judge: Union[ArrayLike, str],
    *,
    labels: Optional[ArrayLike] = None,
    level: Literal["nominal", "ordinal", "interval"] = "ordinal",
    epsilon: float = 0.2,
    q: float = 0.05,
    min_units: int = 30,
) -> AlternativeAnnotatorTest:
    r"""The alternative annotator test of Calderon et al. (2025) for a judge and a panel.

    For each annotator :math:`h` and each unit :math:`i` that :math:`h`, the judge
    :math:`f` and at least one other annotator rated, the judge and :math:`h` are
    scored against the other annotators' ratings :math:`Y_{i,-h}`: by accuracy
    (the share of them equal to the rating) at the nominal level, by the negative
    root mean squared difference otherwise (on the values' positions at the
    ordinal level, on the values at the interval level). With
    :math:`W^f_i = [S(f_i) \ge S(h_i)]` and :math:`W^h_i = [S(h_i) \ge S(f_i)]`,
    the one-sided t-test of :math:`d_i = W^h_i - W^f_i` asks

    .. math::

        H_0: \bar d \ge \varepsilon \quad \text{against} \quad H_1: \bar d < \varepsilon,

    i.e. whether :math:`h` is closer to the others than the judge on fewer than a
    share :math:`\varepsilon` of the units more often than the other way round.
    The p-values of the annotators with ``min_units`` units or more are corrected
    by Benjamini and Yekutieli's procedure at ``q``; the *winning rate* is the
    share of them rejected, and the *advantage probability* the mean of
    :math:`\bar W^f`. This is the reference implementation's computation
    (``alt_test`` of the repository ``nitaytech/AltTest``), including its choice of
    units (those with two panel ratings or more that the judge rated).

    Parameters
    ----------
    panel : array-like of shape (n_annotators, n_units)
        The human annotators' ratings, one row per annotator, missing allowed (as
        for :func:`~sklearn_ordinal.metrics.krippendorff_alpha`).
    judge : array-like of shape (n_units,) or str
        The judge's rating of each unit (missing where it abstained), or the name
        of one of the rows of a DataFrame ``panel`` (that row is then the judge
        and not an annotator).
    labels : array-like of shape (n_values,), default=None
        Every possible value, lowest first (needed for text at the ordinal and
        interval levels).
    level : {"nominal", "ordinal", "interval"}, default="ordinal"
        How the ratings are compared (see above).
    epsilon : float, default=0.2
        The cost-benefit margin: 0.2 when the annotators are experts, 0.15 skilled,
        0.1 crowd workers (Calderon et al. 2025, whose code's default is 0.2).
    q : float, default=0.05
        The false discovery rate of the correction.
    min_units : int, default=30
        Annotators with fewer units compared are not tested (reported with
        ``tested=False``).

    Returns
    -------
    result : AlternativeAnnotatorTest
        ``winning_rate``, ``advantage_probability``, ``passed`` and the
        ``per_annotator`` table.

    Raises
    ------
    ValueError
        Fewer than two annotators, a judge of the wrong length or with no rating,
        or no annotator with ``min_units`` units.

    References
    ----------
    .. [1] N. Calderon, R. Reichart and R. Dror, "The Alternative Annotator Test
       for LLM-as-a-Judge: How to Statistically Justify Replacing Human Annotators
       with LLMs", ACL 2025.
    .. [2] Y. Benjamini and D. Yekutieli, "The control of the false discovery rate
       in multiple testing under dependency", The Annals of Statistics 29 (2001).

    Examples
    --------
    A judge that gives each unit the other annotators' median rating wins; one that
    rates at random loses.

    >>> import numpy as np
    >>> from sklearn_ordinal.stats import alternative_annotator_test
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(1, 6, size=300)
    >>> panel = np.clip(truth + rng.integers(-1, 2, size=(4, 300)), 1, 5)
    >>> good = np.median(panel, axis=0).round()
    >>> alternative_annotator_test(panel, good).passed
    True
    >>> alternative_annotator_test(panel, rng.integers(1, 6, size=300)).passed
    False
    """
    data = read_panel(panel, judge, labels, level)
    return _alternative_annotator_test(data, level, epsilon, q, min_units)
