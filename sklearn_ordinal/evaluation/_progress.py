"""A progress bar on standard error, for reports that take more than a few seconds.

Drawn only where someone watches it: standard error is a terminal and no
continuous-integration service is running (the ``CI`` environment variable that
they set), so that logs and redirected output never hold it. It appears once the
work has taken ``_SHOW_AFTER`` seconds.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

# Seconds of work before the bar appears: a quick report stays quiet.
_SHOW_AFTER = 2.0
_WIDTH = 24


def watched(stream: TextIO) -> bool:
    """Whether a progress bar on ``stream`` would be seen: a terminal, not under CI."""
    if os.environ.get("CI"):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty is not None and isatty())
    except ValueError:  # a closed stream
        return False


class Progress:
    """``step(label)`` after each of ``total`` parts (or ``update``); ``close()`` at
    the end."""

    def __init__(self, total: int, what: str, enabled: bool,
                 stream: TextIO | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled and watched(self.stream)
        self.total, self.what, self.done = max(total, 1), what, 0
        self.start = time.perf_counter()
        self.drawn = False

    def step(self, label: str) -> None:
        self.update(self.done + 1, self.total, label)

    def update(self, done: int, total: int, label: str) -> None:
        """``done`` of ``total`` parts (the total may change: a new round of work)."""
        self.done, self.total = done, max(total, 1)
        elapsed = time.perf_counter() - self.start
        if not self.enabled or elapsed < _SHOW_AFTER:
            return
        filled = round(_WIDTH * self.done / self.total)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (_WIDTH - filled)}] {self.done}/{self.total} "
            f"{self.what} ({elapsed:.0f} s): {label[:40]:<40s}")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
