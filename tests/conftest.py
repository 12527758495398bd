"""Test settings shared by the whole suite."""

import os

# scikit-learn dispatches to Array API namespaces only when SciPy's own support is on,
# which SciPy reads once, at its import (tests/test_array_api.py needs it).
os.environ.setdefault("SCIPY_ARRAY_API", "1")

from hypothesis import HealthCheck, settings

# CI runs on 2 cores: property tests get a fixed, modest budget and no deadline
# (timing on a loaded machine is noise, not a failure).
settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# CI explores the same examples on every run, so that a landing never hinges on luck;
# run the "thorough" profile locally to search further.
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True,
                          database=None)
settings.register_profile("thorough", max_examples=1000, deadline=None)
default_profile = "ci" if os.environ.get("CI") else "default"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", default_profile))
