"""Real Celery processes for the deadline tests: a worker (or two) and beat on Redis.

The tests using ``celery`` are transactional (the worker must see committed
rows) and point the worker at the pytest-django test database. They use their
own Redis database (``PABLO_TEST_REDIS_DB``, 1 by default; any of 1-15, so that
several test runs side by side each take their own), flushed before and after,
and re-point this process's Celery app at it so that what the services
enqueue here (the fast path, notifications) reaches the worker too.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlparse

import pytest
from django.db import connection

from pablo.celery import app

ROOT = Path(__file__).resolve().parents[1]
CELERY = str(Path(sys.executable).with_name("celery"))


def _point_app_at(url: str, options: dict[str, Any] | None = None) -> None:
    # Configured from Django settings, the app reads the namespaced keys first.
    for key in ("broker_url", "CELERY_BROKER_URL"):
        app.conf[key] = url
    for key in ("broker_transport_options", "CELERY_BROKER_TRANSPORT_OPTIONS"):
        app.conf[key] = options or {}
    app._pool = None
    app.amqp._producer_pool = None


def _database_url() -> str:
    s = connection.settings_dict
    auth = quote(s["USER"] or "")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"])
    host = s.get("HOST") or "127.0.0.1"
    port = s.get("PORT") or 5432
    return f"postgres://{auth}@{host}:{port}/{s['NAME']}"


class Procs:
    """Starts and stops Celery processes; their logs are kept in ``tmp``."""

    def __init__(self, tmp: Path, broker: str) -> None:
        self.tmp = tmp
        self.broker = broker
        self.procs: list[tuple[subprocess.Popen[bytes], Path]] = []
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "pablo.settings.test",
            "DATABASE_URL": _database_url(),
            "CELERY_BROKER_URL": broker,
            "PABLO_SWEEP_SECONDS": "0.5",
            "PABLO_WEBHOOK_BACKOFF": "0.2",
            "PABLO_VAR_DIR": str(tmp / "var"),
            "PYTHONUNBUFFERED": "1",
        }

    def _start(self, name: str, args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        log = self.tmp / f"{name}-{len(self.procs)}.log"
        proc = subprocess.Popen(
            [CELERY, "-A", "pablo", *args, "--loglevel=INFO"],
            cwd=ROOT,
            env={**self.env, **env},
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append((proc, log))
        return proc

    def worker(self, name: str = "w1", wait: bool = True, **env: str) -> subprocess.Popen[bytes]:
        proc = self._start(
            name,
            [
                "worker",
                "--pool=solo",
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
                f"--hostname={name}@%h",
            ],
            env,
        )
        if wait:
            self.wait_ready(proc)
        return proc

    def beat(self) -> subprocess.Popen[bytes]:
        return self._start("beat", ["beat", f"--schedule={self.tmp / 'beat-schedule'}"], {})

    def log(self, proc: subprocess.Popen[bytes]) -> str:
        for p, path in self.procs:
            if p is proc:
                return path.read_text(errors="replace")
        return ""

    def wait_ready(self, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while " ready." not in self.log(proc):
            if proc.poll() is not None or time.monotonic() > end:
                raise AssertionError("worker did not start:\n" + self.log(proc)[-4000:])
            time.sleep(0.1)

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        """SIGKILL: no shutdown, no acknowledgements, the database connection just drops."""
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def stop(self, proc: subprocess.Popen[bytes]) -> None:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)

    def stop_all(self) -> None:
        for proc, _ in self.procs:
            self.stop(proc)

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}" for _, path in self.procs
        )


@pytest.fixture
def redis_broker(require_postgres, require_redis, monkeypatch) -> Any:
    import redis

    db = int(os.environ.get("PABLO_TEST_REDIS_DB", "1"))
    assert 1 <= db <= 15, "the deadline tests use Redis databases 1-15 only (0 is the broker's)"
    parsed = urlparse(require_redis)
    url = f"redis://{parsed.hostname or '127.0.0.1'}:{parsed.port or 6379}/{db}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    before = (app.conf.broker_url, app.conf.broker_transport_options)
    monkeypatch.setenv("CELERY_BROKER_URL", url)  # Celery reads it before its own config
    _point_app_at(url)
    yield url
    monkeypatch.undo()
    _point_app_at(*before)
    client.flushdb()
    client.close()


@pytest.fixture
def celery(redis_broker, tmp_path, request) -> Any:
    procs = Procs(tmp_path, redis_broker)
    yield procs
    procs.stop_all()
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        print(procs.logs())
    connection.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
