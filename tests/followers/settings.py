"""The tests' settings plus the probe follower (``tests.followers.probe_app``), for the worker
processes of tests/followers."""

import os

from pablo.settings.test import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.followers.probe_app.ProbeConfig"]  # noqa: F405

# The kill tests' mail goes to files the test reads (the worker's own outbox is out of
# its reach).
if os.environ.get("PABLO_TEST_MAIL_DIR"):
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = os.environ["PABLO_TEST_MAIL_DIR"]
