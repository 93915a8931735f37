"""Every legal action of a seat expanded into complete action bodies (``expand``).

``legal_actions`` lists complete bodies and templates whose ``choices`` name
the positions still to pick (docs/design.md). Each template becomes one
``Choice`` per complete body, with the card references it needs (see
``play.selection`` for the references and how clicks pick them); an action
that needs no choice (draw, discard, call, skip) is a ``Button`` at
once. Every label starts with the action's verb (the page's contract).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tabletop.cards import card_short
from tabletop.describe import and_list

JSON = dict[str, Any]


@dataclass
class Choice:
    """One complete action body and the card references it needs."""

    body: JSON
    refs: tuple[str, ...]
    ordered: bool = False
    label: str = ""
    gift: bool = False  # a throw onto another's card that gives one of yours
    throw: bool = False  # a throw (open out of turn too): its card is a quiet pick


@dataclass
class Button:
    label: str
    body: JSON
    kind: str = "main"  # main | quiet | danger
    short: str = ""  # visible text where space is tight (the label stays the name)

    @property
    def action(self) -> str:
        return json.dumps(self.body, separators=(",", ":"), sort_keys=True)


#: The look of a button that needs no choice, by its action's type ("main" otherwise).
STYLES = {"call": "danger", "skip": "quiet"}


def expand(
    legal: list[JSON],
    you: int | None,
    names: list[str],
    kind: str,
    verbs: Mapping[str, str] | None = None,
) -> tuple[list[Choice], list[Button]]:
    """(choices needing clicks, buttons needing none).

    ``verbs``: the ruleset's own words for a button (``Presentation.verbs``, message
    ids: Crazy Eights' ``skip`` is "Pass"), in place of the house's.

    A throw needs its card clicked first (select a card, then choose the verb):
    where throwing is open all the time, a button under every card would crowd
    the table.
    """
    choices: list[Choice] = []
    buttons: list[Button] = []
    words = verbs or {}
    # the own occupied slots, which a throw onto another's card may give away
    # (legal_actions lists a throw for each of them whenever throwing is open)
    own = [a.get("position") for a in legal if a.get("type") == "throw" and a.get("seat") == you]

    def slot(seat: Any, pos: Any) -> str:
        return slot_name(seat, pos, you, names)

    for action in legal:
        t = action.get("type")
        ch = action.get("choices")
        if t == "look" and ch:
            for pair in ch.get("positions", []):
                choices.append(
                    Choice(
                        {"type": "look", "positions": list(pair)},
                        tuple(f"f{you}.{p}" for p in pair),
                        label=_("Look at your slots %(a)s and %(b)s")
                        % {"a": pair[0], "b": pair[1]},
                    )
                )
        elif t == "replace" and ch:
            for positions in ch.get("positions", []):
                choices.append(
                    Choice(
                        {"type": "replace", "positions": list(positions)},
                        tuple(f"f{you}.{p}" for p in positions),
                        label=ngettext(
                            "Replace your slot %(slots)s",
                            "Replace your slots %(slots)s",
                            len(positions),
                        )
                        % {"slots": and_list([str(p) for p in positions])},
                    )
                )
        elif t == "peek" and ch:
            for p in ch.get("position", []):
                choices.append(
                    Choice(
                        {"type": "peek", "position": p},
                        (f"f{you}.{p}",),
                        label=_("Peek at your slot %(slot)s") % {"slot": p},
                    )
                )
        elif t == "spy" and ch:
            s = action.get("seat")
            for p in ch.get("position", []):
                choices.append(
                    Choice(
                        {"type": "spy", "seat": s, "position": p},
                        (f"f{s}.{p}",),
                        label=_("Spy on %(slot)s") % {"slot": slot(s, p)},
                    )
                )
        elif t == "swap" and ch:
            s = action.get("seat")
            for p in ch.get("position", []):
                for q in ch.get("their_position", []):
                    choices.append(
                        Choice(
                            {"type": "swap", "position": p, "seat": s, "their_position": q},
                            (f"f{you}.{p}", f"f{s}.{q}"),
                            label=_("Swap %(mine)s with %(theirs)s")
                            % {"mine": slot(you, p), "theirs": slot(s, q)},
                        )
                    )
        elif t == "throw":
            s, p = action.get("seat"), action.get("position")
            choices.append(
                Choice(
                    dict(action),
                    (f"f{s}.{p}",),
                    label=_("Throw %(slot)s") % {"slot": slot(s, p)},
                    throw=True,
                )
            )
            if you is not None and s != you:
                for g in own:
                    choices.append(
                        Choice(
                            {**action, "give_position": g},
                            (f"f{s}.{p}", f"f{you}.{g}"),
                            ordered=True,
                            label=_("Throw %(slot)s, giving %(mine)s")
                            % {"slot": slot(s, p), "mine": slot(you, g)},
                            gift=True,
                        )
                    )
        elif t == "play":
            src = action.get("from")
            pile = action.get("pile")
            if src == "hand":
                ref = f"h:{action.get('card')}"
                what = _("%(card)s from your hand") % {
                    "card": card_short(str(action.get("card")), kind)
                }
            elif src == "stock":
                ref, what = "st", _("your stock card")
            else:
                d = action.get("discard_pile")
                ref, what = f"d{d}", _("the top of your discard pile %(n)s") % {"n": _n(d)}
            choices.append(
                Choice(
                    dict(action),
                    (ref, f"b{pile}"),
                    ordered=True,
                    label=_("Play %(what)s onto building pile %(pile)s")
                    % {"what": what, "pile": _n(pile)},
                )
            )
        elif t == "end":
            c, d = action.get("card"), action.get("discard_pile")
            choices.append(
                Choice(
                    dict(action),
                    (f"h:{c}", f"d{d}"),
                    ordered=True,
                    label=_("End turn: put %(card)s on your discard pile %(pile)s")
                    % {"card": card_short(str(c), kind), "pile": _n(d)},
                )
            )
        elif t in words and not ch:  # a button in the ruleset's own words
            buttons.append(Button(_(words[t]), dict(action), STYLES.get(str(t), "main")))
        elif t == "draw":
            src = action.get("source")
            label = _("Draw from the deck") if src == "deck" else _("Take the discard")
            buttons.append(Button(label, dict(action)))
        elif t == "discard":
            buttons.append(Button(_("Discard the card you hold"), dict(action)))
        elif t == "call":
            buttons.append(Button(_("Call"), dict(action), "danger"))
        elif t == "skip":
            buttons.append(Button(_("Skip the power"), dict(action), "quiet"))
        elif not ch:
            verb = str(t).replace("_", " ").capitalize()
            buttons.append(Button(verb, dict(action)))
    return choices, buttons


def slot_name(seat: Any, pos: Any, you: int | None, names: list[str]) -> str:
    """A slot for people: "your slot 2", "ann's slot 2" (a seat out of range: "slot 2")."""
    if seat == you:
        return _("your slot %(slot)s") % {"slot": pos}
    if isinstance(seat, int) and 0 <= seat < len(names):
        return _("%(name)s's slot %(slot)s") % {"name": names[seat], "slot": pos}
    return _("slot %(slot)s") % {"slot": pos}


def _n(value: Any) -> str:
    """Piles are numbered from 1 for people (building pile 1-4, discard pile 1-4)."""
    return str(value + 1) if isinstance(value, int) else str(value)
