"""The turns' followers of the log: the bots' moves and the deadlines' fast path.

Registered in ``GamesConfig.ready`` (``games.followers``). Both only enqueue
Celery tasks that carry what they react to (a bot's move the game's version, a
timeout its turn key), so handling an event twice enqueues a task that stores
nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from games.followers import Follower
from games.models import Event
from games.selectors import games as game_selectors

from . import bots, deadlines


def _last_by_game(events: Sequence[Event]) -> dict[Any, Event]:
    """Each game's newest event in ``events`` (ascending positions: the last one)."""
    return {event.game_id: event for event in events}


class BotTurns(Follower):
    """After every event of a game with bots: enqueue the bots that may act now.

    Only the newest state of each game in the batch counts, and only while it is
    still the game's: a game that moved on is handled at its later events. The
    move is due ``bots.countdown`` (``PABLO_BOT_DELAY``, or a third of it within a
    bot's own turn) after the event was stored, whatever the follower's own lag.
    """

    name = "bots"

    def handle(self, events: Sequence[Event]) -> None:
        last = _last_by_game(events)
        now = timezone.now()
        for game in bots.games_with_bots(list(last)):
            event = last[game.id]
            if game.version != event.seq:
                continue
            state = game_selectors.game_state(game=game)
            waited = (now - event.created_at).total_seconds()
            bots.on_append(game.id, state, last=event, waited=waited)


class DeadlineFastPath(Follower):
    """A deadline set closer than ``PABLO_FAST_PATH_SECONDS`` gets its ETA task."""

    name = "deadlines"

    def wants(self, event: Event) -> bool:
        return event.type in ("deadline_set", "game_finished", "game_aborted")

    def handle(self, events: Sequence[Event]) -> None:
        by_game: dict[Any, list[Event]] = {}
        for event in events:
            by_game.setdefault(event.game_id, []).append(event)
        for game_id, mine in by_game.items():
            deadlines.on_append(game_id, mine)
