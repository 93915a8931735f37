"""The analysis in a player's words: what was done, what was better, by how much.

``advice(row, names, kind)`` turns one analysed decision (API.md "Analysis":
``taken``, ``best``, ``loss``, ``mark``, and the ``context`` the analyser
saw: the card held and the discard top) into a sentence such as "Replace
slot 2 with the 3 -- about 4 points better than discarding it".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .cards import card_short
from .describe import and_list

JSON = dict[str, Any]

MARK_WORDS = {
    "inaccuracy": gettext_lazy("Inaccuracy"),
    "mistake": gettext_lazy("Mistake"),
    "blunder": gettext_lazy("Blunder"),
}


def _card(code: Any, kind: str, default: str) -> str:
    if isinstance(code, str) and code != "?":
        return _("the %(card)s") % {"card": card_short(code, kind)}
    return default


def _slots(positions: Sequence[int]) -> str:
    return ngettext("slot %(slots)s", "slots %(slots)s", len(positions)) % {
        "slots": and_list([str(p) for p in positions])
    }


def phrases(action: JSON | None, ctx: JSON, names: Sequence[str], kind: str) -> tuple[str, str]:
    """(imperative, gerund) words for an action: ("discard it", "discarding it")."""
    if action is None:
        return _("pass"), _("passing")
    t = action.get("type")
    words = {
        "held": _card(ctx.get("held"), kind, _("the card")),
        "top": _card(ctx.get("top"), kind, _("the top card")),
        "slot": action.get("position"),
        "their": action.get("their_position"),
        "pile": action.get("pile"),
        "d": action.get("discard_pile"),
    }
    seat = action.get("seat")
    words["who"] = (
        names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else _("another player")
    )
    if t == "draw":
        if action.get("source") == "discard":
            return (
                _("take %(top)s from the discard pile") % words,
                _("taking %(top)s from the discard pile") % words,
            )
        return _("draw from the draw pile"), _("drawing from the draw pile")
    if t == "discard":
        if ctx.get("held") in (None, "?"):
            return _("discard %(held)s") % words, _("discarding it")
        return _("discard %(held)s") % words, _("discarding %(held)s") % words
    if t == "replace":
        words["where"] = _slots(action.get("positions") or [])
        return (
            _("replace %(where)s with %(held)s") % words,
            _("replacing %(where)s with %(held)s") % words,
        )
    if t == "peek":
        return _("peek at slot %(slot)s") % words, _("peeking at slot %(slot)s") % words
    if t == "spy":
        return (
            _("spy on %(who)s's slot %(slot)s") % words,
            _("spying on %(who)s's slot %(slot)s") % words,
        )
    if t == "swap":
        return (
            _("swap slot %(slot)s with %(who)s's slot %(their)s") % words,
            _("swapping slot %(slot)s with %(who)s's slot %(their)s") % words,
        )
    if t == "skip":
        return _("skip the power"), _("skipping the power")
    if t == "call":
        return _("call"), _("calling")
    if t == "play":
        source = action.get("from")
        if source == "hand":
            words["card"] = _card(action.get("card"), kind, _("a card"))
            return (
                _("play %(card)s from the hand onto building pile %(pile)s") % words,
                _("playing %(card)s onto building pile %(pile)s") % words,
            )
        if source == "stock":
            return (
                _("play the stock card onto building pile %(pile)s") % words,
                _("playing the stock card onto building pile %(pile)s") % words,
            )
        return (
            _("play the top of discard pile %(d)s onto building pile %(pile)s") % words,
            _("playing the top of discard pile %(d)s onto building pile %(pile)s") % words,
        )
    if t == "end":
        if action.get("card") is None:
            return _("end the turn"), _("ending the turn")
        words["card"] = _card(action.get("card"), kind, _("a card"))
        return (
            _("end the turn with %(card)s on discard pile %(d)s") % words,
            _("discarding %(card)s on pile %(d)s") % words,
        )
    return str(t), str(t)


def _amount(loss: float, chance: bool) -> str | None:
    """How much better, in words; None: less than a point."""
    if chance:
        return _("about %(n)s %% more likely to win") % {"n": max(1, round(loss * 100))}
    points = round(loss)
    if points < 1:
        return None
    return ngettext("about %(n)s point better", "about %(n)s points better", points) % {"n": points}


def advice(row: JSON, names: Sequence[str], kind: str, *, chance: bool = False) -> str:
    """One decision in words: the better action and what it would have gained."""
    ctx = row.get("context") or {}
    taken_do, taken_doing = phrases(row.get("taken"), ctx, names, kind)
    if row.get("best") == row.get("taken") or not row.get("loss"):
        return capfirst(_("%(do)s: the best choice here.") % {"do": taken_do})
    best_do, _doing = phrases(row.get("best"), ctx, names, kind)
    words = {"best": best_do, "taken": taken_doing}
    amount = _amount(float(row["loss"]), chance)
    if amount is None:
        return capfirst(_("%(best)s was slightly better than %(taken)s.") % words)
    return capfirst(_("%(best)s — %(amount)s than %(taken)s.") % {**words, "amount": amount})
