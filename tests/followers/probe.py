"""A follower for the tests only: it records each event it handles in a table of its
own (``follower_probe``), in the follower's transaction.

Registered by the Django app ``tests.followers.probe_app`` (settings ``tests.followers.settings``),
which the tests' worker processes load. ``PROBE_PAUSE`` (seconds) is slept in every
``handle``, after the writes: a window to kill the worker in, or to overlap another.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

from django.db import connection

from games.followers import Follower
from games.models import Event

TABLE = "follower_probe"
CREATE = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (position bigint NOT NULL, pid integer NOT NULL,"
    " started double precision NOT NULL, ended double precision NOT NULL)"
)


class Probe(Follower):
    name = "probe"
    batch = int(os.environ.get("PROBE_BATCH", "50"))

    def handle(self, events: Sequence[Event]) -> None:
        started = time.time()
        time.sleep(float(os.environ.get("PROBE_PAUSE", "0")))
        with connection.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO {TABLE} (position, pid, started, ended) VALUES (%s, %s, %s, %s)",
                [(e.position, os.getpid(), started, time.time()) for e in events],
            )
