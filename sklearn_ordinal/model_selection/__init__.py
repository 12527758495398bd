"""Model evaluation against the trivial baseline, and cut points tuned for a measure."""

from ._baseline import compare_to_trivial
from ._thresholds import TunedThresholdsClassifierCV

__all__ = ["compare_to_trivial", "TunedThresholdsClassifierCV"]
