"""Skip-Bo: an empty hand, an empty draw pile and the completed stack, stacked decks.

The rule: whenever the hand is empty during a turn it is filled with five cards,
and once the draw pile is used up the completed building piles are shuffled
into a new draw pile. So a player whose hand is empty because nothing was left
to draw, and who then completes a pile from the stock or a discard pile, draws
five of the recycled cards and plays on.

Every game here has six seats with stocks of 22 cards: 132 stock cards leave a
draw pile of exactly 30, so it runs out within a turn or a round. The whole
deck is stacked (no card is left to chance), and the reshuffle is stacked too:
``Reversing`` hands the completed stack back top card first, so the new draw
pile's top is the completed pile's 12th card, then its 11th, ... and the
expected hands below are worked out from that.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeVar

from games import rules
from games.chance import DeckChance
from games.rules.cards import skipbo_deck
from tests.rules.table import Table

T = TypeVar("T")
SEATS, SIZE = 6, 22
#: a play that completes a pile and refills an empty hand from it
RECYCLED = ["card_played", "pile_completed", "draw_pile_reshuffled", "cards_drawn"]


class Reversing(DeckChance):
    """Deals the stacked deck; a reshuffle puts the completed stack's last card on top."""

    def shuffle(self, items: Sequence[T]) -> list[T]:
        return list(items)[::-1]


def game(stocks: dict[int, Sequence[str]], draw: Sequence[str]) -> Table:
    """Six seats, stock tops as given (the rest of each stock from the unused cards)."""
    assert len(draw) == 30
    pool = Counter(skipbo_deck())
    pool.subtract(draw)
    pool.subtract(code for stock in stocks.values() for code in stock)
    assert all(n >= 0 for n in pool.values()), pool
    # 12s and SBs are held back: they would fit a pile at 11 if a stock play revealed them
    order = [*(str(v) for v in range(2, 12)), "1", "12", "SB"]
    filler = [code for code in order for _ in range(pool[code])]
    deck: list[str] = []
    for seat in range(SEATS):
        given = list(stocks.get(seat, []))
        deck += given + filler[: SIZE - len(given)]
        filler = filler[SIZE - len(given) :]
    deck += draw
    assert sorted(deck) == sorted(skipbo_deck())
    t = Table(
        "skipbo",
        seats=SEATS,
        options={"start_seat": 0, "stock_size": SIZE},
        decks=[deck],
    )
    t.chance = Reversing(random.Random(0), [deck])
    return t


def play(t: Table, seat: int, source: str, pile: int, **body: Any) -> list[rules.Event]:
    return t.act(seat, {"type": "play", "from": source, "pile": pile, **body})


def hand_onto(t: Table, seat: int, plays: Sequence[tuple[str, int]]) -> list[rules.Event]:
    events: list[rules.Event] = []
    for code, pile in plays:
        events += play(t, seat, "hand", pile, card=code)
    return events


def drawn(events: Sequence[rules.Event]) -> list[str]:
    return [c["code"] for e in events if e.type == "cards_drawn" for c in e.data["cards"]]


def nexts(t: Table) -> list[int | None]:
    return [b and b["next"] for b in t.view(None)["building"]]


def total(view: dict[str, Any]) -> int:
    return (
        sum(s["count"] for s in view["stock"].values())
        + sum(view["hand_counts"].values())
        + sum(len(p) for piles in view["discards"].values() for p in piles)
        + sum(b["count"] for b in view["building"] if b)
        + view["deck"]["count"]
        + view["completed"]["count"]
    )


def ones_to(n: int) -> list[str]:
    return [str(v) for v in range(1, n + 1)]


# Seat 0 draws all 30 cards in its first turn (a fill of five at the start and five
# refills) and plays every one of them: pile 0 gets 1-11, pile 1 1-11, pile 2 1-8.
# The hands arrive as 1-5 | 6-10 | 11 1-4 | 5-9 | 10 11 1-3 | 4-8.
THIRTY = ones_to(11) + ones_to(11) + ones_to(8)
EMPTYING = (
    [(str(v), 0) for v in range(1, 12)]
    + [(str(v), 1) for v in range(1, 12)]
    + [(str(v), 2) for v in range(1, 9)]
)


def emptied(t: Table) -> None:
    """Seat 0 plays its 30 hand cards; the hand and the draw pile are empty."""
    events = hand_onto(t, 0, EMPTYING)
    assert drawn(events) == THIRTY[5:]  # the five refills
    v = t.view(0)
    assert v["turn"]["seat"] == 0
    assert v["hand"] == [] and v["deck"]["count"] == 0 and v["completed"]["count"] == 0
    assert nexts(t) == [12, 12, 9, None]


def test_a_stock_play_completing_a_pile_refills_the_empty_hand_from_the_completed_stack() -> None:
    t = game({0: ["12", "10"]}, THIRTY)
    emptied(t)
    # the stock's 12 fits piles 0 and 1; nothing else can move, yet the turn goes on
    assert t.view(0)["legal_actions"] == [
        {"type": "play", "from": "stock", "pile": 0},
        {"type": "play", "from": "stock", "pile": 1},
        {"type": "end"},
    ]
    events = play(t, 0, "stock", 0)
    assert t.types(events) == RECYCLED
    completed = events[1].data["cards"]
    assert [t.state.deck[c] for c in completed] == ones_to(12)
    assert events[2].data == {"order": completed[::-1]}
    # the new draw pile, top first: 12 11 10 9 8 | 7 ... 1
    assert drawn(events) == ["12", "11", "10", "9", "8"]
    v = t.view(0)
    assert v["turn"]["seat"] == 0  # the player plays on
    assert v["hand"] == ["12", "11", "10", "9", "8"]
    assert v["deck"]["count"] == 7 and v["completed"]["count"] == 0
    assert v["stock"]["0"] == {"top": "10", "count": 21}
    assert nexts(t) == [None, 12, 9, None]
    assert {"type": "end"} not in v["legal_actions"]
    assert {"type": "play", "from": "hand", "card": "12", "pile": 1} in v["legal_actions"]
    # and plays on: the drawn 12 completes pile 1 from the hand
    events = play(t, 0, "hand", 1, card="12")
    assert t.types(events) == ["card_played", "pile_completed"]
    assert t.view(0)["completed"]["count"] == 12
    assert total(t.view(None)) == 162


def test_a_discard_pile_play_completing_a_pile_refills_the_empty_hand() -> None:
    draw = [*ones_to(5), "6", "7", "8", "9", "12"]  # seat 0: two hands
    draw += ["10", "2", "2", "2", "2"]  # seat 1
    draw += ["11", "3", "3", "3", "3"]  # seat 2
    draw += ["4", "4", "4", "4", "4", "5", "5", "5", "5", "5"]  # seats 3 and 4
    # stock tops that fit nowhere in this game (piles at 9-11 or empty)
    t = game({s: ["6"] for s in range(SEATS)}, draw)
    hand_onto(t, 0, [(str(v), 0) for v in range(1, 10)])
    t.act(0, {"type": "end", "card": "12", "discard_pile": 0})  # the hand is empty now
    play(t, 1, "hand", 0, card="10")
    t.act(1, {"type": "end", "card": "2", "discard_pile": 0})
    play(t, 2, "hand", 0, card="11")
    t.act(2, {"type": "end", "card": "3", "discard_pile": 0})
    t.act(3, {"type": "end", "card": "4", "discard_pile": 0})
    events = t.act(4, {"type": "end", "card": "5", "discard_pile": 0})
    # seat 5 finds nothing to draw and nothing to play: its turn ends at once
    assert [(e.type, e.data.get("seat")) for e in events[1:5]] == [
        ("turn_ended", 4),
        ("turn_started", 5),
        ("turn_ended", 5),
        ("turn_started", 0),
    ]
    assert events[3].data["reason"] == "no_cards"
    v = t.view(0)
    assert v["turn"]["seat"] == 0
    assert v["hand"] == [] and v["deck"]["count"] == 0 and v["completed"]["count"] == 0
    assert v["discards"]["0"] == [["12"], [], [], []]
    assert nexts(t) == [12, None, None, None]
    assert v["legal_actions"] == [
        {"type": "play", "from": "discard", "discard_pile": 0, "pile": 0},
        {"type": "end"},
    ]

    events = play(t, 0, "discard", 0, discard_pile=0)
    assert t.types(events) == RECYCLED
    assert events[0].data["value"] == 12
    completed = events[1].data["cards"]
    assert [t.state.deck[c] for c in completed] == ones_to(12)
    assert events[2].data == {"order": completed[::-1]}
    assert drawn(events) == ["12", "11", "10", "9", "8"]
    v = t.view(0)
    assert v["turn"]["seat"] == 0 and v["hand"] == ["12", "11", "10", "9", "8"]
    assert v["deck"]["count"] == 7 and v["completed"]["count"] == 0
    # nothing of it fits the four empty piles: the player ends with a discard, no pass
    assert v["legal_actions"] == [
        {"type": "end", "card": code, "discard_pile": d}
        for code in ["12", "11", "10", "9", "8"]
        for d in range(4)
    ]
    assert total(t.view(None)) == 162


def test_a_skipbo_card_under_the_stock_top_completes_and_the_next_stock_card_plays_on() -> None:
    # hands 1-5 | 6-10 | 1-5 | 6-10 | 11 1-4 | 5-9: pile 0 1-10, pile 1 1-11, pile 2 1-9
    thirty = ones_to(10) + ones_to(11) + ones_to(9)
    t = game({0: ["11", "SB", "1", "12"]}, thirty)
    events = hand_onto(
        t,
        0,
        [(str(v), 0) for v in range(1, 11)]
        + [(str(v), 1) for v in range(1, 12)]
        + [(str(v), 2) for v in range(1, 10)],
    )
    assert drawn(events) == thirty[5:]
    v = t.view(0)
    assert v["hand"] == [] and v["deck"]["count"] == 0 and v["completed"]["count"] == 0
    assert nexts(t) == [11, 12, 10, None]

    assert t.types(play(t, 0, "stock", 0)) == ["card_played"]  # the 11; the SB shows
    assert t.view(0)["stock"]["0"] == {"top": "SB", "count": 21}
    events = play(t, 0, "stock", 0)  # the SB stands for 12 and completes pile 0
    assert t.types(events) == RECYCLED
    assert events[0].data["code"] == "SB" and events[0].data["value"] == 12
    assert events[0].data["stock_top"]["code"] == "1"
    completed = events[1].data["cards"]
    assert [t.state.deck[c] for c in completed] == [*ones_to(11), "SB"]
    assert events[2].data == {"order": completed[::-1]}
    assert drawn(events) == ["SB", "11", "10", "9", "8"]
    v = t.view(0)
    assert v["hand"] == ["SB", "11", "10", "9", "8"]
    assert v["deck"]["count"] == 7 and v["completed"]["count"] == 0
    assert {"type": "end"} not in v["legal_actions"]
    # the next stock card, a 1, starts the emptied pile
    events = play(t, 0, "stock", 0)
    assert t.types(events) == ["card_played"]
    v = t.view(0)
    assert v["turn"]["seat"] == 0 and v["stock"]["0"] == {"top": "12", "count": 19}
    assert nexts(t) == [2, 12, 10, None]
    assert total(t.view(None)) == 162


def test_a_hand_play_emptying_the_hand_and_completing_a_pile_refills_from_it() -> None:
    # hands 1-5 | 6-10 | 11 1-4 | 5-9 | 10 11 1-3 | 4-7 12: the last card, a 12, completes
    # pile 0 and empties the hand with the draw pile already used up
    thirty = ones_to(11) + ones_to(11) + ones_to(7) + ["12"]
    t = game({0: ["10"]}, thirty)
    events = hand_onto(
        t,
        0,
        [(str(v), 0) for v in range(1, 12)]
        + [(str(v), 1) for v in range(1, 12)]
        + [(str(v), 2) for v in range(1, 8)],
    )
    assert t.view(0)["hand"] == ["12"] and t.view(0)["deck"]["count"] == 0
    events = play(t, 0, "hand", 0, card="12")
    assert t.types(events) == RECYCLED
    assert events[2].data == {"order": events[1].data["cards"][::-1]}
    assert drawn(events) == ["12", "11", "10", "9", "8"]
    v = t.view(0)
    assert v["turn"]["seat"] == 0 and v["hand"] == ["12", "11", "10", "9", "8"]
    assert v["deck"]["count"] == 7 and v["completed"]["count"] == 0
    assert total(t.view(None)) == 162


def test_a_turn_starting_on_an_empty_draw_pile_draws_from_the_completed_stack() -> None:
    # seat 0: hands 1-5 | 6-10 | 11 12 1 2 3 | 4-8 | 9 10 and three 7s; pile 0 completes
    # in the third hand, pile 1 reaches 10, a 7 is discarded: 25 cards drawn
    draw = [*ones_to(10), "11", "12", "1", "2", "3", "4", "5", "6", "7", "8"]
    draw += ["9", "10", "7", "7", "7"]
    draw += ["2", "2", "2", "2", "2"]  # seat 1, the last five
    t = game({s: ["6"] for s in range(SEATS)}, draw)
    events = hand_onto(
        t, 0, [(str(v), 0) for v in range(1, 13)] + [(str(v), 1) for v in range(1, 11)]
    )
    assert t.types(events).count("pile_completed") == 1
    t.act(0, {"type": "end", "card": "7", "discard_pile": 0})
    v = t.view(None)
    assert v["deck"]["count"] == 0 and v["completed"]["count"] == 12
    assert v["hand_counts"] == {"0": 2, "1": 5, "2": 0, "3": 0, "4": 0, "5": 0}
    events = t.act(1, {"type": "end", "card": "2", "discard_pile": 0})
    assert t.types(events)[:4] == [
        "card_discarded",
        "turn_ended",
        "turn_started",
        "draw_pile_reshuffled",
    ]
    assert list(events[3].data) == ["order"]
    completed = [t.state.deck[c] for c in events[3].data["order"]]
    assert completed == ones_to(12)[::-1]
    assert drawn(events) == ["12", "11", "10", "9", "8"]
    v = t.view(2)
    assert v["turn"]["seat"] == 2 and v["hand"] == ["12", "11", "10", "9", "8"]
    assert v["deck"]["count"] == 7 and v["completed"]["count"] == 0
    assert total(v) == 162


def test_a_timeout_after_the_refill_discards_the_first_recycled_card() -> None:
    t = game({0: ["12", "10"]}, THIRTY)
    emptied(t)
    play(t, 0, "stock", 0)
    assert t.view(0)["hand"] == ["12", "11", "10", "9", "8"]
    events = t.timeout()
    assert t.types(events)[:3] == ["turn_timed_out", "card_discarded", "turn_ended"]
    assert events[1].data["code"] == "12" and events[1].data["discard_pile"] == 0
    assert events[2].data == {"seat": 0, "reason": "discard"}


def test_a_timeout_with_an_empty_hand_and_nothing_to_recycle_ends_the_turn() -> None:
    t = game({0: ["12", "10"]}, THIRTY)
    emptied(t)
    events = t.timeout()
    assert t.types(events)[:3] == ["turn_timed_out", "turn_ended", "turn_started"]
    assert events[1].data == {"seat": 0, "reason": "no_cards"}
    assert t.view(None)["completed"]["count"] == 0
