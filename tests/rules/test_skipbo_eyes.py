"""Skip-Bo (RULES.md §7, §8): a second pair of eyes, stacked decks, public interface only.

Everything here goes through ``tests/rules/table.py``'s ``Table`` (act / timeout /
view / event_views), the API.md ``skipbo`` state object, ``state.scores`` /
``state.status`` and ``RulesError.code`` / ``.status``. No helper of the other
Skip-Bo test files is used.

A stacked deck is dealt as seat 0's stock (its first card is the stock's top),
seat 1's stock, ..., then the draw pile top first; the cards after the prefix are
shuffled by the seeded generator and never looked at. Most games here have two
seats and ``stock_size`` 5, so the draw pile starts with 162 - 2*5 = 152 cards.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from games import rules
from games.rules import RulesError
from games.rules.cards import skipbo_deck
from tests.rules.helpers import status_of
from tests.rules.table import Table

JSON = dict[str, Any]
CODES = [*(str(v) for v in range(1, 13)), "SB"]

# Stocks whose tops (9, 10) fit no building pile in these scenarios.
S0 = ["9", "12", "12", "12", "12"]
S1 = ["10", "11", "11", "11", "11"]


def game(
    stocks: Sequence[Sequence[str]], draw: Sequence[str] = (), *, size: int = 5, **options: Any
) -> Table:
    assert all(len(s) == size for s in stocks)
    prefix = [code for stock in stocks for code in stock] + list(draw)
    opts = {"start_seat": 0, "stock_size": size, **options}
    return Table("skipbo", seats=len(stocks), options=opts, decks=[prefix])


def play(t: Table, seat: int, source: str, pile: int, **body: Any) -> list[rules.Event]:
    return t.act(seat, {"type": "play", "from": source, "pile": pile, **body})


def end(t: Table, seat: int, card: str, discard_pile: int) -> list[rules.Event]:
    return t.act(seat, {"type": "end", "card": card, "discard_pile": discard_pile})


def refused(t: Table, seat: int, command: JSON, code: str, status: int = 409) -> None:
    before = t.state.copy()
    count = len(t.events)
    with pytest.raises(RulesError) as caught:
        t.act(seat, command)
    assert (caught.value.code, status_of(caught.value)) == (code, status), caught.value.detail
    assert len(t.events) == count
    assert t.state == before


def total_cards(view: JSON) -> int:
    """Every card on the table as one seat sees it (must always be 162)."""
    return (
        sum(s["count"] for s in view["stock"].values())
        + sum(view["hand_counts"].values())
        + sum(len(p) for piles in view["discards"].values() for p in piles)
        + sum(b["count"] for b in view["building"] if b)
        + view["deck"]["count"]
        + view["completed"]["count"]
    )


def slot(view: JSON, b: int) -> JSON | None:
    s = view["building"][b]
    return None if s is None else {"next": s["next"], "count": s["count"]}


# --------------------------------------------------------------------------- set-up


@pytest.mark.parametrize(
    ("seats", "size"),
    [(2, 30), (3, 30), (4, 30), (5, 20), (6, 20)],
)
def test_default_stock_size_by_seats(seats: int, size: int) -> None:
    t = Table("skipbo", seats=seats, options={"start_seat": 0})
    v = t.view(None)
    assert {s: v["stock"][str(s)]["count"] for s in range(seats)} == dict.fromkeys(
        range(seats), size
    )
    # draw pile: 162 - seats*size, minus the 5 seat 0 drew when its turn began
    assert v["deck"]["count"] == 162 - seats * size - 5
    assert t.state.scores == [size] * seats
    assert total_cards(v) == 162


@pytest.mark.parametrize(
    ("seats", "size", "ok"),
    [
        (3, 10, True),  # 162 - 30 = 132 left
        (2, 5, True),
        (4, 30, True),  # 162 - 120 = 42 >= 30
        (5, 26, True),  # 162 - 130 = 32
        (5, 27, False),  # 162 - 135 = 27 < 30
        (6, 22, True),  # 162 - 132 = 30: exactly enough
        (6, 23, False),  # 162 - 138 = 24 < 30
        (6, 30, False),  # 162 - 180 < 0
        (2, 4, False),  # below the 5-30 range
        (2, 31, False),  # above it
    ],
)
def test_stock_size_override(seats: int, size: int, ok: bool) -> None:
    options = {"start_seat": 0, "stock_size": size}
    if not ok:
        with pytest.raises(RulesError) as caught:
            Table("skipbo", seats=seats, options=options)
        assert status_of(caught.value) == 400
        assert caught.value.code == "invalid_option"
        return
    t = Table("skipbo", seats=seats, options=options)
    v = t.view(0)
    assert all(v["stock"][str(s)]["count"] == size for s in range(seats))
    assert v["deck"]["count"] == 162 - seats * size - 5
    assert total_cards(v) == 162


def test_hands_start_empty_and_fill_to_five_when_the_turn_begins() -> None:
    draw = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "SB"]
    t = game([S0, S1], draw)
    v0, v1 = t.view(0), t.view(1)
    assert v0["hand"] == ["1", "2", "3", "4", "5"]
    assert v1["hand"] == []  # seat 1's turn has not begun: still empty
    assert v0["hand_counts"] == {"0": 5, "1": 0}
    assert v0["deck"]["count"] == 152 - 5  # 147
    assert v1["stock"] == {"0": {"top": "9", "count": 5}, "1": {"top": "10", "count": 5}}
    assert v1["discards"] == {"0": [[], [], [], []], "1": [[], [], [], []]}
    assert v1["building"] == [None, None, None, None]
    assert v0["turn"]["seat"] == 0 and v0["turn"]["stage"] == "play"
    assert v0["phase"] == "turn" and v0["result"] is None
    assert v1["legal_actions"] == []

    end(t, 0, "3", 2)
    v1 = t.view(1)
    assert v1["discards"]["0"] == [[], [], ["3"], []]
    assert v1["turn"]["seat"] == 1
    assert v1["hand"] == ["6", "7", "8", "9", "10"]
    assert v1["hand_counts"] == {"0": 4, "1": 5}
    assert v1["deck"]["count"] == 147 - 5  # 142
    assert t.view(0)["hand"] == ["1", "2", "4", "5"]  # not refilled off turn

    end(t, 1, "6", 0)
    # seat 0 tops up from 4 to 5 with one card: the SB
    assert t.view(0)["hand"] == ["1", "2", "4", "5", "SB"]
    assert t.view(0)["deck"]["count"] == 142 - 1
    assert total_cards(t.view(None)) == 162


def test_hand_refilled_with_five_when_it_empties_mid_turn() -> None:
    draw = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    t = game([S0, S1], draw)
    for code in ["1", "2", "3", "4"]:
        play(t, 0, "hand", 0, card=code)
    v = t.view(0)
    assert v["hand"] == ["5"] and v["deck"]["count"] == 147  # no refill yet
    events = play(t, 0, "hand", 0, card="5")
    assert t.types(events) == ["card_played", "cards_drawn"]
    v = t.view(0)
    assert v["hand"] == ["6", "7", "8", "9", "10"]
    assert v["deck"]["count"] == 147 - 5
    assert slot(v, 0) == {"next": 6, "count": 5}
    assert v["turn"]["seat"] == 0  # still seat 0's turn
    # an integer card is read as its code
    play(t, 0, "hand", 0, card=6)
    assert slot(t.view(0), 0) == {"next": 7, "count": 6}


# --------------------------------------------------------------------------- building piles


def test_skipbo_first_middle_and_twelfth_and_a_completed_pile() -> None:
    draw = ["SB", "2", "SB", "4", "5"]  # ids 10-14
    draw += ["6", "7", "8", "9", "10"]  # ids 15-19
    draw += ["11", "SB", "1", "3", "12"]  # ids 20-24
    t = game([S0, S1], draw)

    events = play(t, 0, "hand", 0, card="SB")  # SB as a pile's first card: a 1
    assert events[0].data["value"] == 1
    v = t.view(1)
    assert v["building"][0] == {"next": 2, "count": 1, "top": "SB"}
    play(t, 0, "hand", 0, card="2")
    events = play(t, 0, "hand", 0, card="SB")  # a middle card: stands for 3
    assert events[0].data["value"] == 3
    assert slot(t.view(1), 0) == {"next": 4, "count": 3}
    for code in ["4", "5", "6", "7", "8", "9", "10", "11"]:
        play(t, 0, "hand", 0, card=code)
    v = t.view(1)
    assert slot(v, 0) == {"next": 12, "count": 11}
    assert v["completed"]["count"] == 0

    events = play(t, 0, "hand", 0, card="SB")  # the 12th
    assert t.types(events) == ["card_played", "pile_completed"]
    assert events[0].data["value"] == 12
    assert events[1].data == {"pile": 0, "cards": list(range(10, 22))}
    v = t.view(1)
    assert v["building"] == [None, None, None, None]  # the slot is empty again
    assert v["completed"]["count"] == 12
    assert t.view(0)["hand"] == ["1", "3", "12"]
    assert total_cards(v) == 162

    play(t, 0, "hand", 0, card="1")  # the emptied slot takes a new pile
    assert slot(t.view(1), 0) == {"next": 2, "count": 1}
    refused(t, 0, {"type": "play", "from": "hand", "card": "12", "pile": 1}, "card_does_not_fit")


def test_completed_stack_becomes_the_draw_pile_when_it_runs_out() -> None:
    # 2 seats x 30 leave 102 draw cards: 1..12 eight times (96), then six SBs.
    draw = [str(i % 12 + 1) for i in range(96)] + ["SB"] * 6
    left = Counter(skipbo_deck())
    left.subtract(draw)
    rest = [code for code in ["12", "11", "10", "9", *CODES[:8], "SB"] for _ in range(left[code])]
    assert len(rest) == 60
    t = game([rest[:30], rest[30:]], draw, size=30)
    assert t.view(0)["deck"]["count"] == 102 - 5

    for i in range(96):  # seat 0 plays its whole draw pile onto building pile 0
        play(t, 0, "hand", 0, card=str(i % 12 + 1))
        v = t.view(None)
        if i % 12 == 11:
            assert v["building"][0] is None
            assert v["completed"]["count"] == i + 1
        assert total_cards(v) == 162
    # fills of 5: the 20th held ids 155-159 (the last 12 and four SBs); 2 SBs are left
    v = t.view(0)
    assert v["hand"] == ["SB"] * 4
    assert v["deck"]["count"] == 2
    assert v["completed"]["count"] == 96
    assert t.state.status == "active"

    count = len(t.events)
    end(t, 0, "SB", 0)
    new = t.events[count:]
    types = t.types(new)
    i = types.index("draw_pile_reshuffled")
    assert types[i - 1] == types[i + 1] == "cards_drawn"
    assert len(new[i - 1].data["cards"]) == 2  # what was left
    assert len(new[i + 1].data["cards"]) == 3  # the rest from the new pile
    v = t.view(1)
    assert v["hand_counts"] == {"0": 3, "1": 5}
    assert v["deck"]["count"] == 96 - 3
    assert v["completed"]["count"] == 0
    assert total_cards(v) == 162  # 60 stock + 8 hands + 1 discard + 93 deck

    views = {seat: t.event_views(seat)[len(t.events) - len(new) + i] for seat in (0, 1, None)}
    assert views == {key: {"count": 96} for key in (0, 1, None)}  # no order, not even to 1
    later = t.event_views(0)[len(t.events) - len(new) + i + 1]
    assert later == {"seat": 1, "count": 3}


# --------------------------------------------------------------------------- sources


def test_only_the_top_of_a_discard_pile_is_playable() -> None:
    draw = ["1", "5", "6", "7", "8"]  # seat 0, turn 1
    draw += ["6", "7", "8", "9", "10"]  # seat 1, turn 1
    draw += ["11", "11", "12"]  # one card each at turns 2, 2, 3
    t = game([S0, S1], draw)
    end(t, 0, "1", 0)
    end(t, 1, "6", 0)
    end(t, 0, "5", 0)
    end(t, 1, "7", 0)
    v = t.view(0)
    assert v["discards"]["0"] == [["1", "5"], [], [], []]  # bottom -> top
    assert v["hand"] == ["6", "7", "8", "11", "12"]
    legal = v["legal_actions"]
    assert [a for a in legal if a["type"] == "play"] == []  # the 1 under the 5 is not offered
    assert len(legal) == 5 * 4  # only ends: 5 distinct codes x 4 discard piles
    body = {"type": "play", "from": "discard", "discard_pile": 0, "pile": 0}
    refused(t, 0, body, "card_does_not_fit")
    refused(t, 0, {**body, "card": "1"}, "illegal_action")  # the 1 is not the top
    refused(t, 0, {**body, "discard_pile": 1}, "empty_source")


def test_a_discard_pile_top_is_played() -> None:
    draw = ["1", "5", "6", "7", "8", "6", "7", "8", "9", "10", "11"]
    t = game([S0, S1], draw)
    end(t, 0, "1", 3)
    end(t, 1, "6", 0)
    assert {"type": "play", "from": "discard", "discard_pile": 3, "pile": 2} in t.view(0)[
        "legal_actions"
    ]
    events = play(t, 0, "discard", 2, discard_pile=3, card="1")
    assert events[0].data["from"] == "discard" and events[0].data["discard_pile"] == 3
    v = t.view(1)
    assert v["discards"]["0"] == [[], [], [], []]
    assert v["building"][2] == {"next": 2, "count": 1, "top": "1"}


def test_stock_top_revealed_after_a_stock_play() -> None:
    t = game([["1", "2", "7", "12", "12"], S1], ["9", "9", "9", "9", "9"])
    v1 = t.view(1)
    assert v1["stock"]["0"] == {"top": "1", "count": 5}
    refused(t, 0, {"type": "play", "from": "stock", "pile": 0, "card": "2"}, "illegal_action")
    events = play(t, 0, "stock", 0)
    assert events[0].data["stock_top"] == {"card": 1, "code": "2"}
    assert t.event_views(1)[-len(events)]["stock_top"] == {"card": 1, "code": "2"}
    assert t.view(1)["stock"]["0"] == {"top": "2", "count": 4}
    assert t.state.scores == [4, 5]
    refused(t, 0, {"type": "play", "from": "stock", "pile": 1}, "card_does_not_fit")
    play(t, 0, "stock", 0, card="2")
    assert t.view(1)["stock"]["0"] == {"top": "7", "count": 3}
    assert slot(t.view(1), 0) == {"next": 3, "count": 2}
    assert t.state.scores == [3, 5]


@pytest.mark.parametrize("d", [0, 1, 2, 3])
def test_end_onto_any_discard_pile_passes_the_turn(d: int) -> None:
    t = game([S0, S1], ["3", "4", "5", "6", "7", "8", "9", "10", "11", "12"])
    events = end(t, 0, "5", d)
    assert t.types(events)[:3] == ["card_discarded", "turn_ended", "turn_started"]
    assert events[1].data == {"seat": 0, "reason": "discard"}
    piles: list[list[str]] = [[], [], [], []]
    piles[d] = ["5"]
    v = t.view(1)
    assert v["discards"]["0"] == piles
    assert v["turn"]["seat"] == 1
    assert v["hand"] == ["8", "9", "10", "11", "12"]
    assert t.view(0)["legal_actions"] == []


# --------------------------------------------------------------------------- the win


def test_first_empty_stock_wins_at_once() -> None:
    t = game([["1", "2", "3", "4", "5"], S1], ["9", "9", "9", "9", "9"])
    for n in range(1, 5):
        play(t, 0, "stock", 0)
        assert t.state.scores == [5 - n, 5]
    events = play(t, 0, "stock", 0)
    assert t.types(events) == ["card_played", "game_finished"]
    assert events[0].data["stock_top"] is None
    assert t.state.status == "finished"
    assert t.state.scores == [0, 5]
    for seat in (0, 1, None):
        v = t.view(seat)
        assert v["result"] == {"winners": [0], "losers": []}
        assert v["phase"] == "over"
        assert v["turn"] == {"seat": None, "stage": None, "deadline": None}
        assert v["legal_actions"] == []
        assert v["stock"]["0"] == {"top": None, "count": 0}
    refused(t, 1, {"type": "end", "card": "9", "discard_pile": 0}, "game_not_active")


def test_win_on_a_twelfth_completes_the_pile_first() -> None:
    draw = ["1", "2", "3", "4", "5", "6", "7", "SB", "SB", "SB"]
    t = game([["8", "9", "10", "11", "12"], S1], draw)
    for code in ["1", "2", "3", "4", "5", "6", "7"]:
        play(t, 0, "hand", 1, card=code)
    for _ in range(4):  # 8, 9, 10, 11 from the stock
        play(t, 0, "stock", 1)
    assert t.state.scores == [1, 5]
    events = play(t, 0, "stock", 1)
    assert t.types(events) == ["card_played", "pile_completed", "game_finished"]
    assert events[2].data["winners"] == [0]
    assert t.view(1)["result"] == {"winners": [0], "losers": []}


# --------------------------------------------------------------------------- refusals


def test_refusals_change_nothing() -> None:
    t = game([S0, S1], ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"])
    hand = {"type": "play", "from": "hand"}
    # out of turn
    refused(t, 1, {**hand, "card": "6", "pile": 0}, "not_your_turn")
    refused(t, 1, {"type": "play", "from": "stock", "pile": 0}, "not_your_turn")
    refused(t, 1, {"type": "end", "card": "6", "discard_pile": 0}, "not_your_turn")
    refused(t, 1, {"type": "end"}, "not_your_turn")
    # never valid: 400 before the turn is looked at
    refused(t, 1, {**hand, "card": "1", "pile": 4}, "no_such_pile", 400)
    refused(t, 0, {**hand, "card": "1", "pile": -1}, "no_such_pile", 400)
    refused(
        t, 0, {"type": "play", "from": "discard", "discard_pile": 4, "pile": 0}, "no_such_pile", 400
    )
    refused(t, 0, {"type": "end", "card": "1", "discard_pile": 5}, "no_such_pile", 400)
    refused(t, 0, {"type": "play", "from": "deck", "pile": 0}, "invalid", 400)
    refused(t, 0, {**hand, "card": "13", "pile": 0}, "invalid", 400)
    refused(t, 0, {**hand, "card": "1"}, "invalid", 400)  # no pile
    refused(t, 0, {**hand, "card": "1", "pile": "0"}, "invalid", 400)
    refused(t, 0, {**hand, "pile": 0}, "invalid", 400)  # no card
    refused(t, 0, {"type": "draw", "source": "deck"}, "not_in_ruleset")
    # well-formed but not now
    refused(t, 0, {**hand, "card": "7", "pile": 0}, "card_not_in_hand")
    refused(t, 0, {**hand, "card": "2", "pile": 0}, "card_does_not_fit")
    refused(t, 0, {"type": "play", "from": "stock", "pile": 0}, "card_does_not_fit")
    refused(t, 0, {"type": "play", "from": "discard", "discard_pile": 0, "pile": 0}, "empty_source")
    refused(t, 0, {"type": "end"}, "illegal_action")  # holding cards
    refused(t, 0, {"type": "end", "card": "7", "discard_pile": 0}, "card_not_in_hand")
    play(t, 0, "hand", 0, card="1")
    refused(t, 0, {**hand, "card": "1", "pile": 0}, "card_not_in_hand")  # played already
    refused(t, 0, {**hand, "card": "3", "pile": 0}, "card_does_not_fit")  # needs a 2


# --------------------------------------------------------------------------- legal_actions


def candidates(view: JSON) -> list[JSON]:
    out: list[JSON] = []
    for b in range(4):
        out.append({"type": "play", "from": "stock", "pile": b})
        out += [{"type": "play", "from": "discard", "discard_pile": d, "pile": b} for d in range(4)]
        out += [{"type": "play", "from": "hand", "card": c, "pile": b} for c in CODES]
    out += [{"type": "end", "card": c, "discard_pile": d} for c in CODES for d in range(4)]
    out.append({"type": "end"})
    return out


def check_legal(t: Table, seat: int) -> list[JSON]:
    """Every legal_actions entry is accepted; every other candidate refused."""
    legal = t.view(seat)["legal_actions"]
    assert len({json.dumps(a, sort_keys=True) for a in legal}) == len(legal)
    for body in candidates(t.view(seat)):
        try:
            rules.act(t.state, seat, body, t.ctx)
        except RulesError:
            assert body not in legal, body
        else:
            assert body in legal, body
    return legal


def test_every_legal_action_is_accepted_and_nothing_else() -> None:
    t = Table("skipbo", seats=3, options={"start_seat": 0, "stock_size": 8}, seed=7)
    for _ in range(60):
        if t.state.status != "active":
            break
        seat = t.view(None)["turn"]["seat"]
        legal = check_legal(t, seat)
        other = (seat + 1) % 3
        assert t.view(other)["legal_actions"] == []
        t.act(seat, legal[0])  # plays first (stock, discards, hand), then an end
        assert total_cards(t.view(None)) == 162


# --------------------------------------------------------------------------- hidden


def test_nothing_hidden_leaks_to_other_seats() -> None:
    t = game([S0, S1], ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"])
    play(t, 0, "hand", 0, card="1")
    end(t, 0, "4", 1)
    allowed = {
        "round", "phase", "turn", "hand", "hand_counts", "stock", "discards",
        "building", "deck", "completed", "legal_actions", "rounds", "result",
    }  # fmt: skip
    for seat in (0, 1, None):
        v = t.view(seat)
        assert set(v) <= allowed
        assert all(set(s) == {"top", "count"} for s in v["stock"].values())
        assert set(v["deck"]) == {"count"}
    assert t.view(None)["hand"] == []
    assert t.view(0)["hand"] == ["2", "3", "5"]
    assert t.view(1)["hand"] == ["6", "7", "8", "9", "10"]

    kinds = t.types()
    for seat in (0, 1, None):
        for kind, data in zip(kinds, t.event_views(seat), strict=True):
            if kind == "round_started":
                assert data == {
                    "round": 1,
                    "stock_size": 5,
                    "start_seat": 0,
                    "stock": {"0": {"top": "9", "count": 5}, "1": {"top": "10", "count": 5}},
                    "deck": {"count": 152},
                }
            if kind == "cards_drawn" and data["seat"] != seat:
                assert data == {"seat": data["seat"], "count": 5}
            if kind == "cards_drawn" and data["seat"] == seat:
                assert len(data["cards"]) == 5
            assert "order" not in data
    own = [d for k, d in zip(kinds, t.event_views(1), strict=True) if k == "cards_drawn"]
    assert [c["code"] for c in own[1]["cards"]] == ["6", "7", "8", "9", "10"]


# --------------------------------------------------------------------------- timeouts


def test_timeout_discards_the_first_hand_card_onto_the_first_empty_pile() -> None:
    draw = ["3", "4", "5", "6", "7"]  # seat 0, turn 1
    draw += ["8", "9", "10", "11", "12"]  # seat 1, turn 1
    draw += ["2", "SB", "1", "SB", "SB", "SB", "SB"]  # one card a turn from then on
    t = game([S0, S1], draw)

    events = t.timeout()
    assert t.types(events)[:4] == ["turn_timed_out", "card_discarded", "turn_ended", "turn_started"]
    assert events[0].seat == 0
    assert events[1].data["code"] == "3" and events[1].data["discard_pile"] == 0
    assert t.view(1)["discards"]["0"] == [["3"], [], [], []]
    assert t.view(1)["turn"]["seat"] == 1
    end(t, 1, "8", 0)

    assert t.view(0)["hand"] == ["4", "5", "6", "7", "2"]
    t.timeout()  # 4, the first card drawn, onto pile 1 (pile 0 is taken)
    assert t.view(1)["discards"]["0"] == [["3"], ["4"], [], []]
    end(t, 1, "9", 0)

    end(t, 0, "6", 3)  # by hand: piles 0, 1, 3 taken
    end(t, 1, "10", 0)

    assert t.view(0)["hand"] == ["5", "7", "2", "1", "SB"]
    t.timeout()  # 5 onto pile 2, the first empty one
    assert t.view(1)["discards"]["0"] == [["3"], ["4"], ["5"], ["6"]]
    end(t, 1, "11", 0)

    assert t.view(0)["hand"][0] == "7"
    t.timeout()  # no empty pile: onto pile 0
    assert t.view(1)["discards"]["0"] == [["3", "7"], ["4"], ["5"], ["6"]]
    assert t.view(1)["turn"]["seat"] == 1
    assert total_cards(t.view(None)) == 162


# --------------------------------------------------------------------------- nothing to draw


@pytest.mark.parametrize("way", ["no_cards", "passed", "timeout"])
def test_empty_hand_and_nothing_to_draw(way: str) -> None:
    # 6 seats x 22 leave exactly 30 draw cards: six first fills of 5 empty the pile.
    draw = ["1", "2", "3", "4", "5"]  # seat 0's first hand; the other 25 are shuffled
    left = Counter(skipbo_deck())
    left.subtract([*draw, "6"])
    filler = [code for code in ["12", "11", "10", *CODES[:9], "SB"] for _ in range(left[code])]
    stocks = [["6", *filler[:21]]] + [filler[21 + 22 * i : 43 + 22 * i] for i in range(5)]
    t = game(stocks, draw, size=22)
    assert t.view(0)["deck"]["count"] == 30 - 5
    for code in ["1", "2", "3", "4"]:
        play(t, 0, "hand", 0, card=code)
    end(t, 0, "5", 0)  # seat 0's hand is empty now
    for seat in range(1, 6):
        end(t, seat, t.view(seat)["hand"][0], 0)
    v = t.view(0)
    assert v["turn"]["seat"] == 0
    assert v["deck"]["count"] == 0 and v["completed"]["count"] == 0
    assert v["hand"] == [] and v["hand_counts"]["0"] == 0  # nothing was drawn
    assert total_cards(v) == 162
    if way == "timeout":
        events = t.timeout()
        assert t.types(events)[:3] == ["turn_timed_out", "turn_ended", "turn_started"]
        assert events[1].data == {"seat": 0, "reason": "no_cards"}
        assert t.view(0)["discards"]["0"] == [["5"], [], [], []]
        return
    # the discard top 5 fits building pile 0 (next 5); nothing else does
    assert v["legal_actions"] == [
        {"type": "play", "from": "discard", "discard_pile": 0, "pile": 0},
        {"type": "end"},
    ]
    play(t, 0, "discard", 0, discard_pile=0)
    v = t.view(0)
    assert v["legal_actions"] == [{"type": "play", "from": "stock", "pile": 0}, {"type": "end"}]
    if way == "passed":
        events = t.act(0, {"type": "end"})
    else:
        events = play(t, 0, "stock", 0)  # the 6; the new top 12 fits nowhere: turn over
        assert t.types(events)[0] == "card_played"
        events = events[1:]
        assert t.view(1)["stock"]["0"] == {"top": "12", "count": 21}
    assert t.types(events)[:2] == ["turn_ended", "turn_started"]
    assert events[0].data == {"seat": 0, "reason": way}
    assert t.view(1)["turn"]["seat"] == 1
    assert total_cards(t.view(None)) == 162
