"""Private PostgreSQL and Redis servers for the fault tests (the service's processes:
``tests.processes``).

The fault tests restart and stop servers, so they never touch the machine's
own PostgreSQL (5432) or Redis (6379), which other test runs share: each test
starts its own PostgreSQL (``initdb`` into a temporary folder, run as the
``postgres`` user since ``initdb`` refuses root) and its own ``redis-server``
on ports the OS gives, and gunicorn / Celery processes pointed at them.
Everything is stopped at the end, whatever happens.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import pwd
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.needs import missing
from tests.processes import free_port, wait_port


class Postgres:
    """A throw-away PostgreSQL cluster; ``restart`` and ``stop``/``start`` it at will."""

    def __init__(self) -> None:
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not bins or shutil.which("runuser") is None:
            missing("PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)")
        self.bin = Path(bins[-1]).parent
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            missing("a postgres system user")
        self.dir = Path(tempfile.mkdtemp(prefix="pablo-faults-pg-", dir="/tmp"))
        os.chmod(self.dir, 0o755)
        shutil.chown(self.dir, "postgres", "postgres")
        self.data = self.dir / "data"
        self.port = free_port()
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
            missing("redis-server")
        self.dir = Path(tempfile.mkdtemp(prefix="pablo-faults-redis-"))
        self.port = free_port()
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
