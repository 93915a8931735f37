"""``make run`` stops web, worker and beat within 10 s of a SIGTERM to its process group.

That is what a service manager (systemd, a container runtime) does on stop.
The run uses the embedded default (SQLite and the file-system broker in a
temporary folder) on a free port, with a long poll in flight and beat
sweeping, and asserts that no process of the group is left after 10 s.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.faults.servers import call
from tests.processes import free_port

pytestmark = [pytest.mark.slow, pytest.mark.timeout(420)]

ROOT = Path(__file__).resolve().parents[2]


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_sigterm_to_the_process_group_stops_everything_within_10_s(tmp_path):
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_URL", "CELERY_", "DJANGO_", "PABLO_"))
    }
    env.update(
        PORT=str(port), PABLO_VAR_DIR=str(tmp_path / "var"), CELERY_LOGLEVEL="INFO", PABLO_DEMO="0"
    )
    log = (tmp_path / "run.log").open("wb")
    proc = subprocess.Popen(
        ["make", "run"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    try:
        # it says it runs once it answers (a newcomer's first click was refused: the
        # message came a second or two before the web server listened)
        end = time.monotonic() + 300
        while "is running" not in (tmp_path / "run.log").read_text():
            assert time.monotonic() < end and proc.poll() is None, (
                tmp_path / "run.log"
            ).read_text()
            time.sleep(0.02)
        socket.create_connection(("127.0.0.1", port), 5).close()
        worker_log = tmp_path / "var" / "worker.log"
        end = time.monotonic() + 60
        while " ready." not in (worker_log.read_text() if worker_log.exists() else ""):
            assert time.monotonic() < end, (tmp_path / "run.log").read_text()
            time.sleep(0.2)
        base = f"http://127.0.0.1:{port}"
        status, _, user = call(base, "POST", "/api/auth/register/",
                               {"username": "sigterm", "password": "secret-pw"})  # fmt: skip
        assert status == 201, user
        status, _, game = call(base, "POST", "/api/games/", {"ruleset": "pablo", "seats": 2},
                               user["token"])  # fmt: skip
        assert status == 201, game
        # issue 18: make run serves without Django's debug pages, static files still served
        status, _, page = call(base, "GET", "/no-such-page/")
        assert status == 404 and "URLconf" not in str(page) and "urlpatterns" not in str(page)
        assert call(base, "GET", "/static/play/play.js")[0] == 200

        def long_poll() -> None:
            with contextlib.suppress(OSError):  # cut by the stop: expected
                call(base, "GET", f"/api/games/{game['id']}/events/?after=5&wait=30", None,
                     user["token"])  # fmt: skip

        poll = threading.Thread(
            target=long_poll,
            daemon=True,
        )
        poll.start()
        time.sleep(2)  # beat sweeps, the long poll waits
        started = time.monotonic()
        os.killpg(proc.pid, signal.SIGTERM)
        # (make itself is our child: poll() reaps it, or its zombie keeps the group alive)
        while (proc.poll() is None or group_alive(proc.pid)) and time.monotonic() - started < 15:
            time.sleep(0.1)
        took = time.monotonic() - started
        assert proc.poll() is not None and not group_alive(proc.pid), (
            tmp_path / "run.log"
        ).read_text()
        assert took < 10, took
        print(f"stopped in {took:.1f} s")
    finally:
        if group_alive(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
