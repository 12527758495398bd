"""The critical-difference diagram of a comparison across data sets (Demšar 2006)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Self

import numpy as np
import numpy.typing as npt
import pandas as pd

from .._compat import check_matplotlib_support
from ._across_datasets import AcrossDatasetsComparison, compare_across_datasets

if TYPE_CHECKING:  # matplotlib is optional and imported only to draw
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure

# Vertical layout, in data units below the rank axis (at 0).
_TICK = 0.12
_CLIQUE_STEP = 0.12
_LABEL_STEP = 0.3


def _pack(spans: Iterable[tuple[float, float]]) -> list[int]:
    """A row for each ``(start, end)`` span: the first row whose spans all end before it.

    The cliques come sorted by their start, so this greedy packing uses as few rows
    as any packing; bars on one row never touch.
    """
    ends: list[float] = []
    levels: list[int] = []
    for start, end in spans:
        level = next((row for row, last in enumerate(ends) if last < start), len(ends))
        if level == len(ends):
            ends.append(end)
        ends[level] = end
        levels.append(level)
    return levels


class CriticalDifferenceDisplay:
    """Critical-difference diagram: systems on an axis of average ranks.

    Each system hangs from its average rank (1 = best, on the left), the better
    half labelled on the left and the other half on the right. A thick bar joins
    the systems of each clique, a group within which no pair differs significantly
    by the comparison's post-hoc test. With Nemenyi's test the critical difference
    is drawn above the axis: two systems further apart than it differ.

    Build it with :meth:`from_scores` or :meth:`from_comparison`; the constructor
    takes the numbers directly.

    Parameters
    ----------
    average_ranks : pandas.Series
        The systems' average ranks, indexed by the systems' names.
    cliques : list of lists
        Groups of systems with no significant difference inside.
    critical_difference : float, default=None
        Drawn above the axis when given.
    title : str, default=None
        The diagram's title.

    Attributes
    ----------
    ax_ : matplotlib Axes
        The Axes drawn on.
    figure_ : matplotlib Figure
        The figure of ``ax_``.
    comparison : AcrossDatasetsComparison or None
        The comparison drawn, when built from one.

    See Also
    --------
    compare_across_datasets : The comparison the diagram draws.

    References
    ----------
    .. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
       sets", Journal of Machine Learning Research 7, 2006, pp. 1-30 (Figures 1-2).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from sklearn_ordinal.stats import CriticalDifferenceDisplay
    >>> mae = pd.DataFrame({"ordinal": [0.50, 0.61, 0.42, 0.70, 0.55, 0.48],
    ...                     "logistic": [0.58, 0.66, 0.49, 0.71, 0.60, 0.57],
    ...                     "trivial": [0.90, 0.95, 0.80, 1.02, 0.85, 0.88]})
    >>> display = CriticalDifferenceDisplay.from_scores(
    ...     mae, "mean_absolute_error", posthoc="nemenyi")
    >>> display.cliques
    [['ordinal', 'logistic'], ['logistic', 'trivial']]
    """

    ax_: Axes
    figure_: Figure | SubFigure
    comparison: AcrossDatasetsComparison | None

    def __init__(
        self,
        average_ranks: pd.Series,
        cliques: Sequence[Sequence[Any]],
        *,
        critical_difference: float | None = None,
        title: str | None = None,
    ) -> None:
        self.average_ranks = pd.Series(average_ranks, dtype=np.float64)
        self.cliques = [list(clique) for clique in cliques]
        self.critical_difference = critical_difference
        self.title = title
        self.comparison = None

    @classmethod
    def from_comparison(
        cls,
        comparison: AcrossDatasetsComparison,
        *,
        ax: Axes | None = None,
        title: str | None = None,
    ) -> Self:
        """Draw the diagram of a :func:`compare_across_datasets` result.

        Parameters
        ----------
        comparison : AcrossDatasetsComparison
            What :func:`compare_across_datasets` returned.
        ax : matplotlib Axes, default=None
            Where to draw; a new figure when None.
        title : str, default=None
            Default: the measure and the post-hoc test.

        Returns
        -------
        display : CriticalDifferenceDisplay
            The diagram drawn; ``display.comparison`` is ``comparison``.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import pandas as pd
        >>> from sklearn_ordinal.stats import (
        ...     CriticalDifferenceDisplay, compare_across_datasets)
        >>> mae = pd.DataFrame({"ordinal": [0.50, 0.61, 0.42, 0.70, 0.55, 0.48],
        ...                     "logistic": [0.58, 0.66, 0.49, 0.71, 0.60, 0.57],
        ...                     "trivial": [0.90, 0.95, 0.80, 1.02, 0.85, 0.88]})
        >>> comparison = compare_across_datasets(mae, "mean_absolute_error",
        ...                                      posthoc="nemenyi")
        >>> display = CriticalDifferenceDisplay.from_comparison(comparison)
        >>> display.ax_.get_title()
        'mean_absolute_error: 3 systems, 6 data sets (Nemenyi, CD = 1.35, alpha = 0.05)'
        >>> display.cliques
        [['ordinal', 'logistic'], ['logistic', 'trivial']]
        """
        check_matplotlib_support(f"{cls.__name__}.from_comparison")
        if title is None:
            test = ("Wilcoxon-Holm" if comparison.posthoc == "wilcoxon"
                    else f"Nemenyi, CD = {comparison.critical_difference:.2f}")
            measure = f"{comparison.measure}: " if comparison.measure is not None else ""
            title = (f"{measure}{comparison.n_systems} systems, {comparison.n_datasets} "
                     f"data sets ({test}, alpha = {comparison.alpha:g})")
        display = cls(
            comparison.average_ranks,
            comparison.cliques,
            critical_difference=(comparison.critical_difference
                                 if comparison.posthoc == "nemenyi" else None),
            title=title,
        )
        display.comparison = comparison
        return display.plot(ax=ax)

    @classmethod
    def from_scores(
        cls,
        scores: pd.DataFrame | Mapping[Any, Any] | Sequence[Any] | npt.ArrayLike,
        measure: str | None = None,
        *,
        greater_is_better: bool | None = None,
        alpha: float = 0.05,
        posthoc: Literal["wilcoxon", "nemenyi"] = "wilcoxon",
        drop_incomplete: bool = False,
        ax: Axes | None = None,
        title: str | None = None,
    ) -> Self:
        """Compare systems across data sets and draw the diagram.

        Parameters
        ----------
        scores : DataFrame, array-like, dict or list
            The scores of the systems on the data sets, in any form
            :func:`compare_across_datasets` reads.
        measure : str, default=None
            The name the scores were recorded under, which gives their direction.
        greater_is_better : bool, default=None
            The direction, for a measure the package does not know.
        alpha : float, default=0.05
            Significance level of the cliques.
        posthoc : {"wilcoxon", "nemenyi"}, default="wilcoxon"
            The pairwise test behind the cliques; "nemenyi" also draws the critical
            difference.
        drop_incomplete : bool, default=False
            Leave out the data sets that lack a score, instead of failing.
        ax : matplotlib Axes, default=None
            Where to draw; a new figure when None.
        title : str, default=None
            Default: the measure and the post-hoc test.

        Returns
        -------
        display : CriticalDifferenceDisplay
            ``display.comparison`` holds the statistics.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import pandas as pd
        >>> from sklearn_ordinal.stats import CriticalDifferenceDisplay
        >>> mae = pd.DataFrame({"ordinal": [0.50, 0.61, 0.42, 0.70, 0.55, 0.48],
        ...                     "logistic": [0.58, 0.66, 0.49, 0.71, 0.60, 0.57],
        ...                     "trivial": [0.90, 0.95, 0.80, 1.02, 0.85, 0.88]})
        >>> display = CriticalDifferenceDisplay.from_scores(mae, "mean_absolute_error")
        >>> display.comparison.average_ranks.tolist()
        [1.0, 2.0, 3.0]
        >>> display.cliques  # Wilcoxon-Holm: no pair differs on 6 data sets
        [['ordinal', 'logistic', 'trivial']]
        """
        check_matplotlib_support(f"{cls.__name__}.from_scores")
        comparison = compare_across_datasets(
            scores, measure, greater_is_better=greater_is_better, alpha=alpha,
            posthoc=posthoc, drop_incomplete=drop_incomplete,
        )
        return cls.from_comparison(comparison, ax=ax, title=title)

    def plot(self, ax: Axes | None = None, *, fontsize: float = 10) -> Self:
        """Draw the diagram.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure sized for the systems' names when None.
        fontsize : float, default=10
            Of the systems' names.

        Returns
        -------
        display : CriticalDifferenceDisplay
            ``self``, with ``ax_`` and ``figure_`` set.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> import pandas as pd
        >>> from sklearn_ordinal.stats import CriticalDifferenceDisplay
        >>> display = CriticalDifferenceDisplay(
        ...     pd.Series({"a": 1.2, "b": 2.1, "c": 2.7}), [["b", "c"]],
        ...     critical_difference=1.0)
        >>> fig, ax = plt.subplots()
        >>> display.plot(ax).ax_ is ax
        True
        >>> [text.get_text().strip() for text in ax.texts]
        ['1', '2', '3', 'CD', 'a (1.20)', 'b (2.10)', 'c (2.70)']
        """
        check_matplotlib_support(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt

        ranks = self.average_ranks.sort_values(kind="stable")
        k = len(ranks)
        n_left = (k + 1) // 2
        labels = [f"{name} ({rank:.2f})" for name, rank in ranks.items()]
        n_rows = max(n_left, k - n_left)
        pad = 0.03 * (max(k, 2) - 1)
        spans = [(self.average_ranks.loc[clique].min() - pad,
                  self.average_ranks.loc[clique].max() + pad) for clique in self.cliques]
        levels = _pack(spans)
        n_levels = max(levels, default=-1) + 1
        depth = _TICK + _CLIQUE_STEP * (n_levels + 1)
        bottom = depth + _LABEL_STEP * n_rows
        if ax is None:
            # Room on each side for the longest name, about 0.6 em a character.
            label_inches = max(map(len, labels)) * 0.6 * fontsize / 72 + 0.3
            width = max(6.0, 2 * label_inches + 0.45 * k)
            height = 0.9 + 0.3 * n_rows + 0.15 * n_levels
            figure, ax = plt.subplots(figsize=(width, height))
            side = label_inches / width
            figure.subplots_adjust(left=side, right=1 - side, top=0.82 if self.title else 0.9,
                                   bottom=0.04)
        low, high = 1, max(k, 2)
        ax.set_xlim(low, high)
        # Room above the tick numbers for the CD bar and its label when drawn.
        ax.set_ylim(-bottom, 0.45 if self.critical_difference is None else 0.65)
        ax.set_axis_off()

        # The rank axis, 1 on the left, its ticks and numbers above it.
        ax.plot([low, high], [0, 0], color="black", linewidth=1)
        ticks = np.arange(low, high + 1)
        ax.vlines(ticks, 0, _TICK, color="black", linewidth=1)
        ax.vlines(ticks[:-1] + 0.5, 0, _TICK / 2, color="black", linewidth=0.7)
        for tick in ticks:
            ax.text(float(tick), _TICK * 1.3, str(tick), ha="center", va="bottom",
                    fontsize=fontsize)
        if self.critical_difference is not None:
            ends = [low, low + self.critical_difference]
            ax.plot(ends, [0.38, 0.38], color="black", linewidth=1.5)
            ax.vlines(ends, 0.34, 0.42, color="black", linewidth=1)
            ax.text(float(np.mean(ends)), 0.4, "CD", ha="center", va="bottom", fontsize=fontsize)

        # Each system's line: down from its rank, then out to its side.
        for i, (rank, label) in enumerate(zip(ranks.to_numpy(), labels)):
            on_left = i < n_left
            row = i if on_left else k - 1 - i
            y = -(depth + _LABEL_STEP * (row + 0.5))
            end = low - 0.02 * (high - low) if on_left else high + 0.02 * (high - low)
            ax.plot([rank, rank, end], [0, y, y], color="black", linewidth=0.8)
            ax.text(end, y, (" " if not on_left else "") + label + (" " if on_left else ""),
                    ha="right" if on_left else "left", va="center", fontsize=fontsize,
                    clip_on=False)

        # The cliques: one thick bar each, from its best to its worst member.
        for (start, end), level in zip(spans, levels):
            y = -(_TICK + _CLIQUE_STEP * (level + 0.5))
            ax.plot([start, end], [y, y], color="black", linewidth=3.5,
                    solid_capstyle="round")
        if self.title:
            ax.set_title(self.title, fontsize=fontsize, pad=12)
        self.ax_ = ax
        self.figure_ = ax.figure
        return self
