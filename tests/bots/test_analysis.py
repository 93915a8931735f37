"""The analysis core (games.bots.analysis): honest numbers on stacked decks, no database."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from games import rules
from games.bots import analysis
from games.bots.play import play_game
from games.chance import DeckChance

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def stream_of(ruleset: str, deck: list[str], moves: list[tuple[int, dict]]) -> list:
    """The (seq, event) stream of a 2-player game on a stacked deck, after ``moves``."""
    ctx = rules.Context(chance=DeckChance(random.Random(1), decks=[deck]), now=EPOCH)
    events = rules.create(
        ruleset, seats=2, options={"start_seat": 0}, turn_timeout=86_400, creator="ann"
    )
    state = rules.fold(events)
    new = rules.join(state, "bob", ctx)
    for e in new:
        rules.apply(state, e)
    events += new
    for seat, body in moves:
        new = rules.act_in_place(state, seat, body, ctx)
        events += new
    return list(enumerate(events, start=1))


LOOKS = [(0, {"type": "look", "positions": [0, 1]}), (1, {"type": "look", "positions": [0, 1]})]


def decision(stream: list, taken: dict) -> dict:
    result = analysis.analyse(stream, iterations=120)
    rows = [r for r in result["decisions"] if r["taken"] == taken]
    assert rows, result["decisions"]
    return rows[-1]


def test_discarding_a_known_0_instead_of_replacing_a_known_12_is_marked():
    deck = ["12", "5", "6", "7", "3", "4", "8", "9", "10", "0"]
    moves = [*LOOKS, (0, {"type": "draw", "source": "deck"}), (0, {"type": "discard"})]
    row = decision(stream_of("cabo", deck, moves), {"type": "discard"})
    # Cabo's round points are not the field's sum (the lowest scores 0), so keeping the
    # 0 in an unknown slot can come out about as well as over the 12: any replace is best.
    assert row["best"]["type"] == "replace", row
    assert row["mark"] in ("mistake", "blunder"), row
    assert row["loss"] > 2 * row["stderr"]


def test_calling_with_the_highest_hand_is_marked():
    deck = ["13", "13", "12", "11", "0", "1", "1", "2", "10", "5"]
    row = decision(stream_of("cabo", deck, [*LOOKS, (0, {"type": "call"})]), {"type": "call"})
    assert row["best"] != {"type": "call"}
    assert row["mark"] in ("mistake", "blunder"), row


def test_two_equivalent_actions_are_marked_neither():
    # A 7 drawn and discarded: peek. Slots 2 and 3 are both unknown: peeking at one
    # or the other is the same decision.
    deck = ["5", "6", "8", "9", "3", "4", "8", "9", "10", "7"]
    moves = [
        *LOOKS,
        (0, {"type": "draw", "source": "deck"}),
        (0, {"type": "discard"}),
        (0, {"type": "peek", "position": 2}),
    ]
    stream = stream_of("cabo", deck, moves)
    row = decision(stream, {"type": "peek", "position": 2})
    assert row["mark"] is None, row
    # and the other way round
    moves[-1] = (0, {"type": "peek", "position": 3})
    row = decision(stream_of("cabo", deck, moves), {"type": "peek", "position": 3})
    assert row["mark"] is None, row


def test_a_random_players_decisions_come_out_worse_than_the_experts():
    loss = {"expert": [], "random": []}
    for i in range(3):
        levels = ["expert", "random"] if i % 2 == 0 else ["random", "expert"]
        stream: list = []
        play_game(
            "cabo",
            levels,
            chance=DeckChance(random.Random(f"an{i}")),
            rng=random.Random(i),
            stream=stream,
        )
        result = analysis.analyse(list(enumerate(stream, start=1)), iterations=48)
        for row in result["decisions"]:
            loss[levels[row["seat"]]].append(row["loss"])
    mean = {k: sum(v) / len(v) for k, v in loss.items()}
    assert len(loss["expert"]) > 20 and len(loss["random"]) > 20
    assert mean["random"] > 2 * mean["expert"], mean


def test_the_analysis_is_a_function_of_the_events():
    deck = ["12", "5", "6", "7", "3", "4", "8", "9", "10", "0"]
    moves = [*LOOKS, (0, {"type": "draw", "source": "deck"}), (0, {"type": "discard"})]
    stream = stream_of("cabo", deck, moves)
    assert analysis.analyse(stream, iterations=30) == analysis.analyse(stream, iterations=30)


def test_marks_need_two_standard_errors():
    marks = analysis.default_marks("pablo")
    assert marks.mark(10.0, 6.0) is None
    assert marks.mark(10.0, 1.0) == "blunder"
    assert marks.mark(4.0, 1.0) == "mistake"
    assert marks.mark(1.5, 0.5) == "inaccuracy"
    assert marks.mark(0.9, 0.1) is None
