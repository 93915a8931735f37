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
    "look": "looking at two cards",
    "draw": "to draw",
    "hold": "holding a card",
    "power": "using a power",
    "play": "playing",
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
        return "someone"

    @property
    def actor(self) -> str:
        seat = self.event.seat
        if seat is None:
            seat = self.data.get("seat")
        return self.name(seat)

    def card(self, code: Any, default: str = "a card") -> str:
        """A card in words, or ``default`` when the viewer did not see it."""
        if isinstance(code, str) and code not in ("?", ""):
            return card_short(code, self.kind)
        return default

    def code(self, *keys: str) -> Any:
        for key in keys:
            if key in self.data and self.data[key] not in (None, "?"):
                return self.data[key]
        return None

    def whose(self, seat: Any, position: Any) -> str:
        owner = "their own" if seat == self.event.seat else f"{self.name(seat)}'s"
        return f"{owner} slot {position}" if position is not None else owner

    def seats(self, seats: Sequence[int]) -> str:
        return _and([self.name(s) for s in seats]) or "nobody"


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
    who = _and(list(names[:seats]))
    if kind == "skipbo":
        return f"{who} sit down; the stock piles are dealt."
    return f"{who} sit down; round {max(rounds, 1)} is dealt."


def _and(items: Sequence[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# --------------------------------------------------------------------------- engine events


@describes("game_created")
def _created(w: Words) -> str:
    return f"{w.name(0)} created the game"


@describes("player_joined")
def _joined(w: Words) -> str:
    return f"{w.data.get('username') or w.actor} took seat {w.data.get('seat')}"


@describes("game_started")
def _started(w: Words) -> str:
    return "Every seat is taken: the game starts"


@describes("round_started")
def _round_started(w: Words) -> str:
    start = w.data.get("start_seat")
    text = f"Round {w.data.get('round', '')} is dealt".replace("  ", " ")
    if w.kind == "skipbo":
        text = "The stock piles are dealt"
    if isinstance(start, int):
        text += f"; {w.name(start)} starts"
    return text


@describes("deadline_set")
def _deadline(w: Words) -> str:
    return ""


@describes("turn_timed_out")
def _timed_out(w: Words) -> str:
    return f"Timeout: {w.actor}'s turn was played for them"


@describes("player_absent")
def _absent(w: Words) -> str:
    return f"{w.actor} timed out too often and is marked absent"


@describes("player_returned")
def _returned(w: Words) -> str:
    return f"{w.actor} is back"


@describes("game_finished")
def _finished(w: Words) -> str:
    winners = w.data.get("winners") or []
    losers = w.data.get("losers") or []
    text = f"Game over: {w.seats(winners)} {'win' if len(winners) != 1 else 'wins'}"
    if losers:
        text += f"; {w.seats(losers)} {'lose' if len(losers) != 1 else 'loses'}"
    return text


@describes("game_aborted")
def _aborted(w: Words) -> str:
    reason = w.data.get("reason")
    if reason == "cancelled":  # only its creator, seat 0, may cancel (games.friends)
        return f"{w.name(0)} cancelled the game before it started"
    return "The game was stopped" + (f": {reason}" if reason else "")


# --------------------------------------------------------------------------- Skip-Bo

SOURCE_WORDS = {"hand": "hand", "stock": "stock pile", "discard": "discard pile"}


@describes("turn_started")
def _turn_started(w: Words) -> str:
    seat = w.event.seat if w.event.seat is not None else w.data.get("seat")
    if w.reader is not None and seat == w.reader:
        return "Now it is your turn."
    return f"Now it is {w.actor}'s turn."


@describes("cards_drawn")
def _cards_drawn(w: Words) -> str:
    cards = w.data.get("cards")
    if cards:
        shown = ", ".join(w.card(c.get("code")) for c in cards)
        return f"{w.actor} drew {len(cards)} card{'s' if len(cards) != 1 else ''}: {shown}"
    count = w.data.get("count", 0)
    return f"{w.actor} drew {count} card{'s' if count != 1 else ''}"


@describes("draw_pile_reshuffled")
def _draw_reshuffled(w: Words) -> str:
    count = w.data.get("count", len(w.data.get("order") or []))
    if w.kind == "skipbo":
        return f"The draw pile ran out: {count} completed cards were shuffled into a new one"
    return f"The draw pile ran out: the discard pile was shuffled into a new one of {count}"


@describes("card_played")
def _card_played(w: Words) -> str:
    source = w.data.get("from")
    where = SOURCE_WORDS.get(source, source or "hand")
    if source == "discard" and w.data.get("discard_pile") is not None:
        where = f"discard pile {w.data['discard_pile'] + 1}"
    card = w.card(w.code("code"))
    value = w.data.get("value")
    as_value = f" as a {value}" if w.data.get("code") == "SB" and value else ""
    pile = w.data.get("pile")
    text = f"{w.actor} played {card}{as_value} from their {where} onto building pile {pile + 1}"
    if source == "stock":
        top = w.data.get("stock_top")
        if top and top.get("code"):
            text += f"; their stock shows {w.card(top['code'])} next"
        elif "stock_top" in w.data and top is None:
            text += "; their stock pile is empty"
    return text


@describes("pile_completed")
def _pile_completed(w: Words) -> str:
    pile = w.data.get("pile")
    return f"Building pile {pile + 1 if isinstance(pile, int) else ''} reached 12 and was cleared"


@describes("card_discarded")
def _card_discarded(w: Words) -> str:
    pile = w.data.get("discard_pile")
    where = f"discard pile {pile + 1}" if isinstance(pile, int) else "a discard pile"
    return f"{w.actor} put {w.card(w.code('code'))} on their {where}, ending the turn"


@describes("turn_ended")
def _turn_ended(w: Words) -> str:
    reason = w.data.get("reason")
    if reason == "discard":
        return ""  # said by card_discarded: the step merges into that one
    if reason == "no_cards":
        return f"{w.actor} has no card left and nothing to draw: the turn ends"
    return f"{w.actor}'s turn ends"


# --------------------------------------------------------------------------- the Pablo family

POWER_WORDS = {
    "peek": "peek at one of their own cards",
    "spy": "spy on another player's card",
    "swap": "swap a card blind",
    "spy_swap": "spy, then swap",
    "spy-and-swap": "spy, then swap",
    "swap_seen": "swap",
}


def _slots(positions: Sequence[Any]) -> str:
    items = [str(p) for p in positions]
    return ("slot " if len(items) == 1 else "slots ") + _and(items)


@describes("looked")
def _looked(w: Words) -> str:
    positions = w.data.get("positions") or []
    cards = w.data.get("cards") or []
    shown = [w.card(c.get("code"), "") for c in cards]
    text = f"{w.actor} looked at their {_slots(positions)}"
    if shown and all(shown):
        text += ": " + _and(shown)
    return text


@describes("drawn")
def _drawn(w: Words) -> str:
    if w.data.get("source") == "discard":
        return f"{w.actor} took {w.card(w.code('code'))} from the discard pile"
    code = w.code("code")
    if code is None:
        return f"{w.actor} drew from the deck"
    return f"{w.actor} drew {w.card(code)} from the deck"


@describes("reshuffled")
def _reshuffled(w: Words) -> str:
    count = w.data.get("count", len(w.data.get("order") or []))
    return (
        f"The draw pile ran out: the discard pile (but its top) was shuffled into a new "
        f"draw pile of {count} card{'s' if count != 1 else ''}; everyone forgets those cards"
    )


@describes("discarded")
def _discarded(w: Words) -> str:
    text = f"{w.actor} discarded {w.card(w.code('code'))}"
    power = w.data.get("power")
    if power:
        kind = power.get("kind", "")
        what = POWER_WORDS.get(kind, kind.replace("_", " "))
        text += f": its power lets them {what}" + (" (optional)" if power.get("optional") else "")
    return text


@describes("replaced")
def _replaced(w: Words) -> str:
    positions = w.data.get("positions") or []
    out = w.data.get("out") or []
    held = w.card(w.code("code"), "the held card")
    if w.data.get("open"):
        held = w.card(w.code("code"), "the card")
    gone = _and([w.card(o.get("code")) for o in out])
    if len(positions) <= 1:
        return f"{w.actor} put {held} into their {_slots(positions)}, discarding {gone}"
    if w.data.get("correct"):
        return (
            f"{w.actor} replaced their {_slots(positions)} with {held} — correct: "
            f"{gone} go to the discard pile"
        )
    new = w.data.get("new_position")
    text = f"{w.actor} tried to replace their {_slots(positions)} at once — wrong: {gone} "
    text += "do not match and stay, shown to everyone"
    if new is not None:
        return text + f"; {held} goes into a new slot {new}"
    return text + f"; {held} goes onto the discard pile"


@describes("peeked")
def _peeked(w: Words) -> str:
    code = w.code("code")
    text = f"{w.actor} peeked at their slot {w.data.get('position')}"
    return text + (f": {w.card(code)}" if code else "")


@describes("spied")
def _spied(w: Words) -> str:
    code = w.code("code")
    text = f"{w.actor} spied on {w.name(w.data.get('seat'))}'s slot {w.data.get('position')}"
    return text + (f": {w.card(code)}" if code else "")


@describes("swapped")
def _swapped(w: Words) -> str:
    mine = (w.data.get("mine") or {}).get("code")
    theirs = (w.data.get("theirs") or {}).get("code")
    text = (
        f"{w.actor} swapped their slot {w.data.get('position')} with "
        f"{w.name(w.data.get('seat'))}'s slot {w.data.get('their_position')}"
    )
    if mine and theirs:
        text += f" ({w.card(mine)} for {w.card(theirs)})"
    elif theirs:
        text += f" and received {w.card(theirs)}"
    elif mine:
        text += f", giving away {w.card(mine)}"
    return text


@describes("power_skipped")
def _power_skipped(w: Words) -> str:
    reason = w.data.get("reason")
    if reason == "impossible":
        return "The power could not be used: there is no card to use it on"
    if reason == "timeout":
        return f"{w.actor}'s power was skipped (timeout)"
    return f"{w.actor} chose not to use the power"


@describes("thrown")
def _thrown(w: Words) -> str:
    owner = w.data.get("seat")
    whose = "their own" if owner == w.event.seat else f"{w.name(owner)}'s"
    card = w.card(w.code("code"), "card")
    if w.data.get("correct"):
        text = f"{w.actor} threw {whose} {card} — correct"
        given = w.data.get("given")
        if w.data.get("give_position") is not None or given:
            gift = w.card((given or {}).get("code"), "a card")
            text += f"; {w.actor} gave {gift} from their slot {w.data.get('give_position')} "
            text += "into the empty slot"
        return text
    return f"{w.actor} threw {whose} {card} — wrong: it stays where it was, shown to everyone"


@describes("penalty")
def _penalty(w: Words) -> str:
    code = w.code("code")
    where = f"into new slot {w.data.get('position')}"
    card = f" ({w.card(code)})" if code else ""
    if w.data.get("reason") == "queen":
        return f"{w.actor} has no card left and discarded a queen: one more card{card} {where}"
    return f"{w.actor} takes a penalty card{card} {where}, face down"


@describes("called")
def _called(w: Words) -> str:
    return f"{w.actor} called {layout(w.ruleset).call_word}"


ROUND_END_WORDS = {
    "call": "after the call",
    "empty_field": "because a field is empty",
    "exhausted": "because no card is left to draw",
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
        extra = f" (holds {total})" if total is not None and total != score else ""
        parts.append(f"{w.name(int(key))} {shown}{extra}")
    text = f"Round {w.data.get('round', '')} ends{' ' + why if why else ''}: " + ", ".join(parts)
    return text.replace("  ", " ")
