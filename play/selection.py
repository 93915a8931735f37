"""The selection: the cards picked so far towards a choice that needs several clicks.

Choices that need several clicks (look at two cards, Cabo's multi-replace, a
swap's two cards, Skip-Bo's card -> pile) are a *selection*: an ordered list
of card references carried in the ``sel`` query parameter. References:

* ``f{seat}.{pos}`` a slot of a Pablo-family field;
* ``h:{code}`` a Skip-Bo hand card, ``st`` the own stock top, ``d{n}`` the own
  discard pile n, ``b{n}`` building pile n.

A card can be clicked when it extends the selection towards some ``Choice``
(``Selection.pick``); a choice becomes a button when the selection names
exactly its references (``complete``). The same rules serve the page without
JavaScript (a card is a link to ``?sel=...``) and with it (the script fetches
the same page's table fragment).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from .choices import Button, Choice

JSON = dict[str, Any]


@dataclass
class Pick:
    """A clickable card (or pile) in the current selection state."""

    ref: str
    selectable: bool = False
    selected: bool = False
    sel: str = ""  # the selection after clicking it
    label: str = ""
    quiet: bool = False  # only a throw would start here: clickable, not outlined


@dataclass
class Selection:
    refs: list[str]
    choices: list[Choice]
    complete: list[Choice] = field(default_factory=list)

    def covers(self, refs: tuple[str, ...], ordered: bool, picked: list[str]) -> bool:
        if ordered:
            return tuple(picked) == refs[: len(picked)]
        return set(picked) <= set(refs) and len(set(picked)) == len(picked)

    def pick(self, ref: str, label: str = "") -> Pick:
        if ref in self.refs:
            rest = [r for r in self.refs if r != ref]
            return Pick(ref, True, True, ",".join(rest), _("Unpick %(card)s") % {"card": label})
        nxt = [*self.refs, ref]
        leads = [c for c in self.choices if self.covers(c.refs, c.ordered, nxt)]
        quiet = bool(leads) and all(c.throw or c.gift for c in leads) and not self.refs
        return Pick(
            ref, bool(leads), False, ",".join(nxt), _("Pick %(card)s") % {"card": label}, quiet
        )


def complete(selection: Selection) -> list[Button]:
    out = []
    for c in selection.choices:
        if c.ordered:
            done = tuple(selection.refs) == c.refs
        else:
            done = len(selection.refs) == len(c.refs) and set(selection.refs) == set(c.refs)
        if not done:
            continue
        body = dict(c.body)
        if body.get("type") == "replace":
            # The held card goes into the first slot clicked.
            body["positions"] = [int(r.split(".")[1]) for r in selection.refs]
        out.append(Button(c.label, body, "quiet" if c.throw else "main"))
    return out


def hint(legal: list[JSON], selection: Selection, kind: str) -> str:
    if len(selection.refs) == 1 and any(
        c.gift and c.refs[0] == selection.refs[0] for c in selection.choices
    ):
        return _(
            "Click one of your cards to give in exchange if the throw is right, "
            "or click the picked card again to put it back."
        )
    types = {
        a.get("type")
        for a in legal
        if a.get("choices") or a.get("type") in ("play", "end", "throw")
    }
    if not types:
        return ""
    if selection.refs:
        more = any(
            len(c.refs) > len(selection.refs)
            and selection.covers(c.refs, c.ordered, selection.refs)
            for c in selection.choices
        )
        if not more:
            return _("Choose what to do, or click a picked card again to put it back.")
        if complete(selection):
            return _("Choose what to do, pick another card, or click a picked card to put it back.")
        return _("Pick the next card, or click a picked card again to put it back.")
    if "look" in types:
        return _("Click two of your cards to look at them.")
    parts = []
    if "replace" in types:
        parts.append(_("click your card(s) to replace"))
    if "peek" in types:
        parts.append(_("click one of your cards to peek"))
    if "spy" in types:
        parts.append(_("click another player's card to spy"))
    if "swap" in types:
        parts.append(_("click one of yours and one of theirs to swap"))
    if "play" in types or "end" in types:
        parts.append(_("click a card of yours, then the pile it goes on"))
    if "throw" in types:
        parts.append(_("to throw a card onto the discard pile, click it first"))
    text = pgettext("between the parts of a summary", "; ").join(parts)  # French: "\u202f; "
    return text[:1].upper() + text[1:] + "."


def live(pick: Pick) -> Pick | None:
    """``pick`` if the card can be clicked now (picked, or a step towards a choice)."""
    return pick if (pick.selectable or pick.selected) else None
