"""The p-value that agrees with a percentile bootstrap interval: its inversion.

A comparison shows the interval of a difference and a p-value. When the two come from
different procedures (a bootstrap interval, a randomization test), an interval that
excludes 0 can sit beside p = 0.065. Here the p-value is read off the same bootstrap
distribution as the interval: it is the smallest :math:`\\alpha` at which the
percentile interval of level :math:`1 - \\alpha` touches 0 (Efron and Tibshirani 1993,
section 15.4, "the relationship between confidence intervals and hypothesis tests").
So the interval of level :math:`1 - \\alpha` excludes 0 exactly when the p-value is
below :math:`\\alpha`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def percentile_interval_pvalue(distribution: npt.ArrayLike, value: float = 0.0) -> float:
    r"""Two-sided p-value of ``value`` by inverting the percentile bootstrap interval.

    The percentile interval of level :math:`1 - \alpha` has the ends
    :math:`q(\alpha / 2)` and :math:`q(1 - \alpha / 2)`, :math:`q` being NumPy's
    default quantile (Hyndman and Fan's type 7: the sorted resamples joined by
    straight lines at the levels :math:`k / (B - 1)`). With
    :math:`L_{hi} = \sup\{p : q(p) \le v\}` and :math:`L_{lo} = \inf\{p : q(p) \ge v\}`,
    the interval excludes :math:`v` from below when :math:`\alpha / 2 > L_{hi}` and
    from above when :math:`1 - \alpha / 2 < L_{lo}`, so

    .. math:: p = \min(1, 2 L_{hi}, 2 (1 - L_{lo})).

    Parameters
    ----------
    distribution : ndarray of shape (n_resamples,)
        The bootstrap resamples of the statistic; NaN (undefined) resamples are left
        out, as the interval leaves them out.
    value : float, default=0.0
        The value tested (0: no difference).

    Returns
    -------
    pvalue : float
        In [0, 1]; 0 when every resample lies on one side of ``value`` (the interval
        excludes it at any level), 1 when ``value`` is the median of the resamples.
    """
    x = np.sort(np.asarray(distribution, dtype=np.float64))
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return np.nan
    if len(x) == 1:
        return 1.0 if x[0] == value else 0.0
    last = len(x) - 1
    # sup{h : q(h) <= v}, h the position 0..B-1 in the sorted resamples.
    k = np.searchsorted(x, value, side="right") - 1  # the last resample <= v
    hi_empty = k < 0
    if not hi_empty:
        h_hi = float(last) if k == last else k + (value - x[k]) / (x[k + 1] - x[k])
    # inf{h : q(h) >= v}.
    j = np.searchsorted(x, value, side="left")  # the first resample >= v
    lo_empty = j > last
    if j == 0:
        h_lo = 0.0
    elif not lo_empty:
        h_lo = (j - 1) + (value - x[j - 1]) / (x[j] - x[j - 1])
    # No resample on one side: the interval excludes v at every level on that side.
    below = 0.0 if hi_empty else 2 * h_hi / last
    above = 0.0 if lo_empty else 2 * (1 - h_lo / last)
    return float(min(1.0, below, above))
