"""sklearn-ordinal: evaluation measures and baselines for ordinal classification.

Submodules
----------
metrics
    Imbalance-robust ordinal measures and the scorers built from them.
dummy
    TrivialOrdinalClassifier, the trivial-class baseline of a measure.
model_selection
    compare_to_trivial: cross-validate a model against that baseline.
metaeval
    Judging the measures themselves: formal properties, UIR and coverage.

``python -m sklearn_ordinal`` runs a short demo.
"""

__version__ = "0.1.0.dev0"
