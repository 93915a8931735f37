"""What each test costs, and the parallel run laid out by it.

Opt-in recorder: ``PABLO_TEST_TIMES=path`` appends one JSON line per test to ``path``
(``id``, ``wall`` and ``cpu`` seconds for its setup, call and teardown together,
``worker``, ``outcome``). ``cpu`` is the user and system time of the test process
(all its threads) plus that of the child processes it reaped meanwhile (a Celery
worker, uvicorn, ``manage.py`` it started and stopped). A wall time far above the
CPU time is waiting: a sleep, a poll, another process (Chromium's time is not
counted: Playwright's driver reaps it, not the test process), or a loaded machine.
The first test of a module also pays for its module-scoped fixtures, the last for
their teardown.

``PABLO_TEST_DURATIONS=write`` (with ``PABLO_TEST_TIMES``): at the end of the run the
recorded wall times replace their tests' entries in ``tests/durations.json`` (test
id -> seconds), which ``tests/conftest.py`` reads to place the longest tests first
across the pytest-xdist workers.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

DURATIONS = Path(__file__).with_name("durations.json")


def durations() -> dict[str, float]:
    """tests/durations.json: test id -> seconds (empty when missing)."""
    try:
        return json.loads(DURATIONS.read_text())
    except FileNotFoundError:
        return {}


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    path = os.environ.get("PABLO_TEST_TIMES")
    if not path:
        return (yield)
    wall, cpu = time.perf_counter(), _cpu()
    try:
        return (yield)
    finally:
        record = {
            "id": item.nodeid,
            "wall": round(time.perf_counter() - wall, 3),
            "cpu": round(_cpu() - cpu, 3),
            "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
            "outcome": getattr(item, "_pablo_outcome", "?"),
        }
        # One write of one line: appends from parallel workers do not interleave.
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (json.dumps(record) + "\n").encode())
        finally:
            os.close(fd)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    settles = report.failed or report.skipped or report.when == "call"
    if settles and getattr(item, "_pablo_outcome", "") != "failed":
        item._pablo_outcome = report.outcome  # type: ignore[attr-defined]
    return report


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = os.environ.get("PABLO_TEST_TIMES")
    if not path or os.environ.get("PABLO_TEST_DURATIONS") != "write":
        return
    if hasattr(session.config, "workerinput"):  # the controller writes, once
        return
    found = durations()
    with open(path) as lines:
        for line in lines:
            record = json.loads(line)
            found[record["id"]] = round(record["wall"], 1)
    DURATIONS.write_text(json.dumps(dict(sorted(found.items())), indent=0) + "\n")
