"""Meta-evaluation of ordinal measures: formal properties, UIR and coverage.

The tools of Amigó et al. (2020) to judge evaluation measures themselves: a search
for counterexamples to the formal properties an ordinal measure should satisfy
(section 4), and the coverage of a measure, the Spearman correlation between its
differences and the Unanimous Improvement Ratio of reference measures, on the
paper's synthetic systems (section 5).
"""

from ._properties import PropertyCheck, check_metric_properties, metric_properties_table
from ._synthetic import make_synthetic_ordinal_task, score_systems
from ._uir import coverage, unanimous_improvement_ratio

__all__ = [
    # Formal properties (section 4)
    "check_metric_properties",
    "metric_properties_table",
    "PropertyCheck",
    # Unanimous Improvement Ratio and coverage (section 5.1)
    "unanimous_improvement_ratio",
    "coverage",
    # The synthetic task (section 5.3)
    "make_synthetic_ordinal_task",
    "score_systems",
]
