"""The name of the trivial baseline's row in an evaluation report.

Its own module, so that the report (``_report``) and its chart (``_plot``) both take it
from below and neither imports the other.
"""

# The row of the trivial classifier of each measure, among the systems.
TRIVIAL = "(trivial)"
