"""Inputs from any Array API namespace (PyTorch, CuPy, array-api-strict, ...).

Under scikit-learn's ``set_config(array_api_dispatch=True)``, the measures take
arrays of one namespace and device, as scikit-learn's metrics do. Every measure is a
function of a small intermediate (a K x K confusion matrix, K per-class sums, or a
score table), so the work on the items is done where the items are and only that
intermediate crosses to the host:

- arrays on a CPU device already live in the host's memory: NumPy reads them
  through DLPack without a copy (:func:`host_views`), and the package's own NumPy
  kernels count them (the same work and the same numbers as NumPy input);
- arrays on any other device (a GPU, array-api-strict's simulated second device)
  are compressed there by the namespace's own sort (:func:`compress`): the distinct
  ``(key, key, ...)`` tuples of the items with the total weight of each. Only those
  cells cross (:func:`to_host`), and the NumPy code validates and counts them as
  weighted items, so messages and numbers are those of NumPy input.

Without dispatch (scikit-learn's default), nothing here is consulted: inputs are
read as NumPy reads them, as before. This module is the lowest layer; the
namespace's own checks of the items live in :mod:`sklearn_ordinal._device_counting`.
"""

from typing import Any, NamedTuple

import numpy as np
from sklearn import get_config

from ._compat import get_namespace_and_device, is_array_api_obj

# DLPack's device type of memory the host reads directly.
_DLPACK_CPU = 1


class Namespace(NamedTuple):
    """The Array API namespace and device of a call's arrays."""

    xp: Any
    device: Any
    on_host: bool
    """Whether the arrays live in the host's memory (a CPU device)."""


def _is_plain(x):
    """Whether ``x`` is read as it always was: None, NumPy, pandas, Python sequences,
    scalars, or a Dask collection (counted blockwise by its own door)."""
    if x is None or isinstance(x, (np.ndarray, np.generic, list, tuple, int, float, str)):
        return True
    module = type(x).__module__.split(".")[0]
    # PyTorch's tensors have no __array_namespace__: array-api-compat knows them.
    return module in ("pandas", "dask", "dask_expr") or not is_array_api_obj(x)


def namespace_of(*arrays):
    """The :class:`Namespace` of the arrays under ``array_api_dispatch=True``, else None.

    None (the NumPy path, as without dispatch) when dispatch is off or when every
    array is NumPy, pandas, a list or None. Arrays of several namespaces or devices
    get scikit-learn's own error.
    """
    if not get_config().get("array_api_dispatch", False):
        return None
    if all(_is_plain(x) for x in arrays):
        return None
    given = [x for x in arrays if x is not None]
    xp, _, device = get_namespace_and_device(*given)
    return Namespace(xp, device, all(_on_host(x) for x in given if not _is_plain(x)))


def _on_host(x):
    """Whether ``x`` is on a CPU device: DLPack says its memory is the host's and its
    namespace calls its device the CPU (array-api-strict's simulated second devices
    share the host's memory but stand for accelerators)."""
    try:
        kind = x.__dlpack_device__()[0]
    except (AttributeError, TypeError, BufferError, RuntimeError):
        return False
    return int(kind) == _DLPACK_CPU and "cpu" in str(getattr(x, "device", "")).lower()


def _as_host_array(x):
    """``x`` as a NumPy array without a copy (DLPack); None when the producer refuses."""
    if x is None or _is_plain(x):
        return x
    exportable = x.detach() if hasattr(x, "detach") else x  # a tensor that needs grad
    try:
        return np.from_dlpack(exportable)
    except (TypeError, BufferError, RuntimeError, ValueError):
        return None


def host_views(*arrays):
    """NumPy views of arrays on a CPU device (None and plain inputs pass as they are).

    DLPack hands NumPy the very memory: nothing is copied. An array the producer will
    not export (an unusual dtype) is converted by :func:`to_host` instead.
    """
    views = []
    for x in arrays:
        view = _as_host_array(x)
        views.append(to_host(x) if view is None else view)
    return tuple(views)


def items_on_host(*arrays):
    """The arrays as NumPy for a door that resamples the items themselves (intervals):
    views of a CPU device's arrays, copies from another device (the items cross to
    the host once, where the resampling runs); plain inputs as they are."""
    namespace = namespace_of(*arrays)
    if namespace is None:
        return arrays
    if namespace.on_host:
        return host_views(*arrays)
    return tuple(to_host(x) if not _is_plain(x) else x for x in arrays)


def to_host(x):
    """The one place where a namespace's array crosses to the host as NumPy.

    Only small intermediates come here from another device (the distinct cells of the
    items, a handful of scalars' arrays); :mod:`tests.test_array_api` records every
    call to hold the measures to that.
    """
    if x is None or isinstance(x, np.ndarray):
        return x
    name = type(x).__module__.split(".")[0]
    if name == "torch":
        return x.detach().cpu().numpy()
    if name == "cupy":  # pragma: no cover - needs a GPU
        return x.get()
    if hasattr(x, "to_device") and not _on_host(x):
        # array-api-strict and other namespaces: to the CPU device, then read there.
        try:
            cpu = x.__array_namespace__().__array_namespace_info__().devices()[0]
            x = x.to_device(cpu)
        except (AttributeError, TypeError, ValueError, IndexError):
            pass
    host = _as_host_array(x)
    return np.asarray(x) if host is None else host


def scalar(x):
    """A 0-D array of the namespace as a Python number (a scalar crosses to the host)."""
    return to_host(x)[()].item()


def compress(xp, keys, weights=None):
    """The distinct tuples of ``keys`` (1-D arrays of one length) and the weight of
    each, computed by the namespace's own sort, on the arrays' device.

    Returns ``(distinct, totals)``: ``distinct`` a list of host arrays, one per key,
    in increasing lexicographic order of the tuples (first key first); ``totals`` the
    number of items of each tuple (as int64) without ``weights``, else the sum of
    their weights. Only these cells cross to the host.

    The items are sorted by stable argsorts, last key first. Run totals without a
    ``bincount`` (not in the Array API standard) are summed by a segmented
    doubling scan: ``log2`` of the longest run steps, each one pass, adding
    neighbouring partial sums pairwise (no running total over all items, whose
    rounding would swamp a small cell next to large ones).
    """
    booleans = [key.dtype == xp.bool for key in keys]
    if any(booleans):
        # Sorted and counted as 0 and 1 (no sort of booleans in the standard).
        keys = [xp.astype(key, xp.uint8) if boolean else key
                for key, boolean in zip(keys, booleans)]
        distinct, totals = compress(xp, keys, weights)
        return [values.astype(bool) if boolean else values
                for values, boolean in zip(distinct, booleans)], totals
    n = keys[0].shape[0]
    if hasattr(xp, "bincount") and n:
        counted = _counted_on_grid(xp, keys, weights)
        if counted is not None:
            return counted
    order = None
    for key in reversed(keys):
        ordered = key if order is None else xp.take(key, order)
        step = xp.argsort(ordered, stable=True)
        order = step if order is None else xp.take(order, step)
    sorted_keys = [xp.take(key, order) for key in keys]
    if n > 1:
        differs = sorted_keys[0][1:] != sorted_keys[0][:-1]
        for key in sorted_keys[1:]:
            differs = differs | (key[1:] != key[:-1])
        new_run = xp.concat([xp.ones((1,), dtype=xp.bool, device=_device(keys[0])), differs])
    else:
        new_run = xp.ones((n,), dtype=xp.bool, device=_device(keys[0]))
    starts = xp.nonzero(new_run)[0]
    distinct = [to_host(xp.take(key, starts)) for key in sorted_keys]
    host_starts = to_host(starts).astype(np.int64)
    lengths = np.diff(host_starts, append=n)
    if weights is None:
        return distinct, lengths
    sorted_weights = xp.take(weights, order)
    run_id = xp.cumulative_sum(xp.astype(new_run, xp.int64)) - 1
    if hasattr(xp, "bincount"):  # PyTorch, CuPy: one scatter-add on the device
        totals = xp.bincount(run_id, weights=sorted_weights, minlength=len(host_starts))
        return distinct, to_host(totals).astype(np.float64)
    partial = sorted_weights
    shift = 1
    longest = int(lengths.max()) if len(lengths) else 0
    while shift < longest:
        before = xp.concat([xp.zeros((shift,), dtype=partial.dtype, device=_device(partial)),
                            partial[:-shift]])
        same_run = run_id[shift:] == run_id[:-shift]
        same_run = xp.concat([xp.zeros((shift,), dtype=xp.bool, device=_device(partial)),
                              same_run])
        partial = partial + xp.where(same_run, before, xp.zeros_like(before))
        shift *= 2
    ends = xp.asarray(host_starts + lengths - 1, device=_device(partial))
    return distinct, to_host(xp.take(partial, ends)).astype(np.float64)


# Integer keys whose grid of cells has at most this many cells are counted by one
# bincount of the cell index, without sorting (a few MB of counts crossing).
_MAX_GRID_CELLS = 2**20


def _counted_on_grid(xp, keys, weights):
    """:func:`compress` of integer keys by one ``bincount`` over the grid of their
    values (PyTorch, CuPy), or None when a key is not integer or the grid is large."""
    if not all(xp.isdtype(key.dtype, "integral") for key in keys):
        return None
    lows = [scalar(xp.min(key)) for key in keys]
    spans = [scalar(xp.max(key)) - low + 1 for key, low in zip(keys, lows)]
    if int(np.prod(spans, dtype=object)) > _MAX_GRID_CELLS:
        return None
    cell = None
    for key, low, span in zip(keys, lows, spans):
        offset = xp.astype(key, xp.int64) - low
        cell = offset if cell is None else cell * span + offset
    counts = to_host(xp.bincount(cell, weights=weights, minlength=int(np.prod(spans))))
    present = np.flatnonzero(counts)
    distinct = [
        (np.asarray(index, dtype=np.int64) + low).astype(to_host_dtype(key))
        for index, low, key in zip(np.unravel_index(present, spans), lows, keys)
    ]
    totals = counts[present]
    return distinct, totals.astype(np.int64 if weights is None else np.float64)


def to_host_dtype(key):
    """The NumPy dtype of an integer array of a namespace (by name: int8, uint16...)."""
    return np.dtype(str(key.dtype).split(".")[-1])


def _device(x):
    return getattr(x, "device", None)


def on_device(xp, device, host_array):
    """A small host array as an array of the namespace on ``device``."""
    return xp.asarray(host_array, device=device)
