"""Judge several systems on one gold standard: scores with intervals, the trivial
baseline, per-class and per-test-case results, and paired comparisons."""

from ._evaluate import evaluate
from ._files import read_evaluation_files
from ._report import EvaluationReport

__all__ = ["evaluate", "EvaluationReport", "read_evaluation_files"]
