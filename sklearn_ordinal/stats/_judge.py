"""A model that rates (a "judge") held against a panel of human annotators.

:func:`judge_agreement` answers the question of an annotation study that validates
an automatic rater: does the judge agree with the humans as well as the humans
agree with each other? It gathers the agreement coefficients of ``metrics`` with
their intervals (``stats``), the alternative annotator test, the judge's leniency,
its confusion with the panel's consensus and its largest disagreements into one
:class:`JudgeReport`, counting the judge's abstentions.
"""

from __future__ import annotations

import json
import os
import warnings
from numbers import Integral, Real
from typing import Any, Literal, Optional, Union, overload

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import stats

from .._compat import Interval, StrOptions, validate_params
from .._json_values import json_value
from .._validation import UndefinedMeasureError
from .._warnings import warn_user
from ..metrics._agreement_weights import WEIGHTS, agreement_weights
from ..metrics._chance_corrected import _NAMES, COEFFICIENTS
from ._alternative_annotator import (
    JUDGE_LEVELS,
    AlternativeAnnotatorTest,
    _alternative_annotator_test,
    read_panel,
)
from ._chance_corrected import agreement_interval
from ._krippendorff import krippendorff_alpha_interval
from ._resampling import DEFAULT_N_RESAMPLES

FORMAT = "sklearn_ordinal.judge"
FORMAT_VERSION = 1

# The coefficient's weights when none are given: the level's reading of the values.
_DEFAULT_WEIGHTS = {"nominal": "identity", "ordinal": "ordinal", "interval": "quadratic"}


def _consensus(counts, level):
    """Each unit's consensus of the annotators in ``counts`` ``(..., n_units, K)``: the
    lower median value (the most frequent, the lowest of ties, at the nominal
    level); ``K`` where no annotator rated the unit."""
    k = counts.shape[-1]
    rated = counts.sum(axis=-1)
    if level == "nominal":
        consensus = counts.argmax(axis=-1)
    else:
        # The lower median: the first value whose cumulative count reaches half.
        cumulative = np.cumsum(counts, axis=-1)
        consensus = (cumulative < ((rated + 1) // 2)[..., np.newaxis]).sum(axis=-1)
    return np.where(rated > 0, consensus, k)


def _shown(value):
    """A value as the report shows it: whole numbers without their ``.0``."""
    value = json_value(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _as_data(codes, classes):
    """Ratings in ``classes`` with None where ``codes`` is ``K``: what the coefficients
    read (with ``labels=classes``, so that every comparison shares one scale)."""
    return _padded(classes)[codes]


def _padded(classes):
    """The values as objects, with None after the last (what the code ``K`` reads)."""
    padded = np.empty(len(classes) + 1, dtype=object)
    padded[:-1] = classes
    return padded


class JudgeReport:
    """A judge held against a panel of annotators, as :func:`judge_agreement` returns it.

    Parameters
    ----------
    agreement, alternative_annotator_test, leniency, confusion_matrix, disagreements, \
n_units, abstained_units, classes, settings, notes : object
        The parts, as the attributes below say; :func:`judge_agreement` builds them.

    Attributes
    ----------
    agreement : pandas.DataFrame
        One row per comparison (``comparison``, ``raters``, ``n_units``) with
        Krippendorff's alpha and the chosen coefficient and their interval ends
        (``alpha``, ``alpha_low``, ``alpha_high``, ``coefficient``,
        ``coefficient_low``, ``coefficient_high``). Comparisons: ``panel`` (the
        annotators among themselves), ``panel + judge``, ``judge vs consensus``
        (the judge against the panel's consensus), and for each annotator ``a``:
        ``a vs rest`` (``a`` against the consensus of the others) beside
        ``judge vs rest of a`` (the judge against that same consensus), the fair
        comparison of the judge with each human (both on the units that the
        annotator and the judge rated).
    alternative_annotator_test : AlternativeAnnotatorTest or None
        None when it could not be run (see ``notes``).
    leniency : pandas.DataFrame
        The mean signed difference of each rater (the judge, then each annotator)
        from the mean of the other annotators' ratings, in the values' units
        (positions at the ordinal level), with a t interval: positive is lenient.
    confusion_matrix : pandas.DataFrame
        Units by the panel's consensus (rows) and the judge's rating (columns).
    disagreements : pandas.DataFrame
        The units of largest disagreement between the judge and the panel.
    n_units, n_abstentions : int
        Units, and units the judge left unrated (kept out of every comparison
        with the judge, never dropped silently: ``abstained_units`` names them).
    abstained_units : list
    classes : numpy.ndarray
        The values in order.
    settings : dict
        ``level``, ``coefficient``, ``weights``, ``confidence_level``,
        ``method``, ``n_resamples``, ``random_state``, ``epsilon``, ``q``,
        ``min_units``, ``judge``, ``annotators``.
    notes : list of str
        Abstentions, comparisons that warned (once each), a test not run.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ordinal.stats import judge_agreement
    >>> panel = [[1, 2, 3, 2, 1, 3], [1, 2, 3, 3, 1, 3], [2, 2, 3, 2, 1, 3]]
    >>> report = judge_agreement(panel, [1, 2, np.nan, 2, 1, 3], n_resamples=99,
    ...                         random_state=0)
    >>> report.n_abstentions, report.abstained_units
    (1, [2])
    """

    def __init__(self, *, agreement: pd.DataFrame,
                 alternative_annotator_test: Optional[AlternativeAnnotatorTest],
                 leniency: pd.DataFrame, confusion_matrix: pd.DataFrame,
                 disagreements: pd.DataFrame, n_units: int, abstained_units: list,
                 classes: np.ndarray, settings: dict, notes: list) -> None:
        self.agreement = agreement
        self.alternative_annotator_test = alternative_annotator_test
        self.leniency = leniency
        self.confusion_matrix = confusion_matrix
        self.disagreements = disagreements
        self.n_units = n_units
        self.abstained_units = abstained_units
        self.n_abstentions = len(abstained_units)
        self.classes = classes
        self.settings = settings
        self.notes = notes

    def __repr__(self) -> str:
        test = self.alternative_annotator_test
        verdict = "not run" if test is None else (
            f"winning rate {test.winning_rate:.2f}, {'passed' if test.passed else 'failed'}")
        return (f"<JudgeReport: {self.settings['judge']} against "
                f"{len(self.settings['annotators'])} annotators, {self.n_units} units, "
                f"{self.n_abstentions} abstentions; alternative annotator test {verdict}>")

    def __str__(self) -> str:
        return self.to_string()

    def to_frame(self) -> pd.DataFrame:
        """The agreement table, one row per comparison.

        Returns
        -------
        frame : pandas.DataFrame
            The ``agreement`` table (a copy).

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn_ordinal.stats import judge_agreement
        >>> rng = np.random.default_rng(0)
        >>> truth = rng.integers(1, 6, size=60)
        >>> panel = np.clip(truth + rng.integers(-1, 2, size=(3, 60)), 1, 5)
        >>> report = judge_agreement(panel, truth, n_resamples=199, random_state=0)
        >>> report.to_frame()["comparison"].tolist()[:3]
        ['panel', 'panel + judge', 'judge vs consensus']
        """
        return self.agreement.copy()

    def to_dict(self) -> dict[str, Any]:
        """Everything in the report as plain Python data (the content of :meth:`to_json`).

        Returns
        -------
        content : dict
            Keys ``format``, ``format_version``, ``classes``, ``settings``,
            ``n_units``, ``n_abstentions``, ``abstained_units``, ``agreement``,
            ``alternative_annotator_test``, ``leniency``, ``confusion_matrix``,
            ``disagreements``, ``notes``; NaN as None.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn_ordinal.stats import judge_agreement
        >>> panel = [[1, 2, 3, 2, 1, 3], [1, 2, 3, 3, 1, 3], [2, 2, 3, 2, 1, 3]]
        >>> report = judge_agreement(panel, [1, 2, np.nan, 2, 1, 3], n_resamples=99,
        ...                         random_state=0)
        >>> report.to_dict()["n_abstentions"]
        1
        """
        def records(frame):
            return [{key: json_value(value) for key, value in row.items()}
                    for row in frame.to_dict("records")]

        test = self.alternative_annotator_test
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "classes": [json_value(value) for value in self.classes.tolist()],
            "settings": self.settings,
            "n_units": self.n_units,
            "n_abstentions": self.n_abstentions,
            "abstained_units": [json_value(unit) for unit in self.abstained_units],
            "agreement": records(self.agreement),
            "alternative_annotator_test": None if test is None else {
                "winning_rate": test.winning_rate,
                "advantage_probability": test.advantage_probability,
                "passed": test.passed, "epsilon": test.epsilon, "q": test.q,
                "scoring": test.scoring,
                "per_annotator": records(test.per_annotator.reset_index()),
            },
            "leniency": records(self.leniency.reset_index()),
            "confusion_matrix": [
                {"consensus": json_value(row), "judge": json_value(column), "count": int(count)}
                for row, counts in self.confusion_matrix.iterrows()
                for column, count in counts.items()
            ],
            "disagreements": records(self.disagreements),
            "notes": list(self.notes),
        }

    @overload
    def to_json(self, path: None = None, *, indent: Optional[int] = ...) -> str: ...

    @overload
    def to_json(self, path: Union[str, os.PathLike[str]], *,
                indent: Optional[int] = ...) -> None: ...

    def to_json(self, path: Union[str, os.PathLike[str], None] = None, *,
                indent: Optional[int] = 2) -> Optional[str]:
        """The whole report as JSON (see :meth:`to_dict` for the keys).

        Parameters
        ----------
        path : str or path object, default=None
            File to write; None returns the text.
        indent : int or None, default=2
            Spaces per level of nesting; None writes one line.

        Returns
        -------
        text : str or None
            The JSON text when ``path`` is None.

        Examples
        --------
        >>> import json
        >>> import numpy as np
        >>> from sklearn_ordinal.stats import judge_agreement
        >>> panel = [[1, 2, 3, 2, 1, 3], [1, 2, 3, 3, 1, 3], [2, 2, 3, 2, 1, 3]]
        >>> report = judge_agreement(panel, [1, 2, 3, 2, 1, 3], n_resamples=99,
        ...                         random_state=0)
        >>> json.loads(report.to_json())["settings"]["level"]
        'ordinal'
        """
        text = json.dumps(self.to_dict(), indent=indent, allow_nan=False)
        if path is None:
            return text
        with open(path, "w", encoding="utf-8") as file:
            file.write(text + "\n")
        return None

    def to_string(self, *, digits: int = 3) -> str:
        """The report as plain text.

        Parameters
        ----------
        digits : int, default=3
            Decimals of the coefficients.

        Returns
        -------
        text : str
            The agreement table, the test, the leniency, the confusion matrix,
            the largest disagreements and the notes.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn_ordinal.stats import judge_agreement
        >>> panel = [[1, 2, 3, 2, 1, 3], [1, 2, 3, 3, 1, 3], [2, 2, 3, 2, 1, 3]]
        >>> report = judge_agreement(panel, [1, 2, 3, 2, 1, 3], n_resamples=99,
        ...                         random_state=0)
        >>> print(report.to_string().splitlines()[0])
        judge against a panel of 3 annotators: 6 units, 0 abstentions
        """
        settings = self.settings

        def number(value):
            return "n/a" if value is None or np.isnan(value) else f"{value:.{digits}f}"

        def interval(low, high):
            return "" if np.isnan(low) else f"[{number(low)}, {number(high)}]"

        coefficient = _NAMES[settings["coefficient"]]
        lines = [
            f"{settings['judge']} against a panel of {len(settings['annotators'])} "
            f"annotators: {self.n_units} units, {self.n_abstentions} abstentions",
            f"level {settings['level']}; {coefficient} with {settings['weights']} weights; "
            f"{settings['confidence_level']:.0%} intervals",
            "",
            "Agreement",
        ]
        width = max(len(name) for name in self.agreement["comparison"])
        lines.append(f"  {'':<{width}}  {'units':>5}  {'alpha':>{digits + 3}}  "
                     f"{'interval':<{2 * digits + 10}}  {'coef.':>{digits + 3}}  interval")
        for row in self.agreement.itertuples():
            lines.append(
                f"  {row.comparison:<{width}}  {row.n_units:>5}  {number(row.alpha):>{digits + 3}}"
                f"  {interval(row.alpha_low, row.alpha_high):<{2 * digits + 10}}"
                f"  {number(row.coefficient):>{digits + 3}}  "
                f"{interval(row.coefficient_low, row.coefficient_high)}")
        test = self.alternative_annotator_test
        lines += ["", "Alternative annotator test (Calderon et al. 2025)"]
        if test is None:
            lines.append("  not run (see the notes)")
        else:
            lines.append(
                f"  winning rate {test.winning_rate:.2f} ({'passed' if test.passed else 'failed'}: "
                f"at least 0.5 passes), advantage probability "
                f"{test.advantage_probability:.2f}; epsilon {test.epsilon}, "
                f"{test.scoring}, Benjamini-Yekutieli at q = {test.q}")
        lines += ["", "Leniency (mean signed difference from the other annotators' mean; "
                      "positive = lenient)"]
        for name, row in self.leniency.iterrows():
            lines.append(f"  {str(name):<{width}}  {number(row['leniency']):>{digits + 4}}  "
                         f"{interval(row['low'], row['high'])}")
        lines += ["", "Confusion: panel consensus (rows) x judge (columns)",
                  *("  " + line for line in self.confusion_matrix.to_string().splitlines())]
        if len(self.disagreements):
            lines += ["", "Largest disagreements",
                      *("  " + line for line in
                        self.disagreements.to_string(index=False).splitlines())]
        lines += [""] + [f"Note: {note}" for note in self.notes]
        return "\n".join(lines).rstrip() + "\n"


def _comparison(name, raters, data, classes, settings, rng_seed, notes):
    """One agreement row: alpha and the coefficient of ``data`` with their intervals;
    their warnings become the report's notes (each said once)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        row = _measured(name, raters, data, classes, settings, rng_seed)
    for warning in caught:
        note = f"{name}: {warning.message}"
        if note not in notes:
            notes.append(note)
    return row


def _measured(name, raters, data, classes, settings, rng_seed):
    level, coefficient = settings["level"], settings["coefficient"]
    row = {"comparison": name, "raters": raters,
           "n_units": int((pd.notna(data).sum(axis=0) >= 2).sum())}
    labels = classes
    try:
        alpha = krippendorff_alpha_interval(
            data, level=level, labels=labels, confidence_level=settings["confidence_level"],
            n_resamples=settings["n_resamples"],
            method=settings["method"] if settings["method"] != "normal" else "bca",
            random_state=rng_seed)
        row.update(alpha=alpha.estimate, alpha_low=alpha.confidence_interval.low,
                   alpha_high=alpha.confidence_interval.high)
    except (UndefinedMeasureError, ValueError):
        row.update(alpha=np.nan, alpha_low=np.nan, alpha_high=np.nan)
    try:
        value = agreement_interval(
            data, coefficient=coefficient, weights=settings["weights_matrix"], labels=labels,
            confidence_level=settings["confidence_level"], method=settings["method"],
            n_resamples=settings["n_resamples"], random_state=rng_seed)
        row.update(coefficient=value.estimate, coefficient_low=value.confidence_interval.low,
                   coefficient_high=value.confidence_interval.high)
    except (UndefinedMeasureError, ValueError):
        row.update(coefficient=np.nan, coefficient_low=np.nan, coefficient_high=np.nan)
    return row


def _leniency(data, level, confidence_level):
    """Each rater's mean signed difference from the mean of the other annotators."""
    values = np.append(data.values(level), np.nan)
    panel = values[data.panel]
    present = ~np.isnan(panel)
    total = np.nansum(panel, axis=0)
    rated = present.sum(axis=0)
    rows = {}
    raters = [(data.judge_name, values[data.judge], total, rated)]
    raters += [(name, panel[index], total - np.nan_to_num(panel[index]),
                rated - present[index]) for index, name in enumerate(data.annotators)]
    for name, own, others_total, others in raters:
        with np.errstate(divide="ignore", invalid="ignore"):
            difference = own - others_total / others
        difference = difference[np.isfinite(difference)]
        n = len(difference)
        mean = float(difference.mean()) if n else np.nan
        low = high = np.nan
        if n > 1:
            half = (stats.t.ppf(1 - (1 - confidence_level) / 2, n - 1)
                    * difference.std(ddof=1) / np.sqrt(n))
            low, high = mean - half, mean + half
        rows[name] = {"leniency": mean, "low": low, "high": high, "n_units": n}
    return pd.DataFrame.from_dict(rows, orient="index")


@validate_params(
    {
        "panel": ["array-like"],
        "judge": ["array-like", str],
        "labels": ["array-like", None],
        "level": [StrOptions(set(JUDGE_LEVELS))],
        "coefficient": [StrOptions(set(COEFFICIENTS))],
        "weights": [StrOptions(set(WEIGHTS)), "array-like", None],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "method": [StrOptions({"normal", "bca", "percentile", "basic"})],
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "epsilon": [Interval(Real, 0, 1, closed="both")],
        "q": [Interval(Real, 0, 1, closed="neither")],
        "min_units": [Interval(Integral, 2, None, closed="left")],
        "n_disagreements": [Interval(Integral, 0, None, closed="left")],
        "random_state": [Interval(Integral, 0, None, closed="left"), None],
    },
    prefer_skip_nested_validation=True,
)
def judge_agreement(
    panel: ArrayLike,
    judge: Union[ArrayLike, str],
    *,
    labels: Optional[ArrayLike] = None,
    level: Literal["nominal", "ordinal", "interval"] = "ordinal",
    coefficient: Literal["gwet_ac", "fleiss_kappa", "conger_kappa", "brennan_prediger",
                         "percent_agreement"] = "gwet_ac",
    weights: Union[str, ArrayLike, None] = None,
    confidence_level: float = 0.95,
    method: Literal["normal", "bca", "percentile", "basic"] = "bca",
    n_resamples: int = DEFAULT_N_RESAMPLES,
    epsilon: float = 0.2,
    q: float = 0.05,
    min_units: int = 30,
    n_disagreements: int = 10,
    random_state: Optional[int] = None,
) -> JudgeReport:
    """Hold a judge (a model that rates) against a panel of human annotators.

    Does the judge agree with the humans as well as they agree with each other?
    The report gathers, on one scale (``labels``, or the values' own order):

    - **agreement**: Krippendorff's alpha at ``level`` and ``coefficient`` (with
      ``weights``) with their intervals, for the panel among itself, the panel
      with the judge, the judge against the panel's consensus, and for each
      annotator the fair pair: the annotator against the consensus of the others,
      and the judge against that same consensus on the same units. The consensus of a unit is the
      lower median of its ratings (the most frequent value at the nominal level);
    - the **alternative annotator test** (:func:`alternative_annotator_test`);
    - the judge's **leniency**: its mean signed difference from the mean rating of
      the panel (each annotator's from the others', for comparison), with a
      t interval;
    - the **confusion matrix** of the panel's consensus against the judge, and the
      ``n_disagreements`` units where the judge is farthest from the panel's mean;
    - the judge's **abstentions** (missing ratings): counted, named, and kept out
      of the comparisons with the judge.

    Parameters
    ----------
    panel : array-like of shape (n_annotators, n_units)
        The annotators' ratings, one row per annotator (at least two), missing
        allowed, as for :func:`~sklearn_ordinal.metrics.krippendorff_alpha`.
    judge : array-like of shape (n_units,) or str
        The judge's ratings (missing where it abstained), or the name of a row of
        a DataFrame ``panel``.
    labels : array-like of shape (n_values,), default=None
        Every possible value, lowest first.
    level : {"nominal", "ordinal", "interval"}, default="ordinal"
        Alpha's level, the alternative annotator test's scoring (accuracy at the
        nominal level, RMSE otherwise) and the consensus.
    coefficient : str, default="gwet_ac"
        The chance-corrected coefficient reported beside alpha (a name of
        :func:`~sklearn_ordinal.stats.agreement_interval`).
    weights : str or array-like, default=None
        The coefficient's weights; None: identity at the nominal level, Gwet's
        ordinal at the ordinal level, quadratic at the interval level.
    confidence_level : float, default=0.95
        Of every interval.
    method : {"normal", "bca", "percentile", "basic"}, default="bca"
        The coefficient's interval (alpha's is always a bootstrap: BCa when
        ``"normal"``).
    n_resamples : int, default=9999
        Bootstrap resamples of the units.
    epsilon, q : float, default=0.2, 0.05
        The alternative annotator test's margin and false discovery rate.
    min_units : int, default=30
        The test's fewest units per annotator.
    n_disagreements : int, default=10
        Units listed among the largest disagreements.
    random_state : int or None, default=None
        Seeds every resampling (the same seed gives the same numbers).

    Returns
    -------
    report : JudgeReport
        With ``to_string``, ``to_frame`` and ``to_json``.

    Raises
    ------
    ValueError
        Fewer than two annotators; a judge with no rating, of the wrong length or
        named but absent; ratings outside ``labels``; weights of the wrong shape.

    See Also
    --------
    sklearn_ordinal.stats.alternative_annotator_test
    sklearn_ordinal.stats.agreement_interval
    sklearn_ordinal.stats.krippendorff_alpha_interval

    References
    ----------
    .. [1] N. Calderon, R. Reichart and R. Dror, "The Alternative Annotator Test
       for LLM-as-a-Judge", ACL 2025.
    .. [2] K. L. Gwet, "Handbook of Inter-Rater Reliability", 4th edition, 2014.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ordinal.stats import judge_agreement
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(1, 6, size=120)
    >>> panel = np.clip(truth + rng.integers(-1, 2, size=(4, 120)), 1, 5)
    >>> lenient = np.clip(truth + 1, 1, 5).astype(float)
    >>> lenient[:5] = np.nan  # five abstentions
    >>> report = judge_agreement(panel, lenient, n_resamples=199, random_state=0)
    >>> report.n_abstentions
    5
    >>> bool(report.leniency.loc["judge", "low"] > 0)
    True
    """
    data = read_panel(panel, judge, labels, level)
    k = data.n_values
    classes = data.classes
    if weights is None:
        weights = _DEFAULT_WEIGHTS[level]
    # The weights are checked once here (shape, values), against the whole scale.
    matrix = agreement_weights(weights, classes, data.ordered)
    settings = {
        "level": level, "coefficient": coefficient,
        "weights": weights if isinstance(weights, str) else "custom",
        "weights_matrix": matrix, "confidence_level": confidence_level,
        "method": method, "n_resamples": n_resamples, "random_state": random_state,
        "epsilon": epsilon, "q": q, "min_units": min_units,
        "judge": str(data.judge_name), "annotators": [str(name) for name in data.annotators],
    }
    notes = []
    abstained = data.judge == k
    abstained_units = [data.units[index] for index in np.flatnonzero(abstained)]
    if abstained.any():
        notes.append(
            f"the judge abstained on {int(abstained.sum())} of {len(data.judge)} units "
            f"(missing ratings); they are left out of every comparison with the judge.")
    counts = data.counts()
    consensus = _consensus(counts, level)
    # Leave-one-out counts: each annotator's own rating taken out of its units'.
    one_hot = (data.panel[:, :, np.newaxis] == np.arange(k)).astype(counts.dtype)
    rest_consensus = _consensus(counts[np.newaxis] - one_hot, level)
    rows = [
        _comparison("panel", "annotators", _as_data(data.panel, classes), classes, settings,
                    random_state, notes),
        _comparison("panel + judge", "annotators and judge",
                    _as_data(np.vstack([data.panel, data.judge]), classes), classes,
                    settings, random_state, notes),
        _comparison("judge vs consensus", "judge, panel consensus",
                    _as_data(np.vstack([data.judge, consensus]), classes), classes, settings,
                    random_state, notes),
    ]
    for index, name in enumerate(data.annotators):
        # Both rows on the units that the annotator and the judge rated: the same units.
        annotator_there = np.where(data.judge < k, data.panel[index], k)
        judge_there = np.where(data.panel[index] < k, data.judge, k)
        rows.append(_comparison(f"{name} vs rest", f"{name}, consensus of the others",
                                _as_data(np.vstack([annotator_there, rest_consensus[index]]),
                                         classes), classes, settings, random_state, notes))
        rows.append(_comparison(f"judge vs rest of {name}", "judge, same consensus",
                                _as_data(np.vstack([judge_there, rest_consensus[index]]),
                                         classes), classes, settings, random_state, notes))
    agreement = pd.DataFrame(rows)
    test = None
    try:
        test = _alternative_annotator_test(data, level, epsilon, q, min_units)
    except ValueError as error:
        notes.append(f"alternative annotator test not run: {error}")
    both = (~abstained) & (consensus < k)
    confusion = np.bincount(consensus[both] * k + data.judge[both],
                            minlength=k * k).reshape(k, k)
    shown = [_shown(value) for value in classes.tolist()]
    confusion_matrix = pd.DataFrame(confusion, index=pd.Index(shown, name="consensus"),
                                    columns=pd.Index(shown, name="judge"))
    values = np.append(data.values(level), np.nan)
    panel_values = values[data.panel]
    rated_values = ~np.isnan(panel_values)
    with np.errstate(divide="ignore", invalid="ignore"):
        panel_mean = (np.nansum(panel_values, axis=0) / rated_values.sum(axis=0))
    if level == "nominal":
        # The share of the panel's ratings that differ from the judge's.
        rated = counts.sum(axis=1)
        agreeing = np.append(counts, np.zeros((len(counts), 1), dtype=counts.dtype),
                             axis=1)[np.arange(len(counts)), data.judge]
        with np.errstate(divide="ignore", invalid="ignore"):
            distance = 1 - agreeing / rated
    else:
        distance = np.abs(values[data.judge] - panel_mean)
    candidates = np.flatnonzero(both & np.isfinite(distance))
    order = candidates[np.argsort(-distance[candidates], kind="stable")][:n_disagreements]
    padded = _padded(classes)
    disagreements = pd.DataFrame({
        "unit": [data.units[index] for index in order],
        "judge": [_shown(padded[data.judge[index]]) for index in order],
        "consensus": [_shown(padded[consensus[index]]) for index in order],
        "panel": [", ".join(str(_shown(padded[code])) for code in data.panel[:, index]
                            if code < k) for index in order],
        "distance": distance[order],
    })
    if level == "nominal":
        # Unordered values have no "higher": no leniency to measure.
        leniency = pd.DataFrame(columns=["leniency", "low", "high", "n_units"], dtype=float)
        notes.append("no leniency at the nominal level: the values have no order.")
    else:
        leniency = _leniency(data, level, confidence_level)
    if not both.any():
        warn_user("The judge rated no unit that the panel rated; every comparison with the "
                  "judge is undefined.", UserWarning)
    return JudgeReport(
        agreement=agreement, alternative_annotator_test=test,
        leniency=leniency,
        confusion_matrix=confusion_matrix, disagreements=disagreements,
        n_units=len(data.judge), abstained_units=abstained_units, classes=classes,
        settings={key: value for key, value in settings.items() if key != "weights_matrix"},
        notes=notes)
