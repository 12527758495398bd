"""sklearn-ordinal: evaluation measures and baselines for ordinal classification.

Submodules
----------
metrics
    Imbalance-robust ordinal measures and the scorers built from them.
"""

__version__ = "0.1.0.dev0"
