"""Build a game's replay the moment it ends, so its first page is as fast as any other.

Without this the first request for a finished game loads and folds its whole
stream. The receiver runs after the commit of the action that finished the game
(``games.store.signals``), builds the replay once and puts it in Django's default
cache, which every gunicorn worker reads (docs/viewer.md "Speed"). It never
fails the action: the cache is an optimisation.
"""

from __future__ import annotations

import logging
from typing import Any

from games.selectors import replays as replay_selectors

from . import steps

logger = logging.getLogger(__name__)

TERMINAL = ("game_finished", "game_aborted")


def prepare_replay(sender: Any, *, game_id: Any, version: int, events: Any, **_: Any) -> None:
    if not any(event.type in TERMINAL for event in events):
        return
    try:
        game = replay_selectors.replay_game(game_id)
        if game is not None and game.version == version:
            steps.game_replay(game)
    except Exception:
        logger.warning("replay of game %s not prepared", game_id, exc_info=True)
