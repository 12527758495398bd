"""Phrases the report's text, markdown and HTML forms share."""

from __future__ import annotations

from typing import Any

_METHOD_NAMES = {"bca": "BCa bootstrap", "percentile": "percentile bootstrap",
                 "basic": "basic bootstrap", "delong": "DeLong normal",
                 "normal": "delta-method normal"}


def _intervals_phrase(settings: dict[str, Any], level: str) -> str:
    """How the intervals were made, saying which method each measure used when they
    differ (``method="auto"`` gives the ranking measures DeLong's on large data)."""
    methods = settings.get("interval_methods") or {}
    used = sorted(set(methods.values())) or [settings["interval_method"]]
    bootstrap = (f"{settings['n_resamples']} resamples, seed {settings['random_state']}")
    if len(used) == 1:
        name = _METHOD_NAMES.get(used[0], used[0])
        detail = f" ({bootstrap})" if used[0] not in ("delong", "normal") else ""
        return f"{level} {name} intervals{detail}"
    parts = [
        f"{_METHOD_NAMES.get(method, method)} for "
        + ", ".join(m for m, used_method in methods.items() if used_method == method)
        for method in used
    ]
    return f"{level} intervals ({bootstrap}): " + "; ".join(parts)
