"""The quantification part of an evaluation report: prevalence measures over groups.

Each group (topic, sample) contributes one value per system and measure: the measure
of its true prevalences against the system's (classify and count for labels, the
mean probability for class probabilities). A measure is the mean of these values, so
a bootstrap over groups is a weighted mean: one multinomial draw of how many times
each group is taken, then one matrix product with the groups' values for every
system, measure and comparison at once; no call of the measure per resample. The
records have the shape of :func:`evaluate`'s ``scores`` and ``comparisons``.
"""

from typing import Any, Mapping, NamedTuple, Optional

import numpy as np
import pandas as pd
from scipy.stats import DegenerateDataWarning
from sklearn.utils import check_random_state

from .._validation import check_ordinal_targets
from ..metrics._quantification import item_prevalences, outside_scale
from ..metrics._registry import is_prevalence_measure, prevalence_measure
from ..stats._multiple_testing import holm_adjust
from ..stats._resampling import (
    _draw_bootstrap,
    _draw_randomization,
    check_n_resamples,
    interval,
)
from ..stats._interval_pvalue import percentile_interval_pvalue
from ._recorded_warnings import recorded_warnings
from ._trivial_row import TRIVIAL

# Fewer groups than this give too narrow bootstrap intervals (as evaluate's item
# measures, which then resample items); here the group is the unit of the measure
# itself, so groups are resampled still, and a note says so.
FEW_GROUPS = 20
# Those of evaluate: BCa for a system's value, the percentile interval (and the
# p-value of its inversion) for a difference.
INTERVAL_METHOD = "bca"
COMPARISON_INTERVAL_METHOD = "percentile"
NO_DIFFERENCE = "no difference"
FAMILY = "quantification"


class QuantificationRecords(NamedTuple):
    """What the quantification part adds to a report."""

    scores: list
    """``{system, measure, estimate, low, high}`` per system and measure, the trivial
    quantifier's row (``"(trivial)"``) included."""
    comparisons: list
    """One record per pair of systems and per system against the trivial quantifier,
    per measure, with evaluate's comparison columns."""
    notes: list
    """``{system, measure, reason}`` where a value is missing or to be read with care."""
    warnings: list
    """``{system, measure, category, message}`` of the warnings of the resampling."""
    measures: list
    """``settings["measures"]`` entries of the prevalence measures."""
    trivial_prevalences: list
    """The trivial quantifier's prevalence of each class, in class order."""
    trivial_description: str
    """What the trivial quantifier predicts, in a few words (the report's trivial
    "class" of a prevalence measure)."""
    per_group: pd.DataFrame
    """Each measure on each group, indexed by (system, group), as evaluate's
    ``per_group`` (the systems only); the mean over groups is the estimate."""


def split_prevalence_measures(chosen):
    """``(item measures, prevalence measures)`` of evaluate's ``{name: measure}``."""
    items = {key: value for key, value in chosen.items() if not is_prevalence_measure(value)}
    prevalence = {key: value for key, value in chosen.items() if is_prevalence_measure(value)}
    return items, prevalence


def quantifier_outputs(systems, kinds, probas):
    """``(outputs, kinds)`` a quantifier is judged on, from evaluate's systems: labels
    where a system gives labels (classify and count), else its class probabilities
    (their mean), else its scores (NaN and a note)."""
    outputs, output_kinds = {}, {}
    for name, output in systems.items():
        if kinds[name] == "scores" and name in probas:
            outputs[name], output_kinds[name] = probas[name], "probabilities"
        else:
            outputs[name], output_kinds[name] = output, kinds[name]
    return outputs, output_kinds


def _report_classes(y_true, systems, kinds, labels, sample_weight):
    """The scale of the prevalences: ``labels``, or the gold labels' classes. A
    system's label outside it is an error: widening the scale to take it in would
    change every other system's value (NMD divides by K - 1) without a word."""
    if labels is not None:
        return np.asarray(labels)
    classes = check_ordinal_targets(y_true, sample_weight=sample_weight)[0]
    for name, output in systems.items():
        if kinds[name] == "labels":
            outside = outside_scale(output, classes, f"System {name!r}")
            if outside is not None:
                raise ValueError(outside)
    return classes


def _kind(output):
    return "probabilities" if np.ndim(output) == 2 else "labels"


def quantification_records(
    y_true: Any,
    systems: Mapping[str, Any],
    groups: Any,
    labels: Any,
    sample_weight: Any,
    confidence_level: float,
    n_resamples: int,
    random_state: Any,
    *,
    measures: Optional[Mapping[str, Any]] = None,
    baseline_labels: Any = None,
    kinds: Optional[Mapping[str, str]] = None,
) -> QuantificationRecords:
    """Prevalence measures of every system over the groups, with intervals (resampled
    groups), the trivial quantifier's row and the paired comparisons.

    ``systems``: ``{name: labels (n_samples,) or class probabilities (n_samples, K)}``;
    ``kinds`` (evaluate's) may mark a system ``"scores"``, which gets NaN and a note.
    ``measures``: ``{column name: prevalence measure name or function}``. The trivial
    quantifier predicts, for every group, the prevalences of ``baseline_labels`` (the
    training labels) or, without them, of the whole gold standard (weighted). Every
    interval and comparison resamples the groups with ``random_state``'s numbers.
    """
    check_n_resamples(n_resamples, confidence_level)
    measures = measures or {"normalized_match_distance": "normalized_match_distance"}
    records = {key: prevalence_measure(value) for key, value in measures.items()}
    kinds = dict(kinds or {name: _kind(output) for name, output in systems.items()})
    classes = _report_classes(y_true, systems, kinds, labels, sample_weight)
    n_classes = len(classes)
    notes: list[dict[str, str]] = []

    _, names, gold, _ = item_prevalences(y_true, None, groups, classes, sample_weight)
    gold_prevalence = gold / gold.sum(axis=1, keepdims=True)
    if baseline_labels is None:
        trivial = gold.sum(axis=0)
        baseline = "the gold standard's own prevalences (no baseline_labels)"
        description = "the gold prevalences"
    else:
        fitted = check_ordinal_targets(baseline_labels, labels=classes)[1]
        trivial = np.bincount(fitted, minlength=n_classes).astype(np.float64)
        baseline = "the prevalences of baseline_labels"
        description = "the baseline_labels prevalences"
    trivial = trivial / trivial.sum()

    predicted = {}
    for name, output in systems.items():
        if kinds.get(name) not in ("labels", "probabilities"):
            for key in records:
                notes.append({"system": name, "measure": key, "reason": (
                    "a quantification measure needs class labels (classify and count) or "
                    "class probabilities (their mean); the system gives real-valued scores")})
            continue
        sums = item_prevalences(y_true, output, groups, classes, sample_weight)[3]
        predicted[name] = sums / sums.sum(axis=1, keepdims=True)
    return records_from_prevalences(
        gold_prevalence, predicted, trivial, names, list(systems), measures,
        confidence_level, n_resamples, random_state, notes=notes,
        trivial_description=(description, baseline),
    )


def records_from_prevalences(
    gold_prevalence: np.ndarray,
    predicted: Mapping[str, np.ndarray],
    trivial: np.ndarray,
    names: Any,
    system_names: list,
    measures: Mapping[str, Any],
    confidence_level: float,
    n_resamples: int,
    random_state: Any,
    *,
    notes: Optional[list] = None,
    trivial_description: tuple = ("the gold prevalences",
                                  "the mean of the gold prevalences"),
) -> QuantificationRecords:
    """The records from prevalence rows: ``gold_prevalence`` ``(G, K)``, ``predicted``
    ``{system: (G, K)}`` (systems of ``system_names`` missing from it get NaN),
    ``trivial`` ``(K,)`` the trivial quantifier's prevalences, ``names`` the groups'.
    """
    check_n_resamples(n_resamples, confidence_level)
    records = {key: prevalence_measure(value) for key, value in measures.items()}
    notes = list(notes or [])
    caught: list[dict[str, str]] = []
    n_groups = len(names)
    if n_groups < 2:
        raise ValueError(
            f"There is {n_groups} group; the quantification measures average over groups "
            "and resample them, which needs at least two."
        )
    description, baseline = trivial_description
    predicted = {**predicted, TRIVIAL: np.broadcast_to(trivial, gold_prevalence.shape)}
    for key in records:
        notes.append({"system": TRIVIAL, "measure": key,
                      "reason": f"the trivial quantifier predicts {baseline} for every group"})
        if n_groups < FEW_GROUPS:
            notes.append({"system": "every system", "measure": key, "reason": (
                f"only {n_groups} groups: the intervals and comparisons resample them, and "
                f"with fewer than {FEW_GROUPS} they are too narrow; read them with care")})

    # One row of per-group values per (system, measure), then per comparison.
    series = [(name, key) for key in records for name in predicted]
    values = np.array([records[key].per_row(gold_prevalence, predicted[name])
                       for name, key in series])
    index_of = {pair: row for row, pair in enumerate(series)}
    systems_compared = [name for name in predicted if name != TRIVIAL]
    pairs = [(a, b) for i, a in enumerate(systems_compared) for b in systems_compared[i + 1:]]
    pairs += [(name, TRIVIAL) for name in systems_compared]
    comparisons = [(a, b, key) for key in records for a, b in pairs]
    differences = np.array([values[index_of[a, key]] - values[index_of[b, key]]
                            for a, b, key in comparisons]).reshape(len(comparisons), n_groups)
    rows = np.vstack([values, differences])

    rng = check_random_state(random_state)
    ones = np.ones(n_groups, dtype=np.int64)
    # A resample takes group g m_g times: the mean of its values is m @ values / G.
    distribution = np.vstack([draws @ rows.T for draws in
                              _draw_bootstrap(ones, n_resamples, rng)]) / n_groups
    estimates = rows.mean(axis=1)
    totals = rows.sum(axis=1)

    scores = []
    for row, (name, key) in enumerate(series):
        jackknife = (totals[row] - values[row]) / (n_groups - 1)
        with recorded_warnings(caught, name, key, ignore=DegenerateDataWarning if name == TRIVIAL else ()):
            low, high = interval(estimates[row], distribution[:, row], INTERVAL_METHOD,
                                 confidence_level, jackknife_values=jackknife, counts=ones)
        scores.append({"system": name, "measure": key, "estimate": float(estimates[row]),
                       "low": low, "high": high})
    for name in system_names:
        if name not in predicted:
            scores += [{"system": name, "measure": key, "estimate": np.nan, "low": np.nan,
                        "high": np.nan} for key in records]

    comparison_records = []
    if comparisons:
        # Exchanging two systems on a group flips the sign of its difference.
        null = np.vstack([
            totals[len(series):] - 2 * (exchanged @ differences.T)
            for exchanged in _draw_randomization(ones, n_resamples, rng)
        ]) / n_groups
        for offset, (a, b, key) in enumerate(comparisons):
            row = len(series) + offset
            difference = float(estimates[row])
            with recorded_warnings(caught, f"{a} - {b}", key, ignore=DegenerateDataWarning):
                low, high = interval(difference, distribution[:, row],
                                     COMPARISON_INTERVAL_METHOD, confidence_level)
            at_least = np.abs(null[:, offset]) >= abs(difference) * (1 - 1e-9) - 1e-12
            comparison_records.append({
                "measure": key, "system_a": a, "system_b": b,
                "estimate_a": float(estimates[index_of[a, key]]),
                "estimate_b": float(estimates[index_of[b, key]]),
                "difference": difference, "low": low, "high": high,
                "pvalue": percentile_interval_pvalue(distribution[:, row]),
                "pvalue_randomization": float(min(1.0, (1 + np.count_nonzero(at_least))
                                                  / (1 + n_resamples))),
            })
    alpha = 1 - confidence_level
    for key in records:
        family = [record for record in comparison_records if record["measure"] == key]
        adjusted = holm_adjust([record["pvalue"] for record in family])
        for record, value in zip(family, adjusted):
            record["pvalue_holm"] = float(value)
            # Lower is better for every prevalence measure.
            if not value < alpha:
                record["better"] = NO_DIFFERENCE
            else:
                record["better"] = record["system_b"] if record["difference"] > 0 else \
                    record["system_a"]
    settings = [{"name": key, "scorer": records[key].name, "definition": records[key].name,
                 "greater_is_better": False, "family": FAMILY} for key in records]
    index = pd.MultiIndex.from_product([list(system_names), names], names=["system", "group"])
    per_group = pd.DataFrame(
        {key: np.concatenate([values[index_of[name, key]] if (name, key) in index_of
                              else np.full(n_groups, np.nan) for name in system_names])
         for key in records},
        index=index,
    )
    return QuantificationRecords(scores, comparison_records, notes, caught, settings,
                                 trivial.tolist(), description, per_group)


