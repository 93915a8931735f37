"""Plain words for events, built by hand from RULES.md with a stacked deck (no database).

The deck (RULES.md §2 deal order): p0 gets 5H 6H 7H 8H, p1 2S 3S 4S 5S,
p2 9C 10C JC QC; KD is turned up; the draw pile is 7C 9D AS 2C ...
"""

from __future__ import annotations

import pytest

from games import rules
from games.rules import skipbo_words
from games.rules.family import words as family_words
from replays.steps import build_replay
from tabletop import describe as words
from tabletop.cards import card_short
from tests.replays.games import engine_game
from tests.rules.table import Table

DECK = ["5H", "6H", "7H", "8H", "2S", "3S", "4S", "5S", "9C", "10C", "JC", "QC", "KD"]
DECK += ["7C", "9D", "AS", "2C"]


@pytest.fixture(scope="module")
def pablo():
    t = Table("pablo", seats=3, options={"start_seat": 0}, decks=[DECK])
    t.act(0, {"type": "look", "positions": [0, 1]})
    t.act(1, {"type": "look", "positions": [0, 1]})
    t.act(2, {"type": "look", "positions": [2, 3]})
    t.act(0, {"type": "draw", "source": "deck"})  # 7C, a peek power (pablo: 7)
    t.act(0, {"type": "discard"})
    t.act(0, {"type": "peek", "position": 2})  # 7H
    # p1 throws p0's 7H onto the 7C: same rank -> correct; serial 2 (KD was 1, 7C is 2)
    t.act(1, {"type": "throw", "seat": 0, "position": 2, "onto": 2})
    t.act(1, {"type": "draw", "source": "deck"})  # 9D, the blind swap (pablo: 9)
    t.act(1, {"type": "discard"})
    t.act(1, {"type": "swap", "position": 0, "seat": 2, "their_position": 0})  # 2S <-> 9C
    t.act(1, {"type": "call"})
    # p2 throws their own 10C onto the 9D: wrong -> penalty AS (next of the draw pile).
    # serial: KD 1, 7C 2, the thrown 7H 3, 9D 4
    t.act(2, {"type": "throw", "seat": 2, "position": 1, "onto": 4})
    return build_replay("g", len(t.events), t.events)


def said(replay, number, seat=None):
    return replay.sentences(seat, number, number)[0]


def test_step_zero_sums_up_the_deal(pablo):
    assert said(pablo, 0) == ["p0, p1 and p2 sit down; round 1 is dealt."]


def test_looks_name_the_cards_only_to_the_looker(pablo):
    assert said(pablo, 1) == ["p0 looked at their slots 0 and 1: 5♥ and 6♥."]
    assert said(pablo, 1, 0) == ["p0 looked at their slots 0 and 1: 5♥ and 6♥."]
    assert said(pablo, 1, 1) == ["p0 looked at their slots 0 and 1."]


def test_a_new_turn_is_said_with_the_step_that_ended_the_last_one(pablo):
    assert said(pablo, 3) == [
        "p2 looked at their slots 2 and 3: J♣ and Q♣.",
        "Now it is p0's turn.",
    ]


def test_draw_discard_power(pablo):
    assert said(pablo, 4) == ["p0 drew 7♣ from the deck."]
    assert said(pablo, 4, 1) == ["p0 drew from the deck."]
    # discarding shows the card to everyone
    expected = "p0 discarded 7♣: its power lets them peek at one of their own cards (optional)."
    assert said(pablo, 5, 2) == [expected]
    assert said(pablo, 6)[0] == "p0 peeked at their slot 2: 7♥."
    assert said(pablo, 6, 1)[0] == "p0 peeked at their slot 2."


def test_throws_say_whose_card_and_the_verdict(pablo):
    assert said(pablo, 7, 2) == ["p1 threw p0's 7♥ — correct."]
    assert said(pablo, 12) == [
        "p2 threw their own 10♣ — wrong: it stays where it was, shown to everyone."
    ]
    assert said(pablo, 13) == ["p2 takes a penalty card (A♠) into new slot 4, face down."]
    # p2 did not see the penalty card (pablo: not seen by them)
    assert said(pablo, 13, 2) == ["p2 takes a penalty card into new slot 4, face down."]


def test_blind_swap_names_cards_only_in_the_all_cards_view(pablo):
    assert said(pablo, 10)[0] == "p1 swapped their slot 0 with p2's slot 0 (2♠ for 9♣)."
    assert "9♣" not in said(pablo, 10, 1)[0]
    assert "2♠" not in said(pablo, 10, 2)[0]


def test_call_is_a_jump_target(pablo):
    assert said(pablo, 11) == ["p1 called Pablo."]
    assert (11, "p1 called") in pablo.jumps
    assert pablo.steps[11].tags == ("call",)


FAMILY_EVENTS = {
    "round_started", "looked", "turn_started", "drawn", "reshuffled", "discarded",
    "replaced", "peeked", "spied", "swapped", "power_skipped", "thrown", "penalty",
    "called", "round_ended",
}  # fmt: skip
SKIPBO_EVENTS = {
    "round_started", "turn_started", "cards_drawn", "draw_pile_reshuffled", "card_played",
    "pile_completed", "card_discarded", "turn_ended",
}  # fmt: skip


def test_every_event_type_has_its_own_words():
    # the engine's events are the pages'; a ruleset's own events are its own to say
    assert not rules.ENGINE_EVENTS - set(words.DESCRIBE)
    assert FAMILY_EVENTS <= set(family_words.DESCRIBE) == set(rules.get_ruleset("cabo").event_types)
    assert (
        SKIPBO_EVENTS <= set(skipbo_words.DESCRIBE) == set(rules.get_ruleset("skipbo").event_types)
    )


@pytest.mark.parametrize("ruleset", ["pablo", "pablo-50", "tamalou", "cabo", "skipbo"])
def test_played_games_use_no_fallback_and_no_hidden_card(ruleset):
    t = engine_game(ruleset, 3, seed=5, options={"stock_size": 5} if ruleset == "skipbo" else {})
    described = set(words.DESCRIBE) | set(rules.get_ruleset(ruleset).event_types)
    assert {e.type for e in t.events} <= described
    replay = build_replay("g", len(t.events), t.events)
    for seat in (None, 0, 1, 2):
        for step, sentences in zip(
            replay.steps, replay.sentences(seat, 0, replay.last), strict=True
        ):
            assert sentences, f"step {step.number} says nothing to {seat}"
            for text in sentences:
                assert "_" not in text, text  # a fallback spells the event type


def test_a_third_ruleset_says_its_own_events(eights):
    # Crazy Eights (tests/eights.py): its words are its own (Ruleset.describe), said by the
    # pages without a line of theirs naming it; a seat never reads the other hand's cards
    t = engine_game(eights, 2, seed=3)
    replay = build_replay("g", len(t.events), t.events)
    assert said(replay, 0) == ["p0 and p1 sit down; the hands are dealt."]
    for seat in (None, 0, 1):
        for sentences in replay.sentences(seat, 1, replay.last):
            assert sentences
            for text in sentences:
                assert "_" not in text, text
    draws = [
        n
        for n, step in enumerate(replay.steps)
        if step.main is not None
        and t.events[step.main].type == "card_drawn"
        and t.events[step.main].seat == 0
    ]
    assert draws, "the test needs a draw"
    code = t.events[replay.steps[draws[0]].main].data["code"]
    assert card_short(code, "french") in said(replay, draws[0])[0]
    assert said(replay, draws[0], 1) == ["p0 drew a card."]


def test_cabo_cards_are_named_in_sentences_not_read_as_slots():
    """Cabo's cards are numbers, as its slots are: "1 and 2 do not match" read like
    slots (issue 28). Sentences name them as the cards do: "Cabo 1 and Cabo 2"."""
    # p0 1 2 3 4, p1 5 6 8 9, 11 turned up; the draw pile 6, 2, ...
    deck = ["1", "2", "3", "4", "5", "6", "8", "9", "11", "6", "2"]
    t = Table("cabo", seats=2, options={"start_seat": 0}, decks=[deck])
    t.act(0, {"type": "look", "positions": [0, 1]})
    t.act(1, {"type": "look", "positions": [0, 1]})
    t.act(0, {"type": "draw", "source": "deck"})  # 6
    t.act(0, {"type": "replace", "positions": [0, 1]})  # 1 and 2: wrong
    t.act(1, {"type": "draw", "source": "deck"})  # 2
    t.act(1, {"type": "replace", "positions": [0]})  # the 5 goes
    replay = build_replay("g", len(t.events), t.events)
    told = " ".join(s for step in replay.sentences(None, 0, replay.last) for s in step)
    assert "Cabo\u00a01 and" in told  # a line never breaks between the name and the number
    told = told.replace("\u00a0", " ")
    assert "Cabo 1 and Cabo 2 do not match" in told, told
    assert "Cabo 6 goes onto the discard pile" in told, told
    assert "p1 put Cabo 2 into" in told and "discarding Cabo 5" in told, told
