"""Many streams at once (the deadline sweep), and rebuilding a projection from events."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from django.utils import timezone

from games import errors, rules
from games.models import Event, FairDraw, Game, Snapshot

from . import cache, load, sql
from .stream import Stream, game_key
from .write import TERMINAL_EVENTS, announce, project, sync_seats

logger = logging.getLogger(__name__)


def append_many(
    games: Sequence[Game], decide: Callable[[Stream], Sequence[rules.Event]]
) -> dict[Any, int]:
    """For each locked game: its state (``load.state``: this process's cache, else its
    snapshot and the events after it), ``decide(stream)`` -> new events; store all in
    a few statements (one INSERT of the events, one of the fair draws, one UPDATE of
    the rows).

    ``decide`` evolves the stream's private state by the events it returns, as it
    emits them (``rules.timeout_in_place``): the store applies nothing again.

    ``games`` are rows the caller's transaction has locked, as read under that
    lock. Games whose ``decide`` raises are logged and left out; the rest go
    on. Returns the number of events stored per game id (games given no
    events are left out).
    """
    now = timezone.now()
    done: list[tuple[Game, rules.State, list[Event]]] = []
    draws: list[FairDraw] = []
    for game in games:
        try:
            stream = Stream(game, load.state(game))
            new = decide(stream)
        except Exception:
            logger.exception("batch append to game %s (turn %s) failed", game.id, game.turn_key)
            continue
        if not new:
            continue
        folded = stream.state  # evolved by ``decide``
        rows = [
            Event(
                game=game,
                seq=stream.version + i,
                type=e.type,
                seat=e.seat,
                data=e.data,
                created_at=now,
            )
            for i, e in enumerate(new, start=1)
        ]
        draws += stream.draws()
        done.append((game, folded, rows))
    if not done:
        return {}
    sql.insert_events([row for _, _, rows in done for row in rows])
    FairDraw.objects.bulk_create(draws)
    for game, folded, rows in done:
        project(game, folded, now)
        game.updated_at = now  # bulk_update leaves auto_now fields alone
        cache.remember(game.id, folded, copy=False)
        announce(game.id, folded, rows)
    Game.objects.bulk_update([game for game, _, _ in done], sql.PROJECTED)
    return {game.id: len(rows) for game, _, rows in done}


def rebuild(game_id: Any) -> Game:
    """Recompute the ``Game`` projection and ``Seat`` rows from the events alone."""
    try:
        game = Game.objects.select_for_update().get(pk=game_key(game_id))
    except Game.DoesNotExist:
        raise errors.not_found() from None
    Snapshot.objects.filter(game=game).delete()  # a projection too: made again when needed
    stream_rows = list(Event.objects.filter(game=game).order_by("seq"))
    folded = rules.fold(load.to_engine(row) for row in stream_rows)
    ended = next((r.created_at for r in reversed(stream_rows) if r.type in TERMINAL_EVENTS), None)
    game.finished_at = None
    project(game, folded, ended)
    game.save(update_fields=sql.PROJECTED)
    sync_seats(game, folded)
    return game
