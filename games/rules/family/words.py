"""The family's events in words (``Family.describe``): sentences as data (``rules.words``).

Each function reads an event's data *as the viewer saw it* and copes with a
card code being absent ("Ann drew from the deck"). ``call_word`` is the
preset's word for a call ("Pablo", "Cabo").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..words import (
    Card,
    Join,
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
    person,
    pgettext,
    seen,
    turn_started,
)

POWER_WORDS = {
    "peek": _("peek at one of their own cards"),
    "spy": _("spy on another player's card"),
    "swap": _("swap a card blind"),
    "spy_swap": _("spy, then swap"),
    "spy-and-swap": _("spy, then swap"),
    "swap_seen": _("swap"),
}
#: The same powers, offered to the reader ("peek at one of your own cards").
YOUR_POWER_WORDS = {
    **POWER_WORDS,
    "peek": _("peek at one of your own cards"),
}
ROUND_END_WORDS = {
    "call": _("after the call"),
    "empty_field": _("because a field is empty"),
    "exhausted": _("because no card is left to draw"),
}

Describer = Callable[[Told, int | None, str], Part]
DESCRIBE: dict[str, Describer] = {}


def describes(*types: str) -> Callable[[Describer], Describer]:
    def register(fn: Describer) -> Describer:
        for t in types:
            DESCRIBE[t] = fn
        return fn

    return register


def describe(told: Told, reader: int | None, call_word: str) -> Part:
    return DESCRIBE[told.event.type](told, reader, call_word)


def start(seats: int, rounds: int) -> Words:
    return _(
        "%(who)s sit down; round %(round)s is dealt.",
        who=and_list([Seat(s) for s in range(seats)]),
        round=max(rounds, 1),
    )


def _slots(positions: Sequence[Any], yours: bool = False) -> Words:
    items = [str(p) for p in positions]
    if yours:
        return ngettext(
            "your slot %(slots)s", "your slots %(slots)s", len(items), slots=and_list(items)
        )
    return ngettext(
        "their slot %(slots)s", "their slots %(slots)s", len(items), slots=and_list(items)
    )


@describes("round_started")
def _round_started(w: Told, reader: int | None, call_word: str) -> Part:
    return dealt(w, _("Round %(round)s is dealt", round=w.data.get("round", "")), reader)


@describes("turn_started")
def _turn_started(w: Told, reader: int | None, call_word: str) -> Part:
    return turn_started(w, reader)


@describes("looked")
def _looked(w: Told, reader: int | None, call_word: str) -> Part:
    positions = w.data.get("positions") or []
    codes = [c.get("code") for c in w.data.get("cards") or []]
    if is_reader(w.seat, reader):
        text = _("You looked at %(slots)s", slots=_slots(positions, yours=True))
    else:
        text = _("%(name)s looked at %(slots)s", name=w.actor, slots=_slots(positions))
    if codes and all(seen(c) for c in codes):
        # said as a sentence: French puts a space before the colon
        return _("%(looked)s: %(cards)s", looked=text, cards=and_list([Card(c) for c in codes]))
    return text


@describes("drawn")
def _drawn(w: Told, reader: int | None, call_word: str) -> Part:
    if is_reader(w.seat, reader):
        code = w.code("code")
        if w.data.get("source") == "discard":
            return _("You took %(card)s from the discard pile", card=Card(code))
        if code is None:
            return _("You drew from the deck")
        return _("You drew %(card)s from the deck", card=Card(code))
    if w.data.get("source") == "discard":
        return _(
            "%(name)s took %(card)s from the discard pile", name=w.actor, card=Card(w.code("code"))
        )
    code = w.code("code")
    if code is None:
        return _("%(name)s drew from the deck", name=w.actor)
    return _("%(name)s drew %(card)s from the deck", name=w.actor, card=Card(code))


@describes("reshuffled")
def _reshuffled(w: Told, reader: int | None, call_word: str) -> Part:
    count = w.data.get("count", len(w.data.get("order") or []))
    return ngettext(
        "The draw pile ran out: the discard pile (but its top) was shuffled into a new "
        "draw pile of %(count)s card; everyone forgets those cards",
        "The draw pile ran out: the discard pile (but its top) was shuffled into a new "
        "draw pile of %(count)s cards; everyone forgets those cards",
        count,
        count=count,
    )


@describes("discarded")
def _discarded(w: Told, reader: int | None, call_word: str) -> Part:
    mine = is_reader(w.seat, reader)
    card = Card(w.code("code"))
    text: Part = (
        _("You discarded %(card)s", card=card)
        if mine
        else _("%(name)s discarded %(card)s", name=w.actor, card=card)
    )
    power = w.data.get("power")
    if power:
        kind = power.get("kind", "")
        what = (YOUR_POWER_WORDS if mine else POWER_WORDS).get(kind, kind.replace("_", " "))
        if mine:
            text = join(text, _(": its power lets you %(what)s", what=what))
        else:
            text = join(text, _(": its power lets them %(what)s", what=what))
        if power.get("optional"):
            text = join(text, _(" (optional)"))
    return text


@describes("replaced")
def _replaced(w: Told, reader: int | None, call_word: str) -> Part:
    positions = w.data.get("positions") or []
    out = w.data.get("out") or []
    held = Card(w.code("code"), _("the card") if w.data.get("open") else _("the held card"))
    mine = is_reader(w.seat, reader)
    words: dict[str, Part] = {
        "name": w.actor,
        "slots": _slots(positions, yours=mine),
        "card": held,
        "gone": and_list([Card(o.get("code")) for o in out]),
        "new": w.data.get("new_position"),
    }
    if mine:
        return _your_replace(len(positions), w, words)
    if len(positions) <= 1:
        return _("%(name)s put %(card)s into %(slots)s, discarding %(gone)s", **words)
    if w.data.get("correct"):
        return _(
            "%(name)s replaced %(slots)s with %(card)s — correct: %(gone)s go to the discard pile",
            **words,
        )
    if words["new"] is not None:
        return _(
            "%(name)s tried to replace %(slots)s at once — wrong: %(gone)s do not match "
            "and stay, shown to everyone; %(card)s goes into a new slot %(new)s",
            **words,
        )
    return _(
        "%(name)s tried to replace %(slots)s at once — wrong: %(gone)s do not match "
        "and stay, shown to everyone; %(card)s goes onto the discard pile",
        **words,
    )


def _your_replace(count: int, w: Told, words: dict[str, Part]) -> Part:
    """``_replaced`` told to the player who did it."""
    if count <= 1:
        return _("You put %(card)s into %(slots)s, discarding %(gone)s", **words)
    if w.data.get("correct"):
        return _(
            "You replaced %(slots)s with %(card)s — correct: %(gone)s go to the discard pile",
            **words,
        )
    if words["new"] is not None:
        return _(
            "You tried to replace %(slots)s at once — wrong: %(gone)s do not match "
            "and stay, shown to everyone; %(card)s goes into a new slot %(new)s",
            **words,
        )
    return _(
        "You tried to replace %(slots)s at once — wrong: %(gone)s do not match "
        "and stay, shown to everyone; %(card)s goes onto the discard pile",
        **words,
    )


@describes("peeked")
def _peeked(w: Told, reader: int | None, call_word: str) -> Part:
    code = w.code("code")
    words: dict[str, Part] = {"name": w.actor, "slot": w.data.get("position"), "card": Card(code)}
    if is_reader(w.seat, reader):
        if code:
            return _("You peeked at your slot %(slot)s: %(card)s", **words)
        return _("You peeked at your slot %(slot)s", **words)
    if code:
        return _("%(name)s peeked at their slot %(slot)s: %(card)s", **words)
    return _("%(name)s peeked at their slot %(slot)s", **words)


@describes("spied")
def _spied(w: Told, reader: int | None, call_word: str) -> Part:
    code = w.code("code")
    words: dict[str, Part] = {
        "name": w.actor,
        "other": Seat(w.data.get("seat")),
        "slot": w.data.get("position"),
        "card": Card(code),
    }
    if is_reader(w.seat, reader):
        if code:
            return _("You spied on %(other)s's slot %(slot)s: %(card)s", **words)
        return _("You spied on %(other)s's slot %(slot)s", **words)
    if is_reader(w.data.get("seat"), reader):
        if code:
            return _("%(name)s spied on your slot %(slot)s: %(card)s", **words)
        return _("%(name)s spied on your slot %(slot)s", **words)
    if code:
        return _("%(name)s spied on %(other)s's slot %(slot)s: %(card)s", **words)
    return _("%(name)s spied on %(other)s's slot %(slot)s", **words)


@describes("swapped")
def _swapped(w: Told, reader: int | None, call_word: str) -> Part:
    mine = (w.data.get("mine") or {}).get("code")
    theirs = (w.data.get("theirs") or {}).get("code")
    words: dict[str, Part] = {
        "name": w.actor,
        "slot": w.data.get("position"),
        "other": Seat(w.data.get("seat")),
        "their": w.data.get("their_position"),
    }
    if is_reader(w.seat, reader):
        text = _("You swapped your slot %(slot)s with %(other)s's slot %(their)s", **words)
    elif is_reader(w.data.get("seat"), reader):
        text = _("%(name)s swapped their slot %(slot)s with your slot %(their)s", **words)
    else:
        text = _("%(name)s swapped their slot %(slot)s with %(other)s's slot %(their)s", **words)
    if mine and theirs:
        return join(text, _(" (%(mine)s for %(theirs)s)", mine=Card(mine), theirs=Card(theirs)))
    if theirs:
        return join(text, _(" and received %(card)s", card=Card(theirs)))
    if mine:
        return join(text, _(", giving away %(card)s", card=Card(mine)))
    return text


@describes("power_skipped")
def _power_skipped(w: Told, reader: int | None, call_word: str) -> Part:
    reason = w.data.get("reason")
    if reason == "impossible":
        return _("The power could not be used: there is no card to use it on")
    mine = is_reader(w.seat, reader)
    if reason == "timeout":
        if mine:
            return _("Your power was skipped (timeout)")
        return _("%(name)s's power was skipped (timeout)", name=w.actor)
    if mine:
        return _("You chose not to use the power")
    return _("%(name)s chose not to use the power", name=w.actor)


@describes("thrown")
def _thrown(w: Told, reader: int | None, call_word: str) -> Part:
    owner = w.data.get("seat")
    card = Card(w.code("code"), pgettext("thrown", "card"))
    mine = is_reader(w.event.seat, reader)
    if owner == w.event.seat:
        thrown = (
            _("You threw your own %(card)s", card=card)
            if mine
            else _("%(name)s threw their own %(card)s", name=w.actor, card=card)
        )
    elif mine:
        thrown = _("You threw %(other)s's %(card)s", other=Seat(owner), card=card)
    elif is_reader(owner, reader):
        thrown = _("%(name)s threw your %(card)s", name=w.actor, card=card)
    else:
        thrown = _(
            "%(name)s threw %(other)s's %(card)s", name=w.actor, other=Seat(owner), card=card
        )
    if not w.data.get("correct"):
        return _("%(thrown)s — wrong: it stays where it was, shown to everyone", thrown=thrown)
    text: Part = _("%(thrown)s — correct", thrown=thrown)
    given = w.data.get("given")
    if w.data.get("give_position") is not None or given:
        gift: dict[str, Part] = {
            "name": w.actor,
            "card": Card((given or {}).get("code")),
            "slot": w.data.get("give_position"),
        }
        text = join(
            text,
            _("; you gave %(card)s from your slot %(slot)s into the empty slot", **gift)
            if mine
            else _("; %(name)s gave %(card)s from their slot %(slot)s into the empty slot", **gift),
        )
    return text


@describes("penalty")
def _penalty(w: Told, reader: int | None, call_word: str) -> Part:
    code = w.code("code")
    words: dict[str, Part] = {
        "name": w.actor,
        "card": join(" (", Card(code), ")") if code else "",
        "slot": w.data.get("position"),
    }
    if is_reader(w.seat, reader):
        if w.data.get("reason") == "queen":
            return _(
                "You have no card left and discarded a queen: one more card%(card)s "
                "into new slot %(slot)s",
                **words,
            )
        return _("You take a penalty card%(card)s into new slot %(slot)s, face down", **words)
    if w.data.get("reason") == "queen":
        return _(
            "%(name)s has no card left and discarded a queen: one more card%(card)s "
            "into new slot %(slot)s",
            **words,
        )
    return _("%(name)s takes a penalty card%(card)s into new slot %(slot)s, face down", **words)


@describes("called")
def _called(w: Told, reader: int | None, call_word: str) -> Part:
    if is_reader(w.seat, reader):
        return _("You called %(word)s", word=call_word)
    return _("%(name)s called %(word)s", name=w.actor, word=call_word)


@describes("round_ended")
def _round_ended(w: Told, reader: int | None, call_word: str) -> Part:
    scores = w.data.get("scores") or {}
    totals = w.data.get("totals") or {}
    why = ROUND_END_WORDS.get(w.data.get("reason") or "")
    parts: list[Part] = []
    for key in sorted(scores, key=int):
        score, total = scores[key], totals.get(key)
        shown: Part = f"{score:+d}" if isinstance(score, int) else str(score)
        if total is not None and total != score:
            shown = _("%(score)s (holds %(total)s)", score=shown, total=total)
        parts += [", "] if parts else []
        parts.append(Join((person(int(key), reader), " ", shown)))
    words: dict[str, Part] = {
        "round": w.data.get("round", ""),
        "why": why,
        "scores": Join(tuple(parts)),
    }
    if why:
        return _("Round %(round)s ends %(why)s: %(scores)s", **words)
    return _("Round %(round)s ends: %(scores)s", **words)
