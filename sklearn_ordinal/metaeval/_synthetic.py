"""The synthetic ordinal task of Amigó et al. (2020), section 5.3.

A gold standard of many test cases drawn from a rounded normal distribution, and
systems that copy it except on a ratio of items, where they make one of five kinds
of mistake. The systems trade the reference metrics off against each other, which
is what the coverage meta-evaluation needs.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt
from sklearn.utils import Bunch, check_random_state

from .._compat import Interval, StrOptions, validate_params
from ..metrics._scorer import _one_number
from ._batched import _batched_form, _score_batched
from ._measures import _as_measure

MISTAKE_KINDS = ("random", "proximity", "majority", "tag_displacement", "ordinal_displacement")
DISPLACEMENT_OVERFLOWS = ("keep_gold", "last_class")


def _gold_ordering(y_true, order):
    """``(sorted_gold, position)``: each test case's gold classes in the order ``order``
    (the paper's ``ord(d)``: items sorted by gold class, ties in random order) and the
    position of each item in it."""
    n_test_cases, n_items = y_true.shape
    rows = np.arange(n_test_cases)[:, np.newaxis]
    position = np.empty_like(order)
    position[rows, order] = np.arange(n_items)
    return y_true[rows, order], position


def _mistakes(kind, y_true, sorted_gold, position, n_classes, rng, displacement_overflow):
    """The label a system of this kind puts on each item when it errs on it.

    ``sorted_gold`` and ``position`` are :func:`_gold_ordering` of ``y_true``.
    """
    n_test_cases, n_items = y_true.shape
    if kind == "majority":
        # One bincount for all test cases: each gets its own block of class counts.
        offset = (n_classes + 1) * np.arange(n_test_cases)[:, np.newaxis]
        counts = np.bincount((y_true + offset).ravel(), minlength=offset[-1, 0] + n_classes + 1)
        majority = counts.reshape(n_test_cases, n_classes + 1).argmax(axis=1)
        return np.broadcast_to(majority[:, np.newaxis], y_true.shape)
    if kind == "random":
        return rng.randint(1, n_classes + 1, size=y_true.shape)
    if kind == "tag_displacement":
        return np.minimum(y_true + 1, n_classes)
    if kind == "ordinal_displacement":
        target = position + int(round(n_items / 10))
        if displacement_overflow == "keep_gold":
            # The paper's formula names no item past the last one: no mistake is
            # defined there, so the item keeps its own position, hence its gold class.
            target = np.where(target < n_items, target, position)
        else:
            target = np.minimum(target, n_items - 1)
    else:  # proximity: halfway (in items) between the gold and a random position
        target = (position + rng.randint(0, n_items, size=y_true.shape)) // 2
    return sorted_gold[np.arange(n_test_cases)[:, np.newaxis], target]


@validate_params(
    {
        "n_test_cases": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_items": [Interval(numbers.Integral, 2, None, closed="left")],
        "n_classes": [Interval(numbers.Integral, 2, None, closed="left")],
        "mean": [Interval(numbers.Real, None, None, closed="neither")],
        "std_range": [tuple],
        "error_ratios": ["array-like"],
        "kinds": [list, tuple, StrOptions(set(MISTAKE_KINDS))],
        "displacement_overflow": [StrOptions(set(DISPLACEMENT_OVERFLOWS))],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_synthetic_ordinal_task(
    n_test_cases: int = 100,
    n_items: int = 200,
    n_classes: int = 11,
    *,
    mean: float = 4.0,
    std_range: tuple[float, float] = (1.0, 3.0),
    error_ratios: npt.ArrayLike = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
    kinds: str | Sequence[str] = MISTAKE_KINDS,
    displacement_overflow: Literal["keep_gold", "last_class"] = "keep_gold",
    random_state: int | np.random.RandomState | None = None,
) -> Bunch:
    """Gold standard and synthetic systems of the CEM paper's section 5.3.

    The gold class of each item is a draw from a normal distribution with mean
    ``mean``, rounded to the closest class in ``1..n_classes``; the standard
    deviation goes evenly from ``std_range[0]`` to ``std_range[1]`` across the
    test cases, so they range from imbalanced to flatter. Each system copies the
    gold standard except on a ratio ``r`` of the items of every test case (chosen
    at random), where it makes one kind of mistake:

    - ``"majority"``: the most frequent gold class of the test case;
    - ``"random"``: a class drawn uniformly from ``1..n_classes``;
    - ``"tag_displacement"``: the next class, ``g(d) + 1`` (the top class stays);
    - ``"ordinal_displacement"``: the gold class of the item ``n_items / 10``
      positions further in the items sorted by gold class (ties in random order);
      the top ``n_items / 10`` items have no such item, see
      ``displacement_overflow``;
    - ``"proximity"``: the gold class of the item halfway between the item and a
      uniformly random position in that sorting.

    There is one system per kind and error ratio: ``5 x 10 = 50`` by default.
    Where the paper is silent (how the standard deviation varies, which items
    err, rounding of positions, the top of the ordering), the choices above are this
    package's.

    Parameters
    ----------
    n_test_cases : int, default=100
        Number of test cases (topics).
    n_items : int, default=200
        Number of items per test case.
    n_classes : int, default=11
        The classes are ``1, ..., n_classes``.
    mean : float, default=4.0
        Mean of the normal distribution of the gold classes.
    std_range : tuple of two floats, default=(1.0, 3.0)
        Smallest and largest standard deviation across the test cases.
    error_ratios : array-like of float, default=(0.1, ..., 1.0)
        Ratios of items on which the systems err.
    kinds : str, list or tuple of str, default=all five kinds
        Kinds of mistake, among ``"random"``, ``"proximity"``, ``"majority"``,
        ``"tag_displacement"``, ``"ordinal_displacement"``.
    displacement_overflow : {"keep_gold", "last_class"}, default="keep_gold"
        What an ordinal-displacement system outputs for the items in the top
        ``n_items / 10`` positions of the ordering, for which the paper's
        :math:`s_{oDisp}(d) = g(d' : ord(d') = ord(d) + n/10)` names no item
        :math:`d'`. ``"keep_gold"``: no mistake is defined, so they keep their gold
        class (the literal reading, and the one closer to the paper's Table 3);
        ``"last_class"``: they get the gold class of the last item, the highest one.
    random_state : int, RandomState instance or None, default=None
        Seed of the gold standard and of the systems' mistakes.

    Returns
    -------
    task : :class:`~sklearn.utils.Bunch`
        With attributes:

        y_true : ndarray of shape (n_test_cases, n_items)
            Gold classes.
        y_pred : ndarray of shape (n_systems, n_test_cases, n_items)
            Each system's output.
        kind : ndarray of shape (n_systems,)
            Kind of mistake of each system.
        error_ratio : ndarray of shape (n_systems,)
            Ratio of items each system errs on.
        classes : ndarray of shape (n_classes,)
            ``1, ..., n_classes``.

    See Also
    --------
    score_systems : Score every system on every test case with a metric.
    coverage : The meta-evaluation these systems are built for.

    References
    ----------
    .. [1] E. Amigó, J. Gonzalo, S. Mizzaro and J. Carrillo-de-Albornoz, "An
       effectiveness metric for ordinal classification: formal properties and
       experimental results", Proc. ACL 2020, section 5.3.

    Examples
    --------
    >>> from sklearn_ordinal.metaeval import make_synthetic_ordinal_task
    >>> task = make_synthetic_ordinal_task(n_test_cases=4, n_items=50, random_state=0)
    >>> task.y_true.shape, task.y_pred.shape
    ((4, 50), (50, 4, 50))
    >>> print(task.kind[0], task.error_ratio[0])
    random 0.1
    >>> float((task.y_pred[0] != task.y_true).mean()) <= 0.1
    True
    """
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    not_names = [kind for kind in kinds if not isinstance(kind, str)]
    if not_names:
        # [["random"]] would reach set() and fail as "unhashable type: 'list'".
        raise ValueError(
            f"kinds must be a flat list of kind names from {MISTAKE_KINDS}; got "
            f"{not_names[0]!r} among them. Pass e.g. kinds=['random', 'proximity']."
        )
    unknown = sorted(set(kinds) - set(MISTAKE_KINDS))
    if unknown or not kinds:
        raise ValueError(f"kinds must be a non-empty subset of {MISTAKE_KINDS}; got {kinds}.")
    error_ratios = np.asarray(error_ratios, dtype=np.float64).ravel()
    if error_ratios.size == 0 or not ((error_ratios >= 0) & (error_ratios <= 1)).all():
        raise ValueError(f"error_ratios must be numbers in [0, 1]; got {error_ratios.tolist()}.")
    if not (
        len(std_range) == 2
        and all(isinstance(std, numbers.Real) and np.isfinite(std) for std in std_range)
        and 0 < std_range[0] <= std_range[1]
    ):
        raise ValueError(
            "std_range must be (smallest, largest) finite positive standard deviations; "
            f"got {std_range}."
        )
    rng = check_random_state(random_state)
    std = np.linspace(std_range[0], std_range[1], n_test_cases)
    draws = rng.normal(mean, std[:, np.newaxis], size=(n_test_cases, n_items))
    y_true = np.clip(np.rint(draws), 1, n_classes).astype(np.int64)
    # Adding noise below 1/2 to integer classes sorts ties in random order.
    order = np.argsort(y_true + rng.uniform(0, 0.5, size=y_true.shape), axis=1, kind="stable")

    sorted_gold, position = _gold_ordering(y_true, order)

    y_pred = np.empty((len(kinds) * len(error_ratios),) + y_true.shape, dtype=y_true.dtype)
    kind_of, ratio_of = np.repeat(kinds, len(error_ratios)), np.tile(error_ratios, len(kinds))
    fixed = {}  # the mistakes that draw nothing are the same at every ratio
    for system, (kind, ratio) in enumerate(zip(kind_of, ratio_of)):
        n_errors = int(round(ratio * n_items))
        draws = rng.random_sample(y_true.shape)
        if kind in ("random", "proximity"):
            mistakes = _mistakes(kind, y_true, sorted_gold, position, n_classes, rng,
                                 displacement_overflow)
        elif kind not in fixed:
            mistakes = fixed[kind] = _mistakes(kind, y_true, sorted_gold, position, n_classes,
                                               rng, displacement_overflow)
        else:
            mistakes = fixed[kind]
        np.copyto(y_pred[system], y_true)
        if n_errors:
            # The items of the n_errors lowest draws: those at most the n_errors-th
            # smallest draw of their test case (a partition, no full sort; two equal
            # draws of 53 random bits, which would add an item, are not to be met).
            kth = np.partition(draws, n_errors - 1, axis=1)[:, n_errors - 1, np.newaxis]
            np.copyto(y_pred[system], mistakes, where=draws <= kth)
    return Bunch(
        y_true=y_true,
        y_pred=y_pred,
        kind=kind_of,
        error_ratio=ratio_of,
        classes=np.arange(1, n_classes + 1),
    )


@overload
def score_systems(
    metric: Callable[..., Any], y_true: npt.ArrayLike, y_pred: npt.ArrayLike
) -> npt.NDArray[np.float64]: ...


@overload
def score_systems(
    metric: Mapping[str, Callable[..., Any]], y_true: npt.ArrayLike, y_pred: npt.ArrayLike
) -> dict[str, npt.NDArray[np.float64]]: ...


def score_systems(
    metric: Callable[..., Any] | Mapping[str, Callable[..., Any]],
    y_true: npt.ArrayLike,
    y_pred: npt.ArrayLike,
) -> npt.NDArray[np.float64] | dict[str, npt.NDArray[np.float64]]:
    """Score every system on every test case with one metric (or several).

    A label measure of this package (or a scorer of one) is computed for all the
    pairs at once: their confusion matrices are counted in one pass and the measure
    is one NumPy computation over the stack of matrices. The result is exactly that
    of calling the measure on each (system, test case) in turn, the class set of
    each pair included, but a warning about undefined cases comes once, saying in
    how many pairs they arose. Any other callable is called once per pair.

    Parameters
    ----------
    metric : callable, scorer, or dict of them
        ``metric(y_true, y_pred) -> float``, or a scorer of this package (from
        :func:`~sklearn_ordinal.metrics.get_scorer` or
        :func:`~sklearn_ordinal.metrics.make_ordinal_scorer`), whose measure is
        used on its greater-is-better scale (an error scorer gives minus the error).
        A dict ``{name: metric}`` scores them all, counting the matrices once.
    y_true : array-like of shape (n_test_cases, n_items)
        Gold labels of each test case.
    y_pred : array-like of shape (n_systems, n_test_cases, n_items)
        Each system's output.

    Returns
    -------
    scores : ndarray of shape (n_systems, n_test_cases), or dict of them
        ``metric(y_true[t], y_pred[s, t])``, ready for :func:`coverage` (negate a
        callable error measure; a scorer is already oriented). A dict of arrays, with
        the same keys, when ``metric`` is a dict.

    Warns
    -----
    UndefinedMetricWarning
        Once per kind of undefined case of a label measure (e.g. a class with no
        true item, left out of a macro average), naming the classes concerned and
        in how many (system, test case) pairs it arose.

    Examples
    --------
    >>> from sklearn.metrics import accuracy_score
    >>> from sklearn_ordinal.metaeval import make_synthetic_ordinal_task, score_systems
    >>> task = make_synthetic_ordinal_task(n_test_cases=3, n_items=20, random_state=0)
    >>> score_systems(accuracy_score, task.y_true, task.y_pred).shape
    (50, 3)
    >>> from sklearn_ordinal.metrics import get_scorer
    >>> mae = score_systems(get_scorer("neg_mean_absolute_error"), task.y_true, task.y_pred)
    >>> bool((mae <= 0).all())
    True
    >>> scores = score_systems({"cem": get_scorer("cem_ord"), "kappa": get_scorer("cohen_kappa")},
    ...                        task.y_true, task.y_pred)
    >>> sorted(scores), scores["cem"].shape
    (['cem', 'kappa'], (50, 3))
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.ndim != 2 or y_pred.ndim != 3 or y_pred.shape[1:] != y_true.shape:
        raise ValueError(
            "y_true must have shape (n_test_cases, n_items) and y_pred shape "
            f"(n_systems, n_test_cases, n_items); got {y_true.shape} and {y_pred.shape}."
        )
    if isinstance(metric, dict):
        return _score_all(metric, y_true, y_pred)
    return _score_all({None: metric}, y_true, y_pred)[None]


def _score_all(metrics, y_true, y_pred):
    measures = {name: (metric, *_as_measure(metric)) for name, metric in metrics.items()}
    scores, batched = {}, {}
    for name, (metric, measure, sign) in measures.items():
        form = _batched_form(measure) if y_pred.size else None
        if form is not None:
            # The first pair's own call raises whatever the calls one by one would
            # (labels of the wrong kind, no order, a result that is not a number).
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _one_number(measure(y_true[0], y_pred[0, 0]), f"The metric {metric!r}")
            labels, class_values = form[2:]
            key = tuple(
                None if value is None else tuple(np.asarray(value).tolist())
                for value in (labels, class_values)
            )
            batched.setdefault(key, {})[name] = form
        else:
            scores[name] = _score_one_by_one(metric, measure, sign, y_true, y_pred)
    for forms in batched.values():
        result = _score_batched(forms, y_true, y_pred)
        for name in forms:
            metric, measure, sign = measures[name]
            scores[name] = (
                _score_one_by_one(metric, measure, sign, y_true, y_pred)
                if result is None
                else sign * result[name]
            )
    return {name: scores[name] for name in metrics}


def _score_one_by_one(metric, measure, sign, y_true, y_pred):
    """One call per (system, test case): the metric is an arbitrary callable."""
    return np.array(
        [
            [
                sign * _one_number(measure(truth, pred), f"The metric {metric!r}")
                for truth, pred in zip(y_true, system)
            ]
            for system in y_pred
        ]
    ).reshape(y_pred.shape[:2])
