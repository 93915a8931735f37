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
from dataclasses import dataclass
from typing import Any

from tabletop.cards import card_short

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


def expand(
    legal: list[JSON], you: int | None, names: list[str], kind: str
) -> tuple[list[Choice], list[Button]]:
    """(choices needing clicks, buttons needing none).

    A throw needs its card clicked first (select a card, then choose the verb):
    where throwing is open all the time, a button under every card would crowd
    the table.
    """
    choices: list[Choice] = []
    buttons: list[Button] = []
    # the own occupied slots, which a throw onto another's card may give away
    # (legal_actions lists a throw for each of them whenever throwing is open)
    own = [a.get("position") for a in legal if a.get("type") == "throw" and a.get("seat") == you]

    def name(seat: Any) -> str:
        if seat == you:
            return "your"
        if isinstance(seat, int) and 0 <= seat < len(names):
            return f"{names[seat]}'s"
        return "a"

    for action in legal:
        t = action.get("type")
        ch = action.get("choices")
        if t == "look" and ch:
            for pair in ch.get("positions", []):
                choices.append(
                    Choice(
                        {"type": "look", "positions": list(pair)},
                        tuple(f"f{you}.{p}" for p in pair),
                        label=f"Look at your slots {pair[0]} and {pair[1]}",
                    )
                )
        elif t == "replace" and ch:
            for positions in ch.get("positions", []):
                slots = " and ".join(str(p) for p in positions)
                choices.append(
                    Choice(
                        {"type": "replace", "positions": list(positions)},
                        tuple(f"f{you}.{p}" for p in positions),
                        label=f"Replace your slot{'s' if len(positions) > 1 else ''} {slots}",
                    )
                )
        elif t == "peek" and ch:
            for p in ch.get("position", []):
                choices.append(
                    Choice(
                        {"type": "peek", "position": p},
                        (f"f{you}.{p}",),
                        label=f"Peek at your slot {p}",
                    )
                )
        elif t == "spy" and ch:
            s = action.get("seat")
            for p in ch.get("position", []):
                choices.append(
                    Choice(
                        {"type": "spy", "seat": s, "position": p},
                        (f"f{s}.{p}",),
                        label=f"Spy on {name(s)} slot {p}",
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
                            label=f"Swap your slot {p} with {name(s)} slot {q}",
                        )
                    )
        elif t == "throw":
            s, p = action.get("seat"), action.get("position")
            choices.append(
                Choice(dict(action), (f"f{s}.{p}",), label=f"Throw {name(s)} slot {p}", throw=True)
            )
            if you is not None and s != you:
                for g in own:
                    choices.append(
                        Choice(
                            {**action, "give_position": g},
                            (f"f{s}.{p}", f"f{you}.{g}"),
                            ordered=True,
                            label=f"Throw {name(s)} slot {p}, giving your slot {g}",
                            gift=True,
                        )
                    )
        elif t == "play":
            src = action.get("from")
            pile = action.get("pile")
            if src == "hand":
                ref, what = f"h:{action.get('card')}", card_short(str(action.get("card")), kind)
                what = f"{what} from your hand"
            elif src == "stock":
                ref, what = "st", "your stock card"
            else:
                d = action.get("discard_pile")
                ref, what = f"d{d}", f"the top of your discard pile {_n(d)}"
            choices.append(
                Choice(
                    dict(action),
                    (ref, f"b{pile}"),
                    ordered=True,
                    label=f"Play {what} onto building pile {_n(pile)}",
                )
            )
        elif t == "end":
            c, d = action.get("card"), action.get("discard_pile")
            choices.append(
                Choice(
                    dict(action),
                    (f"h:{c}", f"d{d}"),
                    ordered=True,
                    label=f"End turn: put {card_short(str(c), kind)} on your discard pile {_n(d)}",
                )
            )
        elif t == "draw":
            src = action.get("source")
            label = "Draw from the deck" if src == "deck" else "Take the discard"
            buttons.append(Button(label, dict(action)))
        elif t == "discard":
            buttons.append(Button("Discard the card you hold", dict(action)))
        elif t == "call":
            buttons.append(Button("Call", dict(action), "danger"))
        elif t == "skip":
            buttons.append(Button("Skip the power", dict(action), "quiet"))
        elif not ch:
            verb = str(t).replace("_", " ").capitalize()
            buttons.append(Button(verb, dict(action)))
    return choices, buttons


def _n(value: Any) -> str:
    """Piles are numbered from 1 for people (building pile 1-4, discard pile 1-4)."""
    return str(value + 1) if isinstance(value, int) else str(value)
