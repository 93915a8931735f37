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


def from_event(found: JSON | None) -> JSON | None:
    """A ``reveal`` object (the shape of the game state's ``reveal``) from the round's
    ``round_ended`` event view and its callers (for a state without ``reveal``)."""
    if not found:
        return None
    data = found["event"].get("data") or {}
    winners = list(data.get("winners") or [])
    return {
        "round": data.get("round"),
        "reason": data.get("reason"),
        "fields": {
            seat: [None if c is None else {"code": c.get("code")} for c in slots]
            for seat, slots in (data.get("fields") or {}).items()
        },
        "calls": [
            {"seat": s, "succeeded": None if data.get("reason") == "exhausted" else s in winners}
            for s in found.get("callers") or []
        ],
        "totals": data.get("totals") or {},
        "scores": data.get("scores") or {},
        "game_totals": data.get("game_totals") or {},
        "winners": winners,
    }


def build(
    shown: JSON | None,
    names: list[str],
    you: int | None,
    ruleset: str,
    kind: str,
    call_word: str,
    closed_round: Any,
) -> JSON | None:
    """The reveal's template context from a ``reveal`` object, or None (none, or closed)."""
    if not shown:
        return None
    number = shown.get("round")
    if number is None or closed_round == number:
        return None
    fields = shown.get("fields") or {}
    totals = shown.get("totals") or {}
    scores = shown.get("scores") or {}
    game_totals = shown.get("game_totals") or {}
    winners = set(shown.get("winners") or [])
    calls = [c for c in shown.get("calls") or [] if isinstance(c.get("seat"), int)]
    callers = {c["seat"] for c in calls}

    def name(seat: int) -> str:
        if seat == you:
            return "you"
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    rows = []
    for seat in sorted(range(len(names)), key=lambda s: (s != you, s)):
        cards = []
        for slot in fields.get(str(seat)) or []:
            code = slot.get("code") if isinstance(slot, dict) else None
            if code is None:
                continue
            value = slot.get("value")
            if value is None:
                value = card_value(ruleset, code)
            cards.append({"html": card_html(code, kind), "value": value})
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
    if calls:
        parts = []
        for c in calls:
            who = name(c["seat"])
            who = who[:1].upper() + who[1:]
            points = scores.get(str(c["seat"]))
            after = f" ({points:+d})" if isinstance(points, int) else ""
            if c.get("succeeded") is True:
                parts.append(f"{who} called {call_word}, and it worked{after}.")
            elif c.get("succeeded") is False:
                parts.append(f"{who} called {call_word}, and it failed{after}.")
            else:
                parts.append(f"{who} called {call_word}, but the round ended without it{after}.")
        call = " ".join(parts)
    else:
        why = REASONS.get(str(shown.get("reason")), "")
        call = f"Nobody called: the round ended {why}." if why else "Nobody called."
    return {"round": number, "rows": rows, "call": call, "reason": shown.get("reason")}
