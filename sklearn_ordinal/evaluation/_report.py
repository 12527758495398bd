"""The report of :func:`~sklearn_ordinal.evaluation.evaluate` and its exports."""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any, overload

import numpy as np
import numpy.typing as npt
import pandas as pd

from .._json_values import json_value
from .._markdown import markdown_cell, markdown_text
from ..metrics._registry import check_recorded_scores
from ._calibration import CALIBRATION_COLUMNS, CALIBRATION_NOTE
from ._html import fixed, render_html
from ._plot import plot_report
from ._trivial_row import TRIVIAL
from ._wording import _intervals_phrase

if TYPE_CHECKING:  # matplotlib is optional and imported only to draw
    from matplotlib.axes import Axes

FORMAT = "sklearn_ordinal.evaluation"
# 2: comparisons against the trivial classifier, the bootstrap p-value (the inversion of
# the comparison's interval) with the randomization p-value beside it, and warnings.
FORMAT_VERSION = 2

_COMMON_RANDOM_NUMBERS = (
    "Every interval and comparison is resampled with the same random numbers (the "
    "seed): identical predictions get identical intervals."
)

_WARNING_COLUMNS = ["system", "measure", "category", "message"]

_BASELINE_NOTES = {
    "gold": "The trivial classifier of each measure chose its class on the gold labels "
    "themselves (no baseline_labels given): an optimistic baseline.",
    "baseline_labels": "The trivial classifier of each measure chose its class on the "
    "training labels (baseline_labels).",
}


def _calibration_table(records):
    """The calibration table of a JSON report (None in one without it)."""
    if not records:
        return None
    table = pd.DataFrame.from_records(records).set_index("system")
    table.index.name = None
    return table[CALIBRATION_COLUMNS].map(_number)


def _number(value):
    return np.nan if value is None else float(value)


class EvaluationReport:
    """Systems judged against one gold standard, as :func:`evaluate` returns them.

    Build it with :func:`evaluate` (or :meth:`from_json`); its tables are pandas
    DataFrames, each available as the attribute of the same name.

    Parameters
    ----------
    scores : pandas.DataFrame
        One row per system, then the row ``"(trivial)"``: the trivial classifier of
        each measure. Columns: a level per measure, each with ``estimate``, ``low``
        and ``high`` (the confidence interval). NaN where the measure does not
        apply to the system (see ``notes``).
    per_class : pandas.DataFrame
        One row per system; columns ``("recall", class)`` (systems giving labels)
        and ``("mean_absolute_error", class)`` (labels or real-valued predictions,
        classes in order), classes in class order; NaN for a class with no gold item.
    per_group : pandas.DataFrame or None
        With ``groups``: every measure on each group alone, indexed by
        (system, group).
    per_group_mean : pandas.DataFrame or None
        The plain mean of ``per_group`` over the groups (each test case counting
        once, as in the CEM paper's protocol), systems x measures; groups on which
        a measure is undefined are left out.
    comparisons : pandas.DataFrame
        Indexed by (measure, system_a, system_b), one row per pair of systems:
        ``estimate_a``, ``estimate_b``, ``difference`` (a minus b), its interval
        ``low`` and ``high`` (the percentile interval of the paired bootstrap),
        ``pvalue`` (from the same bootstrap: the smallest :math:`\\alpha` at which
        the interval of level :math:`1 - \\alpha` touches 0, so the interval excludes
        0 exactly when ``pvalue`` is below ``1 - confidence_level``),
        ``pvalue_randomization`` (the paired randomization test, for reference),
        ``pvalue_holm`` (``pvalue`` adjusted by Holm's method within the measure)
        and ``better``: the better system when ``pvalue_holm`` is below
        ``1 - confidence_level``, else ``"no difference"``. After the pairs of
        systems come the rows of each system against ``"(trivial)"``, where
        ``better`` is ``"(trivial)"`` when the system is worse than the baseline.
    notes : pandas.DataFrame
        ``system``, ``measure``, ``reason``: why a value is NaN.
    systems : dict
        ``{name: kind}``, kind being ``"labels"``, ``"scores"`` or ``"probabilities"``.
    classes : ndarray
        The classes, in order.
    trivial_classes : dict
        ``{measure: class chosen by its trivial classifier}``.
    settings : dict
        Everything needed to reproduce the report: the measures, confidence level,
        resamples, interval method, seed, where the baseline was fitted and the
        package version.
    warnings : pandas.DataFrame, default=None
        ``system`` (or ``"a - b"`` for a comparison), ``measure``, ``category``,
        ``message``: the warnings of the resampling, which :func:`evaluate`
        summarizes in one warning per measure.
    confusion_matrices : dict, default=None
        ``{system: DataFrame}`` for the systems giving labels: the (weighted) count of
        items of each true class (rows) and predicted class (columns), classes in
        order.
    calibration : pandas.DataFrame, default=None
        For the systems giving class probabilities: their ranked probability score
        (``score``) split into ``miscalibration``, ``discrimination`` and
        ``uncertainty`` (the CORP decomposition,
        :func:`~sklearn_ordinal.metrics.ranked_probability_score_decomposition`;
        UNC is the gold standard's, the same for every system). None when no system
        gives probabilities.
    reliability_diagrams : dict, default=None
        ``{system: {"thresholds", "forecast", "recalibrated"}}``: per threshold
        ``P(y <= c)``, the forecast values and their CORP recalibrated values (at
        most 200 of them), as the HTML report draws them.

    Attributes
    ----------
    input_note : str or None
        Where the items came from, in words: the files' formats and the convention
        for missing predictions with the number of items it affected
        (``read_evaluation_files(...).note``; the command line sets it). The first
        line of every export when set.
    greater_is_better : dict
        ``{measure: bool}``: whether a higher value of the measure is better.

    See Also
    --------
    evaluate : Makes the report.

    Examples
    --------
    >>> from sklearn_ordinal import evaluate
    >>> y_true = [0] * 40 + [1] * 30 + [2] * 30
    >>> good = [0] * 35 + [1] * 5 + [1] * 25 + [2] * 5 + [2] * 28 + [1] * 2
    >>> report = evaluate(y_true, {"good": good}, measures=["cem_ord"],
    ...                   n_resamples=999, random_state=0)
    >>> report
    EvaluationReport(systems=1, measures=1, classes=3)
    >>> report.scores.round(3)
    measure    cem_ord
              estimate   low   high
    good         0.928  0.88  0.960
    (trivial)    0.588  0.58  0.594
    >>> report.per_class.round(3)
    quantity recall               mean_absolute_error
    class         0      1      2                   0      1      2
    good      0.875  0.833  0.933               0.125  0.167  0.067
    """

    def __init__(
        self,
        *,
        scores: pd.DataFrame,
        per_class: pd.DataFrame,
        per_group: pd.DataFrame | None,
        per_group_mean: pd.DataFrame | None,
        comparisons: pd.DataFrame,
        notes: pd.DataFrame,
        systems: dict[str, str],
        classes: npt.NDArray[Any],
        trivial_classes: dict[str, Any],
        settings: dict[str, Any],
        warnings: pd.DataFrame | None = None,
        confusion_matrices: dict[str, pd.DataFrame] | None = None,
        calibration: pd.DataFrame | None = None,
        reliability_diagrams: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.scores = scores
        self.per_class = per_class
        self.per_group = per_group
        self.per_group_mean = per_group_mean
        self.comparisons = comparisons
        self.notes = notes
        self.warnings = (pd.DataFrame(columns=_WARNING_COLUMNS) if warnings is None
                         else warnings)
        self.systems = systems
        self.classes = classes
        self.confusion_matrices = {} if confusion_matrices is None else confusion_matrices
        self.calibration = calibration
        self.reliability_diagrams = reliability_diagrams
        self.trivial_classes = trivial_classes
        self.settings = settings
        self.input_note: str | None = None
        self.greater_is_better = {
            measure["name"]: measure["greater_is_better"] for measure in settings["measures"]
        }

    @classmethod
    def _from_records(cls, *, scores, comparisons, per_class, per_group, per_group_mean,
                      notes, systems, classes, trivial_classes, settings, warnings=None,
                      confusion_matrices=None, calibration=None, reliability_diagrams=None):
        measures = [measure["name"] for measure in settings["measures"]]
        rows = list(systems) + [TRIVIAL]
        table = pd.DataFrame.from_records(scores).set_index(["system", "measure"])
        wide = table.unstack("measure")
        wide.columns = wide.columns.swaplevel(0, 1)
        columns = pd.MultiIndex.from_product(
            [measures, ["estimate", "low", "high"]], names=["measure", None]
        )
        wide = wide.reindex(index=rows, columns=columns)
        wide.index.name = None
        comparison_columns = ["measure", "system_a", "system_b", "estimate_a", "estimate_b",
                              "difference", "low", "high", "pvalue", "pvalue_randomization",
                              "pvalue_holm", "better"]
        comparisons = pd.DataFrame.from_records(comparisons, columns=comparison_columns)
        comparisons = comparisons.set_index(["measure", "system_a", "system_b"])
        notes = pd.DataFrame.from_records(notes, columns=["system", "measure", "reason"])
        return cls(
            scores=wide,
            per_class=per_class,
            per_group=per_group,
            per_group_mean=per_group_mean,
            comparisons=comparisons,
            notes=notes,
            warnings=pd.DataFrame.from_records(warnings or [], columns=_WARNING_COLUMNS)
            if not isinstance(warnings, pd.DataFrame) else warnings,
            systems=dict(systems),
            classes=np.asarray(classes),
            confusion_matrices=confusion_matrices,
            trivial_classes=dict(trivial_classes),
            settings=settings,
            calibration=calibration,
            reliability_diagrams=reliability_diagrams,
        )

    @property
    def measures(self) -> list[str]:
        """The measures' names, in report order."""
        return [measure["name"] for measure in self.settings["measures"]]

    @property
    def baseline_note(self) -> str:
        """Where the trivial classifiers chose their class, in words."""
        return _BASELINE_NOTES[self.settings["baseline"]]

    @property
    def resampling_note(self) -> str:
        """What the intervals and comparisons resampled, in words."""
        n_groups = self.settings.get("n_groups")
        if self.settings.get("resampled") == "groups":
            return f"The {n_groups} test cases were resampled, each with its items."
        if n_groups is None:
            return "The items were resampled."
        return (
            f"The items were resampled: {n_groups} test cases are too few to resample "
            "(fewer than 20 give too narrow intervals), so the intervals take the items "
            "as independent."
        )

    @property
    def probabilities_note(self) -> str:
        """Which systems gave class probabilities and what read them, in words; empty
        when none did."""
        given = self.settings.get("probabilities_given") or []
        if not given:
            return ""
        only = [name for name in given if self.systems.get(name) == "probabilities"]
        beside = [name for name in given if name not in only]
        text = (f"Class probabilities given by {', '.join(given)}: the ranked probability "
                "score reads them, and the ranking measures their expected class "
                "(sum over k of k p_k).")
        if beside:
            text += (" " + ", ".join(f"{name} also gave {self.systems[name]}"
                                     for name in beside)
                     + ", which the other measures read.")
        if only:
            text += (f" {', '.join(only)} gave only probabilities: the measures of classes "
                     "are n/a for them, as no class is derived from probabilities.")
        return text

    def __repr__(self):
        return (
            f"EvaluationReport(systems={len(self.systems)}, measures={len(self.measures)}, "
            f"classes={len(self.classes)})"
        )

    def to_string(self, *, digits: int = 3, width: int = 80) -> str:
        """The report as plain text: scores with intervals, comparisons, notes.

        A measure per row and a system per column, each cell the estimate and its
        interval; then the paired comparisons of each measure, the pooled scores beside
        the mean over the groups, and the notes. Tables wider than ``width`` are
        wrapped into blocks of columns, so the text fits a terminal for any number of
        systems. ``str(report)`` gives the same text. The per-class and per-group
        tables are in :meth:`to_markdown`, :meth:`to_html`, :meth:`to_json` and the
        attributes.

        Parameters
        ----------
        digits : int, default=3
            Decimals shown.
        width : int, default=80
            Characters per line, prose and tables alike.

        Returns
        -------
        text : str
            The report, ending with a newline.

        Examples
        --------
        >>> from sklearn_ordinal import evaluate
        >>> report = evaluate([0, 0, 1, 1, 2, 2], {"a": [0, 1, 1, 1, 2, 2]},
        ...                   measures=["accuracy"], n_resamples=99, random_state=0)
        >>> print(next(line for line in report.to_string().splitlines()
        ...            if line.startswith("accuracy")))
        accuracy (higher)  0.833 [0.500, 1.000]  0.333 [0.000, 0.667]
        """
        def number(value):
            return "n/a" if pd.isna(value) else f"{value:.{digits}f}"

        def interval(low, high):
            return "" if pd.isna(low) else f"[{number(low)}, {number(high)}]"

        def table(frame):
            return frame.to_string(line_width=width)

        settings = self.settings
        level = f"{100 * settings['confidence_level']:g}%"
        alpha = f"{1 - settings['confidence_level']:.2g}"
        scores = pd.DataFrame(
            {system: [f"{number(self.scores.loc[system, (measure, 'estimate')])} "
                      + interval(self.scores.loc[system, (measure, "low")],
                                 self.scores.loc[system, (measure, "high")])
                      for measure in self.measures]
             for system in self.scores.index},
            index=pd.Index([self._labelled(measure) for measure in self.measures],
                           name="measure (better)"),
        )
        sections = [self.input_note] if self.input_note else []
        sections += [
            f"Scores with {_intervals_phrase(settings, level)}; classes "
            f"in order: {', '.join(map(str, self.classes.tolist()))}. "
            + self.resampling_note + " " + _COMMON_RANDOM_NUMBERS,
            *([self.probabilities_note] if self.probabilities_note else []),
            table(scores),
            "(trivial): the trivial classifier of each measure, one class for every item ("
            + ", ".join(f"{measure}: {self.trivial_classes[measure]}"
                        for measure in self.measures) + "). " + self.baseline_note,
        ]
        if len(self.comparisons):
            sections.append(self._comparisons_note(level, alpha))
            for measure in self.measures:
                if measure not in self.comparisons.index.get_level_values("measure"):
                    continue
                rows = self.comparisons.loc[measure]
                frame = pd.DataFrame({
                    "a - b [interval]": [
                        f"{number(difference)} {interval(low, high)}"
                        for difference, low, high in zip(rows["difference"], rows["low"],
                                                         rows["high"])],
                    "p": rows["pvalue"].map(number),
                    "Holm": rows["pvalue_holm"].map(number),
                    "better": [_verdict(b, better) for (_, b), better
                               in zip(rows.index, rows["better"])],
                })
                frame.index = frame.index.set_names(["a", "b"])
                sections.append(f"{self._labelled(measure)}:\n" + table(frame))
        if self.per_group_mean is not None:
            sections += [self._pooled_note(),
                         table(self._pooled_and_mean(number, " / "))]
        if self.calibration is not None:
            sections += [CALIBRATION_NOTE, table(self.calibration.map(number))]
        if len(self.notes):
            sections += ["Notes:\n" + "\n".join(
                textwrap.fill(f"- {row.system}, {row.measure}: {row.reason}.", width,
                              subsequent_indent="  ")
                for row in self.notes.itertuples())]
        sections.append("Per class and per group: to_markdown(), to_html() or to_json() "
                        "(--format markdown, html or json).")
        # Prose wrapped for a terminal; tables wrapped into blocks of columns above.
        return "\n\n".join(section if "\n" in section else textwrap.fill(section, width)
                             for section in sections) + "\n"

    def _labelled(self, measure):
        return f"{measure} ({'higher' if self.greater_is_better[measure] else 'lower'})"

    def _comparisons_note(self, level, alpha):
        return (
            f"Paired differences a - b with {level} percentile bootstrap intervals; p: "
            f"from the same bootstrap (the interval excludes 0 exactly when p < {alpha}); "
            f"Holm: p adjusted by Holm's method within each measure. A system is named "
            f"better only when Holm < {alpha}: an interval may exclude 0 beside "
            "'no difference', as the intervals are not adjusted for the number of "
            f"comparisons. Against {TRIVIAL}, 'worse' says the system is worse than the "
            "trivial classifier."
        )

    def _pooled_note(self):
        n_groups = self.settings.get("n_groups")
        return (
            "Pooled over the items (the scores above, the report's headline) / mean over "
            f"the {n_groups} groups, each counting once (PyEvALL's headline):"
        )

    def _pooled_and_mean(self, number, separator):
        return pd.DataFrame(
            {system: [number(self.scores.loc[system, (measure, "estimate")]) + separator
                      + number(self.per_group_mean.loc[system, measure])
                      for measure in self.measures]
             for system in self.per_group_mean.index},
            index=pd.Index([self._labelled(measure) for measure in self.measures],
                           name="measure (better)"),
        )

    def __str__(self):
        return self.to_string()

    def _kind(self, system):
        """What the system gave: its kind, ``+probabilities`` when it also gave class
        probabilities beside labels or scores."""
        kind = self.systems[system]
        given = self.settings.get("probabilities_given") or []
        return f"{kind}+probabilities" if system in given and kind != "probabilities" else kind

    def to_frame(self) -> pd.DataFrame:
        """The scores as one tidy table: a row per (system, measure).

        Returns
        -------
        frame : pandas.DataFrame
            Columns ``system``, ``kind`` (``"trivial"`` for the baseline rows;
            ``"labels+probabilities"`` for a system that gave both),
            ``measure``, ``estimate``, ``low``, ``high``, ``greater_is_better``,
            ``trivial_class`` (baseline rows only) and ``note`` (why a value is NaN).

        Examples
        --------
        >>> from sklearn_ordinal import evaluate
        >>> report = evaluate([0, 0, 1, 1, 2, 2], {"a": [0, 1, 1, 1, 2, 2]},
        ...                   measures=["accuracy"], n_resamples=99, random_state=0)
        >>> report.to_frame()[["system", "measure", "estimate"]].round(3)
              system   measure  estimate
        0          a  accuracy     0.833
        1  (trivial)  accuracy     0.333
        """
        notes = {(row.system, row.measure): row.reason for row in self.notes.itertuples()}
        records = []
        for system in self.scores.index:
            for measure in self.measures:
                cell = self.scores.loc[system, measure]
                is_trivial = system == TRIVIAL
                records.append({
                    "system": system,
                    "kind": "trivial" if is_trivial else self._kind(system),
                    "measure": measure,
                    "estimate": cell["estimate"],
                    "low": cell["low"],
                    "high": cell["high"],
                    "greater_is_better": self.greater_is_better[measure],
                    "trivial_class": self.trivial_classes[measure] if is_trivial else None,
                    "note": notes.get((system, measure)),
                })
        frame = pd.DataFrame.from_records(records)
        # Integer classes beside the systems' empty cells would become floats (the
        # class 3 written as 3.0): the column keeps the classes as they are.
        frame["trivial_class"] = pd.Series(
            [record["trivial_class"] for record in records], dtype=object, index=frame.index
        )
        return frame

    @overload
    def to_csv(self, path_or_buf: None = None, **kwargs: Any) -> str: ...

    @overload
    def to_csv(self, path_or_buf: str | os.PathLike[str] | IO[str], **kwargs: Any) -> None: ...

    def to_csv(
        self, path_or_buf: str | os.PathLike[str] | IO[str] | None = None, **kwargs: Any
    ) -> str | None:
        """Write :meth:`to_frame` as CSV.

        Parameters
        ----------
        path_or_buf : str, path object, file-like or None, default=None
            Where to write; None returns the text.
        **kwargs
            Passed to :meth:`pandas.DataFrame.to_csv` (``index=False`` by default).

        Returns
        -------
        text : str or None
            The CSV text when ``path_or_buf`` is None.

        Examples
        --------
        >>> from sklearn_ordinal import evaluate
        >>> report = evaluate([0, 0, 1, 1, 2, 2], {"a": [0, 1, 1, 1, 2, 2]},
        ...                   measures=["accuracy"], n_resamples=99, random_state=0)
        >>> print(report.to_csv().splitlines()[0])
        system,kind,measure,estimate,low,high,greater_is_better,trivial_class,note
        """
        return self.to_frame().to_csv(path_or_buf, **{"index": False, **kwargs})

    def to_dict(self) -> dict[str, Any]:
        """Everything in the report as plain Python data (the content of :meth:`to_json`).

        Returns
        -------
        content : dict
            See :meth:`to_json` for the keys.

        Examples
        --------
        >>> from sklearn_ordinal import evaluate
        >>> report = evaluate([0, 0, 1, 1, 2, 2], {"a": [0, 1, 1, 1, 2, 2]},
        ...                   measures=["accuracy"], n_resamples=99, random_state=0)
        >>> report.to_dict()["classes"]
        [0, 1, 2]
        """
        frame = self.to_frame()
        per_class = [
            {"system": system, "quantity": quantity, "class": json_value(label),
             "value": json_value(value)}
            for system, row in self.per_class.iterrows()
            for (quantity, label), value in row.items()
        ]
        per_group = None
        if self.per_group is not None:
            per_group = [
                {"system": system, "group": json_value(group),
                 **{measure: json_value(value) for measure, value in row.items()}}
                for (system, group), row in self.per_group.iterrows()
            ]
        comparisons = [
            {"measure": measure, "system_a": a, "system_b": b,
             **{key: json_value(value) for key, value in row.items()}}
            for (measure, a, b), row in self.comparisons.iterrows()
        ]
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "sklearn_ordinal_version": self.settings["sklearn_ordinal_version"],
            "classes": [json_value(label) for label in self.classes.tolist()],
            "systems": [{"name": name, "kind": kind} for name, kind in self.systems.items()],
            "settings": self.settings,
            "input_note": self.input_note,
            "baseline_note": self.baseline_note,
            "resampling_note": self.resampling_note,
            "probabilities_note": self.probabilities_note,
            "trivial_classes": {
                measure: json_value(label) for measure, label in self.trivial_classes.items()
            },
            "scores": [
                {key: json_value(value) for key, value in record.items()}
                for record in frame.drop(columns="note").to_dict("records")
            ],
            "per_class": per_class,
            "per_group": per_group,
            "comparisons": comparisons,
            "notes": self.notes.to_dict("records"),
            "warnings": self.warnings.to_dict("records"),
            "confusion_matrices": [
                {"system": system, "true": json_value(true), "predicted": json_value(predicted),
                 "count": json_value(count)}
                for system, matrix in self.confusion_matrices.items()
                for true, row in matrix.iterrows() for predicted, count in row.items()
            ],
            "calibration": None if self.calibration is None else [
                {"system": system, **{key: json_value(value) for key, value in row.items()}}
                for system, row in self.calibration.iterrows()
            ],
            "reliability_diagrams": self.reliability_diagrams,
        }

    @overload
    def to_json(self, path: None = None, *, indent: int | None = ...) -> str: ...

    @overload
    def to_json(self, path: str | os.PathLike[str], *, indent: int | None = ...) -> None: ...

    def to_json(
        self, path: str | os.PathLike[str] | None = None, *, indent: int | None = 2
    ) -> str | None:
        """The whole report as JSON, with the class order and every setting.

        Keys: ``format`` (``"sklearn_ordinal.evaluation"``) and ``format_version``;
        ``sklearn_ordinal_version``; ``classes`` (in order); ``systems`` (name and
        kind); ``settings`` (the measures with their scorer names, definitions and
        directions, ``confidence_level``, ``n_resamples``, ``interval_method``,
        ``comparison_test``, ``multiple_comparisons``, ``random_state``, the seed, and
        what was given: ``labels_given``, ``class_values``, ``sample_weight``,
        ``groups``, ``n_groups``, ``resampled``, ``baseline``); ``baseline_note``;
        ``resampling_note``; ``probabilities_note`` (which systems gave class
        probabilities; their names are also in ``settings["probabilities_given"]``);
        ``trivial_classes``; ``scores`` (the records of
        :meth:`to_frame`); ``per_class``, ``per_group`` and
        ``comparisons`` (records); ``notes``. NaN is written as ``null``.

        Parameters
        ----------
        path : str or path object, default=None
            File to write; None returns the text.
        indent : int or None, default=2
            Spaces per level of nesting; None writes one line.

        Returns
        -------
        text : str or None
            The JSON text when ``path`` is None.

        Examples
        --------
        >>> import json
        >>> from sklearn_ordinal import evaluate
        >>> report = evaluate([0, 0, 1, 1, 2, 2], {"a": [0, 1, 1, 1, 2, 2]},
        ...                   measures=["accuracy"], n_resamples=99, random_state=0)
        >>> content = json.loads(report.to_json())
        >>> content["settings"]["random_state"], content["scores"][0]["estimate"]
        (0, 0.8333333333333334)
        """
        text = json.dumps(self.to_dict(), indent=indent, allow_nan=False)
        if path is None:
            return text
        with open(path, "w", encoding="utf-8") as file:
            file.write(text + "\n")
        return None

    @classmethod
    def from_json(cls, text: str) -> EvaluationReport:
        """Read a report written by :meth:`to_json`.

        Parameters
        ----------
        text : str
            The JSON text.

        Returns
        -------
        report : EvaluationReport
            The same tables and settings.

        Examples
        --------
        >>> from sklearn_ordinal import evaluate
        >>> from sklearn_ordinal.evaluation import EvaluationReport
        >>> report = evaluate([0, 0, 1, 1, 2, 2], {"a": [0, 1, 1, 1, 2, 2]},
        ...                   measures=["accuracy"], n_resamples=99, random_state=0)
        >>> again = EvaluationReport.from_json(report.to_json())
        >>> again.scores.equals(report.scores)
        True
        """
        content = json.loads(text)
        if content.get("format") != FORMAT:
            raise ValueError(
                f"This JSON is not an evaluation report of sklearn_ordinal (format "
                f"{content.get('format')!r}, expected {FORMAT!r})."
            )
        if content["format_version"] > FORMAT_VERSION:
            raise ValueError(
                f"This report has format version {content['format_version']}; this "
                f"sklearn_ordinal reads up to {FORMAT_VERSION}. Upgrade sklearn_ordinal."
            )
        scores = [
            {"system": record["system"], "measure": record["measure"],
             **{key: _number(record[key]) for key in ("estimate", "low", "high")}}
            for record in content["scores"]
        ]
        # Read back, the scores are ranked and compared as given: each measure's must
        # lie in its range (a report edited by hand, or written under another name).
        for record in scores:
            check_recorded_scores([record["estimate"]], record["measure"],
                                  lambda _: f"system {record['system']!r} in this report")
        comparisons = [
            {key: (_number(value) if key not in ("measure", "system_a", "system_b", "better")
                   else value) for key, value in record.items()}
            for record in content["comparisons"]
        ]
        per_class = pd.DataFrame.from_records(content["per_class"])
        if len(per_class):
            per_class["value"] = per_class["value"].map(_number)
            per_class = per_class.pivot_table(
                index="system", columns=["quantity", "class"], values="value",
                sort=False, dropna=False,
            )
            per_class.index.name = None
        per_group = per_group_mean = None
        if content["per_group"] is not None:
            per_group = pd.DataFrame.from_records(content["per_group"])
            per_group = per_group.set_index(["system", "group"]).map(_number)
            per_group_mean = per_group.groupby(level="system", sort=False).mean()
        report = cls._from_records(
            scores=scores,
            comparisons=comparisons,
            per_class=per_class,
            per_group=per_group,
            per_group_mean=per_group_mean,
            notes=content["notes"],
            warnings=content.get("warnings"),
            confusion_matrices=_matrices(content.get("confusion_matrices") or [],
                                         content["classes"]),
            systems={system["name"]: system["kind"] for system in content["systems"]},
            classes=content["classes"],
            trivial_classes=content["trivial_classes"],
            settings=content["settings"],
            calibration=_calibration_table(content.get("calibration")),
            reliability_diagrams=content.get("reliability_diagrams"),
        )
        report.input_note = content.get("input_note")
        return report

    @overload
    def to_markdown(self, path: None = None, *, digits: int = ...) -> str: ...

    @overload
    def to_markdown(self, path: str | os.PathLike[str], *, digits: int = ...) -> None: ...

    def to_markdown(
        self, path: str | os.PathLike[str] | None = None, *, digits: int = 3
    ) -> str | None:
        """The report as Markdown: scores with intervals, comparisons, per-class, notes.

        Parameters
        ----------
        path : str or path object, default=None
            File to write; None returns the text.
        digits : int, default=3
            Decimals shown.

        Returns
        -------
        text : str or None
            The Markdown text when ``path`` is None.

        Examples
        --------
        >>> from sklearn_ordinal import evaluate
        >>> report = evaluate([0, 0, 1, 1, 2, 2], {"a": [0, 1, 1, 1, 2, 2]},
        ...                   measures=["accuracy"], n_resamples=99, random_state=0)
        >>> print(report.to_markdown().splitlines()[4])
        | system | accuracy (higher is better) |
        """
        def number(value):
            return "" if pd.isna(value) else fixed(value, digits)

        def cell(row):
            if pd.isna(row["estimate"]):
                return "n/a"
            return f"{number(row['estimate'])} [{number(row['low'])}, {number(row['high'])}]"

        settings = self.settings
        level = f"{100 * settings['confidence_level']:g}%"
        lines = ["# Evaluation report", ""]
        if self.input_note:
            lines += [markdown_text(self.input_note), ""]
        lines += [
            f"Scores with {_intervals_phrase(settings, level)}. "
            + self.resampling_note,
            "",
        ]
        if self.probabilities_note:
            lines += [markdown_text(self.probabilities_note), ""]
        directions = [
            f"{m} ({'higher' if self.greater_is_better[m] else 'lower'} is better)"
            for m in self.measures
        ]
        lines += _markdown_table(
            ["system"] + directions,
            [[system] + [cell(self.scores.loc[system, m]) for m in self.measures]
             for system in self.scores.index],
        )
        lines += [
            "",
            f"{TRIVIAL}: the trivial classifier of each measure (one class for every item: "
            + markdown_text(", ".join(f"{m}: {self.trivial_classes[m]}" for m in self.measures))
            + "). " + self.baseline_note,
            "",
        ]
        if len(self.comparisons):
            lines += ["## Comparisons", "", self._comparisons_note(
                level, f"{1 - settings['confidence_level']:.2g}"), ""]
            lines += _markdown_table(
                ["measure", "a", "b", "a - b", "interval", "p", "Holm",
                 "p (randomization)", "better"],
                [
                    [measure, a, b, number(row["difference"]),
                     "" if pd.isna(row["low"]) else
                     f"[{number(row['low'])}, {number(row['high'])}]",
                     number(row["pvalue"]), number(row["pvalue_holm"]),
                     number(row["pvalue_randomization"]), _verdict(b, row["better"])]
                    for (measure, a, b), row in self.comparisons.iterrows()
                ],
            )
            lines.append("")
        if self.per_class.shape[1]:
            lines += ["## Per class", ""]
            lines += _markdown_table(
                ["system"] + [f"{quantity} {label}" for quantity, label in self.per_class],
                [[system] + [number(value) for value in row]
                 for system, row in self.per_class.iterrows()],
            )
            lines.append("")
        if self.per_group_mean is not None:
            lines += ["## Pooled and mean over groups", "", self._pooled_note(), ""]
            pooled = self._pooled_and_mean(number, " / ")
            lines += _markdown_table(
                ["measure"] + list(pooled.columns),
                [[measure] + list(row) for measure, row in pooled.iterrows()],
            )
            lines.append("")
        if self.calibration is not None:
            lines += ["## Calibration of the class probabilities", "",
                      markdown_text(CALIBRATION_NOTE), ""]
            lines += _markdown_table(
                ["system", "RPS", "MCB", "DSC", "UNC"],
                [[system] + [number(value) for value in row]
                 for system, row in self.calibration.iterrows()],
            )
            lines.append("")
        if len(self.notes):
            lines += ["## Notes", ""]
            lines += [markdown_text(f"- {row.system}, {row.measure}: {row.reason}.")
                      for row in self.notes.itertuples()]
            lines.append("")
        text = "\n".join(lines)
        if path is None:
            return text
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        return None

    @overload
    def to_html(self, path: None = None, *, digits: int = ...) -> str: ...

    @overload
    def to_html(self, path: str | os.PathLike[str], *, digits: int = ...) -> None: ...

    def to_html(self, path: str | os.PathLike[str] | None = None, *, digits: int = 3) -> str | None:
        """The report as one self-contained HTML page.

        The leaderboard (a system per row, sortable by any measure with a click on
        its title, each interval drawn as a bar on the measure's common scale), the
        pooled scores beside the mean over the groups, the comparison matrix of each
        measure, the per-class results and each system's confusion matrix. The style,
        the sorting script and the bars (SVG) are inline: the page makes no network
        request and opens offline.

        Parameters
        ----------
        path : str or path object, default=None
            File to write; None returns the text.
        digits : int, default=3
            Decimals shown; every cell also holds its exact value in ``data-value``.

        Returns
        -------
        text : str or None
            The HTML text when ``path`` is None.

        Examples
        --------
        >>> from sklearn_ordinal import evaluate
        >>> report = evaluate([0, 0, 1, 1, 2, 2], {"a": [0, 1, 1, 1, 2, 2]},
        ...                   measures=["accuracy"], n_resamples=99, random_state=0)
        >>> page = report.to_html()
        >>> page.startswith("<!DOCTYPE html>"), "://" in page
        (True, False)
        """
        text = render_html(self, digits=digits)
        if path is None:
            return text
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        return None

    def plot(
        self,
        measures: Sequence[str] | None = None,
        *,
        ax: Axes | Sequence[Axes] | npt.NDArray[Any] | None = None,
    ) -> npt.NDArray[Any]:
        """Dot-and-interval chart: the systems under each measure, the baseline dashed.

        A system that none of the measures drawn applies to is left out.

        Needs matplotlib (the ``plot`` extra).

        Parameters
        ----------
        measures : list of str, default=None
            The measures to draw, one panel each; default all.
        ax : array of matplotlib Axes, default=None
            One per measure; default a new figure with a row of panels.

        Returns
        -------
        axes : ndarray of matplotlib Axes
            The panels, one per measure, in the order drawn.

        Examples
        --------
        >>> from sklearn_ordinal import evaluate
        >>> report = evaluate([0, 0, 1, 1, 2, 2], {"a": [0, 1, 1, 1, 2, 2]},
        ...                   measures=["accuracy"], n_resamples=99, random_state=0)
        >>> report.plot().shape
        (1,)
        """
        return plot_report(self, self.measures if measures is None else list(measures), ax)


def _matrices(records, classes):
    """``{system: confusion matrix}`` back from the records of :meth:`to_dict`."""
    if not records:
        return {}
    table = pd.DataFrame.from_records(records)
    return {
        system: rows.pivot(index="true", columns="predicted", values="count")
        .reindex(index=classes, columns=classes).rename_axis(index="true",
                                                              columns="predicted")
        for system, rows in table.groupby("system", sort=False)
    }


def _verdict(system_b, better):
    """A comparison's verdict in words: against the trivial classifier, "worse"."""
    if system_b == TRIVIAL and better == TRIVIAL:
        return "worse"
    return better


def _markdown_table(header, rows):
    return (
        ["| " + " | ".join(markdown_cell(h) for h in header) + " |",
         "|" + "|".join(" --- " for _ in header) + "|"]
        + ["| " + " | ".join(markdown_cell(v) for v in row) + " |" for row in rows]
    )
