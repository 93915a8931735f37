"""Plain words for events: "Ann drew from the deck", "Cara called Pablo".

The life-cycle events every game shares (``rules.ENGINE_EVENTS``) have one
function each here, registered in ``DESCRIBE``; a ruleset's own events are its
own to say (``Ruleset.describe``): it returns a sentence as data -- a message id
and its parameters (``games.rules.words``) -- that ``say`` translates with
gettext and fills in with the players' names and the cards in the viewer's
kind. Each reads the event's data *as the viewer saw it*: the unredacted data
for the all-cards view, ``rules.event_view(before, event, seat)`` for a seat's
view -- so a sentence never names a card the viewer did not see, and every
description must cope with a card code being absent ("Ann drew a card").

An event nobody describes gets a readable fallback ("Ann: power skipped"), and
``tests/replays/test_describe.py`` checks that every type a ruleset emits has
its own words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games import rules
from games.names import player_name
from games.rules import Event
from games.rules import words as said

from .cards import card_said

JSON = dict[str, Any]

#: Engine events of the life cycle before play (summed up in step 0, with the
#: ruleset's ``round_start_event``).
PRE_PLAY = frozenset({"game_created", "player_joined", "game_started"})
#: Engine events said in the step before (bookkeeping; the rulesets' ``merges_back``
#: adds their own: a new turn ends the previous action).
MERGE_BACK = frozenset({"deadline_set"})

#: The stage of a turn (``state.turn.stage``) in words: "Ann is to draw".
STAGE_WORDS = {
    "look": gettext_lazy("looking at two cards"),
    "draw": gettext_lazy("to draw"),
    "hold": gettext_lazy("holding a card"),
    "power": gettext_lazy("using a power"),
    "play": gettext_lazy("playing"),
}


class Words:
    """What a describing function gets: the event, its data as seen, names and card kind."""

    def __init__(
        self,
        event: Event,
        data: JSON,
        names: Sequence[str],
        kind: str,
        viewer: int | None,
        ruleset: str,
        reader: int | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.reader = reader
        self.event = event
        self.data = data or {}
        self.names = names
        self.kind = kind
        self.viewer = viewer

    def name(self, seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.names):
            return self.names[seat]
        return _("someone")

    @property
    def actor(self) -> str:
        seat = self.event.seat
        if seat is None:
            seat = self.data.get("seat")
        return self.name(seat)

    def card(self, code: Any, default: str | None = None) -> str:
        """A card in words, or ``default`` ("a card") when the viewer did not see it."""
        if said.seen(code):
            return card_said(code, self.kind)
        return _("a card") if default is None else default

    def mine(self, seat: Any = None) -> bool:
        """Whether ``seat`` (default: the actor's) is the reader's: the table calls them
        "you" in its sentences, as everywhere else on the page."""
        if seat is None:
            seat = self.event.seat if self.event.seat is not None else self.data.get("seat")
        return said.is_reader(seat, self.reader)

    def seats(self, seats: Sequence[int]) -> str:
        return and_list([self.name(s) for s in seats]) or _("nobody")

    def people(self, seats: Sequence[int]) -> str:
        """``seats`` as a list, the reader among them as "you" ("ann and you")."""
        names = [_("you") if self.mine(s) else self.name(s) for s in seats]
        return and_list(names) or _("nobody")

    def say(self, part: said.Part) -> str:
        """A ruleset's sentence (``games.rules.words``) translated and filled in."""
        if part is None:
            return ""
        if isinstance(part, str):
            return part
        if isinstance(part, int):
            return str(part)
        if isinstance(part, said.Words):
            if part.plural:
                text = ngettext(part.msgid, part.plural, part.count)
            elif part.context:
                text = pgettext(part.context, part.msgid)
            else:
                text = _(part.msgid)
            if not part.params:
                return text
            return text % {key: self.say(value) for key, value in part.params.items()}
        if isinstance(part, said.Seat):
            return self.name(part.seat)
        if isinstance(part, said.Seats):
            return self.seats(part.seats)
        if isinstance(part, said.Card):
            default = None if part.default is None else self.say(part.default)
            return self.card(part.code, default)
        if isinstance(part, said.AndList):
            return and_list([self.say(item) for item in part.items])
        return "".join(self.say(item) for item in part.parts)


Describer = Callable[[Words], str]
DESCRIBE: dict[str, Describer] = {}


def describes(*types: str) -> Callable[[Describer], Describer]:
    def register(fn: Describer) -> Describer:
        for t in types:
            DESCRIBE[t] = fn
        return fn

    return register


def describe(
    event: Event,
    data: JSON,
    names: Sequence[str],
    kind: str,
    *,
    viewer: int | None = None,
    ruleset: str,
    reader: int | None = None,
) -> list[str]:
    """The sentences of one event (usually one); ``[]`` merges it into the step before.

    ``ruleset`` says its own events (and names the call: "Pablo" or "Cabo");
    ``reader``: the seat of the player reading at their table, told "your turn".
    """
    w = Words(event, data, names, kind, viewer, ruleset, reader)
    fn = DESCRIBE.get(event.type)
    if fn is not None:
        text = fn(w)
    else:
        rs = rules.get_ruleset(ruleset)
        if event.type not in rs.event_types:
            return [_sentence(fallback(w))]
        text = w.say(rs.describe(event, w.data, reader))
    return [_sentence(text)] if text else []


def own_step(event: Event, ruleset: str) -> bool:
    """Whether ``event`` is a step of its own, or merely ends the step before it.

    Bookkeeping (``MERGE_BACK``) ends the step before, and so does what the
    ruleset says does (``Ruleset.merges_back``: the start of a turn, an event
    whose words the event before said, as a Skip-Bo turn ending with a discard).
    ``replays.steps.build_replay`` numbers the steps with this rule without
    describing every event; it must agree with ``describe(event, event.data, ...)
    == []`` (tests/replays/test_describe.py).
    """
    if event.type in MERGE_BACK:
        return False
    return not rules.get_ruleset(ruleset).merges_back(event)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def fallback(w: Words) -> str:
    what = w.event.type.replace("_", " ")
    return f"{w.actor}: {what}" if w.event.seat is not None else what.capitalize()


def describe_start(events: Sequence[Event], names: Sequence[str], kind: str, ruleset: str) -> str:
    """Step 0: who plays, and the deal."""
    rs = rules.get_ruleset(ruleset)
    header = events[0].data
    seats = header.get("seats", len(names))
    rounds = sum(1 for e in events if e.type == rs.round_start_event)
    w = Words(events[0], header, names[:seats], kind, None, ruleset)
    return w.say(rs.describe_start(seats, rounds))


def and_list(items: Sequence[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return _("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}


# --------------------------------------------------------------------------- engine events


@describes("game_created")
def _created(w: Words) -> str:
    if w.mine(0):
        return _("You created the game")
    return _("%(name)s created the game") % {"name": w.name(0)}


@describes("player_joined")
def _joined(w: Words) -> str:
    if w.mine():
        return _("You took seat %(seat)s") % {"seat": w.data.get("seat")}
    return _("%(name)s took seat %(seat)s") % {
        "name": player_name(w.data.get("username")) or w.actor,
        "seat": w.data.get("seat"),
    }


@describes("game_started")
def _started(w: Words) -> str:
    return _("Every seat is taken: the game starts")


@describes("deadline_set")
def _deadline(w: Words) -> str:
    return ""


@describes("turn_timed_out")
def _timed_out(w: Words) -> str:
    if w.mine():
        return _("Timeout: your turn was played for you")
    return _("Timeout: %(name)s's turn was played for them") % {"name": w.actor}


@describes("player_absent")
def _absent(w: Words) -> str:
    if w.mine():
        return _("You timed out too often and are marked absent")
    return _("%(name)s timed out too often and is marked absent") % {"name": w.actor}


@describes("player_returned")
def _returned(w: Words) -> str:
    if w.mine():
        return _("You are back")
    return _("%(name)s is back") % {"name": w.actor}


@describes("game_finished")
def _finished(w: Words) -> str:
    winners = w.data.get("winners") or []
    losers = w.data.get("losers") or []
    if winners == [w.reader] and w.mine(w.reader):
        text = _("Game over: you win")
    else:
        text = ngettext("Game over: %(who)s wins", "Game over: %(who)s win", len(winners) or 2) % {
            "who": w.people(winners)
        }
    if losers == [w.reader] and w.mine(w.reader):
        text += _("; you lose")
    elif losers:
        text += ngettext("; %(who)s loses", "; %(who)s lose", len(losers)) % {
            "who": w.people(losers)
        }
    return text


@describes("game_aborted")
def _aborted(w: Words) -> str:
    reason = w.data.get("reason")
    if reason == "cancelled" and w.mine(0):
        return _("You cancelled the game before it started")
    if reason == "cancelled":  # only its creator, seat 0, may cancel (games.friends)
        return _("%(name)s cancelled the game before it started") % {"name": w.name(0)}
    if reason:
        return _("The game was stopped: %(reason)s") % {"reason": reason}
    return _("The game was stopped")


ROUND_END_WORDS = {
    "call": gettext_lazy("after the call"),
    "empty_field": gettext_lazy("because a field is empty"),
    "exhausted": gettext_lazy("because no card is left to draw"),
}
