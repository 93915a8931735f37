"""After every committed append (``events_appended``): the "your turn" / "game over"
notification.

The receiver looks at the new events only and never writes to the database:

* the last ``deadline_set`` of the batch names the seats now on turn: a
  ``notify_game`` job is handed to ``fanout``;
* ``game_finished`` / ``game_aborted`` notify every seat.

Whether anyone in the game listens at all came with the append (``listening``,
read in the append's own statement on PostgreSQL), so an action costs no query
here; without it (SQLite, the sweep's batches) ``fanout`` looks it up.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver

from games.store.signals import events_appended

from . import fanout
from .mail import GAME_ABORTED, GAME_FINISHED, YOUR_TURN

log = logging.getLogger(__name__)


@receiver(events_appended, dispatch_uid="games.notifications.on_events_appended")
def on_events_appended(
    sender: Any,
    game_id: Any,
    version: int,
    events: Any,
    listening: bool | None = None,
    **kwargs: Any,
) -> None:
    """After every committed append: notify the players concerned."""
    try:
        _on_events(game_id, version, list(events), listening)
    except Exception:  # never let notifications touch the game action
        log.exception("notifications for game %s v%s failed", game_id, version)


def _on_events(game_id: Any, version: int, events: list[Any], listening: bool | None) -> None:
    turn = None
    ending = None
    for event in events:
        if event.type == "deadline_set":
            turn = event
        elif event.type in (GAME_FINISHED, GAME_ABORTED):
            ending = event
    if ending is not None:
        turn = None
    if turn is None and ending is None:
        return
    if ending is not None:
        kwargs = {"kind": ending.type, "turn_key": None, "deadline": None, "seats": None}
    else:
        kwargs = {
            "kind": YOUR_TURN,
            "turn_key": turn.data["key"],
            "deadline": turn.data.get("deadline"),
            "seats": list(turn.data.get("seats") or []),
        }
    fanout.notify_later(
        {"game_id": str(game_id), "version": version, **kwargs}, listening=listening
    )
