"""The log's order: a follower that has read up to p never meets a smaller position
later, with many writers committing at once (PostgreSQL; docs/design.md "The log and
its followers").

The naive writer -- positions from the sequence alone, no ordering lock -- is kept
here to show the failure the lock prevents: a transaction that took its position
first can commit last, after a reader has moved past it.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence

import pytest
from django.db import connection, transaction

from games import followers
from games.models import Event, Game

from .conftest import append, append_naively, games

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


class Recorder(followers.Follower):
    """Remembers the positions it handles, in order."""

    name = "recorder"

    def __init__(self) -> None:
        self.seen: list[int] = []

    def handle(self, events: Sequence[Event]) -> None:
        self.seen += [event.position for event in events]


def _in_thread(work: Callable[[], None]) -> threading.Thread:
    def run() -> None:
        try:
            work()
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _two_writers(write: Callable[[Game], None]) -> tuple[list[int], list[int]]:
    """Writer A takes its position first and commits last; B commits in between; a
    reader catches up while A is still open. What the reader saw, what is stored."""
    a, b = games(2)
    recorder = Recorder()
    a_wrote, b_done, a_may_commit = threading.Event(), threading.Event(), threading.Event()

    def writer_a() -> None:
        with transaction.atomic():
            write(a)
            a_wrote.set()
            a_may_commit.wait(10)

    def writer_b() -> None:
        a_wrote.wait(10)
        with transaction.atomic():
            write(b)
        b_done.set()

    threads = [_in_thread(writer_a), _in_thread(writer_b)]
    b_done.wait(1.0)  # with the lock, B waits for A: it is not done
    followers.follow(recorder)
    a_may_commit.set()
    for thread in threads:
        thread.join(10)
    followers.follow(recorder)
    stored = list(Event.objects.order_by("position").values_list("position", flat=True))
    return recorder.seen, stored


def test_the_naive_reading_skips_an_event_that_commits_late():
    seen, stored = _two_writers(append_naively)
    assert len(stored) == 2
    assert seen == stored[1:]  # the reader moved past A's position before A committed


def test_with_the_ordering_lock_the_reader_misses_nothing():
    seen, stored = _two_writers(append)
    assert seen == stored and len(stored) == 2


def _sixteen_writers(write: Callable[[Game], None], appends: int) -> tuple[list[int], list[int]]:
    """16 writers, each appending ``appends`` events to its own game (holding each
    transaction open a little after its insert), while a follower reads throughout."""
    mine = games(16)
    recorder = Recorder()
    done = threading.Event()

    def writer(game: Game) -> Callable[[], None]:
        def run() -> None:
            rng = random.Random(str(game.id))
            for _ in range(appends):
                with transaction.atomic():
                    write(game)
                    time.sleep(rng.uniform(0, 0.004))

        return run

    def reader() -> None:
        while not done.is_set():
            followers.follow(recorder)

    reading = _in_thread(reader)
    writers = [_in_thread(writer(game)) for game in mine]
    for thread in writers:
        thread.join(120)
    done.set()
    reading.join(30)
    followers.follow(recorder)
    stored = list(Event.objects.order_by("position").values_list("position", flat=True))
    assert len(stored) == 16 * appends
    return recorder.seen, stored


def test_sixteen_naive_writers_lose_events_to_a_reader():
    seen, stored = _sixteen_writers(append_naively, appends=25)
    assert len(seen) == len(set(seen))
    assert set(seen) < set(stored)  # some were committed behind the reader's back


def test_sixteen_writers_nothing_missed_nothing_twice():
    seen, stored = _sixteen_writers(append, appends=25)
    assert seen == stored  # every event once, in order
