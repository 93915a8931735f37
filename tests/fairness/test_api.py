"""Seeds on create and join, the commitment from the first answer, and secrecy.

The server seed must not appear in any answer, event feed, game list or log
line before the game ends -- neither as hex nor as the raw bytes -- and no
draw may happen before the last seat is taken.
"""

from __future__ import annotations

import hashlib
import logging
import random

import pytest

from games.models import Event, FairDraw, Game
from games.services import games as game_services
from tests.api.conftest import Player
from tests.api.test_full_games import choose

pytestmark = pytest.mark.django_db


class Recording(Player):
    """A player whose every answer body is kept."""

    seen: list[bytes]

    def request(self, **kwargs):
        response = super().request(**kwargs)
        self.seen.append(response.content)
        return response


@pytest.fixture
def recorded(make_player):
    seen: list[bytes] = []

    def make(name: str) -> Recording:
        player = make_player(name)
        player.__class__ = Recording
        player.seen = seen
        return player

    return make, seen


def test_seed_is_validated_and_named(make_player):
    ann = make_player("ann")
    for bad in (12, None, ["x"], "x" * 65):
        answer = ann.post(
            "/api/games/", {"ruleset": "cabo", "seats": 2, "seed": bad}, format="json"
        )
        assert answer.status_code == 400, bad
        assert answer.json()["detail"].startswith("seed"), answer.json()
    game = ann.post(
        "/api/games/", {"ruleset": "cabo", "seats": 3, "seed": "é" * 64}, format="json"
    ).json()
    assert game["fairness"]["player_seeds"] == {"0": "é" * 64}
    bob = make_player("bob")
    answer = bob.post(f"/api/games/{game['id']}/join/", {"seed": "y" * 65}, format="json")
    assert answer.status_code == 400 and answer.json()["detail"].startswith("seed")
    assert Game.objects.get(pk=game["id"]).version == 2  # nothing stored
    answer = bob.post(f"/api/games/{game['id']}/join/", {"seed": " bob "}, format="json")
    assert answer.status_code == 200
    assert answer.json()["fairness"]["player_seeds"] == {"0": "é" * 64, "1": " bob "}
    # Seated already: 409, and the seed given stays.
    again = bob.post(f"/api/games/{game['id']}/join/", {"seed": "other"}, format="json")
    assert again.status_code == 409
    cid, dan = make_player("cid"), make_player("dan")
    assert cid.post(f"/api/games/{game['id']}/join/").status_code == 200  # no body: ""
    late = dan.post(f"/api/games/{game['id']}/join/", {"seed": "late"}, format="json")
    assert late.status_code == 409
    seeds = bob.game(game["id"])["fairness"]["player_seeds"]
    assert seeds == {"0": "é" * 64, "1": " bob ", "2": ""}


def test_no_draw_before_the_last_seat(make_player):
    ann, bob, cid = make_player("ann"), make_player("bob"), make_player("cid")
    body = {"ruleset": "pablo", "seats": 3, "options": {"start_seat": None}}
    gid = ann.post("/api/games/", body, format="json").json()["id"]
    bob.post(f"/api/games/{gid}/join/")
    assert not FairDraw.objects.filter(game_id=gid).exists()
    assert not Event.objects.filter(game_id=gid, type="round_started").exists()
    cid.post(f"/api/games/{gid}/join/", {"seed": "last"}, format="json")
    draws = list(FairDraw.objects.filter(game_id=gid).order_by("k"))
    assert [(d.k, d.kind, d.round, d.input) for d in draws[:1]] == [(0, "start_seat", 1, None)]
    assert draws[1].kind == "deal" and draws[1].round == 1
    started = Event.objects.get(game_id=gid, type="round_started")
    assert started.data["start_seat"] == draws[0].output
    assert started.data["deck"] == draws[1].output


def test_stacked_decks_have_no_fairness(make_player):
    ann, bob = make_player("ann"), make_player("bob")
    body = {"ruleset": "cabo", "seats": 2, "decks": [["5", "7"]], "seed": "ignored"}
    game = ann.post("/api/games/", body, format="json").json()
    assert game["fairness"] is None
    bob.post(f"/api/games/{game['id']}/join/")
    assert bob.game(game["id"])["fairness"] is None
    assert not FairDraw.objects.filter(game_id=game["id"]).exists()
    assert Game.objects.get(pk=game["id"]).server_seed is None


def test_the_server_seed_stays_secret_until_the_end(recorded, caplog, monkeypatch):
    caplog.set_level(logging.DEBUG)
    make, seen = recorded
    players = [make("ann"), make("bob")]
    gid = (
        players[0].post("/api/games/", {"ruleset": "cabo", "seats": 2}, format="json").json()["id"]
    )
    players[1].post(f"/api/games/{gid}/join/", {"seed": "b"}, format="json")
    secret = bytes(Game.objects.get(pk=gid).server_seed)
    commitment = hashlib.sha256(secret).hexdigest()
    rng = random.Random(3)
    view = players[0].game(gid)
    for _ in range(3000):
        if view["status"] != "active":
            break
        assert view["fairness"] == {
            "commitment": commitment,
            "player_seeds": {"0": "", "1": "b"},
            "server_seed": None,
        }
        seat = view["state"]["turn"]["seat"]
        for s in [seat] if seat is not None else [0, 1]:
            view = players[s].game(gid)
            body = choose(view["state"]["legal_actions"], rng)
            if body:
                break
        mark = len(seen)  # the answers before the action that may end the game
        view = players[s].ok(gid, body)["game"]
        if view["status"] == "active":
            players[1 - s].get(f"/api/games/{gid}/events/")
            players[1 - s].get("/api/games/?mine=true")
            assert players[s].get(f"/api/games/{gid}/replay/").status_code == 409
    assert view["status"] == "finished"
    before = b"".join(seen[:mark])
    assert len(before) > 10_000  # the whole game, seen by both seats
    for form in (secret.hex().encode(), secret.hex().upper().encode(), secret):
        assert form not in before
    assert secret.hex() not in caplog.text and repr(secret) not in caplog.text
    assert players[0].game(gid)["fairness"]["server_seed"] == secret.hex()
    assert game_services  # the services' logger is among those captured above
