"""The Pablo family against a second, independently written model (``family_model2.py``).

Seeded games of ``pablo``, ``pablo-50``, ``tamalou`` and ``cabo``, 2 seats to each
ruleset's maximum, with their options (jokers, forty_two, minus_sixty_nine,
advanced, decks; a fixed or drawn start seat; max_timeouts 1-3). A random player
picks among every seat's legal actions (the player on turn mostly; a throw, a
call now and then; a "lucky" throw or pair the model knows to be right now and
then), now and then lets the deadline pass (so players go absent and games get
aborted), and now and then sends a well-formed action of any type, which the
engine must refuse exactly when the model does. After every step, for every seat
and a non-player: the legal actions (templates expanded to complete bodies), the
fields as that viewer sees them (known cards, "?", empty slots), the held card,
and the public table (round, phase, turn and stage, discard top/count/serial,
draw pile count, called_by, finished rounds' totals and scores, game totals,
absences, status and result) must equal the model's.

Both sides draw chance from the same pure functions of the game's seed: the
dealt deck (the model builds its own deck from RULES.md and it must be the same
cards), a reshuffle that depends only on the set of cards reshuffled, and a
choice that depends only on the set of candidates.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import pytest

from games import rules
from games.rules import Context, Event, Malformed, RulesError
from tests.depth import scaled
from tests.rules.family_model2 import FAMILY, FamilyModel, Refused, deck_of, max_seats, rank

T = TypeVar("T")
JSON = dict[str, Any]
MAX_STEPS = 700
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def dealt(seed: int, round_no: int, cards: Sequence[str], top: Sequence[str] = ()) -> list[str]:
    """The deal both sides use; ``top``: cards put first (seat 0's field) in every round."""
    out = sorted(cards)
    random.Random(f"{seed}:deal:{round_no}").shuffle(out)
    for code in top:
        out.remove(code)
    return [*top, *out]


def recycle(seed: int, cards: Sequence[Any]) -> list[Any]:
    out = sorted(cards)
    random.Random(f"{seed}:{out}").shuffle(out)
    return out


def pick(seed: int, items: Sequence[Any]) -> Any:
    out = sorted(items)
    return out[random.Random(f"{seed}:pick:{out}").randrange(len(out))]


class SeededChance:
    def __init__(self, seed: int, deck: list[str], top: Sequence[str]) -> None:
        self.seed = seed
        self.expected = sorted(deck)
        self.top = top

    def deck(self, round_no: int, cards: Sequence[str]) -> list[str]:
        assert sorted(cards) == self.expected, "the engine's deck is not RULES.md's"
        return dealt(self.seed, round_no, cards, self.top)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        return recycle(self.seed, items)

    def choice(self, items: Sequence[T]) -> T:
        return pick(self.seed, items)  # type: ignore[no-any-return]


@dataclass
class Plan:
    """How a game is played: the chances of a call, a throw, a "lucky" throw or pair and
    a single (not several) replace; ``passive`` seats only draw and discard; ``top``:
    seat 0's four cards in every round (a kamikaze hand for cabo)."""

    p_call: float
    p_throw: float
    p_lucky: float
    p_single: float
    p_timeout: float
    passive: frozenset[int] = frozenset()
    top: tuple[str, ...] = ()


def setup(seed: int, ruleset: str) -> tuple[random.Random, int, JSON, Plan]:
    rng = random.Random(f"{ruleset}:{seed}")
    options: JSON = {}
    if ruleset == "pablo":
        options = {
            "jokers": rng.choice([1, 2]),
            "forty_two": rng.random() < 0.5,
            "minus_sixty_nine": rng.random() < 0.5,
        }
    elif ruleset == "pablo-50":
        options = {"advanced": rng.random() < 0.5}
    elif ruleset == "tamalou":
        options = {"decks": rng.choice([1, 1, 2])}
    seats = rng.randint(2, max_seats(ruleset, options))
    options["start_seat"] = rng.choice([None, rng.randrange(seats)])
    options["max_timeouts"] = rng.choice([1, 2, 3, 3])
    if rng.random() < 0.3:
        options["memory"] = "strict"
    mode = rng.choice(
        ["play", "play", "play", "hoard", "kamikaze" if ruleset == "cabo" else "play"]
    )
    p_timeout = rng.choice([0.0, 0.02, 0.05])
    if mode == "hoard":  # no calls, many wrong throws and pairs: fields grow, the cards run out
        plan = Plan(0.0, 0.5, 0.02, 0.25, p_timeout)
    elif mode == "kamikaze":
        plan = Plan(0.05, 0.0, 0.1, 0.75, p_timeout, frozenset({0}), ("12", "13", "12", "13"))
    else:
        plan = Plan(
            rng.choice([0.02, 0.1, 0.3]), rng.choice([0.02, 0.1, 0.3]), 0.2, 0.75, p_timeout
        )
    return rng, seats, options, plan


def expand(action: JSON) -> list[JSON]:
    """A legal_actions entry as complete bodies (a template's choices, every combination)."""
    choices = action.get("choices")
    base = {k: v for k, v in action.items() if k != "choices"}
    if not choices:
        return [base]
    keys = list(choices)
    return [
        dict(base, **dict(zip(keys, combo, strict=True)))
        for combo in itertools.product(*(choices[k] for k in keys))
    ]


def key(body: JSON) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in body.items()))


def canon(actions: list[JSON]) -> Counter[tuple[tuple[str, Any], ...]]:
    """The complete bodies, as a multiset (a body listed twice counts twice)."""
    return Counter(key(b) for a in actions for b in expand(a))


def public(v: JSON, state: rules.State) -> JSON:
    turn = v.get("turn") or {}
    return {
        "round": v["round"],
        "phase": v["phase"],
        "turn": None if v["phase"] == "over" else turn.get("seat"),
        "stage": None if v["phase"] == "over" else turn.get("stage"),
        "discard": {k: v["discard"][k] for k in ("top", "count", "serial")},
        "deck": v["deck"]["count"],
        "called_by": v["called_by"],
        "rounds": v["rounds"],
        "result": v["result"],
        "scores": list(state.scores),
    }


def compare(
    state: rules.State,
    model: FamilyModel,
    where: str,
    actor: int | None = None,
    recent: Sequence[Event] = (),
) -> None:
    assert state.status == model.status, where
    if state.options["memory"] == "strict":
        rulebook = rules.get_ruleset(model.ruleset)
        for seat in [None, *range(model.seats)]:
            v = rulebook.view(state, seat, recent if seat == actor else ())
            assert v["fields"] == model.field_view(seat, True, actor), f"{where}, strict {seat}"
    assert list(state.absent) == model.absent, where
    rulebook = rules.get_ruleset(model.ruleset)
    for seat in [None, *range(model.seats)]:
        v = rulebook.view(state, seat, (), memory="assisted")
        w = f"{where}, viewer {seat}"
        if seat is None:
            assert public(v, state) == model.public_view(), w
        assert v["fields"] == model.field_view(seat), w
        assert (v.get("held") or None) == model.held_view(seat), w
        engine = canon(v["legal_actions"] if seat is not None else [])
        mine = canon(model.legal(seat) if seat is not None else [])
        if engine != mine:
            extra, missing = engine - mine, mine - engine
            raise AssertionError(
                f"{w}: legal actions: engine only {list(extra)[:6]}, model only {list(missing)[:6]}"
            )
        if seat is None:
            assert v["legal_actions"] == [], w


def lucky(
    model: FamilyModel, legal: dict[int, list[JSON]], rng: random.Random
) -> tuple[int, JSON] | None:
    """A throw or pair that the model knows to be right now (exercises the right ones)."""
    out: list[tuple[int, JSON]] = []
    for seat, actions in legal.items():
        for a in actions:
            if a["type"] == "throw" and model.pile:
                card = model.fields[a["seat"]][a["position"]]
                if card is not None and rank(model.code[card]) == rank(model.code[model.pile[-1]]):
                    body = dict(a)
                    mine = model.cards_of(seat)
                    if a["seat"] != seat and mine and rng.random() < 0.6:
                        body["give_position"] = rng.choice(mine)
                    out.append((seat, body))
            if a["type"] == "replace" and len(a["positions"]) > 1:
                cards = [model.fields[seat][p] for p in a["positions"]]
                if len({rank(model.code[c]) for c in cards if c is not None}) == 1:
                    out.append((seat, a))
    return rng.choice(out) if out else None


WEIGHTS = {
    "look": 1.0,
    "draw": 1.0,
    "discard": 1.0,
    "replace": 1.0,
    "peek": 1.0,
    "spy": 1.0,
    "swap": 1.0,
    "skip": 0.3,
}


def choose(model: FamilyModel, rng: random.Random, plan: Plan) -> tuple[int, JSON]:
    """One of the seats' legal actions: by type first, then a body of that type."""
    legal = {s: model.legal(s) for s in range(model.seats)}
    for seat in plan.passive:
        if seat == model.turn or model.phase == "setup":
            mine = legal[seat]
            for kind in ("look", "draw", "discard", "skip", "replace"):
                bodies = [a for a in mine if a["type"] == kind and a.get("source") != "discard"]
                if bodies:
                    return seat, bodies[0]
        legal[seat] = []
    p_call, p_throw = plan.p_call, plan.p_throw
    if rng.random() < plan.p_lucky:
        hit = lucky(model, legal, rng)
        if hit is not None:
            return hit
    calls = [(s, a) for s, acts in legal.items() for a in acts if a["type"] == "call"]
    if calls and rng.random() < p_call:
        return rng.choice(calls)
    throws = [(s, a) for s, acts in legal.items() for a in acts if a["type"] == "throw"]
    if throws and rng.random() < p_throw:
        seat, body = rng.choice(throws)
        body = dict(body)
        mine = model.cards_of(seat)
        if body["seat"] != seat and mine and rng.random() < 0.3:
            body["give_position"] = rng.choice(mine)
        return seat, body
    by_type: dict[str, list[tuple[int, JSON]]] = {}
    for s, acts in legal.items():
        for a in acts:
            if a["type"] not in ("throw", "call"):
                by_type.setdefault(a["type"], []).append((s, a))
    if not by_type:
        return rng.choice(calls + throws)
    kinds = sorted(by_type)
    kind = rng.choices(kinds, [WEIGHTS[k] for k in kinds])[0]
    options = by_type[kind]
    if kind == "replace":
        single = [o for o in options if len(o[1]["positions"]) == 1]
        grown = any(len(f) > 15 for f in model.fields)  # keeps the listed pairs few
        if single and (grown or rng.random() < plan.p_single):
            options = single
    return rng.choice(options)


def wrong_action(model: FamilyModel, rng: random.Random) -> tuple[int, JSON]:
    """A random well-formed action of any type (mostly one the rules forbid now)."""
    n = model.seats
    seat = model.turn if model.turn is not None and rng.random() < 0.5 else rng.randrange(n)
    pos = lambda: rng.randrange(7)  # noqa: E731
    kind = rng.choice(
        ["look", "draw", "discard", "replace", "peek", "spy", "swap", "skip", "throw", "call"]
    )
    body: JSON = {"type": kind}
    if kind == "look":
        body["positions"] = rng.sample(range(4), 2)
    elif kind == "draw":
        body["source"] = rng.choice(["deck", "discard"])
    elif kind == "replace":
        body["positions"] = rng.sample(range(6), rng.choice([1, 1, 2, 3]))
    elif kind == "peek":
        body["position"] = pos()
    elif kind == "spy":
        body.update(seat=rng.randrange(n), position=pos())
    elif kind == "swap":
        body.update(position=pos(), seat=rng.randrange(n), their_position=pos())
    elif kind == "throw":
        body.update(
            seat=rng.randrange(n), position=pos(), onto=model.serial - rng.choice([0, 0, 1])
        )
        if rng.random() < 0.3:
            body["give_position"] = pos()
    return seat, body


ROUND_EVENTS = frozenset({"round_ended", "round_started", "game_finished", "game_aborted"})


def cards_in(data: Any) -> list[tuple[int, str]]:
    """Every ``{"card": id, "code": c}`` an event's data shows (at any depth)."""
    out: list[tuple[int, str]] = []
    if isinstance(data, dict):
        if isinstance(data.get("card"), int) and isinstance(data.get("code"), str):
            out.append((data["card"], data["code"]))
        for v in data.values():
            out += cards_in(v)
    elif isinstance(data, list):
        for v in data:
            out += cards_in(v)
    return out


def unseen(
    model: FamilyModel, shown: list[tuple[int | None, int, str]], round_no: int, where: str
) -> None:
    """The events of a command show each viewer only cards the model says they saw."""
    if model.round_no != round_no:
        return  # the ids of the round's events name another deck than the model's now
    for viewer, card, code in shown:
        assert model.code[card] == code, f"{where}: card {card} is {model.code[card]}, not {code}"
        if viewer is None:
            saw = model.public | model.revealed_public
        else:
            saw = model.known[viewer] | model.revealed[viewer]
        assert card in saw, f"{where}: an event shows {code} to {viewer}"


def play_game(seed: int, ruleset: str) -> tuple[list[Event], str, FamilyModel]:
    rng, seats, options, plan = setup(seed, ruleset)
    clean = rules.validate_options(rules.get_ruleset(ruleset), seats, options)
    deck = deck_of(ruleset, clean)
    chance = SeededChance(seed, deck, plan.top)
    now = NOW
    events: list[Event] = rules.create(
        ruleset, seats=seats, options=options, turn_timeout=60, creator="p0"
    )
    state = rules.fold(events)

    shown: list[tuple[int | None, int, str]] = []

    def store(new: list[Event]) -> None:
        shown.clear()
        for event in new:
            if event.type not in ROUND_EVENTS:
                for viewer in [None, *range(seats)]:
                    data = rules.event_view(state, event, viewer)
                    shown.extend((viewer, card, code) for card, code in cards_in(data))
            rules.apply(state, event)
        events.extend(new)

    for joining in range(1, seats):
        store(rules.join(state, f"p{joining}", Context(chance=chance, now=now)))
    model = FamilyModel(
        ruleset,
        seats,
        clean,
        lambda r, cards: dealt(seed, r, cards, plan.top),
        lambda cards: recycle(seed, cards),
        lambda items: pick(seed, items),
    )
    where = f"{ruleset} seed {seed} ({seats} seats, {options}), dealt"
    compare(state, model, where)
    steps = 0
    while state.status == "active" and steps < MAX_STEPS:
        steps += 1
        where = f"{ruleset} seed {seed} ({seats} seats, {options}), step {steps}"
        roll = rng.random()
        round_no = model.round_no
        mandatory = model.stage == "power" and not model.power_optional
        if roll < plan.p_timeout or (mandatory and roll < 0.3):
            assert state.turn_key is not None
            now += timedelta(seconds=61)
            store(rules.timeout(state, state.turn_key, Context(chance=chance, now=now)))
            model.timeout()
            where += ": timeout"
            compare(state, model, where)
            unseen(model, shown, round_no, where)
            continue
        elif roll < plan.p_timeout + 0.05:
            seat, body = wrong_action(model, rng)
            ctx = Context(chance=chance, now=now)
            try:
                model.act(seat, body)
            except Refused as refusal:
                model.seen[f"refused {body['type']}"] += 1
                with pytest.raises(RulesError) as caught:
                    rules.act(state, seat, body, ctx)
                if refusal.status == 400:
                    assert isinstance(caught.value, Malformed), f"{where}: {seat} {body}"
                continue
            new = rules.act(state, seat, body, ctx)
            store(new)
            where += f": {seat} {body} (sent blind)"
            model.seen[f"blind {body['type']}"] += 1
            compare(state, model, where, seat, new)
            unseen(model, shown, round_no, where)
            continue
        else:
            seat, body = choose(model, rng, plan)
            new = rules.act(state, seat, body, Context(chance=chance, now=now))
            store(new)
            model.act(seat, body)
            where += f": {seat} {body}"
            compare(state, model, where, seat, new)
            unseen(model, shown, round_no, where)
    assert rules.fold(events) == state
    return events, state.status, model


GAMES = {"pablo": 25, "pablo-50": 25, "tamalou": 15, "cabo": 35}
#: rules each ruleset's games must reach (``FamilyModel.seen``)
REACHED = {
    "pablo": {
        "right throw",
        "wrong throw",
        "given",
        "nothing to draw",
        "reshuffle",
        "call 2",
        "round ended: empty",
        "round ended: exhausted",
        "power peek",
        "power spy",
        "auto swap",
    },
    "pablo-50": {
        "right throw",
        "wrong throw",
        "given",
        "reshuffle",
        "round ended: exhausted",
        "swap after spyswap",
        "swap after swap-after-spy",
        "auto swap",
        "advanced Q",
    },
    "tamalou": {"several replaced", "wrong pair", "swap after swap", "power peek", "reshuffle"},
    "cabo": {"kamikaze", "reset", "several replaced", "wrong pair", "swap after swap"},
}


@pytest.mark.slow  # a marker, not an exclusion (CI runs it)
@pytest.mark.parametrize("ruleset", FAMILY)
def test_the_engine_plays_like_an_independent_model(ruleset: str) -> None:
    outcomes: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for seed in range(scaled(GAMES[ruleset])):
        _, status, model = play_game(seed, ruleset)
        outcomes[status] += 1
        seen.update(model.seen)
    # the games reach the states this test is for
    assert outcomes["finished"] > 0 and outcomes["aborted"] > 0, outcomes
    assert REACHED[ruleset] <= set(seen), sorted(REACHED[ruleset] - set(seen))
