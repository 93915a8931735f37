"""Skip-Bo on the ``Ruleset`` protocol; docs/skipbo.md explains the decisions.

The game is one round. ``round_started`` records the dealt deck (162 codes);
a card's id is its index in that list. Deal order: seat 0's stock (id 0 is
its top), seat 1's, ..., then the draw pile, top first.

Events (all carry the truth; ``event_view`` redacts):

=======================  ==============================================================
event                    data
=======================  ==============================================================
round_started            ``{"round": 1, "deck": [codes], "stock_size", "start_seat"}``
turn_started             ``{"seat", "turn"}`` (turn counts from 1)
cards_drawn              ``{"seat", "cards": [{"card", "code"}, ...]}`` top of the draw pile
                         first; others see ``{"seat", "count"}``
draw_pile_reshuffled     ``{"order": [ids]}`` the completed stack as the new draw pile,
                         top first; everyone sees ``{"count"}`` only
card_played              ``{"seat", "from", "card", "code", "pile", "value"}`` plus
                         ``"discard_pile"`` (from a discard pile) or ``"stock_top"``
                         (``{"card", "code"}`` of the stock's new top, or null)
pile_completed           ``{"pile", "cards": [ids]}`` the pile reached 12, moved to the
                         completed stack
card_discarded           ``{"seat", "card", "code", "discard_pile"}``
turn_ended               ``{"seat", "reason": "discard" | "passed" | "no_cards"}``
game_finished            (engine) ``{"winners": [seat], "losers": [], "places",
                         "points"}`` (``points``: cards left in each stock; + ``"reason":
                         "stalemate"`` when nobody can move any more, or a whole
                         round of turns passed without a card moving)
=======================  ==============================================================

State keeps every pile as a list of ids, bottom -> top (the top is the last
element); hands are in the order drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, cast

from . import skipbo_words
from .cards import SKIPBO_WILD, skipbo_deck
from .errors import Malformed, NotAllowed
from .events import JSON, Context, Event, places
from .evolve import Handlers, Work
from .options import Option
from .protocol import Presentation
from .registry import register
from .state import State, base_header, clone
from .words import Part, Told

HAND_SIZE = 5
PILES = 4  # building slots, and discard piles per player
TOP = 12  # a building pile that reaches it is complete
MIN_DRAW_PILE = 30
DECK_SIZE = 162
CODES = frozenset({*(str(v) for v in range(1, TOP + 1)), SKIPBO_WILD})
SOURCES = ("hand", "stock", "discard")
OWN_ACTIONS = frozenset({"play", "end"})


def default_stock_size(seats: int) -> int:
    return 30 if seats <= 4 else 20


@dataclass
class SkipboState(State):
    round: int = 0
    deck: list[str] = field(default_factory=list)
    stock_size: int = 0
    start_seat: int | None = None
    stocks: list[list[int]] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    discards: list[list[list[int]]] = field(default_factory=list)
    building: list[list[int]] = field(default_factory=list)  # [] = an empty slot
    draw: list[int] = field(default_factory=list)
    completed: list[int] = field(default_factory=list)
    turn_seat: int | None = None
    turn_no: int = 0
    moved: bool = False  # a card moved during the current turn
    idle: int = 0  # turns in a row that ended with no card moved

    #: ``deck`` is only replaced (by ``round_started``): ``copy`` shares it.
    SHARED: ClassVar[frozenset[str]] = State.SHARED | {"deck"}


def _result(st: SkipboState, winners: list[int]) -> JSON:
    """``game_finished``'s data: the others placed by the cards left in their stock."""
    left = [len(stock) for stock in st.stocks]
    keys = [(0 if s in winners else 1, left[s]) for s in range(st.seats)]
    return {"winners": winners, "losers": [], "places": places(keys), "points": left}


def _fits(code: str, pile: Sequence[int]) -> bool:
    return code == SKIPBO_WILD or int(code) == len(pile) + 1


class Skipbo:
    id = "skipbo"
    #: Documented in the OpenAPI schema (the event feed's ``type``).
    event_types = {
        "round_started": "the stock piles were dealt; the deck is shown to nobody",
        "turn_started": "a player's turn began",
        "cards_drawn": "cards drawn into a hand (others see only the count)",
        "draw_pile_reshuffled": "the completed stack became the new draw pile",
        "card_played": "a card went onto a building pile",
        "pile_completed": "a building pile reached 12 and was cleared",
        "card_discarded": "a hand card went onto one of the player's discard piles",
        "turn_ended": "the turn passed (`reason`: discard, passed, no_cards)",
    }
    name = "Skip-Bo"
    min_players = 2
    action_events = frozenset({"card_played", "card_discarded"})
    off_turn_actions = False  # only the player on turn acts
    round_end_event: str | None = None
    round_start_event: str | None = "round_started"
    call_event: str | None = None
    action_piles = PILES
    action_cards: tuple[str, ...] = ()  # every code, in card_order (set below)
    presentation = Presentation(
        "skipbo",
        "skipbo",
        "turn",
        (0, "an empty stock wins"),
        score_words=("card left in stock", "cards left in stock"),
        unused_options=frozenset({"memory"}),  # no face-down field cards to remember
    )
    options: dict[str, Option] = {
        "stock_size": Option(
            "integer",
            None,
            "Cards in each stock pile; null: 30 with 2-4 players, 20 with 5-6. "
            "seats x stock_size must leave at least 30 cards for the draw pile.",
            minimum=5,
            maximum=30,
            nullable=True,
        ),
    }

    # ----------------------------------------------------------------- set-up

    def max_players(self, options: JSON) -> int:
        return 6

    @property
    def max_players_any(self) -> int:
        return 6

    def check_options(self, seats: int, options: JSON) -> None:
        if not self.min_players <= seats <= self.max_players(options):
            return  # the engine reports the seat count itself
        size = options.get("stock_size") or default_stock_size(seats)
        left = DECK_SIZE - seats * size
        if left < MIN_DRAW_PILE:
            raise Malformed(
                "options.stock_size: %(seats)s stock piles of %(size)s leave %(left)s of the "
                "%(deck)s cards for the draw pile; at least %(least)s are needed "
                "(at most %(most)s per player).",
                "invalid_option",
                seats=seats,
                size=size,
                left=left,
                deck=DECK_SIZE,
                least=MIN_DRAW_PILE,
                most=(DECK_SIZE - MIN_DRAW_PILE) // seats,
            )

    def deck(self, options: JSON) -> list[str]:
        return skipbo_deck()

    def initial_state(self, header: JSON) -> SkipboState:
        state = base_header(SkipboState, header)
        seats = state.seats
        state.stocks = [[] for _ in range(seats)]
        state.hands = [[] for _ in range(seats)]
        state.discards = [[[] for _ in range(PILES)] for _ in range(seats)]
        state.building = [[] for _ in range(PILES)]
        return state

    def start(self, state: State, ctx: Context) -> list[Event]:
        st = _skipbo(state)
        size = st.options.get("stock_size") or default_stock_size(st.seats)
        deck = ctx.chance.deck(1, self.deck(st.options))
        start_seat = st.options.get("start_seat")
        if start_seat is None:
            start_seat = ctx.chance.choice(list(range(st.seats)))
        w = Work(st, ctx)
        w.emit(
            "round_started",
            {"round": 1, "deck": list(deck), "stock_size": size, "start_seat": start_seat},
        )
        self._begin_turn(w, start_seat, ctx)
        return w.events

    # ----------------------------------------------------------------- deciding

    def decide(self, state: State, seat: int, command: JSON, ctx: Context) -> list[Event]:
        st = _skipbo(state)
        kind = command.get("type")
        if kind not in OWN_ACTIONS:
            raise NotAllowed(
                "Skip-Bo has no %(kind)s action; play cards with 'play' and end the turn "
                "with 'end'.",
                "not_in_ruleset",
                kind=repr(kind),
            )
        if kind == "play":
            return self._play(st, seat, command, ctx)
        return self._end(st, seat, command, ctx)

    def _play(self, st: SkipboState, seat: int, command: JSON, ctx: Context) -> list[Event]:
        source = command.get("from")
        if source not in SOURCES:
            raise Malformed('from: must be "hand", "stock" or "discard".')
        pile = _index(command, "pile", "building")
        code: str | None = None
        discard_pile: int | None = None
        if source == "hand":
            code = _card(command)
        elif source == "discard":
            discard_pile = _index(command, "discard_pile", "discard")
        claimed = None if source == "hand" else _optional_card(command)
        self._on_turn(st, seat)

        if source == "hand":
            assert code is not None
            card = next((c for c in st.hands[seat] if st.deck[c] == code), None)
            if card is None:
                raise NotAllowed(
                    "You have no %(card)s in your hand.", "card_not_in_hand", card=code
                )
        elif source == "stock":
            if not st.stocks[seat]:
                raise NotAllowed("Your stock pile is empty.", "empty_source")
            card = st.stocks[seat][-1]
        else:
            assert discard_pile is not None
            stack = st.discards[seat][discard_pile]
            if not stack:
                raise NotAllowed(
                    "Your discard pile %(pile)s is empty.", "empty_source", pile=discard_pile
                )
            card = stack[-1]
        code = st.deck[card]
        if claimed is not None and claimed != code:
            if source == "stock":
                raise NotAllowed(
                    "The top of your stock pile is %(card)s, not %(claimed)s.",
                    "illegal_action",
                    card=code,
                    claimed=claimed,
                )
            raise NotAllowed(
                "The top of your discard pile %(pile)s is %(card)s, not %(claimed)s.",
                "illegal_action",
                pile=discard_pile,
                card=code,
                claimed=claimed,
            )
        target = st.building[pile]
        if not _fits(code, target):
            raise NotAllowed(
                "A %(card)s does not fit on building pile %(pile)s, which needs a %(needed)s.",
                "card_does_not_fit",
                card=code,
                pile=pile,
                needed=len(target) + 1,
            )

        w = Work(st, ctx)
        data: JSON = {
            "seat": seat,
            "from": source,
            "card": card,
            "code": code,
            "pile": pile,
            "value": len(target) + 1,
        }
        if source == "discard":
            data["discard_pile"] = discard_pile
        if source == "stock":
            rest = st.stocks[seat][:-1]
            data["stock_top"] = {"card": rest[-1], "code": st.deck[rest[-1]]} if rest else None
        w.emit("card_played", data, seat)
        if len(w.s.building[pile]) == TOP:
            w.emit("pile_completed", {"pile": pile, "cards": list(w.s.building[pile])})
        if source == "stock" and not w.s.stocks[seat]:
            w.emit("game_finished", _result(w.s, [seat]))
            return w.events
        if not w.s.hands[seat]:
            # An empty hand draws five and plays on -- also when it was empty already
            # (nothing was left to draw) and this play completed a pile, whose cards
            # become the new draw pile.
            self._fill(w, seat, HAND_SIZE, ctx)
        if not w.s.hands[seat] and not _plays(w.s, seat):
            self._end_turn(w, seat, "no_cards", ctx)
        return w.events

    def _end(self, st: SkipboState, seat: int, command: JSON, ctx: Context) -> list[Event]:
        has_card = command.get("card") is not None
        has_pile = command.get("discard_pile") is not None
        if not has_card and not has_pile:
            self._on_turn(st, seat)
            if st.hands[seat]:
                raise NotAllowed(
                    "End your turn by putting a hand card on one of your discard piles: "
                    'send "card" and "discard_pile".',
                    "illegal_action",
                )
            # An empty hand with nothing left to draw: the turn ends without a discard.
            w = Work(st, ctx)
            self._end_turn(w, seat, "passed", ctx)
            return w.events
        code = _card(command)
        discard_pile = _index(command, "discard_pile", "discard")
        self._on_turn(st, seat)
        card = next((c for c in st.hands[seat] if st.deck[c] == code), None)
        if card is None:
            raise NotAllowed("You have no %(card)s in your hand.", "card_not_in_hand", card=code)
        w = Work(st, ctx)
        self._discard(w, seat, card, discard_pile, ctx)
        return w.events

    def _on_turn(self, st: SkipboState, seat: int) -> None:
        if st.turn_seat != seat:
            raise NotAllowed(
                "It is seat %(seat)s's turn, not yours.", "not_your_turn", seat=st.turn_seat
            )

    def _discard(self, w: Work[SkipboState], seat: int, card: int, pile: int, ctx: Context) -> None:
        w.emit(
            "card_discarded",
            {"seat": seat, "card": card, "code": w.s.deck[card], "discard_pile": pile},
            seat,
        )
        self._end_turn(w, seat, "discard", ctx)

    def _end_turn(self, w: Work[SkipboState], seat: int, reason: str, ctx: Context) -> None:
        w.emit("turn_ended", {"seat": seat, "reason": reason}, seat)
        if w.s.idle >= w.s.seats:
            # A whole round of turns without a card moving: it would go on for ever.
            self._stalemate(w)
            return
        self._begin_turn(w, (seat + 1) % w.s.seats, ctx)

    def _begin_turn(self, w: Work[SkipboState], seat: int, ctx: Context) -> None:
        """Start ``seat``'s turn; pass it on at once when the player on turn cannot move.

        Passing recurses through ``_end_turn``; each pass is an idle turn, so it
        stops after at most ``seats`` of them.
        """
        w.emit("turn_started", {"seat": seat, "turn": w.s.turn_no + 1}, seat)
        self._fill(w, seat, HAND_SIZE - len(w.s.hands[seat]), ctx)
        if w.s.hands[seat] or _plays(w.s, seat):
            return
        if not any(w.s.hands[s] or _plays(w.s, s) for s in range(w.s.seats)):
            self._stalemate(w)
            return
        self._end_turn(w, seat, "no_cards", ctx)

    def _stalemate(self, w: Work[SkipboState]) -> None:
        fewest = min(len(stock) for stock in w.s.stocks)
        winners = [s for s in range(w.s.seats) if len(w.s.stocks[s]) == fewest]
        w.emit("game_finished", {**_result(w.s, winners), "reason": "stalemate"})

    def _fill(self, w: Work[SkipboState], seat: int, wanted: int, ctx: Context) -> None:
        """Draw ``wanted`` cards into ``seat``'s hand, reshuffling the completed stack."""
        while wanted > 0:
            draw = w.s.draw
            if not draw:
                if not w.s.completed:
                    return
                order = ctx.chance.shuffle(list(w.s.completed))
                w.emit("draw_pile_reshuffled", {"order": order})
                continue
            take = min(wanted, len(draw))
            ids = draw[::-1][:take]
            cards = [{"card": c, "code": w.s.deck[c]} for c in ids]
            w.emit("cards_drawn", {"seat": seat, "cards": cards}, seat)
            wanted -= take

    # ----------------------------------------------------------------- timeouts

    def timeout(self, state: State, seat: int, ctx: Context) -> list[Event]:
        st = _skipbo(state)
        w = Work(st, ctx)
        hand = st.hands[seat]
        if hand:
            piles = st.discards[seat]
            target = next((d for d in range(PILES) if not piles[d]), 0)
            self._discard(w, seat, hand[0], target, ctx)
        else:
            self._end_turn(w, seat, "no_cards", ctx)
        return w.events

    def actors(self, state: State) -> list[int]:
        st = _skipbo(state)
        if st.status != "active" or st.turn_seat is None:
            return []
        return [st.turn_seat]

    def turn_key(self, state: State) -> str | None:
        st = _skipbo(state)
        if st.status != "active" or st.turn_seat is None:
            return None
        return f"t{st.turn_no}"

    # ----------------------------------------------------------------- folding

    def apply(self, state: State, event: Event) -> None:
        _ON[event.type](_skipbo(state), event)

    # ----------------------------------------------------------------- viewing

    def view(
        self,
        state: State,
        seat: int | None,
        recent: Sequence[Event] = (),
        *,
        memory: str | None = None,  # Skip-Bo hides the same whatever one remembers
    ) -> JSON:
        st = _skipbo(state)
        deck = st.deck
        seats = range(st.seats)
        over = st.status in ("finished", "aborted")
        own = seat is not None and 0 <= seat < st.seats
        return {
            "round": st.round,
            "phase": "over" if over else "turn",
            "turn": {
                "seat": None if over else st.turn_seat,
                "stage": None if over else "play",
                "deadline": None if over else st.deadline,
            },
            "hand": [deck[c] for c in st.hands[seat]] if own and seat is not None else [],
            "hand_counts": {str(s): len(st.hands[s]) for s in seats},
            "stock": {
                str(s): {
                    "top": deck[st.stocks[s][-1]] if st.stocks[s] else None,
                    "count": len(st.stocks[s]),
                }
                for s in seats
            },
            "discards": {
                str(s): [[deck[c] for c in pile] for pile in st.discards[s]] for s in seats
            },
            "building": [
                {"next": len(p) + 1, "count": len(p), "top": deck[p[-1]]} if p else None
                for p in st.building
            ],
            "deck": {"count": len(st.draw)},
            "completed": {"count": len(st.completed)},
            "legal_actions": self.legal_actions(st, seat),
            "rounds": [],
            "result": st.result,
        }

    def reveal(self, state: State) -> JSON:
        """``view(state, None)`` with every hand face up (the replay viewer)."""
        st = _skipbo(state)
        out = self.view(st, None)
        out["hands"] = {str(s): [st.deck[c] for c in st.hands[s]] for s in range(st.seats)}
        return out

    def event_view(self, before: State, event: Event, seat: int | None) -> JSON:
        data = event.data
        if event.type == "round_started":
            size = data["stock_size"]
            deck = data["deck"]
            seats = before.seats
            return {
                "round": data["round"],
                "stock_size": size,
                "start_seat": data["start_seat"],
                "stock": {str(s): {"top": deck[s * size], "count": size} for s in range(seats)},
                "deck": {"count": len(deck) - seats * size},
            }
        if event.type == "cards_drawn" and seat != data["seat"]:
            return {"seat": data["seat"], "count": len(data["cards"])}
        if event.type == "draw_pile_reshuffled":
            return {"count": len(data["order"])}
        return clone(data)  # type: ignore[no-any-return]

    def describe(self, event: Event, data: JSON, reader: int | None) -> Part:
        return skipbo_words.describe(Told(event, data), reader)

    def describe_start(self, seats: int, rounds: int) -> Part:
        return skipbo_words.start(seats, rounds)

    def merges_back(self, event: Event) -> bool:
        return skipbo_words.merges_back(event)

    def legal_actions(self, state: State, seat: int | None) -> list[JSON]:
        st = _skipbo(state)
        if st.status != "active" or seat is None or seat != st.turn_seat:
            return []
        actions = _plays(st, seat)
        codes = list(dict.fromkeys(st.deck[c] for c in st.hands[seat]))
        if codes:
            actions += [
                {"type": "end", "card": code, "discard_pile": d}
                for code in codes
                for d in range(PILES)
            ]
        else:
            actions.append({"type": "end"})
        return actions


# --------------------------------------------------------------------------- folding

_ON = Handlers("skipbo")


@_ON.on("round_started")
def _round_started(st: SkipboState, event: Event) -> None:
    data = event.data
    st.round = data["round"]
    st.deck = list(data["deck"])
    size = st.stock_size = data["stock_size"]
    st.start_seat = data["start_seat"]
    seats = st.seats
    # Stored bottom -> top: the first card dealt to a seat is its stock's top.
    st.stocks = [list(range((s + 1) * size - 1, s * size - 1, -1)) for s in range(seats)]
    st.draw = list(range(len(st.deck) - 1, seats * size - 1, -1))
    st.scores = [size] * seats


@_ON.on("turn_started")
def _turn_started(st: SkipboState, event: Event) -> None:
    st.turn_seat = event.data["seat"]
    st.turn_no = event.data["turn"]
    st.moved = False


@_ON.on("cards_drawn")
def _cards_drawn(st: SkipboState, event: Event) -> None:
    st.moved, st.idle = True, 0
    hand = st.hands[event.data["seat"]]
    for item in event.data["cards"]:
        card = st.draw.pop()
        assert card == item["card"], "cards_drawn does not match the draw pile"
        hand.append(card)


@_ON.on("draw_pile_reshuffled")
def _draw_pile_reshuffled(st: SkipboState, event: Event) -> None:
    order = list(event.data["order"])
    assert sorted(order) == sorted(st.completed), "reshuffle of other cards"
    st.draw = order[::-1]
    st.completed = []


@_ON.on("card_played")
def _card_played(st: SkipboState, event: Event) -> None:
    data = event.data
    st.moved, st.idle = True, 0
    seat = data["seat"]
    card = data["card"]
    source = data["from"]
    if source == "hand":
        st.hands[seat].remove(card)
    elif source == "stock":
        assert st.stocks[seat][-1] == card
        st.stocks[seat].pop()
        st.scores[seat] = len(st.stocks[seat])
    else:
        stack = st.discards[seat][data["discard_pile"]]
        assert stack[-1] == card
        stack.pop()
    st.building[data["pile"]].append(card)


@_ON.on("pile_completed")
def _pile_completed(st: SkipboState, event: Event) -> None:
    pile = event.data["pile"]
    st.completed.extend(st.building[pile])
    st.building[pile] = []


@_ON.on("card_discarded")
def _card_discarded(st: SkipboState, event: Event) -> None:
    data = event.data
    st.moved, st.idle = True, 0
    st.hands[data["seat"]].remove(data["card"])
    st.discards[data["seat"]][data["discard_pile"]].append(data["card"])


@_ON.on("turn_ended")
def _turn_ended(st: SkipboState, event: Event) -> None:
    st.turn_seat = None
    if not st.moved:
        st.idle += 1


# --------------------------------------------------------------------------- helpers


def _skipbo(state: State) -> SkipboState:
    return cast(SkipboState, state)


def _plays(st: SkipboState, seat: int) -> list[JSON]:
    """Every play ``seat`` could make now, as complete action bodies.

    In the order stock, discard piles, hand cards (first appearance), each onto
    the building piles in order; a bot's rollouts call this at every step, so
    each card's piles come from the piles' needs, worked out once.
    """
    out: list[JSON] = []
    deck = st.deck
    needs = [len(p) + 1 for p in st.building]
    every = range(PILES)

    def piles(code: str) -> Sequence[int]:
        if code == SKIPBO_WILD:
            return every
        value = int(code)
        return [b for b in every if needs[b] == value]

    stock = st.stocks[seat]
    if stock:
        out += [{"type": "play", "from": "stock", "pile": b} for b in piles(deck[stock[-1]])]
    for d, stack in enumerate(st.discards[seat]):
        if stack:
            out += [
                {"type": "play", "from": "discard", "discard_pile": d, "pile": b}
                for b in piles(deck[stack[-1]])
            ]
    for code in dict.fromkeys(deck[c] for c in st.hands[seat]):
        out += [{"type": "play", "from": "hand", "card": code, "pile": b} for b in piles(code)]
    return out


def _index(command: JSON, name: str, what: str) -> int:
    """A pile's number: ``what`` is "building" or "discard" (its own sentences)."""
    value = command.get(name)
    last = PILES - 1
    if value is None:
        if what == "building":
            raise Malformed(
                "%(name)s: required, the building pile (0 to %(last)s).", name=name, last=last
            )
        raise Malformed(
            "%(name)s: required, the discard pile (0 to %(last)s).", name=name, last=last
        )
    if isinstance(value, bool) or not isinstance(value, int):
        if what == "building":
            raise Malformed(
                "%(name)s: must be an integer, the building pile (0 to %(last)s).",
                name=name,
                last=last,
            )
        raise Malformed(
            "%(name)s: must be an integer, the discard pile (0 to %(last)s).", name=name, last=last
        )
    if not 0 <= value < PILES:
        if what == "building":
            raise Malformed(
                "%(name)s: there are building piles 0 to %(last)s only.",
                "no_such_pile",
                name=name,
                last=last,
            )
        raise Malformed(
            "%(name)s: there are discard piles 0 to %(last)s only.",
            "no_such_pile",
            name=name,
            last=last,
        )
    return value


def _card(command: JSON) -> str:
    code = _optional_card(command)
    if code is None:
        raise Malformed('card: required, a card code from your hand ("1" to "12" or "SB").')
    return code


def _optional_card(command: JSON) -> str | None:
    value = command.get("card")
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or value.upper() not in CODES:
        raise Malformed('card: must be a Skip-Bo card code, "1" to "12" or "SB".')
    return value.upper()


def card_code(value: object) -> str | None:
    """A card code as a client may write it (``"7"``, ``7``, ``"sb"``) in its one
    spelling (``"7"``, ``"SB"``); None when it names no Skip-Bo card."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or value.upper() not in CODES:
        return None
    return value.upper()


def card_order(code: str) -> int:
    """Where a card code sorts: 1 to 12, then the Skip-Bo card."""
    return TOP + 1 if code == SKIPBO_WILD else int(code)


Skipbo.action_cards = tuple(sorted(CODES, key=card_order))

register(Skipbo())
