"""``method="auto"``: which interval each measure gets, by measured coverage.

The rule is read off the coverage study ``benchmarks/bench_interval_coverage.py``
(its table is on the uncertainty page): the analytic (delta-method normal)
interval is used where its coverage was within one point of BCa's on every data
model of the study, per family of measure; BCa everywhere else.

Layer: statistics (5).
"""

import numpy as np
import pandas as pd

from .._validation import (
    _check_1d_labels,
    _check_sample_weight,
    _is_real_valued,
    group_codes,
)

# method="auto" takes the analytic interval from this many resampling units on
# (items, or groups), when the smallest class holds at least _SMALLEST_CLASS items,
# per family (see family()): the smallest n of the coverage study from which the
# analytic interval covered within one point of BCa in every cell of the family, at
# that n and above (benchmarks/results/bench_interval_coverage.txt; the ranking
# measures' from bench_ranking_coverage.txt). Real values need 10 000 items: on the
# skewed, heavy-tailed errors RMSE and macro MAE were 1.8-2.3 points short of BCa
# at 1000 and 3000.
AUTO_ANALYTIC_FROM = {
    "ranking": 1000,
    "probabilistic": 100,
    "real-valued distance": 10_000,
    "label": 300,
}
# DeLong's variance needs two items of every class (its within-class terms). The
# delta method's macro averages estimate a class's variance from its own items: the
# study's class of about 8 items left them 3-10 points short of BCa (its other
# models hold 39 items or more in every class from 1000 items on): below 30, BCa.
_SMALLEST_CLASS = {"ranking": 2, "probabilistic": 2, "real-valued distance": 30,
                   "label": 30}

# Measures that are a maximum or minimum over the classes have no derivative where
# two classes tie: never the delta method under "auto".
_NOT_SMOOTH_AVERAGES = {"max"}
_NOT_SMOOTH_FUNCTIONS = {"minimum_sensitivity_score", "gmsec_score", "mes_score"}


def family(spec, real_valued=False):
    """``"ranking"``, ``"probabilistic"``, ``"distance"`` or ``"label"`` (a distance
    measure of real values: ``"real-valued distance"`` where ``real_valued``)."""
    if spec.record.from_table is not None:
        return "ranking"
    if spec.record.from_items is not None:
        return "probabilistic"
    if spec.record.distance is not None:
        return "real-valued distance" if real_valued else "distance"
    return "label"


def is_smooth(spec):
    """Whether the measure is differentiable in its intermediate (not a max or min)."""
    return (spec.record.function.__name__ not in _NOT_SMOOTH_FUNCTIONS
            and spec.params.get("average") not in _NOT_SMOOTH_AVERAGES)


def smallest_class(y_true, sample_weight):
    """The number of items of the gold standard's smallest class (among those of
    positive weight); with weights, Kish's effective number of items
    ``(sum w)^2 / sum w^2`` of each class.

    The effective number is the count of items where the weights are equal, fewer
    where a few items carry the class, and does not move when every weight is
    scaled: a class's variance is estimated from its own items whatever the weights'
    unit (their total weight would give BCa to weights that sum to 1 and the
    analytic interval to weights scaled by 1e300). The weights are checked as every
    measure checks them (their length, sign and finiteness), so that a bad one gets
    the measure's own message here too.

    References
    ----------
    Kish, L. (1965). *Survey Sampling*, section 11.7. Wiley.
    """
    # Read as the measures read it (a one-column DataFrame, an ordered Categorical),
    # with their messages.
    codes, classes = pd.factorize(_check_1d_labels(y_true, "y_true"), use_na_sentinel=False)
    weights, _ = _check_sample_weight(sample_weight, len(codes))
    if weights is None:
        counts = np.bincount(codes, minlength=len(classes))
        return float(counts.min()) if len(counts) else 0.0
    # Each class's weights over their largest: no square underflows, and the ratio
    # is the same.
    largest = np.zeros(len(classes))
    np.maximum.at(largest, codes, weights)
    held = largest > 0
    if not held.any():
        return 0.0
    scaled = weights / np.where(held, largest, 1.0)[codes]
    total = np.bincount(codes, weights=scaled, minlength=len(classes))
    square = np.bincount(codes, weights=scaled * scaled, minlength=len(classes))
    return float((total[held] ** 2 / square[held]).min())


def auto_method(spec, n_units, smallest, grouped, real_valued=False):
    """``"normal"`` (the analytic interval; ``"delong"``, its name for the ranking
    measures) or ``"bca"``, by :data:`AUTO_ANALYTIC_FROM`.

    ``n_units`` are the resampling units (items or groups), ``smallest`` the weight
    of the smallest class; ranking measures have no analytic form over groups.
    """
    kind = family(spec, real_valued)
    kind = "label" if kind == "distance" else kind
    if not is_smooth(spec) or (grouped and kind == "ranking"):
        return "bca"
    if n_units >= AUTO_ANALYTIC_FROM[kind] and smallest >= _SMALLEST_CLASS[kind]:
        return "delong" if kind == "ranking" else "normal"
    return "bca"


def _is_real_valued_predictions(y_pred, y_true, labels):
    """Whether ``y_pred`` holds a regressor's real values (not classes)."""
    y_pred = np.asarray(y_pred)
    if y_pred.dtype.kind != "f":
        return False
    if labels is None and not isinstance(y_true, (pd.Categorical, pd.Series)):
        # The true labels' set, found by hashing: np.isin would sort all the items.
        labels = pd.unique(np.asarray(y_true).ravel())
    return _is_real_valued(y_pred, np.asarray(y_true), labels)


def chosen_method(method, spec, y_true, systems, labels, sample_weight, groups,
                  real=None):
    """The method asked for, or the one ``"auto"`` picks for these data
    (:func:`auto_method`); ``"delong"`` is for the ranking measures only. ``real``:
    per system, whether it gives real values, where known."""
    if method == "delong" and spec.record.from_table is None:
        raise ValueError(
            "method='delong' gives the variance of the ranking measures from their "
            f"placement values; {spec.name} has none. Use method='normal' (the same "
            "influence-function variance for any measure), 'bca', 'percentile' or "
            "'basic'."
        )
    if method != "auto":
        return method
    n_items = len(np.asarray(systems[0]))
    # The groups' one check, before any work; the units resampled are those of
    # positive weight.
    n_units = (len(group_codes(groups, n_items, sample_weight=sample_weight,
                               resampled=True)[1]) if groups is not None else n_items)
    if spec.record.distance is None:
        real = [False]
    elif real is None:
        real = [_is_real_valued_predictions(y, y_true, labels) for y in systems]
    return auto_method(spec, n_units, smallest_class(y_true, sample_weight),
                       groups is not None, any(real))
