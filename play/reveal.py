"""The round's reveal: at a round's end every player's cards face up, the call and
whether it succeeded, the round's points and the game totals.

Read from the round's ``round_ended`` event as the viewer's event feed shows it
(every card is face up in it) and the seats of the round's ``called`` events.
It stays on the table until the player dismisses it (remembered in the
session, per game and round) or acts in the next round; a player who opens the
table later, before acting, still sees it.
"""

from __future__ import annotations

from typing import Any

from games.rules import engine
from replays.cards import card_html

JSON = dict[str, Any]

REASONS = {
    "call": "after the call",
    "empty_field": "because a field is empty",
    "exhausted": "because no card is left to draw",
}


def session_key(game_id: Any) -> str:
    return f"reveal-closed:{game_id}"


def card_value(ruleset: str, code: str) -> int | None:
    """What a card counts at a round's end in ``ruleset`` (the rules' own value)."""
    preset = getattr(engine.get_ruleset(ruleset), "preset", None)
    try:
        return int(preset.value(code)) if preset is not None else None
    except (TypeError, ValueError, KeyError):
        return None


def build(
    found: JSON | None,
    names: list[str],
    you: int | None,
    ruleset: str,
    kind: str,
    call_word: str,
    closed_round: Any,
) -> JSON | None:
    """The reveal's template context, or None (no round ended, acted since, or closed)."""
    if not found:
        return None
    data = found["event"].get("data") or {}
    number = data.get("round")
    if number is None or closed_round == number:
        return None
    fields = data.get("fields") or {}
    totals = data.get("totals") or {}
    scores = data.get("scores") or {}
    game_totals = data.get("game_totals") or {}
    winners = set(data.get("winners") or [])
    callers = [s for s in found.get("callers") or [] if isinstance(s, int)]

    def name(seat: int) -> str:
        if seat == you:
            return "you"
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    rows = []
    order = sorted(range(len(names)), key=lambda s: (s != you, s))
    for seat in order:
        cards = []
        for slot in fields.get(str(seat)) or []:
            code = slot.get("code") if isinstance(slot, dict) else None
            if code is None:
                continue
            cards.append({"html": card_html(code, kind), "value": card_value(ruleset, code)})
        score = scores.get(str(seat))
        rows.append(
            {
                "seat": seat,
                "name": "You" if seat == you else names[seat],
                "you": seat == you,
                "cards": cards,
                "total": totals.get(str(seat)),
                "score": f"{score:+d}" if isinstance(score, int) else "",
                "game_total": game_totals.get(str(seat)),
                "called": seat in callers,
                "best": seat in winners,
            }
        )
    if callers:
        parts = []
        for seat in callers:
            made = seat in winners
            who = name(seat)
            who = who[:1].upper() + who[1:]
            points = scores.get(str(seat))
            after = f" ({points:+d})" if isinstance(points, int) else ""
            if made:
                parts.append(f"{who} called {call_word}, and it worked{after}.")
            else:
                parts.append(f"{who} called {call_word}, and it failed{after}.")
        call = " ".join(parts)
    else:
        why = REASONS.get(str(data.get("reason")), "")
        call = f"Nobody called: the round ended {why}." if why else "Nobody called."
    return {"round": number, "rows": rows, "call": call, "reason": data.get("reason")}
