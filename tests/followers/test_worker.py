"""Followers in real Celery workers (Redis + PostgreSQL): a worker killed with SIGKILL
in the middle of ``handle`` loses nothing and repeats nothing; two workers read a
follower one at a time. The probe follower (``tests.followers.probe``) records each
event it handles in its own table, in the follower's transaction."""

from __future__ import annotations

import itertools
import time

import pytest
from django.db import connection, transaction

from games.models import Event, FollowerPosition
from pablo.celery import app
from tests.poll import wait_for

from .conftest import PROBE_SETTINGS, append, games

pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

SETTINGS = {**PROBE_SETTINGS, "PABLO_FOLLOW_SECONDS": "0.3"}


def _log(events: int) -> list[int]:
    """``events`` events over a few games; their positions."""
    mine = games(4)
    for i in range(events):
        with transaction.atomic():
            append(mine[i % 4])
    return list(Event.objects.order_by("position").values_list("position", flat=True))


def _probed(table: str) -> list[tuple[int, int, float, float]]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT position, pid, started, ended FROM {table} ORDER BY position")
        return list(cursor.fetchall())


def _caught_up(positions: list[int]) -> bool:
    row = FollowerPosition.objects.filter(name="probe").first()
    return row is not None and row.position == positions[-1]


def test_a_worker_killed_in_the_middle_of_handle_resumes_with_nothing_lost_or_doubled(
    celery, probe_table
):
    positions = _log(300)
    worker = celery.worker("w1", PROBE_PAUSE="0.4", PROBE_BATCH="40", **SETTINGS)
    app.send_task("games.follow")
    # Killed while a batch is being handled: some batches committed, one under way.
    wait_for(lambda: 0 < len(_probed(probe_table)) < len(positions), 60, step=0.05)
    time.sleep(0.2)
    celery.kill(worker)
    before = _probed(probe_table)
    assert 0 < len(before) < len(positions)
    assert FollowerPosition.objects.get(name="probe").position == before[-1][0]
    celery.worker("w2", PROBE_PAUSE="0", PROBE_BATCH="40", **SETTINGS)
    celery.beat()
    wait_for(lambda: _caught_up(positions), 60)
    after = [row[0] for row in _probed(probe_table)]
    assert after == positions  # every event once: the killed batch was handled again


def test_two_workers_one_active_reader(celery, probe_table):
    positions = _log(240)
    env = {"PROBE_PAUSE": "0.1", "PROBE_BATCH": "10", **SETTINGS}
    workers = [celery.worker("w1", wait=False, **env), celery.worker("w2", **env)]
    celery.wait_ready(workers[0])
    for _ in range(20):  # both workers take follow tasks
        app.send_task("games.follow")
    celery.beat()
    wait_for(lambda: _caught_up(positions), 120)
    rows = _probed(probe_table)
    assert [row[0] for row in rows] == positions  # nothing lost or doubled
    # One handle at a time: the batches of different workers never overlap in time.
    batches = sorted({(started, ended, pid) for _, pid, started, ended in rows})
    for (_, ended, pid), (started, _, other) in itertools.pairwise(batches):
        assert pid == other or started >= ended, (pid, other)
    # ... while both workers ran follow tasks (the one that found the row held passed).
    for worker in workers:
        assert "Task games.follow" in celery.log(worker)
