"""Plain words for events: "Ann drew from the deck", "Cara called Pablo".

One function per event type, registered in ``DESCRIBE``. Each reads the
event's data *as the viewer saw it*: the unredacted data for the all-cards
view, ``rules.event_view(before, event, seat)`` for a seat's view -- so a
sentence never names a card the viewer did not see, and every function must
cope with a card code being absent ("Ann drew a card").

A type without a function gets a readable fallback ("Ann: power skipped"),
and ``tests/replays/test_describe.py`` checks that every type a ruleset
emits has its own function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.rules import Event

from .cards import card_short
from .layouts import layout

JSON = dict[str, Any]

#: Event types of the life cycle before play (summed up in step 0).
PRE_PLAY = frozenset({"game_created", "player_joined", "game_started", "round_started"})
#: A new round is dealt (a jump target).
ROUND_START = frozenset({"round_started"})
#: A round's scores are booked (one point of the chart per such event).
ROUND_END = frozenset({"round_ended"})
#: Said in the step before (a new turn is the end of the previous action).
MERGE_BACK = frozenset({"deadline_set", "turn_started"})
#: A call ("Pablo", "Cabo"): a jump target.
CALL = frozenset({"called"})

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
        if isinstance(seat, int) and 0 <= seat < len(self.names):
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
        if isinstance(code, str) and code not in ("?", ""):
            return card_short(code, self.kind)
        return _("a card") if default is None else default

    def code(self, *keys: str) -> Any:
        for key in keys:
            if key in self.data and self.data[key] not in (None, "?"):
                return self.data[key]
        return None

    def seats(self, seats: Sequence[int]) -> str:
        return and_list([self.name(s) for s in seats]) or _("nobody")


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

    ``ruleset`` names the game's words (the call's "Pablo" or "Cabo", its layout);
    ``reader``: the seat of the player reading at their table, told "your turn".
    """
    w = Words(event, data, names, kind, viewer, ruleset, reader)
    fn = DESCRIBE.get(event.type)
    if fn is None:
        return [_sentence(fallback(w))]
    text = fn(w)
    return [_sentence(text)] if text else []


def own_step(event: Event) -> bool:
    """Whether ``event`` is a step of its own, or merely ends the step before it.

    Bookkeeping and the start of a turn (``MERGE_BACK``) end the step before, and
    so does an event whose words are empty because the event before said it (a
    Skip-Bo turn ending with a discard). ``replays.steps.build_replay`` numbers
    the steps with this rule without describing every event; it must agree with
    ``describe(event, event.data, ...) == []`` (tests/replays/test_describe.py).
    """
    if event.type in MERGE_BACK:
        return False
    return not (event.type == "turn_ended" and (event.data or {}).get("reason") == "discard")


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def fallback(w: Words) -> str:
    what = w.event.type.replace("_", " ")
    return f"{w.actor}: {what}" if w.event.seat is not None else what.capitalize()


def describe_start(events: Sequence[Event], names: Sequence[str], kind: str) -> str:
    """Step 0: who plays, and the deal."""
    header = events[0].data
    seats = header.get("seats", len(names))
    rounds = sum(1 for e in events if e.type in ROUND_START)
    who = and_list(list(names[:seats]))
    if kind == "skipbo":
        return _("%(who)s sit down; the stock piles are dealt.") % {"who": who}
    return _("%(who)s sit down; round %(round)s is dealt.") % {"who": who, "round": max(rounds, 1)}


def and_list(items: Sequence[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return _("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}


# --------------------------------------------------------------------------- engine events


@describes("game_created")
def _created(w: Words) -> str:
    return _("%(name)s created the game") % {"name": w.name(0)}


@describes("player_joined")
def _joined(w: Words) -> str:
    return _("%(name)s took seat %(seat)s") % {
        "name": w.data.get("username") or w.actor,
        "seat": w.data.get("seat"),
    }


@describes("game_started")
def _started(w: Words) -> str:
    return _("Every seat is taken: the game starts")


@describes("round_started")
def _round_started(w: Words) -> str:
    start = w.data.get("start_seat")
    if w.kind == "skipbo":
        text = _("The stock piles are dealt")
    else:
        text = _("Round %(round)s is dealt") % {"round": w.data.get("round", "")}
    if isinstance(start, int):
        text = _("%(text)s; %(name)s starts") % {"text": text, "name": w.name(start)}
    return text


@describes("deadline_set")
def _deadline(w: Words) -> str:
    return ""


@describes("turn_timed_out")
def _timed_out(w: Words) -> str:
    return _("Timeout: %(name)s's turn was played for them") % {"name": w.actor}


@describes("player_absent")
def _absent(w: Words) -> str:
    return _("%(name)s timed out too often and is marked absent") % {"name": w.actor}


@describes("player_returned")
def _returned(w: Words) -> str:
    return _("%(name)s is back") % {"name": w.actor}


@describes("game_finished")
def _finished(w: Words) -> str:
    winners = w.data.get("winners") or []
    losers = w.data.get("losers") or []
    text = ngettext("Game over: %(who)s wins", "Game over: %(who)s win", len(winners) or 2) % {
        "who": w.seats(winners)
    }
    if losers:
        text += ngettext("; %(who)s loses", "; %(who)s lose", len(losers)) % {
            "who": w.seats(losers)
        }
    return text


@describes("game_aborted")
def _aborted(w: Words) -> str:
    reason = w.data.get("reason")
    if reason == "cancelled":  # only its creator, seat 0, may cancel (games.friends)
        return _("%(name)s cancelled the game before it started") % {"name": w.name(0)}
    if reason:
        return _("The game was stopped: %(reason)s") % {"reason": reason}
    return _("The game was stopped")


# --------------------------------------------------------------------------- Skip-Bo

SOURCE_WORDS = {
    "hand": gettext_lazy("from their hand"),
    "stock": gettext_lazy("from their stock pile"),
    "discard": gettext_lazy("from their discard pile"),
}


@describes("turn_started")
def _turn_started(w: Words) -> str:
    seat = w.event.seat if w.event.seat is not None else w.data.get("seat")
    if w.reader is not None and seat == w.reader:
        return _("Now it is your turn.")
    return _("Now it is %(name)s's turn.") % {"name": w.actor}


@describes("cards_drawn")
def _cards_drawn(w: Words) -> str:
    cards = w.data.get("cards")
    if cards:
        shown = ", ".join(w.card(c.get("code")) for c in cards)
        return ngettext(
            "%(name)s drew %(count)s card: %(cards)s",
            "%(name)s drew %(count)s cards: %(cards)s",
            len(cards),
        ) % {"name": w.actor, "count": len(cards), "cards": shown}
    count = w.data.get("count", 0)
    return ngettext("%(name)s drew %(count)s card", "%(name)s drew %(count)s cards", count) % {
        "name": w.actor,
        "count": count,
    }


@describes("draw_pile_reshuffled")
def _draw_reshuffled(w: Words) -> str:
    count = w.data.get("count", len(w.data.get("order") or []))
    if w.kind == "skipbo":
        return _(
            "The draw pile ran out: %(count)s completed cards were shuffled into a new one"
        ) % {"count": count}
    return _("The draw pile ran out: the discard pile was shuffled into a new one of %(count)s") % {
        "count": count
    }


@describes("card_played")
def _card_played(w: Words) -> str:
    source = w.data.get("from")
    where = str(SOURCE_WORDS.get(source, SOURCE_WORDS["hand"]))
    if source == "discard" and w.data.get("discard_pile") is not None:
        where = _("from their discard pile %(n)s") % {"n": w.data["discard_pile"] + 1}
    card = w.card(w.code("code"))
    value = w.data.get("value")
    if w.data.get("code") == "SB" and value:
        card = _("%(card)s as a %(value)s") % {"card": card, "value": value}
    pile = w.data.get("pile")
    text = _("%(name)s played %(card)s %(where)s onto building pile %(pile)s") % {
        "name": w.actor,
        "card": card,
        "where": where,
        "pile": pile + 1,
    }
    if source == "stock":
        top = w.data.get("stock_top")
        if top and top.get("code"):
            text += _("; their stock shows %(card)s next") % {"card": w.card(top["code"])}
        elif "stock_top" in w.data and top is None:
            text += _("; their stock pile is empty")
    return text


@describes("pile_completed")
def _pile_completed(w: Words) -> str:
    pile = w.data.get("pile")
    return _("Building pile %(pile)s reached 12 and was cleared") % {
        "pile": pile + 1 if isinstance(pile, int) else ""
    }


@describes("card_discarded")
def _card_discarded(w: Words) -> str:
    pile = w.data.get("discard_pile")
    card = w.card(w.code("code"))
    if isinstance(pile, int):
        return _("%(name)s put %(card)s on their discard pile %(pile)s, ending the turn") % {
            "name": w.actor,
            "card": card,
            "pile": pile + 1,
        }
    return _("%(name)s put %(card)s on a discard pile, ending the turn") % {
        "name": w.actor,
        "card": card,
    }


@describes("turn_ended")
def _turn_ended(w: Words) -> str:
    reason = w.data.get("reason")
    if reason == "discard":
        return ""  # said by card_discarded: the step merges into that one
    if reason == "no_cards":
        return _("%(name)s has no card left and nothing to draw: the turn ends") % {"name": w.actor}
    return _("%(name)s's turn ends") % {"name": w.actor}


# --------------------------------------------------------------------------- the Pablo family

POWER_WORDS = {
    "peek": gettext_lazy("peek at one of their own cards"),
    "spy": gettext_lazy("spy on another player's card"),
    "swap": gettext_lazy("swap a card blind"),
    "spy_swap": gettext_lazy("spy, then swap"),
    "spy-and-swap": gettext_lazy("spy, then swap"),
    "swap_seen": gettext_lazy("swap"),
}


def _slots(positions: Sequence[Any]) -> str:
    items = [str(p) for p in positions]
    return ngettext("their slot %(slots)s", "their slots %(slots)s", len(items)) % {
        "slots": and_list(items)
    }


@describes("looked")
def _looked(w: Words) -> str:
    positions = w.data.get("positions") or []
    cards = w.data.get("cards") or []
    shown = [w.card(c.get("code"), "") for c in cards]
    text = _("%(name)s looked at %(slots)s") % {"name": w.actor, "slots": _slots(positions)}
    if shown and all(shown):
        text += ": " + and_list(shown)
    return text


@describes("drawn")
def _drawn(w: Words) -> str:
    if w.data.get("source") == "discard":
        return _("%(name)s took %(card)s from the discard pile") % {
            "name": w.actor,
            "card": w.card(w.code("code")),
        }
    code = w.code("code")
    if code is None:
        return _("%(name)s drew from the deck") % {"name": w.actor}
    return _("%(name)s drew %(card)s from the deck") % {"name": w.actor, "card": w.card(code)}


@describes("reshuffled")
def _reshuffled(w: Words) -> str:
    count = w.data.get("count", len(w.data.get("order") or []))
    return ngettext(
        "The draw pile ran out: the discard pile (but its top) was shuffled into a new "
        "draw pile of %(count)s card; everyone forgets those cards",
        "The draw pile ran out: the discard pile (but its top) was shuffled into a new "
        "draw pile of %(count)s cards; everyone forgets those cards",
        count,
    ) % {"count": count}


@describes("discarded")
def _discarded(w: Words) -> str:
    text = _("%(name)s discarded %(card)s") % {"name": w.actor, "card": w.card(w.code("code"))}
    power = w.data.get("power")
    if power:
        kind = power.get("kind", "")
        what = POWER_WORDS.get(kind, kind.replace("_", " "))
        text += _(": its power lets them %(what)s") % {"what": what}
        if power.get("optional"):
            text += _(" (optional)")
    return text


@describes("replaced")
def _replaced(w: Words) -> str:
    positions = w.data.get("positions") or []
    out = w.data.get("out") or []
    held = w.card(w.code("code"), _("the card") if w.data.get("open") else _("the held card"))
    words = {
        "name": w.actor,
        "slots": _slots(positions),
        "card": held,
        "gone": and_list([w.card(o.get("code")) for o in out]),
        "new": w.data.get("new_position"),
    }
    if len(positions) <= 1:
        return _("%(name)s put %(card)s into %(slots)s, discarding %(gone)s") % words
    if w.data.get("correct"):
        return (
            _(
                "%(name)s replaced %(slots)s with %(card)s — correct: "
                "%(gone)s go to the discard pile"
            )
            % words
        )
    if words["new"] is not None:
        return (
            _(
                "%(name)s tried to replace %(slots)s at once — wrong: %(gone)s do not match "
                "and stay, shown to everyone; %(card)s goes into a new slot %(new)s"
            )
            % words
        )
    return (
        _(
            "%(name)s tried to replace %(slots)s at once — wrong: %(gone)s do not match "
            "and stay, shown to everyone; %(card)s goes onto the discard pile"
        )
        % words
    )


@describes("peeked")
def _peeked(w: Words) -> str:
    code = w.code("code")
    words = {"name": w.actor, "slot": w.data.get("position"), "card": w.card(code)}
    if code:
        return _("%(name)s peeked at their slot %(slot)s: %(card)s") % words
    return _("%(name)s peeked at their slot %(slot)s") % words


@describes("spied")
def _spied(w: Words) -> str:
    code = w.code("code")
    words = {
        "name": w.actor,
        "other": w.name(w.data.get("seat")),
        "slot": w.data.get("position"),
        "card": w.card(code),
    }
    if code:
        return _("%(name)s spied on %(other)s's slot %(slot)s: %(card)s") % words
    return _("%(name)s spied on %(other)s's slot %(slot)s") % words


@describes("swapped")
def _swapped(w: Words) -> str:
    mine = (w.data.get("mine") or {}).get("code")
    theirs = (w.data.get("theirs") or {}).get("code")
    text = _("%(name)s swapped their slot %(slot)s with %(other)s's slot %(their)s") % {
        "name": w.actor,
        "slot": w.data.get("position"),
        "other": w.name(w.data.get("seat")),
        "their": w.data.get("their_position"),
    }
    if mine and theirs:
        text += _(" (%(mine)s for %(theirs)s)") % {"mine": w.card(mine), "theirs": w.card(theirs)}
    elif theirs:
        text += _(" and received %(card)s") % {"card": w.card(theirs)}
    elif mine:
        text += _(", giving away %(card)s") % {"card": w.card(mine)}
    return text


@describes("power_skipped")
def _power_skipped(w: Words) -> str:
    reason = w.data.get("reason")
    if reason == "impossible":
        return _("The power could not be used: there is no card to use it on")
    if reason == "timeout":
        return _("%(name)s's power was skipped (timeout)") % {"name": w.actor}
    return _("%(name)s chose not to use the power") % {"name": w.actor}


@describes("thrown")
def _thrown(w: Words) -> str:
    owner = w.data.get("seat")
    card = w.card(w.code("code"), pgettext("thrown", "card"))
    if owner == w.event.seat:
        thrown = _("%(name)s threw their own %(card)s") % {"name": w.actor, "card": card}
    else:
        thrown = _("%(name)s threw %(other)s's %(card)s") % {
            "name": w.actor,
            "other": w.name(owner),
            "card": card,
        }
    if not w.data.get("correct"):
        return _("%(thrown)s — wrong: it stays where it was, shown to everyone") % {
            "thrown": thrown
        }
    text = _("%(thrown)s — correct") % {"thrown": thrown}
    given = w.data.get("given")
    if w.data.get("give_position") is not None or given:
        text += _("; %(name)s gave %(card)s from their slot %(slot)s into the empty slot") % {
            "name": w.actor,
            "card": w.card((given or {}).get("code")),
            "slot": w.data.get("give_position"),
        }
    return text


@describes("penalty")
def _penalty(w: Words) -> str:
    code = w.code("code")
    words = {
        "name": w.actor,
        "card": f" ({w.card(code)})" if code else "",
        "slot": w.data.get("position"),
    }
    if w.data.get("reason") == "queen":
        return (
            _(
                "%(name)s has no card left and discarded a queen: one more card%(card)s "
                "into new slot %(slot)s"
            )
            % words
        )
    return _("%(name)s takes a penalty card%(card)s into new slot %(slot)s, face down") % words


@describes("called")
def _called(w: Words) -> str:
    return _("%(name)s called %(word)s") % {"name": w.actor, "word": layout(w.ruleset).call_word}


ROUND_END_WORDS = {
    "call": gettext_lazy("after the call"),
    "empty_field": gettext_lazy("because a field is empty"),
    "exhausted": gettext_lazy("because no card is left to draw"),
}


@describes("round_ended")
def _round_ended(w: Words) -> str:
    scores = w.data.get("scores") or {}
    totals = w.data.get("totals") or {}
    why = ROUND_END_WORDS.get(w.data.get("reason") or "", "")
    parts = []
    for key in sorted(scores, key=int):
        score, total = scores[key], totals.get(key)
        shown = f"{score:+d}" if isinstance(score, int) else str(score)
        if total is not None and total != score:
            shown = _("%(score)s (holds %(total)s)") % {"score": shown, "total": total}
        parts.append(f"{w.name(int(key))} {shown}")
    words = {"round": w.data.get("round", ""), "why": why, "scores": ", ".join(parts)}
    if why:
        return _("Round %(round)s ends %(why)s: %(scores)s") % words
    return _("Round %(round)s ends: %(scores)s") % words
