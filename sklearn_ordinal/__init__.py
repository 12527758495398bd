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
evaluation
    evaluate: several systems on one gold standard, with intervals and comparisons.

``python -m sklearn_ordinal`` runs a short demo.
"""

from ._version import __version__

__all__ = ["__version__", "evaluate"]


def __getattr__(name):
    # ``sklearn_ordinal.evaluate`` without making ``import sklearn_ordinal`` import the
    # measures, scikit-learn and pandas before they are needed.
    if name == "evaluate":
        from .evaluation import evaluate

        return evaluate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
