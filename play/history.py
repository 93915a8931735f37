"""A player's own history: their finished games with place and points, per ruleset.

The same reads as ``GET /api/me/history/`` (``games.selectors.friends``), newest first,
one page at a time; every row links to the game's replay. A game is "won" by its
winners and "lost" only by the players the rules made lose (Pablo's 42); anyone
else simply has a place ("2nd of 3"): in Cabo nobody loses.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.paginator import Paginator
from django.utils.formats import number_format
from django.utils.translation import gettext

from games import rules
from games.names import player_name
from games.ratings import selectors as ratings
from games.selectors import friends as friend_selectors
from tabletop.places import ordinal, rank_words

from .lobby import ruleset_name

PAGE = 20


def _row(row: dict[str, Any], losers: list[int]) -> dict[str, Any]:
    won = row["result"] == "won"
    when = row.get("finished_at")
    return {
        **row,
        "ruleset_name": ruleset_name(row["ruleset"]),
        "won": won,
        "lost": not won and row["you"] in losers,
        "when": datetime.fromisoformat(when.replace("Z", "+00:00")) if when else None,
        "names": [player_name(p["username"]) for p in row["players"]],
        "rank_words": rank_words(
            row["rank"],
            len(row["players"]),
            tied=sum(p["rank"] == row["rank"] for p in row["players"]) > 1,
        ),
        "score_words": _points(row["ruleset"], row["score"]),
    }


def _points(ruleset: str, score: float) -> str:
    """A score in the ruleset's words ("1 point", "3 cards left in stock")."""
    one, many = rules.get_ruleset(ruleset).presentation.score_words
    # in the reader's numbers: "85.5" in English, "85,5" in French and German
    shown = number_format(int(score) if float(score).is_integer() else score)
    return f"{shown} {gettext(one) if abs(score) == 1 else gettext(many)}"


def _rows(games: Any, user: Any) -> list[dict[str, Any]]:
    out = []
    for g in games:
        losers = (g.result or {}).get("losers") or []
        out.append(_row(friend_selectors.history_row(game=g, user=user), losers))
    return out


def summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per ruleset: games played, won, lost (by the rules only), the places and the
    average points (Skip-Bo: cards left in stock)."""
    by: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by.setdefault(r["ruleset"], []).append(r)
    out = []
    for ruleset in sorted(by):
        mine = by[ruleset]
        places: dict[int, int] = {}
        for r in mine:
            places[r["rank"]] = places.get(r["rank"], 0) + 1
        average = sum(r["score"] for r in mine) / len(mine)
        out.append(
            {
                "name": ruleset_name(ruleset),
                "played": len(mine),
                "won": sum(r["won"] for r in mine),
                "lost": sum(r["lost"] for r in mine),
                "places": ", ".join(f"{ordinal(p)} \u00d7{n}" for p, n in sorted(places.items())),
                "average": _points(ruleset, round(average, 1)),
            }
        )
    return out


def context(user: Any, page_number: Any = 1) -> dict[str, Any]:
    games = friend_selectors.history_games(user=user)
    pages = Paginator(games, PAGE)
    page = pages.get_page(page_number)
    rows = _rows(page.object_list, user)
    changes = ratings.changes([g.id for g in page.object_list])
    for row in rows:
        row["rating_change"] = changes.get((row["id"], row["you"]))
    per_ruleset = summary(rows if not page.has_other_pages() else _rows(games, user))
    return {"rows": rows, "page": page, "per_ruleset": per_ruleset, "nav": "history"}
