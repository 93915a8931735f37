"""Reads for programs (docs/programs.md): the games where an account may act now, and
the account feed (its rows are written by the ``account_feed`` follower)."""

from __future__ import annotations

from typing import Any

from games import rules
from games.models import AccountEvent, AccountFeed, Game, Seat
from games.selectors.games import game_state, iso

JSON = dict[str, Any]

#: The most events one answer of the account feed carries (the client asks again
#: from the ``position`` it was given).
FEED_PAGE = 100


def turns(*, user: Any) -> list[JSON]:
    """``[{game, ruleset, deadline, version}]``: the running games whose rules wait for
    ``user``'s seat (``Ruleset.actors``), soonest deadline first (none last)."""
    seats = dict(
        Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE).values_list(
            "game_id", "seat"
        )
    )
    waiting = []
    for game in Game.objects.filter(pk__in=seats):
        state = game_state(game=game)
        if seats[game.pk] in rules.get_ruleset(state.ruleset).actors(state):
            waiting.append(game)
    waiting.sort(key=lambda g: (g.deadline is None, g.deadline or g.created_at, str(g.pk)))
    return [
        {"game": str(g.pk), "ruleset": g.ruleset, "deadline": iso(g.deadline), "version": g.version}
        for g in waiting
    ]


def account_heads(user_ids: list[Any]) -> dict[Any, int]:
    """``{user id: position of their newest account event}`` (0 for none): one query."""
    found = dict(
        AccountFeed.objects.filter(user_id__in=user_ids).values_list("user_id", "position")
    )
    return {user: found.get(user, 0) for user in user_ids}


def account_head(user_id: Any) -> int:
    return account_heads([user_id])[user_id]


def account_events(*, user: Any, after: int | None, limit: int = FEED_PAGE) -> JSON:
    """``{"events": [...], "position"}``: the account's events after ``after`` (oldest
    first, at most ``limit``), and the position to ask from next: the last event's,
    else the account's newest. Without ``after``, no events (where to start)."""
    if after is not None:
        rows = list(
            AccountEvent.objects.filter(user=user, position__gt=after).order_by("position")[:limit]
        )
        if rows:
            return {"events": [_event(row) for row in rows], "position": rows[-1].position}
    return {"events": [], "position": account_head(user.pk)}


def _event(row: AccountEvent) -> JSON:
    return {
        "position": row.position,
        "type": row.type,
        "game": str(row.game_id),
        "at": iso(row.at),
        "data": row.data,
    }
