"""The last events of a game as a seat saw them, for the table page.

A thin name for ``selectors.games.recent_events``: the store keeps the state just
before those events (its cache, advanced by the few events since the last
request, or the game's snapshot), so the page never folds the whole stream.
Redaction happens only in the rules.
"""

from __future__ import annotations

from typing import Any

from games.selectors import games as game_selectors


def recent_events(*, game: Any, seat: int | None, count: int) -> list[dict[str, Any]]:
    """The game's last ``count`` events, each as ``seat`` saw it at its own moment."""
    return game_selectors.recent_events(game=game, seat=seat, count=count)


def acted_since_round_end(*, game: Any, seat: int) -> bool:
    """Whether ``seat`` has acted since the last round ended (its reveal is over for them)."""
    return game_selectors.acted_since_round_end(game=game, seat=seat)
