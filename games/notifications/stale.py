"""Whether a held "your turn" or reminder is still worth sending when its time comes."""

from __future__ import annotations

from typing import Any

from games import rules, store
from games.models import Game, Seat

TURN_KINDS = ("your_turn", "reminder")


def turn_over(game: Game | None, turn: str, kind: str, user_id: Any) -> bool:
    """True when the turn ``turn`` of ``game`` no longer waits for ``user_id``: the game
    ended or moved on, or (a reminder, in a phase where several act) they have acted."""
    if kind not in TURN_KINDS:
        return False
    if game is None or game.status != Game.Status.ACTIVE or game.turn_key != turn:
        return True
    if kind == "reminder":
        seats = set(Seat.objects.filter(game=game, user_id=user_id).values_list("seat", flat=True))
        state = store.state(game)
        return not seats & set(rules.get_ruleset(game.ruleset).actors(state))
    return False
