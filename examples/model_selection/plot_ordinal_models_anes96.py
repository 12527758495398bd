"""
=======================================================
Ordinal models tuned and held against the trivial class
=======================================================

Three ordinal models of `mord <https://github.com/fabianp/mord>`_ and one of
`skordinal <https://pypi.org/project/skordinal/>`_ beside scikit-learn's
multinomial logistic regression, on real data: the party
identification of 944 American voters on a 7-point scale. Each model is tuned by a
grid search twice, once under the micro-averaged mean absolute error and once under
the macro-averaged one, then scored on a held-out half of the voters next to the
trivial class of each measure, with the volume under the ROC surface (VUS) of the
model's real-valued score.

The data are the subset of the 1996 American National Election Study (ANES) that
statsmodels ships (``statsmodels.api.datasets.anes96``; public domain,
https://electionstudies.org/). This example needs ``statsmodels``, ``mord`` and
``skordinal`` (all in the ``docs`` extra of sklearn-ordinal).
"""

# %%
# Seven classes of party identification
# -------------------------------------
# ``PID`` runs from 0 (strong Democrat) to 6 (strong Republican). The classes are
# not very unequal, but the middle of the scale is thin: the pure independents are
# the smallest class. The features are the voter's age, education, household income,
# times a week watching TV news, the log of the population of their home town, and
# where they place themselves from liberal (1) to conservative (7).
import matplotlib.pyplot as plt
import numpy as np
import statsmodels.api as sm

# sphinx_gallery_thumbnail_number = 2

anes = sm.datasets.anes96.load_pandas().data
features = ["age", "educ", "income", "TVnews", "logpopul", "selfLR"]
X = anes[features].to_numpy()
y = anes["PID"].to_numpy().astype(int)
parties = [
    "strong Dem.", "weak Dem.", "indep. Dem.", "independent",
    "indep. Rep.", "weak Rep.", "strong Rep.",
]  # fmt: skip
classes = np.arange(len(parties))

fig, ax = plt.subplots(figsize=(7, 3), layout="constrained")
ax.bar(parties, np.bincount(y, minlength=len(parties)), color="tab:gray")
ax.bar_label(ax.containers[0])
ax.set(ylabel="voters", title="Party identification, ANES 1996")
ax.tick_params(axis="x", labelsize=8)
plt.show()

# %%
# A held-out half
# ---------------
# Half of the voters, stratified by class, are kept aside: the searches see only the
# other half, and every number of the last table is measured on voters no model (and
# no trivial classifier) was fitted or tuned on.
from sklearn.model_selection import train_test_split

train, test = train_test_split(
    np.arange(len(y)), test_size=0.5, stratify=y, random_state=0
)

# %%
# The models and their real-valued scores
# ---------------------------------------
# mord's ``LogisticAT`` (all thresholds) and ``LogisticIT`` (immediate thresholds)
# are threshold models: one latent score per voter, cut into classes at learnt
# thresholds. Their ``predict_proba`` reads the thresholds as a cumulative-logit
# model, and the expected class, which the ranking scorers compute from it, grows
# with the latent score, so it ranks the voters as the latent score does. mord's
# ``OrdinalRidge`` is a ridge regression whose ``predict`` rounds the latent score to
# a class and which has no method giving the score itself; ranking its labels would
# put each predicted class in one block of ties. The subclass below gives the latent score as
# ``decision_function``, the method a pipeline passes on. skordinal's ``POM``
# (proportional odds model, a cumulative-logit model fitted by maximum likelihood,
# which also takes class weights) and scikit-learn's ``LogisticRegression`` are
# ranked on the expected class of their ``predict_proba``.
#
# The scorer of each model's VUS names that method with ``response_method=``.
import mord
from sklearn.linear_model import LogisticRegression
from skordinal.classifiers import POM


class OrdinalRidgeWithScore(mord.OrdinalRidge):
    """mord's OrdinalRidge with its latent (unrounded) score as ``decision_function``."""

    def decision_function(self, X):
        return np.asarray(X) @ self.coef_ + self.intercept_


# name: (model, grid of its parameters, the method giving its real-valued score)
models = {
    "mord.LogisticAT": (mord.LogisticAT(), {"alpha": [0.01, 0.1, 1, 10, 100]}, "predict_proba"),
    "mord.LogisticIT": (mord.LogisticIT(), {"alpha": [0.01, 0.1, 1, 10, 100]}, "predict_proba"),
    "mord.OrdinalRidge": (
        OrdinalRidgeWithScore(),
        {"alpha": [0.1, 1, 10, 100, 1000]},
        "decision_function",
    ),
    "skordinal POM": (
        POM(),
        {"alpha": [0, 0.1, 1, 10, 100], "class_weight": [None, "balanced"]},
        "predict_proba",
    ),
    "LogisticRegression": (
        LogisticRegression(max_iter=1000),
        {"C": [0.001, 0.01, 0.1, 1], "class_weight": [None, "balanced"]},
        "predict_proba",
    ),
}

# %%
# Tuned under micro MAE and under macro MAE
# -----------------------------------------
# Each model is scaled and tuned by :class:`~sklearn.model_selection.GridSearchCV`
# under each measure, on the same folds. mord's models are not tagged as classifiers,
# so a plain ``cv=5`` would give them unshuffled, unstratified folds (scikit-learn's
# :class:`~sklearn.model_selection.KFold`); the same stratified, shuffled folds are
# given to every search instead.
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_ordinal.metrics import get_scorer

selections = {
    "micro MAE": "neg_mean_absolute_error",
    "macro MAE": "neg_macro_mean_absolute_error",
}
cv = StratifiedKFold(5, shuffle=True, random_state=0)
searches = {}
for name, (model, grid, _) in models.items():
    pipeline = Pipeline([("scale", StandardScaler()), ("model", model)])
    for selected_by, scorer_name in selections.items():
        search = GridSearchCV(
            pipeline,
            {f"model__{parameter}": values for parameter, values in grid.items()},
            scoring=get_scorer(scorer_name),
            cv=cv,
        )
        searches[name, selected_by] = search.fit(X[train], y[train])
        chosen = {key.removeprefix("model__"): value
                  for key, value in search.best_params_.items()}  # fmt: skip
        print(f"{name:<19} selected by the {selected_by}: {chosen}")

# %%
# Held against the trivial class on the held-out half
# ---------------------------------------------------
# :func:`~sklearn_ordinal.model_selection.compare_to_trivial` fits the tuned model
# and, for each measure, the trivial classifier of that measure (the one class
# that, predicted for every voter, scores best on the training half) on the training
# half, and scores both on the held-out half: the one split is given as ``cv``. Its
# ``skill`` column says how far the model gets from the trivial class towards a
# perfect prediction: 0 is no better than the trivial class, 1 perfect. For the two
# errors it is the share of the trivial class's error that the model removes.
#
# The VUS is the probability that one voter drawn from each of the 7 classes is
# ranked in the order of the classes; a random score gets :math:`1/7!`, so the
# values are small. The column ``VUS of labels`` ranks the hard predictions instead
# of the real-valued score (the scorer warns that it does; the warning is silenced
# here because that is the point of the column, discussed at the end).
import math
import warnings

import pandas as pd

from sklearn_ordinal.model_selection import compare_to_trivial

measures = {"micro MAE": "neg_mean_absolute_error", "macro MAE": "neg_macro_mean_absolute_error"}
labels_vus = get_scorer("vus", response_method="predict")
# Scores are on the greater-is-better scale: errors come back negated.
sign = pd.Series({"micro MAE": -1, "macro MAE": -1, "VUS": 1})
rows = {}
for (name, selected_by), search in searches.items():
    scoring = {**measures, "VUS": get_scorer("vus", response_method=models[name][2])}
    table = compare_to_trivial(search.best_estimator_, X, y, scoring=scoring, cv=[(train, test)])
    row = (sign * table["estimator_mean"]).to_dict()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*ranks hard class labels")
        row["VUS of labels"] = labels_vus(search.best_estimator_, X[test], y[test])
    row.update({f"skill {measure}": skill for measure, skill in table["skill"].items()})
    rows[name, selected_by] = row
# The trivial classes depend only on the training labels: the same in every table.
trivial = {
    measure: (-table.loc[measure, "trivial_mean"], table.loc[measure, "trivial_class"][0])
    for measure in measures
}

results = pd.DataFrame.from_dict(rows, orient="index").rename_axis(["model", "selected by"])
print(results.round(4).to_string())
for measure in measures:
    value, chosen = trivial[measure]
    print(f"trivial class of the {measure}: {chosen} ({parties[chosen]}), {measure} {value:.4f}")
print(f"VUS of the trivial class {table.loc['VUS', 'trivial_mean']:.6f}, "
      f"of a random score 1/7! = {1 / math.factorial(7):.6f}")  # fmt: skip

# %%
# What the two errors see
# -----------------------
# Which model is best, and by how much it beats the trivial class, depends on the
# measure. Each model tuned under a measure and scored under that same measure, and
# its rank among the models (1 the best):
tuned = pd.DataFrame(
    {measure: results.xs(measure, level="selected by")[measure] for measure in measures}
)
print(pd.concat({"error": tuned, "rank": tuned.rank().astype(int)}, axis=1).round(4).to_string())
micro_skill, macro_skill = results["skill micro MAE"], results["skill macro MAE"]
print(f"tuned models better than the trivial class under both errors: "
      f"{((micro_skill > 0) & (macro_skill > 0)).sum()} of {len(results)}")  # fmt: skip
print(f"skill lower under the macro MAE than under the micro MAE: "
      f"{(macro_skill < micro_skill).sum()} of {len(results)}")  # fmt: skip

# %%
# The classes are not unequal enough here for the micro MAE to prefer the trivial
# class to a tuned model, as it does on more imbalanced data (see
# :ref:`sphx_glr_auto_examples_baselines_plot_trivial_baseline.py`). It still
# flatters every model: each removes a smaller share of the trivial class's error
# under the macro MAE, and the two errors disagree about which model is best.

# %%
# The classes each model selected by the macro MAE predicts for the held-out voters:
for name in models:
    predicted = np.unique(searches[name, "macro MAE"].best_estimator_.predict(X[test]))
    print(f"{name:<19} predicts the classes {predicted.astype(int).tolist()}")

# %%
# The error on the held-out voters of each true class shows why. The micro MAE is
# the mean of these points weighted by the class sizes, so it rewards a model that is
# right about the large partisan classes at both ends of the scale; the macro MAE is
# their plain mean, so the thin middle of the scale counts as much as the ends. A
# model that never predicts an independent (mord's LogisticIT) keeps a fair part of its
# skill under the micro MAE and loses most of it under the macro MAE. The black
# lines are the two trivial classes, each a class of the middle of the scale
# predicted for everyone.
fig, ax = plt.subplots(figsize=(9, 3.5), layout="constrained")
for name in models:
    y_pred = searches[name, "macro MAE"].best_estimator_.predict(X[test])
    per_class = [np.abs(y_pred - y[test])[y[test] == k].mean() for k in classes]
    ax.plot(parties, per_class, marker="o", label=name)
for measure, (_, chosen) in trivial.items():
    per_class = np.abs(chosen - classes)  # a constant prediction misses class k by |c - k|
    ax.plot(parties, per_class, "k--" if measure == "micro MAE" else "k:",
            label=f"trivial class of the {measure}")  # fmt: skip
ax.set(ylabel="mean absolute error", title="Held-out error on each true class "
       "(models selected by the macro MAE)")  # fmt: skip
ax.tick_params(axis="x", labelsize=8)
ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
plt.show()

# %%
# The VUS of a score and the VUS of labels
# ----------------------------------------
# A ranking measure counts tied voters as ordered at random (see
# :ref:`ranking_ties`). For mord's three threshold models, whose predicted class
# grows with their score, the VUS of the hard labels is therefore what the score
# would get, on average, with its order inside each predicted class shuffled: the
# difference is what that order adds, and it is not the same for every model. It
# can even be negative on a small sample, when the order inside the predicted
# classes is worse than chance. A table that ranks some models on their scores
# and others on their labels compares unlike things; name the method that gives
# each model's score (see :ref:`ranking`).
higher = results["VUS"] > results["VUS of labels"]
print(f"VUS of the score above the VUS of the labels for {higher.sum()} of {len(higher)}")
