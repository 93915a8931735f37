"""The tests' settings plus the probe follower (``tests.followers.probe``), for the worker
processes of tests/followers."""

from pablo.settings.test import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.followers.probe.ProbeConfig"]  # noqa: F405
