"""
==============================================
Choosing a model with macro MAE or micro MAE
==============================================

A grid search keeps the parameters that score best under its ``scoring``; on
imbalanced ordinal data the micro- and the macro-averaged mean absolute error
disagree about which parameters are best. The micro MAE averages the error over
patients, so the frequent grades dominate it; the macro MAE averages the error of
each true grade (Baccianella et al. 2009), so a rare grade counts as much as a
frequent one. Same data as the previous example: five grades with 17, 31, 43, 151
and 200 patients.
"""

# %%
# The data
# --------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_diabetes

# sphinx_gallery_thumbnail_number = 2

X, progression = load_diabetes(return_X_y=True)
shares = np.array([0.039, 0.072, 0.094, 0.345, 0.450])
y = np.digitize(progression, np.quantile(progression, np.cumsum(shares)[:-1])) + 1
grades = np.arange(1, 6)

# %%
# One grid search per measure
# ---------------------------
# The same grid (regularisation ``C``, and class weights that are uniform or
# balanced) and the same folds; only the measure changes. The scorers come from
# :func:`~sklearn_ordinal.metrics.get_scorer`: their names start with ``neg_``
# because scikit-learn maximises, so an error is negated.
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_ordinal.metrics import get_scorer

model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
grid = {
    "logisticregression__C": [0.01, 0.1, 1, 10],
    "logisticregression__class_weight": [None, "balanced"],
}
cv = StratifiedKFold(5, shuffle=True, random_state=0)
measures = {
    "micro MAE": "neg_mean_absolute_error",
    "macro MAE": "neg_macro_mean_absolute_error",
}
searches = {
    title: GridSearchCV(model, grid, scoring=get_scorer(name), cv=cv).fit(X, y)
    for title, name in measures.items()
}
for title, search in searches.items():
    print(f"{title} selects {search.best_params_} (CV error {-search.best_score_:.3f})")

# %%
# The cross-validated error of every candidate under each measure: the micro MAE
# prefers uniform class weights, the macro MAE balanced ones.
fig, axes = plt.subplots(1, 2, figsize=(8, 3.2), layout="constrained")
for ax, (title, search) in zip(axes, searches.items()):
    results = search.cv_results_
    for weight, marker in [(None, "o"), ("balanced", "s")]:
        rows = [w == weight for w in results["param_logisticregression__class_weight"]]
        ax.plot(
            np.asarray(results["param_logisticregression__C"])[rows].astype(float),
            -results["mean_test_score"][rows],
            marker=marker,
            label=f"class_weight={weight}",
        )
    best = search.best_params_
    ax.plot(
        best["logisticregression__C"], -search.best_score_, "k*", markersize=14, label="selected"
    )
    ax.set(xscale="log", xlabel="C", ylabel=f"CV {title}", title=f"Selected by the {title}")
axes[1].legend()
plt.show()

# %%
# What the two selected models do to each grade
# ---------------------------------------------
# Out-of-fold predictions of both selected models, and their mean absolute error
# on the patients of each true grade. The macro MAE is the mean of these five bars,
# the micro MAE their mean weighted by the class sizes.
from sklearn.model_selection import cross_val_predict

fig, ax = plt.subplots(figsize=(6, 3.2), layout="constrained")
for offset, (title, search) in zip([-0.2, 0.2], searches.items()):
    chosen = model.set_params(**search.best_params_)
    y_pred = cross_val_predict(chosen, X, y, cv=cv)
    per_grade = [np.abs(y_pred - y)[y == grade].mean() for grade in grades]
    ax.bar(grades + offset, per_grade, width=0.4, label=f"selected by the {title}")
ax.set(xlabel="true grade", ylabel="mean absolute error", title="Error on each true grade")
ax.legend()
plt.show()

# %%
# The model chosen by the micro MAE is accurate on grades 4 and 5 (80 % of the
# patients) and misses the rare low grades by two or three grades; the model chosen
# by the macro MAE spreads its errors over all grades. Which one is better is a
# question about the application, not about the data: if the rare grades matter,
# select (and report) with the macro MAE, and hold the result against the trivial
# classifier of that measure (previous example).
