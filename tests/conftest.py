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


#: Tests of these folders exercise the pure rooms (games/rules, games/bots, games/fairness):
#: no database, broker or setting can change what they find, so the embedded run
#: (`make test-embedded`, after the run on PostgreSQL) leaves out those that use no database.
PURE_FOLDERS = ("tests/rules/", "tests/bots/", "tests/fairness/")
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "live_server"}
#: A rough cost per test for the parallel split: its markers' weight.
COST = {"slow": 40, "browser": 10, "services": 5}


def _cost(item: pytest.Item) -> int:
    return max([COST[m.name] for m in item.iter_markers() if m.name in COST], default=1)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]):
    """Mark the pure tests (``pure``), and lay the collection out for pytest-xdist.

    ``--dist worksteal`` hands each of the N workers one contiguous N-th of the
    collection, and idle workers then steal from the tail of the busiest. In file
    order the long tests (slow, browser) sit together and one worker gets most of
    them, finishing minutes after the others; here each worker's share starts with
    its part of the long tests, spread by module (a module's browser tests share one
    Chromium) by their cost, longest first, so that they all start at once and the
    short tests fill in and are stolen at the end."""
    root = str(config.rootpath) + os.sep
    for item in items:
        path = str(item.path).removeprefix(root)
        uses_db = item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(
            getattr(item, "fixturenames", ())
        )
        if path.startswith(PURE_FOLDERS) and not uses_db:
            item.add_marker(pytest.mark.pure)
    yield  # the other hooks: -m and -k deselect (they see ``pure``)

    workers = int(getattr(config, "workerinput", {}).get("workercount", 0) or 0)
    if workers < 2:
        return None
    long: dict[str, list[pytest.Item]] = {}
    short: list[pytest.Item] = []
    for item in items:
        if _cost(item) > 1:
            long.setdefault(str(item.path), []).append(item)
        else:
            short.append(item)
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    loads = [0] * workers
    for module in sorted(long.values(), key=lambda m: -sum(map(_cost, m))):
        least = loads.index(min(loads))
        shares[least].extend(sorted(module, key=lambda i: -_cost(i)))
        loads[least] += sum(map(_cost, module))
    size = -(-len(items) // workers)  # the worker's contiguous share
    for share in shares:
        take = max(0, size - len(share))
        share.extend(short[:take])
        del short[:take]
    shares[-1].extend(short)
    items[:] = [item for share in shares for item in share]
    return None
