"""Test settings: the base settings plus stacked decks and fast hashing."""

import os

from . import *  # noqa: F403

PABLO_ALLOW_STACKED_DECKS = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES["staticfiles"]["BACKEND"] = (  # noqa: F405
    "django.contrib.staticfiles.storage.StaticFilesStorage"
)
# Serve static files from the apps' folders; no collectstatic before tests.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# Webhook tests deliver to a receiver on 127.0.0.1.
PABLO_WEBHOOK_ALLOW_PRIVATE = True
# Throttles stay out of the suite's way (it registers and acts far faster than
# any person); the throttle tests (tests/faults/test_throttling.py) turn them on.
PABLO_THROTTLE_LOGIN_FAILURES = PABLO_THROTTLE_AUTH = PABLO_THROTTLE_ACTIONS = None
PABLO_THROTTLE_GAMES = PABLO_THROTTLE_EMAILS = PABLO_THROTTLE_SIGNUPS = None
PABLO_BOT_GAMES = PABLO_BOT_GAMES_PER_ADDRESS = 0
PABLO_ANALYSES_QUEUED = PABLO_ANALYSES_QUEUED_PER_ADDRESS = 0
# Each test process keeps its derived data (built replays) to itself.
# (The live-feed tests' servers share theirs: PABLO_TEST_KEEP_DEFAULT_CACHE, the
# token revocation and user change marks of games/tokens.py.)
if not os.environ.get("PABLO_TEST_KEEP_DEFAULT_CACHE"):
    CACHES["default"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}  # noqa: F405
if not os.environ.get("PABLO_TEST_KEEP_THROTTLE_CACHE"):
    CACHES["throttle"] = {  # noqa: F405
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "pablo-tests-throttle",
    }
