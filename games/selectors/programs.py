"""Reads for programs (docs/programs.md): the games where an account may act now."""

from __future__ import annotations

from typing import Any

from games import rules
from games.models import Game, Seat
from games.selectors.games import game_state, iso

JSON = dict[str, Any]


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
