"""Judge several systems against one gold standard: :func:`evaluate`."""

from __future__ import annotations

import warnings
from decimal import Decimal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy.stats import DegenerateDataWarning
from sklearn.utils import check_random_state

from .._version import __version__
from .._compat import Interval, StrOptions, validate_params
from .._confusion import ordinal_confusion
from .._validation import (
    UndefinedMeasureError,
    _check_1d_labels,
    _is_real_valued,
    _ordered_categorical,
    _refuse_dask,
    check_ordinal_targets,
)
from ..dummy import TrivialOrdinalClassifier
from ..metrics import mean_absolute_error, mean_zero_one_error, ordinal_confusion_matrix
from ..metrics._probabilistic import _check_proba
from ._calibration import calibration_of_systems
from ..metrics._registry import resolve
from ..metrics._scorer import _accepts, _expected_class
from ..model_selection._baseline import _named_scorers
from ..stats._intervals import _FEW_GROUPS, _group_codes, comparison_steps, interval_steps
from ..stats._method import auto_method, family, smallest_class
from ..stats._multiple_testing import holm_adjust
from ..stats._interval_pvalue import percentile_interval_pvalue
from ..stats._resampling import (
    DEFAULT_N_RESAMPLES,
    RANDOMIZATION,
    one_blas_thread,
    shared_resamples,
)
from ._jobs import ReportJobs
from ._recorded_warnings import recorded_warnings
from ._quantification import quantification_records, quantifier_outputs
from ._quantification import split_prevalence_measures
from .._warnings import warn_user
from ._progress import Progress
from ._report import EvaluationReport
from ._trivial_row import TRIVIAL

# The recommended ordinal set (see the User Guide, "Evaluating systems").
DEFAULT_MEASURES = (
    "neg_macro_mean_absolute_error",
    "neg_mean_absolute_error",
    "cem_ord",
    "neg_macro_mean_zero_one_error",
    "quadratic_weighted_kappa",
    "accuracy_within_1",
)
# Added when a system gives scores or class probabilities.
DEFAULT_RANKING_MEASURES = ("vus", "u_cons")
# Added when a system gives class probabilities.
DEFAULT_PROBABILISTIC_MEASURES = ("neg_ranked_probability_score",)

INTERVAL_METHOD = "bca"
# The comparisons' interval: its inversion gives the p-value (see _interval_pvalue).
COMPARISON_INTERVAL_METHOD = "percentile"
COMPARISON_TEST = ("paired bootstrap: percentile interval of the difference and the p-value "
                   "of its inversion; paired randomization p-value beside them (not for "
                   "the ranking measures); for a measure whose interval is analytic "
                   "(interval_methods: normal, delong), the normal interval of the "
                   "difference from the paired influence values and its z test")
# The verdict of a comparison whose Holm-adjusted p-value is not below the level.
NO_DIFFERENCE = "no difference"

# What each family of measure takes, by kind of system output; None = it applies.
_NOT_APPLICABLE = {
    ("label", "scores"): "a measure of classes; the system gives real-valued scores, "
    "not classes (round them to classes and give them as a system of their own)",
    ("label", "probabilities"): "a measure of classes; the system gave only class "
    "probabilities, and no class is derived from them (give its predicted classes "
    "beside them: a label column in its file, or predictions= with y_proba=)",
    ("distance", "probabilities"): "a distance between classes; the system gave only "
    "class probabilities, and no class is derived from them (give its predicted "
    "classes beside them: a label column in its file, or predictions= with y_proba=)",
    ("ranking", "labels"): "a ranking measure needs one real score per item; the system "
    "gives classes (give its scores, or its class probabilities)",
    ("probabilistic", "labels"): "a probabilistic measure needs class probabilities; the "
    "system gives classes",
    ("probabilistic", "scores"): "a probabilistic measure needs class probabilities; the "
    "system gives scores",
}


def _family(spec):
    """``"ranking"``, ``"probabilistic"``, ``"distance"`` or ``"label"``."""
    return family(spec)


def _systems(predictions):
    """``{name: output}`` from a dict or a DataFrame with one column per system."""
    if isinstance(predictions, pd.DataFrame):
        systems = {name: predictions[name] for name in predictions.columns}
        if len(systems) != predictions.shape[1]:
            raise ValueError("predictions has two columns of the same name; name each once.")
    elif isinstance(predictions, dict):
        systems = dict(predictions)
    else:
        raise ValueError(
            "predictions must be a dict {system name: predictions} or a pandas DataFrame "
            f"with one column per system; got {type(predictions).__name__}."
        )
    for name, output in systems.items():
        if isinstance(output, (list, tuple)):
            # Lists become typed arrays once, as the measures read them.
            array = np.asarray(output, dtype=object)
            systems[name] = (array.astype(np.float64) if array.ndim == 2
                             else _check_1d_labels(output, f"predictions[{name!r}]"))
        if not isinstance(name, str):
            raise ValueError(f"System names must be strings; got {name!r}.")
        if name == TRIVIAL:
            raise ValueError(
                f"{TRIVIAL!r} names the trivial baseline row of the report; rename that system."
            )
    return systems


def _with_probabilities(systems, y_proba):
    """The systems of ``y_proba`` alone added to ``systems`` (as class probabilities),
    and ``{name: probabilities}`` of the systems that give them beside their labels or
    scores."""
    beside = {}
    for name, proba in (y_proba or {}).items():
        if not isinstance(name, str):
            raise ValueError(f"System names must be strings; got {name!r} in y_proba.")
        proba = np.asarray(proba)
        if proba.ndim != 2:
            raise ValueError(
                f"y_proba[{name!r}] has shape {proba.shape}; give the class probabilities "
                "as a 2-D array (n_samples, n_classes), one column per class in class order."
            )
        if name in systems:
            beside[name] = proba
        else:
            systems[name] = proba
    if not systems:
        raise ValueError("predictions holds no system; give at least one.")
    return beside


def _checked_probabilities(proba, name, n_classes):
    """A system's class probabilities as floats, or a ValueError naming the system."""
    if proba.shape[1] != n_classes:
        raise ValueError(
            f"System {name!r} gives class probabilities with {proba.shape[1]} columns, "
            f"but there are {n_classes} classes; give one column per class, in class order."
        )
    try:
        return _check_proba(proba)
    except ValueError as error:
        raise ValueError(f"System {name!r} gives class probabilities: {error}") from None


def _kind(output, y_true, labels, n_classes, name):
    """How a system's output is read: ``"labels"``, ``"scores"`` or ``"probabilities"``.

    A 2-D array of shape (n_samples, n_classes) holds class probabilities; a 1-D
    float array with a value that is neither an integer nor a class is real-valued
    scores (or a regressor's predictions); anything else holds class labels.
    """
    array = np.asarray(output)
    if array.ndim == 2 and array.shape[1] != 1:
        if array.shape[1] != n_classes:
            raise ValueError(
                f"System {name!r} gives a 2-D array of shape {array.shape}, read as class "
                f"probabilities, but there are {n_classes} classes; give one column per "
                "class, in class order."
            )
        return "probabilities"
    if array.dtype.kind == "f" and _is_real_valued(array.ravel(), y_true, labels):
        return "scores"
    return "labels"


def _as_coded_text(y, labels):
    """Text labels as an ordered ``Categorical`` of ``labels``; other input unchanged.

    The same classes in the same order, so the same numbers; but counted by their
    integer codes instead of hashing every string again for every measure, system
    and resample layout. Input with a value outside ``labels`` (or no text) is left
    as it is, for the measures to refuse with their own message.
    """
    if isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
        return y
    array = np.asarray(y, dtype=object) if isinstance(y, (list, tuple)) else np.asarray(y)
    if array.ndim != 1 or array.dtype.kind not in "OU":
        return y
    if pd.api.types.infer_dtype(array, skipna=False) != "string":
        return y
    coded = pd.Categorical(array, categories=list(labels), ordered=True)
    return y if (coded.codes < 0).any() else coded


def _classes(y_true, label_systems, labels, sample_weight):
    """The report's ordered class set: the classes every label measure is counted over."""
    if labels is not None:
        return check_ordinal_targets(y_true, labels=labels, need_order=False)[0]
    categorical = _ordered_categorical(y_true)
    if categorical is not None:
        return check_ordinal_targets(categorical, need_order=False)[0]
    classes = check_ordinal_targets(y_true, sample_weight=sample_weight, need_order=False)[0]
    for y_pred in label_systems:
        confusion = ordinal_confusion(
            y_true, y_pred, sample_weight=sample_weight, need_values=False, need_order=False
        )
        classes = np.union1d(classes, confusion.classes)
    return classes


def _check_baseline_labels(baseline_labels, classes):
    """Refuse training labels outside the report's classes: a trivial classifier
    choosing a class no item has, or can be predicted as, is no baseline."""
    if baseline_labels is None:
        return
    given = pd.Series(np.asarray(baseline_labels, dtype=object).ravel())
    outside = pd.unique(given[~given.isin(list(classes))])
    if len(outside):
        raise ValueError(
            f"baseline_labels holds {len(outside)} class(es) that are not classes of the "
            f"report, {outside[:5].tolist()}; the classes are {classes.tolist()}. Give the "
            "training labels of these classes (or name every class with labels=)."
        )


def _take(y, positions):
    """The items of ``y`` at ``positions``, keeping a pandas input's dtype."""
    if hasattr(y, "iloc"):
        return y.iloc[positions]
    return _indexable(y)[positions]


def _indexable(y):
    """``y`` as what :func:`_take` indexes: a pandas input or Categorical as it is, a
    list as an array of its objects (made once, not once per group)."""
    if hasattr(y, "iloc") or isinstance(y, pd.Categorical):
        return y
    return np.asarray(y, dtype=object) if isinstance(y, (list, tuple)) else np.asarray(y)


def _seed(random_state):
    """An integer seed that reproduces the report; drawn when none is given."""
    if random_state is None:
        # Within [0, 2**32): a seed random_state= takes back.
        return int(np.random.SeedSequence().generate_state(1)[0])
    if isinstance(random_state, Integral):
        return int(random_state)
    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


class _Measure:
    """One measure of the report: its name, scorer, family and data arguments."""

    def __init__(self, key, scorer):
        self.key = key
        self.scorer = scorer
        self.spec = resolve(scorer)
        self.family = _family(self.spec)
        self.greater_is_better = self.spec.greater_is_better
        # The report shows the measure itself (an error positive, lower is better).
        self.name = key[4:] if key.startswith("neg_") else key

    def arguments(self, labels, class_values, sample_weight):
        """The data arguments to pass, or a reason the measure cannot take them."""
        arguments = {"labels": labels, "class_values": class_values}
        arguments = {
            key: value
            for key, value in arguments.items()
            if value is not None and _accepts(self.spec.record.function, key)
        }
        if sample_weight is not None:
            if not _accepts(self.spec.record.function, "sample_weight"):
                return None, "the measure has no weighted form and sample_weight is given"
            arguments["sample_weight"] = sample_weight
        return arguments, None

    def output(self, kind, output, proba=None):
        """What the measure is fed of a system's output, or a reason it does not apply.

        ``proba``: the class probabilities a system gives beside its labels or scores,
        which the ranking and probabilistic measures read instead.
        """
        if proba is not None and self.family in ("ranking", "probabilistic"):
            kind, output = "probabilities", proba
        reason = _NOT_APPLICABLE.get((self.family, kind))
        if reason is not None:
            return None, reason
        if self.family == "ranking" and kind == "probabilities":
            # The expected class position, as the package's scorers rank predict_proba.
            return _expected_class(output), None
        return output, None


def _trivial_output(measure, y_fit, fit_weight, trivial_labels, n_items):
    """The trivial classifier of ``measure`` and its output on ``n_items`` gold items."""
    trivial = TrivialOrdinalClassifier(measure.scorer, labels=trivial_labels)
    trivial.fit(None, y_fit, sample_weight=fit_weight)
    X = np.empty((n_items, 0))
    if measure.family in ("label", "distance"):
        return trivial, trivial.predict(X)
    proba = trivial.predict_proba(X)
    if measure.family == "probabilistic":
        return trivial, proba
    return trivial, _expected_class(proba)


def _per_class(kind, y_true, output, classes, order_known, class_values, sample_weight):
    """Per-class recall and mean absolute error of one system (NaN where undefined)."""
    rows = {}
    with warnings.catch_warnings():
        # A class of the report with no gold item is NaN here, which says it all.
        warnings.simplefilter("ignore")
        if kind == "labels":
            rows["recall"] = 1.0 - mean_zero_one_error(
                y_true, output, labels=classes, sample_weight=sample_weight, average=None
            )
        if kind != "probabilities" and order_known:
            rows["mean_absolute_error"] = mean_absolute_error(
                y_true,
                output,
                labels=classes,
                class_values=class_values,
                sample_weight=sample_weight,
                average=None,
            )
    return {
        (quantity, label): float(values[k])
        for quantity, values in rows.items()
        for k, label in enumerate(classes.tolist())
    }


def _per_group(measures, systems, kinds, probas, y_true, labels, class_values,
               sample_weight, groups):
    """Each measure on each group alone: a DataFrame indexed by (system, group)."""
    codes, distinct = pd.factorize(np.asarray(groups))
    weights = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    # Each group's items, in their order, from one stable sort of the codes: a mask
    # per group would hold groups x items booleans (10^9 for 10^4 users of 10^5 items).
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(distinct) + 1))
    members = [order[bounds[g]:bounds[g + 1]] for g in range(len(distinct))]
    values, n_failed = {}, 0
    y_true = _indexable(y_true)
    for name, output in systems.items():
        for measure in measures:
            fed, reason = measure.output(kinds[name], output, probas.get(name))
            fed = fed if fed is None else _indexable(fed)
            for g, items in enumerate(members):
                arguments, weight_reason = measure.arguments(
                    labels, class_values, None if weights is None else weights[items]
                )
                value = np.nan
                if reason is None and weight_reason is None:
                    try:
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            value = float(measure.spec.function(
                                _take(y_true, items), _take(fed, items), **arguments
                            ))
                    except ValueError:
                        # The whole data passed: the group is too small for the measure
                        # (one class, for a ranking measure).
                        n_failed += 1
                values[(name, distinct[g]), measure.name] = value
    if n_failed:
        warn_user(
            f"On {n_failed} (system, group, measure) the measure is undefined on the "
            "group's items alone (e.g. a ranking measure on a group of one class); they "
            "are NaN and left out of the mean over groups.",
            UserWarning
        )
    index = pd.MultiIndex.from_tuples(
        [(name, group) for name in systems for group in distinct], names=["system", "group"]
    )
    table = pd.Series(values).unstack().reindex(index=index,
                                                columns=[m.name for m in measures])
    return table, table.groupby(level="system", sort=False).mean()


@validate_params(
    {
        "y_true": ["array-like"],
        "predictions": [dict, pd.DataFrame],
        "y_proba": [dict, None],
        "measures": [list, tuple, dict, str, callable, None],
        "labels": ["array-like", None],
        "class_values": ["array-like", None],
        "sample_weight": ["array-like", None],
        "groups": ["array-like", None],
        "baseline_labels": ["array-like", None],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "method": [StrOptions({"auto", "bca", "percentile", "basic", "normal", "delong"})],
        "random_state": ["random_state"],
        "verbose": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def evaluate(
    y_true: npt.ArrayLike,
    predictions: dict[str, npt.ArrayLike] | pd.DataFrame,
    *,
    y_proba: Mapping[str, npt.ArrayLike] | None = None,
    measures: (
        str
        | Callable[..., Any]
        | Sequence[str | Callable[..., Any]]
        | Mapping[str, str | Callable[..., Any]]
        | None
    ) = None,
    labels: npt.ArrayLike | None = None,
    class_values: npt.ArrayLike | None = None,
    sample_weight: npt.ArrayLike | None = None,
    groups: npt.ArrayLike | None = None,
    baseline_labels: npt.ArrayLike | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    method: Literal["auto", "bca", "percentile", "basic", "normal", "delong"] = "auto",
    random_state: int | np.random.RandomState | None = None,
    verbose: bool = False,
) -> EvaluationReport:
    r"""Evaluate several systems on one gold standard: intervals, baselines, comparisons.

    For every system and every measure, the measure's value on the gold standard and
    a bootstrap confidence interval (BCa, from
    :func:`~sklearn_ordinal.stats.score_interval`); the same for the trivial
    classifier of each measure
    (:class:`~sklearn_ordinal.dummy.TrivialOrdinalClassifier`); per-class recalls and
    errors; with ``groups``, every measure on each group (test case) alone and the
    mean over groups; and every pair of systems, and every system against the
    trivial classifier, compared under every measure
    (:func:`~sklearn_ordinal.stats.compare_scores`): the percentile interval of the
    paired bootstrap difference and, from the same resamples, the p-value of its
    inversion (the interval excludes 0 exactly when the p-value is below
    ``1 - confidence_level``), the paired randomization p-value beside it (not
    for the ranking measures), the p-values of each measure adjusted by Holm's method, and ``better`` naming a
    system only when the adjusted p-value is below the level.

    **What a system gives** is read from its output, never from its name:

    - a 2-D array of shape (n_samples, n_classes): class probabilities, one column
      per class in class order;
    - a 1-D float array holding a value that is neither an integer nor a class:
      real-valued scores (a ranker's scores, a regressor's predictions);
    - anything else: class labels.

    A system may also give its class probabilities beside its labels (or scores), in
    ``y_proba``, as a prediction file with ``proba_<class>`` columns beside its label
    column does.

    Each family of measure applies to some kinds only: measures of classes to labels;
    distance measures (MAE, MSE, RMSE) to labels and to real-valued predictions,
    which they take as they are (a regressor's output, :ref:`conventions`); ranking
    measures to scores and to probabilities, reduced to the expected class position
    :math:`\sum_k k \, p_k` as the package's scorers do; probabilistic measures to
    probabilities. A system that gives probabilities as well as labels or scores is
    read by the ranking and probabilistic measures from its probabilities, by the
    others from its labels or scores. Elsewhere the report holds NaN and says why
    (``report.notes``); nothing is rounded or guessed: a system that gives only
    probabilities has no value under the measures of classes (no class is derived
    from its probabilities, e.g. as their most probable class).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The gold standard: numbers, strings with ``labels``, or an ordered pandas
        ``Categorical``.
    predictions : dict or pandas.DataFrame
        ``{system name: output}``, or a DataFrame with one column per system (so
        labels or scores only). Each output has one entry (or row) per gold item.
    y_proba : dict, default=None
        ``{system name: array of shape (n_samples, n_classes)}``: the systems' class
        probabilities, one column per class in class order (``labels``, or the
        classes' own order), each row non-negative and summing to 1 within 1e-6. A
        system named in ``predictions`` too gives both: its labels (or scores) for
        the measures of classes and the distances, its probabilities for the ranked
        probability score and the ranking measures. A system named only here gives
        probabilities alone, as a 2-D array in ``predictions`` does.
    measures : list, tuple, dict, str or callable, default=None
        Scorer names (:func:`~sklearn_ordinal.metrics.get_scorer_names`), scorers or
        measure functions of this package (a function's column is its name, a scorer's
        its ``repr``), or a dict ``{column name: any of these}``. An error is
        reported as the error itself (``neg_macro_mean_absolute_error`` becomes the
        column ``macro_mean_absolute_error``, lower is better). Default: macro and
        micro MAE, CEM-ORD, macro zero-one error, quadratic weighted kappa and
        accuracy within 1; plus VUS and :math:`U_{cons}` when a system gives scores
        or probabilities, and the ranked probability score when one gives
        probabilities (``report.settings["probabilities_given"]`` names them).
        The prevalence measures (``"emd"``, ``"nmd"``, ``"rnod"``, ordinal
        quantification) are reported over ``groups`` when named here, never by
        default; see :ref:`quantification`.
    labels : array-like of shape (n_classes,), default=None
        The classes in order, lowest first. String labels need it, unless
        ``y_true`` is an ordered ``Categorical``.
    class_values : array-like of shape (n_classes,), default=None
        Numbers standing for the classes in distance measures.
    sample_weight : array-like of shape (n_samples,), default=None
        Gold item weights. A measure with no weighted form is NaN, with a note.
    groups : array-like of shape (n_samples,), default=None
        Test case of each item: ``report.per_group`` scores each test case alone. With
        20 test cases or more, the intervals and comparisons resample whole test
        cases; with fewer, a bootstrap over test cases gives too narrow intervals, so
        the items are resampled and ``report.resampling_note`` says so.
    baseline_labels : array-like, default=None
        Training labels, on which each trivial classifier chooses its class. Without
        them the class is chosen on the gold labels themselves, which flatters the
        baseline; the report says so.
    confidence_level : float, default=0.95
        Of every interval.
    n_resamples : int, default=9999
        Bootstrap resamples of every interval, and random exchanges of every
        comparison; the default of :func:`~sklearn_ordinal.stats.score_interval`,
        :func:`~sklearn_ordinal.stats.compare_scores` and
        :func:`~sklearn_ordinal.model_selection.compare_to_trivial`, and SciPy's. Every
        measure and system is resampled with the same random numbers (one bootstrap of
        the whole report): the intervals and comparisons that resample the same units
        (the items, or one confusion matrix) read one draw, block by block.
    method : {"auto", "bca", "percentile", "basic", "normal", "delong"}, default="auto"
        How the intervals are made (see :func:`~sklearn_ordinal.stats.score_interval`).
        ``"normal"``: the analytic interval of every measure (the delta-method
        variance of its influence values; DeLong's for the ranking measures), whose
        comparisons are the z test of the paired difference. ``"delong"`` applies to
        the ranking measures only; the other measures then use BCa. ``"auto"``: the
        analytic interval where the coverage study found it as good as BCa's (see
        :func:`~sklearn_ordinal.stats.score_interval` and the :ref:`User Guide
        <analytic_interval>`: e.g. label measures from 300 items with a class of
        at least 30), BCa otherwise; a distance measure follows the rule of real
        values when a system gives them. The report's header says which method each
        measure used.
    random_state : int, RandomState instance or None, default=None
        Seeds everything. The seed used (drawn when None) is in the report, so a
        report can be reproduced.
    verbose : bool, default=False
        Show a progress bar (one step per measure) on standard error once the report
        has taken two seconds, when standard error is a terminal and no CI service
        runs (the ``CI`` environment variable); never in redirected output. The
        command line's ``evaluate`` sets it.

    Returns
    -------
    report : EvaluationReport
        ``scores``, ``per_class``, ``per_group``, ``comparisons``, ``notes`` and the
        settings; see :class:`EvaluationReport`.

    See Also
    --------
    sklearn_ordinal.stats.score_interval : The interval of one system.
    sklearn_ordinal.stats.compare_scores : The comparison of two systems.
    sklearn_ordinal.model_selection.compare_to_trivial : The same baseline in
        cross-validation.

    Notes
    -----
    Every interval and comparison is computed with the report's seed as its
    ``random_state`` (``report.settings["random_state"]``): common random numbers,
    so identical predictions get identical intervals whatever their place in the
    report, and each can be reproduced alone with
    :func:`~sklearn_ordinal.stats.score_interval` or
    :func:`~sklearn_ordinal.stats.compare_scores` (``method="percentile"``). The
    report starts every interval and comparison, then runs those that resample
    together: the ones that resample the same units (the items of real-valued
    outputs, for every system, measure and pair; the measures of one confusion
    matrix) read one draw, a block of resamples at a time, each system's values
    made once per block and read by its comparisons; the randomization tests share
    a second draw. This gives the numbers of separate calls, resample for resample,
    at the cost of about one draw and one pass of each system's measures. The
    trivial classifier of a measure is fitted with that measure (on
    ``baseline_labels``, else on the gold labels and ``sample_weight``) and its row is
    computed like a system's; every system is compared with it. The Holm family is
    the comparisons of one measure, those against the trivial classifier included.
    Warnings of the resampling are summarized in one warning per measure and kept in
    ``report.warnings``. The ranking measures have no randomization p-value
    (``pvalue_randomization`` is NaN): exchanging two rankers' scores item by item
    would assume one scale for both.

    References
    ----------
    .. [1] S. Baccianella, A. Esuli and F. Sebastiani, "Evaluation measures for
       ordinal regression", Proc. ISDA 2009, pp. 283-287.
    .. [2] E. Amigó, J. Gonzalo, S. Mizzaro and J. Carrillo-de-Albornoz, "An
       effectiveness metric for ordinal classification: formal properties and
       experimental results", Proc. ACL 2020, pp. 3938-3949.
    .. [3] S. Holm, "A simple sequentially rejective multiple test procedure",
       Scandinavian Journal of Statistics 6(2), 1979, pp. 65-70.
    .. [4] B. Efron and R. J. Tibshirani, "An Introduction to the Bootstrap",
       Chapman & Hall, 1993, section 15.4.

    Examples
    --------
    >>> from sklearn_ordinal import evaluate
    >>> y_true = [0] * 40 + [1] * 30 + [2] * 30
    >>> good = [0] * 35 + [1] * 5 + [1] * 25 + [2] * 5 + [2] * 28 + [1] * 2
    >>> poor = [0] * 40 + [0] * 30 + [2] * 30
    >>> report = evaluate(y_true, {"good": good, "poor": poor},
    ...                   measures=["neg_macro_mean_absolute_error", "cem_ord"],
    ...                   n_resamples=999, random_state=0)
    >>> report.scores["macro_mean_absolute_error"].round(3)
               estimate    low   high
    good          0.119  0.067  0.201
    poor          0.333  0.333  0.333
    (trivial)     0.667  0.667  0.667
    >>> report.trivial_classes
    {'macro_mean_absolute_error': 1, 'cem_ord': 1}
    >>> row = report.comparisons.loc[("macro_mean_absolute_error", "good", "poor")]
    >>> print(round(row["difference"], 3), row["pvalue_holm"] < 0.01)
    -0.214 True
    """
    read = _read_systems(y_true, predictions, y_proba, labels, groups, sample_weight)
    report_measures, prevalence_measures = _resolve_measures(measures, read, groups)
    gold = _gold_standard(y_true, read, labels, sample_weight, baseline_labels)
    seed = _seed(random_state)
    common: dict[str, Any] = dict(
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        groups=groups if read.resampled_groups else None,
    )
    tally = _Tally()
    smallest = smallest_class(gold.y_true, sample_weight)
    n_units = read.n_groups if read.resampled_groups else read.n_items
    real_valued = "scores" in read.kinds.values()
    methods = {measure.name: _method_of(method, measure, n_units, read.resampled_groups,
                                        smallest, real_valued)
               for measure in report_measures}
    # One seed for every interval and comparison (common random numbers): every
    # computation is started, then those that resample run together, so that the
    # bootstraps whose units are the same (the items, or one confusion matrix) read
    # one draw, block by block.
    progress = Progress(len(report_measures), "measures", verbose)
    jobs = ReportJobs()
    with shared_resamples(), one_blas_thread():
        for measure in report_measures:
            _score_measure(measure, gold, read, {**common, "method": methods[measure.name]},
                           labels, class_values, sample_weight, seed, tally, jobs)
            progress.step(f"{measure.name} ({methods[measure.name]})")
        jobs.run(lambda done, total: progress.update(done, total, "resamples"))
        progress.close()
        quantification = None
        if prevalence_measures:
            # Its own module: the groups are its resampling units (see there).
            outputs, output_kinds = quantifier_outputs(gold.systems, read.kinds, read.probas)
            # The prevalences' scale is labels= or the gold's classes, never widened
            # by a system's prediction (gold.classes holds every system's labels).
            quantification = quantification_records(
                gold.y_true, outputs, groups, labels, sample_weight, confidence_level, n_resamples, seed,
                measures=prevalence_measures, baseline_labels=baseline_labels,
                kinds=output_kinds,
            )
            tally.scores += quantification.scores
            tally.comparisons += quantification.comparisons
            tally.notes += quantification.notes
            tally.caught += quantification.warnings
            methods.update(dict.fromkeys(prevalence_measures, INTERVAL_METHOD))
            tally.trivial_classes.update(dict.fromkeys(prevalence_measures,
                                                       quantification.trivial_description))
    _warn_once_per_measure(tally.caught)
    settings = _settings(report_measures, quantification, read, gold, labels, class_values,
                         sample_weight, groups, confidence_level, n_resamples, methods, seed)
    return _assemble_report(tally, report_measures, quantification, read, gold, labels,
                            class_values, sample_weight, groups, settings)


class _ReadSystems(NamedTuple):
    """The systems as given, checked: outputs, what each gives, and the data's size."""

    systems: dict[str, Any]
    probas: dict[str, np.ndarray]
    """Class probabilities a system gives beside its labels or scores."""
    kinds: dict[str, str]
    """``"labels"``, ``"scores"`` or ``"probabilities"`` per system."""
    probabilities_given: list[str]
    n_items: int
    n_groups: int | None
    resampled_groups: bool


def _read_systems(y_true, predictions, y_proba, labels, groups, sample_weight):
    """Step 1: each system's output checked against the gold standard, and its kind."""
    systems = _systems(predictions)
    _refuse_dask("evaluate", y_true, *systems.values(), sample_weight)
    probas = _with_probabilities(systems, y_proba)
    y_checked = _check_1d_labels(y_true, "y_true")
    n_items = len(y_checked)
    for name, output in [*systems.items(), *probas.items()]:
        if len(output) != n_items:
            raise ValueError(
                f"System {name!r} gives {len(output)} predictions for {n_items} gold items."
            )
    n_groups = None
    if groups is not None:
        # Its clear errors before any work; and too few groups to resample (the
        # intervals would be too narrow): the items are resampled, and the report says so.
        n_groups = int(_group_codes(groups, n_items, sample_weight).max()) + 1
    # Kinds are read against the classes the gold standard and labels name.
    n_gold_classes = len(check_ordinal_targets(y_true, labels=labels, need_order=False)[0])
    n_classes = n_gold_classes if labels is None else len(np.asarray(labels))
    kinds = {name: _kind(output, y_checked, labels, n_classes, name)
             for name, output in systems.items()}
    for name in systems:
        if kinds[name] == "probabilities":
            systems[name] = _checked_probabilities(np.asarray(systems[name]), name, n_classes)
    probas = {name: _checked_probabilities(proba, name, n_classes)
              for name, proba in probas.items()}
    probabilities_given = [name for name in systems
                           if kinds[name] == "probabilities" or name in probas]
    return _ReadSystems(systems, probas, kinds, probabilities_given, n_items, n_groups,
                        n_groups is not None and n_groups >= _FEW_GROUPS)


def _resolve_measures(measures, read, groups):
    """Step 2: the report's measures (by default, the recommended set for what the
    systems give), resolved by the registry; and the prevalence measures apart."""
    if measures is not None and not isinstance(measures, str) and not callable(measures) \
            and len(measures) == 0:
        raise ValueError("measures is empty: give at least one measure name, or leave "
                         "measures out for the default ones.")
    chosen: Any = measures
    if chosen is None:
        chosen = list(DEFAULT_MEASURES)
        if any(kind != "labels" for kind in read.kinds.values()) or read.probabilities_given:
            chosen += DEFAULT_RANKING_MEASURES
        if read.probabilities_given:
            chosen += DEFAULT_PROBABILISTIC_MEASURES
    if not isinstance(chosen, Mapping):
        # A measure function by its name, not the repr _named_scorers would give it.
        entries = [chosen] if isinstance(chosen, str) or callable(chosen) else chosen
        named = [(entry if isinstance(entry, str) else
                  getattr(entry, "__name__", None) or repr(entry), entry)
                 for entry in entries]
        # Before dict() would keep only the last of two entries of one name.
        _refuse_repeated_names([key for key, _ in named])
        chosen = dict(named)
    chosen, prevalence_measures = split_prevalence_measures(chosen)
    if prevalence_measures and groups is None:
        raise ValueError(
            f"{sorted(prevalence_measures)} judge class prevalences per group (ordinal "
            "quantification): give groups=, the group (topic, sample) of each item."
        )
    report_measures = [_Measure(key, scorer) for key, scorer in
                       (_named_scorers(chosen).items() if chosen else ())]
    # Distinct keys can still give one column name (an error scorer loses its "neg_").
    _refuse_repeated_names([measure.name for measure in report_measures])
    return report_measures, prevalence_measures


class _GoldStandard(NamedTuple):
    """The gold standard and the systems in the report's class order, and what the
    trivial classifier is fitted on."""

    y_true: Any
    systems: dict[str, Any]
    classes: np.ndarray
    order_known: bool
    trivial_labels: Any
    y_fit: Any
    fit_weight: Any
    baseline: str


def _gold_standard(y_true, read, labels, sample_weight, baseline_labels):
    """Step 3: the report's classes; text labels coded once in the given order; the
    trivial classifier's training labels."""
    systems = read.systems
    label_systems = [output for name, output in systems.items()
                     if read.kinds[name] == "labels"]
    classes = _classes(y_true, label_systems, labels, sample_weight)
    _check_baseline_labels(baseline_labels, classes)
    if labels is not None:
        y_true = _as_coded_text(y_true, labels)
        systems = {name: _as_coded_text(output, labels) if read.kinds[name] == "labels"
                   else output for name, output in systems.items()}
    order_known = (
        labels is not None
        or _ordered_categorical(y_true) is not None
        or classes.dtype.kind in "biuf"
    )
    trivial_labels = labels
    if trivial_labels is None and _ordered_categorical(y_true) is not None:
        trivial_labels = classes
    if baseline_labels is None:
        y_fit, fit_weight, baseline = y_true, sample_weight, "gold"
    else:
        y_fit, fit_weight, baseline = baseline_labels, None, "baseline_labels"
    return _GoldStandard(y_true, systems, classes, order_known, trivial_labels, y_fit,
                         fit_weight, baseline)


@dataclass
class _Tally:
    """What the scoring of the measures adds up to: the report's records."""

    scores: list[dict[str, Any]] = field(default_factory=list)
    notes: list[dict[str, str]] = field(default_factory=list)
    trivial_classes: dict[str, Any] = field(default_factory=dict)
    comparisons: list[dict[str, Any]] = field(default_factory=list)
    caught: list[dict[str, str]] = field(default_factory=list)
    """Warnings recorded while resampling, summarized once per measure."""


def _score_measure(measure, gold, read, common, labels, class_values, sample_weight, seed,
                   tally, jobs):
    """Step 4, one measure: every system's interval, the trivial classifier's, and the
    paired comparisons, started in ``jobs`` (their records are filled when it runs);
    an undefined cell is NaN with a note, never a stop."""
    arguments, weight_reason = measure.arguments(labels, class_values, sample_weight)
    fed = {}
    for name, output in gold.systems.items():
        value, reason = measure.output(read.kinds[name], output, read.probas.get(name))
        reason = reason or weight_reason
        if reason is None:
            slot, reason = _interval_or_reason(measure, gold.y_true, value, arguments,
                                               common, seed, tally.caught, name, jobs)
        if reason is not None:
            tally.notes.append({"system": name, "measure": measure.name, "reason": reason})
            tally.scores.append(_score_record(name, measure, None))
            continue
        fed[name] = value
        tally.scores.append(_score_record(name, measure, slot, jobs))
    trivial_value: Any = None
    trivial = None
    if weight_reason is None:
        try:
            trivial, trivial_value = _trivial_output(
                measure, gold.y_fit, gold.fit_weight, gold.trivial_labels, read.n_items
            )
        except UndefinedMeasureError as error:
            tally.notes.append({"system": TRIVIAL, "measure": measure.name,
                                "reason": str(error)})
    trivial_slot = None
    if trivial is not None:
        tally.trivial_classes[measure.name] = trivial.trivial_class_.item()
        # One class for every item often leaves no sampling variation (a macro MAE
        # of the middle class is the same on every resample): a point, unsaid.
        trivial_slot, reason = _interval_or_reason(
            measure, gold.y_true, trivial_value, arguments, common, seed, tally.caught,
            TRIVIAL, jobs, ignore=DegenerateDataWarning)
        if reason is not None:
            tally.notes.append({"system": TRIVIAL, "measure": measure.name, "reason": reason})
            trivial_value = None
    else:
        tally.trivial_classes[measure.name] = None
    tally.scores.append(_score_record(TRIVIAL, measure, trivial_slot, jobs))
    _compare(measure, gold.systems, fed, trivial_value, gold.y_true, arguments, common,
             seed, tally, jobs)


def _interval_or_reason(measure, y_true, value, arguments, common, seed, caught, system,
                        jobs, ignore=()):
    """``(slot, None)``: the interval, started in ``jobs``; or ``(None, why)`` where
    the measure is undefined."""
    try:
        return jobs.start(
            interval_steps(measure.scorer, y_true, value, random_state=seed, **arguments,
                           **common),
            lambda: recorded_warnings(caught, system, measure.name, ignore=ignore)), None
    except UndefinedMeasureError as error:
        return None, str(error)


def _settings(report_measures, quantification, read, gold, labels, class_values,
              sample_weight, groups, confidence_level, n_resamples, methods, seed):
    """The report's settings: everything needed to reproduce it."""
    return {
        "measures": [
            {
                "name": measure.name,
                "scorer": measure.key,
                "definition": repr(measure.scorer),
                "greater_is_better": measure.greater_is_better,
                "family": measure.family,
            }
            for measure in report_measures
        ] + (quantification.measures if quantification is not None else []),
        "labels_given": labels is not None,
        "probabilities_given": read.probabilities_given,
        "class_values": None if class_values is None else np.asarray(class_values).tolist(),
        "sample_weight": sample_weight is not None,
        "groups": groups is not None,
        "n_groups": read.n_groups,
        "resampled": "groups" if read.resampled_groups else "items",
        "baseline": gold.baseline,
        "confidence_level": float(confidence_level),
        "n_resamples": int(n_resamples),
        # One method, or "mixed" (interval_methods says which measure used which).
        "interval_method": (next(iter(set(methods.values())))
                            if len(set(methods.values())) == 1 else "mixed"),
        "interval_methods": methods,
        "comparison_test": COMPARISON_TEST,
        "comparison_interval_method": COMPARISON_INTERVAL_METHOD,
        "multiple_comparisons": "holm, within each measure",
        "significance_level": _significance_level(confidence_level),
        "random_state": seed,
        "sklearn_ordinal_version": __version__,
    }


def _assemble_report(tally, report_measures, quantification, read, gold, labels,
                     class_values, sample_weight, groups, settings):
    """Step 5: the per-class, per-group and confusion tables beside the records."""
    systems, kinds, classes = gold.systems, read.kinds, gold.classes
    per_class = pd.DataFrame.from_dict(
        {
            name: _per_class(kinds[name], gold.y_true, output, classes, gold.order_known,
                             class_values, sample_weight)
            for name, output in systems.items()
        },
        orient="index",
    )
    per_class.columns = pd.MultiIndex.from_tuples(per_class.columns, names=["quantity", "class"])
    confusion_matrices = {
        name: pd.DataFrame(
            ordinal_confusion_matrix(gold.y_true, output, labels=classes,
                                     sample_weight=sample_weight),
            index=pd.Index(classes, name="true"), columns=pd.Index(classes, name="predicted"),
        )
        for name, output in systems.items() if kinds[name] == "labels"
    }
    per_group = per_group_mean = None
    if groups is not None and report_measures:
        # Every group is scored over the class set of the whole gold standard (or
        # labels=), not the classes it happens to hold: a group lacking the top class
        # must not make "within one class" easier or an extreme class disappear.
        per_group, per_group_mean = _per_group(
            report_measures, systems, kinds, read.probas, gold.y_true,
            labels if labels is not None else classes, class_values, sample_weight, groups,
        )
    if quantification is not None:
        per_group = pd.concat([per_group, quantification.per_group], axis=1)
        per_group_mean = per_group.groupby(level="system", sort=False).mean()
    calibration, diagrams = calibration_of_systems(
        gold.y_true, systems, read.probas, read.probabilities_given, labels, sample_weight)
    return EvaluationReport._from_records(
        scores=tally.scores,
        comparisons=tally.comparisons,
        per_class=per_class,
        per_group=per_group,
        per_group_mean=per_group_mean,
        notes=tally.notes,
        warnings=pd.DataFrame.from_records(tally.caught,
                                           columns=["system", "measure", "category", "message"]),
        systems=kinds,
        classes=classes,
        confusion_matrices=confusion_matrices,
        trivial_classes=tally.trivial_classes,
        settings=settings,
        calibration=calibration,
        reliability_diagrams=diagrams,
    )


def _method_of(method, measure, n_units, resampled_groups, smallest, real_valued):
    """The interval method of one measure: the one asked for, or the one ``"auto"``
    picks (:func:`~sklearn_ordinal.stats._method.auto_method`, from the coverage
    study); ``"delong"`` applies to the ranking measures on items only (BCa for the
    others)."""
    if method == "auto":
        return auto_method(measure.spec, n_units, smallest, resampled_groups, real_valued)
    if method == "delong" and (measure.family != "ranking" or resampled_groups):
        return INTERVAL_METHOD
    if method == "normal" and measure.family == "ranking" and resampled_groups:
        return INTERVAL_METHOD
    return method


def _refuse_repeated_names(names):
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"measures names {repeated} more than once.")


def _score_record(system, measure, slot=None, jobs=None):
    """A system's row of the scores: NaN where undefined (no ``slot``), else filled
    from its interval once the report's ``jobs`` have run."""
    record = {"system": system, "measure": measure.name, "estimate": np.nan,
              "low": np.nan, "high": np.nan}

    def fill():
        result = slot.value
        low, high = result.confidence_interval
        record.update(estimate=float(result.estimate), low=float(low), high=float(high))

    if slot is not None:
        jobs.then(fill)
    return record


def _compare(measure, systems, fed, trivial_value, y_true, arguments, common, seed, tally,
             jobs):
    """Every pair of systems under one measure, then every system against the trivial
    classifier, with Holm-adjusted p-values and the verdict ``better``: started in
    ``jobs``, the records added to the tally when it has run.

    The interval of the difference and its p-value come from one paired bootstrap:
    the percentile interval and the p-value of its inversion, so that the interval
    of level 1 - alpha excludes 0 exactly when the p-value is below alpha. The paired
    randomization test's p-value is kept beside them (``pvalue_randomization``).
    """
    names = [name for name in systems if name in fed]
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    outputs = dict(fed)
    if trivial_value is not None:
        outputs[TRIVIAL] = trivial_value
        pairs += [(name, TRIVIAL) for name in names]
    analytic = common["method"] in ("delong", "normal")
    # DeLong's test (or the delta method's z test) gives the interval and its p-value
    # from one variance; otherwise the paired bootstrap's percentile interval and the
    # p-value of its inversion.
    options = {**common,
               "method": common["method"] if analytic else COMPARISON_INTERVAL_METHOD}
    slots = [
        jobs.start(
            comparison_steps(measure.scorer, y_true, outputs[a], outputs[b],
                             random_state=seed, **arguments, **options),
            # A difference the same on every resample (identical predictions, two
            # constant systems) is a point interval with p = 1 or 0: the table says it.
            lambda a=a, b=b: recorded_warnings(tally.caught, f"{a} - {b}", measure.name,
                                               ignore=DegenerateDataWarning))
        for a, b in pairs
    ]
    jobs.then(lambda: tally.comparisons.extend(
        _comparison_records(measure, pairs, [slot.value for slot in slots], analytic,
                            common["confidence_level"])))


def _comparison_records(measure, pairs, results, analytic, confidence_level):
    records = []
    for (a, b), result in zip(pairs, results):
        low, high = result.confidence_interval
        records.append({
            "measure": measure.name,
            "system_a": a,
            "system_b": b,
            "estimate_a": result.estimate_a,
            "estimate_b": result.estimate_b,
            "difference": result.estimate,
            "low": float(low),
            "high": float(high),
            "pvalue": (result.pvalue if analytic
                       else percentile_interval_pvalue(result.bootstrap_distribution)),
            # The randomization test's, where the measure has one (not the ranking
            # measures: two rankers' scores share no scale to exchange them on).
            "pvalue_randomization": (result.pvalue if result.test == RANDOMIZATION
                                     else np.nan),
        })
    adjusted = holm_adjust([record["pvalue"] for record in records])
    alpha = _significance_level(confidence_level)
    for record, value in zip(records, adjusted):
        record["pvalue_holm"] = float(value)
        difference = record["difference"] * (1 if measure.greater_is_better else -1)
        # A system is named only when the difference holds after Holm's adjustment.
        if not value < alpha:
            record["better"] = NO_DIFFERENCE
        else:
            record["better"] = record["system_a"] if difference > 0 else record["system_b"]
    return records


def _significance_level(confidence_level):
    """``1 - confidence_level`` in decimal, as written: 0.05 for 0.95, where float
    subtraction gives 0.050000000000000044 (and a p-value of 0.05 would pass it)."""
    return float(1 - Decimal(repr(float(confidence_level))))




def _warn_once_per_measure(caught):
    """One warning per measure that warned, counting its warnings; the details are in
    ``report.warnings`` (``--verbose`` on the command line)."""
    if not caught:
        return
    table = pd.DataFrame.from_records(caught)
    for measure, rows in table.groupby("measure", sort=False):
        # Grouped by kind (the message without its numbers), shown with the first
        # message's own numbers: the counts, not placeholders.
        heads = rows["message"].map(_warning_head)
        kinds = rows.assign(head=heads, kind=heads.map(_warning_kind)).groupby(
            "kind", sort=False)["head"]
        summary = "; ".join(
            f"{len(group)} x {group.iloc[0]}"
            + ("" if group.nunique() == 1 else " (the first; the numbers differ)")
            for _, group in kinds
        )
        warn_user(
            f"{measure}: {len(rows)} warning(s) while resampling ({summary}); "
            "report.warnings (--verbose on the command line) lists them.",
            UserWarning,
        )


def _warning_head(message):
    """A warning's message up to its first colon or parenthesis: what happened."""
    return " ".join(message.split(":")[0].split("(")[0].split())


def _warning_kind(head):
    """A warning's head without its numbers: one kind, however many values."""
    return " ".join("N" if any(c.isdigit() for c in word) else word for word in head.split())
