"""Skip-Bo (RULES.md §7) with stacked decks: every rule, expectations worked out by hand.

A stacked deck is dealt (RULES.md §7) as seat 0's stock (first card = its top),
seat 1's stock, ..., then the draw pile top first. Card ids are positions in
that list: with 2 seats and ``stock_size`` 5, seat 0's stock is ids 0-4, seat
1's ids 5-9 and the draw pile starts at id 10.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from games import rules
from games.rules import Malformed, RulesError
from games.rules.cards import skipbo_deck
from tests.rules.helpers import status_of
from tests.rules.table import Table

JSON = dict[str, Any]
FILLER_ORDER = [*(str(v) for v in range(12, 0, -1)), "SB"]


def stacked(
    seats: int, size: int, stocks: dict[int, Sequence[str]] | None = None, draw: Sequence[str] = ()
) -> list[str]:
    """A deck prefix: each seat's stock (given cards on top, padded), then ``draw``.

    Padding takes 12s first, then 11s, ..., SB last: cards that rarely fit, so a stock
    top under the given cards is predictable and out of the way.
    """
    stocks = stocks or {}
    pool = Counter(skipbo_deck())
    pool.subtract(code for cards in stocks.values() for code in cards)
    pool.subtract(draw)
    filler = [code for code in FILLER_ORDER for _ in range(pool[code])]
    prefix: list[str] = []
    for seat in range(seats):
        given = list(stocks.get(seat, []))
        need = size - len(given)
        prefix += given + filler[:need]
        filler = filler[need:]
    assert len(prefix) == seats * size
    return prefix + list(draw)


def table(
    seats: int = 2,
    size: int = 5,
    stocks: dict[int, Sequence[str]] | None = None,
    draw: Sequence[str] = (),
    **options: Any,
) -> Table:
    opts = {"start_seat": 0, "stock_size": size, **options}
    return Table("skipbo", seats=seats, options=opts, decks=[stacked(seats, size, stocks, draw)])


def play(t: Table, seat: int, source: str, pile: int, **body: Any) -> list[rules.Event]:
    return t.act(seat, {"type": "play", "from": source, "pile": pile, **body})


def end(t: Table, seat: int, card: str, pile: int) -> list[rules.Event]:
    return t.act(seat, {"type": "end", "card": card, "discard_pile": pile})


def refused(t: Table, seat: int, command: JSON, code: str, status: int = 409) -> RulesError:
    before = t.state.copy()
    count = len(t.events)
    with pytest.raises(RulesError) as caught:
        t.act(seat, command)
    err = caught.value
    assert (err.code, status_of(err)) == (code, status), err.detail
    assert len(t.events) == count
    assert t.state == before
    return err


def of(events: Sequence[rules.Event], kind: str) -> list[rules.Event]:
    return [e for e in events if e.type == kind]


# --------------------------------------------------------------------------- set-up


def test_registered_with_its_option():
    ruleset = rules.get_ruleset("skipbo")
    assert (ruleset.name, ruleset.min_players, ruleset.max_players_any) == ("Skip-Bo", 2, 6)
    assert ruleset.options["stock_size"].describe() == {
        "type": "integer",
        "default": None,
        "minimum": 5,
        "maximum": 30,
        "nullable": True,
        "description": ruleset.options["stock_size"].description,
    }
    assert len(ruleset.deck({})) == 162


def test_deal_order_and_first_view():
    draw = ["1", "2", "SB", "9", "10"]
    t = table(stocks={0: ["3", "4"], 1: ["6"]}, draw=draw)
    started = of(t.events, "round_started")[0].data
    deck = started["deck"]
    # seat 0's stock is ids 0-4 (id 0 = top), seat 1's ids 5-9, the draw pile from id 10
    assert (deck[0], deck[1], deck[5], deck[10:15]) == ("3", "4", "6", draw)
    assert (started["stock_size"], started["start_seat"]) == (5, 0)
    drawn = of(t.events, "cards_drawn")[0]
    assert drawn.seat == 0
    assert drawn.data["cards"] == [{"card": 10 + i, "code": c} for i, c in enumerate(draw)]

    v = t.view(0)
    assert v["round"] == 1 and v["phase"] == "turn"
    assert v["turn"] == {"seat": 0, "stage": "play", "deadline": t.state.deadline}
    assert v["turn"]["deadline"] == "2026-01-02T00:00:00.000Z"  # START + 86400 s
    assert v["hand"] == draw
    assert v["hand_counts"] == {"0": 5, "1": 0}  # seat 1's hand is filled on its turn
    assert v["stock"] == {"0": {"top": "3", "count": 5}, "1": {"top": "6", "count": 5}}
    assert v["discards"] == {"0": [[], [], [], []], "1": [[], [], [], []]}
    assert v["building"] == [None, None, None, None]
    assert v["deck"] == {"count": 147}  # 162 - 2 x 5 stock - 5 in seat 0's hand
    assert v["completed"] == {"count": 0}
    assert (v["rounds"], v["result"]) == ([], None)
    json.dumps(v)

    other = t.view(1)
    assert other["hand"] == [] and other["legal_actions"] == []
    assert {k: other[k] for k in ("stock", "hand_counts", "deck")} == {
        k: v[k] for k in ("stock", "hand_counts", "deck")
    }
    public = t.view(None)
    assert public["hand"] == [] and public["legal_actions"] == []
    assert rules.get_ruleset("skipbo").turn_key(t.state) == "t1"
    assert t.events[-1].type == "deadline_set" and t.events[-1].data["seats"] == [0]


@pytest.mark.parametrize(("seats", "size"), [(2, 30), (3, 30), (4, 30), (5, 20), (6, 20)])
def test_default_stock_size_by_seats(seats, size):
    t = Table("skipbo", seats=seats, options={"start_seat": 0})
    v = t.view(0)
    assert {s: p["count"] for s, p in v["stock"].items()} == {str(s): size for s in range(seats)}
    assert v["deck"]["count"] == 162 - seats * size - 5
    assert t.state.scores == [size] * seats  # players[].score = cards left in the stock


@pytest.mark.parametrize(
    ("seats", "size", "ok"),
    [
        (6, 22, True),  # 162 - 132 = 30 left: just enough
        (6, 23, False),  # 162 - 138 = 24 < 30
        (5, 26, True),  # 162 - 130 = 32
        (5, 27, False),  # 162 - 135 = 27
        (4, 30, True),  # 162 - 120 = 42
        (5, None, True),  # 20 each: 162 - 100 = 62
        (2, 5, True),
        (2, 4, False),  # below the minimum 5
        (2, 31, False),  # above the maximum 30
        (2, "5", False),  # not an integer
        (2, True, False),
    ],
)
def test_stock_size_validation(seats, size, ok):
    options = {"stock_size": size}
    if ok:
        events = rules.create("skipbo", seats=seats, options=options, turn_timeout=60, creator="a")
        assert events[0].data["options"]["stock_size"] == size
        return
    with pytest.raises(Malformed) as caught:
        rules.create("skipbo", seats=seats, options=options, turn_timeout=60, creator="a")
    assert caught.value.code == "invalid_option"
    assert caught.value.detail.startswith("options.stock_size")


def test_seat_count_is_checked_by_the_engine_not_as_a_stock_size_error():
    with pytest.raises(Malformed) as caught:
        rules.create("skipbo", seats=7, options={}, turn_timeout=60, creator="a")
    assert caught.value.code == "invalid_seats"


def test_five_and_six_players_get_20_cards():
    t = Table("skipbo", seats=6, options={"start_seat": 2})
    v = t.view(2)
    assert all(p["count"] == 20 for p in v["stock"].values())
    assert v["deck"]["count"] == 37  # 162 - 6 x 20 - 5
    assert v["turn"]["seat"] == 2 and len(v["hand"]) == 5
    assert v["hand_counts"] == {"0": 0, "1": 0, "2": 5, "3": 0, "4": 0, "5": 0}


def test_random_start_seat_is_drawn_and_recorded():
    seen = set()
    for seed in range(12):
        t = Table("skipbo", seats=3, options={"stock_size": 5}, seed=seed)
        start = of(t.events, "round_started")[0].data["start_seat"]
        assert t.view(None)["turn"]["seat"] == start
        seen.add(start)
    assert len(seen) > 1  # it is not always the same seat


def test_start_seat_option():
    t = table(draw=["1", "2", "3", "4", "5"], start_seat=1)
    assert t.view(1)["turn"]["seat"] == 1
    assert t.view(1)["hand"] == ["1", "2", "3", "4", "5"]  # the first draw goes to seat 1


# --------------------------------------------------------------------------- hands


def test_hand_is_refilled_up_to_five_when_a_turn_begins():
    # seat 0: 1 2 SB 9 10 | seat 1: 5 5 7 8 11 | seat 0 tops up with 1 2 3
    draw = ["1", "2", "SB", "9", "10", "5", "5", "7", "8", "11", "1", "2", "3"]
    t = table(stocks={0: ["3", "4"], 1: ["6"]}, draw=draw)
    play(t, 0, "hand", 0, card="1")
    play(t, 0, "hand", 0, card="2")
    play(t, 0, "stock", 0)  # the 3
    play(t, 0, "stock", 0)  # the 4: pile 0 = 1 2 3 4, needs 5
    events = end(t, 0, "9", 0)
    assert t.view(0)["hand"] == ["SB", "10"]
    drawn = of(events, "cards_drawn")
    assert [(e.seat, len(e.data["cards"])) for e in drawn] == [(1, 5)]
    assert t.view(1)["hand"] == ["5", "5", "7", "8", "11"]  # ids 15-19
    play(t, 1, "hand", 0, card="5")
    play(t, 1, "stock", 0)  # the 6: pile 0 needs 7
    events = end(t, 1, "11", 0)
    # seat 0 held 2 cards: 5 - 2 = 3 drawn, ids 20-22, after the kept ones
    drawn = of(events, "cards_drawn")
    assert [(e.seat, [c["card"] for c in e.data["cards"]]) for e in drawn] == [(0, [20, 21, 22])]
    v = t.view(0)
    assert v["hand"] == ["SB", "10", "1", "2", "3"]
    assert v["hand_counts"] == {"0": 5, "1": 3}  # seat 1 keeps 5 7 8
    assert v["deck"]["count"] == 162 - 10 - 13  # 13 cards drawn so far


def test_an_emptied_hand_draws_five_more_during_the_turn():
    draw = ["1", "2", "3", "4", "5", "6", "7", "8", "SB", "12"]
    t = table(draw=draw)
    for code in ["1", "2", "3", "4"]:
        assert not of(play(t, 0, "hand", 0, card=code), "cards_drawn")
    events = play(t, 0, "hand", 0, card="5")
    assert [e.type for e in events] == ["card_played", "cards_drawn"]
    assert [c["card"] for c in events[1].data["cards"]] == [15, 16, 17, 18, 19]
    v = t.view(0)
    assert v["hand"] == ["6", "7", "8", "SB", "12"]
    assert v["turn"]["seat"] == 0  # still seat 0's turn
    assert v["building"][0] == {"next": 6, "count": 5, "top": "5"}
    assert v["deck"]["count"] == 162 - 10 - 10


# --------------------------------------------------------------------------- building piles


def test_skip_bo_first_in_the_middle_and_as_the_twelfth_completes_the_pile():
    draw = ["SB", "2", "SB", "4", "5", "6", "7", "8", "9", "10", "11", "SB", "3", "3", "3"]
    t = table(draw=draw)
    events = play(t, 0, "hand", 1, card="SB")
    assert events[0].data["value"] == 1  # SB stands for the 1
    assert t.view(0)["building"] == [None, {"next": 2, "count": 1, "top": "SB"}, None, None]
    play(t, 0, "hand", 1, card="2")
    events = play(t, 0, "hand", 1, card="SB")
    assert events[0].data["value"] == 3  # SB stands for the 3 in the middle
    assert t.view(0)["building"][1] == {"next": 4, "count": 3, "top": "SB"}
    for code in ["4", "5", "6", "7", "8", "9", "10", "11"]:
        play(t, 0, "hand", 1, card=code)
    assert t.view(0)["building"][1] == {"next": 12, "count": 11, "top": "11"}
    events = play(t, 0, "hand", 1, card="SB")
    assert [e.type for e in events] == ["card_played", "pile_completed"]
    assert events[0].data["value"] == 12
    # the pile's ids in order: hand ids 10-19 (two hands of five) then 20, 21 (11, SB)
    assert events[1].data == {"pile": 1, "cards": list(range(10, 22))}
    v = t.view(0)
    assert v["building"] == [None, None, None, None]
    assert v["completed"] == {"count": 12}
    assert v["hand"] == ["3", "3", "3"]
    # the emptied slot takes a new 1 or SB only
    refused(t, 0, {"type": "play", "from": "hand", "card": "3", "pile": 1}, "card_does_not_fit")


def test_a_number_fits_only_as_the_next_card():
    t = table(draw=["1", "3", "2", "SB", "12"])
    refused(t, 0, {"type": "play", "from": "hand", "card": "3", "pile": 0}, "card_does_not_fit")
    play(t, 0, "hand", 2, card="1")
    err = refused(
        t, 0, {"type": "play", "from": "hand", "card": "3", "pile": 2}, "card_does_not_fit"
    )
    assert "needs a 2" in err.detail
    play(t, 0, "hand", 2, card="2")
    play(t, 0, "hand", 2, card="3")
    assert t.view(0)["building"][2] == {"next": 4, "count": 3, "top": "3"}
    # another 1 would start a second pile beside it (none left in hand here)
    refused(t, 0, {"type": "play", "from": "hand", "card": "12", "pile": 0}, "card_does_not_fit")


# --------------------------------------------------------------------------- reshuffle

RUN = [str(v) for v in range(1, 13)]


def _run_two_piles(t: Table) -> None:
    """Seat 0 plays 1..12, 1..12 onto pile 0 from five hands of five (25 drawn)."""
    for code in RUN + RUN[:1]:
        play(t, 0, "hand", 0, card=code)
    for code in RUN[1:] + RUN[:1]:
        play(t, 0, "hand", 0, card=code)


def test_completed_stack_is_reshuffled_only_when_a_card_must_be_drawn():
    # 6 seats x 22 = 132 stock cards: the draw pile is exactly 30 cards.
    draw = RUN + RUN + RUN[:6]
    t = table(seats=6, size=22, draw=draw)
    _run_two_piles(t)
    # all 30 drawn (six hands), 24 completed, pile 0 holds the third 1; the hand is the
    # last five cards 2 3 4 5 6 (ids 157-161)
    v = t.view(0)
    assert v["hand"] == ["2", "3", "4", "5", "6"]
    assert (v["deck"], v["completed"]) == ({"count": 0}, {"count": 24})  # not reshuffled yet
    assert v["building"][0] == {"next": 2, "count": 1, "top": "1"}
    for code in ["2", "3", "4", "5"]:
        play(t, 0, "hand", 0, card=code)
    events = end(t, 0, "6", 0)  # seat 0's hand is now empty
    types = [e.type for e in events]
    assert types[:4] == ["card_discarded", "turn_ended", "turn_started", "draw_pile_reshuffled"]
    shuffled = events[3].data["order"]
    completed = of(t.events, "pile_completed")
    assert sorted(shuffled) == sorted(completed[0].data["cards"] + completed[1].data["cards"])
    drawn = events[4]
    assert drawn.type == "cards_drawn" and drawn.seat == 1
    assert [c["card"] for c in drawn.data["cards"]] == shuffled[:5]  # top first
    deck = of(t.events, "round_started")[0].data["deck"]
    assert t.view(1)["hand"] == [deck[c] for c in shuffled[:5]]
    v = t.view(1)
    assert (v["deck"], v["completed"]) == ({"count": 19}, {"count": 0})  # 24 - 5

    # nobody sees the new order, not even the player who draws from it
    for seat in [*range(6), None]:
        seen = t.event_views(seat)
        index = t.events.index(events[3])
        assert seen[index] == {"count": 24}
        drawn_seen = seen[index + 1]
        if seat == 1:
            assert drawn_seen == drawn.data
        else:
            assert drawn_seen == {"seat": 1, "count": 5}


def test_reshuffle_in_the_middle_of_a_fill():
    # 5 seats x 26 = 130 stock cards: 32 in the draw pile.
    draw = RUN + RUN + RUN[:6] + ["7", "8"]
    t = table(seats=5, size=26, draw=draw)
    _run_two_piles(t)
    for code in ["2", "3", "4", "5"]:
        play(t, 0, "hand", 0, card=code)
    events = play(t, 0, "hand", 0, card="6")
    # the hand is empty: 2 cards left (7, 8), then the 24 completed cards, then 3 more
    assert [e.type for e in events] == [
        "card_played",
        "cards_drawn",
        "draw_pile_reshuffled",
        "cards_drawn",
    ]
    assert [c["code"] for c in events[1].data["cards"]] == ["7", "8"]
    order = events[2].data["order"]
    assert len(order) == 24
    assert [c["card"] for c in events[3].data["cards"]] == order[:3]
    v = t.view(0)
    assert v["hand"][:2] == ["7", "8"] and len(v["hand"]) == 5
    assert (v["deck"], v["completed"]) == ({"count": 21}, {"count": 0})


# --------------------------------------------------------------------------- sources


def test_playing_from_the_stock_reveals_the_next_card():
    t = table(stocks={0: ["1", "2", "9"]}, draw=["5", "6", "7", "8", "10"])
    events = play(t, 0, "stock", 2)
    assert events[0].data == {
        "seat": 0,
        "from": "stock",
        "card": 0,
        "code": "1",
        "pile": 2,
        "value": 1,
        "stock_top": {"card": 1, "code": "2"},
    }
    assert t.view(1)["stock"]["0"] == {"top": "2", "count": 4}
    assert t.state.scores == [4, 5]
    events = play(t, 0, "stock", 2)
    assert events[0].data["stock_top"] == {"card": 2, "code": "9"}
    assert t.view(None)["stock"]["0"] == {"top": "9", "count": 3}
    # everyone sees the play and the new top; nobody sees the cards under it (ids 3, 4)
    for seat in (0, 1, None):
        assert t.event_views(seat)[-len(events)] == events[0].data
    assert t.state.scores == [3, 5]


def _discard_game() -> Table:
    draw = ["3", "10", "11", "5", "6"]  # seat 0, turn 1
    draw += ["1", "2", "9", "9", "9"]  # seat 1, turn 1
    draw += ["7"]  # seat 0, turn 2 tops up 1 card
    draw += ["9", "9", "9"]  # seat 1, turn 2 tops up 3
    draw += ["8"]  # seat 0, turn 3
    t = table(draw=draw)
    end(t, 0, "3", 2)
    play(t, 1, "hand", 0, card="1")
    play(t, 1, "hand", 0, card="2")  # pile 0 needs a 3
    end(t, 1, "9", 0)
    return t


def test_playing_the_top_of_a_discard_pile():
    t = _discard_game()
    v = t.view(0)
    assert v["discards"]["0"] == [[], [], ["3"], []]
    assert v["hand"] == ["10", "11", "5", "6", "7"]
    body = {"type": "play", "from": "discard", "discard_pile": 2, "pile": 0}
    assert body in v["legal_actions"]
    events = play(t, 0, "discard", 0, discard_pile=2)
    assert events[0].data == {
        "seat": 0,
        "from": "discard",
        "card": 10,
        "code": "3",
        "pile": 0,
        "value": 3,
        "discard_pile": 2,
    }
    v = t.view(0)
    assert v["discards"]["0"] == [[], [], [], []]
    assert v["building"][0] == {"next": 4, "count": 3, "top": "3"}
    refused(t, 0, body, "empty_source")


def test_only_the_top_of_a_discard_pile_may_be_played():
    t = _discard_game()
    end(t, 0, "10", 2)  # discard pile 2 = 3, 10
    end(t, 1, "9", 0)
    v = t.view(0)
    assert v["discards"] == {"0": [[], [], ["3", "10"], []], "1": [["9", "9"], [], [], []]}
    assert v["hand"] == ["11", "5", "6", "7", "8"]
    # pile 0 needs a 3; the 3 lies under the 10
    err = refused(
        t,
        0,
        {"type": "play", "from": "discard", "discard_pile": 2, "pile": 0},
        "card_does_not_fit",
    )
    assert "10" in err.detail
    assert not [a for a in v["legal_actions"] if a.get("from") == "discard"]


# --------------------------------------------------------------------------- errors


def test_errors_and_their_codes():
    t = table(stocks={0: ["7"]}, draw=["1", "2", "3", "4", "SB"])
    hand_1 = {"type": "play", "from": "hand", "card": "1", "pile": 0}
    refused(t, 1, hand_1, "not_your_turn")
    refused(t, 1, {**hand_1, "pile": 4}, "no_such_pile", 400)  # never valid: 400 first
    refused(t, 0, {**hand_1, "pile": 4}, "no_such_pile", 400)
    refused(t, 0, {**hand_1, "pile": -1}, "no_such_pile", 400)
    refused(t, 0, {**hand_1, "pile": True}, "invalid", 400)
    refused(t, 0, {"type": "play", "from": "hand", "card": "1"}, "invalid", 400)
    refused(t, 0, {**hand_1, "from": "deck"}, "invalid", 400)
    refused(t, 0, {**hand_1, "card": "13"}, "invalid", 400)
    refused(t, 0, {"type": "play", "from": "hand", "pile": 0}, "invalid", 400)
    discard_4 = {"type": "play", "from": "discard", "discard_pile": 4, "pile": 0}
    refused(t, 0, discard_4, "no_such_pile", 400)
    refused(t, 0, {"type": "play", "from": "discard", "pile": 0}, "invalid", 400)
    err = refused(t, 0, {**hand_1, "card": "5"}, "card_not_in_hand")
    assert err.detail == "You have no 5 in your hand."  # names only what was asked for
    refused(t, 0, {**hand_1, "card": "2"}, "card_does_not_fit")
    refused(t, 0, {"type": "play", "from": "stock", "pile": 0}, "card_does_not_fit")  # a 7
    refused(t, 0, {"type": "play", "from": "stock", "card": "8", "pile": 0}, "illegal_action")
    refused(t, 0, {**discard_4, "discard_pile": 0}, "empty_source")
    for kind in ("draw", "throw", "look", "call", "discard", "replace"):
        refused(t, 0, {"type": kind}, "not_in_ruleset")
    refused(t, 0, {"type": "end", "card": "9", "discard_pile": 0}, "card_not_in_hand")
    refused(t, 0, {"type": "end", "card": "1", "discard_pile": 5}, "no_such_pile", 400)
    refused(t, 0, {"type": "end", "card": "1"}, "invalid", 400)
    refused(t, 0, {"type": "end", "discard_pile": 0}, "invalid", 400)
    refused(t, 0, {"type": "end"}, "illegal_action")  # only with an empty hand
    refused(t, 1, {"type": "end", "card": "1", "discard_pile": 0}, "not_your_turn")
    # an integer card code is read as the code
    play(t, 0, "hand", 0, card=1)
    assert t.view(0)["building"][0] == {"next": 2, "count": 1, "top": "1"}


def test_ending_the_turn_on_a_discard_pile():
    t = table(draw=["1", "2", "3", "4", "SB", "5", "6", "7", "8", "9"])
    events = end(t, 0, "SB", 3)
    assert [e.type for e in events] == [
        "card_discarded",
        "turn_ended",
        "turn_started",
        "cards_drawn",
        "deadline_set",
    ]
    assert events[0].data == {"seat": 0, "card": 14, "code": "SB", "discard_pile": 3}
    assert events[1].data == {"seat": 0, "reason": "discard"}
    assert events[2].data == {"seat": 1, "turn": 2}
    assert events[4].data["key"] == "t2" and events[4].data["seats"] == [1]
    v = t.view(1)
    assert v["discards"] == {"0": [[], [], [], ["SB"]], "1": [[], [], [], []]}
    assert v["turn"]["seat"] == 1
    assert v["hand"] == ["5", "6", "7", "8", "9"]
    assert v["hand_counts"] == {"0": 4, "1": 5}
    assert t.view(0)["legal_actions"] == []
    # any card on any pile: seat 1 stacks on its own pile 3 too
    end(t, 1, "9", 3)
    assert t.view(0)["discards"]["1"] == [[], [], [], ["9"]]


def test_legal_actions_are_complete_bodies():
    draw = ["SB", "2", "2", "12", "12"]
    t = table(stocks={0: ["1"]}, draw=draw)
    actions = t.view(0)["legal_actions"]
    plays = [a for a in actions if a["type"] == "play"]
    # every slot is empty: the stock's 1 and the hand's SB fit each of the four
    assert plays == [{"type": "play", "from": "stock", "pile": b} for b in range(4)] + [
        {"type": "play", "from": "hand", "card": "SB", "pile": b} for b in range(4)
    ]
    ends = [a for a in actions if a["type"] == "end"]
    # one body per distinct hand code and discard pile: SB 2 12 x 4
    assert ends == [
        {"type": "end", "card": c, "discard_pile": d} for c in ["SB", "2", "12"] for d in range(4)
    ]
    for action in actions:  # each one is accepted as it stands
        table(stocks={0: ["1"]}, draw=draw).act(0, action)


# --------------------------------------------------------------------------- the win


def test_the_first_empty_stock_wins_at_once():
    t = table(stocks={0: ["1", "2", "3", "4", "5"]}, draw=["9", "9", "9", "9", "9"])
    for _ in range(4):
        play(t, 0, "stock", 0)
    assert t.view(0)["stock"]["0"] == {"top": "5", "count": 1}
    events = play(t, 0, "stock", 0)
    assert [e.type for e in events] == ["card_played", "game_finished"]
    assert events[0].data["stock_top"] is None
    assert events[1].data == {"winners": [0], "losers": [], "places": [1, 2], "points": [0, 5]}
    assert t.state.status == "finished"
    assert t.state.scores == [0, 5]  # cards left in each stock
    for seat in (0, 1, None):
        v = t.view(seat)
        assert v["phase"] == "over"
        assert v["turn"] == {"seat": None, "stage": None, "deadline": None}
        assert v["result"] == {"winners": [0], "losers": []}
        assert v["legal_actions"] == []
        assert v["stock"]["0"] == {"top": None, "count": 0}
    refused(t, 0, {"type": "end", "card": "9", "discard_pile": 0}, "game_not_active")


def test_the_win_on_a_twelfth_card_completes_the_pile_first():
    draw = ["5", "6", "7", "8", "9", "10", "11", "12", "12", "12"]
    t = table(stocks={0: ["1", "2", "3", "4", "SB"]}, draw=draw)
    for _ in range(4):
        play(t, 0, "stock", 0)
    for code in ["5", "6", "7", "8", "9", "10", "11"]:
        play(t, 0, "hand", 0, card=code)
    events = play(t, 0, "stock", 0)  # the SB stands for the 12
    assert [e.type for e in events] == ["card_played", "pile_completed", "game_finished"]
    assert events[0].data["value"] == 12
    assert t.view(None)["completed"] == {"count": 12}


# --------------------------------------------------------------------------- timeouts


def test_timeout_puts_the_first_hand_card_on_the_first_empty_discard_pile():
    draw = ["1", "2", "3", "4", "5"] + ["6"] * 5 + ["7", "8", "9", "10", "11", "12", "7"]
    t = table(draw=draw, max_timeouts=10)
    events = t.timeout()
    assert [e.type for e in events] == [
        "turn_timed_out",
        "card_discarded",
        "turn_ended",
        "turn_started",
        "cards_drawn",
        "deadline_set",
    ]
    assert events[0].seat == 0
    assert events[1].data == {"seat": 0, "card": 10, "code": "1", "discard_pile": 0}
    # seat 0 keeps 2 3 4 5 and draws one card each later turn; seat 1 (all 6s) likewise
    for _ in range(8):
        t.timeout()
    v = t.view(None)
    # seat 0 timed out 5 times: 1 2 3 4 onto the empty piles 0-3, then the 5 onto pile 0
    assert v["discards"]["0"] == [["1", "5"], ["2"], ["3"], ["4"]]
    assert v["discards"]["1"] == [["6"], ["6"], ["6"], ["6"]]
    assert t.state.timeouts == [5, 4]
    assert not any(t.state.absent)


def test_absent_players_are_played_at_once():
    t = table(draw=["1", "2", "3", "4", "5"] + ["6"] * 5 + ["7", "8", "9"], max_timeouts=2)
    t.timeout()  # seat 0: 1 onto pile 0
    end(t, 1, "6", 0)
    events = t.timeout()  # seat 0's second: marked absent
    assert "player_absent" in [e.type for e in events]
    assert t.view(None)["turn"]["seat"] == 1
    events = end(t, 1, "6", 1)
    # seat 0's turn is played at once: 3 onto its first empty pile (2), back to seat 1
    types = [e.type for e in events]
    assert types.count("turn_timed_out") == 1 and types[-1] == "deadline_set"
    assert t.view(None)["discards"]["0"] == [["1"], ["2"], ["3"], []]
    assert t.view(None)["turn"]["seat"] == 1


# --------------------------------------------------------------------------- empty hands


def _empty_handed(t: Table) -> None:
    """Move every draw-pile card onto seat 1's discard pile 3 (under a 12): nothing to draw."""
    st = t.state
    st.discards[1][3] = st.draw[:]  # the draw pile's top (ids 10..) are below, a 12 on top
    st.draw = []


def test_empty_hand_and_nothing_to_draw_the_player_may_still_play_and_then_pass():
    draw = ["9", "10", "11", "9", "10", "12"]  # seat 0's hand; the 12 tops the draw pile
    t = table(stocks={0: ["1", "2"]}, draw=draw)
    t.check_fold = False  # the state is edited by hand below
    st = t.state
    _empty_handed(t)
    deck = st.deck
    st.discards[0][0] = st.hands[0][:]
    st.hands[0] = []
    assert deck[st.discards[1][3][-1]] == "12"
    v = t.view(0)
    assert v["hand"] == [] and v["deck"] == {"count": 0}
    assert {"type": "end"} in v["legal_actions"]
    events = rules.act(st, 0, {"type": "play", "from": "stock", "pile": 0}, t.ctx)
    assert [e.type for e in events] == ["card_played"]  # the 2 still fits: the turn goes on
    for e in events:
        rules.apply(st, e)
    events = rules.act(st, 0, {"type": "end"}, t.ctx)
    assert events[0].type == "turn_ended" and events[0].data == {"seat": 0, "reason": "passed"}
    assert events[1].data == {"seat": 1, "turn": 2}
    assert not of(events, "cards_drawn")  # nothing to draw for seat 1 either


def test_a_turn_ends_by_itself_when_the_hand_is_empty_and_nothing_fits():
    t = table(stocks={0: ["1"]}, draw=["9", "10", "11", "9", "10", "12"])
    t.check_fold = False
    st = t.state
    _empty_handed(t)
    st.discards[0][0] = st.hands[0][:]  # top: the 10
    st.hands[0] = []
    st.hands[1] = [st.discards[1][3].pop(0)]  # seat 1 holds one card (the bottom one)
    events = rules.act(st, 0, {"type": "play", "from": "stock", "pile": 0}, t.ctx)
    # the stock's next top is a 12, the discard top a 10, the hand empty: nothing more
    assert [e.type for e in events][:3] == ["card_played", "turn_ended", "turn_started"]
    assert events[1].data == {"seat": 0, "reason": "no_cards"}
    assert events[2].data["seat"] == 1


def test_stalemate_ends_the_game_with_the_fewest_stock_cards_winning():
    t = table(stocks={0: ["1"]}, draw=["9", "10", "11", "9", "10", "12"])
    t.check_fold = False
    st = t.state
    _empty_handed(t)
    st.discards[0][0] = st.hands[0][:]
    st.hands[0] = []
    for e in rules.act(st, 0, {"type": "play", "from": "stock", "pile": 0}, t.ctx):
        rules.apply(st, e)
    # seat 0 could not go on, and seat 1 (empty hand, a 12 on top of everything) cannot move
    assert st.status == "finished"
    assert st.result == {"winners": [0], "losers": []}  # 4 stock cards against 5
    assert t.events[-1].type != "game_finished"  # (the edited state is not stored)


def test_timeout_with_an_empty_hand_just_ends_the_turn():
    t = table(stocks={0: ["1", "2"]}, draw=["9", "10", "11", "9", "10", "12"])
    t.check_fold = False
    st = t.state
    _empty_handed(t)
    st.discards[0][0] = st.hands[0][:]
    st.hands[0] = []
    st.hands[1] = [st.discards[1][3].pop(0)]
    events = rules.timeout(st, st.turn_key, t.ctx)
    assert [e.type for e in events][:3] == ["turn_timed_out", "turn_ended", "turn_started"]
    assert events[1].data == {"seat": 0, "reason": "no_cards"}


# --------------------------------------------------------------------------- redaction


def test_event_views_hide_the_deck_and_other_hands():
    draw = ["1", "2", "SB", "9", "10", "5", "5", "7", "8", "11"]
    t = table(stocks={0: ["3"], 1: ["6"]}, draw=draw)
    end(t, 0, "10", 0)
    index = {e.type: i for i, e in reversed(list(enumerate(t.events)))}
    for seat in (0, 1, None):
        seen = t.event_views(seat)
        started = seen[index["round_started"]]
        assert started == {
            "round": 1,
            "stock_size": 5,
            "start_seat": 0,
            "stock": {"0": {"top": "3", "count": 5}, "1": {"top": "6", "count": 5}},
            "deck": {"count": 152},
        }
        drawn = [v for v, e in zip(seen, t.events, strict=True) if e.type == "cards_drawn"]
        assert drawn[0] == (
            t.events[index["cards_drawn"]].data if seat == 0 else {"seat": 0, "count": 5}
        )
        assert drawn[1] == (
            of(t.events, "cards_drawn")[1].data if seat == 1 else {"seat": 1, "count": 5}
        )
        text = json.dumps(seen)
        assert '"deck": [' not in text
    reveal = rules.reveal(t.state)
    assert reveal is not None
    assert reveal["hands"] == {"0": ["1", "2", "SB", "9"], "1": ["5", "5", "7", "8", "11"]}


def test_a_round_of_turns_without_a_card_moving_ends_the_game():
    # Seat 1 is absent with an empty hand but a 1 on a discard pile: its timed-out
    # turns never play it, and seat 0 cannot move at all. Without a rule this
    # would pass the turn between them for ever.
    t = table(draw=["9", "10", "11", "9", "10", "12", "1"])
    t.check_fold = False
    st = t.state
    _empty_handed(t)
    st.discards[0][0] = st.hands[0][:]  # seat 0: hand empty, tops 10 and a stock 12
    st.hands[0] = []
    st.discards[1][3].remove(16)  # the 1 (id 16) onto seat 1's discard pile 1
    st.discards[1][1] = [16]
    st.turn_seat = 1
    st.moved = False  # seat 1's (edited-in) turn has moved nothing so far
    st.absent[1] = True
    assert rules.get_ruleset("skipbo").actors(st) == [1]
    events = rules.timeout(st, st.turn_key, t.ctx)
    assert [(e.type, e.seat) for e in events] == [
        ("turn_timed_out", 1),
        ("turn_ended", 1),  # idle turn 1: nothing moved
        ("turn_started", 0),
        ("turn_ended", 0),  # idle turn 2 = seats: a whole round
        ("game_finished", None),
    ]
    # both stocks hold 5 cards: they share the win
    assert events[-1].data == {
        "winners": [0, 1],
        "losers": [],
        "places": [1, 1],
        "points": [5, 5],
        "reason": "stalemate",
    }
