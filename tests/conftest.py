"""Hypothesis settings for the whole suite.

Property tests here play whole rounds, so examples are slow by design: no
deadline, and no too-slow health check, which on a loaded machine would only
add noise. Under CI (`CI` set) the examples are derandomized, so a run is
reproducible and a failure can be replayed from its printed blob.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "xeri",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("xeri-ci", parent=settings.get_profile("xeri"), derandomize=True)
settings.load_profile("xeri-ci" if os.environ.get("CI") else "xeri")
