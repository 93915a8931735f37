"""Stacked-deck scenarios for ``pablo`` (RULES.md §2, §3, §8).

Values: A 1, 2-10 face value, J 11, Q 12, K 13, KH 0, JK -1. Decks are dealt
seat 0 slots 0-3, seat 1 slots 0-3, ..., the discard card, then the draw pile.
Every expectation is computed by hand from RULES.md; the arithmetic is beside it.
"""

from __future__ import annotations

import pytest

from games import rules
from games.rules import Malformed
from tests.rules.helpers import (
    FRENCH_CODE,
    action_types,
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
    status_of,
    table,
    throw,
    top,
    totals,
    turn,
)
from tests.rules.table import Table

# seat 0: 5 + 0 + (-1) + 12 = 16; seat 1: 1 + 2 + 3 + 4 = 10
F0 = ["5H", "KH", "JK", "QS"]
F1 = ["AS", "2S", "3S", "4S"]


def playing(fields=(F0, F1), top_card="10C", draws=(), options=None, later=(), looks=(0, 1)):
    t = table("pablo", fields, top_card, draws, options=options, later=later)
    look_all(t, looks)
    return t


# --------------------------------------------------------------------------- deal, setup


def test_deal_and_setup_look():
    t = table("pablo", [F0, F1], "10C")
    v = t.view(0)
    assert v["round"] == 1
    assert v["phase"] == "setup"
    assert v["turn"]["seat"] is None and v["turn"]["stage"] == "look"
    assert v["turn"]["deadline"] == "2026-01-02T00:00:00.000Z"  # Table's START + 86400 s
    assert v["discard"]["top"] == "10C"
    assert v["discard"]["count"] == 1 and v["discard"]["serial"] == 1
    assert v["deck"]["count"] == 44  # 52 + 1 joker - 2 * 4 dealt - 1 turned up
    assert v["fields"] == {"0": ["?"] * 4, "1": ["?"] * 4}
    assert v["called_by"] == [] and v["rounds"] == [] and v["result"] is None
    assert action_types(t, 0) == {"look"}
    refused(t, 0, {"type": "draw", "source": "deck"}, "wrong_stage")
    refused(t, 0, {"type": "call"}, {"wrong_stage", "cannot_call"})
    # no throwing in the setup phase, not even on the dealt card
    refused(t, 1, {"type": "throw", "seat": 1, "position": 0, "onto": 1}, "wrong_stage")

    t.act(0, {"type": "look", "positions": [0, 2]})
    assert field(t, 0, 0) == ["5H", "?", "JK", "?"]
    assert_hidden(t, 1, 0, range(4))
    assert_public_only(t)
    refused(t, 0, {"type": "look", "positions": [1, 3]}, "already_looked")
    assert t.view(0)["phase"] == "setup"  # seat 1 has not looked yet

    t.act(1, {"type": "look", "positions": [1, 3]})
    assert field(t, 1, 1) == ["?", "2S", "?", "4S"]
    assert field(t, 1, 0) == ["?"] * 4
    assert field(t, 0, 0) == ["5H", "?", "JK", "?"]
    v = t.view(1)
    assert v["phase"] == "turn"
    assert v["turn"]["seat"] == 0 and v["turn"]["stage"] == "draw"
    refused(t, 1, {"type": "look", "positions": [0, 2]}, {"wrong_stage", "already_looked"})
    refused(t, 1, {"type": "draw", "source": "deck"}, "not_your_turn")
    assert "draw" in action_types(t, 0)
    assert "draw" not in action_types(t, 1)


def test_values_and_round_totals_caller_strictly_lowest_scores_minus_20():
    f0 = ["KH", "JK", "AS", "KS"]  # 0 - 1 + 1 + 13 = 13
    f1 = ["JD", "QD", "10D", "2D"]  # 11 + 12 + 10 + 2 = 35
    t = playing([f0, f1], "3H", ["3C", "4C", "5C"])
    draw_discard(t, 0)  # 3C
    call(t, 0)
    assert t.view(1)["called_by"] == [0]
    draw_discard(t, 1)  # 4C
    assert t.view(None)["round"] == 1
    draw_discard(t, 0)  # 5C: the first caller completed one more turn -> the round ends
    assert totals(t, 1) == {0: 13, 1: 35}
    assert scores(t, 1) == {0: -20, 1: 35}  # 13 < 35 -> -20 instead of 13
    assert t.state.scores == [-20, 35]
    v = t.view(0)
    assert v["round"] == 2 and v["phase"] == "setup"  # dealt at once
    assert v["called_by"] == []
    assert v["deck"]["count"] == 44
    assert v["result"] is None


def test_two_jokers_option():
    f0 = ["JK", "JK", "KH", "AS"]  # -1 - 1 + 0 + 1 = -1
    f1 = ["QH", "QD", "QC", "10D"]  # 12 * 3 + 10 = 46
    t = table("pablo", [f0, f1], "2H", ["3C", "4C", "5C"], options={"jokers": 2})
    assert t.view(0)["deck"]["count"] == 45  # 52 + 2 jokers - 9
    look_all(t)
    assert field(t, 0, 0) == ["JK", "JK", "?", "?"]
    play_out(t, caller=0)
    assert totals(t, 1) == {0: -1, 1: 46}
    assert scores(t, 1) == {0: -20, 1: 46}


def test_option_validation():

    for options in (
        {"jokers": 3},
        {"jokers": 0},
        {"jokers": "1"},
        {"forty_two": 1},
        {"minus_sixty_nine": "yes"},
        {"advanced": True},  # a pablo-50 option
        {"decks": 2},  # a tamalou option
        {"memory": "perfect"},
        {"max_timeouts": 0},
        {"start_seat": 2},  # two seats: 0 and 1
    ):
        with pytest.raises(Malformed) as caught:
            rules.create("pablo", seats=2, options=options, turn_timeout=60, creator="a")
        assert status_of(caught.value) == 400
        assert caught.value.code == "invalid_option", options
        assert f"options.{next(iter(options))}" in caught.value.detail
    for seats in (1, 9):
        with pytest.raises(Malformed) as caught:
            rules.create("pablo", seats=seats, options={}, turn_timeout=60, creator="a")
        assert caught.value.code == "invalid_seats"
    rules.create("pablo", seats=8, options={"jokers": 2}, turn_timeout=60, creator="a")


# --------------------------------------------------------------------------- draw, discard, replace


def test_draw_from_deck_is_seen_by_drawer_only_then_discard():
    t = playing(draws=["6C", "2C"])
    refused(t, 0, {"type": "discard"}, "wrong_stage")
    refused(t, 0, {"type": "replace", "positions": [0]}, "wrong_stage")
    draw(t, 0)
    assert turn(t) == (0, "hold")
    assert held(t, 0) == "6C"
    assert held(t, 1) is None and held(t, None) is None
    assert t.view(0)["deck"]["count"] == 43  # 44 - 1
    refused(t, 0, {"type": "draw", "source": "deck"}, "wrong_stage")
    refused(t, 1, {"type": "discard"}, "not_your_turn")
    discard(t, 0)
    assert top(t) == "6C" and serial(t) == 2
    assert t.view(1)["discard"]["count"] == 2
    assert turn(t) == (1, "draw")
    assert held(t, 0) is None
    assert_public_only(t)


def test_replace_puts_the_old_card_face_up_and_the_new_one_known_to_the_owner_only():
    # seat 0 slot 3 holds a 7: replaced out of a field it has no power
    t = playing(fields=[["5H", "KH", "JK", "7S"], F1], draws=["2C"])
    draw(t, 0)
    refused(t, 0, {"type": "replace", "positions": [4]}, "no_such_slot")
    # several slots at once: not in pablo (409 "not now" or 400 "never valid")
    refused(t, 0, {"type": "replace", "positions": [0, 1]}, None, None)
    replace(t, 0, 3)
    assert top(t) == "7S" and serial(t) == 2  # the 7 went face up, no power
    assert turn(t) == (1, "draw")
    assert field(t, 0, 0) == ["5H", "KH", "?", "2C"]  # looked at 0, 1; holds 2C now
    assert field(t, 1, 0) == ["?", "?", "?", "?"]
    assert_public_only(t)


def test_take_discard_top_is_public_and_has_no_power_when_discarded_again():
    t = playing(top_card="7C", draws=["2C"])
    draw(t, 0, "discard")
    assert held(t, 0) == "7C" and held(t, 1) == "7C" and held(t, None) == "7C"
    v = t.view(1)
    assert v["discard"]["count"] == 0 and v["discard"]["top"] is None
    assert v["discard"]["serial"] == 1  # taking the top never lowers the serial
    discard(t, 0)  # Decision in RULES.md §3: no power
    assert turn(t) == (1, "draw")
    assert top(t) == "7C" and serial(t) == 2


def test_card_taken_from_discard_and_placed_is_known_to_everyone():
    t = playing(top_card="10C")
    draw(t, 0, "discard")
    replace(t, 0, 2)  # JK goes face up onto the pile
    assert top(t) == "JK"
    assert field(t, 0, 0) == ["5H", "KH", "10C", "?"]
    assert field(t, 1, 0)[2] == "10C"  # it was face up: seat 1 knows it too
    assert field(t, 1, 0)[0] == "?"


# --------------------------------------------------------------------------- powers


def test_seven_peek_is_optional_and_private():
    t = playing(draws=["7D", "7H"])
    draw(t, 0)
    discard(t, 0)
    assert turn(t) == (0, "power")
    refused(t, 1, {"type": "peek", "position": 0}, "not_your_turn")
    spy = {"type": "spy", "seat": 1, "position": 0}
    refused(t, 0, spy, {"illegal_action", "wrong_stage", "no_power"})
    refused(t, 0, {"type": "peek", "position": 7}, "no_such_slot")
    t.act(0, {"type": "peek", "position": 3})
    assert field(t, 0, 0) == ["5H", "KH", "?", "QS"]
    assert_hidden(t, 1, 0, range(4))
    assert turn(t) == (1, "draw")
    draw(t, 1)
    discard(t, 1)
    assert turn(t) == (1, "power")
    skip(t, 1)
    assert turn(t) == (0, "draw")
    assert field(t, 1, 1) == ["AS", "2S", "?", "?"]


def test_eight_spy_is_optional_and_private():
    t = playing(fields=[F0, F1, ["6S", "6H", "6D", "6C"]], draws=["8D", "8H"])
    draw(t, 0)
    discard(t, 0)
    assert turn(t) == (0, "power")
    refused(t, 0, {"type": "spy", "seat": 0, "position": 0}, None, None)  # not one's own card
    t.act(0, {"type": "spy", "seat": 2, "position": 3})
    assert field(t, 0, 2) == ["?", "?", "?", "6C"]
    assert field(t, 1, 2) == ["?", "?", "?", "?"]
    assert field(t, 2, 2) == ["6S", "6H", "?", "?"]
    assert turn(t) == (1, "draw")
    draw(t, 1)
    discard(t, 1)
    skip(t, 1)
    assert turn(t) == (2, "draw")


def test_nine_swap_is_mandatory_and_blind_and_knowledge_follows_the_cards():
    t = table("pablo", [F0, F1], "10C", ["9D"])
    t.act(0, {"type": "look", "positions": [0, 1]})  # 5H, KH
    t.act(1, {"type": "look", "positions": [2, 3]})  # 3S, 4S
    draw(t, 0)
    discard(t, 0)
    assert turn(t) == (0, "power")
    refused(t, 0, {"type": "skip"}, {"illegal_action", "wrong_stage", "no_power"})
    refused(t, 0, {"type": "peek", "position": 0}, {"illegal_action", "wrong_stage", "no_power"})
    t.act(0, {"type": "swap", "position": 0, "seat": 1, "their_position": 2})
    assert turn(t) == (1, "draw")
    # seat 0 gave 5H (known) and got 3S (unknown to it): blind
    assert field(t, 0, 0) == ["?", "KH", "?", "?"]
    assert field(t, 0, 1) == ["?", "?", "5H", "?"]
    # seat 1 knew 3S: it now sees it in seat 0's slot 0, and not the 5H it received
    assert field(t, 1, 0) == ["3S", "?", "?", "?"]
    assert field(t, 1, 1) == ["?", "?", "?", "4S"]
    assert_public_only(t)


def test_swap_totals_after_blind_swap():
    t = table("pablo", [F0, F1], "10C", ["9D", "2C", "3C"])
    look_all(t)
    draw(t, 0)
    discard(t, 0)
    t.act(0, {"type": "swap", "position": 3, "seat": 1, "their_position": 0})  # QS <-> AS
    call(t, 0)
    draw_discard(t, 1)  # 2C
    draw_discard(t, 0)  # 3C -> round over
    # seat 0: 5 + 0 - 1 + 1 (AS) = 5; seat 1: 12 (QS) + 2 + 3 + 4 = 21
    assert totals(t, 1) == {0: 5, 1: 21}
    assert scores(t, 1) == {0: -20, 1: 21}


def test_powers_only_for_a_card_drawn_and_discarded_directly():
    # a 9 replaced out of the field: no swap; a 9 thrown: no swap
    t = playing(fields=[["9S", "KH", "JK", "QS"], ["9H", "2S", "3S", "4S"]], top_card="9C")
    draw(t, 0, "discard")  # 9C, public
    replace(t, 0, 0)  # 9S onto the pile, no power
    assert turn(t) == (1, "draw")
    throw(t, 1, 1, 0)  # 9H onto 9S: correct, no power
    assert top(t) == "9H"
    assert turn(t) == (1, "draw")
    draw(t, 1, "discard")  # 9H
    discard(t, 1)  # taken from the pile: no power
    assert turn(t) == (0, "draw")


# --------------------------------------------------------------------------- throwing


def test_throw_correct_own_card_even_unknown_and_on_the_dealt_card():
    f1 = ["10S", "2S", "3S", "10H"]
    t = playing(fields=[F0, f1], top_card="10C")
    assert turn(t) == (0, "draw")
    throw(t, 1, 1, 0)  # 10S onto the dealt 10C; seat 1 looked at it
    assert field(t, 0, 1) == [None, "?", "?", "?"]
    assert top(t) == "10S" and serial(t) == 2
    assert t.view(0)["discard"]["count"] == 2
    throw(t, 1, 1, 3)  # 10H: seat 1 never saw it, judged by rank: correct
    assert field(t, 1, 1) == [None, "2S", "?", None]
    assert top(t) == "10H" and serial(t) == 3
    assert turn(t) == (0, "draw")  # throws are no turn
    # slot 0 is empty now
    refused(t, 1, {"type": "throw", "seat": 1, "position": 0, "onto": 3}, "empty_slot")
    refused(t, 1, {"type": "throw", "seat": 1, "position": 9, "onto": 3}, "no_such_slot")
    # seat 1: 2 + 3 = 5 after two throws


def test_throw_stale_onto_is_refused_without_penalty():
    f1 = ["10S", "2S", "3S", "10H"]
    t = playing(fields=[F0, f1], top_card="10C")
    throw(t, 1, 1, 0)  # serial 2
    deck_before = t.view(0)["deck"]["count"]
    refused(t, 0, {"type": "throw", "seat": 1, "position": 3, "onto": 1}, "stale_discard")
    refused(t, 0, {"type": "throw", "seat": 0, "position": 0, "onto": 1}, "stale_discard")
    assert t.view(0)["deck"]["count"] == deck_before
    assert len(field(t, 0, 0)) == 4


def test_throw_correct_other_card_and_give_one_face_down():
    f1 = ["AS", "10S", "3S", "4S"]
    t = table("pablo", [F0, f1], "10C", ["2C", "3C", "4C"])
    t.act(0, {"type": "look", "positions": [0, 3]})  # 5H, QS
    t.act(1, {"type": "look", "positions": [0, 1]})  # AS, 10S
    throw(t, 0, 1, 1, give=3)  # seat 0 takes seat 1's 10S, gives its QS into slot 1
    assert top(t) == "10S" and serial(t) == 2
    assert field(t, 0, 0) == ["5H", "?", "?", None]
    assert field(t, 0, 1) == ["?", "QS", "?", "?"]  # the giver knew QS and still does
    assert field(t, 1, 1) == ["AS", "?", "?", "?"]  # the receiver does not know it
    assert field(t, 1, 0) == ["?", "?", "?", None]
    assert_public_only(t)
    draw_discard(t, 0)  # 2C
    call(t, 0)
    draw_discard(t, 1)  # 3C
    draw_discard(t, 0)  # 4C -> round over
    # seat 0: 5 + 0 - 1 = 4 (slot 3 empty); seat 1: 1 + 12 (QS) + 3 + 4 = 20
    assert totals(t, 1) == {0: 4, 1: 20}
    assert scores(t, 1) == {0: -20, 1: 20}


def test_throw_other_card_without_give_and_give_rules():
    f1 = ["AS", "10S", "3S", "4S"]
    t = playing(fields=[F0, f1], top_card="10C")
    # give_position with one's own card is malformed
    refused(
        t,
        1,
        {"type": "throw", "seat": 1, "position": 1, "onto": 1, "give_position": 0},
        "invalid",
        400,
    )
    throw(t, 0, 1, 1)
    assert field(t, 0, 1) == ["?", None, "?", "?"]
    assert field(t, 1, 0) == ["?", "?", "?", "?"]  # the giver kept all four


def test_wrong_throw_shows_the_card_and_costs_an_unseen_penalty_card():
    t = table("pablo", [F0, F1], "10C", ["6D", "2C"])
    look_all(t, (0, 1))
    deck_before = t.view(0)["deck"]["count"]  # 44
    throw(t, 1, 1, 2)  # 3S onto 10C: wrong
    assert top(t) == "10C" and serial(t) == 1
    # the 3S is shown to everyone and stays
    assert field(t, 0, 1) == ["?", "?", "3S", "?", "?"]
    # the thrower gets the penalty card (6D) in a new slot 4, not seen by them
    assert field(t, 1, 1) == ["AS", "2S", "3S", "?", "?"]
    assert t.view(0)["deck"]["count"] == deck_before - 1  # 44 - 1
    assert turn(t) == (0, "draw")
    # a wrong throw of another player's card penalises the thrower
    throw(t, 0, 1, 3)  # 4S onto 10C: wrong; seat 0 gets 2C in slot 4
    assert len(field(t, 0, 0)) == 5 and len(field(t, 0, 1)) == 5
    assert field(t, 0, 1)[3] == "4S" and field(t, 1, 1)[3] == "4S"
    assert field(t, 0, 0) == ["5H", "KH", "?", "?", "?"]


def test_wrong_throw_penalty_counts_in_the_total():
    t = table("pablo", [F0, F1], "10C", ["6D", "2C", "3C", "4C"])
    look_all(t)
    throw(t, 1, 1, 0)  # AS onto 10C: wrong, penalty 6D to seat 1
    draw_discard(t, 0)  # 2C
    call(t, 0)
    draw_discard(t, 1)  # 3C
    draw_discard(t, 0)  # 4C -> round over
    # seat 0: 16; seat 1: 10 + 6 = 16 -> the caller is tied, not strictly lower: +25
    assert totals(t, 1) == {0: 16, 1: 16}
    assert scores(t, 1) == {0: 25, 1: 16}


def test_player_on_turn_may_throw_while_holding():
    t = playing(fields=[["10S", "KH", "JK", "QS"], F1], top_card="10C", draws=["2C"])
    draw(t, 0)
    throw(t, 0, 0, 0)  # 10S onto 10C while holding 2C
    assert top(t) == "10S"
    assert turn(t) == (0, "hold")
    discard(t, 0)
    assert top(t) == "2C" and serial(t) == 3


# --------------------------------------------------------------------------- calls


def test_call_window_after_own_turn_until_the_next_turn_action():
    f1 = ["AS", "2S", "3S", "6H"]
    t = playing(fields=[F0, f1], draws=["6C", "2C"])
    refused(t, 1, {"type": "call"}, "cannot_call")  # seat 1 has not played
    # seat 0 has not completed a turn: no call instead of drawing, nor mid-turn
    refused(t, 0, {"type": "call"}, {"cannot_call", "wrong_stage"})
    draw(t, 0)
    refused(t, 0, {"type": "call"}, {"cannot_call", "wrong_stage"})
    discard(t, 0)  # 6C
    throw(t, 1, 1, 3)  # 6H by seat 1: throws by others do not close the window
    assert "call" in action_types(t, 0)
    refused(t, 1, {"type": "call"}, "cannot_call")
    draw(t, 1)  # the next player's turn action closes it
    refused(t, 0, {"type": "call"}, "cannot_call")


def test_call_once_and_several_callers_round_ends_after_first_callers_next_turn():
    f0 = ["KS", "KD", "KC", "QH"]  # 13 * 3 + 12 = 51
    f1 = ["2H", "3H", "4H", "AH"]  # 2 + 3 + 4 + 1 = 10
    f2 = ["5D", "6D", "5C", "6C"]  # 5 + 6 + 5 + 6 = 22
    t = playing(fields=[f0, f1, f2], top_card="QS", draws=["2C", "3C", "4C", "AC", "10C"])
    draw_discard(t, 0)  # 2C
    call(t, 0)
    refused(t, 0, {"type": "call"}, "already_called")
    draw_discard(t, 1)  # 3C
    call(t, 1)  # while a call stands, others may call after their own turns
    draw_discard(t, 2)  # 4C
    assert t.view(2)["called_by"] == [0, 1]
    draw_discard(t, 0)  # AC: the first caller completed one more turn
    assert t.view(0)["round"] == 2
    assert totals(t, 1) == {0: 51, 1: 10, 2: 22}
    # seat 1 is strictly lowest: -20; seat 0 called and is not: +25
    assert scores(t, 1) == {0: 25, 1: -20, 2: 22}
    assert t.state.scores == [25, -20, 22]


def test_caller_tied_for_lowest_scores_plus_25():
    f0 = ["2H", "3H", "4H", "AH"]  # 10
    f1 = ["AS", "2S", "3S", "4S"]  # 10
    t = playing(fields=[f0, f1], top_card="QS", draws=["2C", "3C", "4C"])
    play_out(t, caller=0)
    assert totals(t, 1) == {0: 10, 1: 10}
    assert scores(t, 1) == {0: 25, 1: 10}


def test_emptied_field_ends_the_round_at_once_and_every_caller_scores_25():
    f0 = ["3S", "3H", "3D", "4S"]
    f1 = ["KS", "KD", "2S", "AS"]  # 13 + 13 + 2 + 1 = 29
    t = playing(fields=[f0, f1], top_card="3C", draws=["4H"])
    throw(t, 0, 0, 0)  # 3S onto 3C
    throw(t, 0, 0, 1)  # 3H onto 3S: any number of throws on the same rank
    throw(t, 0, 0, 2)  # 3D
    assert field(t, 1, 0) == [None, None, None, "?"]
    draw(t, 0)
    discard(t, 0)  # 4H
    call(t, 0)
    throw(t, 0, 0, 3)  # 4S onto 4H: seat 0's field is empty -> the round ends at once
    assert t.view(0)["round"] == 2
    assert totals(t, 1) == {0: 0, 1: 29}
    assert scores(t, 1) == {0: 25, 1: 29}  # the caller's 0 does not count: +25


def test_field_emptied_by_another_players_throw_ends_the_round_without_call():
    f0 = ["QH", "QD", "QC", "2H"]  # 12 * 3 + 2 = 38
    f1 = ["3H", "3D", "3S", "4S"]
    t = playing(fields=[f0, f1], top_card="3C", draws=["4H"])
    throw(t, 1, 1, 0)  # 3H
    throw(t, 1, 1, 1)  # 3D
    throw(t, 1, 1, 2)  # 3S
    assert t.view(0)["round"] == 1
    draw(t, 0)
    discard(t, 0)  # 4H
    throw(t, 0, 1, 3)  # seat 0 throws seat 1's 4S and gives nothing: seat 1's field is empty
    assert t.view(0)["round"] == 2
    assert totals(t, 1) == {0: 38, 1: 0}
    assert scores(t, 1) == {0: 38, 1: 0}


# --------------------------------------------------------------------------- rounds, game end


def test_start_player_rotates_and_game_ends_at_100():
    r1 = deal([["KS", "KD", "KC", "QH"], ["AS", "2S", "3S", "4S"]], "5C", ["2C", "3C", "4C", "6C"])
    r2 = deal([["AH", "2H", "3H", "4H"], ["KS", "KD", "KC", "QS"]], "5C", ["2C", "3C", "4C", "6C"])
    t = Table("pablo", 2, {"start_seat": 0}, decks=[r1, r2])
    look_all(t)
    play_out(t, caller=1)  # turns 0, 1+call, 0, 1
    # seat 0: 13 * 3 + 12 = 51; seat 1: 1 + 2 + 3 + 4 = 10 -> -20
    assert scores(t, 1) == {0: 51, 1: -20}
    look_all(t)
    assert turn(t) == (1, "draw")  # the seat after the previous start player
    play_out(t, caller=1)  # turns 1+call, 0, 1
    # seat 0: 1 + 2 + 3 + 4 = 10; seat 1: 51, caller not lowest -> +25
    assert totals(t, 2) == {0: 10, 1: 51}
    assert scores(t, 2) == {0: 10, 1: 25}
    assert t.state.scores == [61, 5]  # 51 + 10, -20 + 25
    assert t.state.status == "active"
    v = t.view(0)
    assert v["round"] == 3 and v["result"] is None
    assert turn(t)[0] is None  # round 3 setup; starts with seat 0 after it
    look_all(t)
    assert turn(t) == (0, "draw")


def test_game_ends_with_loser_at_100_or_more():
    r1 = deal([["KS", "KD", "KC", "QH"], ["AS", "2S", "3S", "4S"]], "5C", ["2C", "3C", "4C", "6C"])
    r2 = deal([["KS", "KD", "KC", "10S"], ["AH", "2H", "3H", "4H"]], "5C", ["2C", "3C", "4C", "6C"])
    t = Table("pablo", 2, {"start_seat": 0}, decks=[r1, r2])
    look_all(t)
    play_out(t, caller=1)  # seat 0: 51, seat 1: -20
    look_all(t)
    play_out(t, caller=1)  # start seat 1; seat 0: 13 * 3 + 10 = 49, seat 1: 10 -> -20
    assert scores(t, 2) == {0: 49, 1: -20}
    assert t.state.scores == [100, -40]  # 51 + 49 = 100: reaching 100 is enough
    assert t.state.status == "finished"
    v = t.view(None)
    assert v["phase"] == "over"
    assert v["result"] == {"winners": [1], "losers": [0]}
    assert len(v["rounds"]) == 2
    assert v["legal_actions"] == [] and t.view(0)["legal_actions"] == []
    assert t.types()[-1] == "game_finished"


def test_forty_two_loses_at_once():
    f0 = ["KS", "KD", "KC", "3S"]  # 13 * 3 + 3 = 42
    f1 = ["AS", "2S", "3H", "4S"]  # 10
    t = playing(
        fields=[f0, f1], top_card="5C", draws=["2C", "3C", "4C", "6C"], options={"forty_two": True}
    )
    play_out(t, caller=1)
    assert scores(t, 1) == {0: 42, 1: -20}
    assert t.state.status == "finished"
    assert t.view(0)["result"] == {"winners": [1], "losers": [0]}


def test_forty_two_without_option_goes_on():
    f0 = ["KS", "KD", "KC", "3S"]  # 42
    f1 = ["AS", "2S", "3H", "4S"]  # 10
    t = playing(fields=[f0, f1], top_card="5C", draws=["2C", "3C", "4C", "6C"])
    play_out(t, caller=1)
    assert t.state.scores == [42, -20]
    assert t.state.status == "active" and t.view(0)["round"] == 2


def test_minus_sixty_nine_wins_at_once():
    low = ["AH", "2H", "3H", "4H"]  # 1 + 2 + 3 + 4 = 10
    mid = ["5S", "6S", "4D", "2D"]  # 5 + 6 + 4 + 2 = 17
    eleven = ["AS", "2S", "3S", "5D"]  # 1 + 2 + 3 + 5 = 11
    draws = ["2C", "3C", "4C", "6C", "10C"]
    # round 1: seat 0 scores 11 without calling, seat 1 (17) calls and fails: +25
    decks = [deal([eleven, mid], "KH", draws)]
    decks += [deal([low, mid], "KH", draws) for _ in range(4)]
    t = Table("pablo", 2, {"start_seat": 0, "minus_sixty_nine": True}, decks=decks)
    look_all(t)
    play_out(t, caller=1)
    assert scores(t, 1) == {0: 11, 1: 25}
    for round_no in (2, 3, 4, 5):
        look_all(t)
        play_out(t, caller=0)
        assert scores(t, round_no) == {0: -20, 1: 17}  # 10 < 17
    # seat 0: 11 - 4 * 20 = -69 wins at once; seat 1: 25 + 4 * 17 = 93 < 100, no loser
    assert t.state.scores == [-69, 93]
    assert t.state.status == "finished"
    assert t.view(None)["result"] == {"winners": [0], "losers": []}


def test_reaching_100_ends_the_game_without_minus_sixty_nine_winner():
    # three players; the lowest non-loser wins, ties share
    f0 = ["KS", "KD", "KC", "QH"]  # 51
    f1 = ["AS", "2S", "3S", "4S"]  # 10
    f2 = ["AH", "2H", "3H", "4H"]  # 10
    r2_0 = ["KS", "KD", "KC", "QS"]  # 51
    draws = ["2C", "3C", "4C", "6C", "10C", "5C"]
    t = Table(
        "pablo",
        3,
        {"start_seat": 0},
        decks=[deal([f0, f1, f2], "QC", draws), deal([r2_0, f1, f2], "QC", draws)],
    )
    look_all(t)
    # round 1: nobody lower than seat 1 calls: seat 2 calls and is tied: +25
    play_out(t, caller=2)
    assert scores(t, 1) == {0: 51, 1: 10, 2: 25}
    look_all(t)
    play_out(t, caller=2)  # start seat 1
    assert scores(t, 2) == {0: 51, 1: 10, 2: 25}
    assert t.state.scores == [102, 20, 50]
    assert t.view(None)["result"] == {"winners": [1], "losers": [0]}


# --------------------------------------------------------------------------- memory


def test_strict_memory_shows_field_cards_only_in_the_revealing_answer():
    t = table("pablo", [F0, F1], "10C", ["7D", "2C"], options={"memory": "strict"})
    events = t.act(0, {"type": "look", "positions": [0, 1]})
    assert t.view(0, recent=events)["fields"]["0"] == ["5H", "KH", "?", "?"]
    assert field(t, 0, 0) == ["?"] * 4
    t.act(1, {"type": "look", "positions": [0, 1]})
    draw(t, 0)
    assert held(t, 0) == "7D"  # the held card is always shown to its holder
    discard(t, 0)
    events = t.act(0, {"type": "peek", "position": 3})
    assert t.view(0, recent=events)["fields"]["0"][3] == "QS"
    assert field(t, 0, 0) == ["?"] * 4


# --------------------------------------------------------------------------- draw pile


def test_reshuffle_when_the_draw_pile_is_exhausted():
    t = playing(options={"max_timeouts": 1000})
    for _ in range(44):  # 44 cards in the draw pile: each timed-out turn draws and discards one
        t.timeout()
    v = t.view(0)
    assert v["deck"]["count"] == 0
    assert v["discard"]["count"] == 45 and v["discard"]["serial"] == 45  # 1 + 44
    last_top = v["discard"]["top"]
    t.timeout()  # the draw reshuffles all but the top: 44 cards, then draws one
    v = t.view(0)
    assert v["deck"]["count"] == 43  # 45 - 1 top = 44, minus the drawn one
    assert v["discard"]["count"] == 2  # the old top + the card just discarded
    assert v["discard"]["serial"] == 46  # never goes down
    assert last_top != v["discard"]["top"]
    assert v["round"] == 1


def test_no_card_left_ends_the_round_as_if_nobody_called():
    f0 = ["2S", "3S", "4S", "5S"]  # 14
    f1 = ["KS", "KD", "KC", "QS"]
    t = playing(fields=[f0, f1], top_card="6H", draws=["10H"])
    draw(t, 0)
    discard(t, 0)  # 10H
    call(t, 0)
    # 43 wrong throws take the draw pile into seat 1's field; the 44th reshuffles the
    # pile under the top (just 6H) into a new draw pile and takes it
    for _ in range(44):
        throw(t, 1, 1, 0)  # KS onto 10H: wrong
    v = t.view(0)
    assert v["deck"]["count"] == 0 and v["discard"]["count"] == 1
    assert len(field(t, 0, 1)) == 48  # 4 + 44
    throw(t, 1, 1, 0)  # wrong again: no card to form a draw pile: no penalty
    if t.state.status == "active" and t.view(0)["round"] == 1:
        assert len(field(t, 0, 1)) == 48
        draw(t, 1)  # a card must be drawn and none is left: the round ends at once
    # full deck: 4 suits * (1 + ... + 10 + 11 + 12 + 13 = 91) - 13 (KH is 0) - 1 (JK) = 350;
    # seat 1 holds all but seat 0's 14 and the 10H on the pile: 350 - 14 - 10 = 326;
    # seat 0 called but scores as if nobody had: its total 14, not -20
    assert totals(t, 1) == {0: 14, 1: 326}
    assert scores(t, 1) == {0: 14, 1: 326}
    assert t.view(None)["result"] == {"winners": [0], "losers": [1]}


# --------------------------------------------------------------------------- timeouts


def _timed_out_seats(events) -> list[int]:
    return [e.seat for e in events if e.type == "turn_timed_out"]


def test_timeout_setup_looks_at_slots_0_and_1_for_those_who_have_not_looked():
    t = table("pablo", [F0, F1], "10C")
    t.act(0, {"type": "look", "positions": [2, 3]})
    events = t.timeout()
    assert _timed_out_seats(events) == [1]
    assert field(t, 1, 1) == ["AS", "2S", "?", "?"]
    assert field(t, 0, 0) == ["?", "?", "JK", "QS"]
    assert turn(t) == (0, "draw")


def test_timeout_nothing_drawn_draws_and_discards_without_power():
    t = playing(draws=["7D"])
    events = t.timeout()
    assert _timed_out_seats(events) == [0]
    assert top(t) == "7D" and serial(t) == 2
    assert turn(t) == (1, "draw")  # no peek


def test_timeout_holding_discards_without_power():
    t = playing(draws=["9D"])
    draw(t, 0)
    t.timeout()
    assert top(t) == "9D"
    assert turn(t) == (1, "draw")  # no mandatory swap either
    assert field(t, 0, 0) == ["5H", "KH", "?", "?"]


def test_timeout_optional_power_is_skipped():
    t = playing(draws=["8D"])
    draw(t, 0)
    discard(t, 0)
    t.timeout()
    assert turn(t) == (1, "draw")
    assert field(t, 0, 1) == ["?"] * 4


def test_timeout_mandatory_swap_lowest_slots():
    f1 = ["10S", "2S", "3S", "4S"]
    t = table("pablo", [F0, f1], "10C", ["9D"])
    t.act(0, {"type": "look", "positions": [0, 1]})  # 5H KH
    t.act(1, {"type": "look", "positions": [1, 2]})  # 2S 3S
    throw(t, 1, 1, 0)  # seat 1's slot 0 empties
    draw(t, 0)
    discard(t, 0)
    assert turn(t) == (0, "power")
    t.timeout()
    # swap seat 0's lowest-numbered card (slot 0, 5H) with seat 1's lowest (slot 1, 2S)
    assert field(t, 0, 1) == [None, "5H", "?", "?"]
    assert field(t, 0, 0) == ["?", "KH", "?", "?"]
    assert field(t, 1, 0) == ["2S", "?", "?", "?"]
    assert field(t, 1, 1) == [None, "?", "3S", "?"]
    assert turn(t) == (1, "draw")


def test_absent_after_max_timeouts_and_back():
    t = playing(draws=["2C", "3C", "4C", "5C", "6C"], options={"max_timeouts": 1})
    events = t.timeout()  # seat 0 times out once: absent
    assert "player_absent" in [e.type for e in events]
    # seat 1's turn; when seat 1 discards, seat 0's turn is played at once
    draw(t, 1)
    events = discard(t, 1)
    assert _timed_out_seats(events) == [0]
    assert turn(t) == (1, "draw")
    assert t.state.absent == [True, False]


# --------------------------------------------------------------------------- visibility


def test_non_player_and_others_never_see_hidden_cards():
    t = table("pablo", [F0, F1], "10C", ["7D", "8D", "2C"])
    assert_public_only(t)
    look_all(t)
    assert_public_only(t)
    assert_hidden(t, 1, 0, range(4))
    assert_hidden(t, 0, 1, range(4))
    draw(t, 0)
    assert held(t, None) is None and held(t, 1) is None
    discard(t, 0)
    t.act(0, {"type": "peek", "position": 2})
    assert_public_only(t)
    assert_hidden(t, 1, 0, range(4))
    draw(t, 1)
    discard(t, 1)
    t.act(1, {"type": "spy", "seat": 0, "position": 3})
    assert field(t, 1, 0) == ["?", "?", "?", "QS"]
    assert field(t, 0, 0) == ["5H", "KH", "JK", "?"]
    assert_public_only(t)


def test_event_views_never_show_hidden_cards():
    t = table("pablo", [F0, F1], "10C", ["7D", "8D", "2C"])
    look_all(t)  # seat 0: 5H KH; seat 1: AS 2S
    draw(t, 0)
    discard(t, 0)  # 7D
    t.act(0, {"type": "peek", "position": 3})  # QS
    draw(t, 1)
    discard(t, 1)  # 8D
    t.act(1, {"type": "spy", "seat": 0, "position": 2})  # JK
    public = {"10C", "7D", "8D"}  # the dealt card and the two discards
    assert codes_seen(t, None, FRENCH_CODE) == public
    assert codes_seen(t, 0, FRENCH_CODE) == public | {"5H", "KH", "QS"}
    assert codes_seen(t, 1, FRENCH_CODE) == public | {"AS", "2S", "JK"}


def test_every_offered_action_is_accepted():
    t = table("pablo", [F0, ["10S", "2S", "3S", "4S"]], "10C", ["7D", "9D", "2C", "3C"])
    assert check_legal(t) > 0  # setup looks
    look_all(t)
    assert check_legal(t) > 0  # draws and throws
    draw(t, 0)
    check_legal(t)  # discard, replace
    discard(t, 0)
    check_legal(t)  # peek / skip
    skip(t, 0)
    check_legal(t)  # call window
    draw(t, 1)
    discard(t, 1)  # 9D
    check_legal(t)  # the mandatory swap


def test_round_ends_after_the_first_callers_final_turn_including_its_power():
    t = playing(draws=["2C", "3C", "7D"])
    draw_discard(t, 0)  # 2C
    call(t, 0)
    draw_discard(t, 1)  # 3C
    draw(t, 0)
    discard(t, 0)  # 7D: the caller's last turn is not over before the power
    assert turn(t) == (0, "power")
    assert t.view(0)["round"] == 1
    t.act(0, {"type": "peek", "position": 2})
    assert t.view(0)["round"] == 2
    assert scores(t, 1) == {0: 25, 1: 10}  # 16 is not lower than 10: +25


def test_throw_while_a_power_is_pending():
    f1 = ["7S", "2S", "3S", "4S"]
    t = playing(fields=[F0, f1], draws=["7D"])
    draw(t, 0)
    discard(t, 0)  # 7D: peek pending
    throw(t, 1, 1, 0)  # 7S onto 7D: correct, and no power for seat 1
    assert top(t) == "7S"
    assert turn(t) == (0, "power")
    t.act(0, {"type": "peek", "position": 2})
    assert field(t, 0, 0) == ["5H", "KH", "JK", "?"]
    assert turn(t) == (1, "draw")


def test_powers_and_gives_refuse_empty_slots():
    f1 = ["10S", "2S", "3S", "4S"]
    f0 = ["10H", "KH", "JK", "QS"]
    t = playing(fields=[f0, f1], draws=["8D", "9D"])
    throw(t, 1, 1, 0)  # seat 1's slot 0 empties
    throw(t, 0, 0, 0)  # 10H onto 10S: seat 0's slot 0 empties
    draw(t, 0)
    discard(t, 0)  # 8D
    refused(t, 0, {"type": "spy", "seat": 1, "position": 0}, "empty_slot")
    refused(t, 0, {"type": "spy", "seat": 1, "position": 4}, "no_such_slot")
    t.act(0, {"type": "spy", "seat": 1, "position": 1})
    draw(t, 1)
    discard(t, 1)  # 9D
    swap = {"type": "swap", "position": 1, "seat": 0, "their_position": 0}
    refused(t, 1, swap, "empty_slot")  # seat 0's slot 0 is empty
    refused(t, 1, {**swap, "position": 0, "their_position": 1}, "empty_slot")  # own slot 0
    t.act(1, {**swap, "their_position": 1})


def test_give_position_must_hold_a_card():
    f0 = ["10H", "KH", "JK", "QS"]
    f1 = ["AS", "10S", "3S", "4S"]
    t = playing(fields=[f0, f1], top_card="10C")
    throw(t, 0, 0, 0)  # own 10H: slot 0 empties
    body = {"type": "throw", "seat": 1, "position": 1, "onto": serial(t), "give_position": 0}
    refused(t, 0, body, "empty_slot")
    throw(t, 0, 1, 1, give=2)
    assert field(t, 0, 0) == [None, "KH", None, "?"]
    assert field(t, 0, 1) == ["?", "?", "?", "?"]  # seat 0 never looked at its JK (slot 2)


def test_reshuffled_cards_are_forgotten():
    t = playing(options={"max_timeouts": 1000})
    for _ in range(44):  # every card of the draw pile went face up onto the discard pile
        t.timeout()
    assert t.view(0)["deck"]["count"] == 0
    seat, _ = turn(t)
    draw(t, seat)  # reshuffle: the new draw pile's cards are face down again
    card = held(t, seat)
    other = 1 - seat
    replace(t, seat, 2)
    assert field(t, seat, seat)[2] == card  # the drawer holds it: known
    assert field(t, other, seat)[2] == "?"  # the other player saw it face up, then forgot it


def test_look_needs_two_different_slots():
    t = table("pablo", [F0, F1], "10C")
    refused(t, 0, {"type": "look", "positions": [1, 1]}, "invalid", 400)
    refused(t, 0, {"type": "look", "positions": [1]}, "invalid", 400)
    refused(t, 0, {"type": "look", "positions": [0, 4]}, None, None)  # no slot 4 in setup


def test_no_protection_for_the_caller_in_pablo():
    f0 = ["10D", "KH", "JK", "QS"]
    f1 = ["AS", "2S", "3S", "4S"]
    t = playing(fields=[f0, f1], draws=["10H", "9D"])
    draw(t, 0)
    discard(t, 0)  # 10H
    call(t, 0)
    throw(t, 1, 0, 0, give=2)  # seat 1 throws the caller's 10D and gives its 3S
    assert field(t, 1, 0) == ["?", "?", "?", "?"]
    assert field(t, 1, 1) == ["AS", "2S", None, "?"]
    draw(t, 1)
    discard(t, 1)  # 9D: the swap may target the caller
    t.act(1, {"type": "swap", "position": 0, "seat": 0, "their_position": 1})
    assert field(t, 1, 0)[1] == "AS"  # seat 1 knew its AS; it is the caller's now


def test_discard_serial_starts_again_each_round():
    t = playing(draws=["2C", "3C", "4C"])
    play_out(t, caller=0)
    v = t.view(0)
    assert v["round"] == 2
    assert v["discard"]["count"] == 1 and v["discard"]["serial"] == 1
    assert v["deck"]["count"] == 44
    assert v["fields"] == {"0": ["?"] * 4, "1": ["?"] * 4}  # a fresh deal, nothing known


def test_eight_players_two_jokers():
    t = Table("pablo", 8, {"start_seat": 3, "jokers": 2})
    assert t.view(0)["deck"]["count"] == 54 - 8 * 4 - 1  # 21
    look_all(t)
    assert turn(t) == (3, "draw")


def test_field_emptied_while_a_power_is_pending_ends_the_round_at_once():
    f1 = ["7S", "7H", "7D", "8S"]
    t = playing(fields=[F0, f1], top_card="7C", draws=["8D"])
    throw(t, 1, 1, 0)  # 7S
    throw(t, 1, 1, 1)  # 7H
    throw(t, 1, 1, 2)  # 7D
    draw(t, 0)
    discard(t, 0)  # 8D: seat 0's spy is pending
    assert turn(t) == (0, "power")
    throw(t, 1, 1, 3)  # 8S: seat 1's field is empty -> the round ends at once
    assert t.view(0)["round"] == 2 and t.view(0)["phase"] == "setup"
    assert scores(t, 1) == {0: 16, 1: 0}  # 5 + 0 - 1 + 12 = 16
