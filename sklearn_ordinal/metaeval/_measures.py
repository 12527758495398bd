"""A metric given as a plain callable or as a scorer, on the greater-is-better scale."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ..metrics._scorer import _OrdinalScorer


def _as_measure(
    metric: Callable[..., Any], greater_is_better: bool = True
) -> tuple[Callable[..., Any], int]:
    """``(measure, sign)``: ``sign * measure(y_true, y_pred)`` is higher for better outputs.

    A scorer of this package brings its own measure, arguments and direction; a
    plain callable ``metric(y_true, y_pred)`` takes ``greater_is_better``.
    """
    if isinstance(metric, _OrdinalScorer):
        if metric.response != "labels":
            raise ValueError(
                f"{metric!r} scores real-valued predictions; only measures of predicted "
                "labels can be used here."
            )
        measure = partial(metric.score_func, **metric.kwargs)
        return measure, 1 if metric.greater_is_better else -1
    if not callable(metric):
        raise ValueError(f"metric must be a callable metric(y_true, y_pred); got {metric!r}.")
    return metric, 1 if greater_is_better else -1
