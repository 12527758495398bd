"""Model evaluation against the trivial baseline."""

from ._baseline import compare_to_trivial

__all__ = ["compare_to_trivial"]
