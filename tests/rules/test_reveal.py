"""The round's reveal (games/rules/round_reveal.py): stacked decks, every figure computed by hand.

At a round's end every player -- and a non-player -- sees in ``state.reveal`` every
card of every field face up with its value, who called and whether the call
succeeded, the round's points and the game totals; it stays until the next
round's end. The replay's round-end step shows every card too.
"""

from __future__ import annotations

import copy

from games import rules
from tests.rules.helpers import call, discard, draw, look_all, table, turn


def reveal(t, seat=0):
    return t.view(seat)["reveal"]


def two_seat_call(t):
    """Both look, seat 0 calls, seat 1 draws and discards: the round ends."""
    look_all(t)
    call(t, 0)
    draw(t, 1)
    discard(t, 1)


def cards(*pairs):
    return [{"code": code, "value": value} for code, value in pairs]


def test_cabo_a_successful_call():
    # seat 0: 1 2 3 4 = 10; seat 1: 5 6 5 6 = 22; top 0; draws 6, 6
    t = table("cabo", [["1", "2", "3", "4"], ["5", "6", "5", "6"]], "0", ["6", "6"])
    assert reveal(t) is None  # no round has ended yet
    two_seat_call(t)  # the turn would return to the caller: the round ends
    expected = {
        "round": 1,
        "reason": "call",
        "fields": {
            "0": cards(("1", 1), ("2", 2), ("3", 3), ("4", 4)),
            "1": cards(("5", 5), ("6", 6), ("5", 5), ("6", 6)),
        },
        "calls": [{"seat": 0, "succeeded": True}],  # 10 is the lowest
        "totals": {"0": 10, "1": 22},
        "scores": {"0": 0, "1": 22},  # the lowest scores 0, the other their total
        "game_totals": {"0": 0, "1": 22},
        "winners": [0],
    }
    assert t.view(0)["round"] == 2  # the next round is dealt at once ...
    assert reveal(t, 0) == expected  # ... and the reveal shows the last one
    assert reveal(t, 1) == expected
    assert reveal(t, None) == expected  # public: a non-player sees it too


def test_a_view_hands_out_a_copy_of_the_reveal():
    # views never share the state's data: changing every part of one view's reveal
    # changes neither the state nor the next view
    t = table("cabo", [["1", "2", "3", "4"], ["5", "6", "5", "6"]], "0", ["6", "6"])
    two_seat_call(t)
    before = copy.deepcopy(reveal(t))
    r = reveal(t)
    r["fields"]["0"][0]["code"] = "13"
    r["fields"]["0"].append(None)
    r["fields"]["2"] = []
    r["calls"][0]["succeeded"] = None
    r["calls"].append({"seat": 1, "succeeded": True})
    for part in ("totals", "scores", "game_totals"):
        r[part]["0"] = 99
    r["winners"].append(1)
    r["round"] = 7
    assert reveal(t) == before
    assert t.state.reveal == before


def test_cabo_a_failed_call_costs_five():
    # seat 0: 5 6 5 6 = 22 calls; seat 1: 1 2 3 4 = 10
    t = table("cabo", [["5", "6", "5", "6"], ["1", "2", "3", "4"]], "0", ["6", "6"])
    two_seat_call(t)
    r = reveal(t)
    assert r["calls"] == [{"seat": 0, "succeeded": False}]
    assert r["totals"] == {"0": 22, "1": 10}
    assert r["scores"] == {"0": 27, "1": 0}  # 22 + 5; the lowest scores 0
    assert r["winners"] == [1]


def test_cabo_a_kamikaze_is_named_in_the_reveal():
    # seat 0: 0 1 1 2 = 4 calls; seat 1 holds exactly 12 13 12 13 = 50: a kamikaze
    t = table("cabo", [["0", "1", "1", "2"], ["12", "13", "12", "13"]], "3", ["6", "6"])
    two_seat_call(t)  # seat 1 keeps its field: the round ends
    r = reveal(t, None)
    assert r["kamikaze"] == 1
    assert r["totals"] == {"0": 4, "1": 50}
    assert r["scores"] == {"0": 50, "1": 0}  # 0 for the kamikaze, 50 for everyone else
    assert r["winners"] == [1]
    assert r["calls"] == [{"seat": 0, "succeeded": False}]  # the lowest total lost anyway


def test_cabo_no_kamikaze_key_without_one():
    # seat 1: 12 13 12 12 is not a kamikaze (the four values must be 12, 12, 13, 13)
    t = table("cabo", [["0", "1", "1", "2"], ["12", "13", "12", "12"]], "3", ["6", "6"])
    two_seat_call(t)
    r = reveal(t)
    assert "kamikaze" not in r
    assert r["scores"] == {"0": 0, "1": 49}


def test_pablo_a_failed_call_scores_25_and_the_reveal_lasts_until_the_next_round_end():
    # seat 0: K Q J 10 of spades = 13 + 12 + 11 + 10 = 46; seat 1: A 2 3 4 = 10
    fields = [["KS", "QS", "JS", "10S"], ["AS", "2S", "3S", "4S"]]
    round2 = [["2C", "2D", "2H", "3C"], ["3D", "3H", "4C", "4D"]]
    t = table(
        "pablo",
        fields,
        "5H",
        ["2H", "3H", "4H"],
        later=[[c for f in round2 for c in f] + ["5C", "6C", "6D", "6H"]],
    )
    look_all(t)
    draw(t, 0)
    discard(t, 0)  # 2H: no power
    call(t, 0)  # right after the own turn
    draw(t, 1)
    discard(t, 1)  # 3H
    draw(t, 0)
    discard(t, 0)  # 4H: the first caller completed one more turn: the round ends
    r = reveal(t, 1)
    assert r["fields"] == {
        "0": cards(("KS", 13), ("QS", 12), ("JS", 11), ("10S", 10)),
        "1": cards(("AS", 1), ("2S", 2), ("3S", 3), ("4S", 4)),
    }
    assert r["calls"] == [{"seat": 0, "succeeded": False}]  # 46 is not the lowest
    assert r["totals"] == {"0": 46, "1": 10}
    assert r["scores"] == {"0": 25, "1": 10}  # a failed call scores +25 instead of 46
    assert r["game_totals"] == {"0": 25, "1": 10}
    assert r["reason"] == "call" and r["round"] == 1
    # round 2 is played: the reveal of round 1 stays
    look_all(t)
    assert turn(t) == (1, "draw")  # the seat after the previous start player
    draw(t, 1)
    discard(t, 1)  # 5C
    assert reveal(t, 0) == r and reveal(t, None) == r
    # seat 1 calls, then the round plays out: round 2's reveal replaces round 1's
    call(t, 1)
    draw(t, 0)
    discard(t, 0)  # 6C
    draw(t, 1)
    discard(t, 1)  # 6D: seat 1's one more turn: round 2 ends
    r2 = reveal(t, 0)
    assert r2["round"] == 2
    # seat 0: 2 2 2 3 = 9; seat 1: 3 3 4 4 = 14; the caller (seat 1) is not lowest: 25
    assert r2["totals"] == {"0": 9, "1": 14}
    assert r2["calls"] == [{"seat": 1, "succeeded": False}]
    assert r2["scores"] == {"0": 9, "1": 25}
    assert r2["game_totals"] == {"0": 34, "1": 35}  # 25 + 9; 10 + 25


def test_tamalou_a_successful_call_scores_minus_five():
    # seat 0: A 2 3 KD = 1 + 2 + 3 + 0 = 6; seat 1: 9 9 10 10 = 38
    t = table("tamalou", [["AS", "2S", "3S", "KD"], ["9S", "9H", "10S", "10H"]], "5C", ["2H", "3H"])
    draw(t, 0)
    discard(t, 0)  # 2H, no power
    call(t, 0)
    draw(t, 1)
    discard(t, 1)  # 3H: the turn would return to the caller
    r = reveal(t)
    assert r["fields"]["0"] == cards(("AS", 1), ("2S", 2), ("3S", 3), ("KD", 0))
    assert r["calls"] == [{"seat": 0, "succeeded": True}]  # 6 < 38
    assert r["scores"] == {"0": -5, "1": 38}
    assert r["game_totals"] == {"0": -5, "1": 38}


def test_pablo50_a_call_tied_for_the_lowest_does_not_succeed():
    # seat 0: 2 3 4 5 = 14; seat 1: 2 3 4 5 = 14
    t = table("pablo-50", [["2S", "3S", "4S", "5S"], ["2H", "3H", "4H", "5H"]], "6C", ["7C", "8C"])
    look_all(t)
    draw(t, 0)
    discard(t, 0)  # 7C
    call(t, 0)
    draw(t, 1)
    discard(t, 1)  # 8C: the turn would return to the caller
    r = reveal(t)
    assert r["calls"] == [{"seat": 0, "succeeded": False}]
    assert r["totals"] == {"0": 14, "1": 14}
    assert r["scores"] == {"0": 19, "1": 14}  # tied for the lowest: + 5


def test_the_replays_round_end_step_shows_every_card():
    t = table("cabo", [["1", "2", "3", "4"], ["5", "6", "5", "6"]], "0", ["6", "6"])
    look_all(t, (0, 1))
    call(t, 0)
    draw(t, 1)
    discard(t, 1)
    index = next(i for i, e in enumerate(t.events) if e.type == "round_ended")
    at_end = rules.fold(t.events[: index + 1])  # the replay's step of the round's end
    for seat in (0, 1, None):
        view = rules.view(at_end, seat)
        assert view["fields"] == {"0": ["1", "2", "3", "4"], "1": ["5", "6", "5", "6"]}
        assert view["reveal"]["totals"] == {"0": 10, "1": 22}
    # one step earlier, seat 1 still does not know seat 0's slots 2 and 3
    before = rules.fold(t.events[:index])
    assert rules.view(before, 1)["fields"]["0"][2:] == ["?", "?"]
    assert rules.view(before, 1)["reveal"] is None
