"""Ctrl-C on ``make run`` stops everything, says so and is no error (issue 19).

A terminal's Ctrl-C sends SIGINT to its whole foreground process group: make,
scripts/run.sh and -- before the fix -- gunicorn, the worker and beat too, which
died at once; the script then took that for a crash ("a process stopped by
itself ... stopping the others", exit 1, and make's ``Error 1``). Now the three run
in process groups of their own, the script alone gets the SIGINT and stops them.
Also: ``make run`` starts as many web processes as the README's table says
(``UVICORN_WORKERS``, 2: uvicorn serves every path on the embedded default).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.deploy.test_run_sigterm import group_alive
from tests.processes import free_port, wait_port

pytestmark = [pytest.mark.slow, pytest.mark.timeout(420)]

ROOT = Path(__file__).resolve().parents[2]


def as_in_a_terminal() -> None:
    """SIGINT at its default, as a shell in a terminal starts ``make run``: a test run started
    in the background (``cmd &`` in a script) ignores SIGINT, and its children would inherit
    that (a shell cannot trap a signal ignored when it starts)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_everything_and_exits_0_saying_so(tmp_path):
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_URL", "CELERY_", "DJANGO_", "PABLO_", "GUNICORN_"))
    }
    env.update(
        PORT=str(port), PABLO_VAR_DIR=str(tmp_path / "var"), PABLO_DEMO="0", CELERY_LOGLEVEL="INFO"
    )
    log = (tmp_path / "run.log").open("wb")
    proc = subprocess.Popen(
        ["make", "run"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,  # a terminal of its own: its group gets the Ctrl-C
        preexec_fn=as_in_a_terminal,
    )  # fmt: skip
    children: list[int] = []
    try:
        wait_port(port, 300)
        worker_log = tmp_path / "var" / "worker.log"
        end = time.monotonic() + 90
        while " ready." not in (worker_log.read_text() if worker_log.exists() else ""):
            assert time.monotonic() < end, (tmp_path / "run.log").read_text()
            time.sleep(0.2)
        out = subprocess.run(["ps", "-eo", "pid=,sid="], capture_output=True, text=True)
        children = [
            int(pid) for pid, sid in (line.split() for line in out.stdout.splitlines())
            if int(sid) == proc.pid and int(pid) != proc.pid
        ]  # fmt: skip
        # README: make run starts UVICORN_WORKERS (default 2) web processes (the
        # worker's heavy lanes, games/lanes.py, are spawned processes too: not counted)
        spawned = [
            pid
            for pid in children
            if "spawn_main" in _cmdline(pid) and "uvicorn" in _cmdline(_parent(pid))
        ]
        assert len(spawned) == 2, [_cmdline(pid) for pid in children]
        started = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
        while (proc.poll() is None or group_alive(proc.pid)) and time.monotonic() - started < 15:
            time.sleep(0.1)
        took = time.monotonic() - started
        text = (tmp_path / "run.log").read_text()
        assert proc.poll() is not None, text
        assert took < 10, took
        assert "Pablo stopped" in text, text
        assert "stopped by itself" not in text and "Error" not in text, text
        # (an exited child of a killed parent stays a zombie of PID 1 where PID 1 does
        # not reap, as in some containers: exited all the same)
        alive = [(pid, _status(pid)) for pid in children if _status(pid) not in ("gone", "")]
        alive = [(pid, status) for pid, status in alive if "zombie" not in status]
        assert not alive, (alive, text)
    finally:
        for pid in [proc.pid, *children]:
            if os.path.exists(f"/proc/{pid}"):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)
        proc.wait(10)


def test_run_sh_exits_0_on_sigint(tmp_path):
    """The script alone (as ``make`` runs it): SIGINT to the group -> exit status 0."""
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_URL", "CELERY_", "DJANGO_", "PABLO_", "GUNICORN_"))
    }
    env.update(
        PORT=str(port), PABLO_VAR_DIR=str(tmp_path / "var"), PABLO_DEMO="0", CELERY_LOGLEVEL="INFO"
    )
    proc = subprocess.Popen(
        ["scripts/run.sh"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=as_in_a_terminal,
    )  # fmt: skip
    try:
        wait_port(port, 300)
        time.sleep(3)  # worker and beat starting
        os.killpg(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=20)
        assert proc.returncode == 0, out.decode()
        assert b"Pablo stopped" in out
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def _parent(pid: int) -> int:
    out = subprocess.run(["ps", "-o", "ppid=", "-p", str(pid)], capture_output=True, text=True)
    return int(out.stdout.strip() or 0)


def _status(pid: int) -> str:
    """What a process left behind is: its name, state and parent."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
    except OSError:
        return "gone"
    return " ".join(f"{k}={fields.get(k, '').strip()}" for k in ("Name", "State", "PPid"))


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def test_kill_int_to_make_alone_stops_everything(tmp_path):
    """Issue 28: ``kill -INT`` to ``make run``'s own pid (not its group) left everything
    running: GNU make passes SIGTERM on to its recipe, never SIGINT."""
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_URL", "CELERY_", "DJANGO_", "PABLO_", "GUNICORN_"))
    }
    env.update(PORT=str(port), PABLO_VAR_DIR=str(tmp_path / "var"), PABLO_DEMO="0")
    log = (tmp_path / "run.log").open("wb")
    proc = subprocess.Popen(
        ["make", "run"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True, preexec_fn=as_in_a_terminal,  # make catches SIGINT
    )  # fmt: skip
    try:
        wait_port(port, 300)
        time.sleep(2)  # worker and beat starting
        children = _session(proc.pid)
        started = time.monotonic()
        os.kill(proc.pid, signal.SIGINT)  # make's pid alone
        while _session(proc.pid) and time.monotonic() - started < 20:
            time.sleep(0.1)
        text = (tmp_path / "run.log").read_text()
        assert len(children) >= 4 and not _session(proc.pid), (children, text)
        assert time.monotonic() - started < 12, text
        assert "Pablo stopped" in text, text
    finally:
        for pid in _session(proc.pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
        proc.wait(10)


def _session(sid: int) -> list[int]:
    """The live processes of session ``sid`` (make, the script and what it started)."""
    out = subprocess.run(["ps", "-eo", "pid=,sid=,stat="], capture_output=True, text=True)
    return [
        int(pid)
        for pid, s, stat in (line.split() for line in out.stdout.splitlines())
        if int(s) == sid and not stat.startswith("Z")
    ]
