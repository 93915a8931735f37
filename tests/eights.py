"""Crazy Eights: a third kind of ruleset, written for the tests only (never shipped).

It proves that a ruleset plays through the house by its protocol alone: the
API, the bots (``random``, ``basic`` and the ``expert``'s kit, hence the
analysis), the table and the viewer, with nothing outside ``games.rules`` and
``games.bots`` naming it. ``register()`` adds it (and its bots) to the
registries; the ``eights`` fixture of tests/conftest.py does so for a test.

The game (a shedding game with hidden hands; the "no suit call" variant):

* 2 to 4 players, one 52-card French deck. Each player is dealt 5 cards
  (7 with two players); the next card of the stock starts the discard pile.
* On your turn, put one hand card on the discard pile -- a card of the top's
  suit or rank, or any eight (an eight on the pile asks for its own suit) --
  or draw one card from the stock. After drawing you may put down a card
  that fits, or pass. With an empty stock and no card that fits, you pass.
* The first player to empty their hand wins. When every player passed in a
  row with an empty stock, the game ends: the fewest cards left win.

Actions reuse the house's verbs (so the API needs nothing new):
``{"type": "throw", "seat": you, "position": i, "onto": serial}`` puts hand
card ``i`` on the pile you saw (``discard.serial``), ``{"type": "draw",
"source": "deck"}`` draws, ``{"type": "skip"}`` passes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games import rules
from games.bots import strategy
from games.rules import Event, State, words
from games.rules.cards import french_deck, french_rank
from games.rules.evolve import Handlers, Work
from games.rules.state import base_header, clone

ID = "eights"


def suit(code: str) -> str:
    return code[-1]


def fits(code: str, top: str, asked: str) -> bool:
    """Whether ``code`` may go on ``top`` (``asked``: the suit to follow)."""
    return french_rank(code) == "8" or suit(code) == asked or french_rank(code) == french_rank(top)


@dataclass
class EightsState(State):
    deck: list[str] = field(default_factory=list)  # a card's id is its index here
    stock: list[int] = field(default_factory=list)  # the top is the last
    hands: list[list[int]] = field(default_factory=list)
    pile: list[int] = field(default_factory=list)  # the discard pile, top last
    turn_seat: int | None = None
    turn_no: int = 0
    drawn: bool = False  # the player on turn drew already
    passes: int = 0  # passes in a row


def _st(state: State) -> EightsState:
    assert isinstance(state, EightsState)
    return state


_ON = Handlers(ID)


@_ON.on("dealt")
def _dealt(st: EightsState, event: Event) -> None:
    d = event.data
    st.deck = list(d["deck"])
    hand = d["hand_size"]
    ids = list(range(len(st.deck)))
    st.hands = [ids[s * hand : (s + 1) * hand] for s in range(st.seats)]
    st.pile = [st.seats * hand]
    st.stock = ids[st.seats * hand + 1 :][::-1]
    st.turn_seat = d["start_seat"]
    st.turn_no = 1
    _count(st)


@_ON.on("card_put")
def _card_put(st: EightsState, event: Event) -> None:
    st.hands[event.data["seat"]].remove(event.data["card"])
    st.pile.append(event.data["card"])
    _next_turn(st)
    st.passes = 0
    _count(st)


@_ON.on("card_drawn")
def _card_drawn(st: EightsState, event: Event) -> None:
    st.hands[event.data["seat"]].append(st.stock.pop())
    st.drawn = True
    _count(st)


def _count(st: EightsState) -> None:
    """The game totals are the cards left in each hand (the viewer's chart, the table)."""
    st.scores = [len(hand) for hand in st.hands]


@_ON.on("passed")
def _passed(st: EightsState, event: Event) -> None:
    st.passes = 0 if st.stock else st.passes + 1
    _next_turn(st)


def _next_turn(st: EightsState) -> None:
    assert st.turn_seat is not None
    st.turn_seat = (st.turn_seat + 1) % st.seats
    st.turn_no += 1
    st.drawn = False


class Eights:
    id = ID
    name = "Crazy Eights"
    min_players = 2
    options: dict[str, rules.Option] = {}
    event_types = {
        "dealt": "the hands were dealt and the pile started; the deck is shown to nobody",
        "card_put": "a player put a hand card on the discard pile",
        "card_drawn": "a player drew a card (others see only that they drew)",
        "passed": "a player passed",
    }
    action_events = frozenset({"card_put", "card_drawn", "passed"})
    off_turn_actions = False
    round_end_event = None
    round_start_event = None
    call_event = None
    action_cards: tuple[str, ...] = ()  # its actions name hand positions
    action_piles = 0
    # The pages' "family" board (a row of cards per seat, a deck and a discard pile)
    # draws its hands: the view's ``fields`` are the hands, face down but one's own.
    presentation = rules.Presentation(
        "french",
        "family",
        "turn",
        None,
        score_words=("card left in hand", "cards left in hand"),
        verbs=(("skip", "Pass"),),
    )

    def max_players(self, options: rules.JSON) -> int:
        return 4

    @property
    def max_players_any(self) -> int:
        return 4

    def check_options(self, seats: int, options: rules.JSON) -> None:
        return None

    def deck(self, options: rules.JSON) -> list[str]:
        return french_deck()

    def initial_state(self, header: rules.JSON) -> EightsState:
        return base_header(EightsState, header)

    def start(self, state: State, ctx: rules.Context) -> list[Event]:
        st = _st(state)
        deck = ctx.chance.deck(1, self.deck(st.options))
        start_seat = st.options.get("start_seat")
        if start_seat is None:
            start_seat = ctx.chance.choice(list(range(st.seats)))
        w = Work(st, ctx)
        hand = 7 if st.seats == 2 else 5
        w.emit("dealt", {"deck": list(deck), "hand_size": hand, "start_seat": start_seat})
        return w.events

    # ---------------------------------------------------------------- deciding

    def decide(
        self, state: State, seat: int, command: rules.JSON, ctx: rules.Context
    ) -> list[Event]:
        st = _st(state)
        kind = command.get("type")
        if kind not in ("throw", "draw", "skip"):
            raise rules.NotAllowed(
                f"Crazy Eights has no {kind!r} action: throw a card, draw or skip.",
                "not_in_ruleset",
            )
        if kind == "throw" and command.get("seat") != seat:
            raise rules.Malformed("seat: put down one of your own cards.")
        if st.turn_seat != seat:
            raise rules.NotAllowed(f"It is seat {st.turn_seat}'s turn, not yours.", "not_your_turn")
        w = Work(st, ctx)
        if kind == "throw":
            hand = st.hands[seat]
            position = command["position"]
            if position >= len(hand):
                raise rules.NotAllowed(f"You hold {len(hand)} cards.", "no_such_slot")
            if command.get("onto") != len(st.pile):
                raise rules.NotAllowed("The discard pile changed.", "stale_discard")
            card = hand[position]
            code = st.deck[card]
            if not fits(code, *self._top(st)):
                raise rules.NotAllowed(f"A {code} does not fit on the pile.", "illegal_action")
            data = {"seat": seat, "position": position, "onto": len(st.pile), "card": card}
            w.emit("card_put", {**data, "code": code}, seat)
            if not w.s.hands[seat]:
                w.emit("game_finished", {"winners": [seat], "losers": []})
            return w.events
        if kind == "draw":
            if command.get("source") != "deck" or st.drawn or not st.stock:
                raise rules.NotAllowed("You cannot draw now.", "illegal_action")
            card = st.stock[-1]
            w.emit("card_drawn", {"seat": seat, "card": card, "code": st.deck[card]}, seat)
            return w.events
        if st.stock and not st.drawn:
            raise rules.NotAllowed("Draw before you pass.", "illegal_action")
        w.emit("passed", {"seat": seat}, seat)
        if w.s.passes >= w.s.seats:
            fewest = min(len(h) for h in w.s.hands)
            winners = [s for s in range(w.s.seats) if len(w.s.hands[s]) == fewest]
            w.emit("game_finished", {"winners": winners, "losers": [], "reason": "blocked"})
        return w.events

    def _top(self, st: EightsState) -> tuple[str, str]:
        top = st.deck[st.pile[-1]]
        return top, suit(top)

    def timeout(self, state: State, seat: int, ctx: rules.Context) -> list[Event]:
        st = _st(state)
        kind = "draw" if st.stock and not st.drawn else "skip"
        return self.decide(st, seat, {"type": kind, "source": "deck"}, ctx)

    def actors(self, state: State) -> list[int]:
        st = _st(state)
        return [] if st.status != "active" or st.turn_seat is None else [st.turn_seat]

    def turn_key(self, state: State) -> str | None:
        st = _st(state)
        return None if st.status != "active" else f"t{st.turn_no}"

    def apply(self, state: State, event: Event) -> None:
        _ON[event.type](_st(state), event)

    # ---------------------------------------------------------------- viewing

    def view(
        self,
        state: State,
        seat: int | None,
        recent: Sequence[Event] = (),
        *,
        memory: str | None = None,
    ) -> rules.JSON:
        st = _st(state)
        over = st.status in ("finished", "aborted")
        own = seat is not None and 0 <= seat < st.seats
        return {
            "phase": "over" if over else "turn",
            "turn": {
                "seat": None if over else st.turn_seat,
                "stage": None if over else ("drawn" if st.drawn else "play"),
                "deadline": None if over else st.deadline,
            },
            "hand": [st.deck[c] for c in st.hands[seat]] if own and seat is not None else [],
            "hand_counts": {str(s): len(st.hands[s]) for s in range(st.seats)},
            "fields": {
                str(s): [st.deck[c] if s == seat else "?" for c in st.hands[s]]
                for s in range(st.seats)
            },
            "discard": {
                "top": st.deck[st.pile[-1]] if st.pile else None,
                "serial": len(st.pile),
                "count": len(st.pile),
            },
            "deck": {"count": len(st.stock)},
            "legal_actions": self.legal_actions(st, seat),
            "result": st.result,
        }

    def reveal(self, state: State) -> rules.JSON:
        """Every card face up (the replay viewer)."""
        st = _st(state)
        table = self.view(st, None)
        table["fields"] = {str(s): [st.deck[c] for c in st.hands[s]] for s in range(st.seats)}
        return table

    def event_view(self, before: State, event: Event, seat: int | None) -> rules.JSON:
        data = event.data
        if event.type == "dealt":
            st = _st(before)
            hand = data["hand_size"]
            out = {"hand_size": hand, "start_seat": data["start_seat"]}
            out["top"] = data["deck"][st.seats * hand]
            if seat is not None and 0 <= seat < st.seats:
                out["hand"] = data["deck"][seat * hand : (seat + 1) * hand]
            return out
        if event.type == "card_drawn" and seat != data["seat"]:
            return {"seat": data["seat"]}
        return clone(data)  # type: ignore[no-any-return]

    # ---------------------------------------------------------------- its words

    def describe(self, event: Event, data: rules.JSON, reader: int | None) -> words.Part:
        told = words.Told(event, data)
        if event.type == "dealt":
            return words.dealt(told, words._("The hands are dealt"))
        if event.type == "card_put":
            return words._(
                "%(name)s put %(card)s on the pile",
                name=told.actor,
                card=words.Card(told.code("code")),
            )
        if event.type == "card_drawn":
            if told.code("code") is None:
                return words._("%(name)s drew a card", name=told.actor)
            return words._(
                "%(name)s drew %(card)s", name=told.actor, card=words.Card(told.code("code"))
            )
        return words._("%(name)s passed", name=told.actor)

    def describe_start(self, seats: int, rounds: int) -> words.Part:
        who = words.and_list([words.Seat(s) for s in range(seats)])
        return words._("%(who)s sit down; the hands are dealt.", who=who)

    def merges_back(self, event: Event) -> bool:
        return False

    def legal_actions(self, state: State, seat: int | None) -> list[rules.JSON]:
        st = _st(state)
        if st.status != "active" or seat is None or seat != st.turn_seat:
            return []
        top, asked = self._top(st)
        serial = len(st.pile)
        out: list[rules.JSON] = [
            {"type": "throw", "seat": seat, "position": i, "onto": serial}
            for i, card in enumerate(st.hands[seat])
            if fits(st.deck[card], top, asked)
        ]
        if st.stock and not st.drawn:
            out.append({"type": "draw", "source": "deck"})
        else:
            out.append({"type": "skip"})
        return out


RULESET = Eights()


# --------------------------------------------------------------------------- its bots


def basic(ruleset: str, view: rules.JSON, seat: int, rng: random.Random) -> rules.JSON | None:
    """Put down the card that fits and is worth least to keep (eights last), else draw."""
    legal = view.get("legal_actions") or []
    if not legal:
        return None
    hand = view.get("hand") or []
    puts = [a for a in legal if a["type"] == "throw"]
    if puts:
        suits = [suit(c) for c in hand]

        def keep(a: rules.JSON) -> tuple[int, int]:
            code = hand[a["position"]]
            return (french_rank(code) == "8", -suits.count(suit(code)))

        return min(puts, key=keep)
    return legal[0]


def world(ruleset: str, view: rules.JSON, seat: int, rng: random.Random) -> State:
    """A determinization: the cards the seat cannot see, dealt at random."""
    counts = {int(s): n for s, n in view["hand_counts"].items()}
    seats = len(counts)
    mine = list(view["hand"])
    top = view["discard"]["top"]
    unseen = french_deck()
    for code in [*mine, top]:
        unseen.remove(code)
    rng.shuffle(unseen)
    hands: list[list[str]] = []
    for s in range(seats):
        hands.append(mine if s == seat else [unseen.pop() for _ in range(counts[s])])
    stock = [unseen.pop() for _ in range(view["deck"]["count"])]
    # the pile under its top: what is left (the view shows only the top and the count)
    under = unseen[: view["discard"]["count"] - 1]
    deck = [c for h in hands for c in h] + under + [top] + stock
    st = RULESET.initial_state(
        {"ruleset": ruleset, "seats": seats, "options": {}, "turn_timeout": 86_400}
    )
    st.status = "active"
    st.deck = deck
    start = 0
    st.hands = []
    for hand in hands:
        st.hands.append(list(range(start, start + len(hand))))
        start += len(hand)
    st.pile = list(range(start, start + len(under) + 1))
    st.stock = list(range(start + len(under) + 1, len(deck)))[::-1]
    st.turn_seat = view["turn"]["seat"]
    st.drawn = view["turn"]["stage"] == "drawn"
    st.turn_no = 1
    st.turn_key = RULESET.turn_key(st)
    return st


#: A rollout's horizon, in turns; then each seat's chance from the cards it holds.
HORIZON = 8
SLOPE = 0.5


def rollout(
    ruleset: str,
    world: Any,
    seat: int,
    first: rules.JSON | None,
    ctx: rules.Context,
    policy: strategy.Policy,
    skip_first_chance: bool,
    lap: bool,
) -> strategy.Result:
    if first is not None:
        RULESET.decide(world, seat, first, ctx)
    end = world.turn_no + HORIZON
    while world.status == "active" and world.turn_no < end:
        mover = world.turn_seat
        RULESET.decide(world, mover, policy(world, mover), ctx)
    if world.status != "active":
        winners = list(world.result["winners"])
        chance = [1.0 / len(winners) if s in winners else 0.0 for s in range(world.seats)]
        return strategy.Result(None, None, winners, chance)
    weights = [math.exp(-SLOPE * len(h)) for h in world.hands]
    return strategy.Result(None, None, None, [w / sum(weights) for w in weights])


def candidates(
    ruleset: str, view: rules.JSON, seat: int, legal: list[rules.JSON], wide: bool
) -> list[rules.JSON | None] | None:
    first = strategy.basic_choice(ruleset, view, seat)
    out = [first, *(a for a in legal if a != first)]
    return out if len(out) > 1 else None


def taken(event: Event) -> rules.JSON | None:
    d = event.data
    if event.type == "card_put":
        return {"type": "throw", "seat": d["seat"], "position": d["position"], "onto": d["onto"]}
    if event.type == "card_drawn":
        return {"type": "draw", "source": "deck"}
    if event.type == "passed":
        return {"type": "skip"}
    return None


STRATEGY = strategy.Strategy(
    basic=basic,
    expert=strategy.Expert(
        world=world,
        rollout=rollout,
        candidates=candidates,
        taken=taken,
        marks=strategy.Marks(0.03, 0.08, 0.15),
        unit="chance",
    ),
)


def register() -> None:
    """Add Crazy Eights to the rules' and the bots' registries."""
    rules.register(RULESET)
    strategy.register(ID, STRATEGY)


def unregister() -> None:
    rules.unregister(ID)
    strategy.unregister(ID)
