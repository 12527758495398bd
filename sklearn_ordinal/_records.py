"""How a measure function carries its registry record.

The measure registry (:mod:`sklearn_ordinal.metrics._registry`) sets one record on
each measure function it lists, under ``_RECORD``. The intermediates below the
measures (:class:`~sklearn_ordinal._confusion.OrdinalConfusion`,
:class:`~sklearn_ordinal._score_table.ScoreTable`) read the kernel of the function
they are given from that record, so they never import the registry above them and
never look a measure up by name.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

_RECORD = "_sklearn_ordinal_record"


def unwrap_partial(function: Callable[..., Any]) -> tuple[Callable[..., Any], dict[str, Any]]:
    """``(function, keywords)`` of a function given as a ``functools.partial`` chain
    (the keywords of outer partials win, as in a call)."""
    keywords: dict[str, Any] = {}
    while isinstance(function, partial):
        keywords = {**function.keywords, **keywords}
        function = function.func
    return function, keywords


def record_of(measure: Callable[..., Any]) -> tuple[Any, dict[str, Any]]:
    """``(record, keywords)`` of a measure function or a ``functools.partial`` of one.

    ``record`` is None for a callable the registry does not list; ``keywords`` are the
    arguments fixed by the partials.
    """
    function, keywords = unwrap_partial(measure)
    return getattr(function, _RECORD, None), keywords
