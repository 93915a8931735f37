"""The round's reveal on the table: at a round's end every player's cards face up
with their values, the calls and whether they succeeded, the round's points and
the game totals.

Drawn from the game state's ``reveal`` (the rules' view gives it to everyone until
the next round ends). The table shows it until the player closes it (remembered
in the session, per game and round) or acts in the next round; a player who opens
the table later, before acting, still sees it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tabletop.cards import card_html
from tabletop.describe import ROUND_END_WORDS

JSON = dict[str, Any]


def session_key(game_id: Any) -> str:
    return f"reveal-closed:{game_id}"


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

    rows = []
    for seat in sorted(range(len(names)), key=lambda s: (s != you, s)):
        cards = []
        for slot in fields.get(str(seat)) or []:
            code = slot.get("code") if isinstance(slot, dict) else None
            if code is None:
                continue
            cards.append({"html": card_html(code, kind), "value": slot.get("value")})
        score = scores.get(str(seat))
        rows.append(
            {
                "seat": seat,
                "name": _("You") if seat == you else names[seat],
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
            seat = c["seat"]
            points = scores.get(str(seat))
            words = {
                "name": names[seat] if 0 <= seat < len(names) else seat,
                "word": call_word,
                "points": f" ({points:+d})" if isinstance(points, int) else "",
            }
            parts.append(_call_sentence(seat == you, c.get("succeeded")) % words)
        call = " ".join(parts)
    else:
        why = ROUND_END_WORDS.get(str(shown.get("reason")), "")
        call = (
            _("Nobody called: the round ended %(why)s.") % {"why": why}
            if why
            else _("Nobody called.")
        )
    kamikaze = shown.get("kamikaze")
    if isinstance(kamikaze, int) and 0 <= kamikaze < len(names):
        call = f"{call} {_kamikaze_sentence(kamikaze == you) % {'name': names[kamikaze]}}"
    return {"round": number, "rows": rows, "call": call, "reason": shown.get("reason")}


def _kamikaze_sentence(you: bool) -> str:
    """A field of exactly 12, 12, 13 and 13 (``reveal.kamikaze``), which decides the
    round's points whatever was called (``%`` its words)."""
    if you:
        return _("You held 12, 12, 13 and 13, a kamikaze: you score 0 and everyone else 50.")
    return _("%(name)s held 12, 12, 13 and 13, a kamikaze: %(name)s scores 0 and everyone else 50.")


def _call_sentence(you: bool, succeeded: bool | None) -> str:
    """A call's outcome: "ann called Cabo, and it worked (+0)." (``%`` its words)."""
    if succeeded is True:
        return (
            _("You called %(word)s, and it worked%(points)s.")
            if you
            else _("%(name)s called %(word)s, and it worked%(points)s.")
        )
    if succeeded is False:
        return (
            _("You called %(word)s, and it failed%(points)s.")
            if you
            else _("%(name)s called %(word)s, and it failed%(points)s.")
        )
    if you:
        return _("You called %(word)s, but the round ended without it%(points)s.")
    return _("%(name)s called %(word)s, but the round ended without it%(points)s.")
