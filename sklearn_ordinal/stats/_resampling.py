"""The bootstrap and the paired randomization test over resampling units.

A *unit* is what resampling draws: an item, or a group of items that move together.
Each unit adds a fixed vector, its *contribution*, to the small intermediate a
measure is a function of (the flattened confusion matrix, the score table, or the
per-class error sums). Units with the same contribution are one *cell* with a count
``m_c``; drawing ``N = sum_c m_c`` units with replacement is then one multinomial
draw of the cell counts, so a resample costs O(number of cells), never O(n).
"""

import hashlib
import warnings
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Optional

import numpy as np
import pandas as pd
from .._warnings import warn_user
from ..metrics._ranking import release_scratch
from scipy import sparse, stats
from scipy.special import ndtr, ndtri
from threadpoolctl import threadpool_limits

# Resamples drawn at once: bounds the (batch x cells) array of draws.
_MAX_DRAWS_PER_BATCH = 4_000_000

# The default number of resamples of every interval and test (score_interval,
# compare_scores, compare_to_trivial, evaluate and the command line): SciPy's
# (`scipy.stats.bootstrap`, `permutation_test`), and (B + 1) alpha / 2 is a whole
# number for the usual levels, so the percentile ends fall on resamples.
DEFAULT_N_RESAMPLES = 9999

# Draws kept by `shared_resamples` for later calls (counts, kept as small integers):
# 10^8, e.g. 9999 resamples of 10^4 items, 100 MB.
_MAX_SHARED_COUNTS = 100_000_000
_shared = None


class ConfidenceInterval(NamedTuple):
    """The two ends of a confidence interval, as in :func:`scipy.stats.bootstrap`.

    The ``confidence_interval`` of :class:`ScoreInterval` and
    :class:`ScoreComparison`.

    Parameters
    ----------
    low : float
        The lower end.
    high : float
        The upper end.

    Examples
    --------
    >>> from sklearn_ordinal.stats import score_interval
    >>> y_true = [0] * 40 + [1] * 30 + [2] * 30
    >>> y_pred = [0] * 30 + [1] * 10 + [1] * 20 + [2] * 10 + [2] * 25 + [1] * 5
    >>> interval = score_interval("accuracy", y_true, y_pred,
    ...                           method="normal").confidence_interval
    >>> round(interval.low, 3), round(interval.high, 3)
    (0.665, 0.835)
    >>> low, high = interval  # a tuple too
    """

    low: float
    high: float


@dataclass
class ScoreInterval:
    """A measure's value with its confidence interval (bootstrap or analytic).

    Shaped like :class:`scipy.stats._resampling.BootstrapResult`, with the estimate
    and how it was obtained added; returned by :func:`score_interval` and the other
    intervals of this module.

    Parameters
    ----------
    estimate : float
        The measure on the data.
    confidence_interval : ConfidenceInterval
        ``low`` and ``high``.
    standard_error : float
        Sample standard deviation of the bootstrap distribution, or the analytic
        standard error (``method="normal"`` or ``"delong"``).
    bootstrap_distribution : ndarray of shape (n_resamples,)
        The measure on each resample; NaN where it is undefined (see
        ``n_undefined``).
    method : str
        ``"bca"``, ``"percentile"``, ``"basic"``, or ``"normal"`` or ``"delong"``
        (the analytic interval, no resampling: an empty ``bootstrap_distribution``),
        or ``"f"`` (the F interval of :func:`intraclass_correlation_interval`, with
        no standard error: NaN).
    confidence_level : float
        The level of the interval, in (0, 1).
    n_undefined : int, default=0
        Resamples on which the measure is undefined (NaN); they are left out of
        the interval and the standard error, with a warning.
    n_flagged : int, default=0
        Resamples on which the measure warned (e.g. a class with no true item left
        out of a macro average); they keep the value the measure returns, as on
        any data set, and one warning says how many.

    See Also
    --------
    score_interval : The interval of a measure.
    decomposition_interval : The interval of a component of the ranked probability
        score.
    krippendorff_alpha_interval, agreement_interval, intraclass_correlation_interval :
        The intervals of the agreement coefficients.

    Examples
    --------
    >>> from sklearn_ordinal.stats import score_interval
    >>> y_true = [0] * 40 + [1] * 30 + [2] * 30
    >>> y_pred = [0] * 30 + [1] * 10 + [1] * 20 + [2] * 10 + [2] * 25 + [1] * 5
    >>> result = score_interval("accuracy", y_true, y_pred, n_resamples=999,
    ...                         random_state=0)
    >>> result.method, result.estimate, result.bootstrap_distribution.shape
    ('bca', 0.75, (999,))
    >>> low, high = result.confidence_interval
    >>> bool(low < result.estimate < high), result.n_undefined
    (True, 0)
    >>> normal = score_interval("accuracy", y_true, y_pred, method="normal")
    >>> round(normal.standard_error, 4), normal.bootstrap_distribution.size
    (0.0435, 0)
    """

    estimate: float
    confidence_interval: ConfidenceInterval
    standard_error: float
    bootstrap_distribution: np.ndarray
    method: str
    confidence_level: float
    n_undefined: int = 0
    n_flagged: int = 0


@dataclass
class ScoreComparison(ScoreInterval):
    """The paired difference ``measure(a) - measure(b)`` of two systems.

    Returned by :func:`compare_scores`: the fields of :class:`ScoreInterval` for the
    difference, then those of the comparison.

    Parameters
    ----------
    estimate : float
        ``estimate_a - estimate_b``.
    confidence_interval : ConfidenceInterval
        ``low`` and ``high``, of the difference.
    standard_error : float
        Of the difference, as in :class:`ScoreInterval`.
    bootstrap_distribution : ndarray of shape (n_resamples,)
        The difference on each paired resample (empty for the analytic methods).
    method : str
        As in :class:`ScoreInterval`.
    confidence_level : float
        The level of the interval, in (0, 1).
    n_undefined : int, default=0
        Resamples on which the difference is undefined (NaN), as in
        :class:`ScoreInterval`.
    n_flagged : int, default=0
        Resamples on which the measure warned, as in :class:`ScoreInterval`.
    estimate_a, estimate_b : float, default=nan
        The measure of each system on the data.
    greater_is_better : bool, default=True
        Whether a higher value of the measure is better, so whether a positive
        difference favours system ``a``.
    pvalue : float, default=nan
        Two-sided p-value of "no difference", by the test that ``test`` names.
    null_distribution : ndarray of shape (n_resamples,) or None, default=None
        The difference on each random exchange of the two systems' outputs (the
        randomization test); None for the other tests.
    test : str, default="randomization"
        ``"randomization"``: the paired randomization test of "the two systems are
        exchangeable on every unit" (label, distance and probabilistic measures);
        ``"percentile inversion"``: the smallest level at which the paired
        bootstrap's percentile interval excludes 0 (ranking measures, whose scores
        need not share a scale to be exchanged); ``"delong"``: DeLong's test;
        ``"normal"``: the z test of the difference over its delta-method standard
        error (``method="normal"``, any measure).

    See Also
    --------
    compare_scores : Makes it.

    Examples
    --------
    >>> from sklearn_ordinal.stats import compare_scores
    >>> y_true = [0] * 40 + [1] * 30 + [2] * 30
    >>> good = [0] * 35 + [1] * 5 + [1] * 25 + [2] * 5 + [2] * 28 + [1] * 2
    >>> poor = [0] * 40 + [0] * 30 + [2] * 30
    >>> result = compare_scores("accuracy", y_true, good, poor, n_resamples=999,
    ...                         random_state=0)
    >>> result.test, result.estimate_a, result.estimate_b, round(result.estimate, 2)
    ('randomization', 0.88, 0.7, 0.18)
    >>> result.null_distribution.shape
    (999,)
    >>> bool(result.confidence_interval.low > 0 and result.pvalue < 0.01)
    True
    """

    estimate_a: float = np.nan
    estimate_b: float = np.nan
    greater_is_better: bool = True
    pvalue: float = np.nan
    null_distribution: Optional[np.ndarray] = None
    test: str = "randomization"


# The tests behind ScoreComparison.pvalue.
RANDOMIZATION = "randomization"
PERCENTILE_INVERSION = "percentile inversion"
DELONG = "delong"
NORMAL_TEST = "normal"


class Units(NamedTuple):
    """Resampling units merged into cells of equal contribution."""

    counts: np.ndarray
    """``m_c``: how many units share the contribution of cell c (int64)."""
    contributions: sparse.csr_matrix
    """Row c: what one unit of cell c adds to the intermediate."""

    @property
    def total(self):
        """The intermediate of the data: ``sum_c m_c x_c``."""
        return np.asarray(self.contributions.T @ self.counts.astype(np.float64)).ravel()


def units_from_items(cells, values, size, groups=None, distinct=True):
    """Units from items, each adding ``values[i, j]`` at ``cells[i, j]``.

    ``cells`` and ``values`` are ``(n, m)`` arrays, ``size`` the length of the
    intermediate. With ``groups``, a unit is a group: its contribution is the sum of
    its items'. Without, items with equal rows of ``(cells, values)`` share a cell,
    found by one sort (O(n log n), the cells then number the distinct rows; where no
    row repeats, the cells are the items in their order); with
    ``distinct=False`` each item is its own cell (no sort: what a one-pass variance
    needs, where merging equal items would cost more than it saves).
    """
    width = cells.shape[1]
    if groups is not None:
        n_units = int(groups.max()) + 1
        # A group's contribution sums its items' (the COO form adds duplicates).
        contributions = sparse.csr_matrix(
            (values.ravel(), (np.repeat(groups, width), cells.ravel())),
            shape=(n_units, size))
        return Units(np.ones(n_units, dtype=np.int64), contributions)
    if distinct:
        first, counts = _distinct_rows(cells, values, size)
        if len(first) < len(cells):
            cells, values = cells[first], values[first]
    else:
        counts = np.ones(len(cells), dtype=np.int64)
    # Row c holds its width entries: the compressed form directly, no sort.
    n_units = len(cells)
    contributions = sparse.csr_matrix(
        (values.ravel(), cells.ravel(), np.arange(0, n_units * width + 1, width)),
        shape=(n_units, size))
    contributions.sum_duplicates()  # two entries of a row at one position
    return Units(counts, contributions)


def _distinct_rows(cells, values, size):
    """First item and count of each distinct row of ``(cells, values)``, rows in order.

    Where no row repeats, the cells are the items in their order, in every layout
    of the same items (one system or two, any measure): a report's one draw then
    resamples the same items for all of them.

    Unweighted items (each column of ``values`` constant) are told apart by their
    cells alone: one int64 key per item, the cells as digits in base ``size``, sorts
    in the same (lexicographic) order as the rows, several times faster than
    ``np.unique(axis=0)`` on float rows.
    """
    n_items, width = cells.shape
    if any(len(np.unique(column)) == n_items for column in (*cells.T, *values.T)):
        # A column told every item apart (a regressor's errors, continuous scores'
        # cells): no row repeats, and a sort of that column alone showed it.
        return np.arange(n_items), np.ones(n_items, dtype=np.int64)
    if (values == values[:1]).all() and float(size) ** width < 2.0**62:
        key = np.zeros(len(cells), dtype=np.int64)
        for column in cells.T:
            key = key * size + column
        _, first, counts = np.unique(key, return_index=True, return_counts=True)
    else:
        keys = np.column_stack([cells.astype(np.float64), values])
        _, first, counts = np.unique(keys, axis=0, return_index=True, return_counts=True)
    if len(first) == n_items:
        return np.arange(n_items), np.ones(n_items, dtype=np.int64)
    return first, counts.astype(np.int64)


def units_from_counts(matrix):
    """Units of unweighted items from their table of counts: one cell per non-empty entry."""
    flat = np.asarray(matrix).ravel()
    cells = np.flatnonzero(flat)
    counts = np.rint(flat[cells]).astype(np.int64)
    contributions = sparse.csr_matrix(
        (np.ones(len(cells)), (np.arange(len(cells)), cells)), shape=(len(cells), flat.size)
    )
    return Units(counts, contributions)


def _batches(n_resamples, n_cells):
    size = max(1, _MAX_DRAWS_PER_BATCH // max(n_cells, 1))
    for start in range(0, n_resamples, size):
        yield min(size, n_resamples - start)


@contextmanager
def shared_resamples():
    """Within this context, what one system computes is made once and reused, and a
    draw of the same cell counts from the same random state is made once.

    A resample is a draw of how many units of each cell it holds: it depends on the
    cells' counts and the random state, not on what the units contribute. A report
    runs all its bootstraps together (:func:`complete_together`: one draw, block by
    block, for every measure, system and comparison whose units are the same);
    separate calls within the context reuse a draw of at most ``_MAX_SHARED_COUNTS``
    counts (kept as small integers) and each system's influence values
    (:func:`shared_computation`). The numbers are those of separate calls, bit for
    bit (the random state is left where the first draw left it).
    """
    global _shared
    outer = _shared
    _shared = {} if outer is None else outer
    try:
        yield
    finally:
        _shared = outer


def sharing():
    """Whether a report's `shared_resamples` is in effect (what is shared is worth
    keying only then)."""
    return _shared is not None


def _fingerprint(*arrays):
    digest = hashlib.blake2b(digest_size=16)
    for array in arrays:
        array = np.ascontiguousarray(array)
        digest.update(f"{array.dtype}{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.digest()


def _draw_key(draw, counts, n_resamples, rng):
    """What makes two draws the same: the law, the cells' counts and the random state."""
    state = rng.get_state()
    return (draw.__name__, n_resamples, _fingerprint(counts),
            _fingerprint(state[1]) + repr(state[2:]).encode())


def _drawn(draw, counts, n_resamples, rng, key, keep=True):
    """The batches of ``draw(counts, n_resamples, rng)`` as float64, reusing a draw made
    before within `shared_resamples` (kept where at most ``_MAX_SHARED_COUNTS``, and
    ``keep``: a report's run reads each of its draws once, all its requests
    together, so keeping it would only hold memory)."""
    if _shared is None or n_resamples * len(counts) > _MAX_SHARED_COUNTS:
        yield from draw(counts, n_resamples, rng)
        return
    if key in _shared:
        batches, state_after = _shared[key]
        rng.set_state(state_after)
    elif not keep:
        yield from draw(counts, n_resamples, rng)
        return
    else:
        # Kept as the smallest unsigned integers that hold them (a resample's count of
        # a one-unit cell is a byte).
        batches = [_compact(draws) for draws in draw(counts, n_resamples, rng)]
        _shared[key] = (batches, rng.get_state())
    for draws in batches:
        yield draws.astype(np.float64)


def shared_computation(what, spec, data, compute):
    """``compute()``, made once per measure and data within `shared_resamples`.

    A report scores each system alone and in every comparison: what depends on one
    system only (its influence values) is kept, keyed by the measure (its function,
    parameters and fixed data) and a fingerprint of ``data``, the arrays it reads
    (None for an argument not given). Outside the context, computed every time.
    """
    if _shared is None:
        return compute()
    key = ("computed", what, *data_key(spec, data))
    if key not in _shared:
        _shared[key] = compute()
    return _shared[key]


def spec_key(spec):
    """What a resolved measure computes: its function, parameters and fixed data."""
    return (spec.record.function.__module__, spec.record.function.__qualname__,
            repr(sorted(spec.params.items())), repr(sorted(spec.data.items())))


def _fingerprint_data(data):
    """A digest of arrays of any kind: numbers by their bytes, other values (strings,
    a Categorical's categories and their order) by pandas' hash of each."""
    digest = hashlib.blake2b(digest_size=16)
    for value in data:
        if value is None:
            digest.update(b"None")
            continue
        # A report passes the same arrays to every call: each is read once (the
        # object is kept with its digest, so that its id names it meanwhile).
        known = _shared.get(("fingerprint", id(value))) if _shared is not None else None
        if known is not None and known[0] is value:
            digest.update(known[1])
            continue
        one = _fingerprint_one(value)
        if _shared is not None:
            _shared[("fingerprint", id(value))] = (value, one)
        digest.update(one)
    return digest.digest()


def data_key(spec, data):
    """What a statistic of the measure ``spec`` on ``data`` (arrays of any kind, or
    None) is, as :func:`shared_computation` keys it."""
    return spec_key(spec), _fingerprint_data(data)


def _fingerprint_one(value):
    digest = hashlib.blake2b(digest_size=16)
    categories = getattr(getattr(value, "dtype", None), "categories", None)
    if categories is not None:
        digest.update(repr(list(categories)).encode())
    array = np.asarray(value)
    if array.dtype.kind in "OUS":
        array = pd.util.hash_array(array.ravel().astype(object))
    digest.update(_fingerprint(array))
    return digest.digest()


def _compact(draws):
    """Whole-number draws (float64) as the smallest unsigned integer type holding them."""
    largest = int(draws.max()) if draws.size else 0
    return draws.astype(np.min_scalar_type(largest))


class _Sums:
    """``draws @ contributions`` for batches of draws ``(B, C)`` of the C cells, by the
    cheapest way for the matrix; ``key`` names the matrix (equal keys, equal sums).

    None where each cell is one position of the intermediate (a table's counts); one
    matrix product where the intermediate is narrow (a few per-class sums: the draws
    are read once, whatever the number of items); else each position's cells
    gathered and added (a score table: as wide as the data, one cell per position).
    """

    def __init__(self, contributions):
        contributions = sparse.csr_matrix(contributions)
        contributions.sum_duplicates()
        self.key = _fingerprint(contributions.indptr, contributions.indices,
                                contributions.data, np.asarray(contributions.shape))
        n_cells, size = contributions.shape
        self.size = size
        self.identity = _is_identity(contributions)
        self.dense = None
        self.by_position = None
        if self.identity:
            return
        if size <= _DENSE_UP_TO and n_cells * size <= _MAX_DENSE_FLOATS:
            self.dense = contributions.toarray()
        else:
            self.by_position = contributions.tocsc()
            self.by_position.sort_indices()

    def __call__(self, draws):
        if self.identity:
            return draws
        if self.dense is not None:
            return draws @ self.dense
        return _summed(draws, self.by_position)


# Numbers of a wide intermediate (a score table) scored at once: some rows of a
# block, every request of those rows together, so that what the requests share (a
# system's gathered table, read by VUS and U_cons) is read again while it is near
# the processor; but at least _MIN_CHUNK_ROWS rows, as each costs a few calls per
# request. Measured: U_cons' BCa at 500 scores 20% faster with 400-row chunks than
# with 2000; reports of 20 000 scores 20-25% faster with 50 rows than with 10.
_MAX_CHUNK_FLOATS = 200_000
_MIN_CHUNK_ROWS = 50
# The intermediate's width up to which a block's sums are one matrix product (BLAS),
# and the size of the dense copy of the contributions it needs.
_DENSE_UP_TO = 64
_MAX_DENSE_FLOATS = 8_000_000


def _summed(draws, by_position):
    """``draws @ contributions`` for a ``(B, C)`` batch of counts of the C cells, the
    contributions given by position (CSC): each position's cells gathered and added
    along the rows, so the batch is read row by row (SciPy's sparse product would
    copy it transposed)."""
    # np.take keeps the batch's row order in memory (draws[:, i] may lay it out by
    # column), so the measures' sums along a row run as on any other batch.
    gathered = np.take(draws, by_position.indices, axis=1)
    if not np.all(by_position.data == 1):
        gathered *= by_position.data
    per_position = np.diff(by_position.indptr)
    if np.all(per_position == 1):
        return gathered  # each position one cell's (e.g. one item's table cell)
    totals = np.zeros((len(draws), by_position.shape[1]))
    filled = per_position > 0
    totals[:, filled] = np.add.reduceat(gathered, by_position.indptr[:-1][filled], axis=1)
    return totals


def _is_identity(matrix):
    """Whether a sparse matrix is the identity: row c adds 1 at position c."""
    matrix = matrix.tocsr()
    n = matrix.shape[0]
    return (
        matrix.shape == (n, n)
        and matrix.nnz == n
        and np.array_equal(matrix.indptr, np.arange(n + 1))
        and np.array_equal(matrix.indices, np.arange(n))
        and bool(np.all(matrix.data == 1))
    )


# A resample of N units over C cells is drawn as N unit indices (counted per cell by
# one bincount) when N <= _INDEX_DRAW_UP_TO x C, else as one multinomial of the C
# counts. NumPy's multinomial costs 50-150 ns per cell, an index and its count
# 5-20 ns: measured on 500-5000 cells (benchmarks/bench_intervals.py).
_INDEX_DRAW_UP_TO = 8
# Counts of cells drawn at once by one bincount (about 1 MB of int64).
_COUNTS_IN_CACHE = 160_000
# Below this many cells a multinomial costs microseconds anyway (a confusion matrix).
_INDEX_DRAW_FROM_CELLS = 256


def _draw_bootstrap(counts, n_resamples, rng):
    """Batches of ``(batch, C)`` bootstrap counts of the cells, as float64.

    Drawing ``N = sum(counts)`` units with replacement and counting those of each
    cell is exactly one ``Multinomial(N; counts / N)`` draw, whichever way it is
    made; the cheaper way is taken (``_INDEX_DRAW_UP_TO``). For many cells of few
    units each (continuous scores, a regressor's values: one cell per item) that is
    the unit indices, from a NumPy ``Generator`` seeded by one draw of ``rng``,
    counted for a whole batch by one ``bincount`` with an offset per resample.
    """
    n_units = int(counts.sum())
    n_cells = len(counts)
    if n_cells < _INDEX_DRAW_FROM_CELLS or n_units > _INDEX_DRAW_UP_TO * n_cells:
        p = counts / n_units
        for batch in _batches(n_resamples, n_cells):
            yield rng.multinomial(n_units, p, size=batch).astype(np.float64)
        return
    generator = np.random.default_rng(rng.randint(np.iinfo(np.int64).max, dtype=np.int64))
    # The cell of each unit, where a cell holds several.
    cell_of = None if n_units == n_cells else np.repeat(
        np.arange(n_cells, dtype=np.intp), counts)
    # bincount scatters into its output at random: a few resamples' counts at a time
    # stay in the processor's cache (3x faster than a whole batch's).
    in_cache = max(1, _COUNTS_IN_CACHE // n_cells)
    for batch in _batches(n_resamples, max(n_units, n_cells)):
        counts_of_batch = np.empty((batch, n_cells))
        for start in range(0, batch, in_cache):
            stop = min(start + in_cache, batch)
            # intp: bincount would convert any other integers first (5x slower).
            drawn = generator.integers(0, n_units, size=(stop - start, n_units),
                                       dtype=np.intp)
            if cell_of is not None:
                drawn = cell_of[drawn]
            drawn += np.arange(0, (stop - start) * n_cells, n_cells, dtype=np.intp)[:, None]
            counts_of_batch[start:stop] = np.bincount(
                drawn.ravel(), minlength=(stop - start) * n_cells).reshape(-1, n_cells)
        yield counts_of_batch


def _draw_randomization(counts, n_resamples, rng):
    """Batches of how many units of each cell are exchanged: ``Binomial(m_c, 1/2)``.

    A fair coin per unit, counted per cell: ``Binomial(m_c, 1/2)`` is exactly the
    number of ones among ``m_c`` fair random bits. Cells of one unit each (a
    regressor's values, one cell per item) take one bit each, eight per random byte;
    cells of up to ``_BITS_UP_TO`` units take ``m_c`` bits of random 64-bit words,
    counted by a popcount (a few nanoseconds a word, where NumPy's binomial sets up
    its sampler anew for every cell: about 100 ns); larger cells, one binomial each.
    The random numbers come from a NumPy ``Generator`` seeded by one draw of ``rng``.
    """
    n_cells = len(counts)
    generator = np.random.default_rng(rng.randint(np.iinfo(np.int64).max, dtype=np.int64))
    if n_cells >= _INDEX_DRAW_FROM_CELLS and counts.max() == 1:
        for batch in _batches(n_resamples, n_cells):
            random_bytes = generator.integers(0, 256, size=(batch, -(-n_cells // 8)),
                                              dtype=np.uint8)
            yield np.unpackbits(random_bytes, axis=1, count=n_cells).astype(np.float64)
        return
    counts = np.asarray(counts, dtype=np.int64)
    by_bits = np.flatnonzero((counts > 0) & (counts <= _BITS_UP_TO))
    by_binomial = np.flatnonzero(counts > _BITS_UP_TO)
    # Each bit-drawn cell's words side by side; its last word keeps m_c mod 64 bits.
    words = -(-counts[by_bits] // 64)
    first_word = np.cumsum(words) - words
    mask = np.full(int(words.sum()), np.iinfo(np.uint64).max, dtype=np.uint64)
    partial = counts[by_bits] % 64
    mask[(first_word + words - 1)[partial > 0]] = (
        np.left_shift(np.uint64(1), partial[partial > 0].astype(np.uint64)) - np.uint64(1))
    for batch in _batches(n_resamples, max(n_cells, len(mask))):
        exchanged = np.zeros((batch, n_cells))
        if len(by_bits):
            drawn = generator.integers(0, np.iinfo(np.uint64).max, size=(batch, len(mask)),
                                       dtype=np.uint64, endpoint=True)
            drawn &= mask
            exchanged[:, by_bits] = np.add.reduceat(_ones_in(drawn), first_word, axis=1)
        if len(by_binomial):
            exchanged[:, by_binomial] = generator.binomial(
                counts[by_binomial], 0.5, size=(batch, len(by_binomial)))
        yield exchanged


# Cells of up to this many units are exchanged bit by bit (16 random words), larger
# ones by one binomial draw each (whose cost does not grow with the count).
_BITS_UP_TO = 1024
# The number of ones in each byte, for NumPy without np.bitwise_count (before 2.0).
_ONES_IN_BYTE = np.array([bin(byte).count("1") for byte in range(256)], dtype=np.uint8)


def _ones_in(words):
    """The number of one bits of each uint64 of ``words`` (a popcount), as int64."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(words).astype(np.int64)
    per_byte = _ONES_IN_BYTE[words.view(np.uint8)].reshape(words.shape + (8,))
    return per_byte.sum(axis=-1, dtype=np.int64)


class Part(NamedTuple):
    """One system's share of the intermediate and the measure read on it."""

    positions: slice
    statistic: Callable
    """The measure of the share alone (a ``batched`` form scores a stack of them)."""
    key: Any = None
    """What ``statistic`` is (the measure, the system's data), where known: parts of
    equal key and contributions read by the requests of one block are scored once."""


BOOTSTRAP = "bootstrap"
EXCHANGE = "exchange"


class Resample(NamedTuple):
    """What an interval or a test asks of the resampler: the statistic, ``parts[0]``'s
    measure or ``parts[0]``'s minus ``parts[1]``'s, on each of ``n_resamples``
    resamples of ``units`` drawn from ``rng``: bootstrap resamples
    (``kind=BOOTSTRAP``), or the paired data with each unit's two systems exchanged
    with probability 1/2 (``EXCHANGE``: the randomization test; two parts of one
    size, exchanged position for position)."""

    kind: str
    units: Units
    parts: list
    n_resamples: int
    rng: Any


class Evaluation(NamedTuple):
    values: np.ndarray
    n_flagged: int
    first_message: Optional[str]


class _Plan:
    """How a block of draws becomes a request's values: what is drawn (the law and
    the cells' counts) and each part's sums of the drawn contributions."""

    def __init__(self, request, sums_of=None):
        sums_of = _Sums if sums_of is None else sums_of
        contributions = request.units.contributions.tocsr()
        shares = [contributions[:, part.positions] for part in request.parts]
        self.request = request
        if request.kind == BOOTSTRAP:
            self.draw, self.counts = _draw_bootstrap, request.units.counts
        else:
            # Exchanging the systems on a unit where they agree changes nothing: only
            # the cells where they differ are drawn. Exchanging c_x units of each cell
            # moves system a's share by sum_c x_c (b_c - a_c): by the sums of each
            # system's own contributions, shared by every pair the system is in.
            change = (shares[1] - shares[0]).tocsr()
            change.eliminate_zeros()
            moving = np.flatnonzero(np.diff(change.indptr))
            self.draw, self.counts = _draw_randomization, request.units.counts[moving]
            self.totals = [np.asarray(share.T @ request.units.counts.astype(np.float64))
                           for share in shares]
            shares = [share[moving] for share in shares]
        self.sums = [sums_of(share) for share in shares]

    def values(self, draws, rows, block, chunk):
        """``(values, {row: message})`` of the request on the ``rows`` of a block of
        draws; ``block`` and ``chunk`` keep what the requests share on the block and
        on those rows."""
        parts = self.request.parts
        if self.request.kind == BOOTSTRAP:
            scored = [_scored(part, sums, draws, rows, block, chunk)
                      for part, sums in zip(parts, self.sums)]
        else:
            moved = [_block_sums(sums, draws, rows, block, chunk) for sums in self.sums]
            exchanged = [self.totals[0] + (moved[1] - moved[0]),
                         self.totals[1] + (moved[0] - moved[1])]
            scored = [_evaluated(part.statistic, totals)
                      for part, totals in zip(parts, exchanged)]
        if len(scored) == 1:
            return scored[0]
        (values_a, flagged_a), (values_b, flagged_b) = scored
        return values_a - values_b, {**flagged_b, **flagged_a}

    @property
    def width(self):
        """The widest intermediate a part reads."""
        return max(sums.size for sums in self.sums)

    @property
    def wide(self):
        """Whether a part reads a wide intermediate (its cells gathered, not summed by
        one product): a score table, as large as the data."""
        return any(sums.by_position is not None for sums in self.sums)


def _block_sums(sums, draws, rows, block, chunk):
    """The sums of the ``rows`` of a block of draws: a narrow intermediate made for the
    whole block at once (one matrix product), a wide one (a score table) for those
    rows only (see ``_MAX_CHUNK_FLOATS``)."""
    narrow = sums.by_position is None
    kept = block if narrow else chunk
    key = ("sums", sums.key)
    if key not in kept:
        totals = sums(draws if narrow else draws[rows])
        if totals is draws:
            totals = draws.view()  # the flag below must not touch the block
        # Read by every request of the block: a statistic that wrote into its input
        # would change the others' numbers, so it fails loudly instead.
        totals.setflags(write=False)
        kept[key] = totals
    return kept[key][rows] if narrow else kept[key]


def _scored(part, sums, draws, rows, block, chunk):
    """A part's values on some rows of a block, made once for equal parts."""
    if part.key is None:
        return _evaluated(part.statistic, _block_sums(sums, draws, rows, block, chunk))
    key = ("values", part.key, sums.key)
    if key not in chunk:
        chunk[key] = _evaluated(part.statistic,
                                _block_sums(sums, draws, rows, block, chunk))
    return chunk[key]


def _evaluated(statistic, batch):
    """``(values, {row: message})``: the statistic of each intermediate of a batch, and
    the first warning of each row on which it warned.

    A statistic with a ``batched`` attribute (a function of a ``(B, C)`` batch of
    intermediates giving B values, as the confusion-matrix measures are on a stack
    of matrices) is called once per batch. A batch on which it warns is evaluated
    again one resample at a time, to find exactly the resamples it warned on.
    """
    batched = getattr(statistic, "batched", None)
    flagged = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        redo = range(len(batch))
        if batched is not None:
            values = np.array(batched(batch), dtype=np.float64)
            if caught:
                caught.clear()
            else:
                # Rows a batched kernel leaves undefined (a ranking measure's
                # resample missing a class) are computed alone, so that their
                # warning is counted and the measure's own rule applies.
                redo = np.flatnonzero(np.isnan(values))
        else:
            values = np.empty(len(batch))
        for row in redo:
            values[row] = statistic(batch[row])
            if caught:
                flagged[int(row)] = str(caught[0].message)
                caught.clear()
    return values, flagged


def run_resamples(requests, on_resamples=None, keep_draws=True):
    """The :class:`Evaluation` of each :class:`Resample` request.

    Requests of the same draw (the same law, cells' counts, number of resamples and
    random state: every measure, system and comparison of a report whose units are
    its items) read one draw, block by block: a block of resamples is drawn once,
    every request is scored on it (each part's sums and values made once for equal
    parts), and it is dropped. Each request's numbers are those it gets alone, bit
    for bit, and its random state is left where its draw leaves it.
    ``on_resamples(done, total)`` is called after each block, with the resamples
    drawn so far and in all. ``keep_draws=False`` (a report's run, whose later
    rounds draw anew) keeps no draw for later calls within `shared_resamples`.
    """
    try:
        return _run_resamples(requests, on_resamples, keep_draws)
    finally:
        release_scratch()


def _run_resamples(requests, on_resamples, keep_draws):
    # A system's share of the intermediate is the same in its interval and in every
    # comparison it is in (the items are the units, in their order, in every layout):
    # its sums are kept once, not once per request (each as large as the data).
    made = {}

    def sums_of(share):
        sums = _Sums(share)
        return made.setdefault(sums.key, sums)

    plans = [_Plan(request, sums_of) for request in requests]
    groups = {}
    for index, plan in enumerate(plans):
        request = plan.request
        key = _draw_key(plan.draw, plan.counts, request.n_resamples, request.rng)
        groups.setdefault(key, []).append(index)
    evaluations = [None] * len(requests)
    total = sum(plans[members[0]].request.n_resamples for members in groups.values())
    done = 0
    for key, members in groups.items():
        first = plans[members[0]]
        rng = first.request.rng
        values = {index: [] for index in members}
        flagged = dict.fromkeys(members, 0)
        messages = dict.fromkeys(members)
        # A wide intermediate (a score table) is scored some rows of a block at a
        # time, every request of those rows together (``_MAX_CHUNK_FLOATS``); the
        # others, the whole block at once.
        wide = [index for index in members if plans[index].wide]
        narrow = [index for index in members if not plans[index].wide]
        step = max(_MIN_CHUNK_ROWS, _MAX_CHUNK_FLOATS // max(
            [plans[index].width for index in wide], default=1))

        def record(index, scored):
            block_values, block_flagged = scored
            values[index].append(block_values)
            if block_flagged:
                flagged[index] += len(block_flagged)
                if messages[index] is None:
                    messages[index] = block_flagged[min(block_flagged)]

        for draws in _drawn(first.draw, first.counts, first.request.n_resamples, rng, key,
                            keep_draws):
            draws.setflags(write=False)
            block = {}
            for index in narrow:
                record(index, plans[index].values(draws, slice(None), block, block))
            for start in range(0, len(draws) if wide else 0, step):
                chunk = {}
                for index in wide:
                    record(index, plans[index].values(draws, slice(start, start + step),
                                                      block, chunk))
            del block
            done += len(draws)
            if on_resamples is not None:
                on_resamples(done, total)
        state = rng.get_state()
        for index in members:
            plans[index].request.rng.set_state(state)
            evaluations[index] = Evaluation(
                np.concatenate(values[index]) if values[index] else np.empty(0),
                flagged[index], messages[index])
    return evaluations


def one_blas_thread():
    """A context in which BLAS runs on one thread, set by the doors (:func:`complete`,
    a report). What the intervals ask of it (the sums of narrow intermediates:
    products of a few columns; dot products of one value per item) is bound by
    memory, not arithmetic: threads would spin beside each other, twice the CPU time
    of one on two cores for no gain in wall time."""
    return threadpool_limits(limits=1, user_api="blas")


def first_request(steps):
    """``(request, None)``: what ``steps`` first asks to be resampled; ``(None,
    result)`` where it finishes without resampling (an analytic interval). Its
    errors (an undefined measure) come out here."""
    try:
        return next(steps), None
    except StopIteration as stop:
        return None, stop.value


def complete(steps):
    """The result of ``steps``, a generator that yields :class:`Resample` requests and
    is sent their :class:`Evaluation`: the form of every interval and test here, so
    that a report can run many together (:func:`complete_together`)."""
    with one_blas_thread():
        request, result = first_request(steps)
        if request is None:
            return result
        return complete_together([(steps, request, None)])[0]


def complete_together(pending, on_resamples=None, keep_draws=True):
    """The results of computations started together: ``pending`` holds, for each, its
    generator, the request it waits on and ``None`` or a function returning the
    context (e.g. recording its warnings) in which it goes on; ``keep_draws`` as
    for :func:`run_resamples`.

    Each round runs every waiting request at once (:func:`run_resamples`: one draw
    for those of the same draw): a report's bootstraps in one round, then its
    randomization tests in another.
    """
    results = [None] * len(pending)
    requests = {index: request for index, (_, request, _) in enumerate(pending)}
    while requests:
        waiting = list(requests)
        evaluations = run_resamples([requests[index] for index in waiting], on_resamples,
                                    keep_draws)
        for index, evaluation in zip(waiting, evaluations):
            steps, _, context = pending[index]
            with nullcontext() if context is None else context():
                try:
                    requests[index] = steps.send(evaluation)
                except StopIteration as stop:
                    results[index] = stop.value
                    del requests[index]
    return results


def jackknife(statistic, units):
    """The statistic with one unit of each cell left out: one value per cell, O(C) calls.

    A statistic with a ``leave_one_out`` attribute (the ranking measures' placement
    values) gives them all at once; it leaves NaN, or None for all, where it cannot.
    One with a ``batched`` form (the confusion-matrix measures) is called once on the
    stack of the C leave-one-out intermediates.
    """
    total = units.total
    contributions = units.contributions
    fast = getattr(statistic, "leave_one_out", None)
    fast = None if fast is None else fast(units)
    if fast is not None:
        for c in np.flatnonzero(np.isnan(fast)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fast[c] = statistic(total - contributions.getrow(c).toarray().ravel())
        return fast
    batched = getattr(statistic, "batched", None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if batched is not None:
            # Every leave-one-out intermediate at once, a bounded stack at a time.
            n_cells, size = contributions.shape
            step = max(1, _MAX_DRAWS_PER_BATCH // max(size, 1))
            values = np.concatenate([
                np.asarray(batched(total - contributions[start:start + step].toarray()),
                           dtype=np.float64)
                for start in range(0, n_cells, step)
            ])
            # What the batched kernel leaves undefined, the statistic decides alone.
            for c in np.flatnonzero(np.isnan(values)):
                values[c] = statistic(total - contributions.getrow(c).toarray().ravel())
            return values
        return np.array(
            [
                statistic(total - contributions.getrow(c).toarray().ravel())
                for c in range(contributions.shape[0])
            ]
        )


def _acceleration(jackknife_values, counts):
    """BCa acceleration from the leave-one-out values, each standing for ``m_c`` units.

    ``a = sum_i U_i^3 / (6 (sum_i U_i^2)^{3/2})`` with ``U_i = (N - 1)(mean - theta_(i))``
    (Efron and Tibshirani 1993, eq. 14.15); the factor ``N - 1`` cancels.
    """
    defined = np.isfinite(jackknife_values)
    if not defined.all():
        warn_user(
            f"The measure is undefined when one unit of {np.sum(counts[~defined])} units is "
            "left out; the BCa acceleration uses the other units only.",
            stats.DegenerateDataWarning
        )
    values, counts = jackknife_values[defined], counts[defined]
    if counts.sum() < 2:
        return 0.0
    # ``a`` does not change with the scale of the values: scaled to at most 1 (twice:
    # the values, then their deviations), the cubes neither overflow (labels of
    # 1e300 gave inf / inf) nor underflow.
    size = np.max(np.abs(values))
    if size == 0:
        return 0.0
    deviation = np.average(values / size, weights=counts) - values / size
    size = np.max(np.abs(deviation))
    if size == 0:
        # Every unit is alike to the jackknife: no skewness to correct.
        return 0.0
    deviation = deviation / size
    spread = np.sum(counts * deviation**2)
    return float(np.sum(counts * deviation**3) / (6 * spread**1.5))


def check_n_resamples(n_resamples, confidence_level):
    """Refuse a number of resamples that leaves no resample beyond an end of the interval."""
    tail = (1 - confidence_level) / 2
    if n_resamples * tail < 1:
        needed = int(np.ceil(1 / tail))
        raise ValueError(
            f"n_resamples={n_resamples} leaves no resample beyond each end of a "
            f"{confidence_level:.4g} interval (each tail holds {tail:.4g} of them); use at "
            f"least {needed}, and preferably 10 times as many, e.g. the default 9999."
        )


def interval(estimate, distribution, method, confidence_level, jackknife_values=None,
             counts=None):
    """``(low, high)`` of a percentile, basic or BCa interval (scipy's formulas).

    ``distribution`` holds only defined values. BCa (Efron and Tibshirani 1993,
    eq. 14.10): the ends are the quantiles ``Phi(z0 + (z0 + z) / (1 - a (z0 + z)))``
    for ``z = Phi^{-1}(alpha)``, ``Phi^{-1}(1 - alpha)``, with the bias correction
    ``z0 = Phi^{-1}(share of resamples below the estimate)`` (ties count half).
    """
    alpha = (1 - confidence_level) / 2
    levels = np.array([alpha, 1 - alpha])
    if np.ptp(distribution) == 0:
        warn_user(
            f"Every resample gives the same value {float(distribution[0])!r}: the data show no "
            "sampling variation of this measure (e.g. all items in one cell of the "
            "confusion matrix). The interval is that single point.",
            stats.DegenerateDataWarning
        )
        return ConfidenceInterval(float(distribution[0]), float(distribution[0]))
    if method == "bca":
        below = np.count_nonzero(distribution < estimate)
        at_or_below = np.count_nonzero(distribution <= estimate)
        z0 = ndtri((below + at_or_below) / (2 * len(distribution)))
        if not np.isfinite(z0):
            raise ValueError(
                f"The estimate {estimate!r} lies outside the bootstrap distribution (all "
                "resamples fall on one side of it), so the BCa bias correction is infinite. "
                "Use method='percentile' or 'basic', or more data."
            )
        a = _acceleration(jackknife_values, counts)
        z = ndtri(levels)
        levels = ndtr(z0 + (z0 + z) / (1 - a * (z0 + z)))
        thin = min(levels[0], 1 - levels[1]) * len(distribution)
        if thin < 1:
            warn_user(
                f"The BCa-adjusted tail levels {levels.round(6).tolist()} leave fewer than "
                f"one of the {len(distribution)} defined resamples beyond an end: that end "
                "is the most extreme resample. Use more resamples.",
                stats.DegenerateDataWarning
            )
    # Hyndman and Fan's type 7, scipy.stats.quantile's default (SciPy >= 1.15 only).
    low, high = np.quantile(distribution, levels)
    if method == "basic":
        low, high = 2 * estimate - high, 2 * estimate - low
    return ConfidenceInterval(float(low), float(high))
