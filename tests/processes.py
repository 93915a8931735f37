"""The one launcher: processes of this checkout started by tests, their ports and databases.

``Processes`` starts a Celery worker or beat, uvicorn (``pablo.asgi``), gunicorn
(``pablo.wsgi``) or ``manage.py``, each in a session of its own with its log in
the test's ``tmp_path``, and stops them all at the end, whatever happens. What a
process is pointed at is its environment: ``Processes(tmp, DATABASE_URL=…)``.

The fixtures, for every test directory (``tests/conftest.py``):

- ``own_redis_database`` (for every test process): its own Redis database
  (``redis_db``) for Celery's messages, the feed's fan-out and the processes it starts;
- ``redis_broker``: that database, flushed before and after the test, so that a
  worker started now takes what the services enqueue here, and only that;
- ``processes``: a ``Processes`` whose logs are printed when the test fails;
- ``celery``: the same, pointed at the pytest-django test database (the test must
  be transactional: the worker sees committed rows only) and ``redis_broker``.

Tests run in parallel (pytest-xdist, docs/design.md "Testing"): every port is the
one the OS gives (``free_port``), every Redis database and test database is the
worker's own, every process writes under the test's ``tmp_path``.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlparse

import pytest
from django.db import connection

from pablo.celery import app
from tests.poll import wait_for

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def free_port() -> int:
    """A loopback port the OS says is free (never a fixed one: parallel runs would meet)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 30, up: bool = True) -> None:
    """Until something listens on ``port`` (``up``), or nothing does any more."""

    def listening() -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                return True
        except OSError:
            return False

    wait_for(lambda: listening() == up, timeout, what=f"port {port} {'up' if up else 'down'}")


def database_url() -> str:
    """The pytest-django test database (this worker's) as a URL, for processes a test starts."""
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{s['NAME']}"
    auth = quote(s["USER"] or "")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"])
    return f"postgres://{auth}@{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{s['NAME']}"


def redis_dbs(spec: str) -> list[int]:
    """``"4,9-15"`` -> [4, 9, 10, …, 15]: the Redis databases the suite may flush."""
    dbs: list[int] = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        low, _, high = part.partition("-")
        dbs.extend(range(int(low), int(high or low) + 1))
    assert dbs and all(1 <= db <= 15 for db in dbs), (
        f"PABLO_TEST_REDIS_DB={spec!r}: databases 1-15 only (0 is the broker's)"
    )
    return dbs


def redis_db() -> int:
    """This test process's Redis database: under pytest-xdist worker ``gwN`` takes the N-th
    of ``PABLO_TEST_REDIS_DB`` (default ``1-15``), else its first."""
    dbs = redis_dbs(os.environ.get("PABLO_TEST_REDIS_DB", "1-15"))
    worker = int(re.sub(r"\D", "", os.environ.get("PYTEST_XDIST_WORKER", "")) or 0)
    assert worker < len(dbs), f"{worker + 1} test workers, {len(dbs)} Redis databases ({dbs})"
    return dbs[worker]


def point_app_at(url: str, options: dict[str, Any] | None = None) -> None:
    """This process's Celery app sends to ``url`` from now on."""
    # Configured from Django settings, the app reads the namespaced keys first.
    for key in ("broker_url", "CELERY_BROKER_URL"):
        app.conf[key] = url
    for key in ("broker_transport_options", "CELERY_BROKER_TRANSPORT_OPTIONS"):
        app.conf[key] = options or {}
    app._pool = None
    app.amqp._producer_pool = None


#: A worker's options that keep it to itself (no gossip, no mingle, no heartbeat).
QUIET = ["--without-heartbeat", "--without-gossip", "--without-mingle"]
#: The pool ``make run`` gives its worker (scripts/run.sh): two threads, so that a bot's
#: move due now does not wait behind the followers' task that enqueued it, as it would
#: in a solo pool.
AS_MAKE_RUN = ["--pool=threads", "--concurrency=2", *QUIET]


class Processes:
    """Starts and stops processes of this checkout; ``procs`` holds (process, log path)."""

    def __init__(self, tmp: Path, **env: str) -> None:
        self.tmp = tmp
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "pablo.settings.test",
            "PABLO_VAR_DIR": str(tmp / "var"),
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        self.procs: list[tuple[subprocess.Popen[bytes], Path]] = []

    def start(self, name: str, args: list[str], **env: str) -> subprocess.Popen[bytes]:
        log = self.tmp / f"{name}-{len(self.procs)}.log"
        proc = subprocess.Popen(
            args,
            cwd=ROOT,
            env={**self.env, **env},
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append((proc, log))
        return proc

    def manage(self, *args: str) -> None:
        out = subprocess.run(
            [str(BIN / "python"), "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0, out.stdout + out.stderr

    def celery(self, name: str, *args: str, **env: str) -> subprocess.Popen[bytes]:
        """``celery -A pablo <args>`` at log level INFO."""
        return self.start(
            name, [str(BIN / "celery"), "-A", "pablo", *args, "--loglevel=INFO"], **env
        )

    def worker(
        self,
        name: str = "w1",
        wait: bool = True,
        options: list[str] | None = None,
        lanes: bool = False,
        **env: str,
    ) -> subprocess.Popen[bytes]:
        """A worker; ``options`` replace the default ones (solo pool, no gossip …);
        ``AS_MAKE_RUN``: the pool ``make run`` starts.

        ``lanes``: the heavy lanes (games/lanes.py) a worker spawns for the heavy queues
        its pool does not consume -- a process each with Django set up afresh (about
        1.5 CPU-seconds apiece, two of them), which only a test that queues heavy work
        (analyses, an ``expert`` bot's moves) needs; the others' workers run without
        them (``PABLO_HEAVY_LANES=0``, unless ``env`` says otherwise)."""
        if options is None:
            options = ["--pool=solo", *QUIET]
        if not lanes:
            env.setdefault("PABLO_HEAVY_LANES", "0")
        proc = self.celery(name, "worker", *options, f"--hostname={name}@%h", **env)
        if wait:
            self.wait_ready(proc)
        return proc

    def warm(self, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
        """Until a worker has run the followers' task once (``games.follow``): its
        first task pays for the imports, the caches and the database connection, which a
        test timing the bots' moves should not count against the first of them."""
        from games import outbox

        outbox.publish("games.follow")
        wait_for(
            lambda: "games.follow[" in self.log(proc) and "succeeded" in self.log(proc),
            timeout,
            what="the worker's first games.follow",
        )

    def beat(self, **env: str) -> subprocess.Popen[bytes]:
        return self.celery("beat", "beat", f"--schedule={self.tmp / 'beat-schedule'}", **env)

    def feed(self, name: str = "feed", workers: int = 1, **env: str) -> str:
        """uvicorn pablo.asgi:application; returns its base URL. Its database connections
        carry ``application_name`` pablo-test-<name> (``pg_stat_activity``)."""
        port = free_port()
        args = [str(BIN / "uvicorn"), "pablo.asgi:application", "--host", "127.0.0.1"]
        args += ["--port", str(port), "--workers", str(workers), "--log-level", "warning"]
        self.start(name, args, PGAPPNAME=f"pablo-test-{name}", **env)
        wait_port(port, 60)
        return f"http://127.0.0.1:{port}"

    def web(self, name: str = "web", workers: int = 2, threads: int = 4, **env: str) -> str:
        """gunicorn pablo.wsgi (the thread path); returns its base URL."""
        port = free_port()
        args = [str(BIN / "gunicorn"), "pablo.wsgi", "--bind", f"127.0.0.1:{port}"]
        args += ["--workers", str(workers), "--threads", str(threads), "--no-control-socket"]
        self.start(name, args, PGAPPNAME=f"pablo-test-{name}", **env)
        wait_port(port, 60)
        return f"http://127.0.0.1:{port}"

    def log(self, proc: subprocess.Popen[bytes]) -> str:
        for p, path in self.procs:
            if p is proc:
                return path.read_text(errors="replace")
        return ""

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}" for _, path in self.procs
        )

    def wait_ready(self, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
        """Until a Celery worker says it is ready; fails at once if it died."""

        def ready() -> bool:
            assert proc.poll() is None, "worker did not start:\n" + self.log(proc)[-4000:]
            return " ready." in self.log(proc)

        wait_for(ready, timeout, what="the worker ready:\n" + self.log(proc)[-4000:])

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        """SIGKILL: no shutdown, no acknowledgements, the database connection just drops."""
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def stop(self, proc: subprocess.Popen[bytes]) -> None:
        """SIGTERM to its session, SIGKILL after 15 s."""
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)

    def close(self) -> None:
        for proc, _ in self.procs:
            self.stop(proc)


@pytest.fixture(scope="session", autouse=True)
def own_redis_database() -> Any:
    """This test process's own Redis database (``redis_db``) for all it sends to Redis:
    Celery's messages, the feed's fan-out, and (``CELERY_BROKER_URL``) the processes it
    starts. Parallel workers never meet, and the suite leaves a running service's
    database alone. ``""`` without Redis."""
    from django.conf import settings

    given = os.environ.get("CELERY_BROKER_URL", "")
    if not given.startswith("redis"):
        yield ""
        return
    url = urlparse(given)._replace(path=f"/{redis_db()}").geturl()
    before = (settings.CELERY_BROKER_URL, settings.PABLO_FEED_REDIS_URL)
    os.environ["CELERY_BROKER_URL"] = settings.CELERY_BROKER_URL = url
    if given == settings.PABLO_FEED_REDIS_URL:  # the fan-out on the broker's Redis
        settings.PABLO_FEED_REDIS_URL = url
    point_app_at(url, app.conf.broker_transport_options)
    yield url
    os.environ["CELERY_BROKER_URL"] = given
    settings.CELERY_BROKER_URL, settings.PABLO_FEED_REDIS_URL = before
    point_app_at(given, app.conf.broker_transport_options)


@pytest.fixture
def redis_broker(require_redis: str) -> Any:
    """This test process's Redis database (``own_redis_database``), flushed before and after:
    a worker started now takes only what this test sends."""
    import redis

    client = redis.Redis.from_url(require_redis)
    client.flushdb()
    yield require_redis
    client.flushdb()
    client.close()


@pytest.fixture
def processes(tmp_path: Path, request: Any) -> Any:
    found = Processes(tmp_path)
    yield found
    found.close()
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        print(found.logs())


def shared_cache(settings: Any, url: str) -> None:
    """The default cache of this test process (its live server too) on ``url``, as a
    service's processes share theirs; the processes it starts are given the same.

    The test settings keep a per-process cache (``LocMemCache``), which a service never
    has: the followers' wake-up hint (``games.followers.wake``) is a key that the
    appending process sets and the worker's ``games.follow`` deletes; in two caches the
    worker never deletes the live server's key, so a person's move woke nobody while the
    key lived and, with no beat behind it, the bots stalled (issue 24's Chromium games).
    """
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "pablo",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        },
    }


@pytest.fixture
def celery(require_postgres: None, redis_broker: str, processes: Processes, settings: Any) -> Any:
    processes.env.update(
        DATABASE_URL=database_url(),
        CELERY_BROKER_URL=redis_broker,
        PABLO_SWEEP_SECONDS="0.5",
        PABLO_WEBHOOK_BACKOFF="0.2",
        # The worker shares this process's cache (``shared_cache``): the followers'
        # wake-up hint, the auth marks.
        PABLO_CACHE_URL=redis_broker,
        PABLO_TEST_KEEP_DEFAULT_CACHE="1",
    )
    shared_cache(settings, redis_broker)
    yield processes
    processes.close()
    connection.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
