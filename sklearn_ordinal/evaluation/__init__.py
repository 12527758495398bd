"""Judge several systems on one gold standard: scores with intervals, the trivial
baseline, per-class and per-test-case results, and paired comparisons."""

from ._evaluate import evaluate
from ._report import EvaluationReport

__all__ = ["evaluate", "EvaluationReport"]
