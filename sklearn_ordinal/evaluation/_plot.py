"""The dot-and-interval chart of an :class:`EvaluationReport` (matplotlib)."""

import numpy as np

from ._trivial_row import TRIVIAL


def plot_report(report, measures, ax=None):
    """One panel per measure: each system's estimate and interval, the baseline dashed."""
    import matplotlib.pyplot as plt

    unknown = [measure for measure in measures if measure not in report.measures]
    if unknown:
        raise ValueError(f"The report has no measures {unknown}; it has {report.measures}.")
    if ax is None:
        _, ax = plt.subplots(
            1, len(measures), figsize=(3.2 * len(measures), 0.5 * len(report.systems) + 1.6),
            squeeze=False, sharey=True, layout="constrained",
        )
    axes = np.asarray(ax, dtype=object).ravel()
    if len(axes) != len(measures):
        raise ValueError(f"ax holds {len(axes)} Axes for {len(measures)} measures.")
    # A system none of these measures applies to would be an empty row.
    estimates = report.scores.loc[list(report.systems), (measures, "estimate")]
    systems = list(estimates.index[estimates.notna().any(axis=1)])
    positions = np.arange(len(systems))[::-1]
    for axis, measure in zip(axes, measures):
        table = report.scores[measure]
        rows = table.loc[systems]
        estimate = rows["estimate"].to_numpy()
        errors = np.vstack([estimate - rows["low"].to_numpy(),
                            rows["high"].to_numpy() - estimate])
        axis.errorbar(estimate, positions, xerr=errors, fmt="o", capsize=3)
        trivial = table.loc[TRIVIAL, "estimate"]
        if not np.isnan(trivial):
            axis.axvline(trivial, linestyle="--", color="grey", label="trivial")
        direction = "higher" if report.greater_is_better[measure] else "lower"
        axis.set_title(f"{measure}\n({direction} is better)", fontsize="medium")
        axis.set_yticks(positions, systems)
        axis.grid(axis="x", alpha=0.3)
    axes[-1].legend(loc="best", fontsize="small")
    return axes
