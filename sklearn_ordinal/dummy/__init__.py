"""Baseline estimators for ordinal classification."""

from ._trivial import TrivialOrdinalClassifier

__all__ = ["TrivialOrdinalClassifier"]
