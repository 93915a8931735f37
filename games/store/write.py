"""Appending to a game's stream: events and fair draws, the projection, the announcement.

``append`` stores events at seqs ``version + 1 ...`` after the stream's
version, in one statement on PostgreSQL (``sql.store``): the projection
(version, status, turn, deadline, result) is updated only where the row is
still at the expected version and the events are inserted from that update's
``RETURNING``. Zero rows means someone else moved the game: 409
``version_conflict`` (``Stale`` for an unlocked stream), nothing stored; the
unique ``(game, seq)`` constraint is the last line of defence. The fair draws
the stream's chance made are stored with the events, in the same transaction.
``Seat`` rows follow joins; after the commit the new state enters the cache
and ``events_appended`` is sent.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import errors, rules
from games.bots import bot_level
from games.models import Event, FairDraw, Game, Seat

from . import cache, snapshots, sql
from .signals import events_appended
from .stream import Stale, Stream

logger = logging.getLogger(__name__)

JSON = dict[str, Any]

TERMINAL_EVENTS = ("game_finished", "game_aborted")


@dataclass
class Appended:
    #: The new state; shared with the cache once committed: read it, never change it.
    state: rules.State
    rows: list[Event]
    views: list[JSON]


def start(game: Game, created: Sequence[rules.Event]) -> Appended:
    """The first events of a new game (``game`` just inserted at version 0)."""
    stream = Stream(game, rules.fold(created))
    stream.version = 0
    return append(stream, created, after=stream.state)


def append(
    stream: Stream,
    new: Sequence[rules.Event],
    *,
    after: rules.State | None = None,
    seen: Sequence[JSON] = (),
) -> Appended:
    """Append ``new`` (and the draws of ``stream.context()``) after the stream's version.

    ``after``: the state the rules already evolved by ``new`` (it is kept as it
    is: nothing is applied again); else the stream's state is evolved here,
    consumed. ``seen``: each event as the caller saw it (``rules.act_seen``),
    handed back in ``Appended.views`` with its seq and time.
    """
    game, version = stream.game, stream.version
    draws = stream.draws()
    if draws and not stream.locked:
        raise Stale  # the draws go in the events' transaction: under the lock
    now = timezone.now()
    rows = [
        Event(game=game, seq=version + i, type=e.type, seat=e.seat, data=e.data, created_at=now)
        for i, e in enumerate(new, start=1)
    ]
    if after is None:
        folded = stream.state
        for event in new:
            rules.apply(folded, event)
    else:
        folded = after
    project(game, folded, now if any(r.type in TERMINAL_EVENTS for r in rows) else None)
    game.updated_at = now
    try:
        stored = sql.store(game, version, rows)
    except IntegrityError:
        stored = -1
    if stored == 0 and not stream.locked:
        raise Stale
    if stored != len(rows):
        raise errors.version_conflict()
    if draws:
        FairDraw.objects.bulk_create(draws)
    if folded.version // snapshots.SNAPSHOT_EVERY > version // snapshots.SNAPSHOT_EVERY:
        snapshots.save(game.id, folded)
    if any(e.type == "player_joined" for e in new):
        sync_seats(game, folded)
    # Appended.state is read-only from here on (it is the cached one).
    cache.remember(game.id, folded, copy=False, row=game)
    announce(game.id, folded, rows)
    return Appended(folded, rows, [event_data(r, d) for r, d in zip(rows, seen, strict=False)])


def project(game: Game, folded: rules.State, ended: datetime | None) -> None:
    """Copy the folded state onto the game object (not saved)."""
    game.status = folded.status
    game.version = folded.version
    game.turn_key = folded.turn_key or ""
    game.deadline = parse_deadline(folded.deadline) if folded.status == "active" else None
    game.result = folded.result
    if folded.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        game.finished_at = game.finished_at or ended
    else:
        game.finished_at = None


def parse_deadline(value: str | None) -> datetime | None:
    """A ``deadline_set`` event's ISO 8601 deadline as an aware datetime."""
    if not value:
        return None
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def sync_seats(game: Game, folded: rules.State) -> None:
    """Make the ``Seat`` rows match the players of ``folded`` (joins only ever add)."""
    have = set(Seat.objects.filter(game=game).values_list("seat", flat=True))
    missing = {s: name for s, name in enumerate(folded.players) if name and s not in have}
    if not missing:
        return
    users = get_user_model().objects.filter(username__in=missing.values())
    by_name = {u.username: u for u in users}
    # The people's rows locked, as ``accounts.bot_account_make`` locks its own before it
    # looks for a seat: a seat being written makes it wait, then answer ``has_played``.
    # (House bots' rows are left alone: every game with bots would queue on them.)
    people = [u.pk for u in by_name.values() if bot_level(u.username) is None]
    if people:
        list(
            get_user_model()
            .objects.select_for_update()
            .filter(pk__in=people)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
    Seat.objects.bulk_create(
        [Seat(game=game, seat=s, user=by_name[name]) for s, name in missing.items()]
    )


def announce(game_id: uuid.UUID, state: rules.State, rows: list[Event]) -> None:
    """Send ``events_appended`` once the transaction commits (never if it rolls back).

    ``state``: the new state (shared, read-only), so receivers need not read the game.
    """
    transaction.on_commit(lambda: _send(game_id, state, rows))


def _send(game_id: uuid.UUID, state: rules.State, rows: list[Event]) -> None:
    answers = events_appended.send_robust(
        sender=Game, game_id=game_id, version=state.version, events=rows, state=state
    )
    for receiver, answer in answers:
        if isinstance(answer, Exception):
            logger.error(
                "events_appended receiver %r failed for game %s",
                receiver,
                game_id,
                exc_info=(type(answer), answer, answer.__traceback__),
            )


def event_data(row: Event, data: JSON) -> JSON:
    """An event as the API shows it."""
    return {
        "seq": row.seq,
        "type": row.type,
        "seat": row.seat,
        "at": None if row.created_at is None else rules.iso(row.created_at),
        "data": data,
    }
