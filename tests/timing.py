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
from collections.abc import Hashable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

DURATIONS = Path(__file__).with_name("durations.json")
T = TypeVar("T", bound=Hashable)


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


def layout(
    items: Sequence[T],
    cost: Mapping[T, float],
    together: Mapping[T, str],
    workers: int,
    long: float,
) -> list[T]:
    """``items`` in the order that gives each of ``workers`` pytest-xdist workers (``--dist
    worksteal``: a contiguous share each, by count) its part of the long tests first.

    The tests that cost ``long`` seconds or more are dealt out longest first, each unit
    to the share with the least work so far; a unit is one test, or the long tests with
    the same ``together`` key (a module's, sharing a module-scoped fixture), in parts of
    at most half a worker's work. The short tests fill the shares up in their order."""
    cap = max(sum(cost[i] for i in items) / workers / 2, long)
    units = sorted(_units([i for i in items if cost[i] >= long], cost, together, cap),
                   key=lambda unit: -sum(cost[i] for i in unit))  # fmt: skip
    short = [i for i in items if cost[i] < long]
    shares: list[list[T]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for unit in units:
        least = loads.index(min(loads))
        shares[least].extend(unit)
        loads[least] += sum(cost[i] for i in unit)
    left = len(items)
    for n, share in enumerate(shares):  # worksteal's split: what is left // workers left
        take = max(0, left // (workers - n) - len(share))
        left -= len(share) + take
        share.extend(short[:take])
        del short[:take]
    shares[-1].extend(short)
    return [i for share in shares for i in share]


def _units(
    items: list[T], cost: Mapping[T, float], together: Mapping[T, str], cap: float
) -> Iterator[list[T]]:
    grouped: dict[str, list[T]] = {}
    for item in items:
        if item in together:
            grouped.setdefault(together[item], []).append(item)
        else:
            yield [item]
    for group in grouped.values():
        group.sort(key=lambda i: -cost[i])
        part: list[T] = []
        for item in group:
            if part and sum(cost[i] for i in part) + cost[item] > cap:
                yield part
                part = []
            part.append(item)
        yield part
