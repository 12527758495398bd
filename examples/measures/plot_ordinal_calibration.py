"""
===============================================================
Are the class probabilities right? Ordinal reliability diagrams
===============================================================

Two models can have almost the same ranked probability score for different
reasons: one because its probabilities mean what they say (calibration), the
other because it tells the items apart better (discrimination). The CORP
decomposition (Dimitriadis, Gneiting and Jordan 2021) splits the score of each
cumulative forecast :math:`P(y \\le c_k)` into miscalibration (MCB),
discrimination (DSC) and uncertainty (UNC), and its reliability diagram shows
where a forecast is off. This example compares an ordinal logistic model, whose
probabilities come from the model of the data, with a regressor's score turned
into probabilities by hand, which are too sure of themselves, and then
recalibrates the latter.
"""

# %%
# Five grades from a latent variable
# ----------------------------------
# A latent score, linear in four features plus logistic noise, is cut into five
# grades. One part of the data trains the models, one recalibrates, one tests.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import train_test_split

rng = np.random.RandomState(0)
n = 6000
X = rng.normal(size=(n, 4))
latent = X @ [1.5, -1.0, 0.8, 0.5] + rng.logistic(size=n)
y = np.digitize(latent, [-3.0, -1.0, 1.0, 3.0])  # grades 0 < 1 < 2 < 3 < 4
X_train, X_rest, y_train, y_rest = train_test_split(X, y, test_size=0.5, random_state=0)
X_recal, X_test, y_recal, y_test = train_test_split(X_rest, y_rest, test_size=0.5,
                                                    random_state=0)

# %%
# An ordinal model, and a score turned into probabilities
# -------------------------------------------------------
# mord's ``LogisticAT`` (all-threshold logistic regression) is the model the data
# came from. The other system fits a ridge regression to the grade numbers and
# spreads a narrow bell around its prediction: probabilities proportional to
# :math:`\exp(-(k - \hat y)^2 / (2 \cdot 0.3^2))`, a common way of dressing a
# regressor as a probabilistic classifier, here far too sure of itself.
from mord import LogisticAT
from sklearn.linear_model import Ridge

ordinal = LogisticAT(alpha=1e-3).fit(X_train, y_train)
ridge = Ridge().fit(X_train, y_train)


def bell(X):
    grades = np.arange(5)
    logits = -((grades - ridge.predict(X)[:, np.newaxis]) ** 2) / (2 * 0.3**2)
    proba = np.exp(logits - logits.max(axis=1, keepdims=True))
    return proba / proba.sum(axis=1, keepdims=True)


proba_ordinal = ordinal.predict_proba(X_test)
proba_bell = bell(X_test)

# %%
# The score, split
# ----------------
# :func:`~sklearn_ordinal.metrics.ranked_probability_score_decomposition` gives
# the three parts, summed over the four thresholds and threshold by threshold:
# RPS = MCB - DSC + UNC exactly. UNC is the gold standard's alone, the same for
# both systems. The bell's score is worse mostly through its miscalibration.
from sklearn_ordinal.metrics import ranked_probability_score_decomposition

for name, proba in [("LogisticAT", proba_ordinal), ("ridge + bell", proba_bell)]:
    parts = ranked_probability_score_decomposition(y_test, proba)
    print(f"{name:>12}: RPS {parts.score:.3f} = MCB {parts.miscalibration:.3f} "
          f"- DSC {parts.discrimination:.3f} + UNC {parts.uncertainty:.3f}")
print(ranked_probability_score_decomposition(y_test, proba_bell).per_threshold.round(3))

# %%
# Reliability diagrams
# --------------------
# :class:`~sklearn_ordinal.metrics.OrdinalCalibrationDisplay` draws one panel per
# threshold: the recalibrated forecast (the isotonic regression of the outcome
# :math:`1[y \le c_k]` on the forecast, no bins to choose) against the forecast,
# and the 90 % consistency band, where a calibrated forecast's diagram would lie
# by chance. LogisticAT stays in its bands; the bell's diagrams are flatter than
# the diagonal, the mark of overconfidence: when it says 10 %, the event happens
# more often, and when it says 90 %, less often.
from sklearn_ordinal.metrics import OrdinalCalibrationDisplay

fig, axes = plt.subplots(2, 4, figsize=(13, 6.8), layout="constrained")
OrdinalCalibrationDisplay.from_estimator(ordinal, X_test, y_test, ax=axes[0],
                                         n_resamples=500, random_state=0)
OrdinalCalibrationDisplay.from_predictions(y_test, proba_bell, ax=axes[1],
                                           name="ridge + bell", n_resamples=500,
                                           random_state=0)
for ax in axes.ravel():
    ax.legend(loc="upper left", fontsize="x-small")

# %%
# How sure are these numbers?
# ---------------------------
# :func:`~sklearn_ordinal.stats.decomposition_interval` resamples the test items
# and redoes the isotonic fits on each resample (the basic bootstrap interval);
# :func:`~sklearn_ordinal.stats.compare_scores` gives the paired interval of the
# difference of the two RPS, which is the difference of their MCB - DSC. These
# intervals cover the sampling of the test items for these two fitted models, not
# the training. LogisticAT's MCB is small but not 0 although its model is the true
# one: the isotonic fit follows the noise of 1500 items, so MCB is estimated too
# high, and the basic interval, which corrects part of that bias, lies mostly
# below the estimate. Whether a forecast is calibrated is asked by the consistency
# bands above, not by this interval.
from sklearn_ordinal.stats import compare_scores, decomposition_interval

for name, proba in [("LogisticAT", proba_ordinal), ("ridge + bell", proba_bell)]:
    result = decomposition_interval(y_test, proba, component="miscalibration",
                                    n_resamples=999, random_state=0)
    low, high = result.confidence_interval
    print(f"{name:>12}: MCB {result.estimate:.4f}, 95 % interval [{low:.4f}, {high:.4f}]")
difference = compare_scores("ranked_probability_score_loss", y_test, proba_bell,
                            proba_ordinal, random_state=0)
print(f"RPS(bell) - RPS(LogisticAT) = {difference.estimate:.4f}, interval "
      f"[{difference.confidence_interval.low:.4f}, {difference.confidence_interval.high:.4f}]")

# %%
# Recalibrating, threshold by threshold
# -------------------------------------
# The package does not ship a recalibrating estimator; the recipe is short. On
# data the model did not train on, fit scikit-learn's
# :class:`~sklearn.isotonic.IsotonicRegression` of :math:`1[y \le c_k]` on the
# cumulative forecast :math:`F_k`, for each threshold. Fitted separately, the
# recalibrated :math:`\hat F_k` may cross (:math:`\hat F_1 > \hat F_2` for some
# item), which no distribution allows: sorting them along :math:`k` (the monotone
# rearrangement of Chernozhukov, Fernández-Val and Galichon 2010) restores the
# order, and their differences are the recalibrated class probabilities.
from sklearn.isotonic import IsotonicRegression


def fit_recalibration(y, proba):
    cumulative = np.cumsum(proba, axis=1)[:, :-1]
    return [IsotonicRegression(y_min=0, y_max=1, out_of_bounds="clip").fit(
        cumulative[:, k], y <= k) for k in range(cumulative.shape[1])]


def recalibrate(fits, proba):
    cumulative = np.cumsum(proba, axis=1)[:, :-1]
    fitted = np.column_stack([fit.predict(cumulative[:, k]) for k, fit in enumerate(fits)])
    fitted = np.sort(fitted, axis=1)  # non-decreasing in k
    return np.diff(fitted, prepend=0.0, append=1.0, axis=1)


fits = fit_recalibration(y_recal, bell(X_recal))
proba_recalibrated = recalibrate(fits, proba_bell)
parts = ranked_probability_score_decomposition(y_test, proba_recalibrated)
print(f"recalibrated: RPS {parts.score:.3f} = MCB {parts.miscalibration:.3f} "
      f"- DSC {parts.discrimination:.3f} + UNC {parts.uncertainty:.3f}")

fig, axes = plt.subplots(1, 4, figsize=(13, 3.6), layout="constrained")
OrdinalCalibrationDisplay.from_predictions(y_test, proba_recalibrated, ax=axes,
                                           name="recalibrated", n_resamples=500,
                                           random_state=0)
for ax in axes:
    ax.legend(loc="upper left", fontsize="x-small")
plt.show()

# %%
# The recalibrated bell keeps its discrimination (isotonic maps do not reorder
# the items) and loses most of its miscalibration; what MCB remains is the price
# of fitting on other items. See :ref:`calibration` for the definitions.
