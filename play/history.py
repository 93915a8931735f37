"""A player's own history: their finished games with result, rank and score, per ruleset.

The same reads as ``GET /api/me/history/`` (``games.selectors.friends``), newest first,
one page at a time; every row links to the game's replay.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.paginator import Paginator

from games.selectors import friends as friend_selectors

from .lobby import ruleset_name

PAGE = 20


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{({1: 'st', 2: 'nd', 3: 'rd'}).get(n % 10, 'th')}"


def _row(row: dict[str, Any]) -> dict[str, Any]:
    won = row["result"] == "won"
    when = row.get("finished_at")
    return {
        **row,
        "ruleset_name": ruleset_name(row["ruleset"]),
        "won": won,
        "when": datetime.fromisoformat(when.replace("Z", "+00:00")) if when else None,
        "names": [p["username"] for p in row["players"]],
        "rank_words": f"{_ordinal(row['rank'])} of {len(row['players'])}",
        "score_words": "cards left in stock" if row["ruleset"] == "skipbo" else "points",
    }


def context(user: Any, page_number: Any = 1) -> dict[str, Any]:
    pages = Paginator(friend_selectors.history_games(user=user), PAGE)
    page = pages.get_page(page_number)
    rows = [_row(friend_selectors.history_row(game=g, user=user)) for g in page.object_list]
    per_ruleset = [
        {**s, "name": ruleset_name(s["ruleset"])}
        for s in friend_selectors.history_summary(user=user)
    ]
    return {"rows": rows, "page": page, "per_ruleset": per_ruleset, "nav": "history"}
