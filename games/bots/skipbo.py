"""The Skip-Bo bots: ``basic``, and the ``expert``'s kit (worlds, rollouts, candidates).

It reads its seat's view: its hand, every stock top, every discard pile and
the building piles (``next`` = the value each needs). One decision is one
action; the turn is a series of them. In order of preference (docs/bots.md):

1. play its stock top where it fits;
2. if a building pile can be brought up to its stock card with the cards it
   can reach now (hand, discard tops, Skip-Bo cards as stand-ins), play the
   next card of that path -- so wild cards are spent where they unlock the
   stock;
3. play numbered cards from its discard tops, then from its hand, that fit,
   unless one would hand the next player their stock card;
4. end the turn by discarding: a numbered card (never a Skip-Bo card while it
   has another) onto a discard pile whose top is one higher or equal (runs
   that play off later), else an empty pile, else the pile whose top is
   nearest above; the highest such card first.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from games.rules import Context, Event, State, get_ruleset
from games.rules.skipbo import Skipbo

from .common import JSON
from .expert import dedupe
from .strategy import Expert, Marks, Policy, Result, Strategy, basic_choice, register
from .worlds import MAX_ROLLOUT_ACTIONS

WILD = "SB"


def _num(code: str | None) -> int | None:
    if code is None or code == WILD:
        return None
    return int(code)


def decide(view: JSON, seat: int, rng: random.Random) -> JSON | None:
    legal: list[JSON] = view.get("legal_actions") or []
    if not legal:
        return None
    me = str(seat)
    plays = [a for a in legal if a["type"] == "play"]
    hand: list[str] = list(view.get("hand") or [])
    stock = (view.get("stock") or {}).get(me) or {}
    stock_top = stock.get("top")
    discards: list[list[str]] = (view.get("discards") or {}).get(me) or [[], [], [], []]
    building = view.get("building") or [None] * 4
    needs = [1 if b is None else b["next"] for b in building]

    # 1. the stock first
    from_stock = [a for a in plays if a["from"] == "stock"]
    if from_stock:
        if stock_top == WILD:
            # Put a wild stock card where we can go on from it.
            have = {_num(c) for c in hand} | {_num(d[-1]) for d in discards if d}
            return max(from_stock, key=lambda a: (needs[a["pile"]] + 1 in have, needs[a["pile"]]))
        return from_stock[0]

    # 2. a path to the stock card
    target = _num(stock_top)
    if target is not None:
        step = _path_step(plays, hand, discards, needs, target)
        if step is not None:
            return step

    # 3. numbered cards that fit, discard tops first
    danger = _danger(view, seat)
    for source in ("discard", "hand"):
        for a in plays:
            if a["from"] != source:
                continue
            code = a.get("card") if source == "hand" else discards[a["discard_pile"]][-1]
            if code == WILD:
                continue
            if needs[a["pile"]] + 1 in danger:
                continue
            return a

    # 4. end the turn
    return _end(legal, hand, discards)


def _path_step(
    plays: list[JSON], hand: list[str], discards: list[list[str]], needs: list[int], target: int
) -> JSON | None:
    """The first play of the cheapest path bringing a building pile up to ``target``."""
    best: tuple[tuple[int, int], JSON] | None = None
    tops = [d[-1] if d else None for d in discards]
    for pile, need in enumerate(needs):
        if need > target:
            continue
        hand_left = list(hand)
        tops_left = list(tops)
        wilds_used = 0
        first: JSON | None = None
        ok = True
        for value in range(need, target):
            code = str(value)
            if code in tops_left:
                d = tops_left.index(code)
                tops_left[d] = None
                move: JSON = {"type": "play", "from": "discard", "discard_pile": d, "pile": pile}
            elif code in hand_left:
                hand_left.remove(code)
                move = {"type": "play", "from": "hand", "card": code, "pile": pile}
            elif WILD in tops_left:
                d = tops_left.index(WILD)
                tops_left[d] = None
                wilds_used += 1
                move = {"type": "play", "from": "discard", "discard_pile": d, "pile": pile}
            elif WILD in hand_left:
                hand_left.remove(WILD)
                wilds_used += 1
                move = {"type": "play", "from": "hand", "card": WILD, "pile": pile}
            else:
                ok = False
                break
            if first is None:
                first = move
        if not ok or first is None:
            continue
        if first not in plays:
            continue
        cost = (wilds_used, target - need)
        if best is None or cost < best[0]:
            best = (cost, first)
    return None if best is None else best[1]


def _danger(view: JSON, seat: int) -> set[int]:
    """Values that are the next player's stock top: do not bring a pile up to them."""
    stocks = view.get("stock") or {}
    seats = len(stocks)
    if seats < 2:
        return set()
    nxt = stocks.get(str((seat + 1) % seats)) or {}
    value = _num(nxt.get("top"))
    return set() if value is None else {value}


def _end(legal: list[JSON], hand: list[str], discards: list[list[str]]) -> JSON:
    ends = [a for a in legal if a["type"] == "end"]
    if len(ends) == 1 and "card" not in ends[0]:
        return ends[0]

    def score(a: JSON) -> tuple[float, ...]:
        code = a["card"]
        value = _num(code)
        pile = discards[a["discard_pile"]]
        top = _num(pile[-1]) if pile else None
        if value is None:
            return (-100.0,)  # a wild card is discarded only when nothing else is left
        if top is not None and top == value + 1:
            fit = 5.0
        elif top is not None and top == value:
            fit = 4.0
        elif not pile:
            fit = 3.0
        elif top is not None and top > value:
            fit = 2.0 - (top - value) / 12
        else:
            fit = 0.0 - (value - (top or 0)) / 12
        return (fit, value)

    return max(ends, key=score)


def basic(ruleset: str, view: JSON, seat: int, rng: random.Random) -> JSON | None:
    """``Strategy.basic``."""
    return decide(view, seat, rng)


# --------------------------------------------------------------------------- the expert's kit

#: The win-probability curve over stock cards left (a logistic slope).
SLOPE = 0.22


def world(ruleset: str, view: JSON, seat: int, rng: random.Random) -> State:
    """``Expert.world``: other hands, the stocks under their tops and the draw pile dealt."""
    rb: Any = get_ruleset(ruleset)
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
        "ruleset": ruleset,
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


def rollout(
    ruleset: str,
    world: Any,
    seat: int,
    first: JSON | None,
    ctx: Context,
    policy: Policy,
    skip_first_chance: bool,
    lap: bool,
) -> Result:
    """``Expert.rollout``: a short horizon, then a win chance from the stocks left."""
    rb: Any = get_ruleset(ruleset)
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
    return Result(None, None, None, win_chance([len(x) for x in world.stocks]))


def win_chance(stock_left: list[int]) -> list[float]:
    """Each seat's chance to win from the stock cards left (a softmax of fewer cards)."""
    weights = [math.exp(-SLOPE * n) for n in stock_left]
    total = sum(weights)
    return [w / total for w in weights]


def candidates(
    ruleset: str, view: JSON, seat: int, legal: list[JSON], wide: bool
) -> list[JSON | None] | None:
    """``Expert.candidates``: every different play and closing discard."""
    basic = basic_choice(ruleset, view, seat)
    if basic is not None and basic.get("from") == "stock":
        return None  # the stock card goes out: that is how the game is won
    me = str(seat)
    discards = (view.get("discards") or {}).get(me) or [[], [], [], []]
    building = view.get("building") or [None] * 4
    needs = [1 if b is None else b["next"] for b in building]
    out: list[JSON | None] = [basic]
    seen: set[tuple[Any, ...]] = set()
    for a in legal:
        if a["type"] == "play":
            if a["from"] == "discard":
                code = discards[a["discard_pile"]][-1]
                key: tuple[Any, ...] = ("d", a["discard_pile"], needs[a["pile"]])
            else:
                code = a.get("card")
                key = ("h", code, needs[a["pile"]])
        elif "card" in a:
            pile = discards[a["discard_pile"]]
            key = ("e", a["card"], pile[-1] if pile else None, len(pile) > 0)
        else:
            key = ("pass",)
        if key in seen:
            continue
        seen.add(key)
        out.append(a)
    out = dedupe(out)
    return out if len(out) > 1 else None


def taken(event: Event) -> JSON | None:
    """``Expert.taken``: each card played and the closing discard."""
    d = event.data
    if event.type == "card_played":
        body: JSON = {"type": "play", "from": d["from"], "pile": d["pile"]}
        if d["from"] == "hand":
            body["card"] = d["code"]
        elif d["from"] == "discard":
            body["discard_pile"] = d["discard_pile"]
        return body
    if event.type == "card_discarded":
        return {"type": "end", "card": d["code"], "discard_pile": d["discard_pile"]}
    return None


#: In win probability (the setting ``PABLO_ANALYSIS_MARKS_SKIPBO`` may change them).
MARKS = Marks(0.03, 0.08, 0.15)

register(
    Skipbo.id,
    Strategy(
        basic=basic,
        expert=Expert(
            world=world,
            rollout=rollout,
            candidates=candidates,
            taken=taken,
            marks=MARKS,
            unit="chance",
        ),
    ),
)
