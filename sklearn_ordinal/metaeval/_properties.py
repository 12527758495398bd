"""Searching for counterexamples to the formal properties of Amigó et al. (2020), §4.1.

A property of an effectiveness metric cannot be proved by running it, but it can be
refuted: this module draws small random gold standards and system outputs, checks
each property on them, and shrinks any violation it finds to a small
counterexample (removing items one at a time while the violation persists), the
way property-based testing tools do.
"""

from __future__ import annotations

import numbers
import warnings
from functools import partial
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from .._compat import Interval, validate_params
from ..metrics._scorer import _SCORERS
from ..metrics._scorer import _one_number
from ._measures import _as_measure

PROPERTIES = ("ordinal_invariance", "ordinal_monotonicity", "imbalance")

# Stop searching a property after this many violations: one is enough to refute
# it, a few give the shrinker a choice of starting points.
_MAX_VIOLATIONS = 5


class PropertyCheck(NamedTuple):
    """Outcome of the search for counterexamples to one property.

    :func:`check_metric_properties` returns one for each property.

    Parameters
    ----------
    holds : bool or None
        False when a counterexample was found; None when no case could be checked.
    n_checked : int
        Random cases on which the metric was defined and the property was checked.
    counterexample : dict or None
        The smallest counterexample found (its keys are listed in
        :func:`check_metric_properties`), or None.

    Examples
    --------
    >>> from sklearn.metrics import accuracy_score
    >>> from sklearn_ordinal.metaeval import check_metric_properties
    >>> check = check_metric_properties(accuracy_score, random_state=0)["ordinal_invariance"]
    >>> check.holds, check.counterexample
    (True, None)
    >>> holds, n_checked, counterexample = check  # a tuple too
    """

    holds: bool | None
    n_checked: int
    counterexample: dict | None


def _effectiveness(measure, sign, y_true, y_pred):
    """Oriented score, or NaN where the measure is undefined on this input."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = measure(y_true, y_pred)
    except ValueError:
        return float("nan")
    # Outside the try: a measure that returns no number is a bug to report, not an
    # undefined case.
    return sign * _one_number(value, f"The metric {measure!r}")


def _greater(a, b):
    # Values equal in exact arithmetic can differ in the last bits (weighted kappa
    # does), and a tie must count as "not greater" for the strict properties.
    return a - b > 1e-9 * max(1.0, abs(a), abs(b))


def _random_gold(rng, n_classes, max_extra):
    """Gold labels in ``1..n_classes`` with at least one item in every class."""
    extra = rng.randint(1, n_classes + 1, size=rng.randint(0, max_extra + 1))
    return rng.permutation(np.concatenate([np.arange(1, n_classes + 1), extra]))


# Each property is three functions over a "case": a dict whose arrays all have one
# entry per item (so that the shrinker can drop items) plus fixed extras.
# ``draw`` makes a random case, ``valid`` says whether a (shrunk) case still meets
# the property's premise, and ``scores`` returns the two oriented scores the
# property compares plus a flag saying whether they violate it.


def _draw_invariance(rng, n_classes, max_extra):
    y_true = _random_gold(rng, n_classes, max_extra)
    y_pred = rng.randint(1, n_classes + 1, size=y_true.size)
    # A random strictly increasing map of the classes, almost never linear.
    image = np.cumsum(rng.randint(1, 10, size=n_classes)) + rng.randint(-5, 6)
    return {"y_true": y_true, "y_pred": y_pred}, {"mapping": image}


def _valid_invariance(items, extras):
    return items["y_true"].size > 0


def _scores_invariance(evaluate, items, extras):
    image = extras["mapping"]
    y_true, y_pred = items["y_true"], items["y_pred"]
    before = evaluate(y_true, y_pred)
    after = evaluate(image[y_true - 1], image[y_pred - 1])
    return before, after, not np.isclose(before, after, rtol=1e-9, atol=1e-12)


def _draw_monotonicity(rng, n_classes, max_extra):
    y_true = _random_gold(rng, n_classes, max_extra)
    y_pred = rng.randint(1, n_classes + 1, size=y_true.size)
    if (y_pred == y_true).all():
        j = rng.randint(y_true.size)
        y_pred[j] = y_true[j] % n_classes + 1
    # Move a random non-empty subset of the wrong predictions strictly closer to
    # the truth: anywhere from one step towards it up to the true class itself.
    wrong = np.flatnonzero(y_pred != y_true)
    moved = wrong[rng.rand(wrong.size) < 0.5]
    if moved.size == 0:
        moved = wrong[[rng.randint(wrong.size)]]
    above = y_pred[moved] > y_true[moved]
    low = np.where(above, y_true[moved], y_pred[moved] + 1)
    high = np.where(above, y_pred[moved] - 1, y_true[moved])
    y_closer = y_pred.copy()
    y_closer[moved] = low + (rng.rand(moved.size) * (high - low + 1)).astype(int)
    return {"y_true": y_true, "y_pred": y_pred, "y_pred_closer": y_closer}, {}


def _valid_monotonicity(items, extras):
    y_true, y_pred, y_closer = items["y_true"], items["y_pred"], items["y_pred_closer"]
    changed = y_pred != y_closer
    closer = ((y_pred > y_closer) & (y_closer >= y_true)) | (
        (y_pred < y_closer) & (y_closer <= y_true)
    )
    # The premise, and no empty gold class (which CEM-ORD needs, docs/user_guide/closeness.rst).
    return (
        changed.any()
        and (closer | ~changed).all()
        and np.isin(np.concatenate([y_pred, y_closer]), y_true).all()
    )


def _scores_monotonicity(evaluate, items, extras):
    before = evaluate(items["y_true"], items["y_pred"])
    after = evaluate(items["y_true"], items["y_pred_closer"])
    return before, after, not _greater(after, before)


def _draw_imbalance(rng, n_classes, max_extra):
    n_classes = max(n_classes, 3)
    y_true = _random_gold(rng, n_classes, max_extra)
    middle = rng.randint(2, n_classes)
    large, small = (middle - 1, middle + 1) if rng.rand() < 0.5 else (middle + 1, middle - 1)
    n_large, n_small = (y_true == large).sum(), (y_true == small).sum()
    if n_large == n_small:
        y_true = np.append(y_true, large)
    elif n_large < n_small:
        large, small = small, large
    # ``moved`` marks the item of the large class (1) and of the small class (3)
    # that the two outputs move into the middle class.
    moved = np.zeros(y_true.size, dtype=int)
    moved[rng.choice(np.flatnonzero(y_true == large))] = 1
    moved[rng.choice(np.flatnonzero(y_true == small))] = 3
    return {"y_true": y_true, "moved": moved}, {"middle": middle}


def _valid_imbalance(items, extras):
    y_true, moved, middle = items["y_true"], items["moved"], extras["middle"]
    if (moved == 1).sum() != 1 or (moved == 3).sum() != 1:
        return False
    large, small = y_true[moved == 1][0], y_true[moved == 3][0]
    classes = np.unique(y_true)
    position = {c: k for k, c in enumerate(classes.tolist())}
    return (
        middle in position
        and abs(position[large] - position[middle]) == 1
        and abs(position[small] - position[middle]) == 1
        and large != small
        and (y_true == large).sum() > (y_true == small).sum()
    )


def _imbalance_outputs(items, extras):
    y_true, moved, middle = items["y_true"], items["moved"], extras["middle"]
    return np.where(moved == 1, middle, y_true), np.where(moved == 3, middle, y_true)


def _scores_imbalance(evaluate, items, extras):
    large_moved, small_moved = _imbalance_outputs(items, extras)
    score_large = evaluate(items["y_true"], large_moved)
    score_small = evaluate(items["y_true"], small_moved)
    return score_large, score_small, not _greater(score_large, score_small)


_CHECKS = {
    "ordinal_invariance": (_draw_invariance, _valid_invariance, _scores_invariance),
    "ordinal_monotonicity": (_draw_monotonicity, _valid_monotonicity, _scores_monotonicity),
    "imbalance": (_draw_imbalance, _valid_imbalance, _scores_imbalance),
}


def _violation(scores, evaluate, items, extras):
    before, after, violated = scores(evaluate, items, extras)
    return violated and np.isfinite(before) and np.isfinite(after)


def _shrink(valid, scores, evaluate, items, extras):
    """Drop items one at a time, as long as the case still violates the property."""
    shrunk = True
    while shrunk:
        shrunk = False
        for j in range(items["y_true"].size):
            smaller = {key: np.delete(value, j) for key, value in items.items()}
            if valid(smaller, extras) and _violation(scores, evaluate, smaller, extras):
                items, shrunk = smaller, True
                break
    return items


def _report(name, scores, evaluate, items, extras, sign):
    """The counterexample as plain Python values, with scores in the metric's own sign."""
    before, after, _ = scores(evaluate, items, extras)
    y_true = items["y_true"].tolist()
    if name == "ordinal_invariance":
        classes = np.unique(np.concatenate([items["y_true"], items["y_pred"]]))
        mapping = {int(c): int(extras["mapping"][c - 1]) for c in classes}
        return {"y_true": y_true, "y_pred": items["y_pred"].tolist(), "mapping": mapping,
                "score": sign * before, "score_mapped": sign * after}
    if name == "ordinal_monotonicity":
        return {"y_true": y_true, "y_pred": items["y_pred"].tolist(),
                "y_pred_closer": items["y_pred_closer"].tolist(),
                "score": sign * before, "score_closer": sign * after}
    large_moved, small_moved = _imbalance_outputs(items, extras)
    return {"y_true": y_true, "y_pred_large_moved": large_moved.tolist(),
            "y_pred_small_moved": small_moved.tolist(),
            "score_large_moved": sign * before, "score_small_moved": sign * after}


@validate_params(
    {
        "metric": [callable],
        "greater_is_better": ["boolean"],
        "n_trials": [Interval(numbers.Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def check_metric_properties(
    metric: Callable[..., Any],
    *,
    greater_is_better: bool = True,
    n_trials: int = 100,
    random_state: int | np.random.RandomState | None = None,
) -> dict[str, PropertyCheck]:
    r"""Search for counterexamples to the three formal properties of an ordinal metric.

    The properties of Amigó et al. (2020), section 4.1, for an effectiveness
    :math:`\mathrm{Eff}(s, g)` of a system output :math:`s` against a gold
    standard :math:`g` (for an error measure, :math:`\mathrm{Eff}` is minus the
    error):

    ``ordinal_invariance``
        :math:`\mathrm{Eff}(s, g) = \mathrm{Eff}(f(s), f(g))` for every strictly
        increasing :math:`f`.
    ``ordinal_monotonicity``
        If :math:`s'` differs from :math:`s` and every prediction of :math:`s'`
        is either unchanged or strictly closer to the truth
        (:math:`s(d) > s'(d) \ge g(d)` or :math:`s(d) < s'(d) \le g(d)`), then
        :math:`\mathrm{Eff}(s', g) > \mathrm{Eff}(s, g)`.
    ``imbalance``
        For contiguous classes :math:`c_1, c_2, c_3` with :math:`n_{c_1} > n_{c_3}`,
        moving one gold :math:`c_1` item into :math:`c_2` costs less than moving one
        gold :math:`c_3` item into :math:`c_2`:
        :math:`\mathrm{Eff}(g_{d_1 \to c_2}, g) > \mathrm{Eff}(g_{d_3 \to c_2}, g)`.

    Each trial draws 3 to 5 classes ``1..K``, a gold standard with at least one
    item in every class (the paper's condition for CEM-ORD) and a few more at
    random, and a random system output. A violation found is shrunk by removing
    items while it persists. Cases where the metric is undefined (NaN, or a
    ``ValueError``) are skipped. Finding no counterexample is evidence, not a
    proof, that a property holds.

    Parameters
    ----------
    metric : callable or scorer
        ``metric(y_true, y_pred) -> float``, or a scorer made by
        :func:`~sklearn_ordinal.metrics.make_ordinal_scorer` /
        :func:`~sklearn_ordinal.metrics.get_scorer` (its measure, arguments and
        direction are used).
    greater_is_better : bool, default=True
        Whether higher values of ``metric`` are better. Ignored for a scorer.
    n_trials : int, default=100
        Random cases per property.
    random_state : int, RandomState instance or None, default=None
        Seed of the random cases.

    Returns
    -------
    results : dict of str to PropertyCheck
        For each property name, a named tuple ``(holds, n_checked,
        counterexample)``. The counterexample (None when the property held) is a
        dict of plain lists: ``y_true``, ``y_pred``, ``mapping`` (class to
        :math:`f(\text{class})`), ``score`` and ``score_mapped`` for ordinal
        invariance; ``y_true``, ``y_pred``, ``y_pred_closer``, ``score`` and
        ``score_closer`` for ordinal monotonicity; ``y_true``,
        ``y_pred_large_moved``, ``y_pred_small_moved``, ``score_large_moved`` and
        ``score_small_moved`` for imbalance. Scores are the metric's own values.

    See Also
    --------
    metric_properties_table : The check for many metrics, as the paper's Table 2.

    References
    ----------
    .. [1] E. Amigó, J. Gonzalo, S. Mizzaro and J. Carrillo-de-Albornoz, "An
       effectiveness metric for ordinal classification: formal properties and
       experimental results", Proc. ACL 2020, section 4 and appendix B.

    Examples
    --------
    >>> from sklearn.metrics import accuracy_score
    >>> from sklearn_ordinal.metaeval import check_metric_properties
    >>> results = check_metric_properties(accuracy_score, random_state=0)
    >>> {name: check.holds for name, check in results.items()}
    {'ordinal_invariance': True, 'ordinal_monotonicity': False, 'imbalance': False}
    >>> results["ordinal_monotonicity"].counterexample  # doctest: +SKIP
    {'y_true': [1, 2], 'y_pred': [3, 2], 'y_pred_closer': [2, 2], 'score': 0.5, 'score_closer': 0.5}
    """
    measure, sign = _as_measure(metric, greater_is_better)
    evaluate = partial(_effectiveness, measure, sign)
    # One stream per property, drawn up front: every metric checked with the same
    # seed sees the same cases, even when an earlier property stops early.
    seeds = check_random_state(random_state).randint(np.iinfo(np.int32).max, size=len(PROPERTIES))
    results = {}
    for name, seed in zip(PROPERTIES, seeds):
        draw, valid, scores = _CHECKS[name]
        rng = np.random.RandomState(seed)
        violations, n_checked = [], 0
        for trial in range(n_trials):
            items, extras = draw(rng, rng.randint(3, 6), max_extra=2 + 8 * trial // n_trials)
            before, after, violated = scores(evaluate, items, extras)
            if not (np.isfinite(before) and np.isfinite(after)):
                continue
            n_checked += 1
            if violated:
                violations.append((items, extras))
                if len(violations) == _MAX_VIOLATIONS:
                    break
        counterexample = None
        if violations:
            shrunk = [(_shrink(valid, scores, evaluate, i, e), e) for i, e in violations]
            items, extras = min(shrunk, key=lambda case: case[0]["y_true"].size)
            counterexample = _report(name, scores, evaluate, items, extras, sign)
        holds = None if n_checked == 0 else not violations
        results[name] = PropertyCheck(holds, n_checked, counterexample)
    return results


def _shipped_label_measures():
    """Every scorer of the package that scores predicted labels, by name."""
    return {name: scorer for name, scorer in _SCORERS.items() if scorer.response == "labels"}


@validate_params(
    {
        "metrics": [dict, None],
        "n_trials": [Interval(numbers.Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def metric_properties_table(
    metrics: Mapping[str, Callable[..., Any]] | None = None,
    *,
    n_trials: int = 100,
    random_state: int | np.random.RandomState | None = 0,
) -> pd.DataFrame:
    """Which metric satisfies which formal property, in the shape of the paper's Table 2.

    Runs :func:`check_metric_properties` on every metric with the same random
    cases, so that the rows are comparable.

    Parameters
    ----------
    metrics : dict of str to callable or scorer, default=None
        Row name to metric: a scorer (direction taken from it) or a callable
        ``metric(y_true, y_pred)`` where higher is better. Default: every
        label-based scorer of :func:`~sklearn_ordinal.metrics.get_scorer_names`.
    n_trials : int, default=100
        Random cases per property and metric.
    random_state : int, RandomState instance or None, default=0
        Seed of the random cases.

    Returns
    -------
    table : pandas.DataFrame
        One row per metric, one column per property (``ordinal_invariance``,
        ``ordinal_monotonicity``, ``imbalance``) of pandas' nullable ``boolean``
        dtype: True when no counterexample was found, False when one was, NA when
        the metric was undefined on every case.

    See Also
    --------
    check_metric_properties : The counterexamples themselves.

    References
    ----------
    .. [1] E. Amigó, J. Gonzalo, S. Mizzaro and J. Carrillo-de-Albornoz, "An
       effectiveness metric for ordinal classification: formal properties and
       experimental results", Proc. ACL 2020, Table 2.

    Examples
    --------
    >>> from sklearn_ordinal.metaeval import metric_properties_table
    >>> from sklearn_ordinal.metrics import get_scorer
    >>> metric_properties_table({
    ...     "MAE": get_scorer("neg_mean_absolute_error"),
    ...     "macro MAE": get_scorer("neg_macro_mean_absolute_error"),
    ... })
               ordinal_invariance  ordinal_monotonicity  imbalance
    metric
    MAE                     False                  True      False
    macro MAE               False                  True       True
    """
    if metrics is None:
        metrics = _shipped_label_measures()
    seed = check_random_state(random_state).randint(np.iinfo(np.int32).max)
    rows = {
        name: {
            prop: check.holds
            for prop, check in check_metric_properties(
                metric, n_trials=n_trials, random_state=seed
            ).items()
        }
        for name, metric in metrics.items()
    }
    table = pd.DataFrame.from_dict(rows, orient="index", columns=list(PROPERTIES)).astype("boolean")
    table.index.name = "metric"
    return table
