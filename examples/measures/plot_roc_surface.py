"""
=======================================
The ROC surface of a three-class model
=======================================

A model that gives every item one real score (higher meaning a higher grade) ranks
the items. With two classes the ROC curve shows every trade-off of one threshold;
with three ordered classes two thresholds cut the scores into three grades, and
the true positive rates of the three grades form a surface (Waegeman, De Baets and
Boullart 2008). The volume under it, VUS, is the probability that the model orders
correctly three items drawn one from each grade: 1 for a perfect ranking, 1/6 for
a random one.
"""

# %%
# Three grades of disease progression
# -----------------------------------
# scikit-learn's diabetes data, the progression cut into three grades 1 < 2 < 3
# holding 20, 30 and 50 % of the patients. Half the patients train the models,
# the other half draw the surfaces.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_diabetes
from sklearn.model_selection import train_test_split

X, progression = load_diabetes(return_X_y=True)
y = np.digitize(progression, np.quantile(progression, [0.2, 0.5])) + 1
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.5, stratify=y, random_state=0
)

# %%
# Two models: all ten features, or the body mass index alone
# ----------------------------------------------------------
# :meth:`~sklearn_ordinal.metrics.RocSurfaceDisplay.from_estimator` scores the test
# patients as the ranking scorers do: a classifier's ``predict_proba`` becomes the
# expected grade. The title gives the exact VUS.
from sklearn.compose import make_column_transformer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_ordinal.metrics import RocSurfaceDisplay

all_features = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
bmi_only = make_pipeline(
    make_column_transformer((StandardScaler(), [2])), LogisticRegression()
).fit(X_train, y_train)

fig = plt.figure(figsize=(10, 4.6), layout="constrained")
for position, (name, model) in enumerate(
    [("all ten features", all_features), ("body mass index only", bmi_only)], start=1
):
    ax = fig.add_subplot(1, 2, position, projection="3d")
    RocSurfaceDisplay.from_estimator(model, X_test, y_test, name=name, ax=ax)
    # Seen from the corner where both first rates are 0, where the surface is highest;
    # a little smaller, so that the axis labels fit.
    ax.view_init(elev=25, azim=45)
    ax.set_box_aspect(None, zoom=0.85)
plt.show()

# %%
# Each point is one pair of thresholds: the share of grade-1 patients below the
# first, of grade-3 patients above the second, and of grade-2 patients between
# them. The surface of the better model reaches higher over the whole square of the
# first two rates. The pairwise measures of the same paper summarise the ranking by pairs
# of grades instead of triples; all of them give 1/2 for a random ranking.
from sklearn_ordinal.metrics import get_scorer

for name, model in [("all ten features", all_features), ("body mass index only", bmi_only)]:
    scores = {
        measure: get_scorer(measure)(model, X_test, y_test)
        for measure in ["vus", "u_pairs", "u_ovo", "u_cons"]
    }
    print(f"{name:>22}: " + ", ".join(f"{key} {value:.3f}" for key, value in scores.items()))

# %%
# The surface of scores computed elsewhere, e.g. a regressor's predictions, comes
# from :meth:`~sklearn_ordinal.metrics.RocSurfaceDisplay.from_predictions`, and
# its points from :func:`~sklearn_ordinal.metrics.roc_surface`.
