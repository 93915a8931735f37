"""Shared fixtures.

Tests that need a real PostgreSQL, Redis or Celery worker are marked
``services`` and use the ``require_postgres`` / ``require_redis`` fixtures: they
skip (saying why) when the server is not there, and fail instead when
``PABLO_REQUIRE_SERVICES=1`` (as in CI).
"""

from __future__ import annotations

import importlib
import os
import socket

import pytest
from django.db import connection

from tests.needs import missing

#: Fixtures for every directory: the browser (``chromium``, ``page``, ``artifacts``), the
#: services' users and games (``users``, ``skipbo_game``), Celery processes (``celery``).
pytest_plugins = ["tests.browser", "tests.fixtures", "tests.processes"]


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
    """The per-process fold cache (games.store) starts empty for every test:
    a state cached by one test's game must never serve another's database."""
    from games import store, tokens

    store.clear_cache()
    tokens.forget_all()
    yield
    store.clear_cache()
    tokens.forget_all()


@pytest.fixture
def followers_inline(monkeypatch):
    """The log's followers run in this process at each append's commit (their hint
    catches them up at once instead of enqueueing ``games.follow``)."""
    from games import followers

    monkeypatch.setattr(followers, "wake", followers.follow_all)


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


@pytest.fixture(scope="session", autouse=True)
def _flush_events_on_sqlite_as_on_postgresql():
    """PostgreSQL empties the test database with TRUNCATE, which the append-only trigger
    of ``games_event`` does not see; SQLite's flush deletes rows, which it refuses (a
    transactional test, even a skipped one, then errors in its teardown). On SQLite the
    flush drops the triggers and makes them again (the newest migration's own
    statements: 0010's, which also number a new row's position), so every test still
    runs against an append-only table."""
    if connection.vendor != "sqlite":
        yield
        return
    immutable = importlib.import_module("games.migrations.0010_event_position_followers")
    operations = type(connection.ops)
    original = operations.sql_flush

    def sql_flush(self, style, tables, **kwargs):
        statements = original(self, style, tables, **kwargs)
        if "games_event" not in tables or not statements:
            return statements
        return [*immutable.SQLITE_DROP, *statements, *immutable.SQLITE_TRIGGERS]

    operations.sql_flush = sql_flush
    yield
    operations.sql_flush = original


@pytest.fixture
def eights():
    """Crazy Eights (tests/eights.py), a test-only ruleset, registered for one test."""
    from tests import eights as module

    module.register()
    yield module.ID
    module.unregister()
