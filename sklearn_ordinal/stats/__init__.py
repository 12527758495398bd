"""How sure is this number? Confidence intervals and paired comparisons of measures.

Every label measure is a function of the confusion matrix and every ranking measure
of the score table, so a bootstrap resample is one multinomial draw of their cell
counts: intervals cost about as much as one measure call, whatever the data size.

Across data sets, :func:`compare_across_datasets` ranks systems and tests which of
them differ (Friedman, Wilcoxon-Holm, Nemenyi; Demšar 2006), and
:class:`CriticalDifferenceDisplay` draws the result;
:func:`bayesian_signed_rank_test` asks whether two systems are practically better or
equivalent (Benavoli et al. 2017).

:func:`krippendorff_alpha_interval` gives the annotators' agreement on the gold
standard, Krippendorff's alpha, with its bootstrap interval over the units;
:func:`agreement_interval` the other agreement coefficients' (Gwet's AC, the
kappas of Fleiss and Conger, Brennan-Prediger, percent agreement) and
:func:`intraclass_correlation_interval` the ICC's; :func:`judge_agreement` holds a model that rates (a judge) against a
panel of human annotators, with the :func:`alternative_annotator_test`.
"""

from ._across_datasets import AcrossDatasetsComparison, compare_across_datasets
from ._calibration_intervals import decomposition_interval
from ._bayesian import BayesianSignedRankResult, bayesian_signed_rank_test
from ._critical_difference import CriticalDifferenceDisplay
from ._intervals import compare_scores, score_interval
from ._krippendorff import krippendorff_alpha_interval
from ._chance_corrected import agreement_interval
from ._intraclass import intraclass_correlation_interval
from ._alternative_annotator import AlternativeAnnotatorTest, alternative_annotator_test
from ._judge import JudgeReport, judge_agreement
from ._resampling import ConfidenceInterval, ScoreComparison, ScoreInterval

__all__ = [
    "score_interval",
    "compare_scores",
    "decomposition_interval",
    "ScoreInterval",
    "ScoreComparison",
    "ConfidenceInterval",
    "krippendorff_alpha_interval",
    "agreement_interval",
    "intraclass_correlation_interval",
    "alternative_annotator_test",
    "AlternativeAnnotatorTest",
    "judge_agreement",
    "JudgeReport",
    "compare_across_datasets",
    "AcrossDatasetsComparison",
    "CriticalDifferenceDisplay",
    "bayesian_signed_rank_test",
    "BayesianSignedRankResult",
]
