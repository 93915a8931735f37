"""A third kind of ruleset (tests/eights.py), through the bots and the analysis alone.

Nothing in games/bots names it: the bots, the expert's search and the analysis
find it through the strategy it registers; a ruleset whose bots give the expert
no kit is offered random and basic only, and is not analysed.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import bots, rules
from games.bots import analysis, strategy
from games.bots.play import bot_view, play_game
from games.chance import DeckChance


def test_random_and_basic_bots_play_it_to_the_end(eights):
    for seed in range(12):
        levels = ["random", "basic", "basic"] if seed % 2 else ["basic", "random"]
        out = play_game(
            eights, levels, chance=DeckChance(random.Random(seed)), rng=random.Random(seed)
        )
        assert out.winners, out
        assert out.actions > 3


def test_basic_beats_random_more_often_than_not(eights):
    wins = 0
    for seed in range(30):
        out = play_game(
            eights,
            ["basic", "random"],
            chance=DeckChance(random.Random(seed)),
            rng=random.Random(seed),
        )
        wins += 0 in out.winners
    assert wins >= 16


def test_the_expert_plays_where_its_bots_give_it_a_kit(eights):
    assert bots.levels(eights) == ["random", "basic", "expert"]
    stream: list[rules.Event] = []
    play_game(
        eights,
        ["basic", "basic"],
        chance=DeckChance(random.Random(3)),
        rng=random.Random(3),
        stream=stream,
    )
    state = rules.fold(stream[:12])
    seat = state.turn_seat
    view = bot_view(state, seat)
    body = bots.decide("expert", eights, view, seat, random.Random(0), iterations=24)
    assert body in view["legal_actions"]


def test_the_analysis_weighs_its_decisions(eights):
    stream: list[rules.Event] = []
    play_game(
        eights,
        ["basic", "random"],
        chance=DeckChance(random.Random(5)),
        rng=random.Random(5),
        stream=stream,
    )
    result = analysis.analyse(list(enumerate(stream, start=1)), iterations=12)
    assert result["ruleset"] == eights
    assert result["decisions"], "a game of eights has choices to weigh"
    for row in result["decisions"]:
        assert row["loss"] >= 0
        assert row["taken"]["type"] in ("throw", "draw", "skip")
    assert [p["seat"] for p in result["players"]] == [0, 1]


def test_without_an_expert_kit_only_random_and_basic_play_and_nothing_is_analysed(eights):
    strategy.register(eights, replace(strategy.strategy_for(eights), expert=None))
    assert bots.levels(eights) == ["random", "basic"]
    assert not analysis.analysable(eights)
    with pytest.raises(LookupError):
        bots.decide(
            "expert",
            eights,
            {"legal_actions": [{"type": "skip"}], "hand": []},
            0,
            random.Random(0),
        )


def test_a_ruleset_no_bot_module_knows_is_played_by_random_only(eights):
    strategy.unregister(eights)
    assert bots.levels(eights) == ["random"]
