"""Feed servers for the live-feed tests: ``uvicorn pablo.asgi:application`` (and gunicorn)
as processes of their own, pointed at the test database and the test Redis database.

Their database connections carry ``application_name`` (``PGAPPNAME``), so a test
can count them in ``pg_stat_activity`` and see whether they ran a query.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.faults.servers import free_port, wait_port
from tests.processes import celery, pytest_runtest_makereport  # noqa: F401  (fixtures)
from tests.processes import redis_broker as redis_broker

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


class Servers:
    def __init__(self, tmp: Path, env: dict[str, str]) -> None:
        self.tmp = tmp
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "pablo.settings.test",
            "PABLO_VAR_DIR": str(tmp / "var"),
            "PYTHONUNBUFFERED": "1",
            "DJANGO_LOG_LEVEL": "WARNING",
            **env,
        }
        self.procs: list[tuple[subprocess.Popen[bytes], Path]] = []

    def _start(self, name: str, args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
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

    def feed(self, name: str = "feed", workers: int = 1, **env: str) -> str:
        """uvicorn pablo.asgi:application; returns its base URL."""
        port = free_port(18600, 18699)
        args = [str(BIN / "uvicorn"), "pablo.asgi:application", "--host", "127.0.0.1"]
        args += ["--port", str(port), "--workers", str(workers), "--log-level", "warning"]
        self._start(name, args, {"PGAPPNAME": f"pablo-test-{name}", **env})
        wait_port(port, 60)
        return f"http://127.0.0.1:{port}"

    def web(self, name: str = "web", workers: int = 2, threads: int = 8, **env: str) -> str:
        """gunicorn pablo.wsgi (the thread path)."""
        port = free_port(18600, 18699)
        args = [str(BIN / "gunicorn"), "pablo.wsgi", "--bind", f"127.0.0.1:{port}"]
        args += ["--workers", str(workers), "--threads", str(threads), "--no-control-socket"]
        self._start(name, args, {"PGAPPNAME": f"pablo-test-{name}", **env})
        wait_port(port, 60)
        return f"http://127.0.0.1:{port}"

    def logs(self) -> str:
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for _, p in self.procs
        )

    def close(self) -> None:
        for proc, _ in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, 15)
        for proc, _ in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait(5)


@pytest.fixture
def servers(tmp_path: Path, request: Any) -> Any:
    """Processes of this checkout; ``redis`` (the test Redis database, see
    ``redis_broker``) makes them share the fan-out and the wait counter."""
    found = Servers(tmp_path, {})
    yield found
    found.close()
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        print(found.logs())


@pytest.fixture
def pg_servers(servers: Servers, redis_broker: str) -> Servers:
    """Servers on the test database (PostgreSQL) and the test Redis database."""
    from tests.faults.servers import database_url

    servers.env.update(
        DATABASE_URL=database_url(),
        CELERY_BROKER_URL=redis_broker,
        PABLO_TEST_KEEP_THROTTLE_CACHE="1",  # the wait counter, shared by every process
        PABLO_TEST_KEEP_DEFAULT_CACHE="1",  # the token and user marks (games/api/auth.py)
    )
    return servers


def wait_until(check: Any, timeout: float = 10.0, every: float = 0.02) -> Any:
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > end:
            return value
        time.sleep(every)
