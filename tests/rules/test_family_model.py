"""The Pablo family against a second, independently written model (``family_model.py``).

Seeded games, 2-4 seats. A random player picks from the engine's legal actions
(sometimes for a seat that is not on turn), now and then lets the deadline pass
(so players go absent and games get aborted), and now and then sends a
well-formed action the model forbids, which the engine must refuse. After every
step each seat's (and a non-player's) view -- fields as known cards and "?",
held card, discard, deck, turn, stage, calls, rounds, result -- and each seat's
legal actions (as sets of complete bodies) must equal the model's.

Both sides draw chance from the same pure functions of the game's seed: each
round's dealt deck, a reshuffle that depends only on the set of cards
reshuffled, and a pick that depends only on the items picked from.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest

from games import rules
from games.rules import Context, Event, RulesError
from tests.depth import scaled
from tests.rules.family_model import FamilyModel, expand, key
from tests.rules.helpers import seated_game

T = TypeVar("T")
JSON = dict[str, Any]
MAX_STEPS = 1500
NOW = datetime(2026, 1, 1, tzinfo=UTC)


class SeededChance:
    def __init__(self, seed: int, kamikaze: bool = False) -> None:
        self.seed = seed
        self.kamikaze = kamikaze

    def dealt(self, round_no: int, cards: Sequence[str]) -> list[str]:
        """A shuffled deck; ``kamikaze``: cabo's 12, 12, 13, 13 dealt to a seat each round."""
        out = sorted(cards)
        rng = random.Random(f"{self.seed}:deal:{round_no}")
        rng.shuffle(out)
        if self.kamikaze:
            hand = ["12", "13", "12", "13"]
            for code in hand:
                out.remove(code)
            at = 4 * rng.randrange(2)
            out[at:at] = hand
        return out

    def deck(self, round_no: int, cards: Sequence[str]) -> list[str]:
        return self.dealt(round_no, cards)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = sorted(items)  # type: ignore[type-var]
        random.Random(f"{self.seed}:{out}").shuffle(out)
        return out

    def choice(self, items: Sequence[T]) -> T:
        out = list(items)
        return out[random.Random(f"{self.seed}:{out}").randrange(len(out))]


def engine_view(state: rules.State, seat: int | None, recent: Sequence[Event] = ()) -> JSON:
    v = rules.view(state, seat, list(recent))
    assert v is not None
    over = v["phase"] == "over"
    out: JSON = {
        "round": v["round"],
        "phase": v["phase"],
        "turn": None if over else v["turn"]["seat"],
        "stage": None if over else v["turn"]["stage"],
        "held": None if over else v.get("held"),
        "discard": v["discard"],
        "deck": v["deck"]["count"],
        "called_by": v["called_by"],
        "rounds": v["rounds"],
        "result": v["result"],
    }
    if not over:
        out["fields"] = v["fields"]
    return out


def compare(
    state: rules.State,
    model: FamilyModel,
    where: str,
    answer: tuple[int, list[Event]] | None = None,
) -> None:
    """Engine and model agree; ``answer``: (actor, events) of the action just taken,
    whose answer the actor's view is also compared in (memory "strict")."""
    assert state.status == model.status, where
    for seat in [None, *range(model.seats)]:
        mine = model.view(seat)
        theirs = engine_view(state, seat)
        if theirs != mine:
            diff = {k: (theirs.get(k), mine.get(k)) for k in theirs if theirs.get(k) != mine.get(k)}
            raise AssertionError(f"{where}: view of seat {seat} (engine, model): {diff}")
        if answer is not None and seat == answer[0] and state.status == "active":
            theirs = engine_view(state, seat, answer[1])
            mine = model.view(seat, answer=True)
        if theirs != mine:
            diff = {k: (theirs.get(k), mine.get(k)) for k in theirs if theirs.get(k) != mine.get(k)}
            raise AssertionError(f"{where}: view of seat {seat} (engine, model): {diff}")
        if seat is None:
            continue
        legal = rules.get_ruleset(model.ruleset).legal_actions(state, seat)
        want = {key(b) for b in model.legal(seat)}
        got = expand(legal)
        assert got == want, (
            f"{where}: legal actions of seat {seat}: "
            f"engine-only {sorted(got - want)[:6]}, model-only {sorted(want - got)[:6]}"
        )


def wrong_action(rng: random.Random, model: FamilyModel) -> tuple[int, JSON]:
    """A random well-formed action (mostly one the rules forbid at that moment)."""
    seat = rng.randrange(model.seats)
    n = 4 + rng.randrange(2)
    pick: JSON = rng.choice(
        [
            {"type": "draw", "source": rng.choice(["deck", "discard"])},
            {"type": "discard"},
            {"type": "replace", "positions": rng.sample(range(n), rng.randint(1, 3))},
            {"type": "peek", "position": rng.randrange(n)},
            {"type": "spy", "seat": rng.randrange(model.seats), "position": rng.randrange(n)},
            {
                "type": "swap",
                "position": rng.randrange(n),
                "seat": rng.randrange(model.seats),
                "their_position": rng.randrange(n),
            },
            {"type": "skip"},
            {"type": "call"},
            {"type": "look", "positions": rng.sample(range(4), 2)},
            {
                "type": "throw",
                "seat": rng.randrange(model.seats),
                "position": rng.randrange(n),
                "onto": model.serial - rng.randrange(2),
            },
            {
                "type": "throw",
                "seat": rng.randrange(model.seats),
                "position": rng.randrange(n),
                "onto": model.serial,
                "give_position": rng.randrange(n),
            },
        ]
    )
    return seat, pick


def choose(rng: random.Random, model: FamilyModel, call_rate: float) -> tuple[int, JSON] | None:
    """A legal action: first its type (uniformly; a call at ``call_rate``), then a body.

    ``call_rate`` 0: a hoarder that never calls and mostly throws wrong or names wrong
    pairs, so cards pile up in the fields and the draw pile runs out for good."""
    hoard = call_rate == 0
    options = [(s, b) for s in range(model.seats) for b in model.legal(s)]
    if not options:
        return None
    by_type: dict[str, list[tuple[int, JSON]]] = {}
    for option in options:
        by_type.setdefault(option[1]["type"], []).append(option)
    calls = by_type.pop("call", [])
    if calls and (not by_type or rng.random() < call_rate):
        return rng.choice(calls)
    throws = by_type.pop("throw", [])
    if throws and (not by_type or rng.random() < (0.5 if hoard else 0.15)):
        return rng.choice(throws) if hoard else throw(rng, model, throws)
    kind = rng.choice(sorted(by_type))
    pool = by_type[kind]
    if kind == "replace":
        multi = [o for o in pool if len(o[1]["positions"]) > 1 and len(model.fields[o[0]]) < 14]
        pool = multi if hoard and multi and rng.random() < 0.5 else replaces(rng, model, pool)
    seat, body = rng.choice(pool)
    if body["type"] == "replace" and len(body["positions"]) > 1 and rng.random() < 0.3:
        body = {**body, "positions": rng.sample(body["positions"], len(body["positions"]))}
    return seat, body


def replaces(
    rng: random.Random, model: FamilyModel, pool: list[tuple[int, JSON]]
) -> list[tuple[int, JSON]]:
    """Mostly one slot; else mostly slots of one rank (the player peeks), else any."""
    single = [o for o in pool if len(o[1]["positions"]) == 1]
    if single and rng.random() < 0.7:
        return single
    multi = [o for o in pool if len(o[1]["positions"]) > 1]
    if not multi or (len(model.fields[multi[0][0]]) >= 10 and rng.random() < 0.9):
        return single or pool

    def same(option: tuple[int, JSON]) -> bool:
        seat, body = option
        cards = [model.fields[seat][p] for p in body["positions"]]
        return len({model.rank(c) for c in cards if c is not None}) == 1

    right = [o for o in multi if same(o)]
    return right if right and rng.random() < 0.7 else multi


def throw(
    rng: random.Random, model: FamilyModel, throws: list[tuple[int, JSON]]
) -> tuple[int, JSON]:
    """Mostly a throw that matches (the player peeks at the truth), sometimes with a give."""
    top = model.rank(model.discard[-1])
    right = [o for o in throws if model.rank(model.fields[o[1]["seat"]][o[1]["position"]]) == top]  # type: ignore[arg-type]
    seat, body = rng.choice(right if right and rng.random() < 0.7 else throws)
    mine = model.filled(seat)
    if body["seat"] != seat and mine and rng.random() < 0.5:
        body = {**body, "give_position": rng.choice(mine)}
    return seat, body


def game_setup(seed: int, ruleset: str) -> tuple[random.Random, int, int | None, int]:
    rng = random.Random(f"{ruleset}:{seed}")
    seats = rng.randint(2, 4)
    start = rng.choice([None, rng.randrange(seats)])
    max_timeouts = rng.choice([1, 2, 3])
    return rng, seats, start, max_timeouts


def own_options(rng: random.Random, ruleset: str) -> JSON:
    """The ruleset's own options, each on in some games."""
    if ruleset == "pablo":
        return {
            "jokers": rng.choice([1, 2]),
            "forty_two": rng.random() < 0.4,
            "minus_sixty_nine": rng.random() < 0.4,
        }
    if ruleset == "pablo-50":
        return {"advanced": rng.random() < 0.5}
    if ruleset == "tamalou":
        return {"decks": rng.choice([1, 2])}
    return {}


def call_rate(rng: random.Random) -> float:
    return rng.choice([0.0, 0.01, 0.02, 0.05, 0.2])


def play_game(seed: int, ruleset: str) -> tuple[list[Event], str]:
    rng, seats, start, max_timeouts = game_setup(seed, ruleset)
    chance = SeededChance(seed, kamikaze=ruleset == "cabo" and seed % 4 == 1)
    ctx = Context(chance=chance, now=NOW)
    memory = "strict" if rng.random() < 0.25 else "assisted"
    options: JSON = {
        "memory": memory,
        "start_seat": start,
        "max_timeouts": max_timeouts,
        **own_options(rng, ruleset),
    }
    state, events, store = seated_game(ruleset, seats, options, ctx)
    deck = rules.get_ruleset(ruleset).deck(state.options)
    model = FamilyModel(
        ruleset,
        seats,
        lambda n: chance.dealt(n, deck),
        chance.shuffle,
        chance.choice,
        start,
        max_timeouts,
        options,
    )
    compare(state, model, f"{ruleset} seed {seed}, dealt")
    rate = call_rate(rng)
    steps = 0
    while state.status == "active" and steps < MAX_STEPS:
        steps += 1
        where = f"{ruleset} seed {seed}, step {steps}"
        roll = rng.random()
        answer: tuple[int, list[Event]] | None = None
        picked = choose(rng, model, rate)
        if roll < 0.01 or picked is None:
            assert state.turn_key is not None
            store(rules.timeout(state, state.turn_key, ctx))
            model.timeout()
            where += ": timeout"
        elif roll < 0.08:
            seat, body = wrong_action(rng, model)
            if not model.allowed(seat, body):
                with pytest.raises(RulesError):
                    accepted = rules.act(state, seat, body, ctx)
                    raise AssertionError(f"{where}: engine accepted {seat} {body}: {accepted}")
                continue
            new = rules.act(state, seat, body, ctx)
            store(new)
            model.act(seat, body)
            answer = (seat, new)
            where += f": {seat} {body}"
        else:
            seat, body = picked
            where += f": {seat} {body}"
            try:
                new = rules.act(state, seat, body, ctx)
                store(new)
            except RulesError as err:
                raise AssertionError(f"{where}: engine refused {err.code}: {err.detail}") from err
            model.act(seat, body)
            answer = (seat, new)
        compare(state, model, where, answer)
    assert rules.fold(events) == state
    return events, state.status


GAMES = {"cabo": 40, "tamalou": 20, "pablo": 28, "pablo-50": 30}


@pytest.mark.slow  # a marker, not an exclusion (CI runs it)
@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_the_engine_plays_like_an_independent_model(ruleset: str) -> None:
    outcomes: dict[str, int] = {}
    for seed in range(scaled(GAMES[ruleset])):
        _, status = play_game(seed, ruleset)
        outcomes[status] = outcomes.get(status, 0) + 1
    assert outcomes.get("finished", 0) > 0, outcomes
