"""The warnings of a report's computations, recorded as rows of ``report.warnings``."""

import warnings
from contextlib import contextmanager


@contextmanager
def recorded_warnings(caught, system, measure, ignore=()):
    """Record the warnings of one computation into ``caught`` (a list of rows), to be
    summarized once per measure; categories in ``ignore`` are dropped."""
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        yield
    for record in records:
        if ignore and issubclass(record.category, ignore):
            continue
        caught.append({"system": system, "measure": measure,
                       "category": record.category.__name__,
                       "message": " ".join(str(record.message).split())})
