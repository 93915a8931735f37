"""Stacked-deck scenarios for ``pablo-50`` (RULES.md §2, §4, §8).

Values: A -1, 2-10 face value, J/Q/K 10, KH and KD 0. Powers: 10 peek, J spy,
Q swap (mandatory, blind), K spy-and-swap. Matching: one correct throw per
discard. The arithmetic of every expectation is written beside it.
"""

from __future__ import annotations

import pytest

from games import rules
from games.rules import Malformed
from tests.rules.helpers import (
    FRENCH_CODE,
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
    play_out,
    refused,
    replace,
    scores,
    serial,
    skip,
    table,
    throw,
    top,
    totals,
    turn,
)
from tests.rules.table import Table

R = "pablo-50"
LOW0 = ["2S", "3S", "4S", "AS"]  # 2 + 3 + 4 - 1 = 8
LOW1 = ["2H", "3H", "4H", "AH"]  # 8
HIGH = ["JS", "QS", "KS", "10S"]  # 10 + 10 + 10 + 10 = 40


def playing(fields, top_card="6C", draws=(), options=None, later=(), looks=(0, 1)):
    t = table(R, fields, top_card, draws, options=options, later=later)
    look_all(t, looks)
    return t


# --------------------------------------------------------------------------- deck, values, draw


def test_deck_setup_and_values_caller_lowest_scores_the_total():
    f0 = ["AS", "KH", "KD", "10S"]  # -1 + 0 + 0 + 10 = 9
    f1 = ["JS", "QS", "KS", "5S"]  # 10 + 10 + 10 + 5 = 35
    t = table(R, [f0, f1], "2H", ["2C", "3C"])
    v = t.view(0)
    assert v["phase"] == "setup" and v["turn"]["stage"] == "look"
    assert v["deck"]["count"] == 43  # 52 - 8 - 1, no joker
    refused(t, 0, {"type": "throw", "seat": 0, "position": 0, "onto": 1}, "wrong_stage")
    look_all(t)
    assert field(t, 0, 0) == ["AS", "KH", "?", "?"]
    draw_discard(t, 0)  # 2C
    call(t, 0)
    draw_discard(t, 1)  # 3C; the turn would return to the caller: the round ends
    assert totals(t, 1) == {0: 9, 1: 35}
    assert scores(t, 1) == {0: 9, 1: 35}  # the caller had the lowest: no penalty
    assert t.state.scores == [9, 35]
    look_all(t)
    assert turn(t) == (0, "draw")  # round 2 starts with the round's lowest total


def test_draw_from_the_discard_pile_is_refused():
    t = playing([LOW0, LOW1])
    refused(t, 0, {"type": "draw", "source": "discard"}, None, 409)
    draw(t, 0)
    assert held(t, 0) is not None and held(t, 1) is None


def test_replace_and_discard():
    t = playing([LOW0, LOW1], draws=["9C", "5C"])
    draw(t, 0)  # 9C
    replace(t, 0, 3)  # AS goes face up
    assert top(t) == "AS" and serial(t) == 2
    assert field(t, 0, 0) == ["2S", "3S", "?", "9C"]
    assert field(t, 1, 0) == ["?", "?", "?", "?"]
    draw(t, 1)
    discard(t, 1)  # 5C: no power
    assert turn(t) == (0, "draw")
    assert top(t) == "5C" and serial(t) == 3


# --------------------------------------------------------------------------- powers


def test_ten_peek_jack_spy_queen_swap_king_special_swap():
    f0 = ["2S", "3S", "4S", "5S"]
    f1 = ["2H", "3H", "4H", "5H"]
    t = playing([f0, f1], draws=["10C", "JC", "QC", "KC", "KD", "KH"])
    # 10: peek (optional)
    draw(t, 0)
    discard(t, 0)
    assert turn(t) == (0, "power")
    t.act(0, {"type": "peek", "position": 3})
    assert field(t, 0, 0) == ["2S", "3S", "?", "5S"]
    assert_hidden(t, 1, 0, range(4))
    # J: spy (optional)
    draw(t, 1)
    discard(t, 1)
    assert turn(t) == (1, "power")
    t.act(1, {"type": "spy", "seat": 0, "position": 2})
    assert field(t, 1, 0) == ["?", "?", "4S", "?"]
    assert field(t, 0, 0) == ["2S", "3S", "?", "5S"]
    # Q: swap (mandatory, blind)
    draw(t, 0)
    discard(t, 0)
    refused(t, 0, {"type": "skip"}, {"illegal_action", "wrong_stage", "no_power"})
    t.act(0, {"type": "swap", "position": 0, "seat": 1, "their_position": 3})  # 2S <-> 5H
    assert field(t, 0, 0) == ["?", "3S", "?", "5S"]  # 5H unknown to seat 0
    assert field(t, 0, 1) == ["?", "?", "?", "2S"]  # seat 0 knew 2S: it follows it
    assert field(t, 1, 1) == ["2H", "3H", "?", "?"]  # seat 1 does not know the 2S
    assert field(t, 1, 0) == ["?", "?", "4S", "?"]
    # K: spy, then swap
    draw(t, 1)
    discard(t, 1)
    assert turn(t) == (1, "power")
    t.act(1, {"type": "spy", "seat": 0, "position": 3})  # 5S
    assert field(t, 1, 0) == ["?", "?", "4S", "5S"]
    assert turn(t) == (1, "power")
    t.act(1, {"type": "swap", "position": 0, "seat": 0, "their_position": 3})  # 2H <-> 5S
    assert field(t, 1, 1) == ["5S", "3H", "?", "?"]  # seat 1 spied the 5S
    assert field(t, 1, 0) == ["?", "?", "4S", "2H"]  # and knew its 2H
    assert field(t, 0, 1) == ["5S", "?", "?", "2S"]  # seat 0 peeked 5S, knew 2S
    assert field(t, 0, 0)[3] == "?"  # seat 0 does not know the 2H it received
    # K (KD): skip the whole spy-and-swap
    draw(t, 0)
    discard(t, 0)
    assert turn(t) == (0, "power")
    skip(t, 0)
    assert turn(t) == (1, "draw")
    # K (KH): swap without spying first
    draw(t, 1)
    discard(t, 1)
    t.act(1, {"type": "swap", "position": 1, "seat": 0, "their_position": 1})  # 3H <-> 3S
    assert turn(t) == (0, "draw")
    assert field(t, 0, 1)[1] == "3S"
    assert_public_only(t)


def test_king_spy_then_skip_the_swap():
    t = playing([LOW0, LOW1], draws=["KC"])
    draw(t, 0)
    discard(t, 0)
    t.act(0, {"type": "spy", "seat": 1, "position": 3})
    assert turn(t) == (0, "power")
    skip(t, 0)
    assert turn(t) == (1, "draw")
    assert field(t, 0, 1) == ["?", "?", "?", "AH"]


# --------------------------------------------------------------------------- matching


def test_matching_one_correct_throw_per_discard_wrong_does_not_close():
    f0 = ["5H", "6S", "7S", "8S"]
    f1 = ["5S", "2S", "3S", "4S"]
    t = table(R, [f0, f1], "5C", ["6C", "9C", "7C"])
    t.act(0, {"type": "look", "positions": [0, 1]})
    t.act(1, {"type": "look", "positions": [0, 3]})  # 5S, 4S
    # the dealt card opens a match
    throw(t, 1, 1, 0)  # 5S onto 5C: correct, closes it
    assert top(t) == "5S" and serial(t) == 2
    assert field(t, 0, 1) == [None, "?", "?", "?"]
    deck = t.view(0)["deck"]["count"]
    # a second 5 while no match is open: refused, no penalty
    refused(t, 0, {"type": "throw", "seat": 0, "position": 0, "onto": 2}, "no_open_match")
    # a wrong card while no match is open: refused as well, not penalised
    refused(t, 0, {"type": "throw", "seat": 0, "position": 2, "onto": 2}, "no_open_match")
    assert t.view(0)["deck"]["count"] == deck
    # a turn's discard opens a new match
    draw(t, 0)
    discard(t, 0)  # 6C
    throw(t, 1, 1, 1)  # 2S onto 6C: wrong; 2S shown to all, penalty 9C seen by seat 1
    assert field(t, 1, 1) == [None, "2S", "?", "4S", "9C"]
    assert field(t, 0, 1) == [None, "2S", "?", "?", "?"]
    assert top(t) == "6C" and serial(t) == 3
    # the wrong throw did not close the match: seat 1 takes seat 0's 6S and gives its 4S
    throw(t, 1, 0, 1, give=3)
    assert top(t) == "6S" and serial(t) == 4
    assert field(t, 1, 0) == ["?", "4S", "?", "?"]  # seat 1 knew the 4S it gave
    assert field(t, 0, 0) == ["5H", "?", "?", "?"]  # seat 0 does not know it
    assert field(t, 1, 1) == [None, "2S", "?", None, "9C"]
    refused(t, 0, {"type": "throw", "seat": 0, "position": 1, "onto": 4}, "no_open_match")
    refused(
        t,
        0,
        {"type": "throw", "seat": 0, "position": 1, "onto": 3},
        {"stale_discard", "no_open_match"},
    )
    # seat 1's turn: replacing puts a card on the pile and opens a match on it
    draw(t, 1)  # 7C
    replace(t, 1, 2)  # 3S onto the pile
    assert top(t) == "3S"
    throw(t, 0, 0, 2)  # 7S onto 3S: wrong, penalty for seat 0
    assert len(field(t, 0, 0)) == 5
    assert field(t, 0, 0)[4] != "?"  # seat 0 sees its own penalty card


def test_caller_cards_are_protected_from_throws_but_the_caller_may_match():
    f0 = ["6S", "6H", "2S", "3S"]
    f1 = ["6D", "2H", "3H", "4H"]
    t = playing([f0, f1], top_card="5C", draws=["6C", "2C"])
    draw(t, 0)
    discard(t, 0)  # 6C
    call(t, 0)
    refused(t, 1, {"type": "throw", "seat": 0, "position": 0, "onto": 2}, "protected_target")
    throw(t, 0, 0, 0)  # the caller matches its own 6S
    assert top(t) == "6S"
    assert field(t, 1, 0) == [None, "?", "?", "?"]


def test_player_on_turn_may_match_while_holding():
    f0 = ["6S", "2D", "3D", "4D"]
    t = playing([f0, LOW1], top_card="6C", draws=["9C"])
    draw(t, 0)
    throw(t, 0, 0, 0)  # 6S onto 6C while holding
    assert turn(t) == (0, "hold")
    discard(t, 0)
    assert top(t) == "9C"


# --------------------------------------------------------------------------- calls


def test_call_only_at_the_end_of_ones_own_turn_once_per_round():
    t = playing([LOW0, LOW1, HIGH], draws=["2C", "3C", "4C", "5C"])
    refused(t, 1, {"type": "call"}, "cannot_call")  # out of turn
    refused(t, 0, {"type": "call"}, {"cannot_call", "wrong_stage"})  # instead of drawing
    draw_discard(t, 0)  # 2C
    refused(t, 1, {"type": "call"}, "cannot_call")
    draw(t, 1)  # the next player's turn action closes seat 0's chance
    refused(t, 0, {"type": "call"}, "cannot_call")
    discard(t, 1)  # 3C
    call(t, 1)
    draw_discard(t, 2)  # 4C
    refused(t, 2, {"type": "call"}, "already_called")
    draw_discard(t, 0)  # 5C; the turn would return to seat 1: round over
    assert t.view(0)["round"] == 2
    # 0: 8, 1: 8 (caller tied for lowest: +5), 2: 40
    assert totals(t, 1) == {0: 8, 1: 8, 2: 40}
    assert scores(t, 1) == {0: 8, 1: 13, 2: 40}


def test_caller_not_lowest_scores_plus_10():
    t = playing([HIGH, ["AS", "KH", "KD", "10D"]], draws=["2C", "3C"])
    play_out(t, caller=0)
    # seat 0: 40 + 10 = 50 -> the total 50 is reset to 0; seat 1: -1 + 0 + 0 + 10 = 9
    assert totals(t, 1) == {0: 40, 1: 9}
    assert scores(t, 1) == {0: 50, 1: 9}  # the recorded round score keeps the 50
    assert t.state.scores == [0, 9]
    assert t.state.status == "active"


def test_caller_not_lowest_plus_10_without_reset():
    f0 = ["JS", "QS", "5S", "10S"]  # 10 + 10 + 5 + 10 = 35
    t = playing([f0, LOW1], draws=["2C", "3C"])
    play_out(t, caller=0)
    assert scores(t, 1) == {0: 45, 1: 8}  # 35 + 10
    look_all(t)
    assert turn(t) == (1, "draw")  # the round's lowest total starts round 2


def test_caller_protected_from_swap_not_from_spy():
    f0 = ["2S", "3S", "4S", "5S"]  # 14
    f1 = ["2H", "3H", "4H", "5H"]  # 14
    f2 = ["2D", "3D", "4D", "5D"]  # 14
    t = playing([f0, f1, f2], draws=["8C", "QC", "KC"])
    draw_discard(t, 0)  # 8C: no power in pablo-50
    call(t, 0)
    draw(t, 1)
    discard(t, 1)  # QC: mandatory swap
    swap0 = {"type": "swap", "position": 0, "seat": 0, "their_position": 0}
    refused(t, 1, swap0, "protected_target")
    t.act(1, {"type": "swap", "position": 0, "seat": 2, "their_position": 1})  # 2H <-> 3D
    draw(t, 2)
    discard(t, 2)  # KC
    t.act(2, {"type": "spy", "seat": 0, "position": 3})  # a spy may look at the caller
    assert field(t, 2, 0) == ["?", "?", "?", "5S"]
    refused(t, 2, {**swap0, "seat": 0}, "protected_target")
    skip(t, 2)
    # the turn would return to seat 0: round over; 0: 14, 1: 3 + 3 + 4 + 5 = 15,
    # 2: 2 + 2 + 4 + 5 = 13 -> the caller is not lowest: 14 + 10 = 24
    assert totals(t, 1) == {0: 14, 1: 15, 2: 13}
    assert scores(t, 1) == {0: 24, 1: 15, 2: 13}


def test_mandatory_swap_skipped_when_only_the_caller_could_be_targeted():
    t = playing([LOW0, LOW1], draws=["2C", "QC"])
    draw_discard(t, 0)  # 2C
    call(t, 0)
    draw(t, 1)
    discard(t, 1)  # QC: the only other player is the protected caller -> skipped
    assert t.view(0)["round"] == 2
    assert totals(t, 1) == {0: 8, 1: 8}
    assert scores(t, 1) == {0: 13, 1: 8}  # caller tied for lowest: 8 + 5


# --------------------------------------------------------------------------- rounds, game end


def test_start_player_tie_goes_to_the_lower_game_total():
    t = playing([LOW0, LOW1, HIGH], draws=["2C", "3C", "4C"])
    play_out(t, caller=0)
    assert scores(t, 1) == {0: 13, 1: 8, 2: 40}  # 0 and 1 tie on 8; caller +5
    look_all(t)
    assert turn(t) == (1, "draw")  # tie on the round total -> the lower game total (8 < 13)


def test_game_ends_when_a_total_exceeds_50():
    r = deal([LOW0, HIGH], "6C", ["2C", "3C", "4C"])
    t = Table(R, 2, {"start_seat": 0}, decks=[r, r])
    look_all(t)
    play_out(t, caller=0)
    assert t.state.scores == [8, 40]
    look_all(t)
    assert turn(t) == (0, "draw")
    play_out(t, caller=0)
    assert t.state.scores == [16, 80]  # 8 + 8, 40 + 40 > 50
    assert t.state.status == "finished"
    assert t.view(1)["result"] == {"winners": [0], "losers": []}
    assert t.view(1)["phase"] == "over"


def test_total_of_exactly_50_over_two_rounds_resets_to_0():
    ten = ["5H", "6H", "KD", "AD"]  # 5 + 6 + 0 - 1 = 10
    r1 = deal([LOW0, HIGH], "6C", ["2C", "3C", "4C"])
    r2 = deal([LOW0, ten], "6C", ["2C", "3C", "4C"])
    t = Table(R, 2, {"start_seat": 0}, decks=[r1, r2])
    look_all(t)
    play_out(t, caller=0)
    look_all(t)
    play_out(t, caller=0)
    assert scores(t, 2) == {0: 8, 1: 10}
    assert t.state.scores == [16, 0]  # seat 1: 40 + 10 = 50 -> 0
    assert t.state.status == "active"


def test_a_total_of_51_ends_the_game():
    eleven = ["5H", "6H", "KD", "KH"]  # 5 + 6 + 0 + 0 = 11
    r1 = deal([LOW0, HIGH], "6C", ["2C", "3C", "4C"])
    r2 = deal([LOW0, eleven], "6C", ["2C", "3C", "4C"])
    t = Table(R, 2, {"start_seat": 0}, decks=[r1, r2])
    look_all(t)
    play_out(t, caller=0)
    look_all(t)
    play_out(t, caller=0)
    assert t.state.scores == [16, 51]  # 40 + 11 = 51 > 50
    assert t.state.status == "finished"
    assert t.view(None)["result"] == {"winners": [0], "losers": []}


def test_start_player_round_lowest():
    t = playing([HIGH, LOW1], draws=["2C", "3C", "4C"])
    play_out(t, caller=1)  # turns 0, 1 + call, 0; back to seat 1: over
    assert scores(t, 1) == {0: 40, 1: 8}
    look_all(t)
    assert turn(t) == (1, "draw")


# --------------------------------------------------------------------------- advanced


def _empty_seat_0(options):
    f0 = ["3S", "4S", "6S", "2S"]
    f1 = ["JH", "JD", "9H", "8H"]
    t = playing(
        [f0, f1], top_card="3H", draws=["4H", "6H", "2H", "5C", "QS", "9C"], options=options
    )
    throw(t, 0, 0, 0)  # 3S onto the dealt 3H
    draw(t, 0)
    discard(t, 0)  # 4H
    throw(t, 0, 0, 1)  # 4S
    draw(t, 1)
    discard(t, 1)  # 6H
    throw(t, 0, 0, 2)  # 6S
    draw(t, 0)
    discard(t, 0)  # 2H
    throw(t, 0, 0, 3)  # 2S: seat 0 has no card left; the round goes on in pablo-50
    assert field(t, 1, 0) == [None, None, None, None]
    assert t.view(0)["round"] == 1
    draw(t, 1)
    discard(t, 1)  # 5C
    return t


def test_advanced_no_card_left_must_discard_and_a_queen_brings_one_more_card():
    t = _empty_seat_0({"advanced": True})
    deck = t.view(0)["deck"]["count"]
    draw(t, 0)  # QS
    refused(t, 0, {"type": "replace", "positions": [0]}, {"empty_slot", "illegal_action"})
    discard(t, 0)  # Q: the swap cannot be carried out (no card); one more card: 9C
    assert turn(t) == (1, "draw")
    assert t.view(0)["deck"]["count"] == deck - 2  # QS and 9C
    f = field(t, 1, 0)
    assert f[:4] == [None, None, None, None] and len(f) == 5 and f[4] == "?"


def test_without_advanced_a_queen_brings_no_card():
    t = _empty_seat_0({})
    deck = t.view(0)["deck"]["count"]
    draw(t, 0)  # QS
    discard(t, 0)  # the mandatory swap is skipped: seat 0 has no card
    assert turn(t) == (1, "draw")
    assert t.view(0)["deck"]["count"] == deck - 1
    assert field(t, 1, 0) == [None, None, None, None]


def test_advanced_option_validation():

    for options in ({"advanced": "yes"}, {"jokers": 2}, {"forty_two": True}):
        with pytest.raises(Malformed) as caught:
            rules.create(R, seats=2, options=options, turn_timeout=60, creator="a")
        assert caught.value.code == "invalid_option"
    with pytest.raises(Malformed):
        rules.create(R, seats=9, options={}, turn_timeout=60, creator="a")


# --------------------------------------------------------------------------- timeouts


def test_timeout_mandatory_swap_skips_the_protected_caller():
    f0 = ["9S", "3S", "4S", "5S"]  # 21
    f1 = ["2H", "3H", "4H", "5H"]  # 14
    f2 = ["KS", "3D", "4D", "5D"]  # 22
    t = playing([f0, f1, f2], draws=["8C", "9C", "QC"], options={"start_seat": 2})
    draw_discard(t, 2)  # 8C
    call(t, 2)
    draw_discard(t, 0)  # 9C
    draw(t, 1)
    discard(t, 1)  # QC
    assert turn(t) == (1, "power")
    events = t.timeout()
    assert [e.seat for e in events if e.type == "turn_timed_out"] == [1]
    # seat 1's slot 0 (2H) swapped with the first seat after it that may be targeted:
    # seat 2 called (protected) -> seat 0's slot 0 (9S); then the round ends
    # 0: 2 + 3 + 4 + 5 = 14; 1: 9 + 3 + 4 + 5 = 21; 2: 22 (caller, not lowest: + 10)
    assert totals(t, 1) == {0: 14, 1: 21, 2: 22}
    assert scores(t, 1) == {0: 14, 1: 21, 2: 32}


def test_timeout_king_power_is_skipped():
    t = playing([LOW0, LOW1], draws=["KC"])
    draw(t, 0)
    discard(t, 0)
    t.timeout()
    assert turn(t) == (1, "draw")
    assert field(t, 0, 1) == ["?"] * 4
    assert field(t, 0, 0) == ["2S", "3S", "?", "?"]


def test_timeout_draws_and_discards_a_power_card_without_power():
    t = playing([LOW0, LOW1], draws=["QC"])
    t.timeout()
    assert top(t) == "QC"
    assert turn(t) == (1, "draw")
    assert field(t, 0, 0) == ["2S", "3S", "?", "?"]


def test_strict_memory_penalty_card_is_seen_only_in_the_answer():
    t = playing([LOW0, LOW1], top_card="6C", draws=["9C"], options={"memory": "strict"})
    events = throw(t, 1, 1, 0)  # 2H onto 6C: wrong; penalty 9C seen by seat 1
    v = t.view(1, recent=events)
    assert v["fields"]["1"][4] == "9C"
    assert v["fields"]["1"][0] == "2H"
    assert field(t, 1, 1) == ["?"] * 5


def test_king_after_a_spy_on_the_protected_caller_the_swap_is_skipped():
    t = playing([LOW0, LOW1], draws=["2C", "KC"])
    draw_discard(t, 0)  # 2C
    call(t, 0)
    draw(t, 1)
    discard(t, 1)  # KC: the spy may look at the caller
    assert turn(t) == (1, "power")
    refused(
        t, 1, {"type": "swap", "position": 0, "seat": 0, "their_position": 0}, "protected_target"
    )
    t.act(1, {"type": "spy", "seat": 0, "position": 2})
    # no swap is possible (the caller is the only other player): the turn ends, and the round
    assert t.view(0)["round"] == 2
    assert scores(t, 1) == {0: 13, 1: 8}  # 8 and 8: the caller tied for the lowest, + 5


def test_queen_skipped_when_no_other_player_has_a_card():
    f0 = ["3S", "4S", "6S", "2S"]
    f1 = ["JH", "JD", "9H", "8H"]
    t = playing([f0, f1], top_card="3H", draws=["4H", "6H", "2H", "5C", "QS"])
    throw(t, 0, 0, 0)  # 3S
    draw(t, 0)
    discard(t, 0)  # 4H
    throw(t, 0, 0, 1)  # 4S
    draw(t, 1)
    discard(t, 1)  # 6H
    throw(t, 0, 0, 2)  # 6S
    draw(t, 0)
    discard(t, 0)  # 2H
    throw(t, 0, 0, 3)  # 2S: seat 0 has no card left
    draw(t, 1)
    discard(t, 1)  # QS: no other player has a card to swap with: skipped
    assert turn(t) == (0, "draw")
    assert field(t, 1, 1) == ["JH", "JD", "?", "?"]


def test_timeout_queen_with_only_the_caller_to_target_is_skipped():
    t = playing([LOW0, LOW1], draws=["2C", "QC"])
    draw_discard(t, 0)
    call(t, 0)
    draw(t, 1)
    t.timeout()  # holding the Q: discarded without power
    assert scores(t, 1) == {0: 13, 1: 8}


def test_penalty_card_is_seen_by_its_owner_only():
    t = playing([LOW0, LOW1], top_card="6C", draws=["9C", "10C"])
    throw(t, 1, 1, 0)  # 2H onto 6C: wrong; 2H shown to all; 9C to seat 1 only
    draw(t, 0)
    discard(t, 0)  # 10C
    skip(t, 0)
    public = {"6C", "2H", "10C"}
    assert codes_seen(t, None, FRENCH_CODE) == public
    assert codes_seen(t, 0, FRENCH_CODE) == public | {"2S", "3S"}
    assert codes_seen(t, 1, FRENCH_CODE) == public | {"3H", "9C"}
    assert field(t, 0, 1) == ["2H", "?", "?", "?", "?"]
    assert field(t, 1, 1) == ["2H", "3H", "?", "?", "9C"]


def test_every_offered_action_is_accepted():
    t = table(R, [["6S", "2D", "3D", "4D"], LOW1], "6C", ["KC", "QC", "9C"])
    check_legal(t)
    look_all(t)
    assert check_legal(t) > 0  # draw, and throws on the open match
    draw(t, 0)
    check_legal(t)
    discard(t, 0)  # KC
    check_legal(t)  # spy, swap, skip
    t.act(0, {"type": "spy", "seat": 1, "position": 0})
    check_legal(t)  # swap or skip
    skip(t, 0)
    check_legal(t)  # call, draw
    call(t, 0)
    draw(t, 1)
    discard(t, 1)  # QC: only seat 0 (protected) to swap with: skipped, round over
    assert t.view(0)["round"] == 2
    check_legal(t)
