"""A player's own history: their finished games with result, rank and score, per ruleset.

Read from ``games.selectors`` (the same game objects the API answers with), newest
first, one page at a time; every row links to the game's replay.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator

from games import selectors

from .lobby import ruleset_name

PAGE = 25
#: At most this many finished games are summed up per ruleset (the newest).
SUMMARY_LIMIT = 500


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{({1: 'st', 2: 'nd', 3: 'rd'}).get(n % 10, 'th')}"


def _row(game: Any, user: Any) -> dict[str, Any] | None:
    data = selectors.game_data(game=game, user=user)
    you = data.get("you")
    if you is None:
        return None
    result = (data.get("state") or {}).get("result") or data.get("result") or {}
    winners = set(result.get("winners") or [])
    players = sorted(data["players"], key=lambda p: p["seat"])
    # winners first, then lower totals (Pablo family: points; Skip-Bo: stock cards left)
    order = sorted(players, key=lambda p: (p["seat"] not in winners, p.get("score") or 0))
    mine = next(p for p in players if p["seat"] == you)
    rank = 1 + sum(
        1
        for p in order
        if (p["seat"] in winners, -(p.get("score") or 0))
        > (mine["seat"] in winners, -(mine.get("score") or 0))
    )
    won = you in winners
    return {
        "id": data["id"],
        "ruleset": data["ruleset"],
        "ruleset_name": ruleset_name(data["ruleset"]),
        "finished_at": game.finished_at or game.updated_at,
        "players": [p["username"] for p in players],
        "result": "won" if won else ("lost" if winners else "no winner"),
        "won": won,
        "rank": rank,
        "rank_words": f"{_ordinal(rank)} of {len(players)}",
        "score": mine.get("score"),
        "score_words": "cards left in stock" if data["ruleset"] == "skipbo" else "points",
    }


def context(user: Any, page_number: Any = 1) -> dict[str, Any]:
    games = selectors.game_list(user=user, mine=True, status="finished").order_by(
        "-finished_at", "-created_at"
    )
    pages = Paginator(games, PAGE)
    page = pages.get_page(page_number)
    rows = [r for r in (_row(g, user) for g in page.object_list) if r is not None]
    summary: dict[str, dict[str, Any]] = {}
    for game in games[:SUMMARY_LIMIT]:
        row = _row(game, user)
        if row is None:
            continue
        s = summary.setdefault(
            row["ruleset"],
            {"name": row["ruleset_name"], "played": 0, "won": 0, "ranks": [], "scores": []},
        )
        s["played"] += 1
        s["won"] += row["won"]
        s["ranks"].append(row["rank"])
        if row["score"] is not None:
            s["scores"].append(row["score"])
    per_ruleset = []
    for s in sorted(summary.values(), key=lambda s: s["name"]):
        per_ruleset.append(
            {
                "name": s["name"],
                "played": s["played"],
                "won": s["won"],
                "mean_rank": f"{sum(s['ranks']) / len(s['ranks']):.1f}",
                "best": min(s["scores"]) if s["scores"] else None,
            }
        )
    return {"rows": rows, "page": page, "per_ruleset": per_ruleset, "nav": "history"}
