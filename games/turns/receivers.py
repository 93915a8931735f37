"""What follows a committed append for the turns: the deadline's fast path and the bots.

Connected in ``GamesConfig.ready``. The announcement carries the new events and
the new state (``games.store.signals``), so neither receiver reads the database:
in a game without bots or a near deadline they cost a loop over the new events.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver

from games.store.signals import events_appended

from . import bots, deadlines

log = logging.getLogger(__name__)


@receiver(events_appended, dispatch_uid="games.turns.deadlines")
def fast_path(sender: Any, game_id: Any, version: int, events: Any, **kwargs: Any) -> None:
    try:
        deadlines.on_append(game_id, events)
    except Exception:
        log.exception("fast path of game %s v%s not scheduled", game_id, version)


@receiver(events_appended, dispatch_uid="games.turns.bots")
def bot_turns(
    sender: Any, game_id: Any, version: int, events: Any = (), state: Any = None, **kwargs: Any
) -> None:
    try:
        if state is not None and state.version == version:
            bots.on_append(game_id, state, events)
    except Exception:
        log.exception("bots of game %s v%s not scheduled", game_id, version)
