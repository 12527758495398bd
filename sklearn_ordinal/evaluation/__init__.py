"""Evaluating systems' predictions: scores, intervals and comparisons in one report."""

from ._files import read_evaluation_files

__all__ = ["read_evaluation_files"]
