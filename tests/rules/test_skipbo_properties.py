"""Skip-Bo property test: random legal games, checked after every single event.

Each of 150 examples (``PABLO_TEST_DEPTH`` scales them: tests/depth.py)
plays one game (2-6 players, stock_size 5-10) with a seeded
random player that picks from ``legal_actions`` (and now and then lets the
deadline pass). After every event it checks:

- all 162 card ids are in exactly one place (stocks, hands, discard piles,
  building piles, draw pile, completed stack);
- every building pile is an ascending run from 1, an SB standing for the
  number it replaces, never longer than 12 (and at most 11 between actions);
- every view (each seat and a non-player) shows the viewer's own hand only,
  stock tops only, and does not change when the cards hidden from that viewer
  (other hands, stock cards under the top, draw pile, completed stack) are
  swapped among themselves;
- every event view hides the deck order, others' draws and reshuffles;
- the live state equals a state folded one event at a time from JSON
  round-tripped copies of the stored events (incrementally: O(n) per game).

A game that has not ended after ``ACTION_CAP`` actions is ended by letting
every deadline pass (absent players, then an aborted game).
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import rules
from games.chance import DeckChance
from games.rules import Context, Event
from games.rules.skipbo import SkipboState
from tests.depth import scaled

ACTION_CAP = 400
START = datetime(2026, 1, 1, tzinfo=UTC)


def _roundtrip(event: Event) -> Event:
    return Event(event.type, json.loads(json.dumps(event.data)), event.seat)


class Game:
    def __init__(self, seats: int, size: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.chance = DeckChance(random.Random(seed ^ 0x5EED))
        self.now = START
        created = rules.create(
            "skipbo",
            seats=seats,
            options={"stock_size": size, "start_seat": None},
            turn_timeout=60,
            creator="p0",
        )
        self.live = rules.fold(created[:1])
        self.shadow = rules.fold([_roundtrip(created[0])])
        self.count = 1
        self.dealt: list[str] | None = None  # the round's deck, checked when dealt
        self.store(created[1:])
        for seat in range(1, seats):
            self.store(rules.join(self.live, f"p{seat}", self.ctx))

    @property
    def ctx(self) -> Context:
        return Context(chance=self.chance, now=self.now)

    @property
    def state(self) -> SkipboState:
        assert isinstance(self.live, SkipboState)
        return self.live

    def store(self, events: list[Event]) -> None:
        for event in events:
            check_event_views(self.live, event)  # the state before the event
            rules.apply(self.live, event)
            rules.apply(self.shadow, _roundtrip(event))
            self.count += 1
            assert self.shadow == self.live, f"fold differs after event {self.count} {event}"
            if self.state.round:
                if event.type == "round_started" or self.dealt is None:
                    check_deck(self.state.deck)
                    self.dealt = list(self.state.deck)
                check_cards(self.state, self.dealt)
                check_views(self.state, self.rng)
        if self.state.round:
            assert all(len(p) < 12 for p in self.state.building)

    def step(self) -> None:
        st_ = self.state
        seat = st_.turn_seat
        assert seat is not None and rules.get_ruleset("skipbo").actors(st_) == [seat]
        if self.rng.random() < 0.03:
            self.now += timedelta(seconds=61)
            assert st_.turn_key is not None
            self.store(rules.timeout(st_, st_.turn_key, self.ctx))
            return
        actions = rules.view(st_, seat)["legal_actions"]  # type: ignore[index]
        assert actions, "the player on turn always has something to do"
        self.store(rules.act(st_, seat, choose(actions, self.rng), self.ctx))

    def finish(self) -> None:
        """Let every deadline pass until the game is over."""
        for _ in range(200):
            if self.state.status != "active":
                return
            self.now += timedelta(seconds=61)
            assert self.state.turn_key is not None
            self.store(rules.timeout(self.state, self.state.turn_key, self.ctx))
        raise AssertionError("timeouts did not end the game")


def choose(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Mostly a sensible player (stock first, then plays), sometimes anything at all."""
    if rng.random() < 0.2:
        return rng.choice(actions)
    for wanted in ("stock", "discard", "hand"):
        plays = [a for a in actions if a["type"] == "play" and a["from"] == wanted]
        if plays and rng.random() < (0.95 if wanted == "stock" else 0.7):
            return rng.choice(plays)
    ends = [a for a in actions if a["type"] == "end"]
    return rng.choice(ends or actions)


# --------------------------------------------------------------------------- checks


FULL_DECK = Counter([str(v) for v in range(1, 13)] * 12 + ["SB"] * 18)
EVERY_ID = list(range(162))
VIEW_KEYS = {
    "round",
    "phase",
    "turn",
    "hand",
    "hand_counts",
    "stock",
    "discards",
    "building",
    "deck",
    "completed",
    "legal_actions",
    "rounds",
    "result",
}


def check_deck(deck: list[str]) -> None:
    """The dealt deck: 162 cards, twelve of each number and 18 Skip-Bo cards."""
    assert len(deck) == 162
    assert Counter(deck) == FULL_DECK


def check_cards(s: SkipboState, dealt: list[str]) -> None:
    places: list[int] = []
    for seat in range(s.seats):
        places += s.stocks[seat] + s.hands[seat]
        for pile in s.discards[seat]:
            places += pile
    for pile in s.building:
        places += pile
    places += s.draw + s.completed
    assert s.deck == dealt, "the deck changed after the deal"  # so check_deck holds
    assert sorted(places) == EVERY_ID, "a card is missing or in two places"
    for pile in s.building:
        assert len(pile) <= 12
        for position, card in enumerate(pile, start=1):
            assert s.deck[card] in ("SB", str(position)), f"pile {pile} breaks the run"
    assert s.scores == [len(stock) for stock in s.stocks]


def check_views(s: SkipboState, rng: random.Random) -> None:
    deck = s.deck
    hand_counts = {str(i): len(h) for i, h in enumerate(s.hands)}
    # Hidden from everyone: the draw pile, the completed stack, the stocks under their tops.
    hidden_from_all = s.draw + s.completed
    for stock in s.stocks:
        hidden_from_all += stock[:-1]
    for viewer in [*range(s.seats), None]:
        view = rules.view(s, viewer)
        assert view is not None
        own = s.hands[viewer] if viewer is not None else []
        assert view["hand"] == [deck[c] for c in own]
        assert view["hand_counts"] == hand_counts
        assert view.keys() == VIEW_KEYS
        for stock in view["stock"].values():
            assert stock.keys() == {"top", "count"}
        assert view["deck"] == {"count": len(s.draw)}
        # Move the hidden cards round among their places (every hidden id gets the
        # code of the next one, from a random start): the viewer must not notice.
        hidden = hidden_from_all[:]
        for seat, hand in enumerate(s.hands):
            if seat != viewer:
                hidden += hand
        if len(hidden) < 2:
            continue
        shift = rng.randrange(1, len(hidden))
        moved = deck[:]
        for card, source in zip(hidden, hidden[shift:] + hidden[:shift], strict=True):
            moved[card] = deck[source]
        other = copy.copy(s)  # views never mutate: a new deck is all it needs
        other.deck = moved
        assert rules.view(other, viewer) == view, f"seat {viewer} sees a hidden card"


def check_event_views(before: rules.State, event: Event) -> None:
    if event.type in rules.ENGINE_EVENTS:
        return
    for viewer in [*range(before.seats), None]:
        seen = rules.event_view(before, event, viewer)
        json.dumps(seen)
        if event.type == "round_started":
            assert "deck" not in seen or not isinstance(seen["deck"], list)
        elif event.type == "cards_drawn" and viewer != event.seat:
            assert seen == {"seat": event.seat, "count": len(event.data["cards"])}
        elif event.type == "draw_pile_reshuffled":
            assert seen == {"count": len(event.data["order"])}
        else:
            assert seen == event.data


# --------------------------------------------------------------------------- the property


@pytest.mark.slow
@settings(
    max_examples=scaled(150),
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seats=st.integers(min_value=2, max_value=6),
    size=st.integers(min_value=5, max_value=10),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_random_games_keep_every_invariant(seats: int, size: int, seed: int) -> None:
    game = Game(seats, size, seed)
    for _ in range(ACTION_CAP):
        if game.state.status != "active":
            break
        game.step()
    game.finish()
    assert game.state.status in ("finished", "aborted")
    if game.state.status == "finished":
        result = game.state.result
        assert result is not None and result["losers"] == []
        winners = result["winners"]
        fewest = min(len(stock) for stock in game.state.stocks)
        assert winners and all(len(game.state.stocks[w]) == fewest for w in winners)
    view = rules.view(game.state, None)
    assert view is not None and view["phase"] == "over" and view["legal_actions"] == []
