"""
============================================================
From a regressor's score to grades: cut points for a measure
============================================================

A regressor trained on ordinal grades predicts real numbers; to get grades back
they must be cut somewhere. Rounding cuts midway between the grades, whatever the
measure. Competition notebooks tune the cut points instead with the
"OptimizedRounder" pattern: :func:`scipy.optimize.minimize` with Nelder-Mead on the
cut points, started at 1.5, 2.5, ..., for quadratic weighted kappa.
:class:`~sklearn_ordinal.model_selection.TunedThresholdsClassifierCV` learns them
from out-of-fold scores for any measure: exactly for the macro MAE (a sum over items
given the gold grades), by coordinate ascent for kappa.

The data: scikit-learn's diabetes progression cut into five grades with 17, 31, 43,
151 and 200 patients (the class shares of TripAdvisor-15763 in Baccianella et al.
2009). Every prediction below is held out: five outer folds, and whatever is tuned
is tuned on the training folds alone. Each method is held against the trivial
classifier of the same measure (one grade for every patient).
"""

# %%
# The data and the held-out predictions
# -------------------------------------
import numpy as np
import pandas as pd
from scipy.optimize import minimize
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from sklearn.metrics import cohen_kappa_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict

from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from sklearn_ordinal.metrics import mean_absolute_error
from sklearn_ordinal.model_selection import TunedThresholdsClassifierCV

X, progression = load_diabetes(return_X_y=True)
shares = np.array([0.039, 0.072, 0.094, 0.345, 0.450])
y = np.digitize(progression, np.quantile(progression, np.cumsum(shares)[:-1])) + 1
grades = np.arange(1, 6)
print("patients per grade:", np.bincount(y)[1:])

measures = {
    "macro MAE": (
        "neg_macro_mean_absolute_error",
        lambda t, p: mean_absolute_error(t, p, average="macro", labels=grades),
        False,
    ),
    "quadratic kappa": (
        "quadratic_weighted_kappa",
        lambda t, p: cohen_kappa_score(t, p, weights="quadratic", labels=grades),
        True,
    ),
}


def optimized_rounder(scores, y_true, measure, greater_is_better):
    """The notebooks' pattern: Nelder-Mead on the cut points from 1.5, 2.5, ..."""
    sign = -1 if greater_is_better else 1

    def loss(cuts):
        return sign * measure(y_true, grades[np.searchsorted(np.sort(cuts), scores)])

    start = grades[:-1] + 0.5
    return np.sort(minimize(loss, start, method="Nelder-Mead").x)


outer = StratifiedKFold(5, shuffle=True, random_state=0)
inner = StratifiedKFold(5, shuffle=True, random_state=1)
predictions = {"rounded": np.empty_like(y)}
for title in measures:
    for method in ("Nelder-Mead", "tuned", "trivial"):
        predictions[method, title] = np.empty_like(y)
for train, test in outer.split(X, y):
    ridge = Ridge(alpha=0.1).fit(X[train], y[train])
    score = ridge.predict(X[test])
    predictions["rounded"][test] = np.clip(np.rint(score), 1, 5)
    # Out-of-fold scores of the training part, for the Nelder-Mead cut points.
    training_scores = cross_val_predict(Ridge(alpha=0.1), X[train], y[train], cv=inner)
    for title, (name, measure, greater) in measures.items():
        cuts = optimized_rounder(training_scores, y[train], measure, greater)
        predictions["Nelder-Mead", title][test] = grades[np.searchsorted(cuts, score)]
        tuned = TunedThresholdsClassifierCV(Ridge(alpha=0.1), scoring=name, cv=inner)
        predictions["tuned", title][test] = tuned.fit(X[train], y[train]).predict(X[test])
        trivial = TrivialOrdinalClassifier(name).fit(X[train], y[train])
        predictions["trivial", title][test] = trivial.predict(X[test])

# %%
# The table
# ---------
# Each measure judges the rounded regressor, the cut points tuned for that measure
# by Nelder-Mead and by :class:`~sklearn_ordinal.model_selection.TunedThresholdsClassifierCV`,
# and the trivial classifier of that measure (lower macro MAE, higher kappa is better).
rows = {}
for method in ("rounded", "Nelder-Mead", "tuned", "trivial"):
    rows[method] = {
        title: measure(y, predictions["rounded"] if method == "rounded"
                       else predictions[method, title])
        for title, (_, measure, _) in measures.items()
    }
table = pd.DataFrame(rows).T.round(3)
print(table)

# %%
# Where the cut points go
# -----------------------
# Refitted on all patients: the cut points of each measure on the out-of-fold
# scores of the regressor, against rounding. Least squares shrinks the scores
# towards the mean grade, so rounding seldom predicts the extreme grades; both sets
# of tuned cut points sit inside the narrow range of the scores, each where its own
# measure wants them: the macro MAE, which weighs the rare low grades as much as
# the frequent high ones, calls more patients low; kappa also stretches the top.
import matplotlib.pyplot as plt

scores = cross_val_predict(Ridge(alpha=0.1), X, y, cv=inner)
fig, ax = plt.subplots(figsize=(7, 4))
rng = np.random.default_rng(0)
ax.scatter(scores, y + rng.uniform(-0.2, 0.2, len(y)), s=6, alpha=0.5, color="grey")
ax.vlines(grades[:-1] + 0.5, 0.5, 5.5, color="black", linestyle=":", label="rounding")
for (title, (name, _, _)), color in zip(measures.items(), ("tab:blue", "tab:orange")):
    tuned = TunedThresholdsClassifierCV(Ridge(alpha=0.1), scoring=name, cv=inner).fit(X, y)
    cuts = tuned.cut_points_
    print(f"{title}: cut points {cuts.round(2)}, patients per predicted grade "
          f"{np.bincount(tuned.predict(X), minlength=6)[1:]}")
    ax.vlines(cuts, 0.5, 5.5, color=color, label=f"tuned for {title}")
ax.set_xlabel("out-of-fold regressor score")
ax.set_ylabel("true grade")
ax.legend(loc="lower right")
fig.tight_layout()
plt.show()
