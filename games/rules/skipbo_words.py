"""Skip-Bo's events in words (``Skipbo.describe``): sentences as data (``rules.words``).

Each function reads an event's data *as the viewer saw it* ("Ann drew 3 cards"
to the others, the cards to Ann).
"""

from __future__ import annotations

from collections.abc import Callable

from .events import Event
from .words import (
    Card,
    Part,
    Seat,
    Told,
    Words,
    _,
    and_list,
    dealt,
    is_reader,
    join,
    ngettext,
    turn_started,
)

SOURCE_WORDS = {
    "hand": _("from their hand"),
    "stock": _("from their stock pile"),
    "discard": _("from their discard pile"),
}
#: The same, told to the player who played.
YOUR_SOURCE_WORDS = {
    "hand": _("from your hand"),
    "stock": _("from your stock pile"),
    "discard": _("from your discard pile"),
}

Describer = Callable[[Told, int | None], Part]
DESCRIBE: dict[str, Describer] = {}


def describes(*types: str) -> Callable[[Describer], Describer]:
    def register(fn: Describer) -> Describer:
        for t in types:
            DESCRIBE[t] = fn
        return fn

    return register


def describe(told: Told, reader: int | None) -> Part:
    return DESCRIBE[told.event.type](told, reader)


def start(seats: int, rounds: int) -> Words:
    return _(
        "%(who)s sit down; the stock piles are dealt.",
        who=and_list([Seat(s) for s in range(seats)]),
    )


def merges_back(event: Event) -> bool:
    """A new turn, or a turn's end said with its discard, ends the step before."""
    if event.type == "turn_started":
        return True
    return event.type == "turn_ended" and (event.data or {}).get("reason") == "discard"


@describes("round_started")
def _round_started(w: Told, reader: int | None) -> Part:
    return dealt(w, _("The stock piles are dealt"), reader)


@describes("turn_started")
def _turn_started(w: Told, reader: int | None) -> Part:
    return turn_started(w, reader)


@describes("cards_drawn")
def _cards_drawn(w: Told, reader: int | None) -> Part:
    cards = w.data.get("cards")
    if is_reader(w.seat, reader):
        if cards:
            shown = [Card(c.get("code")) for c in cards]
            return ngettext(
                "You drew %(count)s card: %(cards)s",
                "You drew %(count)s cards: %(cards)s",
                len(cards),
                count=len(cards),
                cards=join(*[p for i, c in enumerate(shown) for p in ((", ", c) if i else (c,))]),
            )
        count = w.data.get("count", 0)
        return ngettext("You drew %(count)s card", "You drew %(count)s cards", count, count=count)
    if cards:
        shown = [Card(c.get("code")) for c in cards]
        return ngettext(
            "%(name)s drew %(count)s card: %(cards)s",
            "%(name)s drew %(count)s cards: %(cards)s",
            len(cards),
            name=w.actor,
            count=len(cards),
            cards=join(*[p for i, c in enumerate(shown) for p in ((", ", c) if i else (c,))]),
        )
    count = w.data.get("count", 0)
    return ngettext(
        "%(name)s drew %(count)s card",
        "%(name)s drew %(count)s cards",
        count,
        name=w.actor,
        count=count,
    )


@describes("draw_pile_reshuffled")
def _draw_reshuffled(w: Told, reader: int | None) -> Part:
    count = w.data.get("count", len(w.data.get("order") or []))
    return _(
        "The draw pile ran out: %(count)s completed cards were shuffled into a new one",
        count=count,
    )


@describes("card_played")
def _card_played(w: Told, reader: int | None) -> Part:
    source = w.data.get("from")
    mine = is_reader(w.seat, reader)
    sources = YOUR_SOURCE_WORDS if mine else SOURCE_WORDS
    where: Part = sources.get(source or "", sources["hand"])
    if source == "discard" and w.data.get("discard_pile") is not None:
        n = w.data["discard_pile"] + 1
        where = (
            _("from your discard pile %(n)s", n=n)
            if mine
            else _("from their discard pile %(n)s", n=n)
        )
    card: Part = Card(w.code("code"))
    value = w.data.get("value")
    if w.data.get("code") == "SB" and value:
        card = _("%(card)s as a %(value)s", card=card, value=value)
    words: dict[str, Part] = {
        "name": w.actor,
        "card": card,
        "where": where,
        "pile": w.data.get("pile", 0) + 1,
    }
    text: Part = (
        _("You played %(card)s %(where)s onto building pile %(pile)s", **words)
        if mine
        else _("%(name)s played %(card)s %(where)s onto building pile %(pile)s", **words)
    )
    if source == "stock":
        top = w.data.get("stock_top")
        if top and top.get("code"):
            next_card = Card(top["code"])
            text = join(
                text,
                _("; your stock shows %(card)s next", card=next_card)
                if mine
                else _("; their stock shows %(card)s next", card=next_card),
            )
        elif "stock_top" in w.data and top is None:
            text = join(
                text,
                _("; your stock pile is empty") if mine else _("; their stock pile is empty"),
            )
    return text


@describes("pile_completed")
def _pile_completed(w: Told, reader: int | None) -> Part:
    pile = w.data.get("pile")
    return _(
        "Building pile %(pile)s reached 12 and was cleared",
        pile=pile + 1 if isinstance(pile, int) else "",
    )


@describes("card_discarded")
def _card_discarded(w: Told, reader: int | None) -> Part:
    pile = w.data.get("discard_pile")
    card = Card(w.code("code"))
    if is_reader(w.seat, reader):
        if isinstance(pile, int):
            return _(
                "You put %(card)s on your discard pile %(pile)s, ending your turn",
                card=card,
                pile=pile + 1,
            )
        return _("You put %(card)s on a discard pile, ending your turn", card=card)
    if isinstance(pile, int):
        return _(
            "%(name)s put %(card)s on their discard pile %(pile)s, ending the turn",
            name=w.actor,
            card=card,
            pile=pile + 1,
        )
    return _("%(name)s put %(card)s on a discard pile, ending the turn", name=w.actor, card=card)


@describes("turn_ended")
def _turn_ended(w: Told, reader: int | None) -> Part:
    reason = w.data.get("reason")
    if reason == "discard":
        return None  # said by card_discarded: the step merges into that one
    mine = is_reader(w.seat, reader)
    if reason == "no_cards":
        if mine:
            return _("You have no card left and nothing to draw: your turn ends")
        return _("%(name)s has no card left and nothing to draw: the turn ends", name=w.actor)
    if mine:
        return _("Your turn ends")
    return _("%(name)s's turn ends", name=w.actor)
