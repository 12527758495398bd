"""The analytic interval: a measure's influence values and the delta-method variance.

Every measure of the package is a function :math:`\\theta(T)` of a small
intermediate ``T = sum_c m_c x_c`` summed over resampling units (see
:mod:`._resampling`): the confusion matrix, the per-class weights and error sums of
a regressor's values, the weight and weighted sum of the ranked probability score.
The *empirical influence value* of a unit ``i`` (Efron 1981; Efron and Tibshirani
1993, ch. 21-22, the *infinitesimal jackknife*) is the derivative of the measure
when the data's distribution moves towards that unit,

.. math::

    U_i = N \\, \\nabla\\theta(T) \\cdot (x_i - \\bar x), \\qquad \\bar x = T / N,

and the delta-method variance of the measure is that of its influence values,

.. math::

    \\hat V = \\frac{1}{N (N - 1)} \\sum_{i=1}^{N} U_i^2 ,

so the interval is :math:`\\hat\\theta \\pm z_{1 - \\alpha} \\sqrt{\\hat V}`. For a
mean over items (micro MAE on real values, the RPS) it is the items' sample
variance over ``N``; for the macro averages the per-class variances combined; for a
ratio or a root the delta method; for a label measure the multinomial delta method
over the cells of the confusion matrix. With the factor ``N / (N - 1)`` it is the
jackknife's variance for a statistic linear in the units (Efron and Tibshirani
1993, eq. 11.5). A paired comparison is the same formula for the difference
``theta(a) - theta(b)`` of the paired intermediate: the two systems' influence
values are subtracted unit by unit, so their correlation on the same items enters.
The ranking measures' influence values are their placement values, and this
variance DeLong's (:mod:`._placement`).

The gradient :math:`\\nabla\\theta(T)` is taken by central differences, one
batched call of the measure's kernel on ``2 P`` intermediates for the ``P``
positions any unit adds to (at most ``2 K^2`` for a paired confusion matrix), so
the whole variance costs ``O(P)`` kernel evaluations and one sparse product over
the units, never a Python loop over items.

Layer: statistics (5).
"""

import warnings

import numpy as np
from scipy import stats
from scipy.special import ndtr, ndtri

from .._warnings import warn_user
from ._resampling import ConfidenceInterval

# Relative step of the central differences: the truncation error is about
# step**2 / 3 of the derivative for the measures' rational functions (1e-9), the
# rounding error about 1e-16 / step of the measure's value.
_STEP = 1e-4

NORMAL = "normal"
# Influence values below this share of the largest term are rounding (1e-16 per sum).
_ROUNDING = 1e-12


def measure_gradient(statistic, total, positions):
    """``d statistic / d total`` at ``positions`` (0 elsewhere), by central differences
    of relative step ``_STEP``, in one call of the statistic's ``batched`` form."""
    gradient = np.zeros(len(total))
    if not len(positions):
        return gradient
    scale = np.abs(total[positions])
    # A position no unit moves away from zero has a step of the others' size.
    steps = _STEP * np.where(scale > 0, scale, np.mean(np.abs(total)) or 1.0)
    stack = np.tile(total, (2 * len(positions), 1))
    rows = np.arange(len(positions))
    stack[rows, positions] += steps
    stack[len(positions) + rows, positions] -= steps
    batched = getattr(statistic, "batched", None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if batched is not None:
            values = np.asarray(batched(stack), dtype=np.float64)
        else:
            values = np.array([statistic(row) for row in stack], dtype=np.float64)
    half = len(positions)
    gradient[positions] = (values[:half] - values[half:]) / (2 * steps)
    return gradient


def influence_values(statistic, units):
    """``a_c - mean``: per cell, ``grad theta(T) . x_c`` centred at the units' mean
    (:math:`U_c / N`), and ``N``; the units of a cell share it."""
    contributions = units.contributions.tocsr()
    total = units.total
    # The positions any unit adds to: one count per position (a sort of the nnz
    # indices, as np.unique would make, costs more at 10^6 items).
    positions = np.flatnonzero(np.bincount(contributions.indices[contributions.data != 0],
                                           minlength=contributions.shape[1]))
    gradient = measure_gradient(statistic, total, positions)
    if not np.all(np.isfinite(gradient)):
        raise ValueError(
            "The measure has no derivative at these data (it is undefined next to them), "
            "so the analytic interval cannot be given; use method='bca' or 'percentile'."
        )
    along = contributions @ gradient
    n_units = float(units.counts.sum())
    centred = along - (units.counts @ along) / n_units
    # Two identical systems' parts cancel up to the rounding of the sums: that is 0.
    size = abs(contributions) @ np.abs(gradient)
    centred[np.abs(centred) <= _ROUNDING * np.max(size, initial=0.0)] = 0.0
    return centred, n_units


def delta_variance(statistic, units):
    """:math:`\\hat V = N / (N - 1) \\sum_c m_c (a_c - \\bar a)^2`, the variance of
    the influence values (:func:`influence_values`) over ``N (N - 1)``."""
    centred, n_units = influence_values(statistic, units)
    return variance_of_influence(centred, units.counts)


def variance_of_influence(centred, counts=None):
    """``N / (N - 1) sum_c m_c centred_c^2`` (``m_c = 1``: one unit per value)."""
    n_units = float(len(centred) if counts is None else counts.sum())
    if n_units < 2:
        raise ValueError(
            "The analytic interval needs at least two resampling units (items or "
            "groups); use method='bca' or 'percentile'."
        )
    squares = centred @ centred if counts is None else counts @ centred**2
    return float(n_units / (n_units - 1) * squares)


def normal_interval(estimate, standard_error, confidence_level, bounds):
    """``estimate -+ z se``, clipped to the range of the measure (or difference)."""
    z = ndtri(0.5 + confidence_level / 2)
    low, high = np.clip([estimate - z * standard_error, estimate + z * standard_error],
                        *bounds)
    return ConfidenceInterval(float(low), float(high))


def normal_pvalue(estimate, standard_error):
    """Two-sided p-value of "no difference": ``2 Phi(-|delta| / se)``."""
    if standard_error > 0:
        return float(2 * ndtr(-abs(estimate) / standard_error))
    return 1.0 if estimate == 0 else 0.0


def warn_if_no_variation(standard_error, estimate):
    """A zero variance: the interval is a point, said as the bootstrap says it."""
    if standard_error == 0:
        warn_user(
            f"The influence values are all 0: the data show no sampling variation of "
            f"this measure at {estimate!r} (e.g. all items in one cell of the confusion "
            "matrix). The interval is that single point.",
            stats.DegenerateDataWarning,
        )
