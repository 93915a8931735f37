"""The analysis in a player's words: what was done, what was better, by how much.

``advice(row, names, kind)`` turns one analysed decision (API.md "Analysis":
``taken``, ``best``, ``loss``, ``mark``, and the ``context`` the analyser
saw: the card held and the discard top) into a sentence such as "Replace
slot 2 with the 3 -- about 4 points better than discarding it".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import card_short

JSON = dict[str, Any]

MARK_WORDS = {"inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}


def _card(code: Any, kind: str, default: str) -> str:
    return f"the {card_short(code, kind)}" if isinstance(code, str) and code != "?" else default


def _slots(positions: Sequence[int]) -> str:
    if len(positions) == 1:
        return f"slot {positions[0]}"
    return "slots " + ", ".join(str(p) for p in positions[:-1]) + f" and {positions[-1]}"


def phrases(action: JSON | None, ctx: JSON, names: Sequence[str], kind: str) -> tuple[str, str]:
    """(imperative, gerund) words for an action: ("discard it", "discarding it")."""
    if action is None:
        return "pass", "passing"
    t = action.get("type")
    held = _card(ctx.get("held"), kind, "the card")
    top = _card(ctx.get("top"), kind, "the top card")

    def who(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "another player"

    if t == "draw":
        if action.get("source") == "discard":
            return f"take {top} from the discard pile", f"taking {top} from the discard pile"
        return "draw from the draw pile", "drawing from the draw pile"
    if t == "discard":
        return f"discard {held}", f"discarding {held.replace('the card', 'it')}"
    if t == "replace":
        where = _slots(action.get("positions") or [])
        return f"replace {where} with {held}", f"replacing {where} with {held}"
    if t == "peek":
        return f"peek at slot {action.get('position')}", f"peeking at slot {action.get('position')}"
    if t == "spy":
        target = f"{who(action.get('seat'))}'s slot {action.get('position')}"
        return f"spy on {target}", f"spying on {target}"
    if t == "swap":
        what = (
            f"slot {action.get('position')} with {who(action.get('seat'))}'s slot "
            f"{action.get('their_position')}"
        )
        return f"swap {what}", f"swapping {what}"
    if t == "skip":
        return "skip the power", "skipping the power"
    if t == "call":
        return "call", "calling"
    if t == "play":
        pile = f"building pile {action.get('pile')}"
        source = action.get("from")
        if source == "hand":
            card = _card(action.get("card"), kind, "a card")
            return f"play {card} from the hand onto {pile}", f"playing {card} onto {pile}"
        if source == "stock":
            return f"play the stock card onto {pile}", f"playing the stock card onto {pile}"
        d = action.get("discard_pile")
        return (
            f"play the top of discard pile {d} onto {pile}",
            f"playing the top of discard pile {d} onto {pile}",
        )
    if t == "end":
        if action.get("card") is None:
            return "end the turn", "ending the turn"
        card = _card(action.get("card"), kind, "a card")
        d = action.get("discard_pile")
        return f"end the turn with {card} on discard pile {d}", f"discarding {card} on pile {d}"
    return str(t), str(t)


def _amount(loss: float, chance: bool) -> str:
    if chance:
        return f"about {max(1, round(loss * 100))} % more likely to win"
    points = round(loss)
    if points < 1:
        return "slightly better"
    return f"about {points} point{'s' if points != 1 else ''} better"


def advice(row: JSON, names: Sequence[str], kind: str, *, chance: bool = False) -> str:
    """One decision in words: the better action and what it would have gained."""
    ctx = row.get("context") or {}
    taken_do, taken_doing = phrases(row.get("taken"), ctx, names, kind)
    if row.get("best") == row.get("taken") or not row.get("loss"):
        return f"{taken_do[:1].upper()}{taken_do[1:]}: the best choice here."
    best_do, _ = phrases(row.get("best"), ctx, names, kind)
    amount = _amount(float(row["loss"]), chance)
    if amount == "slightly better":
        return f"{best_do[:1].upper()}{best_do[1:]} was slightly better than {taken_doing}."
    return f"{best_do[:1].upper()}{best_do[1:]} — {amount} than {taken_doing}."
