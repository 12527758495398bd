"""
=====================================
CEM vs MAE on an imbalanced task
=====================================

The mean absolute error treats the grades as numbers: an error of one grade costs
the same wherever it happens, and the cost depends on the numbers given to the
grades. The Closeness Evaluation Measure CEM-ORD (Amigó et al. 2020) uses only the
order of the grades and how many true items each grade has: mistaking an item for
another grade costs much when the grades in between (and the predicted one) hold
many items, since many items then lie closer to the truth than the prediction, and
little when they are rare (the user guide's :ref:`closeness` shows 0.229 against
4.385 bits for the same mistake). This example
shows both differences on the five imbalanced grades of the previous examples.
"""

# %%
# Proximity between grades
# ------------------------
# :func:`~sklearn_ordinal.metrics.class_proximity` computes, from the true labels
# alone, how close a predicted grade (row) is to a true grade (column), in bits.
# The diagonal is the information of a correct prediction: high for the rare grade 1,
# low for the frequent grade 5.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_diabetes

from sklearn_ordinal.metrics import class_proximity

# sphinx_gallery_thumbnail_number = 2

X, progression = load_diabetes(return_X_y=True)
shares = np.array([0.039, 0.072, 0.094, 0.345, 0.450])
y = np.digitize(progression, np.quantile(progression, np.cumsum(shares)[:-1])) + 1
grades = np.arange(1, 6)

proximity = class_proximity(y)
fig, ax = plt.subplots(figsize=(4.5, 3.8), layout="constrained")
image = ax.imshow(proximity, cmap="viridis")
for (row, column), value in np.ndenumerate(proximity):
    ax.text(column, row, f"{value:.2f}", ha="center", va="center", color="white")
ax.set(
    xticks=range(5),
    xticklabels=grades,
    yticks=range(5),
    yticklabels=grades,
    xlabel="true grade",
    ylabel="predicted grade",
    title="Proximity (bits)",
)
fig.colorbar(image)
plt.show()

# %%
# An error of one grade, in a frequent or in a rare grade
# -------------------------------------------------------
# Start from perfect predictions and make ``k`` errors of one grade in two ways:
# predict grade 4 for ``k`` patients of the frequent grade 5 (200 patients), or for
# ``k`` patients of the rare grade 3 (43 patients). Every error is one grade, so the
# micro MAE cannot tell the two apart; CEM-ORD (like the macro MAE) finds the
# errors on the rare grade worse. This is the *imbalance* property of Amigó et al.
# (2020), which :func:`~sklearn_ordinal.metaeval.check_metric_properties` tests.
from sklearn_ordinal.metrics import cem_score, macro_mean_absolute_error, mean_absolute_error


def mistake(grade, k):
    """Perfect predictions, except grade 4 for the first ``k`` patients of ``grade``."""
    y_pred = y.copy()
    y_pred[np.flatnonzero(y == grade)[:k]] = 4
    return y_pred


n_errors = np.arange(0, 41, 4)
measures = {
    "micro MAE (lower is better)": lambda y_pred: mean_absolute_error(y, y_pred),
    "macro MAE (lower is better)": lambda y_pred: macro_mean_absolute_error(y, y_pred),
    "CEM-ORD (higher is better)": lambda y_pred: cem_score(y, y_pred),
}
curves = {
    title: {grade: [measure(mistake(grade, k)) for k in n_errors] for grade in (5, 3)}
    for title, measure in measures.items()
}

fig, axes = plt.subplots(1, 3, figsize=(9, 3), layout="constrained")
for ax, (title, by_grade) in zip(axes, curves.items()):
    ax.plot(n_errors, by_grade[5], "o-", label="errors on grade 5 (frequent)")
    ax.plot(n_errors, by_grade[3], "s--", label="errors on grade 3 (rare)")
    ax.set(xlabel="patients predicted as grade 4", title=title)
axes[2].legend(loc="lower left", fontsize="small")
plt.show()

# %%
# The grades' numbers matter to the MAE, not to CEM
# -------------------------------------------------
# Give the grades other increasing values, say 1, 2, 3, 4, 10 (grade 5 far above
# the others): the order is the same, the MAE changes, CEM-ORD does not. This is
# the *ordinal invariance* property. With integer grades the values are the grades
# themselves; ``class_values`` sets others.
values = [1, 2, 3, 4, 10]
for grade in (5, 3):
    y_pred = mistake(grade, 20)
    print(
        f"20 errors on grade {grade}: "
        f"micro MAE {mean_absolute_error(y, y_pred, average='micro'):.3f} -> "
        f"{mean_absolute_error(y, y_pred, average='micro', class_values=values):.3f}, "
        f"CEM-ORD {cem_score(y, y_pred):.3f} -> "
        f"{cem_score(y, y_pred, class_values=values):.3f}"
    )

# %%
# The MAE is the right measure when the grades are true quantities (a difference
# of one grade means the same everywhere). When they are only ordered categories,
# as severity grades or star ratings usually are, CEM-ORD measures closeness without
# inventing distances, and credits the rare grades that carry the most information.
