"""Private PostgreSQL and Redis servers, and the service's processes, for the fault tests.

The fault tests restart and stop servers, so they never touch the machine's
own PostgreSQL (5432) or Redis (6379), which other test runs share: each test
starts its own PostgreSQL (``initdb`` into a temporary folder, run as the
``postgres`` user since ``initdb`` refuses root) and its own ``redis-server``
on free ports (55400-55499 first), and gunicorn / Celery processes pointed at
them. Everything is stopped at the end, whatever happens.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
REQUIRE = os.environ.get("PABLO_REQUIRE_SERVICES") == "1"


def _missing(what: str) -> None:
    if REQUIRE:
        pytest.fail(f"needs {what} (PABLO_REQUIRE_SERVICES=1)")
    pytest.skip(f"needs {what}")


def free_port(low: int, high: int) -> int:
    """A free loopback port, preferably in [low, high]; else any the OS gives."""
    for port in [*range(low, high + 1), 0]:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise RuntimeError("no free port")


def wait_port(port: int, timeout: float = 30, up: bool = True) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                if up:
                    return
        except OSError:
            if not up:
                return
        time.sleep(0.1)
    raise AssertionError(f"port {port} did not come {'up' if up else 'down'}")


class Postgres:
    """A throw-away PostgreSQL cluster; ``restart`` and ``stop``/``start`` it at will."""

    def __init__(self) -> None:
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not bins or shutil.which("runuser") is None:
            _missing("PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)")
        self.bin = Path(bins[-1]).parent
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            _missing("a postgres system user")
        self.dir = Path(tempfile.mkdtemp(prefix="pablo-faults-pg-", dir="/tmp"))
        os.chmod(self.dir, 0o755)
        shutil.chown(self.dir, "postgres", "postgres")
        self.data = self.dir / "data"
        self.port = free_port(55400, 55449)
        self._as_postgres(["initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres"])
        self.start()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/pablo"
        self.psql("CREATE DATABASE pablo")

    def _as_postgres(self, args: list[str], check: bool = True) -> subprocess.CompletedProcess:
        cmd = ["runuser", "-u", "postgres", "--", str(self.bin / args[0]), *args[1:]]
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=self.dir)
        if check and out.returncode != 0:
            raise AssertionError(f"{args[0]} failed:\n{out.stdout}\n{out.stderr}")
        return out

    def _ctl(self, *args: str) -> None:
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c max_connections=60"
        )
        log = str(self.dir / "log")
        self._as_postgres(["pg_ctl", "-D", str(self.data), "-l", log, "-o", options, "-w", *args])

    def start(self) -> None:
        self._ctl("start")

    def stop(self) -> None:
        self._ctl("stop", "-m", "fast")

    def restart(self) -> None:
        self._ctl("restart", "-m", "fast")

    def psql(self, sql: str, db: str = "postgres") -> str:
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=self.port, user="postgres", dbname=db, autocommit=True
        ) as conn:
            cur = conn.execute(sql)
            return json.dumps(cur.fetchall(), default=str) if cur.description else ""

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._as_postgres(
                ["pg_ctl", "-D", str(self.data), "stop", "-m", "immediate", "-w"], check=False
            )
        shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    """A throw-away redis-server (no persistence); ``stop`` and ``start`` it at will."""

    def __init__(self) -> None:
        self.exe = shutil.which("redis-server")
        if self.exe is None:
            _missing("redis-server")
        self.dir = Path(tempfile.mkdtemp(prefix="pablo-faults-redis-"))
        self.port = free_port(55450, 55499)
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                self.exe,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=(self.dir / "log").open("ab"),
            stderr=subprocess.STDOUT,
        )
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        wait_port(self.port, up=False)

    def restart(self) -> None:
        """Stop and start again at once (its data is gone: no persistence)."""
        self.stop()
        self.start()

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


class Service:
    """gunicorn, Celery worker and beat of this checkout, pointed at the given servers."""

    def __init__(self, tmp: Path, database: str, broker: str = "", **env: str) -> None:
        self.tmp = tmp
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "pablo.settings.test",
            "DATABASE_URL": database,
            "CELERY_BROKER_URL": broker,
            "PABLO_VAR_DIR": str(tmp / "var"),
            "PABLO_SWEEP_SECONDS": "0.5",
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        self.procs: list[tuple[subprocess.Popen[bytes], Path]] = []
        self.port = 0

    def manage(self, *args: str) -> None:
        out = subprocess.run(
            [str(BIN / "python"), "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0, out.stdout + out.stderr

    def _start(self, name: str, cmd: list[str], **env: str) -> subprocess.Popen[bytes]:
        log = self.tmp / f"{name}-{len(self.procs)}.log"
        proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env={**self.env, **env},
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append((proc, log))
        return proc

    def web(self, workers: int = 2, threads: int = 4) -> str:
        self.port = free_port(8150, 8199)
        args = [str(BIN / "gunicorn"), "pablo.wsgi", "--bind", f"127.0.0.1:{self.port}"]
        args += ["--workers", str(workers), "--threads", str(threads), "--no-control-socket"]
        self._start("web", args)
        wait_port(self.port, 60)
        return f"http://127.0.0.1:{self.port}"

    def worker(
        self, name: str = "w1", options: list[str] | None = None, **env: str
    ) -> subprocess.Popen[bytes]:
        """A worker; ``options`` replace the default ones (solo pool, no gossip ...)."""
        if options is None:
            options = ["--pool=solo", "--without-heartbeat", "--without-gossip", "--without-mingle"]
        proc = self._start(
            name,
            [
                str(BIN / "celery"),
                "-A",
                "pablo",
                "worker",
                "--loglevel=INFO",
                *options,
                f"--hostname={name}@%h",
            ],
            **env,
        )
        end = time.monotonic() + 60
        while " ready." not in self.log(proc):
            if proc.poll() is not None or time.monotonic() > end:
                raise AssertionError("worker did not start:\n" + self.log(proc)[-3000:])
            time.sleep(0.1)
        return proc

    def beat(self) -> subprocess.Popen[bytes]:
        schedule = self.tmp / "beat-schedule"
        return self._start(
            "beat",
            [str(BIN / "celery"), "-A", "pablo", "beat", "--loglevel=INFO", f"-s{schedule}"],
        )

    def log(self, proc: subprocess.Popen[bytes]) -> str:
        for p, path in self.procs:
            if p is proc:
                return path.read_text(errors="replace")
        return ""

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}" for _, path in self.procs
        )

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def close(self) -> None:
        for proc, _ in self.procs:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
        for proc, _ in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)


def call(
    base: str, method: str, path: str, body: Any = None, token: str = "", **headers: str
) -> tuple[int, dict[str, str], Any]:
    """One HTTP request: (status, headers, parsed JSON or text). Never raises for a status."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    for name, value in headers.items():
        request.add_header(name.replace("_", "-"), value)
    try:
        with urllib.request.urlopen(request, timeout=40) as answer:
            status, head, raw = answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        status, head, raw = error.code, dict(error.headers), error.read()
    try:
        return status, head, json.loads(raw)
    except ValueError:
        return status, head, raw.decode(errors="replace")


def database_url() -> str:
    """The pytest-django test database as a URL, for processes started by a test."""
    from urllib.parse import quote

    from django.db import connection

    s = connection.settings_dict
    auth = quote(s["USER"] or "")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"])
    return f"postgres://{auth}@{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{s['NAME']}"
