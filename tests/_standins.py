"""Stand-ins for other packages' ordinal models (mord, skordinal), always available.

They reproduce the shapes the real models have that matter to the scorers: no
``decision_function``; a ``predict`` that rounds a latent score to class labels
while the estimator is not tagged a classifier (mord's ``OrdinalRidge``, ``LAD``);
``classes_`` and ``predict_proba`` without scikit-learn's classifier tag (mord's
``LogisticAT``); a classifier with ``predict`` alone (skordinal's SVOR, REDSVM).
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.linear_model import LogisticRegression, Ridge


class RoundingRidge(RegressorMixin, BaseEstimator):
    """A ridge regression whose ``predict`` rounds to the nearest class label, like
    ``mord.OrdinalRidge``; ``latent_score`` gives the real-valued ridge score."""

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y):
        y = np.asarray(y, dtype=float)
        self.ridge_ = Ridge(alpha=self.alpha).fit(X, y)
        self.low_, self.high_ = y.min(), y.max()
        return self

    def latent_score(self, X):
        return self.ridge_.predict(X)

    def predict(self, X):
        return np.clip(np.round(self.latent_score(X)), self.low_, self.high_)


class UntaggedProbabilisticModel(BaseEstimator):
    """``classes_``, ``predict`` and ``predict_proba`` but no classifier tag (mord's
    threshold models)."""

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        self.model_ = LogisticRegression(C=self.C).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)

    def predict_proba(self, X):
        return self.model_.predict_proba(X)


class PredictOnlyClassifier(ClassifierMixin, BaseEstimator):
    """A classifier with ``predict`` alone (skordinal's SVOR and REDSVM)."""

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        self.model_ = LogisticRegression(C=self.C).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


def ordinal_task(n=300, n_classes=5, seed=0):
    """One informative feature and a noise feature; classes 0..n_classes-1."""
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=n)
    cuts = np.quantile(latent, np.linspace(0, 1, n_classes + 1)[1:-1])
    y = np.digitize(latent + rng.normal(0, 0.5, n), cuts)
    X = np.column_stack([latent, rng.normal(size=n)])
    return X, y
