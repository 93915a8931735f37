"""Stacked-deck scenarios for ``tamalou`` (RULES.md §2, §5, §8).

Values: A 1, 2-10 face value, J/Q/K 10, KD 0. Each player knows slots 0 and 1
from the deal (no setup phase). Pairs rule; 7 peek, 8 swap (optional, the actor
sees the card received); no throwing; caller -5 or total + 10.
"""

from __future__ import annotations

import pytest

from games import rules
from games.rules import Malformed
from games.rules.cards import french_deck
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
    play_out,
    refused,
    replace,
    scores,
    serial,
    skip,
    status_of,
    table,
    top,
    totals,
    turn,
)
from tests.rules.table import Table

R = "tamalou"
LOW0 = ["AS", "2S", "3S", "4S"]  # 1 + 2 + 3 + 4 = 10
LOW1 = ["AH", "2H", "3H", "4H"]  # 10
HIGH = ["JS", "QS", "KS", "10S"]  # 10 + 10 + 10 + 10 = 40


def value(code: str) -> int:
    """Tamalou values, written out independently of the engine."""
    rank = code[:-1]
    if code == "KD":
        return 0
    if rank == "A":
        return 1
    if rank in ("J", "Q", "K"):
        return 10
    return int(rank)


# --------------------------------------------------------------------------- deal


def test_known_slots_0_and_1_no_setup_phase():
    t = table(R, [["5S", "3S", "8S", "5H"], LOW1], "9C")
    v = t.view(0)
    assert v["phase"] == "turn"
    assert v["turn"]["seat"] == 0 and v["turn"]["stage"] == "draw"
    assert v["deck"]["count"] == 43  # 52 - 8 - 1
    assert v["fields"]["0"] == ["5S", "3S", "?", "?"]
    assert v["fields"]["1"] == ["?", "?", "?", "?"]
    assert field(t, 1, 1) == ["AH", "2H", "?", "?"]
    assert_public_only(t)
    refused(t, 0, {"type": "look", "positions": [2, 3]}, {"wrong_stage", "not_in_ruleset"})
    refused(t, 1, {"type": "draw", "source": "deck"}, "not_your_turn")


def test_values_caller_strictly_lowest_scores_minus_5():
    f0 = ["AS", "KD", "2S", "3S"]  # 1 + 0 + 2 + 3 = 6
    f1 = ["JH", "QH", "KH", "10H"]  # 40
    t = table(R, [f0, f1], "9C", ["2C", "3C"])
    draw_discard(t, 0)  # 2C
    call(t, 0)
    draw_discard(t, 1)  # 3C; the turn would return to the caller: over
    assert totals(t, 1) == {0: 6, 1: 40}
    assert scores(t, 1) == {0: -5, 1: 40}
    assert t.state.scores == [-5, 40]
    v = t.view(0)
    assert v["round"] == 2 and v["phase"] == "turn"  # no setup phase in tamalou
    assert turn(t) == (1, "draw")  # the seat after the previous start player


def test_caller_tied_scores_total_plus_10():
    t = table(R, [LOW0, LOW1], "9C", ["2C", "3C"])
    play_out(t, caller=0)
    assert scores(t, 1) == {0: 20, 1: 10}  # 10 + 10; seat 1: 10


def test_caller_higher_scores_total_plus_10():
    t = table(R, [LOW0, HIGH, LOW1], "9C", ["2C", "3C", "5C", "6C"])
    play_out(t, caller=1)  # turns 0, 1 + call, 2, 0; back to seat 1: over
    assert scores(t, 1) == {0: 10, 1: 50, 2: 10}  # 40 + 10


# --------------------------------------------------------------------------- draw, replace, pairs


def test_take_the_discard_top():
    t = table(R, [LOW0, LOW1], "7C", ["2C"])
    draw(t, 0, "discard")
    assert held(t, 1) == "7C" and held(t, None) == "7C"
    assert t.view(0)["discard"]["count"] == 0
    discard(t, 0)  # a card taken from the pile has no power
    assert turn(t) == (1, "draw")
    assert top(t) == "7C" and serial(t) == 2


def test_pairs_rule_the_source_example():
    # 5 3 / 8 5, drawn 4, replace the pair of 5s -> 4 3 / 8 _
    f0 = ["5S", "3S", "8S", "5H"]
    f1 = ["9H", "9D", "10H", "JH"]  # 9 + 9 + 10 + 10 = 38
    t = table(R, [f0, f1], "QC", ["4C", "2C", "3C"])
    draw(t, 0)  # 4C
    replace(t, 0, 0, 3)
    assert field(t, 0, 0) == ["4C", "3S", "?", None]
    assert field(t, 1, 0) == ["?", "?", "?", None]
    v = t.view(1)
    assert v["discard"]["count"] == 3 and v["discard"]["serial"] == 3  # QC + 5S + 5H
    assert v["discard"]["top"] in ("5S", "5H")
    assert turn(t) == (1, "draw")
    call(t, 0)
    draw_discard(t, 1)  # 2C
    # seat 0: 4 + 3 + 8 = 15 < 38 -> -5
    assert totals(t, 1) == {0: 15, 1: 38}
    assert scores(t, 1) == {0: -5, 1: 38}


def test_pairs_need_not_match_the_held_card_and_may_be_triples_or_quadruples():
    f0 = ["6S", "6H", "6D", "6C"]
    t = table(R, [f0, LOW1], "QC", ["KD", "2C", "3C"])
    draw(t, 0)  # KD (0)
    replace(t, 0, 1, 0, 3, 2)  # all four 6s; the held card goes into the first named slot
    assert field(t, 0, 0) == [None, "KD", None, None]
    assert t.view(0)["discard"]["count"] == 5  # QC + four 6s
    call(t, 0)
    draw_discard(t, 1)
    assert totals(t, 1) == {0: 0, 1: 10}
    assert scores(t, 1) == {0: -5, 1: 10}


def test_failed_pair_shows_the_cards_and_adds_the_held_card_in_a_new_slot():
    f0 = ["5S", "3S", "8S", "5H"]
    t = table(R, [f0, HIGH], "QC", ["4C", "2C", "3C"])
    draw(t, 0)  # 4C
    replace(t, 0, 1, 2)  # 3S and 8S: not a pair
    assert field(t, 1, 0) == ["?", "3S", "8S", "?", "?"]  # shown to everyone
    assert field(t, 0, 0) == ["5S", "3S", "8S", "?", "4C"]  # the held card, known to seat 0
    assert top(t) == "QC" and t.view(0)["discard"]["count"] == 1
    assert turn(t) == (1, "draw")
    call(t, 0)
    draw_discard(t, 1)
    # seat 0: 5 + 3 + 8 + 5 + 4 = 25 < 40 -> -5
    assert totals(t, 1) == {0: 25, 1: 40}
    assert scores(t, 1) == {0: -5, 1: 40}


def test_pair_with_a_card_taken_from_the_discard_pile():
    f0 = ["5S", "3S", "8S", "5H"]
    t = table(R, [f0, HIGH], "2C")
    draw(t, 0, "discard")  # 2C, public
    replace(t, 0, 3, 0)
    assert field(t, 0, 0) == [None, "3S", "?", "2C"]
    assert field(t, 1, 0) == [None, "?", "?", "2C"]  # everyone saw the 2C


def test_failed_pair_with_a_discard_card_is_known_to_all():
    t = table(R, [["5S", "3S", "8S", "5H"], HIGH], "2C")
    draw(t, 0, "discard")
    replace(t, 0, 0, 1)
    assert field(t, 1, 0) == ["5S", "3S", "?", "?", "2C"]


def test_replace_errors():
    t = table(R, [["5S", "3S", "8S", "5H"], HIGH], "2C", ["4C", "2D", "3C"])
    draw(t, 0)
    refused(t, 0, {"type": "replace", "positions": [4]}, "no_such_slot")
    refused(t, 0, {"type": "replace", "positions": [0, 1, 2, 3, 4]}, None, None)
    replace(t, 0, 0, 3)  # pair of 5s
    draw_discard(t, 1)  # 2D
    draw(t, 0)  # 3C
    refused(t, 0, {"type": "replace", "positions": [3]}, "empty_slot")


# --------------------------------------------------------------------------- powers


def test_seven_peek_optional():
    t = table(R, [LOW0, LOW1], "9C", ["7C", "7D"])
    draw(t, 0)
    discard(t, 0)
    assert turn(t) == (0, "power")
    t.act(0, {"type": "peek", "position": 3})
    assert field(t, 0, 0) == ["AS", "2S", "?", "4S"]
    assert_hidden(t, 1, 0, range(4))
    draw(t, 1)
    discard(t, 1)
    skip(t, 1)
    assert turn(t) == (0, "draw")


def test_eight_swap_optional_and_not_blind_for_the_actor():
    f0 = ["2S", "3S", "4S", "5S"]
    f1 = ["2H", "3H", "4H", "5H"]
    t = table(R, [f0, f1], "9C", ["8C", "8D"])
    draw(t, 0)
    discard(t, 0)
    assert turn(t) == (0, "power")
    t.act(0, {"type": "swap", "position": 2, "seat": 1, "their_position": 0})  # 4S <-> 2H
    assert field(t, 0, 0) == ["2S", "3S", "2H", "?"]  # the actor sees the card received
    assert field(t, 0, 1) == ["?", "?", "?", "?"]  # it did not know the 4S it gave
    assert field(t, 1, 1) == ["?", "3H", "?", "?"]  # seat 1 does not learn the 4S
    assert field(t, 1, 0) == ["?", "?", "2H", "?"]  # but knows where its 2H went
    assert turn(t) == (1, "draw")
    draw(t, 1)
    discard(t, 1)
    assert turn(t) == (1, "power")
    skip(t, 1)  # the swap is optional
    assert turn(t) == (0, "draw")
    assert_public_only(t)


def test_eight_swap_of_a_known_card_the_giver_still_knows_it():
    f0 = ["2S", "3S", "4S", "5S"]
    f1 = ["2H", "3H", "4H", "5H"]
    t = table(R, [f0, f1], "9C", ["8C"])
    draw(t, 0)
    discard(t, 0)
    t.act(0, {"type": "swap", "position": 0, "seat": 1, "their_position": 3})  # 2S <-> 5H
    assert field(t, 0, 0) == ["5H", "3S", "?", "?"]
    assert field(t, 0, 1) == ["?", "?", "?", "2S"]
    assert field(t, 1, 1) == ["2H", "3H", "?", "?"]


def test_no_power_from_the_discard_pile_or_a_replaced_card():
    t = table(R, [["7S", "8S", "2S", "3S"], LOW1], "8C", ["9C"])
    draw(t, 0, "discard")  # 8C
    replace(t, 0, 0)  # 7S face up: no peek
    assert turn(t) == (1, "draw")
    draw(t, 1, "discard")  # 7S
    discard(t, 1)  # no peek
    assert turn(t) == (0, "draw")


def test_no_throwing_in_tamalou():
    t = table(R, [["9S", "2S", "3S", "4S"], LOW1], "9C")
    refused(t, 0, {"type": "throw", "seat": 0, "position": 0, "onto": 1}, "not_in_ruleset")
    refused(t, 1, {"type": "throw", "seat": 0, "position": 0, "onto": 1}, "not_in_ruleset")


# --------------------------------------------------------------------------- calls


def test_call_right_after_own_turn_once_per_round_and_round_end():
    t = table(R, [LOW0, LOW1, HIGH], "9C", ["2C", "3C", "4C", "5C"])
    refused(t, 0, {"type": "call"}, {"cannot_call", "wrong_stage"})  # before playing
    draw_discard(t, 0)
    refused(t, 1, {"type": "call"}, "cannot_call")
    draw(t, 1)  # the next player drew: too late for seat 0
    refused(t, 0, {"type": "call"}, "cannot_call")
    discard(t, 1)
    call(t, 1)
    assert t.view(0)["called_by"] == [1]
    draw_discard(t, 2)
    refused(t, 2, {"type": "call"}, "already_called")
    assert t.view(0)["round"] == 1
    draw_discard(t, 0)  # the turn would return to seat 1: over
    assert t.view(0)["round"] == 2
    # 0: 10, 1: 10 (caller tied -> 10 + 10), 2: 40
    assert scores(t, 1) == {0: 10, 1: 20, 2: 40}


# --------------------------------------------------------------------------- game end, options


def test_game_ends_at_100_lowest_wins():
    r = deal([LOW0, HIGH], "9C", ["2C", "3C", "4C", "5C"])
    t = Table(R, 2, {"start_seat": 0}, decks=[r, r])
    play_out(t, caller=1)
    assert scores(t, 1) == {0: 10, 1: 50}  # 40 + 10
    assert turn(t) == (1, "draw")
    play_out(t, caller=1)
    assert t.state.scores == [20, 100]  # 50 + 50 reaches 100
    assert t.state.status == "finished"
    assert t.view(0)["result"] == {"winners": [0], "losers": []}
    assert t.view(0)["phase"] == "over"


def test_two_decks_allow_up_to_12_players():
    for seats, options in ((7, {}), (13, {"decks": 2})):
        with pytest.raises(Malformed) as caught:
            rules.create(R, seats=seats, options=options, turn_timeout=60, creator="a")
        assert status_of(caught.value) == 400
        assert caught.value.code in ("invalid_seats", "invalid_option")
    with pytest.raises(Malformed) as caught:
        rules.create(R, seats=2, options={"decks": 3}, turn_timeout=60, creator="a")
    assert caught.value.code == "invalid_option"
    rules.create(R, seats=2, options={}, turn_timeout=60, creator="a")
    rules.create(R, seats=6, options={"decks": 1}, turn_timeout=60, creator="a")
    rules.create(R, seats=12, options={"decks": 2}, turn_timeout=60, creator="a")


def test_seven_players_two_decks_equal_cards_are_distinct_objects():
    t = Table(R, 7, {"start_seat": 0, "decks": 2}, decks=[["5S", "5S", "2H", "3H"]])
    v = t.view(0)
    assert v["deck"]["count"] == 104 - 7 * 4 - 1  # 75
    assert v["fields"]["0"] == ["5S", "5S", "?", "?"]
    draw(t, 0)
    drawn = held(t, 0)
    replace(t, 0, 0, 1)  # the two 5S are a pair
    assert field(t, 0, 0) == [drawn, None, "?", "?"]
    assert t.view(3)["discard"]["count"] == 3


# --------------------------------------------------------------------------- draw pile


def test_reshuffle_when_the_draw_pile_runs_out():
    t = table(R, [LOW0, LOW1], "9C", options={"max_timeouts": 1000})
    for _ in range(43):  # each timed-out turn draws and discards one card
        t.timeout()
    v = t.view(0)
    assert v["deck"]["count"] == 0 and v["discard"]["count"] == 44  # 1 + 43
    t.timeout()
    v = t.view(0)
    assert v["deck"]["count"] == 42  # 44 - 1 top = 43 reshuffled, one drawn
    assert v["discard"]["count"] == 2 and v["discard"]["serial"] == 45


def test_no_card_left_ends_the_round_at_once():
    f0 = ["2S", "3S", "4S", "5S"]
    f1 = ["2H", "3H", "4H", "5H"]
    used = [*f0, *f1, "KD"]
    rest = list(french_deck())
    for code in used:
        rest.remove(code)
    t = table(R, [f0, f1], "KD", rest)
    # every turn: draw and name slots 0 and 1 (a 2 and a 3): a failed pair, the held
    # card joins the field. 43 turns empty the draw pile, the discard pile keeps its KD.
    for i in range(43):
        seat = i % 2
        assert turn(t) == (seat, "draw")
        draw(t, seat)
        replace(t, seat, 0, 1)
    assert t.view(0)["deck"]["count"] == 0
    assert t.view(0)["discard"]["count"] == 1
    assert len(field(t, 0, 0)) == 4 + 22 and len(field(t, 0, 1)) == 4 + 21
    draw(t, 1)  # nothing to draw, nothing to reshuffle: the round ends at once
    total0 = 14 + sum(value(c) for c in rest[0::2])  # 2 + 3 + 4 + 5 = 14, plus the 22 drawn
    total1 = 14 + sum(value(c) for c in rest[1::2])
    assert total0 + total1 == 330  # 4 * (55 + 30) - 10 (KD is 0): every card but the KD
    assert totals(t, 1) == {0: total0, 1: total1}
    assert scores(t, 1) == {0: total0, 1: total1}


# --------------------------------------------------------------------------- timeouts


def test_timeouts_per_phase():
    t = table(R, [LOW0, LOW1], "9C", ["7C", "8C", "2C", "8D"])
    events = t.timeout()  # nothing drawn: draw 7C and discard it, no peek
    assert [e.seat for e in events if e.type == "turn_timed_out"] == [0]
    assert top(t) == "7C" and turn(t) == (1, "draw")
    draw(t, 1)  # 8C
    t.timeout()  # holding: discard, no swap
    assert top(t) == "8C" and turn(t) == (0, "draw")
    draw_discard(t, 0)  # 2C
    draw(t, 1)
    discard(t, 1)  # 8D
    assert turn(t) == (1, "power")
    t.timeout()  # the optional swap is skipped
    assert turn(t) == (0, "draw")
    assert field(t, 1, 1) == ["AH", "2H", "?", "?"]
    assert field(t, 0, 0) == ["AS", "2S", "?", "?"]


def test_event_views_never_show_hidden_cards():
    f0 = ["2S", "3S", "4S", "5S"]
    f1 = ["2H", "3H", "4H", "5H"]
    t = table(R, [f0, f1], "9C", ["8C", "7C"])
    draw(t, 0)
    discard(t, 0)  # 8C
    t.act(0, {"type": "swap", "position": 2, "seat": 1, "their_position": 3})  # 4S <-> 5H
    draw(t, 1)
    discard(t, 1)  # 7C
    t.act(1, {"type": "peek", "position": 3})  # the 4S it received
    public = {"9C", "8C", "7C"}
    assert codes_seen(t, None, FRENCH_CODE) == public
    assert codes_seen(t, 0, FRENCH_CODE) == public | {"2S", "3S", "5H"}  # dealt 0-1, received
    assert codes_seen(t, 1, FRENCH_CODE) == public | {"2H", "3H", "4S"}  # dealt 0-1, peeked
    assert field(t, 1, 1) == ["2H", "3H", "?", "4S"]
    assert field(t, 0, 0) == ["2S", "3S", "5H", "?"]


def test_every_offered_action_is_accepted():
    t = table(R, [["5S", "5H", "8S", "3S"], LOW1], "9C", ["8C", "2C", "7C"])
    assert check_legal(t) > 0
    draw(t, 0)
    check_legal(t)  # discard, replace one to four slots
    discard(t, 0)  # 8C
    check_legal(t)  # swap / skip
    skip(t, 0)
    check_legal(t)  # call
    draw(t, 1, "discard")
    check_legal(t)


def test_reshuffled_cards_are_forgotten():
    t = table(R, [LOW0, LOW1], "9C", options={"max_timeouts": 1000})
    for _ in range(43):
        t.timeout()
    seat, _ = turn(t)
    draw(t, seat)  # reshuffles: every card of the new draw pile was seen face up
    card = held(t, seat)
    replace(t, seat, 2)
    assert field(t, seat, seat)[2] == card
    assert field(t, 1 - seat, seat)[2] == "?"
