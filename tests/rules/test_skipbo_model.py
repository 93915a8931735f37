"""Skip-Bo against a second, independently written model (``skipbo_model.py``).

Several hundred seeded games, 2-6 seats, with small and default stocks and
draw piles as small as the rules allow (so the draw pile runs out, completed
piles are recycled and hands stay empty with nothing to draw). A random player
picks from the engine's legal actions, favouring plays, now and then lets the
deadline pass (so players go absent and games get aborted), and now and then
sends a well-formed play the model forbids, which the engine must refuse.
After every step the engine's public view, the hand and legal actions of the
player on turn, and the game's end and winners must equal the model's.

Both sides draw chance from the same pure functions of the game's seed: the
dealt deck, the start seat, and a reshuffle that depends only on the set of
cards reshuffled (so neither side's order of the completed stack matters).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest

from games import rules
from games.rules import Context, Event, RulesError
from games.rules.cards import skipbo_deck
from tests.rules.helpers import seated_game
from tests.rules.skipbo_model import Refused, SkipboModel

T = TypeVar("T")
JSON = dict[str, Any]
GAMES = 200
MAX_STEPS = 600
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def recycle(seed: int, cards: Sequence[int]) -> list[int]:
    """The reshuffle both sides use: a function of the seed and the set of cards."""
    out = sorted(cards)
    random.Random(f"{seed}:{out}").shuffle(out)
    return out


class SeededChance:
    def __init__(self, seed: int, deck: list[str]) -> None:
        self.seed = seed
        self.dealt = deck

    def deck(self, round_no: int, cards: Sequence[str]) -> list[str]:
        assert sorted(cards) == sorted(self.dealt)
        return list(self.dealt)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        return recycle(self.seed, items)  # type: ignore[arg-type,return-value]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.seed % len(items)]


def setup(seed: int) -> tuple[random.Random, int, int | None, int | None, int]:
    rng = random.Random(seed)
    seats = rng.randint(2, 6)
    largest = min(30, (162 - 30) // seats)
    size = rng.choice([None, 5, rng.randint(5, largest), largest, largest])
    start = rng.choice([None, rng.randrange(seats)])
    max_timeouts = rng.choice([1, 2, 3])
    return rng, seats, size, start, max_timeouts


def canon(actions: list[JSON]) -> list[tuple[tuple[str, Any], ...]]:
    return sorted(tuple(sorted(a.items())) for a in actions)


def public(v: JSON) -> JSON:
    """The public part of an engine view (the same for every viewer)."""
    return {
        "turn": v["turn"]["seat"],
        "phase": v["phase"],
        "result": v["result"],
        "hand_counts": v["hand_counts"],
        "stock": v["stock"],
        "discards": v["discards"],
        "building": v["building"],
        "deck": v["deck"]["count"],
        "completed": v["completed"]["count"],
    }


def compare(state: rules.State, model: SkipboModel, where: str) -> None:
    """The engine's state, as the player on turn (else a non-player) sees it, is the model's."""
    assert state.status == model.status, where
    turn = model.turn
    v = rules.view(state, turn)
    assert v is not None
    assert public(v) == model.public(), where
    if turn is None:
        assert v["legal_actions"] == [] and v["hand"] == [], where
    else:
        assert v["hand"] == model.hand(turn), where
        assert canon(v["legal_actions"]) == canon(model.legal(turn)), where
    rulebook = rules.get_ruleset("skipbo")
    for seat in [None, *range(model.seats)]:
        if seat != turn:
            assert rulebook.legal_actions(state, seat) == [], f"{where}, seat {seat}"


def wrong_play(rng: random.Random) -> JSON:
    """A random well-formed play (mostly one the rules forbid at that moment)."""
    source = rng.choice(["stock", "discard", "hand"])
    body: JSON = {"type": "play", "from": source, "pile": rng.randrange(4)}
    if source == "discard":
        body["discard_pile"] = rng.randrange(4)
    if source == "hand":
        body["card"] = rng.choice([*(str(v) for v in range(1, 13)), "SB"])
    return body


def choose(rng: random.Random, actions: list[JSON]) -> JSON:
    """Mostly a stock play, else mostly any play, else the end of the turn."""
    plays = [a for a in actions if a["type"] == "play"]
    stock = [a for a in plays if a["from"] == "stock"]
    if stock and rng.random() < 0.8:
        return rng.choice(stock)
    if plays and rng.random() < 0.75:
        return rng.choice(plays)
    ends = [a for a in actions if a["type"] == "end"]
    return rng.choice(ends or actions)


def recycled_into_an_empty_hand(events: Sequence[Event]) -> int:
    """Plays from a stock or discard pile that completed a pile and refilled an empty hand."""
    kinds = [e.type for e in events]
    return sum(
        1
        for i, e in enumerate(events[:-3])
        if e.type == "card_played"
        and e.data["from"] != "hand"
        and kinds[i + 1 : i + 4] == ["pile_completed", "draw_pile_reshuffled", "cards_drawn"]
    )


def play_game(seed: int) -> tuple[list[Event], str]:
    rng, seats, size, start, max_timeouts = setup(seed)
    deck = skipbo_deck()
    rng.shuffle(deck)
    chance = SeededChance(seed, deck)
    ctx = Context(chance=chance, now=NOW)
    options = {"stock_size": size, "start_seat": start, "max_timeouts": max_timeouts}
    state, events, store = seated_game("skipbo", seats, options, ctx)
    stock_size = size or (30 if seats <= 4 else 20)
    first = chance.choice(list(range(seats))) if start is None else start
    model = SkipboModel(deck, seats, stock_size, first, lambda c: recycle(seed, c), max_timeouts)
    compare(state, model, f"seed {seed}, dealt")

    steps = 0
    while state.status == "active" and steps < MAX_STEPS:
        steps += 1
        where = f"seed {seed}, step {steps}"
        seat = model.turn
        assert seat is not None
        roll = rng.random()
        if roll < 0.03:
            assert state.turn_key is not None
            store(rules.timeout(state, state.turn_key, ctx))
            model.timeout()
            where += ": timeout"
        elif roll < 0.06:
            body = wrong_play(rng)
            try:
                model.act(seat, body)
            except Refused:
                with pytest.raises(RulesError):
                    rules.act(state, seat, body, ctx)
                continue
            store(rules.act(state, seat, body, ctx))
            where += f": {body}"
        else:
            body = choose(rng, model.legal(seat))
            store(rules.act(state, seat, body, ctx))
            model.act(seat, body)
            where += f": {body}"
        compare(state, model, where)
    assert rules.fold(events) == state
    return events, state.status


@pytest.mark.slow  # 11 s: a marker, not an exclusion (CI runs it)
def test_the_engine_plays_like_an_independent_model() -> None:
    outcomes: dict[str, int] = {}
    seen = {"reshuffles": 0, "recycled into an empty hand": 0, "passed": 0, "no_cards": 0}
    for seed in range(GAMES):
        events, status = play_game(seed)
        outcomes[status] = outcomes.get(status, 0) + 1
        seen["reshuffles"] += sum(e.type == "draw_pile_reshuffled" for e in events)
        seen["recycled into an empty hand"] += recycled_into_an_empty_hand(events)
        for e in events:
            if e.type == "turn_ended" and e.data["reason"] in seen:
                seen[e.data["reason"]] += 1
    # the games reach the states this test is for
    assert outcomes.get("finished", 0) > GAMES // 2, outcomes
    assert outcomes.get("aborted", 0) > 0, outcomes
    assert all(n > 0 for n in seen.values()), seen
