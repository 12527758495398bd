"""Confidence intervals and paired comparisons for every measure of the package."""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any, Callable, Literal, NamedTuple

import numpy as np
import numpy.typing as npt
from scipy import sparse
from sklearn.utils import check_random_state

from .._array_api import items_on_host
from .._compat import Interval, StrOptions, validate_params
from .._confusion import ClassErrors, OrdinalConfusion, ordinal_confusion
from .._validation import (
    UndefinedMeasureError,
    _check_1d_labels,
    _class_values,
    _encode,
    _ordered_categorical,
    check_ordinal_targets,
    check_scored_targets,
    group_codes,
)
from ..metrics._registry import DATA_ARGUMENTS
# The stats door resolves a measure (and checks its parameters) by the registry,
# the one place that does; a resolved measure carries its record.
from ..metrics._registry import resolve
from ..metrics._error import (
    _average,
)
from .._score_table import (
    _cells_of_items,
    _check_scores,
    _class_weights,
    _only_classes,
    _score_table,
)
from ..metrics._ranking import _Cells
from ..metrics._scorer import _accepts
from ._placement import delong_comparison, delong_interval, jackknife_by_placements
from ._influence import (
    NORMAL,
    delta_variance,
    influence_values,
    variance_of_influence,
    normal_interval,
    normal_pvalue,
    warn_if_no_variation,
)
from ._interval_pvalue import percentile_interval_pvalue
from ._method import _is_real_valued_predictions, chosen_method as _chosen_method
from ._resampling import (
    BOOTSTRAP,
    DEFAULT_N_RESAMPLES,
    EXCHANGE,
    NORMAL_TEST,
    PERCENTILE_INVERSION,
    RANDOMIZATION,
    ConfidenceInterval,
    Part,
    Resample,
    ScoreComparison,
    ScoreInterval,
    Units,
    check_n_resamples,
    complete,
    data_key,
    interval,
    jackknife,
    shared_computation,
    sharing,
    units_from_counts,
    units_from_items,
)
from .._warnings import warn_user


# Below this many groups a bootstrap over groups is unreliable (intervals too narrow,
# Cameron, Gelbach and Miller 2008), and a paired randomization test over g groups
# has only 2**g sign patterns: users are warned.
_FEW_GROUPS = 20


def _point_estimate(spec, y_true, y_pred, labels, class_values, sample_weight):
    """The measure on the data, by the measure itself: it validates the input as usual."""
    given = {"labels": labels, "class_values": class_values, "sample_weight": sample_weight}
    for parameter, value in given.items():
        if value is not None and not _accepts(spec.record.function, parameter):
            raise ValueError(
                f"{spec.name} takes no {parameter}; leave it out (the measure has no "
                f"{parameter.replace('_', ' ')} form), or choose a measure that takes it."
            )
    value = spec.function(y_true, y_pred, **{k: v for k, v in given.items() if v is not None})
    if np.ndim(value) != 0:
        raise ValueError(
            f"{spec.name} returned {np.shape(value)} values, not one number (e.g. "
            "average=None gives one value per class); intervals need one number."
        )
    if np.isnan(value):
        raise UndefinedMeasureError(
            f"{spec.name} is undefined (NaN) on these data themselves (its warning says "
            "why, e.g. no true item in the classes it reads), so no interval can be given."
        )
    return float(value)


def _group_codes(groups, n_samples, sample_weight):
    """Group index of every kept item (zero-weight items are dropped, as by the measures)."""
    return group_codes(groups, n_samples, sample_weight=sample_weight, resampled=True)[0]


def _warn_few_groups(n_groups):
    if n_groups < _FEW_GROUPS:
        warn_user(
            f"Only {n_groups} groups are resampled: with fewer than {_FEW_GROUPS} "
            "the interval tends to be too narrow and the p-value cannot go below "
            f"about 1/2**{n_groups}. Resample the items (groups=None) if they are "
            "independent, or report these intervals as rough.",
            UserWarning
        )


def _weights(sample_weight, n_samples):
    return np.ones(n_samples) if sample_weight is None else sample_weight


# --- Each kind of measure: its units and its statistic of one system's intermediate ---


def _paired_counts(y_true, systems, labels):
    """``(classes, units)`` of two systems' unweighted integer labels, or None.

    The common paired case: each item is one of K**3 (true, a, b) cells, counted by one
    ``np.bincount`` instead of sorting the items; each non-empty cell is a unit adding
    one item to each system's confusion matrix. The class set is read from the two
    confusion matrices (the validation of every measure), never from a sort of the
    items. Other inputs (weights, groups, strings, floats) take the general path.
    """
    arrays = [np.asarray(y) for y in (y_true, *systems)]
    if not all(y.ndim == 1 and y.dtype.kind in "iu" and len(y) == len(arrays[0])
               for y in arrays):
        return None
    confusions = [
        ordinal_confusion(y_true, y_pred, labels=labels, need_values=False, need_order=False)
        for y_pred in systems
    ]
    classes = confusions[0].classes
    if labels is None:
        classes = np.union1d(classes, confusions[1].classes)
    k = len(classes)
    if k**3 > 2**24:  # the joint table must stay small
        return None
    true_codes, a_codes, b_codes = (
        _encode(y, classes, name) for y, name in zip(arrays, ("y_true", "y_pred", "y_pred"))
    )
    joint = np.bincount((true_codes * k + a_codes) * k + b_codes, minlength=k**3)
    cells = np.flatnonzero(joint)
    true, a, b = cells // (k * k), (cells // k) % k, cells % k
    columns = np.column_stack([true * k + a, k * k + true * k + b])
    contributions = sparse.csr_matrix(
        (np.ones(columns.size), (np.repeat(np.arange(len(cells)), 2), columns.ravel())),
        shape=(len(cells), 2 * k * k),
    )
    return classes, Units(joint[cells].astype(np.int64), contributions)


def _label_layout(spec, y_true, systems, labels, class_values, sample_weight, groups,
                  distinct=True):
    """Confusion-matrix measures: the intermediate of a system is its K x K matrix."""
    paired = None
    if len(systems) == 2 and sample_weight is None and groups is None:
        paired = _paired_counts(y_true, systems, labels)
    if paired is not None:
        classes, units = paired
    elif len(systems) == 1 and sample_weight is None and groups is None:
        # Unweighted items: the counts of the confusion matrix are the cells.
        confusion = ordinal_confusion(
            y_true, systems[0], labels=labels, need_values=False, need_order=False
        )
        classes, units = confusion.classes, units_from_counts(confusion.matrix)
    else:
        if labels is None and _ordered_categorical(y_true) is not None:
            labels = np.asarray(_ordered_categorical(y_true).categories)
        arrays = [np.asarray(_check_1d_labels(y, name)) for y, name in
                  [(y_true, "y_true")] + [(y, "y_pred") for y in systems]]
        m = len(systems)
        classes, true_codes, pred_codes, weights = check_ordinal_targets(
            np.concatenate([arrays[0]] * m),
            np.concatenate(arrays[1:]),
            labels=labels,
            sample_weight=None if sample_weight is None else np.tile(sample_weight, m),
            need_order=False,
        )
        n, k = len(true_codes) // m, len(classes)
        cells = np.column_stack(
            [s * k * k + true_codes[:n] * k + pred_codes[s * n:(s + 1) * n] for s in range(m)]
        )
        values = np.repeat(_weights(weights, len(true_codes))[:n, None], m, axis=1)
        units = units_from_items(cells, values, m * k * k, groups, distinct)
    try:
        values = _class_values(classes, class_values)
    except ValueError:
        # Numbers in a custom order: the measure ran, so it takes no class values.
        values = np.arange(len(classes), dtype=np.float64)
    k = len(classes)

    def statistic(x):
        return spec.from_confusion(OrdinalConfusion(classes, values, x.reshape(k, k)))

    def batched(x):
        # A stack of B matrices in one call of the measure's kernel.
        return spec.from_confusion(OrdinalConfusion(classes, values, x.reshape(-1, k, k)))

    statistic.batched = batched
    return units, _halves(statistic, len(systems), k * k)


def _halves(statistic, n_systems, size):
    """One statistic read on each system's equal share of the intermediate."""
    return [Part(slice(s * size, (s + 1) * size), statistic) for s in range(n_systems)]


def _distance_layout(spec, y_true, systems, labels, class_values, sample_weight, groups,
                     distinct=True, real=None):
    """A regressor's real values: per class, the weight and the summed error.

    The error of each item is taken as it is (docs/user_guide/conventions.rst).

    In a paired comparison a system that predicts classes enters by its class values.
    """
    power, root, default_average = spec.record.distance
    first_real = real.index(True)
    classes, codes, reference, weights, _ = check_scored_targets(
        y_true, np.asarray(systems[first_real], dtype=np.float64), labels=labels,
        sample_weight=sample_weight, measure=spec.name
    )
    k = len(classes)
    class_values_ = _class_values(classes, class_values, relative=False)
    weights = _weights(weights, len(codes))
    columns, values = [], []
    for s, (y_pred, is_real) in enumerate(zip(systems, real)):
        if s == first_real:
            y_pred = reference  # validated above, once
        elif is_real:
            y_pred = check_scored_targets(
                y_true, np.asarray(y_pred, dtype=np.float64), labels=labels,
                sample_weight=sample_weight, measure=spec.name,
            )[2]
        else:
            pred_codes = check_ordinal_targets(
                y_true, y_pred, labels=classes, sample_weight=sample_weight
            )[2]
            y_pred = class_values_[pred_codes]
        errors = np.abs(y_pred - class_values_[codes]) ** power
        columns += [2 * k * s + codes, 2 * k * s + k + codes]
        values += [weights, weights * errors]
    units = units_from_items(np.column_stack(columns), np.column_stack(values),
                             2 * k * len(systems), groups, distinct)
    average = spec.params.get("average", default_average)

    def statistic(x):
        return _average(ClassErrors(classes, x[..., :k], x[..., k:]), average, root=root)

    # The class weights and error sums of a stack of resamples, in one call.
    statistic.batched = statistic
    return units, _halves(statistic, len(systems), 2 * k)


def _ranking_layout(spec, y_true, systems, labels, class_values, sample_weight, groups,
                    distinct=True):
    """Ranking measures: the intermediate of a system is its score table's weights.

    Each system keeps its own table (its classes' distinct scores, found by one
    sort); a resample gives new weights to the same cells, so a batch of resamples is
    a stack of tables that the measure's kernel scores in one call.
    """
    if len(systems) == 1 and sample_weight is None and groups is None:
        # Unweighted items: the counts of the table's cells are the units, where some
        # cell holds several items; where each holds one (continuous scores), the
        # items below, in their order, as in every other layout of them.
        table = _score_table(y_true, systems[0], labels, None, spec.name)
        if table.weights.max() > 1:
            return units_from_counts(table.weights), [
                Part(slice(None), _table_statistic(spec, table))]
    parts, columns, offset = [], [], 0
    for y_score in systems:
        classes, codes, y_score, weights, _ = check_scored_targets(
            y_true, _check_scores(y_score), labels=labels, sample_weight=sample_weight,
            measure=spec.name,
        )
        table, cell_of_item = _cells_of_items(classes, codes, y_score, weights)
        parts.append(Part(slice(offset, offset + len(table.scores)),
                           _table_statistic(spec, table)))
        columns.append(offset + cell_of_item)
        offset += len(table.scores)
    values = np.repeat(_weights(weights, len(codes))[:, None], len(systems), axis=1)
    units = units_from_items(np.column_stack(columns), values, offset, groups, distinct)
    return units, parts


def _table_statistic(spec, table):
    """The measure of the data whose weights at ``table``'s cells are given.

    A resample that lacks a class leaves it out with a warning (NaN below two
    classes), as the measure does on such data; ``batched`` scores a stack of
    resamples in one kernel call, NaN at those that lack a class (the resampler
    computes them alone); ``leave_one_out`` reads the jackknife off the placement
    values.
    """

    def statistic(x):
        resampled = table._replace(weights=x)
        present = _class_weights(resampled) > 0
        if present.sum() < 2:
            return np.nan  # a ranking needs two classes
        if not present.all():
            warn_user(f"{spec.name}: a class has no true item; it is left out.")
            resampled = _only_classes(resampled, present)
        return spec.from_table(resampled)

    # What the kernel reads of the cells alone (merges, score order, ties), made on
    # the first batch and read by every later one: per batch, only arithmetic.
    cells = _Cells(table)

    def batched(stack):
        resampled = table._replace(weights=stack)
        whole = (cells.class_weights(resampled) > 0).all(axis=-1)
        if whole.all():
            return spec.from_table(resampled, cells)
        values = np.full(len(stack), np.nan)
        if whole.any():
            values[whole] = spec.from_table(table._replace(weights=stack[whole]), cells)
        return values

    def leave_one_out(units):
        # The intermediate is the table's weights, cell for cell.
        return jackknife_by_placements(spec, table._replace(weights=units.total), units,
                                       lambda positions: positions)

    statistic.batched = batched
    statistic.leave_one_out = leave_one_out
    return statistic


def _item_mean_layout(spec, y_true, systems, labels, class_values, sample_weight, groups,
                      distinct=True):
    """A weighted mean over items (the RPS): per system, the weight and the weighted sum.

    Items with equal (value, weight) share a cell; continuous per-item values make
    one cell per item, so a resample then costs O(n).
    """
    columns, values, scale = [], [], 1.0
    for s, y_pred in enumerate(systems):
        per_item, weights, scale = spec.from_items(y_true, y_pred, labels, sample_weight)
        weights = _weights(weights, len(per_item))
        columns += [np.full(len(per_item), 2 * s), np.full(len(per_item), 2 * s + 1)]
        values += [weights, weights * per_item]
    units = units_from_items(np.column_stack(columns), np.column_stack(values),
                             2 * len(systems), groups, distinct)

    def statistic(x):
        return x[..., 1] / x[..., 0] * scale

    statistic.batched = statistic
    return units, _halves(statistic, len(systems), 2)


def _layout(spec, y_true, systems, labels, class_values, sample_weight, groups,
            distinct=True, real=None):
    """``(units, parts)``: the units of the data and, per system, its share of their
    intermediate with the measure of it; ``distinct=False`` keeps one cell per item
    (see :func:`units_from_items`)."""
    if groups is not None:
        groups = _group_codes(groups, len(systems[0]), sample_weight)
        _warn_few_groups(int(groups.max()) + 1)
    args = (spec, y_true, systems, labels, class_values, sample_weight, groups, distinct)
    if spec.record.from_table is not None:
        return _ranking_layout(*args)
    if spec.record.from_items is not None:
        return _item_mean_layout(*args)
    if spec.record.distance is None:
        return _label_layout(*args)
    if real is None:
        real = _real_values(y_true, systems, labels)
    if any(real):
        return _distance_layout(*args, real=real)
    return _label_layout(*args)


def _keyed(parts, spec, y_true, systems, labels, class_values, sample_weight, groups,
           real):
    """The parts keyed by the measure and the data each reads, so that a report
    scores a system once per block of resamples (a fingerprint of the data: made
    within a report only, where it is read)."""
    if not sharing():
        return parts
    return [
        part._replace(key=(data_key(spec, (y_true, y_pred, labels, class_values,
                                           sample_weight, groups)),
                           None if real is None else real[s]))
        for s, (part, y_pred) in enumerate(zip(parts, systems))
    ]


def _real_values(y_true, systems, labels):
    """Per system, whether it gives a regressor's real values (not classes)."""
    return [_is_real_valued_predictions(y, y_true, labels) for y in systems]


def _data_statistic(parts):
    """The statistic of the data: the measure of its one system, or the difference
    ``measure(a) - measure(b)`` of two."""
    return _read(parts[0]) if len(parts) == 1 else _difference(*parts)


def _read(part):
    """The measure of one system, as a statistic of the whole intermediate (with the
    batched and leave-one-out forms of the system's own, where it has them)."""
    positions, of_part = part.positions, part.statistic

    def statistic(x):
        return of_part(x[..., positions])

    batched = getattr(of_part, "batched", None)
    if batched is not None:
        statistic.batched = lambda stack: batched(stack[:, positions])
    leave_one_out = getattr(of_part, "leave_one_out", None)
    if leave_one_out is not None:
        statistic.leave_one_out = lambda units: leave_one_out(
            units._replace(contributions=units.contributions[:, positions]))
    return statistic


def _difference(part_a, part_b):
    """``measure(a) - measure(b)`` as a statistic of the paired intermediate."""
    a, b = _read(part_a), _read(part_b)

    def statistic(x):
        return a(x) - b(x)

    if hasattr(a, "batched") and hasattr(b, "batched"):
        statistic.batched = lambda stack: a.batched(stack) - b.batched(stack)
    if hasattr(a, "leave_one_out") and hasattr(b, "leave_one_out"):

        def leave_one_out(units):
            values = [a.leave_one_out(units), b.leave_one_out(units)]
            return None if values[0] is None or values[1] is None else values[0] - values[1]

        statistic.leave_one_out = leave_one_out
    return statistic


def _check_same(estimate, recomputed, name):
    """The intermediate must give back the measure's own value: never a silent wrong number."""
    if not np.isclose(estimate, recomputed, rtol=1e-9, atol=1e-12, equal_nan=True):
        raise RuntimeError(
            f"{name}: the resampling intermediate gives {recomputed!r} on the data but the "
            f"measure gives {estimate!r}; please report this bug."
        )


def _warn_resamples(evaluation, n_resamples, what):
    n_undefined = int(np.isnan(evaluation.values).sum())
    if evaluation.n_flagged:
        warn_user(
            f"On {evaluation.n_flagged} of {n_resamples} {what} the measure warned (first: "
            f"{evaluation.first_message!r}); they keep the value the measure returns, as it "
            "would on such a data set.",
            UserWarning
        )
    if n_undefined == n_resamples:
        raise ValueError(
            f"The measure is undefined on every one of the {n_resamples} {what} (e.g. a "
            "single class left in each); no interval can be given."
        )
    if n_undefined:
        warn_user(
            f"The measure is undefined (NaN) on {n_undefined} of {n_resamples} {what}; "
            "they are left out of the interval, the standard error and the p-value.",
            UserWarning
        )
    return n_undefined


def _bootstrap(units, parts, estimate, n_resamples, method, confidence_level, rng):
    """The bootstrap interval's fields: steps (see :func:`~._resampling.complete`)."""
    evaluation = yield Resample(BOOTSTRAP, units, parts, n_resamples, rng)
    statistic = _data_statistic(parts)
    n_undefined = _warn_resamples(evaluation, n_resamples, "bootstrap resamples")
    distribution = evaluation.values
    defined = distribution[~np.isnan(distribution)]
    jackknife_values = jackknife(statistic, units) if method == "bca" else None
    ci = interval(estimate, defined, method, confidence_level, jackknife_values, units.counts)
    standard_error = float(np.std(defined, ddof=1)) if len(defined) > 1 else np.nan
    return dict(
        estimate=estimate,
        confidence_interval=ci,
        standard_error=standard_error,
        bootstrap_distribution=distribution,
        method=method,
        confidence_level=confidence_level,
        n_undefined=n_undefined,
        n_flagged=evaluation.n_flagged,
    )


def _by_placements(method, spec):
    """Whether the interval is DeLong's: the analytic one of a ranking measure."""
    return method == "delong" or (method == NORMAL and spec.record.from_table is not None)


def _units_are_items(spec, real):
    """Whether the measure's units are the items (or groups) themselves, in order, for
    every system: a mean over items, or a distance of real values (a label measure's
    units are the cells of its confusion matrix)."""
    return spec.record.from_items is not None or (real is not None and all(real))


def _system_influence(spec, y_true, y_pred, labels, class_values, sample_weight, groups,
                      real):
    """``(estimate, centred)``: one system's measure and its influence values per unit
    (:func:`~._influence.influence_values`, one unit per item or group), made once
    per report (:func:`~._resampling.shared_computation`)."""

    def compute():
        estimate = _point_estimate(spec, y_true, y_pred, labels, class_values,
                                   sample_weight)
        units, parts = _layout(spec, y_true, [y_pred], labels, class_values,
                               sample_weight, groups, distinct=False, real=real)
        statistic = _data_statistic(parts)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _check_same(estimate, statistic(units.total), spec.name)
        centred, _ = influence_values(statistic, units)
        return estimate, centred

    return shared_computation("influence", spec, (y_true, y_pred, labels, class_values,
                                                  sample_weight, groups), compute)


def _normal_score_interval(spec, estimate, standard_error, confidence_level):
    return ScoreInterval(
        estimate=estimate,
        confidence_interval=normal_interval(estimate, standard_error, confidence_level,
                                            spec.value_range),
        standard_error=float(standard_error),
        bootstrap_distribution=np.empty(0),
        method=NORMAL,
        confidence_level=confidence_level,
    )


def _normal_comparison(spec, variance, estimates, confidence_level):
    """The :class:`ScoreComparison` of the analytic interval: the delta-method
    variance of the paired difference and its two-sided z test."""
    difference = estimates[0] - estimates[1]
    standard_error = float(np.sqrt(variance))
    warn_if_no_variation(standard_error, difference)
    low, high = spec.value_range
    return ScoreComparison(
        estimate=difference,
        confidence_interval=normal_interval(difference, standard_error, confidence_level,
                                            (low - high, high - low)),
        standard_error=standard_error,
        bootstrap_distribution=np.empty(0),
        method=NORMAL,
        confidence_level=confidence_level,
        estimate_a=estimates[0],
        estimate_b=estimates[1],
        greater_is_better=spec.greater_is_better,
        pvalue=normal_pvalue(difference, standard_error),
        null_distribution=None,
        test=NORMAL_TEST,
    )


_PARAMETERS = {
    "measure": [str, callable],
    "y_true": ["array-like"],
    "confidence_level": [Interval(Real, 0, 1, closed="neither")],
    "n_resamples": [Interval(Integral, 1, None, closed="left")],
    "method": [StrOptions({"auto", "bca", "percentile", "basic", "normal", "delong"})],
    "labels": ["array-like", None],
    "class_values": ["array-like", None],
    "sample_weight": ["array-like", None],
    "groups": ["array-like", None],
    "random_state": ["random_state"],
}


@validate_params({**_PARAMETERS, "y_pred": ["array-like"]}, prefer_skip_nested_validation=True)
def score_interval(
    measure: str | Callable[..., Any],
    y_true: npt.ArrayLike,
    y_pred: npt.ArrayLike,
    *,
    confidence_level: float = 0.95,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    method: Literal["auto", "bca", "percentile", "basic", "normal", "delong"] = "auto",
    labels: npt.ArrayLike | None = None,
    class_values: npt.ArrayLike | None = None,
    sample_weight: npt.ArrayLike | None = None,
    groups: npt.ArrayLike | None = None,
    random_state: int | np.random.RandomState | None = None,
    **measure_kwargs: Any,
) -> ScoreInterval:
    r"""A measure's value with a confidence interval (bootstrap or analytic) and standard error.

    The bootstrap draws the ``N`` items (or groups) of the data with replacement,
    ``n_resamples`` times, and computes the measure on each resample. Every label
    measure is a function of the weighted confusion matrix ``M`` and every ranking
    measure of the score table, so a resample is a multinomial draw of the counts of
    the ``C`` cells of that intermediate,

    .. math::

        (m^*_1, \dots, m^*_C) \sim \mathrm{Multinomial}\Big(N; \frac{m_1}{N},
        \dots, \frac{m_C}{N}\Big), \qquad M^* = \sum_c m^*_c \, x_c,

    with :math:`m_c` the units of cell :math:`c` and :math:`x_c` what one of them
    adds to ``M``. This has exactly the distribution of the measure on items drawn
    with replacement, at a cost that does not grow with ``N``. The ranked
    probability score, a weighted mean over items of their own values, has the pair
    (weight, weighted value) as its intermediate: its cells are the distinct
    (value, weight) pairs, up to one per item.

    Given the ``B`` resampled values :math:`\theta^*_b` and the estimate
    :math:`\hat\theta`, with :math:`\alpha = (1 - \text{level}) / 2` and
    :math:`q(p)` the ``p``-quantile of the :math:`\theta^*_b`:

    - ``"percentile"``: :math:`[q(\alpha), q(1 - \alpha)]`;
    - ``"basic"``: :math:`[2\hat\theta - q(1 - \alpha), 2\hat\theta - q(\alpha)]`;
    - ``"bca"`` (default): :math:`[q(\alpha_1), q(\alpha_2)]` with
      :math:`\alpha_{1,2} = \Phi\big(z_0 + \frac{z_0 + z}{1 - a (z_0 + z)}\big)`
      for :math:`z = \Phi^{-1}(\alpha), \Phi^{-1}(1 - \alpha)`; the bias correction
      :math:`z_0 = \Phi^{-1}(\#\{\theta^*_b < \hat\theta\} / B)` (ties counting
      half) and the acceleration
      :math:`a = \sum_i U_i^3 / (6 (\sum_i U_i^2)^{3/2})`,
      :math:`U_i = \bar\theta_{(\cdot)} - \theta_{(i)}`, from the jackknife values
      :math:`\theta_{(i)}` with unit ``i`` left out. All units of a cell share
      their leave-one-out value, so the jackknife costs one measure call per
      non-empty cell, weighted by its count (for the ranking measures it is read
      off their placement values instead, in ``O(n log n)``). These are the
      formulas of :func:`scipy.stats.bootstrap`.
    - ``"normal"`` (any measure, no resampling): the analytic interval
      :math:`\hat\theta \pm z_{1-\alpha} \sqrt{\hat V}`, clipped to the
      measure's range, with :math:`\hat V` the delta-method (infinitesimal
      jackknife) variance of the measure's influence values
      :math:`U_i = N \nabla\theta(T) \cdot (x_i - T / N)`,
      :math:`\hat V = \sum_i U_i^2 / (N (N - 1))` (Efron 1981; Efron and
      Tibshirani 1993, ch. 21-22): for a mean over items its sample variance over
      ``N``, for a macro average the per-class variances combined, for the label
      measures the multinomial delta method over the cells of the confusion matrix;
      for the ranking measures DeLong's variance below. One pass, ``O(n)`` (or
      ``O(K^2)`` for unweighted labels); ``standard_error`` is
      :math:`\sqrt{\hat V}` and ``bootstrap_distribution`` is empty.
    - ``"delong"`` (ranking measures only, no resampling): :math:`\hat\theta \pm
      z_{1-\alpha} \sqrt{\hat V}`, clipped to [0, 1], with DeLong's
      structural-components variance :math:`\hat V` from the items' placement
      values (DeLong et al. 1988; for two classes, DeLong's AUC variance), in
      ``O(n log n)``: the choice for large data, see the :ref:`User Guide
      <uncertainty>`. ``standard_error`` is :math:`\sqrt{\hat V}` and
      ``bootstrap_distribution`` is empty.

    Parameters
    ----------
    measure : str, scorer or callable
        A scorer name (:func:`sklearn_ordinal.metrics.get_scorer_names`), a scorer
        of this package, or one of its measure functions: a label measure, or a
        ranking measure (:func:`~sklearn_ordinal.metrics.vus_score` and kin), for
        which ``y_pred`` holds one score per item. The interval is of the measure
        itself (a ``neg_`` scorer's error is reported positive).
    y_true : array-like of shape (n_samples,)
        True ordinal labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels, a regressor's real values (distance measures only), or
        scores (ranking measures).
    confidence_level : float, default=0.95
        In (0, 1).
    n_resamples : int, default=9999
        Bootstrap resamples. Too few to leave one resample beyond each end of the
        interval is a ValueError.
    method : {"auto", "bca", "percentile", "basic", "normal", "delong"}, default="auto"
        ``"auto"`` takes the analytic interval (``"normal"``; DeLong's for the
        ranking measures, reported as ``"delong"``) where the coverage study found
        it within one point of BCa's: label measures from 300 items (or groups),
        a regressor's real values from 10 000, the ranked probability score from
        100, with a smallest class of 30 items (with weights, Kish's effective
        number of items); the ranking measures from 1000
        items with two in every class (not over groups); never the maxima and
        minima over classes. BCa otherwise (see the :ref:`User Guide
        <analytic_interval>`).
    labels : array-like of shape (n_classes,), default=None
        The classes in increasing order, as for the measure. None: a scorer's own
        ``labels`` if it was made with them, else the measure's default.
    class_values : array-like of shape (n_classes,), default=None
        Numbers standing for the classes in distance measures, as for the measure
        (None as for ``labels``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights, as for the measure (None as for ``labels``).
    groups : array-like of shape (n_samples,), default=None
        Group of each item (a test case, a user, a product): the groups are
        resampled, the items of one group moving together. Each group's own
        confusion matrix (or score table) is its contribution.
    random_state : int, RandomState instance or None, default=None
        Seeds the resampling.
    **measure_kwargs
        Further keyword arguments of the measure (e.g. ``average="micro"``).

    Returns
    -------
    result : ScoreInterval
        ``estimate``, ``confidence_interval`` (``low``, ``high``),
        ``standard_error``, ``bootstrap_distribution``, ``n_undefined``,
        ``n_flagged``.

    Warns
    -----
    UserWarning
        When the measure warned on some resamples (e.g. a class with no true item:
        kept at the value the measure returns) or is undefined on some (NaN: left
        out); the message gives how many. When fewer than 20 groups are resampled:
        a bootstrap over few groups gives too narrow intervals.
    scipy.stats.DegenerateDataWarning
        When every resample gives the same value (the interval is that point), or
        when the BCa ends fall beyond the most extreme resample.

    Notes
    -----
    Complexity, for ``n`` items and ``B`` resamples: one pass over the items (the
    measure's own validation and counting), then ``O(B C)`` draws and ``B + C``
    measure calls on the ``C``-cell intermediate. Unweighted label data have at most
    :math:`C = K^2` cells, so a resample costs ``O(K^2)``, not ``O(n)``. Weighted
    items are grouped by (cell, weight) with one sort (``O(n log n)``), ``C`` then
    being the number of distinct pairs. With ``groups``, ``C`` is the number of
    groups. Ranking measures redraw the counts of the non-empty cells of the score
    table (at most ``K G`` for ``G`` distinct scores), and the measure's kernel
    scores a batch of resampled tables in one call (``O(K G)`` per resample, no
    Python call per resample). A regressor's real-valued predictions for a distance
    measure make an intermediate of per-class weights and error sums, the items
    grouped by (class, error, weight). Where the cells are many and hold few units
    each (continuous scores: one per item), a resample is drawn as ``N`` unit
    indices counted per cell (``O(N)``, exactly the multinomial's law), else as one
    multinomial draw of the ``C`` counts.

    References
    ----------
    .. [1] B. Efron and R. J. Tibshirani, "An Introduction to the Bootstrap",
       Chapman & Hall, 1993, chapters 13-14.
    .. [2] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing the
       areas under two or more correlated receiver operating characteristic
       curves: a nonparametric approach", Biometrics 44 (1988) 837-845.
    .. [3] B. Efron, "Nonparametric estimates of standard error: the jackknife,
       the bootstrap and other methods", Biometrika 68 (1981) 589-599.

    Examples
    --------
    >>> from sklearn_ordinal.stats import score_interval
    >>> y_true = [0] * 40 + [1] * 30 + [2] * 30
    >>> y_pred = [0] * 30 + [1] * 10 + [1] * 20 + [2] * 10 + [2] * 25 + [1] * 5
    >>> result = score_interval("neg_macro_mean_absolute_error", y_true, y_pred,
    ...                         random_state=0)
    >>> round(result.estimate, 3)
    0.25
    >>> low, high = result.confidence_interval
    >>> bool(low < result.estimate < high)
    True
    """
    return complete(interval_steps(
        measure, y_true, y_pred, confidence_level=confidence_level,
        n_resamples=n_resamples, method=method, labels=labels, class_values=class_values,
        sample_weight=sample_weight, groups=groups, random_state=random_state,
        **measure_kwargs))


def interval_steps(measure, y_true, y_pred, *, confidence_level=0.95,
                   n_resamples=DEFAULT_N_RESAMPLES, method="auto", labels=None,
                   class_values=None, sample_weight=None, groups=None, random_state=None,
                   **measure_kwargs):
    """:func:`score_interval` as steps (:func:`~._resampling.complete`): a report runs
    those of all its measures and systems together."""
    check_n_resamples(n_resamples, confidence_level)
    # Array API arrays (under array_api_dispatch): the resampling runs on the host.
    y_true, y_pred, sample_weight, groups = items_on_host(y_true, y_pred, sample_weight,
                                                          groups)
    spec = resolve(measure, measure_kwargs)
    labels, class_values, sample_weight = (
        spec.data.get(key) if given is None else given
        for key, given in zip(DATA_ARGUMENTS, (labels, class_values, sample_weight))
    )
    real = None if spec.record.distance is None else _real_values(y_true, [y_pred], labels)
    method = _chosen_method(method, spec, y_true, [y_pred], labels, sample_weight, groups,
                            real)
    if _by_placements(method, spec):
        return delong_interval(spec, y_true, y_pred, labels, class_values, sample_weight,
                               groups, confidence_level, method)
    if method == NORMAL and _units_are_items(spec, real):
        estimate, centred = _system_influence(spec, y_true, y_pred, labels, class_values,
                                              sample_weight, groups, real)
        standard_error = np.sqrt(variance_of_influence(centred))
        warn_if_no_variation(standard_error, estimate)
        return _normal_score_interval(spec, estimate, standard_error, confidence_level)
    estimate = _point_estimate(spec, y_true, y_pred, labels, class_values, sample_weight)
    units, parts = _layout(
        spec, y_true, [y_pred], labels, class_values, sample_weight, groups,
        distinct=method != NORMAL, real=real,
    )
    statistic = _data_statistic(parts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _check_same(estimate, statistic(units.total), spec.name)
    if method == NORMAL:
        standard_error = np.sqrt(delta_variance(statistic, units))
        warn_if_no_variation(standard_error, estimate)
        return _normal_score_interval(spec, estimate, standard_error, confidence_level)
    rng = check_random_state(random_state)
    parts = _keyed(parts, spec, y_true, [y_pred], labels, class_values, sample_weight,
                   groups, real)
    fields = yield from _bootstrap(units, parts, estimate, n_resamples, method,
                                   confidence_level, rng)
    low, high = np.clip(fields["confidence_interval"], *spec.value_range)
    fields["confidence_interval"] = ConfidenceInterval(float(low), float(high))
    return ScoreInterval(**fields)


@validate_params(
    {**_PARAMETERS, "y_pred_a": ["array-like"], "y_pred_b": ["array-like"]},
    prefer_skip_nested_validation=True,
)
def compare_scores(
    measure: str | Callable[..., Any],
    y_true: npt.ArrayLike,
    y_pred_a: npt.ArrayLike,
    y_pred_b: npt.ArrayLike,
    *,
    confidence_level: float = 0.95,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    method: Literal["auto", "bca", "percentile", "basic", "normal", "delong"] = "auto",
    labels: npt.ArrayLike | None = None,
    class_values: npt.ArrayLike | None = None,
    sample_weight: npt.ArrayLike | None = None,
    groups: npt.ArrayLike | None = None,
    random_state: int | np.random.RandomState | None = None,
    **measure_kwargs: Any,
) -> ScoreComparison:
    r"""Paired difference of a measure between two systems on the same items.

    The difference :math:`\hat\delta = \theta(a) - \theta(b)` gets

    - a confidence interval by the **paired bootstrap**: each resample draws items
      (or groups) with replacement and scores both systems on the same draw, so
      what the two systems share (hard items, rare classes) cancels out of the
      difference. As in :func:`score_interval`, a resample is one multinomial draw
      over the at most :math:`K^3` cells (true class, class by a, class by b);
      the formulas are :func:`score_interval`'s.
    - a two-sided p-value by the **paired randomization test** (approximate
      randomization): under the null hypothesis that the two systems are
      exchangeable on every unit, exchanging their outputs on each unit with
      probability 1/2 leaves the distribution of the data unchanged, so

      .. math::

          p = \frac{1 + \#\{r : |\delta^*_r| \ge |\hat\delta|\}}{1 + R}

      over ``R = n_resamples`` random exchanges is a valid p-value for any measure,
      however non-linear (a macro average, a kappa), with no assumption on the
      shape of its distribution. A bootstrap p-value would need the distribution
      shifted to the null, which is only approximate for such measures. On a cell
      of ``m`` units, the number exchanged is ``Binomial(m, 1/2)``: a
      randomization also costs ``O(K^3)``.
    - for the **ranking measures**, a two-sided p-value by inverting the paired
      bootstrap's percentile interval (the smallest :math:`\alpha` at which the
      interval of level :math:`1 - \alpha` excludes 0) instead: exchanging two
      rankers' scores item by item would assume one scale for both, which two
      models' decision functions do not share. ``test`` in the result names which.

    Parameters
    ----------
    measure : str, scorer or callable
        As in :func:`score_interval`.
    y_true : array-like of shape (n_samples,)
        True ordinal labels.
    y_pred_a, y_pred_b : array-like of shape (n_samples,)
        The two systems' predictions (or scores, for ranking measures) of the same
        items.
    confidence_level : float, default=0.95
        In (0, 1), as in :func:`score_interval`.
    n_resamples : int, default=9999
        Bootstrap resamples, as in :func:`score_interval`; also the number of
        random exchanges.
    method : {"auto", "bca", "percentile", "basic", "normal", "delong"}, default="auto"
        As in :func:`score_interval`. ``method="normal"`` is the analytic interval
        of the difference instead, from the paired influence values (the two
        systems' influence values subtracted unit by unit, so that their
        correlation on the same items enters) and its two-sided z test
        :math:`2 \Phi(-|\hat\delta| / \mathrm{se})` (``test="normal"``).
        ``method="delong"`` (ranking measures) is DeLong's test: the normal
        interval of the difference and its two-sided p-value
        :math:`2 \Phi(-|\hat\delta| / \mathrm{se})`, the standard error from the
        two scorers' placement values on the same items (their covariance
        included).
    labels : array-like of shape (n_classes,), default=None
        As in :func:`score_interval`.
    class_values : array-like of shape (n_classes,), default=None
        As in :func:`score_interval`.
    sample_weight : array-like of shape (n_samples,), default=None
        As in :func:`score_interval`.
    groups : array-like of shape (n_samples,), default=None
        As in :func:`score_interval`. With ``groups``, whole groups are resampled
        and exchanged.
    random_state : int, RandomState instance or None, default=None
        Seeds the resampling and the random exchanges.
    **measure_kwargs
        As in :func:`score_interval`.

    Returns
    -------
    result : ScoreComparison
        Fields of :class:`ScoreInterval` for the difference, plus ``estimate_a``,
        ``estimate_b``, ``greater_is_better``, ``pvalue``, ``null_distribution``
        and ``test``.

    Notes
    -----
    Complexity: as :func:`score_interval`, with at most :math:`C = K^3` cells for
    unweighted label data. A ranking measure keeps each system's own score table;
    one draw of the items gives both systems' tables, which the measure's kernel
    scores a batch of resamples at a time.

    References
    ----------
    .. [1] E. W. Noreen, "Computer-Intensive Methods for Testing Hypotheses",
       Wiley, 1989.
    .. [2] S. Riezler and J. T. Maxwell, "On some pitfalls in automatic evaluation
       and significance testing for MT", ACL Workshop on Intrinsic and Extrinsic
       Evaluation Measures, 2005.

    Examples
    --------
    >>> from sklearn_ordinal.stats import compare_scores
    >>> y_true = [0] * 40 + [1] * 30 + [2] * 30
    >>> good = [0] * 35 + [1] * 5 + [1] * 25 + [2] * 5 + [2] * 28 + [1] * 2
    >>> poor = [0] * 40 + [0] * 30 + [2] * 30
    >>> result = compare_scores("neg_macro_mean_absolute_error", y_true, good, poor,
    ...                         random_state=0)
    >>> round(result.estimate, 3)  # good has the lower error
    -0.214
    >>> bool(result.confidence_interval.high < 0 and result.pvalue < 0.01)
    True
    """
    return complete(comparison_steps(
        measure, y_true, y_pred_a, y_pred_b, confidence_level=confidence_level,
        n_resamples=n_resamples, method=method, labels=labels, class_values=class_values,
        sample_weight=sample_weight, groups=groups, random_state=random_state,
        **measure_kwargs))


def comparison_steps(measure, y_true, y_pred_a, y_pred_b, *, confidence_level=0.95,
                     n_resamples=DEFAULT_N_RESAMPLES, method="auto", labels=None,
                     class_values=None, sample_weight=None, groups=None, random_state=None,
                     **measure_kwargs):
    """:func:`compare_scores` as steps (:func:`~._resampling.complete`): a report runs
    those of all its comparisons together."""
    check_n_resamples(n_resamples, confidence_level)
    # Array API arrays (under array_api_dispatch): the resampling runs on the host.
    y_true, y_pred_a, y_pred_b, sample_weight, groups = items_on_host(
        y_true, y_pred_a, y_pred_b, sample_weight, groups)
    spec = resolve(measure, measure_kwargs)
    labels, class_values, sample_weight = (
        spec.data.get(key) if given is None else given
        for key, given in zip(DATA_ARGUMENTS, (labels, class_values, sample_weight))
    )
    real = (None if spec.record.distance is None
            else _real_values(y_true, [y_pred_a, y_pred_b], labels))
    method = _chosen_method(method, spec, y_true, [y_pred_a, y_pred_b], labels,
                            sample_weight, groups, real)
    if _by_placements(method, spec):
        return delong_comparison(spec, y_true, y_pred_a, y_pred_b, labels, class_values,
                                 sample_weight, groups, confidence_level, method)
    if method == NORMAL and _units_are_items(spec, real):
        # The paired influence values are the difference of the systems' own, unit
        # by unit (the same items, or groups, in the same order).
        (estimate_a, centred_a), (estimate_b, centred_b) = (
            _system_influence(spec, y_true, y_pred, labels, class_values, sample_weight,
                              groups, None if real is None else [is_real])
            for y_pred, is_real in zip((y_pred_a, y_pred_b), real or (None, None)))
        return _normal_comparison(spec, variance_of_influence(centred_a - centred_b),
                                  [estimate_a, estimate_b], confidence_level)
    estimates = [
        _point_estimate(spec, y_true, y_pred, labels, class_values, sample_weight)
        for y_pred in (y_pred_a, y_pred_b)
    ]
    units, parts = _layout(
        spec, y_true, [y_pred_a, y_pred_b], labels, class_values, sample_weight, groups,
        distinct=method != NORMAL, real=real,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for estimate, part in zip(estimates, parts):
            _check_same(estimate, _read(part)(units.total), spec.name)
    statistic = _data_statistic(parts)
    difference = estimates[0] - estimates[1]
    if method == NORMAL:
        return _normal_comparison(spec, delta_variance(statistic, units), estimates,
                                  confidence_level)
    rng = check_random_state(random_state)
    parts = _keyed(parts, spec, y_true, [y_pred_a, y_pred_b], labels, class_values,
                   sample_weight, groups, real)
    fields = yield from _bootstrap(units, parts, difference, n_resamples, method,
                                   confidence_level, rng)
    if spec.record.from_table is not None:
        # Ranking measures: exchanging two rankers' scores item by item assumes one
        # scale for both, which two models' decision functions do not share; the
        # p-value inverts the paired bootstrap's percentile interval instead, which
        # depends on each system's ranking alone.
        test = PERCENTILE_INVERSION
        pvalue = percentile_interval_pvalue(fields["bootstrap_distribution"])
        null_values = None
    else:
        # Exchanging the systems on a unit swaps its two parts of the intermediate.
        null = yield Resample(EXCHANGE, units, parts, n_resamples, rng)
        _warn_resamples(null, n_resamples, "random exchanges")
        null_values = null.values
        defined = null_values[~np.isnan(null_values)]
        # Equal values computed by different sums may differ in the last bits.
        at_least = np.abs(defined) >= np.abs(difference) * (1 - 1e-9) - 1e-12
        test = RANDOMIZATION
        pvalue = min((1 + np.count_nonzero(at_least)) / (1 + len(defined)), 1.0)
    return ScoreComparison(
        **fields,
        estimate_a=estimates[0],
        estimate_b=estimates[1],
        greater_is_better=spec.greater_is_better,
        pvalue=float(pvalue),
        null_distribution=null_values,
        test=test,
    )

