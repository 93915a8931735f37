"""Test settings: the base settings plus stacked decks and fast hashing."""

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
