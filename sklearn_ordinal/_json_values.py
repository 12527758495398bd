"""Values written into the JSON reports (the evaluation report, the judge's report).

JSON has no NaN and no NumPy scalars: one conversion, shared by every report, so that
their files read the same way.
"""

import math

import numpy as np


def json_value(value):
    """A JSON value: Python numbers and strings, NaN and infinities as None (null)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
