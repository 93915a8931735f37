"""Stacked-deck scenarios for ``cabo`` (RULES.md §2, §6, §8).

Cards are their values 0-13 (two each of 0 and 13, four each of 1-12). A turn
is one of: take the discard top and replace, draw and replace one or more equal
cards (or discard, 7/8 peek, 9/10 spy, 11/12 blind swap, all optional), or call.
The arithmetic of every expectation is written beside it.
"""

from __future__ import annotations

import pytest

from games import rules
from games.rules import Malformed
from tests.rules import helpers
from tests.rules.helpers import (
    assert_hidden,
    assert_public_only,
    call,
    check_legal,
    codes_seen,
    deal,
    discard,
    draw,
    draw_discard,
    field,
    held,
    look_all,
    refused,
    replace,
    scores,
    serial,
    skip,
    table,
    top,
    totals,
    turn,
)
from tests.rules.table import Table

R = "cabo"
A = ["1", "2", "3", "4"]  # 10
B = ["5", "6", "5", "6"]  # 22
C = ["8", "10", "8", "10"]  # 36
DRAWS = ["6", "6", "3", "3"]  # no power


def playing(fields, top_card="0", draws=DRAWS, options=None, looks=(0, 1)):
    t = table(R, fields, top_card, draws, options=options)
    look_all(t, looks)
    return t


def play_out(t: Table, caller: int, max_turns: int = 30) -> None:
    """Non-callers draw and discard; ``caller`` calls instead of their first turn."""
    helpers.play_out(t, caller, max_turns, call_replaces_turn=True)


# --------------------------------------------------------------------------- deal, call


def test_deal_setup_and_call_instead_of_drawing_caller_lowest_scores_0():
    t = table(R, [A, B], "0", DRAWS)
    v = t.view(0)
    assert v["phase"] == "setup" and v["deck"]["count"] == 43  # 52 - 8 - 1
    look_all(t, (1, 2))
    assert field(t, 0, 0) == ["?", "2", "3", "?"]
    assert field(t, 1, 1) == ["?", "6", "5", "?"]
    assert turn(t) == (0, "draw")
    refused(t, 1, {"type": "call"}, {"not_your_turn", "cannot_call"})
    call(t, 0)  # the call is seat 0's whole turn
    assert turn(t) == (1, "draw")
    assert t.view(1)["called_by"] == [0]
    draw(t, 1)
    refused(t, 1, {"type": "call"}, {"cannot_call", "wrong_stage", "already_called"})
    discard(t, 1)  # 6; the turn would return to the caller: over
    assert totals(t, 1) == {0: 10, 1: 22}  # 1 + 2 + 3 + 4; 5 + 6 + 5 + 6
    assert scores(t, 1) == {0: 0, 1: 22}
    assert t.state.scores == [0, 22]
    look_all(t)
    assert turn(t) == (0, "draw")  # the winner of round 1 starts round 2


def test_one_call_per_round():
    t = playing([A, B, ["7", "7", "8", "8"]])
    call(t, 0)
    refused(t, 1, {"type": "call"}, "already_called")
    draw_discard(t, 1)
    refused(t, 2, {"type": "call"}, "already_called")


def test_no_call_after_drawing():
    t = playing([A, B])
    draw(t, 0)
    refused(t, 0, {"type": "call"}, {"cannot_call", "wrong_stage"})


def test_no_throwing_in_cabo():
    t = playing([["0", "2", "3", "4"], B])
    refused(t, 0, {"type": "throw", "seat": 0, "position": 0, "onto": 1}, "not_in_ruleset")


# --------------------------------------------------------------------------- discard top, replace


def test_the_discard_top_must_replace_one_slot():
    t = playing([A, B], top_card="9")
    draw(t, 0, "discard")
    assert held(t, 1) == "9" and held(t, None) == "9"
    refused(t, 0, {"type": "discard"}, None, 409)
    refused(t, 0, {"type": "replace", "positions": [0, 1]}, None, None)
    replace(t, 0, 2)  # the 3 goes face up
    assert top(t) == "3" and serial(t) == 2
    assert field(t, 1, 0) == ["?", "?", "9", "?"]  # the 9 was face up: everyone knows it
    assert field(t, 0, 0) == ["1", "2", "9", "?"]
    assert turn(t) == (1, "draw")  # a card taken from the pile has no power


def test_replace_several_equal_cards():
    t = playing([["5", "5", "5", "9"], C], draws=["2"])
    draw(t, 0)  # 2
    replace(t, 0, 0, 1, 2)
    assert field(t, 0, 0) == ["2", None, None, "?"]
    assert field(t, 1, 0) == ["?", None, None, "?"]
    assert t.view(0)["discard"]["count"] == 4  # 0 + three 5s
    assert turn(t) == (1, "draw")


def test_replace_several_wrong_shows_them_and_discards_the_drawn_card_without_power():
    t = playing([["5", "5", "7", "9"], B], draws=["7"])
    draw(t, 0)  # 7: a peek card
    replace(t, 0, 0, 3)  # 5 and 9: not equal
    assert field(t, 1, 0) == ["5", "?", "?", "9"]  # shown to everyone, they stay
    assert field(t, 0, 0) == ["5", "5", "?", "9"]
    assert len(field(t, 0, 0)) == 4  # no new slot in cabo
    assert top(t) == "7" and serial(t) == 2  # the drawn card went on the pile
    assert turn(t) == (1, "draw")  # without its power


def test_replace_single_slot_and_errors():
    t = playing([A, B], draws=["0", "6"])
    draw(t, 0)
    refused(t, 0, {"type": "replace", "positions": [4]}, "no_such_slot")
    replace(t, 0, 3)  # the 4 goes face up
    assert top(t) == "4"
    assert field(t, 0, 0) == ["1", "2", "?", "0"]


# --------------------------------------------------------------------------- powers


def test_peek_7_and_8_spy_9_and_10_all_optional():
    t = playing([A, B], draws=["7", "9", "8", "10"])
    draw(t, 0)
    discard(t, 0)  # 7
    assert turn(t) == (0, "power")
    t.act(0, {"type": "peek", "position": 3})
    assert field(t, 0, 0) == ["1", "2", "?", "4"]
    assert_hidden(t, 1, 0, range(4))
    draw(t, 1)
    discard(t, 1)  # 9
    t.act(1, {"type": "spy", "seat": 0, "position": 2})
    assert field(t, 1, 0) == ["?", "?", "3", "?"]
    assert field(t, 0, 0) == ["1", "2", "?", "4"]
    draw(t, 0)
    discard(t, 0)  # 8
    assert turn(t) == (0, "power")
    skip(t, 0)
    draw(t, 1)
    discard(t, 1)  # 10
    assert turn(t) == (1, "power")
    skip(t, 1)
    assert turn(t) == (0, "draw")
    assert_public_only(t)


def test_swap_11_and_12_blind_and_optional():
    t = playing([A, B], draws=["11", "12"])
    draw(t, 0)
    discard(t, 0)  # 11
    t.act(0, {"type": "swap", "position": 0, "seat": 1, "their_position": 3})  # 1 <-> 6
    assert field(t, 0, 0) == ["?", "2", "?", "?"]  # blind: the 6 stays unknown
    assert field(t, 0, 1) == ["?", "?", "?", "1"]  # seat 0 knew the 1
    assert field(t, 1, 1) == ["5", "6", "?", "?"]
    draw(t, 1)
    discard(t, 1)  # 12
    assert turn(t) == (1, "power")
    skip(t, 1)
    assert turn(t) == (0, "draw")


def test_others_may_swap_with_the_caller():
    f1 = ["12", "1", "2", "3"]  # 18
    t = playing([A, f1], draws=["11"])
    call(t, 0)
    draw(t, 1)
    discard(t, 1)  # 11
    t.act(1, {"type": "swap", "position": 0, "seat": 0, "their_position": 0})  # 12 <-> 1
    # seat 0: 12 + 2 + 3 + 4 = 21, not lowest: 21 + 5; seat 1: 1 + 1 + 2 + 3 = 7 -> 0
    assert totals(t, 1) == {0: 21, 1: 7}
    assert scores(t, 1) == {0: 26, 1: 0}


# --------------------------------------------------------------------------- scoring


def test_caller_tied_for_lowest_scores_0_others_tied_score_their_totals():
    t = playing([A, ["4", "3", "2", "1"], ["12", "12", "12", "11"]])
    play_out(t, caller=0)
    # 10, 10, 47: the caller is tied for the lowest: 0; seat 1 keeps its 10
    assert totals(t, 1) == {0: 10, 1: 10, 2: 47}
    assert scores(t, 1) == {0: 0, 1: 10, 2: 47}


def test_caller_not_lowest_plus_5_and_tied_lowest_all_score_0():
    t = playing([["12", "12", "12", "11"], A, ["4", "3", "2", "1"]])
    play_out(t, caller=0)
    # caller 47 + 5 = 52; seats 1 and 2 tie on 10 for the lowest: both 0
    assert scores(t, 1) == {0: 52, 1: 0, 2: 0}


def test_kamikaze_scores_0_and_everyone_else_50():
    t = playing([["0", "0", "1", "1"], ["12", "13", "12", "13"]], top_card="9")
    play_out(t, caller=0)
    # seat 1 holds exactly 12, 12, 13, 13: 0 for seat 1, 50 for all others, caller or not
    assert totals(t, 1) == {0: 2, 1: 50}
    assert scores(t, 1) == {0: 50, 1: 0}


def test_no_kamikaze_with_other_cards():
    t = playing([A, ["12", "13", "12", "12"]])
    play_out(t, caller=0)
    assert scores(t, 1) == {0: 0, 1: 49}  # 12 + 13 + 12 + 12


def test_kamikaze_is_judged_on_the_final_field():
    # seat 1 is dealt 12 12 13 13 but replaces a 12 before the round ends: no kamikaze
    t = playing([A, ["12", "12", "13", "13"]], draws=["11", "6"])
    call(t, 0)
    draw(t, 1)  # 11
    replace(t, 1, 0)  # 12 -> 11: 11 12 13 13 = 49
    assert scores(t, 1) == {0: 0, 1: 49}


# --------------------------------------------------------------------------- totals, game end


def test_total_of_exactly_100_is_reduced_to_50_and_the_kamikaze_player_starts():
    kami = ["12", "12", "13", "13"]
    r = deal([kami, B], "0", DRAWS)
    t = Table(R, 2, {"start_seat": 0}, decks=[r, r])
    look_all(t)
    play_out(t, caller=1)  # seat 0 plays, seat 1 calls, seat 0 plays
    assert scores(t, 1) == {0: 0, 1: 50}
    look_all(t)
    assert turn(t) == (0, "draw")  # the kamikaze player won round 1
    play_out(t, caller=1)
    assert scores(t, 2) == {0: 0, 1: 50}  # the recorded round score
    assert t.state.scores == [0, 50]  # 50 + 50 = 100 -> 50
    assert t.state.status == "active"


def test_game_ends_past_100():
    kami = ["12", "12", "13", "13"]
    r1 = deal([kami, B], "0", DRAWS)
    r2 = deal([A, ["12", "12", "12", "11"]], "0", DRAWS)
    t = Table(R, 2, {"start_seat": 0}, decks=[r1, r2])
    look_all(t)
    play_out(t, caller=1)
    assert t.state.scores == [0, 50]
    look_all(t)
    play_out(t, caller=1)  # seat 0 plays, seat 1 calls, seat 0 plays
    # seat 1: 47, not lowest: 52 -> 50 + 52 = 102 > 100; seat 0 lowest: 0
    assert scores(t, 2) == {0: 0, 1: 52}
    assert t.state.scores == [0, 102]
    assert t.state.status == "finished"
    assert t.view(1)["result"] == {"winners": [0], "losers": []}


def test_start_player_is_the_previous_winner_ties_go_to_the_lower_game_total():
    fives = ["5", "5", "5", "5"]  # 20: seat 0 calls every round and never is lowest
    r1 = deal([fives, ["3", "3", "4", "4"], ["1", "1", "2", "2"]], "12", DRAWS)
    r2 = deal([fives, ["0", "0", "1", "1"], ["1", "1", "2", "2"]], "12", DRAWS)
    r3 = deal([fives, A, ["4", "3", "2", "1"]], "12", DRAWS)
    t = Table(R, 3, {"start_seat": 0}, decks=[r1, r2, r3])
    look_all(t)
    play_out(t, caller=0)
    assert scores(t, 1) == {0: 25, 1: 14, 2: 0}  # 20 + 5; 14; 6 is lowest
    look_all(t)
    assert turn(t) == (2, "draw")  # seat 2 won round 1
    play_out(t, caller=0)
    assert scores(t, 2) == {0: 25, 1: 0, 2: 6}  # 0 + 0 + 1 + 1 = 2 lowest
    look_all(t)
    assert turn(t) == (1, "draw")
    play_out(t, caller=0)
    assert scores(t, 3) == {0: 25, 1: 0, 2: 0}  # 10 and 10 tie for the lowest
    assert t.state.scores == [75, 14, 6]
    look_all(t)
    assert turn(t) == (2, "draw")  # the tie goes to the lower game total: 6 < 14


def test_cabo_has_no_options_of_its_own():
    for options in ({"jokers": 2}, {"decks": 2}, {"advanced": True}):
        with pytest.raises(Malformed) as caught:
            rules.create(R, seats=2, options=options, turn_timeout=60, creator="a")
        assert caught.value.code == "invalid_option"
    with pytest.raises(Malformed):
        rules.create(R, seats=9, options={}, turn_timeout=60, creator="a")


# --------------------------------------------------------------------------- timeouts, memory


def test_timeouts_per_phase():
    t = table(R, [A, B], "9", ["7", "11", "6"])
    t.act(1, {"type": "look", "positions": [2, 3]})
    events = t.timeout()  # setup: seat 0 looks at 0 and 1
    assert [e.seat for e in events if e.type == "turn_timed_out"] == [0]
    assert field(t, 0, 0) == ["1", "2", "?", "?"]
    assert field(t, 1, 1) == ["?", "?", "5", "6"]
    assert turn(t) == (0, "draw")
    t.timeout()  # nothing drawn: draw the 7 and discard it, no peek
    assert top(t) == "7" and turn(t) == (1, "draw")
    draw(t, 1)
    discard(t, 1)  # 11
    assert turn(t) == (1, "power")
    t.timeout()  # the optional swap is skipped
    assert turn(t) == (0, "draw")
    assert field(t, 1, 0) == ["?", "?", "?", "?"]
    draw(t, 0)  # 6
    t.timeout()  # holding: discard it
    assert top(t) == "6" and turn(t) == (1, "draw")


def test_timeout_holding_the_discard_top_discards_it():
    # RULES.md §8: "holding a card: discard it" -- also the taken discard top
    t = playing([A, B], top_card="9")
    draw(t, 0, "discard")
    t.timeout()
    assert top(t) == "9" and turn(t) == (1, "draw")
    assert field(t, 0, 0) == ["1", "2", "?", "?"]


def test_strict_memory():
    t = table(R, [A, B], "0", DRAWS, options={"memory": "strict"})
    events = t.act(0, {"type": "look", "positions": [0, 3]})
    assert t.view(0, recent=events)["fields"]["0"] == ["1", "?", "?", "4"]
    assert field(t, 0, 0) == ["?"] * 4
    t.act(1, {"type": "look", "positions": [0, 1]})
    draw(t, 0)
    assert held(t, 0) == "6"
    replace(t, 0, 1)
    assert field(t, 0, 0) == ["?"] * 4


def test_a_strict_game_read_with_assisted_memory_shows_what_the_seat_knows():
    """``view(..., memory="assisted")`` (the bots, the replay viewer) is the same game's
    view with ``memory: assisted``; the game's own view stays strict."""
    strict = table(R, [A, B], "0", DRAWS, options={"memory": "strict"})
    assisted = table(R, [A, B], "0", DRAWS, options={"memory": "assisted"})
    for t in (strict, assisted):
        t.act(0, {"type": "look", "positions": [0, 3]})
        t.act(1, {"type": "look", "positions": [0, 1]})
        draw(t, 0)
        replace(t, 0, 1)
    for seat in (None, 0, 1):
        assert rules.view(strict.state, seat, memory="assisted") == rules.view(assisted.state, seat)
    assert strict.view(0)["fields"]["0"] == ["?"] * 4
    assert rules.view(strict.state, 0, memory="assisted")["fields"]["0"] == ["1", "6", "?", "4"]


#: any quoted number that is not a dict key (seat keys are "0", "1", ...)
CABO_CODE = r'"(\d+)"(?!\s*:)'


def test_event_views_never_show_hidden_cards():
    t = table(R, [["1", "2", "3", "4"], ["5", "6", "7", "8"]], "0", ["9", "11", "13"])
    look_all(t)
    draw(t, 0)
    discard(t, 0)  # 9
    t.act(0, {"type": "spy", "seat": 1, "position": 3})  # 8
    draw(t, 1)
    discard(t, 1)  # 11
    t.act(1, {"type": "swap", "position": 0, "seat": 0, "their_position": 3})  # 5 <-> 4
    public = {"0", "9", "11"}
    assert codes_seen(t, None, CABO_CODE) == public
    assert codes_seen(t, 0, CABO_CODE) == public | {"1", "2", "8"}
    assert codes_seen(t, 1, CABO_CODE) == public | {"5", "6"}


def test_every_offered_action_is_accepted():
    t = table(R, [["5", "5", "3", "4"], B], "9", ["12", "7", "2"])
    assert check_legal(t) > 0
    look_all(t)
    check_legal(t)  # draw from either pile, call
    draw(t, 0)
    check_legal(t)  # discard, replace one or several
    discard(t, 0)  # 12
    check_legal(t)  # swap, skip
    skip(t, 0)
    draw(t, 1, "discard")
    check_legal(t)  # replace only
