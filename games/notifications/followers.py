"""The notifications' follower of the log: "your turn", "game over", and the pushes and
mails of a rematch offered and a private game's seat taken (``fanout.notify_joined``).

For each game in a batch it looks at the newest turn (the last
``deadline_set``) or the game's end (``game_finished`` / ``game_aborted``),
asks once for the whole batch which games have a player listening, and fans
each notification out (``fanout.notify_game``) in the follower's transaction:
the turn's reminder row is written together with the follower's position, and
the deliveries are enqueued after that commit. A turn that is no longer the
game's is not notified (a later event of the game is).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.followers import Follower
from games.models import Event, Game

from . import fanout
from .mail import GAME_ABORTED, GAME_FINISHED, YOUR_TURN

TURN = "deadline_set"
ENDINGS = (GAME_FINISHED, GAME_ABORTED)
JOINS = ("game_created", "player_joined")  # pushes only: a rematch, a seat taken


def _job(game_id: Any, events: list[Event]) -> dict[str, Any]:
    """The notification of a game's events (in order): its end, else its newest turn."""
    ending = next((e for e in reversed(events) if e.type in ENDINGS), None)
    job: dict[str, Any] = {"game_id": str(game_id), "version": events[-1].seq}
    if ending is not None:
        return {**job, "kind": ending.type, "turn_key": None, "deadline": None, "seats": None}
    turn = events[-1]
    return {
        **job,
        "kind": YOUR_TURN,
        "turn_key": turn.data["key"],
        "deadline": turn.data.get("deadline"),
        "seats": list(turn.data.get("seats") or []),
    }


class Notifications(Follower):
    name = "notifications"

    def wants(self, event: Event) -> bool:
        return event.type == TURN or event.type in ENDINGS or event.type in JOINS

    def handle(self, events: Sequence[Event]) -> None:
        by_game: dict[Any, list[Event]] = {}
        joins: dict[Any, list[Event]] = {}
        for event in events:
            mine = joins if event.type in JOINS else by_game
            mine.setdefault(event.game_id, []).append(event)
        listening = fanout.listening(list(by_game))
        for game_id, mine in by_game.items():
            if game_id in listening:
                fanout.notify_game(**_job(game_id, mine))
        if joins:  # pushes and mails: one query per batch that has joins
            for game in Game.objects.filter(id__in=list(joins), private=True):  # rematches too
                fanout.notify_joined(game=game, events=joins[game.id])
