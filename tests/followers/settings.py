"""The tests' settings plus the probe follower (``tests.followers.probe_app``), for the worker
processes of tests/followers."""

from pablo.settings.test import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.followers.probe_app.ProbeConfig"]  # noqa: F405
