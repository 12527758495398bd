"""Judge several systems on one gold standard: scores with intervals, the trivial
baseline, per-class and per-test-case results, and paired comparisons; and hold a
judge (a model that rates) against a panel of human annotators."""

from ._evaluate import evaluate
from ._files import read_evaluation_files
from ._judge import JudgeReport, evaluate_judge
from ._report import EvaluationReport

__all__ = [
    "evaluate",
    "EvaluationReport",
    "read_evaluation_files",
    "evaluate_judge",
    "JudgeReport",
]
