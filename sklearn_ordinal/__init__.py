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

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:  # what __getattr__ imports on first use, for a type checker
    from .evaluation import evaluate

__all__ = [
    "__version__",
    "dummy",
    "evaluate",
    "evaluation",
    "metaeval",
    "metrics",
    "model_selection",
    "stats",
]

_SUBMODULES = {"dummy", "evaluation", "metaeval", "metrics", "model_selection", "stats"}


def __getattr__(name: str) -> Any:
    # ``import sklearn_ordinal`` imports nothing heavy; ``sklearn_ordinal.metrics`` (as
    # ``sklearn.metrics`` after ``import sklearn``) and ``sklearn_ordinal.evaluate``
    # import their modules when first used.
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name == "evaluate":
        return importlib.import_module(f"{__name__}.evaluation").evaluate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
