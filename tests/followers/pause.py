"""A window in the middle of a real follower's batch, for the kill tests only
(``tests/followers/test_kills.py``); installed in the tests' worker processes by
``tests.followers.probe_app``.

With ``PABLO_TEST_PAUSE_FOLLOWER`` = a follower's name, that follower reads
``PABLO_TEST_PAUSE_BATCH`` events at a time, and in each batch appends a line
``<first position> <last position> <pid>`` to the file ``PABLO_TEST_PAUSE_MARKS``
and sleeps ``PABLO_TEST_PAUSE_SECONDS``: a test that reads the file knows where the
worker is, and kills it there. ``PABLO_TEST_PAUSE_AT`` says where:

- ``handled`` (the default): after ``handle`` -- its writes done, its transaction
  (and its new position) not yet committed;
- ``committed``: just after that transaction commits, before anything the follower
  left for after the commit (``transaction.on_commit``: a task enqueued, a wake-up).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games.followers import registered


def install() -> None:
    name = os.environ.get("PABLO_TEST_PAUSE_FOLLOWER")
    if not name:
        return
    follower = next(f for f in registered() if f.name == name)
    follower.batch = int(os.environ.get("PABLO_TEST_PAUSE_BATCH", follower.batch))
    seconds = float(os.environ.get("PABLO_TEST_PAUSE_SECONDS", "0"))
    marks = os.environ.get("PABLO_TEST_PAUSE_MARKS", "")
    committed = os.environ.get("PABLO_TEST_PAUSE_AT", "handled") == "committed"
    handle = follower.handle

    def pause(events: Sequence[Any]) -> None:
        if marks:
            with open(marks, "a") as out:
                out.write(f"{events[0].position} {events[-1].position} {os.getpid()}\n")
        time.sleep(seconds)

    def paused(events: Sequence[Any]) -> None:
        if committed:  # the first of the callbacks after the commit
            transaction.on_commit(lambda: pause(events))
        handle(events)
        if not committed:
            pause(events)

    follower.handle = paused  # type: ignore[method-assign]
