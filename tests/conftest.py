"""Test settings shared by the whole suite."""

import os

from hypothesis import HealthCheck, settings

# CI runs on 2 cores: property tests get a fixed, modest budget and no deadline
# (timing on a loaded machine is noise, not a failure).
settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
