"""A third kind of ruleset (tests/eights.py, registered by the test) through the API.

Nothing outside games/rules and games/bots names it: the rulesets list, game
creation with bots, actions, the event feed's redaction, the bots' moves (the
service a worker runs), the replay and the analysis all reach it through its
protocol and its bots' strategy.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.bots import strategy
from games.models import Game, GameAnalysis
from games.selectors import bots as bot_selectors
from games.selectors import games as game_selectors
from games.services import analysis as analysis_services
from games.services import bots as bot_services

pytestmark = pytest.mark.django_db


def play_out(ann, game_id: str, rng: random.Random) -> dict:
    """Ann picks a random legal action through the API; the bots move as a worker would."""
    for _ in range(500):
        data = ann.game(game_id)
        if data["status"] != "active":
            return data
        legal = data["state"]["legal_actions"]
        if legal:
            body = {**rng.choice(legal), "expected_version": data["version"]}
            answer = ann.act(game_id, body)
            assert answer.status_code in (200, 201), answer.content
            continue
        game = Game.objects.get(pk=game_id)
        state = game_selectors.game_state(game=game)
        (seat,) = bot_selectors.bots_due(state)
        assert bot_services.game_bot_act(game_id=game.id, seat=seat, version=state.version) > 0
    raise AssertionError("no end after 500 moves")


def test_it_is_listed_with_the_levels_its_bots_play(anon, eights):
    listed = {r["id"]: r for r in anon.get("/api/rulesets/").json()}
    assert listed[eights]["name"] == "Crazy Eights"
    assert listed[eights]["bot_levels"] == ["random", "basic", "expert"]


def test_a_person_plays_it_to_the_end_against_a_random_and_a_basic_bot(ann, eights):
    answer = ann.post(
        "/api/games/",
        {
            "ruleset": eights,
            "seats": 3,
            "bots": [{"seat": 1, "level": "random"}, {"seat": 2, "level": "basic"}],
        },
        format="json",
    )
    assert answer.status_code == 201, answer.content
    game = answer.json()
    assert game["status"] == "active"
    assert len(game["state"]["hand"]) == 5
    assert set(game["state"]["hand_counts"]) == {"0", "1", "2"}
    done = play_out(ann, game["id"], random.Random(4))
    assert done["status"] == "finished" and done["state"]["result"]["winners"]
    # ann's feed shows her own hand and draws, never the bots' cards; the replay shows all
    feed = ann.get(f"/api/games/{game['id']}/events/").json()["events"]
    dealt = next(e for e in feed if e["type"] == "dealt")
    assert "deck" not in dealt["data"] and len(dealt["data"]["hand"]) == 5
    draws = [e for e in feed if e["type"] == "card_drawn"]
    assert all(("code" in e["data"]) == (e["seat"] == 0) for e in draws)
    replay = ann.get(f"/api/games/{game['id']}/replay/")
    assert replay.status_code == 200, replay.content
    assert any(e["type"] == "card_put" for e in replay.json()["events"])


def test_it_is_analysed(ann, eights, settings):
    settings.PABLO_ANALYSIS_ITERATIONS = 12
    game = ann.post(
        "/api/games/",
        {"ruleset": eights, "seats": 2, "bots": [{"seat": 1, "level": "basic"}]},
        format="json",
    ).json()
    play_out(ann, game["id"], random.Random(7))
    url = f"/api/games/{game['id']}/analysis/"
    assert ann.post(url).status_code == 202
    assert analysis_services.analysis_run(analysis_id=GameAnalysis.objects.get().pk) > 0
    data = ann.get(url).json()
    assert data["status"] == "done" and data["decisions"]
    assert {d["taken"]["type"] for d in data["decisions"]} <= {"throw", "draw", "skip"}


def test_expert_is_offered_only_where_its_bots_give_it_a_kit(ann, anon, eights):
    strategy.register(eights, replace(strategy.strategy_for(eights), expert=None))
    listed = {r["id"]: r for r in anon.get("/api/rulesets/").json()}
    assert listed[eights]["bot_levels"] == ["random", "basic"]
    answer = ann.post(
        "/api/games/",
        {"ruleset": eights, "seats": 2, "bots": [{"seat": 1, "level": "expert"}]},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_bots"
    assert "random, basic" in answer.json()["detail"]
    answer = ann.post(
        "/api/games/",
        {"ruleset": eights, "seats": 2, "options": {"stand_in": "expert"}},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_option"
    assert "stand_in" in answer.json()["detail"]
    # still expert where the bots have one
    answer = ann.post(
        "/api/games/",
        {"ruleset": "cabo", "seats": 2, "bots": [{"seat": 1, "level": "expert"}]},
        format="json",
    )
    assert answer.status_code == 201, answer.content


def test_a_finished_game_of_a_ruleset_without_analysis_is_refused(ann, eights):
    strategy.register(eights, replace(strategy.strategy_for(eights), expert=None))
    game = ann.post(
        "/api/games/",
        {"ruleset": eights, "seats": 2, "bots": [{"seat": 1, "level": "basic"}]},
        format="json",
    ).json()
    play_out(ann, game["id"], random.Random(2))
    answer = ann.post(f"/api/games/{game['id']}/analysis/")
    assert answer.status_code == 409 and answer.json()["code"] == "not_analysable"
    assert not GameAnalysis.objects.exists()
