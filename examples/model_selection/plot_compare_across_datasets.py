"""
===========================================
Comparing models across several data sets
===========================================

One data set says which model won there; a method paper needs to know which model
wins *in general*. Demšar (2006) set the practice: score every model on many data
sets, rank the models within each data set, test whether the average ranks differ
(Friedman's test) and which pairs differ (post-hoc tests), and draw the result as a
critical-difference diagram. This example does it for five scikit-learn classifiers
and the trivial baseline on ten ordinal tasks, under the macro-averaged mean
absolute error, with :func:`~sklearn_ordinal.stats.compare_across_datasets` and
:class:`~sklearn_ordinal.stats.CriticalDifferenceDisplay`.
"""

# %%
# Ten ordinal tasks
# -----------------
# Nine synthetic regression problems, each cut into five ordered grades with its
# own class sizes (from balanced to as skewed as TripAdvisor-15763's reviews), and
# scikit-learn's diabetes data cut the same way.
import numpy as np
from sklearn.datasets import load_diabetes, make_regression


def grades(target, shares):
    """Cut a continuous target into len(shares) ordered grades of these sizes."""
    return np.digitize(target, np.quantile(target, np.cumsum(shares)[:-1])) + 1


rng = np.random.default_rng(0)
skewed = np.array([0.039, 0.072, 0.094, 0.345, 0.450])
tasks = {}
for seed in range(9):
    X, target = make_regression(n_samples=300, n_features=8, n_informative=5,
                                noise=20 + 10 * seed, random_state=seed)
    mix = seed / 8  # from balanced grades to TripAdvisor-15763's
    tasks[f"synthetic {seed}"] = X, grades(target, (1 - mix) * np.full(5, 0.2) + mix * skewed)
X, progression = load_diabetes(return_X_y=True)
tasks["diabetes"] = X, grades(progression, skewed)

# %%
# Six models, cross-validated on every task
# -----------------------------------------
# The same folds for every model of a task. The macro MAE averages the error of
# each true grade, so a model that ignores the rare grades cannot hide behind the
# frequent ones; its scorer is ``neg_`` because scikit-learn maximises.
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from sklearn_ordinal.metrics import get_scorer

measure = "neg_macro_mean_absolute_error"
models = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    "logistic (balanced)": make_pipeline(
        StandardScaler(), LogisticRegression(max_iter=1000, class_weight="balanced")),
    "random forest": RandomForestClassifier(n_estimators=25, min_samples_leaf=3,
                                            random_state=0),
    "tree": DecisionTreeClassifier(max_depth=4, random_state=0),
    "5 neighbours": make_pipeline(StandardScaler(), KNeighborsClassifier()),
    "trivial": TrivialOrdinalClassifier(measure),
}
# The problems are tiny: extra BLAS threads would only add start-up costs.
with threadpool_limits(limits=1):
    results = {
        task: {
            name: cross_validate(model, X, y, scoring={measure: get_scorer(measure)},
                                 cv=StratifiedKFold(5, shuffle=True, random_state=0))
            for name, model in models.items()
        }
        for task, (X, y) in tasks.items()
    }

# %%
# Ranks and tests
# ---------------
# ``{task: {model: cross_validate result}}`` is one of the inputs the comparison
# reads: it averages ``test_neg_macro_mean_absolute_error`` over the folds. The
# direction comes from the measure's name (a scorer's values: higher is better),
# so nobody has to remember that a lower MAE ranks first.
from sklearn_ordinal.stats import compare_across_datasets

comparison = compare_across_datasets(results, measure)
print(repr(comparison))

# %%
# The omnibus tests come first: Friedman's chi-square and Iman and Davenport's F
# ask whether the six average ranks could differ by chance alone.
print(f"Friedman chi2 = {comparison.friedman_statistic:.2f}, "
      f"p = {comparison.friedman_pvalue:.2g}; Iman-Davenport F = "
      f"{comparison.iman_davenport_statistic:.2f}, p = {comparison.iman_davenport_pvalue:.2g}")
comparison.summary().round(2)

# %%
# Then every pair: the Wilcoxon signed-rank test of the paired macro MAEs,
# Holm-adjusted over the 15 pairs (the decision in ``significant``), with Nemenyi's
# mean-rank p-value beside it.
comparison.pairwise[["wilcoxon_pvalue_holm", "nemenyi_pvalue", "better",
                     "significant"]].round(3)

# %%
# The critical-difference diagram
# -------------------------------
# Each model hangs from its average rank, 1 = best on the left; a thick bar joins
# models that no test at ``alpha = 0.05`` tells apart (here by Wilcoxon-Holm).
import matplotlib.pyplot as plt

from sklearn_ordinal.stats import CriticalDifferenceDisplay

CriticalDifferenceDisplay.from_comparison(comparison)
plt.show()

# %%
# Demšar's original diagram uses Nemenyi's test instead, and draws its critical
# difference above the axis: models further apart than it differ. It needs larger
# gaps than Wilcoxon-Holm on ten data sets, and whether two models differ under it
# depends on which other models are in the comparison (Benavoli et al. 2016).
CriticalDifferenceDisplay.from_scores(results, measure, posthoc="nemenyi")
plt.show()
