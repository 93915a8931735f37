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
#: services' users and games (``users``, ``skipbo_game``), Celery processes (``celery``);
#: what each test costs (``tests.timing``: ``PABLO_TEST_TIMES``, tests/durations.json);
#: the workers' PostgreSQL databases copied from one migrated template (``tests.databases``).
pytest_plugins = [
    "tests.browser",
    "tests.databases",
    "tests.fixtures",
    "tests.processes",
    "tests.timing",
]


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
    a state cached by one test's game must never serve another's database. So does
    the followers' hint: a test whose ``games.follow`` was enqueued to no worker left
    its "a follow task waits" mark in the shared cache for 2 s, and the next test's
    appends then woke no follower (an eager test's "your turn" mail never came:
    order-dependent failures of the mail tests)."""
    from games import followers, store, tokens
    from games.selectors.accounts import bot_accounts_forget

    store.clear_cache()
    tokens.forget_all()
    bot_accounts_forget()
    followers.woken()
    yield
    store.clear_cache()
    tokens.forget_all()
    bot_accounts_forget()


@pytest.fixture(autouse=True)
def _language_of_the_settings():
    """Every test starts in the settings' language: a request through the test client
    (LocaleMiddleware) leaves its language active in the thread, and a French page
    fetched by one test must not turn the next test's sentences French."""
    from django.conf import settings
    from django.utils import translation

    yield
    translation.activate(settings.LANGUAGE_CODE)


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
#: A test's cost for the parallel split, in seconds: tests/durations.json's (measured:
#: ``tests/timing.py``), else a guess by its markers, else ``SHORT``.
COST = {"slow": 40.0, "browser": 10.0, "services": 5.0}
SHORT = 0.5
#: Tests that take at least this long start each worker's share, longest first.
LONG = 2.0


def _guess(item: pytest.Item) -> float:
    return max([COST[m.name] for m in item.iter_markers() if m.name in COST], default=SHORT)


def _module_scoped(item: pytest.Item) -> bool:
    """Does ``item`` use a module-scoped fixture (Chromium, a server)? Its module's long
    tests then run together, so that one worker sets it up once."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs and defs[-1].scope == "module" for defs in info.name2fixturedefs.values())


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]):
    """Mark the pure tests (``pure``), and lay the collection out for pytest-xdist.

    ``--dist worksteal`` hands each of the N workers one contiguous N-th of the
    collection (by count), and idle workers then steal from the tail of the one with
    the most left. In file order the long tests (slow, browser) sit together and one
    worker gets most of them, finishing minutes after the others. Here the long tests
    (``LONG`` s or more, by tests/durations.json or the markers' guess) are dealt out
    longest first, each to the share with the least work so far, and start the shares,
    so that they all start at once; the short tests fill each share up in file order
    and are what is stolen at the end. Long tests of a module with a module-scoped
    fixture (a module's browser tests share one Chromium) stay together."""
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
    from tests.timing import durations, layout

    measured = durations()
    cost = {item: measured.get(item.nodeid, _guess(item)) for item in items}
    together = {item: str(item.path) for item in items if _module_scoped(item)}
    items[:] = layout(items, cost, together, workers, LONG)
    return None
