"""Holm's step-down adjustment of p-values for multiple comparisons."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def holm_adjust(pvalues: npt.ArrayLike) -> npt.NDArray[np.float64]:
    r"""P-values adjusted for multiple comparisons by Holm's step-down method.

    With the ``m`` defined p-values sorted, :math:`p_{(1)} \le \dots \le p_{(m)}`,
    the adjusted value of :math:`p_{(i)}` is

    .. math::

        \tilde p_{(i)} = \min\Big(1, \max_{j \le i} (m - j + 1) \, p_{(j)}\Big),

    so that rejecting every hypothesis with :math:`\tilde p \le \alpha` controls the
    family-wise error rate at :math:`\alpha` under any dependence between the tests.
    NaN p-values (comparisons that could not be made) are not counted in ``m`` and
    stay NaN.

    Parameters
    ----------
    pvalues : array-like of shape (n_tests,)

    Returns
    -------
    adjusted : ndarray of shape (n_tests,)

    References
    ----------
    .. [1] S. Holm, "A simple sequentially rejective multiple test procedure",
       Scandinavian Journal of Statistics 6(2), 1979, pp. 65-70.
    """
    pvalues = np.asarray(pvalues, dtype=np.float64)
    adjusted = np.full(pvalues.shape, np.nan)
    defined = np.flatnonzero(~np.isnan(pvalues))
    order = defined[np.argsort(pvalues[defined], kind="stable")]
    m = len(order)
    factors = m - np.arange(m)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(factors * pvalues[order]))
    return adjusted


def benjamini_yekutieli_rejections(pvalues: npt.ArrayLike, q: float) -> npt.NDArray[np.bool_]:
    r"""Which hypotheses the Benjamini-Yekutieli step-up procedure rejects at level ``q``.

    With the ``m`` p-values sorted, :math:`p_{(1)} \le \dots \le p_{(m)}`, and
    :math:`H_m = \sum_{j=1}^m 1/j`, the hypotheses of :math:`p_{(1)}, \dots,
    p_{(i^\star)}` are rejected, :math:`i^\star` the largest :math:`i` with
    :math:`p_{(i)} \le \frac{i}{m} \frac{q}{H_m}`; this controls the false discovery
    rate at ``q`` under any dependence between the tests. A NaN p-value (a test
    that could not be made) counts in ``m`` and is never rejected.

    References
    ----------
    .. [1] Y. Benjamini and D. Yekutieli, "The control of the false discovery rate in
       multiple testing under dependency", The Annals of Statistics 29(4), 2001,
       pp. 1165-1188.
    """
    pvalues = np.asarray(pvalues, dtype=np.float64)
    m = len(pvalues)
    rejected = np.zeros(m, dtype=bool)
    if m == 0:
        return rejected
    order = np.argsort(pvalues, kind="stable")
    harmonic = np.sum(1.0 / np.arange(1, m + 1))
    below = pvalues[order] <= np.arange(1, m + 1) / m * q / harmonic
    if below.any():
        rejected[order[:np.flatnonzero(below)[-1] + 1]] = True
    return rejected
