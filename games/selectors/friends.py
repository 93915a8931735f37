"""The reads of games/friends.py the web pages use (play imports selectors, not friends)."""

from __future__ import annotations

from typing import Any

from games import friends

JSON = dict[str, Any]


history_games = friends.history_games
history_row = friends.history_row
history_summary = friends.history_summary
rematch_of = friends.rematch_of
