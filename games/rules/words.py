"""Sentences as data: what a ruleset says about its own events, translated by the pages.

The rules never translate (no Django here): a ruleset's ``describe`` returns a
``Words`` -- a message id (the English sentence, ``%(name)s`` placeholders) and
its parameters -- and ``tabletop.describe`` translates it with gettext and fills
it in. A parameter is plain data (a number, a string), another ``Words``, or a
reference the pages resolve in the reader's terms: ``Seat`` (a player's name),
``Seats`` ("ann and bob", or "nobody"), ``Card`` (a card in short words, or "a
card" when the viewer did not see it), ``AndList`` ("5♥ and 6♥") and ``Join``
(parts said one after the other).

The constructors are named ``_``, ``ngettext`` and ``pgettext`` on purpose: the
catalogue tool (``makemessages``) finds their message ids in this package as it
does anywhere else, so a sentence keeps its translations wherever it lives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Words:
    """One message: ``msgid`` (or its ``plural`` by ``count``, in ``context``) % ``params``."""

    msgid: str
    params: Mapping[str, Part] = field(default_factory=dict)
    plural: str = ""
    count: int = 1
    context: str = ""


@dataclass(frozen=True)
class Seat:
    """A player's name (``seat`` out of range or not an int: "someone")."""

    seat: Any


@dataclass(frozen=True)
class Seats:
    """Players' names as a list ("ann and bob"), or "nobody"."""

    seats: tuple[Any, ...]


@dataclass(frozen=True)
class Card:
    """A card's code in short words ("7♥"); ``default`` (None: "a card") when not seen."""

    code: Any
    default: Part | None = None


@dataclass(frozen=True)
class AndList:
    """Parts said as a list: "a, b and c" (empty parts left out)."""

    items: tuple[Part, ...]


@dataclass(frozen=True)
class Join:
    """Parts said one after the other (a sentence and its addenda)."""

    parts: tuple[Part, ...]


Part = Words | Seat | Seats | Card | AndList | Join | str | int | None


def _(msgid: str, /, **params: Part) -> Words:
    """A sentence (its message id is collected for the catalogues)."""
    return Words(msgid, params)


def ngettext(singular: str, plural: str, number: int, /, **params: Part) -> Words:
    """A sentence by count: ``singular`` for one, ``plural`` otherwise (as the language says)."""
    return Words(singular, params, plural=plural, count=number)


def pgettext(context: str, msgid: str, /, **params: Part) -> Words:
    """A short word that means different things: ``context`` tells the translator which."""
    return Words(msgid, params, context=context)


def join(*parts: Part) -> Join:
    return Join(tuple(parts))


def and_list(items: Sequence[Part]) -> AndList:
    return AndList(tuple(items))


def seen(code: Any) -> bool:
    """Whether a card code in an event's data is one the viewer saw."""
    return isinstance(code, str) and code not in ("?", "")


class Told:
    """An event as a ruleset's ``describe`` reads it: its data as the viewer saw it."""

    def __init__(self, event: Any, data: Mapping[str, Any] | None) -> None:
        self.event = event
        self.data: Mapping[str, Any] = data or {}

    @property
    def seat(self) -> Any:
        seat = self.event.seat
        return self.data.get("seat") if seat is None else seat

    @property
    def actor(self) -> Seat:
        return Seat(self.seat)

    def code(self, *keys: str) -> Any:
        """The first of ``keys`` the viewer saw a card code under (None: none)."""
        for key in keys:
            if key in self.data and self.data[key] not in (None, "?"):
                return self.data[key]
        return None


def is_reader(seat: Any, reader: int | None) -> bool:
    """Whether ``seat`` is the player reading at their own table: the page calls
    them "you" in every sentence, as it does everywhere else on it."""
    return reader is not None and not isinstance(seat, bool) and seat == reader


def person(seat: Any, reader: int | None) -> Part:
    """A player inside a list or after a colon: "you" to the reader, else the name."""
    return _("you") if is_reader(seat, reader) else Seat(seat)


def turn_started(told: Told, reader: int | None) -> Words:
    """A new turn: "Now it is your turn." to its player at their table."""
    if reader is not None and told.seat == reader:
        return _("Now it is your turn.")
    return _("Now it is %(name)s's turn.", name=told.actor)


def dealt(told: Told, text: Words, reader: int | None = None) -> Part:
    """A deal's ``text``, and who starts when the event says it."""
    start = told.data.get("start_seat")
    if isinstance(start, int):
        if is_reader(start, reader):
            return _("%(text)s; you start", text=text)
        return _("%(text)s; %(name)s starts", text=text, name=Seat(start))
    return text
