"""Which seats a bot plays now, and which of them may act."""

from __future__ import annotations

from typing import Any

from games import rules
from games.bots import bot_level, waits_for

JSON = dict[str, Any]


def bot_seats(state: rules.State) -> dict[int, tuple[str, bool]]:
    """Seats a bot plays now: {seat: (level, as a stand-in)}."""
    out: dict[int, tuple[str, bool]] = {}
    stand_in = state.options.get("stand_in", "rules")
    for seat, name in enumerate(state.players):
        level = bot_level(name)
        if level is not None:
            out[seat] = (level, False)
        elif stand_in != "rules" and state.absent[seat]:
            out[seat] = (stand_in, True)
    return out


def bots_due(state: rules.State, *, waited_only: bool = False) -> list[int]:
    """The bot seats that may act now (``waited_only``: only those the game waits for)."""
    if state.status != "active":
        return []
    rulebook = rules.get_ruleset(state.ruleset)
    out = []
    for seat, (_level, stand_in) in bot_seats(state).items():
        legal = rulebook.legal_actions(state, seat)
        if not legal:
            continue
        if (waited_only or stand_in) and not waits_for(legal):
            continue  # a stand-in only plays the absent player's turns
        out.append(seat)
    return out
