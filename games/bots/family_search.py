"""The Pablo family's expert: determinizations, rollouts to the round's end, candidates.

The family's side of ``games.bots.strategy.Expert`` (the search itself is
``expert.py``); registers the family's ``Strategy`` -- ``basic`` (``family.py``)
and this kit -- for every preset at import.

Worlds: the cards the seat does not know are dealt from what is left of the
deck: the unknown field slots, the draw pile, a card another player holds, the
discard pile under its top. What other players know cannot be read off a view;
a world assumes what the ``basic`` bot itself does: each player looked at its
slots 0 and 1 (and knows whatever the seat sees face up).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.rules import Context, Event, State, get_ruleset
from games.rules.family.presets import PRESETS, Preset, RoundOutcome

from . import family
from .common import JSON, waits_for
from .expert import choose as choose_lead
from .expert import dedupe, paired_gap, search
from .strategy import Expert, Marks, Policy, Result, Strategy, basic_choice, register
from .worlds import MAX_ROLLOUT_ACTIONS

#: Candidate swaps searched (the best by a quick estimate), besides skipping.
MAX_SWAPS = 6
#: A call is searched when the seat's estimate is at most this above another's.
CALL_SLACK = 3.0
#: A call must beat going on by this many standard errors.
CALL_SE = 1.0

# --------------------------------------------------------------------------- worlds


def _options(preset: Any, view: JSON) -> JSON:
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
    if "jokers" in options:
        options["jokers"] = 2 if cards >= 54 else 1
    if "decks" in options:
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


def world(ruleset: str, view: JSON, seat: int, rng: random.Random) -> State:
    """A determinization of a Pablo-family view (``Expert.world``)."""
    rb: Any = get_ruleset(ruleset)
    p = family.preset_of(ruleset)
    fields_view = {int(s): list(f) for s, f in (view.get("fields") or {}).items()}
    seats = len(fields_view)
    options = _options(p, view)
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


# --------------------------------------------------------------------------- rollouts


def _ended(events: list[Event]) -> JSON | None:
    """The ``round_ended`` data among ``events`` (already applied to the world), if any."""
    for event in events:
        if event.type == "round_ended":
            return dict(event.data)
    return None


def _may_act_off_turn(p: Preset, s: Any, seat: int) -> bool:
    """Could the basic bot act out of turn now (a call window, a throw it knows matches)?

    A cheap necessary condition on the state, so the rollout asks the bot
    (which builds a whole view) only when it might act.
    """
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
    ctx: Context,
    policy: Policy,
    skip_first_chance: bool,
    lap: bool,
) -> Result:
    """``Expert.rollout``: to the round's end (the round's points are the evaluation).

    ``first`` None: the seat passes its chance to act out of turn. ``lap``: stop
    when the seat's next turn begins, if the round has not ended before, and
    report the fields as they stand (``field_totals``).
    """
    rb: Any = get_ruleset(ruleset)
    p = family.preset_of(ruleset)
    ended: JSON | None = None
    if first is not None:
        ended = _ended(rb.decide(world, seat, first, ctx))
    off_turn = p.throwing != "none" or p.call_when == "after_turn"
    skip = seat if (first is None or skip_first_chance) else None
    steps = 0
    while ended is None and world.status == "active" and steps < MAX_ROLLOUT_ACTIONS:
        steps += 1
        actors = rb.actors(world)
        mover, body = -1, None
        if off_turn:
            for other in range(world.seats):
                if other in actors or other == skip or not _may_act_off_turn(p, world, other):
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
            return _standing(p, world, seat)
    if ended is not None:
        totals = [int(ended["game_totals"][str(i)]) for i in range(world.seats)]
        scores = [int(ended["scores"][str(i)]) for i in range(world.seats)]
        winners = None
        if world.status != "active" or p.game_over(totals, world.options):
            winners = list(p.result(totals, world.options)[0])
        return Result(scores, totals, winners, None)
    # Cut (or stuck): score the round as if it ended now with nobody calling.
    values = [[p.value(world.codes[c]) for c in f if c is not None] for f in world.fields]
    round_totals = [sum(v) for v in values]
    scores, _ = p.score(RoundOutcome(round_totals, [], "exhausted", values))
    totals = [p.adjust_total(world.scores[i] + scores[i]) for i in range(world.seats)]
    return Result(list(scores), totals, None, None, cut=True)


def _standing(p: Preset, world: Any, seat: int) -> Result:
    """The fields as they stand (a rollout cut at its horizon)."""
    totals = [sum(p.value(world.codes[c]) for c in f if c is not None) for f in world.fields]
    known = world.known[seat]
    unknown = sum(1 for c in world.fields[seat] if c is not None and c not in known)
    return Result(None, None, None, None, cut=True, field_totals=totals, unknown_own=unknown)


# --------------------------------------------------------------------------- candidates


def candidates(
    ruleset: str, view: JSON, seat: int, legal: list[JSON], wide: bool
) -> list[JSON | None] | None:
    """``Expert.candidates``: what a turn's stage offers, swaps by a quick estimate."""
    types = {a["type"] for a in legal}
    if "look" in types:
        return None
    basic = basic_choice(ruleset, view, seat)
    if basic is not None and basic.get("type") == "throw":
        if not wide:
            return None
        basic = None  # the analysis weighs the turn's own actions
    if not waits_for(legal):
        # Out of turn: a call after one's own turn (throws are basic's).
        if "call" in types:
            return dedupe([basic, {"type": "call"}, None])
        return None
    stage = (view.get("turn") or {}).get("stage")
    out: list[JSON | None] = [] if basic is None else [basic]
    if stage == "draw":
        out += [{"type": "draw", "source": a["source"]} for a in legal if a["type"] == "draw"]
        if "call" in types:
            out.append({"type": "call"})
    elif stage == "hold":
        if "discard" in types:
            out.append({"type": "discard"})
        replace = next((a for a in legal if a["type"] == "replace"), None)
        allowed = [list(p) for p in (replace or {}).get("choices", {}).get("positions", [])]
        out += [{"type": "replace", "positions": p} for p in allowed if len(p) == 1]
        mine = (view.get("fields") or {}).get(str(seat)) or []
        p = family.preset_of(ruleset)
        groups: dict[str, list[int]] = {}
        for i, code in enumerate(mine):
            if code not in (None, "?"):
                groups.setdefault(p.rank(code), []).append(i)
        for positions in groups.values():
            if len(positions) > 1 and positions in allowed:
                out.append({"type": "replace", "positions": positions})
    elif stage == "power":
        swaps = [a for a in legal if a["type"] == "swap"]
        if not swaps and not wide:
            return None  # a peek or a spy: basic's choice
        out += _swap_candidates(ruleset, view, seat, swaps, wide)
        if "skip" in types:
            out.append({"type": "skip"})
        if wide:
            for a in legal:
                if a["type"] in ("peek", "spy"):
                    for pos in a["choices"]["position"]:
                        body = {"type": a["type"], "position": pos}
                        if a["type"] == "spy":
                            body["seat"] = a["seat"]
                        out.append(body)
    out = dedupe(out)
    return out if len(out) > 1 else None


def _swap_candidates(
    ruleset: str, view: JSON, seat: int, swaps: list[JSON], wide: bool
) -> list[JSON]:
    p = family.preset_of(ruleset)
    e = family.expected(ruleset)
    fields = {int(s): f for s, f in (view.get("fields") or {}).items()}
    mine = fields.get(seat, [])
    scored: list[tuple[float, JSON]] = []
    for a in swaps:
        theirs = fields.get(a["seat"], [])
        for pos in a["choices"]["position"]:
            mv = e - 1.0 if mine[pos] == "?" else float(p.value(mine[pos]))
            for q in a["choices"]["their_position"]:
                tv = e + 1.0 if theirs[q] == "?" else float(p.value(theirs[q]))
                body = {"type": "swap", "position": pos, "seat": a["seat"], "their_position": q}
                scored.append((mv - tv, body))
    scored.sort(key=lambda x: -x[0])
    return [b for _, b in (scored if wide else scored[:MAX_SWAPS])]


def worth_calling(ruleset: str, view: JSON, seat: int) -> bool:
    """Is a call close enough to sensible to be worth a search?

    The seat's estimated total (its known cards, the deck's average for the
    others) at most ``CALL_SLACK`` above the lowest estimate of another player,
    or ``basic`` would call anyway.
    """
    t = family.Table(ruleset, view, seat)
    others = [t.est(s) for s in t.others()]
    if not others:
        return False
    return t.est(seat) <= min(others) + CALL_SLACK or family._should_call(t)


def lowest(ruleset: str, view: JSON, seat: int) -> bool:
    """Whether the seat's estimated total is at most every other seat's."""
    t = family.Table(ruleset, view, seat)
    others = [t.est(s) for s in t.others()]
    return bool(others) and t.est(seat) <= min(others)


def choose(
    ruleset: str, view: JSON, seat: int, actions: Sequence[JSON | None], iterations: int
) -> JSON | None:
    """``Expert.choose``: whether to call first (to the round's end), then one lap."""
    call = {"type": "call"}
    if call in actions:
        rest = [a for a in actions if a != call]
        if family.long_round(view) >= 1 and lowest(ruleset, view, seat):
            # The duel below would wait for a gift: its rollouts play on with basic,
            # whose impatience in a long round makes the other seats call without the
            # lowest total and pay for it. Two experts then put the call off turn
            # after turn, and their round never ended; the lowest total calls.
            return call
        if worth_calling(ruleset, view, seat):
            # To call or not: both to the round's end (the call ends it).
            other = rest[0]
            duel = search(ruleset, view, seat, [other, call], iterations=iterations // 2)
            gap, se = paired_gap(duel[1], duel[0])
            # The rollouts go on with basic, weaker than the expert will play on:
            # a call must win clearly, not by the noise of a few worlds.
            if gap > CALL_SE * se:
                return call
            iterations -= iterations // 2
        if len(rest) == 1:
            return rest[0]
        actions = rest
    return choose_lead(search(ruleset, view, seat, actions, iterations=iterations, lap=True)).action


# --------------------------------------------------------------------------- the analysis


def taken(event: Event) -> JSON | None:
    """``Expert.taken``: the action body a decision event records (None: not analysed).

    Not analysed: the setup look (every choice is alike) and throws (whether to
    throw at a discard is a chance at every version, not a decision that the
    event stream records when passed up).
    """
    d = event.data
    t = event.type
    if t == "drawn":
        return {"type": "draw", "source": d["source"]}
    if t == "discarded":
        return {"type": "discard"}
    if t == "replaced":
        return {"type": "replace", "positions": list(d["positions"])}
    if t == "peeked":
        return {"type": "peek", "position": d["position"]}
    if t == "spied":
        return {"type": "spy", "seat": d["seat"], "position": d["position"]}
    if t == "swapped":
        return {
            "type": "swap",
            "position": d["position"],
            "seat": d["seat"],
            "their_position": d["their_position"],
        }
    if t == "power_skipped" and d.get("reason") == "skipped":
        return {"type": "skip"}
    if t == "called":
        return {"type": "call"}
    return None


#: In round points (the settings ``PABLO_ANALYSIS_MARKS`` may change them).
MARKS = Marks(1.0, 3.0, 6.0)

KIT = Expert(
    world=world,
    rollout=rollout,
    candidates=candidates,
    taken=taken,
    marks=MARKS,
    unit="points",
    choose=choose,
)

for _preset in PRESETS:
    register(_preset.id, Strategy(basic=family.decide, expert=KIT))
