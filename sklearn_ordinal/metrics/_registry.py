"""The one home of every measure: a record per measure, and every name it answers to.

A *record* holds what the package knows about a measure besides its function: what
it reads (class labels, one score per item, or class probabilities), whether higher
is better, its kernels on the mergeable intermediates (the confusion matrix, the
score table, or per-item values), its parameters with their constraints (those of
the function's own ``@validate_params``) and whether it takes weights. A *name* is
a measure with some of its arguments fixed: ``"neg_macro_mean_absolute_error"`` is
:func:`~sklearn_ordinal.metrics.mean_absolute_error` with ``average="macro"``.

Every door of the package (scorers, the trivial classifier, the baseline
comparison, intervals and comparisons, chunks, Dask, :func:`evaluate`, the command
line) resolves a measure here, once, with :func:`resolve`, which also checks the
measure's parameters with the very rules and messages of the function itself. So a
name means one number everywhere, and a bad parameter is refused by every door
with the same error, before any work.

Adding a measure: write its function (and its kernel on an intermediate), then add
one :class:`MeasureRecord` to ``_RECORDS`` and its names to ``_NAMES``; the common
tests iterate this registry and hold the new measure to every door.
"""

import difflib
import math
from dataclasses import dataclass, field
from functools import cached_property, partial
from inspect import signature
from typing import Callable, Optional

import numpy as np

from .._compat import InvalidParameterError, validate_parameter_constraints
from .._confusion import _one_or_many
from .._records import _RECORD, record_of
from .._score_table import _present_classes
from ._agreement import (
    _accuracy,
    _accuracy_from_confusion,
    _accuracy_item_gains,
    _accuracy_within_item_gains,
    _accuracy_within_score_from_confusion,
    _balanced_accuracy,
    _balanced_accuracy_from_confusion,
    _balanced_accuracy_item_gains,
    _cohen_kappa,
    _cohen_kappa_from_confusion,
    _kappa_disagreement,
    _kendall_tau_a_score_from_confusion,
    _kendall_tau_b,
    _kendall_tau_b_from_confusion,
    _macro_f1,
    _macro_f1_from_confusion,
    macro_f1_gold_score,
    _macro_f1_gold_from_confusion,
    _mutual_information,
    _mutual_information_from_confusion,
    _pearson,
    _pearson_from_confusion,
    _spearman,
    _spearman_from_confusion,
    _value_weighted_kappa,
    accuracy_within_score,
    kendall_tau_a_score,
)
from ._closeness import _cem_item_gains, _cem_score_from_confusion, cem_score
from ._error import (
    _distance_item_costs,
    _macro_mean_absolute_error_from_confusion,
    _macro_mean_squared_error_from_confusion,
    _macro_mean_zero_one_error_from_confusion,
    _macro_root_mean_squared_error_from_confusion,
    _mean_absolute_error_from_confusion,
    _mean_squared_error_from_confusion,
    _mean_zero_one_error_from_confusion,
    _root_mean_squared_error_from_confusion,
    _zero_one_item_costs,
    macro_mean_absolute_error,
    macro_mean_squared_error,
    macro_mean_zero_one_error,
    macro_root_mean_squared_error,
    mean_absolute_error,
    mean_squared_error,
    mean_zero_one_error,
    root_mean_squared_error,
)
from ._probabilistic import _item_scores as _rps_item_scores
from ._probabilistic import ranked_probability_score_loss
from ._ranking import _u_cons, _u_ovo, _u_pairs, _vus, u_cons_score, u_ovo_score, u_pairs_score
from ._ranking import vus_score
from ._quantification import ROW_KERNELS, match_distance, normalized_match_distance
from ._quantification import root_normalized_order_aware_divergence
from ._trivial_closed_forms import (
    _trivial_accuracy,
    _trivial_accuracy_within,
    _trivial_balanced_accuracy,
    _trivial_cem,
    _trivial_correlation,
    _trivial_gmsec,
    _trivial_kappa,
    _trivial_kendall_tau_a,
    _trivial_macro_f1,
    _trivial_macro_mean_absolute_error,
    _trivial_macro_mean_squared_error,
    _trivial_macro_mean_zero_one_error,
    _trivial_macro_root_mean_squared_error,
    _trivial_mean_absolute_error,
    _trivial_mean_squared_error,
    _trivial_mean_zero_one_error,
    _trivial_mes,
    _trivial_mutual_information,
    _trivial_only_recall,
    _trivial_root_mean_squared_error,
)
from ._sensitivity import (
    _geometric_mean_score_from_confusion,
    _gmsec_score_from_confusion,
    _mes_score_from_confusion,
    _minimum_sensitivity_score_from_confusion,
    geometric_mean_score,
    gmsec_score,
    mes_score,
    minimum_sensitivity_score,
)

class MeasureParameterError(ValueError, TypeError):
    """A measure's parameter refused at a door: the message of scikit-learn's
    ``InvalidParameterError`` that a direct call of the measure gives, and the same
    bases (``ValueError`` and ``TypeError``)."""


# The data's own arguments: the classes in order, their values and the item weights.
# Every other keyword argument of a measure is one of its parameters.
DATA_ARGUMENTS = ("labels", "class_values", "sample_weight")


@dataclass(frozen=True, eq=False)
class MeasureRecord:
    """What the package knows of one measure function."""

    function: Callable
    """``function(y_true, y_pred, **kwargs)``: the measure itself (it validates its
    input and its parameters when called directly)."""
    reads: str
    """``"labels"`` (class labels, or a regressor's real values for the distance
    measures), ``"scores"`` (one real score per item) or ``"proba"`` (one
    probability per class)."""
    greater_is_better: bool
    from_confusion: Optional[Callable] = None
    """``from_confusion(confusion, **params)`` on an
    :class:`~sklearn_ordinal._confusion.OrdinalConfusion` or a stack of them
    (matrices of shape ``(..., K, K)``: results of shape ``(...)``)."""
    from_table: Optional[Callable] = None
    """``from_table(table, **params, cells=None)`` on a
    :class:`~sklearn_ordinal._score_table.ScoreTable` of the present classes (or a
    stack of them: weights of shape ``(B, C)``, results of shape ``(B,)``); ``cells``
    holds what it reads of the cells alone, made once for a bootstrap's stacks."""
    from_items: Optional[Callable] = None
    """``from_items(y_true, y_pred, labels, sample_weight, **params)``: per-item values,
    kept weights and scale of a measure that is a weighted mean over items."""
    distance: Optional[tuple] = None
    """``(power, square_root, average)`` of a distance measure, which also takes a
    regressor's real-valued predictions; ``average`` is the function's default (or the
    only average a ``macro_`` function takes)."""
    kernel_defaults: dict = field(default_factory=dict)
    """Parameters the kernel needs spelled out (the function's own defaults)."""
    item_costs: Optional[Callable] = None
    """``item_costs(class_weights, values, **params)``: for a measure that is, given
    the gold class weights ``n`` (shape ``(K,)``), a non-decreasing function of a
    weighted sum over items of a cost of (true class ``i``, predicted class ``j``),
    the ``(K, K)`` matrix of these costs (gains when higher is better), or None for
    parameters that make it another kind of measure (``average="max"``). None: no
    item-additive form. Cut points are chosen exactly for these measures."""
    perfect: Optional[float] = None
    """The measure's value when every prediction is right (0 for an error, 1 for
    most agreement measures): the top of the forecasting skill score
    ``(score - trivial) / (perfect - trivial)``. None where it depends on the data
    (mutual information's is the entropy of ``y_true``; Kendall's tau-a stays below
    1 when true classes tie)."""
    value_range: Optional[tuple] = None
    """``(lowest, highest)``: every value the measure can take, for every parameter
    value, lies in it (an interval's ends are clipped to it). Every record states
    one (``tests/test_registry.py`` holds the measure's values to it); None would
    clip nothing."""
    disagreement: Optional[Callable] = None
    """``disagreement(values, **params)`` of a measure that is Cohen's kappa
    ``1 - sum(W O) / sum(W E)`` (``O`` the confusion matrix, ``E`` the one expected
    from its margins): its ``(K, K)`` disagreement weights ``W`` on the class values
    ``values``. None: not a kappa. Cut points are searched on ``W`` directly."""
    related_additive: Optional[Callable] = None
    """``related_additive(**params)``: for a label measure that is not item-additive
    (or not for some parameters), the scorer names of item-additive measures whose
    exact cut points start the search of its own. None: it is item-additive for
    every parameter, or does not judge labels."""
    trivial_scores: Optional[Callable] = None
    """``trivial_scores(counts, values, **params)``: ``(scores, warns)`` of the K
    trivial classifiers (each predicts one class for every item) from the gold class
    counts and the class values, in closed form (at most ``O(K^2)``), with the
    keywords of ``from_confusion`` (a partial in both fixes the same ones):
    ``scores[k]`` is ``from_confusion`` of the matrix whose only non-zero column
    ``k`` holds the counts, ``warns[k]`` (a bool for all) whether that call warns.
    None: the trivial classifier scores each of these matrices."""

    def item_costs_for(self, class_weights, values, params):
        """The ``(K, K)`` per-item cost (or gain) matrix of the measure with
        ``params``, or None when it is not a sum over items."""
        if self.item_costs is None:
            return None
        return self.item_costs(class_weights, values, **params)

    @property
    def name(self):
        """The function's name (a private wrapper's without its underscore)."""
        return self.function.__name__.lstrip("_")

    @cached_property
    def _signature(self):
        return signature(self.function).parameters

    @cached_property
    def parameters(self):
        """``{parameter: constraints}`` of the measure's own parameters (not the data)."""
        constraints = getattr(self.function, "_parameter_constraints", {})
        return {
            name: constraints.get(name, "no_validation")
            for name in list(self._signature)[2:]
            if name not in DATA_ARGUMENTS
        }

    def takes(self, argument):
        """Whether the function takes ``argument`` (e.g. ``"sample_weight"``)."""
        return argument in self._signature

    @property
    def weighted(self):
        """Whether the measure has a weighted form (it takes ``sample_weight``)."""
        return self.takes("sample_weight")

    def check_params(self, params):
        """Refuse ``params`` the measure does not take or whose value it refuses.

        The function's own constraints, checked by scikit-learn's parameter validation,
        so the message is the one a direct call gives. Data arguments pass (each door
        checks the data itself).
        """
        for key in params:
            if key not in self.parameters and not (key in DATA_ARGUMENTS and self.takes(key)):
                if key in DATA_ARGUMENTS:
                    raise ValueError(
                        f"{self.name} takes no {key}: the measure has no "
                        f"{key.replace('_', ' ')} form. Leave it out, or choose a measure "
                        "that takes it."
                    )
                raise ValueError(
                    f"{self.name} has no parameter {key!r}; its parameters are "
                    f"{sorted(self.parameters)}."
                )
        # Always, whatever scikit-learn's skip_parameter_validation says: the doors run
        # under their own validation, which sets it for nested calls, and a wrong
        # parameter must never turn into a number.
        own = {key: value for key, value in params.items() if key in self.parameters}
        constraints = {key: self.parameters[key] for key in own}
        try:
            validate_parameter_constraints(
                constraints, own, caller_name=self.function.__qualname__
            )
        except InvalidParameterError as error:
            # Re-raised as a sibling class: scikit-learn's validation of the door
            # (score_interval, evaluate, ...) would rename the measure in the message.
            raise MeasureParameterError(str(error)) from None

    def score_confusion(self, confusion, params):
        """The measure of an :class:`~sklearn_ordinal._confusion.OrdinalConfusion`
        (a float, an array for per-class results or a stack)."""
        self.check_params(params)
        if confusion.weighted and not self.weighted:
            raise ValueError(
                f"{self.name} has no weighted form (it takes no sample_weight), so it "
                "cannot score a confusion matrix of weighted items. Count the matrix "
                "without sample_weight, or choose a measure that takes weights."
            )
        return _one_or_many(self.from_confusion(confusion, **params))

    def score_table(self, table, params):
        """The measure of a :class:`~sklearn_ordinal._score_table.ScoreTable`."""
        self.check_params(params)
        table = _present_classes(table, self.name)
        return float(self.from_table(table, **{**self.kernel_defaults, **params}))


_TIES = {"ties": "average"}

# The ranges of values (``value_range``).
_UNIT = (0.0, 1.0)
_SIGNED_UNIT = (-1.0, 1.0)
_NON_NEGATIVE = (0.0, math.inf)


# Starts of the cut-point search on a measure that is not item-additive
# (``related_additive``): the item-additive measures nearest to it.
def _macro_errors(**params):
    """Measures of per-class rates (sensitivities, the worst class, F1, correlations):
    the macro averages, which weigh every class alike."""
    return ("neg_macro_mean_absolute_error", "neg_macro_mean_zero_one_error")


def _macro_squared_error(**params):
    """The worst class's squared error (and its root): the macro average."""
    return ("neg_macro_mean_squared_error",)


def _kappa_related_additive(weights=None):
    """A kappa's disagreement weights as an error: quadratic, the squared error;
    linear, the absolute error; none (or the user's own), the zero-one error."""
    named = weights if isinstance(weights, str) else None
    return ({
        "quadratic": "neg_mean_squared_error",
        "linear": "neg_mean_absolute_error",
    }.get(named, "neg_mean_zero_one_error"),)


_RECORDS = [
    # Error measures (Baccianella et al. 2009; the worst class: Cruz-Ramirez et al. 2014)
    MeasureRecord(mean_absolute_error, "labels", False,
                  from_confusion=_mean_absolute_error_from_confusion,
                  distance=(1, False, "micro"),
                  item_costs=partial(_distance_item_costs, power=1), perfect=0.0,
                  value_range=_NON_NEGATIVE, related_additive=_macro_errors,
                  trivial_scores=_trivial_mean_absolute_error),
    MeasureRecord(mean_squared_error, "labels", False,
                  from_confusion=_mean_squared_error_from_confusion,
                  distance=(2, False, "micro"),
                  item_costs=partial(_distance_item_costs, power=2), perfect=0.0,
                  value_range=_NON_NEGATIVE, related_additive=_macro_squared_error,
                  trivial_scores=_trivial_mean_squared_error),
    # The square root of MSE's sum: the same best cut points.
    MeasureRecord(root_mean_squared_error, "labels", False,
                  from_confusion=_root_mean_squared_error_from_confusion,
                  distance=(2, True, "micro"),
                  item_costs=partial(_distance_item_costs, power=2), perfect=0.0,
                  value_range=_NON_NEGATIVE, related_additive=_macro_squared_error,
                  trivial_scores=_trivial_root_mean_squared_error),
    MeasureRecord(mean_zero_one_error, "labels", False,
                  from_confusion=_mean_zero_one_error_from_confusion,
                  item_costs=_zero_one_item_costs, perfect=0.0, value_range=_UNIT,
                  related_additive=_macro_errors, trivial_scores=_trivial_mean_zero_one_error),
    MeasureRecord(macro_mean_absolute_error, "labels", False,
                  from_confusion=_macro_mean_absolute_error_from_confusion,
                  distance=(1, False, "macro"),
                  item_costs=partial(_distance_item_costs, average="macro", power=1), perfect=0.0,
                  value_range=_NON_NEGATIVE, trivial_scores=_trivial_macro_mean_absolute_error),
    MeasureRecord(macro_mean_squared_error, "labels", False,
                  from_confusion=_macro_mean_squared_error_from_confusion,
                  distance=(2, False, "macro"),
                  item_costs=partial(_distance_item_costs, average="macro", power=2), perfect=0.0,
                  value_range=_NON_NEGATIVE, trivial_scores=_trivial_macro_mean_squared_error),
    MeasureRecord(macro_root_mean_squared_error, "labels", False,
                  from_confusion=_macro_root_mean_squared_error_from_confusion,
                  distance=(2, True, "macro"),
                  item_costs=partial(_distance_item_costs, average="macro", power=2), perfect=0.0,
                  value_range=_NON_NEGATIVE,
                  trivial_scores=_trivial_macro_root_mean_squared_error),
    MeasureRecord(macro_mean_zero_one_error, "labels", False,
                  from_confusion=_macro_mean_zero_one_error_from_confusion,
                  item_costs=partial(_zero_one_item_costs, average="macro"), perfect=0.0,
                  value_range=_UNIT, trivial_scores=_trivial_macro_mean_zero_one_error),
    # Sensitivities
    MeasureRecord(minimum_sensitivity_score, "labels", True,
                  from_confusion=_minimum_sensitivity_score_from_confusion, perfect=1.0,
                  value_range=_UNIT, related_additive=_macro_errors,
                  trivial_scores=_trivial_only_recall),
    MeasureRecord(geometric_mean_score, "labels", True,
                  from_confusion=_geometric_mean_score_from_confusion, perfect=1.0,
                  value_range=_UNIT, related_additive=_macro_errors,
                  trivial_scores=_trivial_only_recall),
    MeasureRecord(gmsec_score, "labels", True, from_confusion=_gmsec_score_from_confusion,
                  perfect=1.0, value_range=_UNIT, related_additive=_macro_errors,
                  trivial_scores=_trivial_gmsec),
    MeasureRecord(mes_score, "labels", True, from_confusion=_mes_score_from_confusion, perfect=1.0,
                  value_range=_UNIT, related_additive=_macro_errors, trivial_scores=_trivial_mes),
    # Closeness (Amigo et al. 2020) and the measures it is compared with
    MeasureRecord(cem_score, "labels", True, from_confusion=_cem_score_from_confusion,
                  item_costs=_cem_item_gains, perfect=1.0, value_range=_UNIT,
                  trivial_scores=_trivial_cem),
    MeasureRecord(accuracy_within_score, "labels", True,
                  from_confusion=_accuracy_within_score_from_confusion,
                  item_costs=_accuracy_within_item_gains, perfect=1.0, value_range=_UNIT,
                  trivial_scores=_trivial_accuracy_within),
    MeasureRecord(kendall_tau_a_score, "labels", True,
                  from_confusion=_kendall_tau_a_score_from_confusion, perfect=None,
                  value_range=_SIGNED_UNIT, related_additive=_macro_errors,
                  trivial_scores=_trivial_kendall_tau_a),
    MeasureRecord(_accuracy, "labels", True, from_confusion=_accuracy_from_confusion,
                  item_costs=_accuracy_item_gains, perfect=1.0, value_range=_UNIT,
                  trivial_scores=_trivial_accuracy),
    MeasureRecord(_balanced_accuracy, "labels", True,
                  from_confusion=_balanced_accuracy_from_confusion,
                  item_costs=_balanced_accuracy_item_gains, perfect=1.0, value_range=_UNIT,
                  trivial_scores=_trivial_balanced_accuracy),
    MeasureRecord(_macro_f1, "labels", True, from_confusion=_macro_f1_from_confusion, perfect=1.0,
                  value_range=_UNIT, related_additive=_macro_errors,
                  trivial_scores=_trivial_macro_f1),
    # Over the gold classes only: the same trivial scores, since the trivial class k
    # has F1 0 unless it is a gold class.
    MeasureRecord(macro_f1_gold_score, "labels", True, from_confusion=_macro_f1_gold_from_confusion,
                  perfect=1.0, value_range=_UNIT, related_additive=_macro_errors,
                  trivial_scores=_trivial_macro_f1),
    # Below -1 with a disagreement matrix of the user's own (weights on one cell
    # only: -2 on a 2 x 2 table); within [-1, 1] for the named weights.
    MeasureRecord(_cohen_kappa, "labels", True, from_confusion=_cohen_kappa_from_confusion,
                  perfect=1.0, value_range=(-math.inf, 1.0), disagreement=_kappa_disagreement,
                  related_additive=_kappa_related_additive, trivial_scores=_trivial_kappa),
    MeasureRecord(_value_weighted_kappa, "labels", True,
                  from_confusion=partial(_cohen_kappa_from_confusion, on_values=True), perfect=1.0,
                  value_range=_SIGNED_UNIT,
                  disagreement=partial(_kappa_disagreement, on_values=True),
                  related_additive=_kappa_related_additive,
                  trivial_scores=partial(_trivial_kappa, on_values=True)),
    MeasureRecord(_mutual_information, "labels", True,
                  from_confusion=_mutual_information_from_confusion, perfect=None,
                  value_range=_NON_NEGATIVE, related_additive=_macro_errors,
                  trivial_scores=_trivial_mutual_information),
    MeasureRecord(_pearson, "labels", True, from_confusion=_pearson_from_confusion, perfect=1.0,
                  value_range=_SIGNED_UNIT, related_additive=_macro_errors,
                  trivial_scores=_trivial_correlation),
    MeasureRecord(_spearman, "labels", True, from_confusion=_spearman_from_confusion, perfect=1.0,
                  value_range=_SIGNED_UNIT, related_additive=_macro_errors,
                  trivial_scores=_trivial_correlation),
    MeasureRecord(_kendall_tau_b, "labels", True, from_confusion=_kendall_tau_b_from_confusion,
                  perfect=1.0, value_range=_SIGNED_UNIT, related_additive=_macro_errors,
                  trivial_scores=_trivial_correlation),
    # Ranking (Waegeman et al. 2008)
    MeasureRecord(vus_score, "scores", True, from_table=_vus, kernel_defaults=_TIES, perfect=1.0,
                  value_range=_UNIT),
    MeasureRecord(u_pairs_score, "scores", True, from_table=_u_pairs, kernel_defaults=_TIES,
                  perfect=1.0, value_range=_UNIT),
    MeasureRecord(u_ovo_score, "scores", True, from_table=_u_ovo, kernel_defaults=_TIES,
                  perfect=1.0, value_range=_UNIT),
    MeasureRecord(u_cons_score, "scores", True, from_table=_u_cons, kernel_defaults=_TIES,
                  perfect=1.0, value_range=_UNIT),
    # Probabilistic (Epstein 1969)
    MeasureRecord(ranked_probability_score_loss, "proba", False, from_items=_rps_item_scores,
                  perfect=0.0, value_range=_NON_NEGATIVE),
]

# The record travels with its function: the intermediates read it from there.
for _record in _RECORDS:
    setattr(_record.function, _RECORD, _record)

# Every name a measure answers to, with the arguments the name fixes. Scorer names
# (``neg_`` for the measures where lower is better, scikit-learn's convention) are
# what ``get_scorer`` takes; every door also takes the measure's own name, as the
# evaluation report shows it (the scorer name without ``neg_``).
_NAMES = {
    # Error measures (Baccianella et al. 2009). The macro averages, robust to class
    # imbalance; then scikit-learn's names, which mean scikit-learn's (micro) numbers.
    "neg_macro_mean_absolute_error": (macro_mean_absolute_error, {}),
    "neg_macro_mean_squared_error": (macro_mean_squared_error, {}),
    "neg_macro_root_mean_squared_error": (macro_root_mean_squared_error, {}),
    "neg_macro_mean_zero_one_error": (macro_mean_zero_one_error, {}),
    "neg_mean_absolute_error": (mean_absolute_error, {}),
    "neg_mean_squared_error": (mean_squared_error, {}),
    "neg_root_mean_squared_error": (root_mean_squared_error, {}),
    "neg_mean_zero_one_error": (mean_zero_one_error, {}),
    # The worst class's error (Cruz-Ramirez et al. 2014): "max" = the maximum MAE.
    "neg_max_mean_absolute_error": (mean_absolute_error, {"average": "max"}),
    "neg_max_mean_squared_error": (mean_squared_error, {"average": "max"}),
    "neg_max_root_mean_squared_error": (root_mean_squared_error, {"average": "max"}),
    "neg_max_mean_zero_one_error": (mean_zero_one_error, {"average": "max"}),
    # Sensitivities: the worst class, all classes, the extreme classes.
    "minimum_sensitivity": (minimum_sensitivity_score, {}),
    "geometric_mean": (geometric_mean_score, {}),
    "gmsec": (gmsec_score, {}),
    "mes": (mes_score, {}),
    # Closeness Evaluation Measure (Amigo et al. 2020) and the measures it is compared with.
    "cem_ord": (cem_score, {}),
    "cem_nom": (cem_score, {"scale": "nominal"}),
    "cem_int": (cem_score, {"scale": "interval"}),
    "cem_ord_flat": (cem_score, {"flat": True}),
    "accuracy_within_1": (accuracy_within_score, {"n": 1}),
    "kendall_tau_a": (kendall_tau_a_score, {}),
    # Thin wrappers around scikit-learn / SciPy, fed this package's class order.
    "accuracy": (_accuracy, {}),
    "macro_accuracy": (_balanced_accuracy, {}),
    "cohen_kappa": (_cohen_kappa, {}),
    "linear_weighted_kappa": (_cohen_kappa, {"weights": "linear"}),
    "quadratic_weighted_kappa": (_cohen_kappa, {"weights": "quadratic"}),
    # The same with weights on class values, the reading of the CEM paper's Table 2.
    "linear_value_weighted_kappa": (_value_weighted_kappa, {"weights": "linear"}),
    "quadratic_value_weighted_kappa": (_value_weighted_kappa, {"weights": "quadratic"}),
    "macro_f1": (_macro_f1, {}),
    # PyEvALL's F-measure: over the gold classes only (a shared task's convention).
    "macro_f1_gold": (macro_f1_gold_score, {}),
    # scikit-learn's scorer names for the same numbers (on numeric labels; string
    # labels take the order this package is given, never alphabetical).
    "balanced_accuracy": (_balanced_accuracy, {}),
    "f1_macro": (_macro_f1, {}),
    "mutual_info_score": (_mutual_information, {}),
    "kendall_tau_b": (_kendall_tau_b, {}),
    "spearman": (_spearman, {}),
    "pearson": (_pearson, {}),
    "mutual_information": (_mutual_information, {}),
    # Ranking measures: they rank one score per item.
    "vus": (vus_score, {}),
    "u_pairs": (u_pairs_score, {}),
    "u_ovo": (u_ovo_score, {}),
    "u_cons": (u_cons_score, {}),
    # Probabilistic measures: they judge predict_proba, columns in class order.
    "neg_ranked_probability_score": (ranked_probability_score_loss, {}),
}


def scorer_names():
    """The scorer names, sorted."""
    return sorted(_NAMES)


def _measure_names():
    """``{name: scorer name}``: every name a door takes. The scorer names; a loss's own
    name as the evaluation report shows it (the scorer name without ``neg_``); and a
    measure function's name, for the scorer that fixes none of its arguments."""
    names = {name: name for name in _NAMES}
    names.update({name[4:]: name for name in _NAMES if name.startswith("neg_")})
    for name, (function, fixed) in _NAMES.items():
        if not fixed:
            names.setdefault(function.__name__.lstrip("_"), name)
    return names


def lookup(name, *, scorer_only=False):
    """``(record, fixed arguments, scorer name)`` of a measure name.

    ``scorer_only``: only scorer names (``neg_`` for losses), as ``get_scorer`` takes.
    An unknown name is a ValueError listing the closest known ones.
    """
    known = {name: name for name in _NAMES} if scorer_only else _measure_names()
    if isinstance(name, str) and name in _PREVALENCE_NAMES:
        raise ValueError(
            f"{name!r} judges class prevalences per group (ordinal quantification), not "
            "each item, so it has no scorer. Use it on prevalence rows "
            f"(sklearn_ordinal.metrics.{_PREVALENCE_NAMES[name].__name__}), from items "
            "with quantification_error, or in evaluate(..., groups=..., measures=[...])."
        )
    if not isinstance(name, str) or name not in known:
        raise ValueError(
            f"{name!r} is not a measure of sklearn_ordinal.{did_you_mean(name, known)} "
            "sklearn_ordinal.metrics.get_scorer_names() lists them all."
        )
    scorer_name = known[name]
    function, fixed = _NAMES[scorer_name]
    return getattr(function, _RECORD), dict(fixed), scorer_name


def recorded_range(name):
    """``(lowest, highest)`` of the values recorded under the measure name ``name``,
    or None for a name the registry does not know.

    A loss's scorer name (``neg_macro_mean_absolute_error``) records the scorer's
    values, the negated loss: its range is the measure's own, negated and reversed.
    """
    try:
        record, _, scorer_name = lookup(name)
    except ValueError:
        return None
    low, high = record.value_range
    if name == scorer_name and not record.greater_is_better:
        return -high + 0.0, -low + 0.0  # + 0.0: no -0 in a message
    return low, high


def check_recorded_scores(values, name, cell_name):
    """Refuse scores recorded under ``name`` that lie outside its range of values.

    Scores taken as given (a table of scores, a report read back) are ranked and
    compared in the direction the name gives: a loss's values recorded under its
    ``neg_`` scorer name (or the reverse) would be ranked backwards with no word.
    ``cell_name(i)`` names the score at flat position ``i`` for the message. A
    name the registry does not know passes.
    """
    bounds = recorded_range(name)
    values = np.asarray(values, dtype=np.float64)
    if bounds is None or not values.size:
        return
    low, high = bounds
    # A score averaged over folds may pass a bound by rounding: allow 1e-9 of it.
    slack = 1e-9 * max(1.0, abs(low) if math.isfinite(low) else 0.0,
                       abs(high) if math.isfinite(high) else 0.0)
    outside = (values < low - slack) | (values > high + slack)
    if not outside.any():
        return
    where = int(np.flatnonzero(outside.ravel())[0])
    value = values.ravel()[where]
    scorer_name = lookup(name)[2]
    hint = ""
    if name == scorer_name and name.startswith("neg_"):
        hint = (f" These look like the loss itself: record them under "
                f"{name[4:]!r}, whose values are >= 0 and lower is better.")
    elif scorer_name.startswith("neg_") and name != scorer_name:
        hint = (f" These look like the negated loss of the scorer: record them under "
                f"{scorer_name!r}, whose values are <= 0 and higher is better.")
    raise ValueError(
        f"{int(outside.sum())} score(s) lie outside the range of {name!r}, "
        f"[{low:g}, {high:g}]: {float(value)!r} for {cell_name(where)}.{hint} Scores outside "
        "the measure's range would be ranked in the wrong direction or mean another "
        "measure; check the measure name the scores were recorded under."
    )


def did_you_mean(name, known=None):
    """`` Did you mean ...?`` with the closest known names, or ``""``."""
    known = _measure_names() if known is None else known
    close = difflib.get_close_matches(str(name), list(known), n=5, cutoff=0.5)
    return f" Did you mean one of {close}?" if close else ""


@dataclass(frozen=True, eq=False)
class ResolvedMeasure:
    """A measure as a door uses it: its record, its parameters and its data arguments."""

    record: MeasureRecord
    params: dict
    """The measure's own parameters (checked)."""
    data: dict
    """``labels``, ``class_values`` or ``sample_weight`` fixed in a scorer or partial."""
    name: str
    """The name to show: the scorer name the measure was given by (without ``neg_``),
    else the function's name."""
    greater_is_better: bool

    @property
    def function(self):
        """The measure function with its parameters fixed."""
        return partial(self.record.function, **self.params)

    def from_confusion(self, confusion):
        """The measure of an :class:`~sklearn_ordinal._confusion.OrdinalConfusion` (or
        a stack of them)."""
        return self.record.from_confusion(confusion, **self.params)

    def from_table(self, table, cells=None):
        """The measure of a :class:`~sklearn_ordinal._score_table.ScoreTable` of the
        present classes (or of a stack of them); ``cells``, what the kernel reads of
        the table's cells alone, made once for every stack on them
        (``metrics._ranking._Cells``)."""
        kwargs = {**self.record.kernel_defaults, **self.params}
        if cells is not None:
            kwargs["cells"] = cells
        return self.record.from_table(table, **kwargs)

    def disagreement(self, values):
        """The ``(K, K)`` disagreement weights of a Cohen's kappa on the class values
        ``values``, or None for another measure."""
        if self.record.disagreement is None:
            return None
        return self.record.disagreement(values, **self.params)

    def related_additive(self):
        """Scorer names of the item-additive measures nearest to this one (none for an
        item-additive measure)."""
        if self.record.related_additive is None:
            return ()
        return self.record.related_additive(**self.params)

    @property
    def value_range(self):
        """``(lowest, highest)``: every value of the measure lies in it (unbounded where
        the record states no range)."""
        return self.record.value_range or (-math.inf, math.inf)

    def from_items(self, y_true, y_pred, labels, sample_weight):
        """Per-item values, kept weights and scale of a measure that is a weighted
        mean over items."""
        return self.record.from_items(y_true, y_pred, labels, sample_weight, **self.params)


def _scorer_parts(measure):
    """``(function, fixed arguments, sign)`` of a scorer (ours or scikit-learn's
    ``make_scorer``), or None for anything else."""
    if not all(hasattr(measure, key) for key in ("_score_func", "_kwargs", "_sign")):
        return None
    return measure._score_func, dict(measure._kwargs), measure._sign


def resolve(measure, params=None):
    """The :class:`ResolvedMeasure` of a name, a scorer, a measure function or a
    ``functools.partial`` of one, with further ``params``; they are checked here.

    Raises a ValueError for a callable that is not one of the package's measures (its
    kernels are unknown), and the measure's own error for a bad parameter.
    """
    params = dict(params or {})
    name = None
    if isinstance(measure, str):
        record, fixed, scorer_name = lookup(measure)
        name = scorer_name[4:] if scorer_name.startswith("neg_") else scorer_name
    else:
        parts = _scorer_parts(measure)
        if parts is not None:
            function, scorer_kwargs, _ = parts
        elif callable(measure):
            function, scorer_kwargs = measure, {}
        else:
            raise ValueError(
                "measure must be a measure name, a scorer or a measure function of "
                f"sklearn_ordinal; got {measure!r}."
            )
        record, fixed = record_of(function)
        fixed = {**fixed, **scorer_kwargs}
        if record is None:
            shown = getattr(function, "__name__", None) or repr(function)
            raise ValueError(
                f"{shown} is not a measure of sklearn_ordinal, so the package does not "
                "know its kernels (confusion matrix, score table) nor its direction. Pass "
                "one of the package's measures, a scorer of "
                "sklearn_ordinal.metrics.get_scorer, or its name."
                f"{did_you_mean(shown)}"
            )
    arguments = {**fixed, **params}
    record.check_params(arguments)
    data = {key: arguments.pop(key) for key in DATA_ARGUMENTS if key in arguments}
    # The direction is the measure's, whatever sign a scorer was built with.
    greater = record.greater_is_better
    return ResolvedMeasure(record, arguments, data, name or record.name, greater)


def records():
    """Every measure record, in the registry's order."""
    return list(_RECORDS)


def confusion_kernel(measure):
    """The function of the confusion matrix that ``measure`` (a measure function or a
    ``functools.partial`` of one) computes, its fixed parameters checked; None for a
    measure with no confusion-matrix kernel (or a callable the registry does not list).
    """
    record, keywords = record_of(measure)
    if record is None or record.from_confusion is None:
        return None
    record.check_params(keywords)
    return partial(record.from_confusion, **keywords) if keywords else record.from_confusion


def confusion_kernels():
    """``{measure function: its confusion-matrix kernel}`` of every label measure."""
    return {r.function: r.from_confusion for r in _RECORDS if r.from_confusion is not None}


# Prevalence measures (ordinal quantification): they judge one row of class
# prevalences per group (topic, sample), not the items, so they have no scorer and no
# item-level intermediate; every door that takes them (evaluate with groups, the
# command line) resolves their names here.
@dataclass(frozen=True, eq=False)
class PrevalenceRecord:
    """What the package knows of one prevalence measure."""

    function: Callable
    """``function(p_true, p_pred, *, sample_weight=None)``: the measure on prevalence
    arrays of shape ``(n_samples, K)``, averaged over the rows."""
    per_row: Callable
    """``per_row(p_true, p_pred)`` on arrays of shape ``(..., K)``: the value of each
    row (the measure is their mean), for resampling the groups."""
    value_range: tuple
    """``(lowest, highest)`` for ``K`` classes: a function of ``K``."""
    reads: str = "prevalences"
    greater_is_better: bool = False
    perfect: float = 0.0

    @property
    def name(self):
        """The function's name."""
        return self.function.__name__


def _prevalence_record(function, value_range):
    return PrevalenceRecord(function, ROW_KERNELS[function], value_range)


_PREVALENCE_RECORDS = [
    _prevalence_record(match_distance, lambda n_classes: (0.0, float(n_classes - 1))),
    _prevalence_record(normalized_match_distance, lambda n_classes: _UNIT),
    _prevalence_record(root_normalized_order_aware_divergence, lambda n_classes: _UNIT),
]

# Every name a prevalence measure answers to: its function's name, the short names of
# Sakai (2021) and LeQua ("nmd", "rnod"), and SemEval-2016's "emd" for the match
# distance (the task paper's formula; see match_distance for its Perl scorer).
_PREVALENCE_NAMES = {
    "match_distance": match_distance,
    "emd": match_distance,
    "normalized_match_distance": normalized_match_distance,
    "nmd": normalized_match_distance,
    "root_normalized_order_aware_divergence": root_normalized_order_aware_divergence,
    "rnod": root_normalized_order_aware_divergence,
}
_PREVALENCE_BY_FUNCTION = {record.function: record for record in _PREVALENCE_RECORDS}


def is_prevalence_measure(measure):
    """Whether ``measure`` (a name or a function) is a prevalence measure."""
    if isinstance(measure, str):
        return measure in _PREVALENCE_NAMES
    return measure in _PREVALENCE_BY_FUNCTION


def prevalence_measure(measure):
    """The :class:`PrevalenceRecord` of a prevalence measure's name or function; a
    ValueError listing the known names otherwise."""
    function = _PREVALENCE_NAMES.get(measure) if isinstance(measure, str) else measure
    if function not in _PREVALENCE_BY_FUNCTION:
        close = difflib.get_close_matches(str(measure), list(_PREVALENCE_NAMES), n=3,
                                          cutoff=0.5)
        hint = f" Did you mean one of {close}?" if close else ""
        raise ValueError(
            f"{measure!r} is not a prevalence measure of sklearn_ordinal; they are "
            f"{sorted(_PREVALENCE_NAMES)}.{hint}"
        )
    return _PREVALENCE_BY_FUNCTION[function]


def prevalence_names():
    """Every name of a prevalence measure, sorted."""
    return sorted(_PREVALENCE_NAMES)


def prevalence_records():
    """Every prevalence measure record."""
    return list(_PREVALENCE_RECORDS)
