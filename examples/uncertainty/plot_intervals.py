"""
====================================================
How sure is a macro MAE of 0.84 against one of 0.86?
====================================================

A score on a test set is an estimate: another test set of the same size would give
another number, and on imbalanced ordinal data the rare classes make it move a lot,
because a macro average gives each of them as much say as the frequent ones.
:func:`~sklearn_ordinal.stats.score_interval` gives the bootstrap confidence
interval of any measure of this package, and
:func:`~sklearn_ordinal.stats.compare_scores` the interval and p-value of the
difference between two models scored on the same items. Both resample the small
intermediate of the measure (the confusion matrix, or the score table of a ranking
measure), so thousands of resamples cost work in the number of classes, not of items:
at ten million items a few to a few tens of measure calls, at a hundred thousand
tens to hundreds (the documentation's benchmarks page has the measured ratios).
"""

# %%
# Two models on five imbalanced grades
# ------------------------------------
# The data of ``python -m sklearn_ordinal``: scikit-learn's diabetes data, the
# disease progression cut into five grades with the class sizes of TripAdvisor
# reviews (3.9 % of the patients in grade 1, 45 % in grade 5). Two logistic
# regressions, one of them class-balanced, predict every patient out of fold.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_diabetes
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_ordinal.stats import compare_scores, score_interval

X, progression = load_diabetes(return_X_y=True)
shares = np.array([0.039, 0.072, 0.094, 0.345, 0.450])
y = np.digitize(progression, np.quantile(progression, np.cumsum(shares)[:-1])) + 1

cv = StratifiedKFold(5, shuffle=True, random_state=0)
models = {
    "plain": make_pipeline(StandardScaler(), LogisticRegression()),
    "balanced": make_pipeline(StandardScaler(), LogisticRegression(class_weight="balanced")),
}
predictions = {name: cross_val_predict(model, X, y, cv=cv) for name, model in models.items()}

# %%
# An interval for every number
# ----------------------------
# Each measure by its scorer name; the error measures are reported as errors (lower
# is better), the others as scores. BCa intervals from 1 999 resamples each (the
# default is 9 999; fewer keep this page quick to build).
measures = ["neg_mean_absolute_error", "neg_macro_mean_absolute_error", "cem_ord",
            "quadratic_weighted_kappa"]
intervals = {
    (name, measure): score_interval(measure, y, predictions[name], n_resamples=1999, random_state=0)
    for name in models
    for measure in measures
}
for (name, measure), result in intervals.items():
    low, high = result.confidence_interval
    print(f"{name:>8}  {measure:<32} {result.estimate:.3f}  [{low:.3f}, {high:.3f}]")

# %%
# The few patients of the rare grades weigh as much as the many of the frequent
# ones in the macro MAE, so its intervals are wider than those of the micro MAE:
titles = {"neg_mean_absolute_error": "MAE (micro), lower is better",
          "neg_macro_mean_absolute_error": "MAE (macro), lower is better",
          "cem_ord": "CEM-ORD", "quadratic_weighted_kappa": "quadratic weighted kappa"}
fig, axes = plt.subplots(1, len(measures), figsize=(11, 2.8), layout="constrained",
                         sharey=True)
for ax, measure in zip(axes, measures):
    for row, name in enumerate(models):
        result = intervals[name, measure]
        low, high = result.confidence_interval
        ax.errorbar(result.estimate, row, xerr=[[result.estimate - low], [high - result.estimate]],
                    fmt="o", capsize=4)
    ax.set(yticks=range(len(models)), yticklabels=list(models), ylim=(-0.7, 1.7))
    ax.set_title(titles[measure], fontsize="medium")
fig.suptitle("95 % BCa intervals, out-of-fold predictions of 442 patients")
plt.show()

# %%
# Is the balanced model really better?
# ------------------------------------
# The two models are scored on the same patients, so their scores are correlated:
# the question is answered by the paired difference, whose interval comes from a
# paired bootstrap and whose p-value from a paired randomization test.
for measure in measures:
    comparison = compare_scores(measure, y, predictions["balanced"], predictions["plain"],
                                n_resamples=1999, random_state=0)
    low, high = comparison.confidence_interval
    print(f"{measure:<32} balanced - plain = {comparison.estimate:+.3f} "
          f"[{low:+.3f}, {high:+.3f}], p = {comparison.pvalue:.4f}")

# %%
# Under the macro MAE the balanced model is better (its error is lower and the
# interval of the difference excludes 0); under the micro MAE it is worse, just as
# surely. Under CEM-ORD and quadratic weighted kappa it scores higher, but the
# intervals of the differences include 0: on 442 patients these two measures cannot
# tell the models apart. Which model is "better" is a question of the measure, and
# each answer comes with how sure it is.
