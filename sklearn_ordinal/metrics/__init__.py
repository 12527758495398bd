"""Evaluation measures for ordinal classification, and scorers built from them."""

from .._confusion import OrdinalConfusion
from ._agreement import (
    accuracy_within_score,
    kendall_tau_a_score,
    kendall_tau_b_score,
    macro_f1_gold_score,
    mutual_information_score,
    pearson_score,
    spearman_score,
    value_weighted_kappa_score,
    weighted_kappa_score,
)
from ._closeness import class_proximity, cem_score
from ._confusion_matrix import ordinal_confusion_matrix
from ._krippendorff import krippendorff_alpha
from ._intraclass import intraclass_correlation
from ._chance_corrected import (
    brennan_prediger,
    conger_kappa,
    fleiss_kappa,
    gwet_ac,
    percent_agreement,
)
from ._error import (
    macro_mean_absolute_error,
    macro_mean_squared_error,
    macro_mean_zero_one_error,
    macro_root_mean_squared_error,
    mean_absolute_error,
    mean_squared_error,
    mean_zero_one_error,
    root_mean_squared_error,
)
from ._plot.roc_surface import RocSurfaceDisplay
from ._probabilistic import ranked_probability_score  # noqa: F401 (deprecated, not in __all__)
from ._probabilistic import ranked_probability_score_loss
from ._calibration import (
    OrdinalCalibrationCurve,
    ScoreDecomposition,
    ordinal_calibration_curve,
    ranked_probability_score_decomposition,
)
from ._plot.ordinal_calibration import OrdinalCalibrationDisplay
from ._quantification import (
    match_distance,
    normalized_match_distance,
    prevalences,
    root_normalized_order_aware_divergence,
)
from ._quantification_error import quantification_error
from .._score_table import ScoreTable
from ._ranking import roc_surface, u_cons_score, u_ovo_score, u_pairs_score, vus_score
from ._scorer import get_scorer, get_scorer_names, get_scorers, make_ordinal_scorer
from ._sensitivity import (
    geometric_mean_score,
    gmsec_score,
    mes_score,
    minimum_sensitivity_score,
)
from ._thresholds import optimal_thresholds

__all__ = [
    # Confusion matrix and error measures (Baccianella et al. 2009)
    "ordinal_confusion_matrix",
    "macro_mean_absolute_error",
    "macro_mean_squared_error",
    "macro_root_mean_squared_error",
    "macro_mean_zero_one_error",
    "mean_absolute_error",
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_zero_one_error",
    # Sensitivities (Cruz-Ramírez et al. 2014; Vargas et al. 2024)
    "minimum_sensitivity_score",
    "geometric_mean_score",
    "gmsec_score",
    "mes_score",
    # Chunked data: the intermediates every measure is a function of
    "OrdinalConfusion",
    "ScoreTable",
    # Closeness (Amigó et al. 2020) and the measures it is compared with
    "class_proximity",
    "cem_score",
    "accuracy_within_score",
    "kendall_tau_a_score",
    "weighted_kappa_score",
    "value_weighted_kappa_score",
    "spearman_score",
    "kendall_tau_b_score",
    "macro_f1_gold_score",
    "pearson_score",
    "mutual_information_score",
    # The annotators' agreement on the gold standard (Krippendorff 2011)
    "krippendorff_alpha",
    "gwet_ac",
    "fleiss_kappa",
    "conger_kappa",
    "brennan_prediger",
    "percent_agreement",
    "intraclass_correlation",
    # Ranking (Waegeman et al. 2008)
    "vus_score",
    "u_pairs_score",
    "u_ovo_score",
    "u_cons_score",
    "roc_surface",
    "RocSurfaceDisplay",
    # Probabilistic (Epstein 1969)
    "ranked_probability_score_loss",
    # Calibration of the class probabilities (Dimitriadis, Gneiting and Jordan 2021)
    "ranked_probability_score_decomposition",
    "ScoreDecomposition",
    "ordinal_calibration_curve",
    "OrdinalCalibrationCurve",
    "OrdinalCalibrationDisplay",
    # Ordinal quantification (SemEval-2016 Task 4 E; Sakai 2021; LeQua 2024)
    "match_distance",
    "normalized_match_distance",
    "root_normalized_order_aware_divergence",
    "prevalences",
    "quantification_error",
    # Scorers
    "get_scorer",
    "get_scorer_names",
    "get_scorers",
    "make_ordinal_scorer",
    # From a real-valued score to classes
    "optimal_thresholds",
]
