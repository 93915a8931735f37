"""The notification tests' fixtures: a VAPID key, Celery eager with the followers
inline, a push-service stand-in and a webhook receiver on loopback."""

from __future__ import annotations

import pytest

from pablo.celery import app
from tests.helpers import Receiver
from tests.pushservice import PushService

from .common import PAIR


@pytest.fixture
def vapid(settings):
    """Push on, with ``common.PAIR``; loopback endpoints allowed; retries quick."""
    settings.PABLO_VAPID_PRIVATE_KEY = PAIR["private_key"]
    settings.PABLO_VAPID_PUBLIC_KEY = PAIR["public_key"]
    settings.PABLO_VAPID_SUBJECT = "mailto:ops@example.org"
    settings.PABLO_PUSH_ALLOW_PRIVATE = True
    settings.PABLO_WEBHOOK_BACKOFF = 0.01


@pytest.fixture
def eager(settings, followers_inline):
    """Celery in-process, the followers inline, the deadline fast path off."""
    settings.PABLO_FAST_PATH_SECONDS = 0
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


@pytest.fixture
def service():
    s = PushService()
    yield s
    s.close()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()
