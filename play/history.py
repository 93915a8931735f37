"""A player's own history: their finished games with result, rank and score, per ruleset.

The same reads as ``GET /api/me/history/`` (``selectors.history_*``), newest first,
one page at a time; every row links to the game's replay.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.paginator import Paginator
from django.utils.translation import gettext

from games import selectors

from .lobby import ruleset_name

PAGE = 20


def _row(row: dict[str, Any]) -> dict[str, Any]:
    won = row["result"] == "won"
    when = row.get("finished_at")
    return {
        **row,
        "ruleset_name": ruleset_name(row["ruleset"]),
        "won": won,
        "when": datetime.fromisoformat(when.replace("Z", "+00:00")) if when else None,
        "names": [p["username"] for p in row["players"]],
        "rank_words": rank_words(row["rank"], len(row["players"])),
        "score_words": gettext("cards left in stock")
        if row["ruleset"] == "skipbo"
        else gettext("points"),
    }


def context(user: Any, page_number: Any = 1) -> dict[str, Any]:
    pages = Paginator(selectors.history_games(user=user), PAGE)
    page = pages.get_page(page_number)
    rows = [_row(selectors.history_row(game=g, user=user)) for g in page.object_list]
    per_ruleset = [
        {**s, "name": ruleset_name(s["ruleset"])} for s in selectors.history_summary(user=user)
    ]
    return {"rows": rows, "page": page, "per_ruleset": per_ruleset, "nav": "history"}


def rank_words(rank: int, players: int) -> str:
    """A rank among players in words: "1st of 3" (each language writes its own ordinals)."""
    words = {"rank": rank, "count": players}
    if 10 <= rank % 100 <= 20 or rank % 10 not in (1, 2, 3):
        return gettext("%(rank)sth of %(count)s") % words
    if rank % 10 == 1:
        return gettext("%(rank)sst of %(count)s") % words
    if rank % 10 == 2:
        return gettext("%(rank)snd of %(count)s") % words
    return gettext("%(rank)srd of %(count)s") % words
