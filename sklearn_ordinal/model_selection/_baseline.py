"""Cross-validate a model against the trivial classifier of each measure.

Baccianella, Esuli and Sebastiani (2009, Table I) report every result next to the
trivial-class classifier *for the same measure*: under the micro-averaged MAE a
model can barely beat (or even lose to) predicting one class for everything,
while the macro-averaged MAE separates them. :func:`compare_to_trivial` makes that
table for any estimator, measures and cross-validation splitter.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
from sklearn import get_config
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import check_cv, cross_validate

from .._compat import HasMethods, Interval, StrOptions, _safe_indexing, validate_params
from .._validation import _refuse_dask
from ..dummy import TrivialOrdinalClassifier
from ..metrics._scorer import _scorer_of_measure
from ..metrics._registry import resolve
from ..metrics._scorer import _stated_order, make_ordinal_scorer

if TYPE_CHECKING:
    from scipy.sparse import spmatrix
    from sklearn.base import BaseEstimator
    from sklearn.model_selection import BaseCrossValidator

_Scoring = str | Callable[..., Any]
from ..stats import compare_scores
from ..stats._interval_pvalue import percentile_interval_pvalue
from ..stats._method import chosen_method
from ..stats._resampling import DEFAULT_N_RESAMPLES
from .._warnings import warn_user


def _named_scorers(scoring):
    """``scoring`` as a dict ``{row name: scorer}``; a row per measure."""
    if isinstance(scoring, str) or callable(scoring):
        scoring = [scoring]
    if isinstance(scoring, dict):
        items = list(scoring.items())
    else:
        items = [(entry if isinstance(entry, str) else repr(entry), entry) for entry in scoring]
    if not items:
        raise ValueError("scoring is empty: give at least one scorer name or scorer.")
    names = [name for name, _ in items]
    duplicated = sorted({name for name in names if names.count(name) > 1})
    if duplicated:
        raise ValueError(f"scoring names measures more than once: {duplicated}.")
    return {name: _scorer_of_measure(entry) for name, entry in items}


def _perfect_score(scorer):
    """The scorer's value for perfect predictions, on its greater-is-better scale; NaN
    for a scorer whose measure the registry does not know or whose top depends on the
    data."""
    # registry: MeasureRecord.perfect (the measure's value when every prediction is right)
    try:
        resolved = resolve(scorer)
    except ValueError:
        return np.nan
    perfect = resolved.record.perfect
    if perfect is None:
        return np.nan
    return perfect if resolved.greater_is_better else -perfect


def _skill(estimator_score, trivial_score, perfect_score):
    """The forecasting skill score ``(estimator - trivial) / (perfect - trivial)``.

    1 is perfect, 0 no better than the trivial class, below 0 worse; NaN when the
    perfect value is unknown or the trivial class is already perfect.
    """
    room = perfect_score - trivial_score
    if not np.isfinite(room) or room == 0:
        return np.nan
    return (estimator_score - trivial_score) / room


def _reissue(caught):
    """Warn again the recorded warnings, under the caller's own filters."""
    for warning in caught:
        warnings.warn_explicit(warning.message, warning.category, warning.filename,
                               warning.lineno)


def _cross_validate_each(estimator, X, y, scorers, error_score, **kwargs):
    """``{name: (fold scores, fitted estimators or None)}``, and ``{name: reason}`` of
    the measures that failed.

    All measures in one ``cross_validate`` (one fit per fold); only when that raises
    is each measure run on its own, so that a measure failing for this model (RPS of
    a model without ``predict_proba``) costs its own cell, not the table.
    """
    # The warnings of an attempt that fails are dropped: the run of each measure on
    # its own gives them again (once, not twice). They are warned again only after
    # the recording block: inside it, each one would be recorded again, appended to
    # the list being walked (a loop without end).
    error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = cross_validate(
                estimator, X, y, scoring=scorers, error_score="raise", **kwargs
            )
        except Exception as raised:
            result, error = None, raised
    if result is not None or error_score == "raise":
        _reissue(caught)
        if error is not None:
            raise error
        return {
            name: (result[f"test_{name}"], result.get("estimator")) for name in scorers
        }, {}
    results, failures, errors = {}, {}, []
    n_folds = len(kwargs["cv"])
    for name, scorer in scorers.items():
        try:
            result = cross_validate(
                estimator, X, y, scoring={name: scorer}, error_score="raise", **kwargs
            )
            results[name] = (result[f"test_{name}"], result.get("estimator"))
        except Exception as raised:
            failures[name] = f"{type(raised).__name__}: {raised}"
            results[name] = (np.full(n_folds, float(error_score)), None)
            errors.append(raised)
    if len(failures) == len(scorers):
        # Nothing scored: as cross_validate does when every fit fails, an error, not a
        # table of error_score cells.
        first = (str(errors[0]).strip().splitlines() or [""])[0]
        raise ValueError(
            f"All the {n_folds} fits failed under every measure (the first: "
            f"{type(errors[0]).__name__}: {first}); it is very likely that the estimator "
            "is misconfigured. Pass error_score='raise' to see the traceback."
        ) from errors[0]
    return results, failures


@validate_params(
    {
        "estimator": [HasMethods(["fit", "predict"])],
        "X": ["array-like", "sparse matrix"],
        "y": ["array-like"],
        "scoring": [str, callable, list, tuple, dict],
        "cv": ["cv_object"],
        "groups": ["array-like", None],
        "params": [dict, None],
        "n_jobs": [Integral, None],
        "confidence_level": [Interval(Real, 0, 1, closed="neither"), None],
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "method": [StrOptions({"auto", "percentile", "normal", "delong"})],
        "random_state": ["random_state"],
        "error_score": [StrOptions({"raise"}), Real],
    },
    prefer_skip_nested_validation=False,
)
def compare_to_trivial(
    estimator: BaseEstimator,
    X: npt.ArrayLike | spmatrix,
    y: npt.ArrayLike,
    *,
    scoring: _Scoring | Sequence[_Scoring] | Mapping[str, _Scoring],
    cv: int | BaseCrossValidator | Iterable[Any] | None = None,
    groups: npt.ArrayLike | None = None,
    params: dict[str, Any] | None = None,
    n_jobs: int | None = None,
    confidence_level: float | None = None,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    method: Literal["auto", "percentile", "normal", "delong"] = "auto",
    random_state: int | np.random.RandomState | None = None,
    error_score: Literal["raise"] | float = np.nan,
) -> pd.DataFrame:
    r"""Cross-validate an estimator and the trivial classifier of each measure.

    For every measure in ``scoring``, the estimator and a
    :class:`~sklearn_ordinal.dummy.TrivialOrdinalClassifier` for that same measure
    are fitted and scored on the same folds. This is Table I of Baccianella et al.
    (2009) as a function: a measure that is not robust to class imbalance shows
    a model barely better than predicting one class for every item.

    Each row says how far the estimator gets from the trivial class towards a
    perfect prediction, the forecasting skill score, on the scorers'
    greater-is-better scale:

    .. math::

        \mathrm{skill} = \frac{\bar s_\mathrm{estimator} - \bar s_\mathrm{trivial}}
                              {s_\mathrm{perfect} - \bar s_\mathrm{trivial}}

    where :math:`\bar s` is the mean score over the folds and
    :math:`s_\mathrm{perfect}` the measure's value for perfect predictions (0 for
    an error, 1 for VUS, kappa, CEM, ...): 1 is perfect, 0 no better than the
    trivial class, below 0 worse. For an error it is the relative error reduction
    :math:`(\bar s_\mathrm{estimator} - \bar s_\mathrm{trivial}) /
    |\bar s_\mathrm{trivial}|`; unlike a ratio to the trivial score, it also reads
    alike for a measure with a chance level (VUS's :math:`1/r!`, kappa's 0).

    Parameters
    ----------
    estimator : estimator object
        The model to evaluate; it is cloned for every fold.
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        Features.
    y : array-like of shape (n_samples,)
        Ordinal labels: numbers, strings or an ordered pandas ``Categorical``.
    scoring : str, callable, list, tuple or dict
        The measures, one row each: a scorer name from
        :func:`~sklearn_ordinal.metrics.get_scorer_names`, a scorer, a list or
        tuple of these, or a dict ``{row name: name or scorer}``. Rows of scorers
        given in a list are named by the scorer's ``repr``.
    cv : int, cross-validation generator or iterable, default=None
        As in :func:`sklearn.model_selection.cross_validate`: None means 5-fold, an
        int stratified k-fold. The splits are drawn once, so the estimator and every
        trivial classifier see exactly the same folds, even with a shuffling
        splitter.
    groups : array-like of shape (n_samples,), default=None
        Group labels for a group splitter.
    params : dict, default=None
        Metadata for the estimator's ``fit`` (and, with metadata routing enabled,
        for the scorers and splitter), routed as
        :func:`sklearn.model_selection.cross_validate` routes ``params``. The trivial
        classifiers get ``sample_weight`` when it is given, so that both sides of
        the comparison weigh the items alike.
    n_jobs : int, default=None
        Number of jobs to fit and score the estimator in parallel. The trivial
        classifiers, which only count labels, always run in this process.
    confidence_level : float in (0, 1), default=None
        When set, the table also says how sure the comparison is: the out-of-fold
        predictions of the estimator and of the trivial classifier (each item
        predicted by the models of the fold that held it out) are pooled, and
        :func:`sklearn_ordinal.stats.compare_scores` gives the paired percentile
        bootstrap interval of their difference under each measure; the p-value is
        that interval's inversion, as in the evaluation report (the two never
        disagree). With ``groups``, whole groups are resampled.
    n_resamples : int, default=9999
        Bootstrap resamples (and random exchanges) when ``confidence_level`` is set.
    method : {"auto", "percentile", "normal", "delong"}, default="auto"
        The comparison when ``confidence_level`` is set: the paired percentile
        bootstrap (``"percentile"``), or the analytic interval of the difference and
        its z test (``"normal"``, any measure; ``"delong"``, the ranking measures),
        see :func:`sklearn_ordinal.stats.compare_scores`. ``"auto"`` takes the
        analytic one where ``score_interval``'s ``"auto"`` does (large data, see the
        :ref:`User Guide <uncertainty>`), the percentile bootstrap otherwise.
    random_state : int, RandomState instance or None, default=None
        Seeds the resampling when ``confidence_level`` is set.
    error_score : "raise" or float, default=np.nan
        As in :func:`sklearn.model_selection.cross_validate`: the value of the
        estimator's cells under a measure that fails for it (the RPS of a model
        without ``predict_proba``, say), the other measures being scored as usual,
        with one warning per failing measure naming it and the reason; ``"raise"``
        raises the error. When the estimator fails under every measure, a
        ValueError, as ``cross_validate`` raises when every fit fails. The trivial
        classifiers never fail this way.

    Returns
    -------
    table : pandas.DataFrame
        One row per measure, indexed by its name, with columns
        ``estimator_mean``, ``estimator_std``, ``trivial_mean``, ``trivial_std``
        (mean and population standard deviation of the fold scores, on the
        greater-is-better scale, as in ``GridSearchCV.cv_results_``),
        ``trivial_class`` (the list of the trivial classes chosen, one per fold),
        ``mean_difference`` (estimator minus trivial), ``skill`` (NaN where the
        perfect value depends on the data, e.g. mutual information, the measure is
        not this package's, or the trivial classifier is already perfect). With
        ``confidence_level``, also ``difference`` (the
        measure of the pooled out-of-fold predictions, estimator minus trivial, on
        the greater-is-better scale), ``difference_low`` and ``difference_high``
        (its paired percentile bootstrap interval), ``pvalue`` (the p-value of
        that interval's inversion, as in :func:`~sklearn_ordinal.evaluation.evaluate`'s
        comparisons: below ``1 - confidence_level`` exactly when the interval excludes
        0) and ``significantly_better`` (whether the interval lies above 0).

    Warns
    -----
    FitFailedWarning
        Once per measure the estimator could not be scored under, with the reason
        (unless ``error_score="raise"``).

    See Also
    --------
    sklearn_ordinal.dummy.TrivialOrdinalClassifier : The trivial baseline.
    sklearn.model_selection.cross_validate : What runs the folds.

    References
    ----------
    .. [1] S. Baccianella, A. Esuli and F. Sebastiani, "Evaluation measures for
       ordinal regression", Proc. ISDA 2009, pp. 283-287, section II and Table I.

    Examples
    --------
    The diabetes progression target cut into 5 ordered grades with the class sizes
    of TripAdvisor-15763 (3.9, 7.2, 9.4, 34.5 and 45.0 %). A class-balanced
    logistic regression is worse than predicting grade 4 for everyone under the
    micro-averaged MAE, and better than the best trivial classifier under the
    macro-averaged MAE:

    >>> import numpy as np
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn_ordinal.model_selection import compare_to_trivial
    >>> X, target = load_diabetes(return_X_y=True)
    >>> y = np.digitize(target, np.quantile(target, [0.039, 0.111, 0.205, 0.55])) + 1
    >>> np.bincount(y)[1:]
    array([ 17,  31,  43, 151, 200])
    >>> model = make_pipeline(StandardScaler(), LogisticRegression(class_weight="balanced"))
    >>> table = compare_to_trivial(
    ...     model, X, y, scoring=["neg_mean_absolute_error", "neg_macro_mean_absolute_error"])
    >>> columns = ["estimator_mean", "trivial_mean", "trivial_class", "skill"]
    >>> print(table[columns].round(3).to_string())
                                   estimator_mean  trivial_mean    trivial_class  skill
    measure
    neg_mean_absolute_error                -0.977        -0.805  [4, 4, 4, 4, 4] -0.213
    neg_macro_mean_absolute_error          -1.037        -1.200  [3, 3, 3, 3, 3]  0.136
    """
    _refuse_dask("compare_to_trivial", X, y, groups)
    scorers = _named_scorers(scoring)
    # Draw the folds once: both sides must see the same ones, even if cv shuffles.
    splits = list(check_cv(cv, y, classifier=True).split(X, y, groups))
    keep = confidence_level is not None
    common = {"cv": splits, "return_estimator": keep}
    params = dict(params or {})
    model, failures = _cross_validate_each(
        estimator, X, y, scorers, error_score, n_jobs=n_jobs, params=params, **common
    )
    # The trivial classifier takes only the item weights of the fit's metadata.
    trivial_params = {k: v for k, v in params.items() if k == "sample_weight"}

    rows = {}
    for name, scorer in scorers.items():
        # The trivial classifier predicts one class whatever method is asked for, and
        # has only predict and predict_proba: it is scored by the measure's default
        # response (a response_method= naming the model's own score is the model's).
        trivial_scorer = _default_response(scorer)
        trivial_classifier = TrivialOrdinalClassifier(trivial_scorer)
        if trivial_params and get_config().get("enable_metadata_routing", False):
            trivial_classifier.set_fit_request(sample_weight=True)
        trivial = cross_validate(
            trivial_classifier, X, y, scoring=trivial_scorer, params=trivial_params,
            error_score="raise", **{**common, "return_estimator": True}
        )
        (model_scores, model_fits), trivial_scores = model[name], trivial["test_score"]
        perfect = _perfect_score(scorer)
        estimator_mean, trivial_mean = model_scores.mean(), trivial_scores.mean()
        rows[name] = {
            "estimator_mean": estimator_mean,
            "estimator_std": model_scores.std(),
            "trivial_mean": trivial_mean,
            "trivial_std": trivial_scores.std(),
            "trivial_class": np.asarray(
                [fitted.trivial_class_ for fitted in trivial["estimator"]]
            ).tolist(),
            "mean_difference": estimator_mean - trivial_mean,
            "skill": _skill(estimator_mean, trivial_mean, perfect),
        }
        if keep:
            rows[name].update(
                _NO_INTERVAL if name in failures else _paired_interval(
                    scorer, X, y, groups, splits, model_fits, trivial["estimator"],
                    confidence_level, n_resamples, method, random_state,
                )
            )
    for name, reason in failures.items():
        warn_user(
            f"compare_to_trivial could not score the estimator under {name}, so its "
            f"cells are {error_score}: {reason} The other measures are scored; "
            "error_score='raise' raises instead.",
            FitFailedWarning,
        )
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "measure"
    return table


# The interval columns of a measure the estimator could not be scored under.
_NO_INTERVAL = {
    "difference": np.nan,
    "difference_low": np.nan,
    "difference_high": np.nan,
    "pvalue": np.nan,
    "significantly_better": False,
}


def _default_response(scorer):
    """``scorer`` reading the estimator by its response kind's default methods."""
    if getattr(scorer, "methods", None) is None:
        return scorer
    return make_ordinal_scorer(
        scorer.score_func,
        greater_is_better=scorer.greater_is_better,
        response=scorer.response,
        **scorer.kwargs,
    )


def _out_of_fold(scorer, X, splits, fitted, labels):
    """What the scorer feeds its measure, for every item, from the fold that held it out."""
    def call(estimator, method, X, pos_label=None):
        return getattr(estimator, method)(X)

    return np.concatenate([
        np.asarray(scorer._response_values(call, estimator, _safe_indexing(X, test), labels)[0])
        for estimator, (_, test) in zip(fitted, splits)
    ])


def _paired_interval(scorer, X, y, groups, splits, model_fits, trivial_fits,
                     confidence_level, n_resamples, method, random_state):
    """Interval and p-value of estimator minus trivial, pooled out-of-fold, per measure."""
    test = np.concatenate([test for _, test in splits])
    y_test = _safe_indexing(y, test)
    labels = _stated_order(model_fits[0], y, scorer.kwargs.get("labels"))
    if labels is None:
        # A regressor states no classes: the trivial classifiers' (fitted on y) do.
        labels = _stated_order(trivial_fits[0], y, None)
    predictions = [
        _out_of_fold(scorer, X, splits, model_fits, labels),
        _out_of_fold(_default_response(scorer), X, splits, trivial_fits, labels),
    ]
    kwargs = {k: v for k, v in scorer.kwargs.items() if k != "labels"}
    test_groups = None if groups is None else _safe_indexing(groups, test)
    # The analytic comparison where "auto" takes it, else the percentile bootstrap,
    # whose inversion is the p-value.
    method = chosen_method(method, resolve(scorer, {}), y_test, predictions, labels, None,
                           test_groups)
    analytic = method in ("normal", "delong")
    result = compare_scores(
        scorer, y_test, *predictions, labels=labels, groups=test_groups,
        confidence_level=confidence_level, n_resamples=n_resamples,
        random_state=random_state, method=method if analytic else "percentile", **kwargs,
    )
    # On the greater-is-better scale, as the rest of the table. The p-value is the
    # interval's inversion, as in evaluate's report: the interval excludes 0 exactly
    # when the p-value is below 1 - confidence_level (a randomization test's p-value
    # could say 0.063 beside an interval that excludes 0).
    sign = 1 if result.greater_is_better else -1
    low, high = sorted(sign * np.asarray(result.confidence_interval))
    return {
        "difference": sign * result.estimate,
        "difference_low": low,
        "difference_high": high,
        "pvalue": (result.pvalue if analytic
                   else percentile_interval_pvalue(result.bootstrap_distribution)),
        "significantly_better": bool(low > 0),
    }
