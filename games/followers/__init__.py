"""Followers of the log: work that follows every stored event, durably and in order.

Every event has a global ``position`` (``games.models.Event``), handed out in
commit order (``games.store.sql.ORDER_LOCK``). A follower reads the log from
the position it stored, in batches, and stores its new position in the same
transaction as its own writes::

    from games.followers import Follower, register

    class Ratings(Follower):
        name = "ratings"              # unique; its stored position is keyed by it
        def handle(self, events):     # games.models.Event rows, ascending .position
            ...                       # idempotent; inside transaction.atomic() with
                                      # the save of this follower's new position
    register(Ratings())               # from the owning app's AppConfig.ready()

``batch`` (default 500) caps the events of one ``handle`` call; ``wants(event)``
is a cheap filter (default: every event): the position moves past the events
it refuses all the same. ``handle`` may run again for events it already saw (a
worker killed before the commit): whatever it does outside the database (a
task enqueued) must be idempotent.

``follow(follower)`` catches one follower up; ``follow_all()`` every one. They
run in the Celery worker (the ``games.follow`` task, ``tasks``): enqueued after
each committed append as a hint (``wake``, coalesced: at most one waiting task),
and by beat every ``PABLO_FOLLOW_SECONDS`` as the safety net, so a follower
catches up from its position after any crash, restart or outage. The
follower's row is read ``FOR UPDATE SKIP LOCKED``: one active reader per
follower across workers and machines; another worker meanwhile moves on to the
next follower. A follower whose ``handle`` raises is logged and retried at the
next run, from the same position (it blocks only itself).

A follower with no stored row starts at the beginning of the log (position 0);
one added to a running service that should start at the head gets its row in
a data migration (migration 0010 did so for the first ones). ``lag`` says how
far each one is behind (``manage.py followers``, the readiness view
``/health/ready``). docs/design.md "The log and its followers".
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from games import outbox
from games.models import Event, FollowerPosition

__all__ = [
    "Follower",
    "Lag",
    "follow",
    "follow_all",
    "head",
    "lag",
    "register",
    "registered",
    "wake",
]

log = logging.getLogger(__name__)

#: The cache key of the hint: set while a ``games.follow`` task waits in the broker.
WAKE_KEY = "followers:woken"


class Follower:
    """One follower of the log (subclass it; see the module's docstring)."""

    name: str = ""
    batch: int = 500

    def wants(self, event: Event) -> bool:
        return True

    def handle(self, events: Sequence[Event]) -> None:
        raise NotImplementedError


_registry: dict[str, Follower] = {}


def register(follower: Follower) -> Follower:
    """Add ``follower`` to the followers this process runs (once per name)."""
    if not follower.name:
        raise ValueError(f"{follower!r} has no name")
    known = _registry.get(follower.name)
    if known is not None and type(known) is not type(follower):
        raise ValueError(f"two followers are named {follower.name!r}")
    _registry[follower.name] = follower
    return follower


def registered() -> list[Follower]:
    return list(_registry.values())


def head() -> int:
    """The position of the newest event (0: none)."""
    return Event.objects.aggregate(top=Max("position"))["top"] or 0


def _hold(name: str) -> FollowerPosition | None:
    """The follower's row, locked until the end of the transaction; None while another
    reader holds it (SQLite, one writer at a time, has no SKIP LOCKED: always the row)."""
    query = FollowerPosition.objects.filter(name=name)
    if connection.features.has_select_for_update_skip_locked:
        query = query.select_for_update(skip_locked=True)
    return query.first()


def follow(follower: Follower, *, budget: float | None = None) -> int:
    """Catch ``follower`` up from its stored position; the number of events read (0 too
    when another reader holds it). Stops after ``budget`` seconds, if given."""
    FollowerPosition.objects.get_or_create(name=follower.name)
    started = time.monotonic()
    read = 0
    while True:
        with transaction.atomic():
            row = _hold(follower.name)
            if row is None:
                return read
            events = list(
                Event.objects.filter(position__gt=row.position).order_by("position")[
                    : follower.batch
                ]
            )
            if events:
                wanted = [event for event in events if follower.wants(event)]
                if wanted:
                    follower.handle(wanted)
                row.position = events[-1].position
                row.save(update_fields=["position", "updated_at"])
        read += len(events)
        if budget is not None and time.monotonic() - started > budget:
            return read
        # Asked again once the row is free: an append whose hint found it held (and
        # gave up) committed before this question, so it is not left behind.
        if len(events) < follower.batch and head() <= row.position:
            return read


def follow_all(*, budget: float | None = None) -> int:
    """Catch every registered follower up, one after the other; events read in all.

    A follower that fails is logged and left for the next run: the others go on.
    """
    read = 0
    for follower in registered():
        try:
            read += follow(follower, budget=budget)
        except Exception:
            log.exception("follower %s failed; it retries from its position", follower.name)
    return read


def wake() -> None:
    """The hint after a committed append: enqueue ``games.follow`` unless one already
    waits (never raises: beat's run is the safety net)."""
    try:
        if cache.add(WAKE_KEY, 1, timeout=float(settings.PABLO_FOLLOW_SECONDS) * 2):
            outbox.publish("games.follow")
    except Exception:
        log.warning("followers not woken; beat's run will catch them up", exc_info=True)


def hint(sender: Any, **kwargs: Any) -> None:
    """The receiver of ``events_appended`` (connected in ``GamesConfig.ready``)."""
    wake()


def woken() -> None:
    """A ``games.follow`` task starts: the next append enqueues another."""
    try:
        cache.delete(WAKE_KEY)
    except Exception:
        log.warning("followers' hint not reset", exc_info=True)


@dataclass
class Lag:
    name: str
    position: int
    head: int
    #: Events stored after ``position``.
    events: int
    #: How long the oldest of them has waited (0: none).
    seconds: float
    updated_at: datetime | None


def lag() -> list[Lag]:
    """Every registered follower's position and how far behind the log's head it is."""
    top = head()
    rows = {row.name: row for row in FollowerPosition.objects.all()}
    now = timezone.now()
    found = []
    for follower in registered():
        row = rows.get(follower.name)
        position = row.position if row is not None else 0
        behind = Event.objects.filter(position__gt=position)
        oldest: Any = behind.order_by("position").values_list("created_at", flat=True).first()
        found.append(
            Lag(
                name=follower.name,
                position=position,
                head=top,
                events=behind.count() if oldest is not None else 0,
                seconds=(now - oldest).total_seconds() if oldest is not None else 0.0,
                updated_at=row.updated_at if row is not None else None,
            )
        )
    return found
