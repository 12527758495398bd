"""A report's intervals and comparisons, started one by one and finished together.

Each interval or test is a computation in steps (``interval_steps``,
``comparison_steps``): it yields what it needs resampled and goes on with the
values. A report starts every one (the analytic ones finish at once), then runs
the waiting ones together (:func:`~sklearn_ordinal.stats._resampling.complete_together`),
so that the bootstraps of all its measures, systems and comparisons read one draw,
block by block, and its randomization tests another.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Callable, Generator

from ..stats._resampling import complete_together, first_request


class Slot:
    """Where a started computation's result lands: ``value``, once it is done."""

    __slots__ = ("value",)

    def __init__(self, value: Any = None) -> None:
        self.value = value


class ReportJobs:
    """The computations of one report: ``start`` each, ``then`` what reads their
    results, ``run`` once at the end."""

    def __init__(self) -> None:
        self._pending: list[tuple[Generator, Any, Callable[[], AbstractContextManager],
                                  Slot]] = []
        self._then: list[Callable[[], None]] = []

    def start(self, steps: Generator,
              context: Callable[[], AbstractContextManager]) -> Slot:
        """Run ``steps`` in ``context()`` up to its first request; its errors (an
        undefined measure) come out here, as from the direct call."""
        with context():
            request, result = first_request(steps)
        if request is None:
            return Slot(result)
        slot = Slot()
        self._pending.append((steps, request, context, slot))
        return slot

    def then(self, finish: Callable[[], None]) -> None:
        """Call ``finish()`` once every started computation is done, in this order."""
        self._then.append(finish)

    def run(self, on_resamples: Callable[[int, int], None] | None = None) -> None:
        # All the report's requests run here, together: no later call reads its draws.
        results = complete_together(
            [(steps, request, context) for steps, request, context, _ in self._pending],
            on_resamples, keep_draws=False)
        for (_, _, _, slot), result in zip(self._pending, results):
            slot.value = result
        self._pending = []
        for finish in self._then:
            finish()
        self._then = []
