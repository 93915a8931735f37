"""Shared fixtures.

Tests that need a real PostgreSQL, Redis or Celery worker are marked
``services`` and use the ``require_postgres`` / ``require_redis`` fixtures: they
skip (saying why) when the server is not there, and fail instead when
``PABLO_REQUIRE_SERVICES=1`` (as in CI).
"""

from __future__ import annotations

import os
import socket

import pytest
from django.db import connection

from tests.needs import missing

#: The browser fixtures (``chromium``, ``page``, ``artifacts``), for every directory.
pytest_plugins = ["tests.browser"]


def redis_url() -> str:
    return os.environ.get("CELERY_BROKER_URL", "")


def _reachable(url: str, default_port: int) -> bool:
    from urllib.parse import urlparse

    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), 1
        ):
            return True
    except OSError:
        return False


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    """The per-process fold cache (games.streams) starts empty for every test:
    a state cached by one test's game must never serve another's database."""
    from games import authentication, streams

    streams.clear_cache()
    authentication.forget_all()
    yield
    streams.clear_cache()
    authentication.forget_all()


@pytest.fixture
def require_postgres():
    if connection.vendor != "postgresql":
        missing("PostgreSQL (set DATABASE_URL=postgres://…)")


@pytest.fixture
def require_redis():
    url = redis_url()
    if not url.startswith("redis") or not _reachable(url, 6379):
        missing("Redis (set CELERY_BROKER_URL=redis://…)")
    return url
