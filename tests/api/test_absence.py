"""An absent player's way back: POST /api/games/{id}/back/ (docs/api.md)."""

from __future__ import annotations

from games.models import Event, Game
from games.services import bots as bot_services


def _cabo_game(ann, bob, cid) -> str:
    created = ann.post(
        "/api/games/",
        {"ruleset": "cabo", "seats": 3, "options": {"start_seat": 0, "max_timeouts": 1}},
        format="json",
    )
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    for player in (bob, cid):
        assert player.post(f"/api/games/{game_id}/join/").status_code == 200
    for player in (ann, bob, cid):
        player.ok(game_id, {"type": "look", "positions": [0, 1]})
    return game_id


def _time_out_current_turn(game_id: str) -> None:
    game = Game.objects.get(pk=game_id)
    assert bot_services.game_timeout(game_id=game.id, turn_key=game.turn_key) > 0


def test_an_absent_player_comes_back_and_plays_again(ann, bob, cid):
    game_id = _cabo_game(ann, bob, cid)
    _time_out_current_turn(game_id)  # seat 0's turn: max_timeouts 1 marks ann absent
    game = ann.game(game_id)
    assert game["players"][0]["absent"] is True
    assert game["state"]["turn"]["seat"] == 1

    answer = ann.post(f"/api/games/{game_id}/back/")
    assert answer.status_code == 200, answer.content
    assert answer.json()["players"][0]["absent"] is False
    last = Event.objects.filter(game_id=game_id).order_by("-seq").first()
    assert (last.type, last.seat) == ("player_returned", 0)

    # Bob and Cid play their turns; ann's turn is no longer played for her.
    for player in (bob, cid):
        player.ok(game_id, {"type": "draw", "source": "deck"})
        player.ok(game_id, {"type": "discard"})
        skip = {"type": "skip"}
        if any(a["type"] == "skip" for a in player.game(game_id)["state"]["legal_actions"]):
            player.ok(game_id, skip)
    state = ann.game(game_id)["state"]
    assert state["turn"] == {**state["turn"], "seat": 0, "stage": "draw"}


def test_coming_back_when_not_absent_is_refused(ann, bob, cid, make_player):
    game_id = _cabo_game(ann, bob, cid)
    version = ann.game(game_id)["version"]
    answer = ann.post(f"/api/games/{game_id}/back/")
    assert answer.status_code == 409
    assert answer.json()["code"] == "not_absent"
    assert ann.game(game_id)["version"] == version  # nothing stored

    stranger = make_player("dan").post(f"/api/games/{game_id}/back/")
    assert stranger.status_code == 403
    assert stranger.json()["code"] == "not_a_player"
    assert ann.post("/api/games/not-a-uuid/back/").status_code == 404
