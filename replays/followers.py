"""Build a game's replay the moment it ends, so its first page is as fast as any other.

Without this the first request for a finished game loads and folds its whole
stream. The ``replays`` follower of the log (``games.followers``) reads each
game's end, builds the replay once and puts it in Django's default cache, which
every web process reads (docs/viewer.md "Speed"). The cache is an
optimisation: a replay that cannot be built now is logged and built by its
first request instead.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from games.followers import Follower
from games.selectors import replays as replay_selectors

from . import steps

logger = logging.getLogger(__name__)

TERMINAL = ("game_finished", "game_aborted")


class PrepareReplays(Follower):
    name = "replays"

    def wants(self, event: Any) -> bool:
        return event.type in TERMINAL

    def handle(self, events: Sequence[Any]) -> None:
        for event in events:
            try:
                game = replay_selectors.replay_game(event.game_id)
                if game is not None:
                    steps.game_replay(game)
            except Exception:
                logger.warning("replay of game %s not prepared", event.game_id, exc_info=True)
