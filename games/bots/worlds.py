"""Determinization and rollouts: the machinery of the ``expert`` bot and of the analysis.

Pure, like the rest of ``games.bots``. Everything here starts from one seat's
*view* (the JSON of ``rules.view(state, seat)``), never from a true state:

* ``sample_world(ruleset, view, seat, rng)`` builds a complete state of the
  game that agrees with everything the view shows -- every card the seat
  knows stays where the view says it is (its own cards and the cards it knows
  of other players' fields), and the cards it does not know are dealt, at
  random, from what is left of the ruleset's deck: the unknown field slots,
  the draw pile, a card another player holds, the discard pile under its top
  (Pablo family); other players' hands, the stocks under their tops and the
  draw pile (Skip-Bo). One such state is a *determinization*.
* ``rollout(world, seat, first, ...)`` plays the seat's candidate action in
  that world and the game on with the ``basic`` policy for every seat, to the
  round's end in the Pablo family (the round's points are the evaluation),
  and, in Skip-Bo, over a short horizon (until the seat's next turn is over)
  followed by a cheap evaluation: a win probability from the stock piles
  left.

What other players know cannot be read off a view; a world assumes what the
``basic`` bot itself does: each player looked at its slots 0 and 1 (and
knows whatever the seat sees face up).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from games.rules import Context, Event, State, get_ruleset

from . import family, skipbo
from .common import JSON

#: A fixed clock: the rules want one; deadlines do not matter in a simulation.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
SLOTS = 4
#: A rollout longer than this many actions is cut and scored as it stands.
MAX_ROLLOUT_ACTIONS = 160
#: Skip-Bo: the win-probability curve over stock cards left (a logistic slope).
SKIPBO_SLOPE = 0.22
#: Engine events a ruleset may emit while deciding (the engine applies them).


class LocalChance:
    """Chance inside a simulated world: a generator owned by the caller, never global."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def deck(self, round_no: int, cards: Any) -> list[str]:
        out = list(cards)
        self.rng.shuffle(out)
        return out

    def shuffle(self, items: Any) -> list[Any]:
        out = list(items)
        self.rng.shuffle(out)
        return out

    def choice(self, items: Any) -> Any:
        return self.rng.choice(list(items))


# --------------------------------------------------------------------------- worlds


def sample_world(ruleset: str, view: JSON, seat: int, rng: random.Random) -> State:
    """One complete state agreeing with ``view`` (seat ``seat``), unknown cards at random."""
    if ruleset == "skipbo":
        return _skipbo_world(view, seat, rng)
    return _family_world(ruleset, view, seat, rng)


def _family_options(preset: Any, view: JSON) -> JSON:
    """The deck options a view implies (its card count), the others at their defaults."""
    fields = view.get("fields") or {}
    held = 1 if (view.get("turn") or {}).get("stage") == "hold" else 0
    cards = (
        sum(1 for f in fields.values() for c in f if c is not None)
        + (view.get("discard") or {}).get("count", 0)
        + (view.get("deck") or {}).get("count", 0)
        + held
    )
    options: JSON = {name: opt.default for name, opt in preset.options.items()}
    if preset.id == "pablo":
        options["jokers"] = 2 if cards >= 54 else 1
    elif preset.id == "tamalou":
        options["decks"] = 2 if cards > 60 else 1
    options.update(memory="assisted", start_seat=0, max_timeouts=3, stand_in="rules")
    return options


def game_totals(preset: Any, rounds: list[JSON], seats: int) -> list[int]:
    totals = [0] * seats
    for r in rounds:
        scores = r.get("scores") or {}
        for s in range(seats):
            totals[s] = preset.adjust_total(totals[s] + int(scores.get(str(s), 0)))
    return totals


def _family_world(ruleset: str, view: JSON, seat: int, rng: random.Random) -> State:
    rb: Any = get_ruleset(ruleset)
    p = rb.preset
    fields_view = {int(s): list(f) for s, f in (view.get("fields") or {}).items()}
    seats = len(fields_view)
    options = _family_options(p, view)
    turn = view.get("turn") or {}
    stage = turn.get("stage")
    tseat = turn.get("seat")
    discard = view.get("discard") or {}
    top = discard.get("top")
    dcount = discard.get("count", 0)
    dcount = max(dcount, 1 if top is not None else 0)
    held_code = view.get("held")
    holding = stage == "hold"

    pool = Counter(p.deck(options))
    visible = [c for f in fields_view.values() for c in f if c not in (None, "?")]
    if top is not None:
        visible.append(top)
    if holding and held_code is not None:
        visible.append(held_code)
    for code in visible:
        if pool[code] > 0:
            pool[code] -= 1
    unknown = list(pool.elements())
    # Other players keep their low cards: the longer the round, the lower their unseen
    # cards (``kept_weights``); those slots are dealt first, by weight, the rest uniformly.
    others_unknown = sum(1 for s, f in fields_view.items() if s != seat for c in f if c == "?")
    turns = max(0, (discard.get("serial") or 1) - 1) / max(1, seats)
    dealt_low: list[str] = []
    if others_unknown:
        weights = kept_weights(ruleset, p, options, turns)
        for _ in range(others_unknown):
            if not unknown:
                break
            pick = rng.choices(range(len(unknown)), [weights[c] for c in unknown])[0]
            dealt_low.append(unknown[pick])
            unknown[pick] = unknown[-1]
            unknown.pop()
    rng.shuffle(unknown)
    codes: list[str] = []

    def card(code: str | None, low: bool = False) -> int:
        if code is None or code == "?":
            if low and dealt_low:
                code = dealt_low.pop()
            else:
                code = unknown.pop() if unknown else p.deck(options)[0]
        codes.append(code)
        return len(codes) - 1

    known_me: set[int] = set()
    fields: list[list[int | None]] = []
    for s in range(seats):
        row: list[int | None] = []
        for code in fields_view.get(s, []):
            if code is None:
                row.append(None)
                continue
            cid = card(code, low=s != seat)
            if code != "?":
                known_me.add(cid)
            row.append(cid)
        fields.append(row)
    pile = [card("?") for _ in range(dcount - 1)]
    public: set[int] = set()
    if top is not None:
        tid = card(top)
        pile.append(tid)
        public.add(tid)
        known_me.add(tid)
    held = held_from = None
    if holding:
        held = card(held_code)
        if held_code is not None:
            known_me.add(held)
            if tseat != seat:
                held_from = "discard"
                public.add(held)
            else:
                legal_types = {a.get("type") for a in view.get("legal_actions") or []}
                held_from = "discard" if "discard" not in legal_types else "deck"
        else:
            held_from = "deck"
    draw = [card("?") for _ in range((view.get("deck") or {}).get("count", 0))]

    setup = view.get("phase") == "setup"
    looked_view = set(view.get("looked") or []) if setup else set(range(seats))
    looked = [s in looked_view or not p.setup_look for s in range(seats)]
    known: list[set[int]] = []
    for s in range(seats):
        if s == seat:
            known.append(set(known_me))
            continue
        k = set(public)
        if looked[s] or not p.setup_look:
            k.update(c for c in fields[s][:2] if c is not None)
        # Cards the seat sees face up in another's field were mostly shown to all.
        k.update(c for c in fields[s] if c is not None and c in known_me)
        known.append(k)
    known.append(set(public))

    power_view = view.get("power")
    power = None
    if power_view is not None and stage == "power":
        legal_types = {a.get("type") for a in view.get("legal_actions") or []}
        spied = power_view["kind"] == "spy_swap" and tseat == seat and "spy" not in legal_types
        power = {"kind": power_view["kind"], "optional": power_view["optional"], "spied": spied}
    callers = list(view.get("called_by") or [])
    call_window = None
    if p.call_when == "after_turn" and not setup and tseat is not None and stage == "draw":
        prev = (tseat - 1) % seats
        if prev not in callers and (p.multiple_callers or not callers):
            call_window = prev
    rounds = list(view.get("rounds") or [])

    header = {"ruleset": ruleset, "seats": seats, "options": options, "turn_timeout": 86_400}
    world: Any = rb.initial_state(header)
    world.status = "active"
    world.players = [f"seat{i}" for i in range(seats)]
    world.round = view.get("round") or 1
    world.phase = "setup" if setup else "turn"
    world.codes = codes
    world.fields = fields
    world.draw = draw
    world.discard = pile
    world.serial = discard.get("serial") or 1
    world.held = held
    world.held_from = held_from
    world.turn_seat = None if setup else tseat
    world.stage = "look" if setup else (stage or "draw")
    world.turn_no = 1
    world.start_seat = tseat if tseat is not None else 0
    world.looked = looked
    world.known = known
    world.power = power
    world.callers = callers
    world.call_window = call_window
    matching = p.throwing == "match"
    world.match_open = bool(view.get("match_open")) if matching else p.throwing != "none"
    world.rounds = []  # the totals below are all a rollout needs (and views stay small)
    world.scores = game_totals(p, rounds, seats)
    world.turn_key = rb.turn_key(world)
    state: State = world
    return state


#: How low the unseen cards of other players run, after t of their turns: the
#: fraction of the way from the lowest card value to the deck's average
#: (measured: basic against basic in cabo and pablo, 60 games each).
def kept_fraction(turns: float) -> float:
    return float(0.35 + 0.6 * 0.8**turns)


_WEIGHTS: dict[tuple[str, int], dict[str, float]] = {}


def kept_weights(ruleset: str, p: Any, options: JSON, turns: float) -> dict[str, float]:
    """Weights ``exp(-lam * value)`` per code whose mean over the deck is ``kept_fraction``."""
    t = min(int(turns), 20)
    key = (ruleset, t)
    cached = _WEIGHTS.get(key)
    if cached is not None:
        return cached
    deck = p.deck(options)
    values = {c: float(p.value(c)) for c in set(deck)}
    low = min(values.values())
    average = sum(values[c] for c in deck) / len(deck)
    target = low + kept_fraction(t) * (average - low)

    def mean(lam: float) -> float:
        w = [math.exp(-lam * (values[c] - low)) for c in deck]
        return sum(wi * values[c] for wi, c in zip(w, deck, strict=True)) / sum(w)

    lo, hi = 0.0, 3.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if mean(mid) > target:
            lo = mid
        else:
            hi = mid
    weights = {c: math.exp(-lo * (v - low)) for c, v in values.items()}
    _WEIGHTS[key] = weights
    return weights


def _skipbo_world(view: JSON, seat: int, rng: random.Random) -> State:
    rb: Any = get_ruleset("skipbo")
    stocks_view = view.get("stock") or {}
    seats = len(stocks_view)
    hand_counts = {int(s): n for s, n in (view.get("hand_counts") or {}).items()}
    my_hand = list(view.get("hand") or [])
    discards_view = {int(s): piles for s, piles in (view.get("discards") or {}).items()}
    building_view = view.get("building") or [None] * 4
    completed_count = (view.get("completed") or {}).get("count", 0)
    deck_count = (view.get("deck") or {}).get("count", 0)

    pool = Counter(rb.deck({}))
    building_codes: list[list[str]] = []
    for b in building_view:
        if not b:
            building_codes.append([])
            continue
        # Under the top: the numbers the pile stands for (a wild card there is invisible).
        cards = [str(v) for v in range(1, b["count"])] + [b.get("top") or str(b["count"])]
        building_codes.append(cards)
    completed_codes = [str(v) for _ in range(completed_count // 12) for v in range(1, 13)]
    completed_codes += ["SB"] * (completed_count - len(completed_codes))
    visible = list(my_hand)
    for s in range(seats):
        top = (stocks_view.get(str(s)) or {}).get("top")
        if top is not None:
            visible.append(top)
        for pile in discards_view.get(s, []):
            visible.extend(pile)
    for cards in building_codes:
        visible.extend(cards)
    visible.extend(completed_codes)
    short = 0
    for code in visible:
        if pool[code] > 0:
            pool[code] -= 1
        else:
            short += 1  # a wild card stood for it somewhere: one wild card fewer is left
            if pool["SB"] > 0:
                pool["SB"] -= 1
    unknown = list(pool.elements())
    rng.shuffle(unknown)
    deck: list[str] = []

    def card(code: str | None = None) -> int:
        if code is None:
            code = unknown.pop() if unknown else "SB"
        deck.append(code)
        return len(deck) - 1

    stocks: list[list[int]] = []
    hands: list[list[int]] = []
    discards: list[list[list[int]]] = []
    for s in range(seats):
        sv = stocks_view.get(str(s)) or {}
        count = sv.get("count", 0)
        stock = [card() for _ in range(max(0, count - 1))]
        if count:
            stock.append(card(sv.get("top")))
        stocks.append(stock)
        if s == seat:
            hands.append([card(c) for c in my_hand])
        else:
            hands.append([card() for _ in range(hand_counts.get(s, 0))])
        discards.append([[card(c) for c in pile] for pile in discards_view.get(s, [[]] * 4)])
    building = [[card(c) for c in cards] for cards in building_codes]
    completed = [card(c) for c in completed_codes]
    draw = [card() for _ in range(deck_count)]  # the top is the last

    header = {
        "ruleset": "skipbo",
        "seats": seats,
        "options": {
            "stock_size": None,
            "memory": "assisted",
            "start_seat": 0,
            "max_timeouts": 3,
            "stand_in": "rules",
        },
        "turn_timeout": 86_400,
    }
    st: Any = rb.initial_state(header)
    st.status = "active"
    st.players = [f"seat{i}" for i in range(seats)]
    st.round = 1
    st.deck = deck
    st.stock_size = max((len(x) for x in stocks), default=0)
    st.start_seat = 0
    st.stocks = stocks
    st.hands = hands
    st.discards = discards
    st.building = building
    st.draw = draw
    st.completed = completed
    st.turn_seat = (view.get("turn") or {}).get("seat")
    st.turn_no = 1
    st.moved = True
    st.idle = 0
    st.scores = [len(x) for x in stocks]
    st.turn_key = rb.turn_key(st)
    return st  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- rollouts


@dataclass
class Result:
    """How one rollout ended, from the point of view of every seat."""

    round_scores: list[int] | None  # Pablo family: the round's points per seat
    game_totals: list[int] | None  # Pablo family: game totals after the round
    winners: list[int] | None  # the game's winners, if it ended
    win_chance: list[float] | None  # Skip-Bo: estimated win probability per seat
    cut: bool = False  # the rollout was cut before the round's end
    #: Pablo family, cut at the horizon: each seat's field total then, and how many
    #: of the seat's own cards it did not know.
    field_totals: list[int] | None = None
    unknown_own: int = 0


def _ended(events: list[Event]) -> JSON | None:
    """The ``round_ended`` data among ``events`` (already applied to the world), if any."""
    for event in events:
        if event.type == "round_ended":
            return dict(event.data)
    return None


Policy = Callable[[Any, int], JSON | None]


class _Outcome(NamedTuple):
    """What a preset's ``score`` reads (the rules' ``RoundOutcome``, by its fields)."""

    totals: list[int]
    callers: list[int]
    reason: str
    values: list[list[int]]


def _basic_policy(ruleset: str, rb: Any) -> Policy:
    if ruleset == "skipbo":

        def pick_skipbo(state: Any, seat: int) -> JSON | None:
            return skipbo.decide(rb.view(state, seat), seat, _NO_RNG)

        return pick_skipbo

    def pick(state: Any, seat: int) -> JSON | None:
        return family.decide(ruleset, rb.view(state, seat), seat, _NO_RNG)

    return pick


_NO_RNG = random.Random(0)  # the basic bot takes a generator but never draws from it


def _may_act_off_turn(rb: Any, s: Any, seat: int) -> bool:
    """Could the basic bot act out of turn now (a call window, a throw it knows matches)?

    A cheap necessary condition on the state, so the rollout asks the bot
    (which builds a whole view) only when it might act.
    """
    p = rb.preset
    if p.call_when == "after_turn" and s.call_window == seat:
        return True
    if p.throwing == "none" or s.phase != "turn" or not s.discard:
        return False
    if p.throwing == "match" and not s.match_open:
        return False
    rank = p.rank(s.codes[s.discard[-1]])
    known = s.known[seat]
    for f in s.fields:
        for c in f:
            if c is not None and c in known and p.rank(s.codes[c]) == rank:
                return True
    return False


def rollout(
    ruleset: str,
    world: Any,
    seat: int,
    first: JSON | None,
    rng: random.Random,
    *,
    skip_first_chance: bool = False,
    lap: bool = False,
) -> Result:
    """Play ``first`` for ``seat`` in ``world`` (mutated), then ``basic`` for everyone.

    ``first`` None: the seat passes its chance to act out of turn. ``lap``
    (Pablo family): stop when the seat's next turn begins, if the round has
    not ended before, and report the fields as they stand (``field_totals``).
    """
    rb: Any = get_ruleset(ruleset)
    # The world is the rollout's own: each decision evolves it in place (no copy, and
    # no second application of the events it decided).
    ctx = Context(chance=LocalChance(rng), now=EPOCH, scratch=True)
    policy = _basic_policy(ruleset, rb)
    if ruleset == "skipbo":
        return _skipbo_rollout(rb, world, seat, first, ctx, policy)
    ended: JSON | None = None
    if first is not None:
        ended = _ended(rb.decide(world, seat, first, ctx))
    off_turn = rb.preset.throwing != "none" or rb.preset.call_when == "after_turn"
    skip = seat if (first is None or skip_first_chance) else None
    steps = 0
    while ended is None and world.status == "active" and steps < MAX_ROLLOUT_ACTIONS:
        steps += 1
        actors = rb.actors(world)
        mover, body = -1, None
        if off_turn:
            for other in range(world.seats):
                if other in actors or other == skip or not _may_act_off_turn(rb, world, other):
                    continue
                body = policy(world, other)
                if body is not None:
                    mover = other
                    break
        skip = None
        if body is None:
            if not actors:
                break
            mover = actors[0]
            body = policy(world, mover)
            if body is None:
                break
        ended = _ended(rb.decide(world, mover, body, ctx))
        if lap and world.turn_seat == seat and world.stage == "draw" and ended is None:
            return _standing(rb, world, seat)
    if ended is not None:
        totals = [int(ended["game_totals"][str(i)]) for i in range(world.seats)]
        scores = [int(ended["scores"][str(i)]) for i in range(world.seats)]
        winners = None
        if world.status != "active" or rb.preset.game_over(totals, world.options):
            winners = list(rb.preset.result(totals, world.options)[0])
        return Result(scores, totals, winners, None)
    # Cut (or stuck): score the round as if it ended now with nobody calling.
    p = rb.preset
    values = [[p.value(world.codes[c]) for c in f if c is not None] for f in world.fields]
    round_totals = [sum(v) for v in values]
    scores, _ = p.score(_Outcome(round_totals, [], "exhausted", values))
    totals = [p.adjust_total(world.scores[i] + scores[i]) for i in range(world.seats)]
    return Result(list(scores), totals, None, None, cut=True)


def _standing(rb: Any, world: Any, seat: int) -> Result:
    """The fields as they stand (a rollout cut at its horizon)."""
    p = rb.preset
    totals = [sum(p.value(world.codes[c]) for c in f if c is not None) for f in world.fields]
    known = world.known[seat]
    unknown = sum(1 for c in world.fields[seat] if c is not None and c not in known)
    return Result(None, None, None, None, cut=True, field_totals=totals, unknown_own=unknown)


def _skipbo_rollout(
    rb: Any, world: Any, seat: int, first: JSON | None, ctx: Context, policy: Policy
) -> Result:
    if first is not None:
        rb.decide(world, seat, first, ctx)
    # The horizon: the rest of this turn, every other player's next turn, and the
    # seat's own next turn.
    turns_left = world.seats + 1 if world.turn_seat == seat else world.seats
    steps = 0
    while world.status == "active" and turns_left > 0 and steps < 4 * MAX_ROLLOUT_ACTIONS:
        steps += 1
        actors = rb.actors(world)
        if not actors:
            break
        mover = actors[0]
        body = policy(world, mover)
        if body is None:
            break
        events = rb.decide(world, mover, body, ctx)
        turns_left -= sum(1 for e in events if e.type == "turn_ended")
    if world.status != "active" and world.result is not None:
        winners = list(world.result["winners"])
        chance = [1.0 / len(winners) if s in winners else 0.0 for s in range(world.seats)]
        return Result(None, None, winners, chance)
    return Result(None, None, None, skipbo_win_chance([len(x) for x in world.stocks]))


def skipbo_win_chance(stock_left: list[int]) -> list[float]:
    """Each seat's chance to win from the stock cards left (a softmax of fewer cards)."""
    weights = [math.exp(-SKIPBO_SLOPE * n) for n in stock_left]
    total = sum(weights)
    return [w / total for w in weights]
