"""A stranger's action in a private game (found attacking main): ``POST
/api/games/{id}/actions/`` answered ``403 not_a_player`` -- so the private game exists --
where an unknown id answers 404; the same on the table's form paths. Every answer to a
stranger must be the unknown game's, byte for byte."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.api.conftest import create

pytestmark = pytest.mark.django_db

BODIES = [
    {"type": "look", "positions": [0, 1]},  # a well-formed action
    {"type": "nonsense"},  # a malformed one
    {},
]


def _same(answer, unknown, game_id, other):
    assert answer.status_code == unknown.status_code, (answer.status_code, answer.content)
    assert answer.content.replace(game_id.encode(), b"X") == unknown.content.replace(
        other.encode(), b"X"
    )


def test_a_strangers_api_actions_in_a_private_game_answer_the_unknown_games_404(ann, bob, cid):
    game = create(ann, ruleset="cabo", seats=2, private=True)
    joined = bob.post(f"/api/games/{game['id']}/join/", {"invite": game["invite"]}, format="json")
    assert joined.status_code == 200
    other = str(uuid.uuid4())
    for body in BODIES:
        for path in ("actions", "back"):
            answer = cid.post(f"/api/games/{game['id']}/{path}/", body, format="json")
            unknown = cid.post(f"/api/games/{other}/{path}/", body, format="json")
            _same(answer, unknown, game["id"], other)
            assert answer.status_code == 404
    # the players still act
    acted = ann.post(f"/api/games/{game['id']}/actions/", BODIES[0], format="json")
    assert acted.status_code == 201


def test_a_strangers_table_forms_in_a_private_game_answer_the_unknown_games_404(ann, bob):
    game = create(ann, ruleset="cabo", seats=2, private=True)
    bob.post(f"/api/games/{game['id']}/join/", {"invite": game["invite"]}, format="json")
    eve = get_user_model().objects.create_user(username="eve", password="secret12")
    web = Client()
    web.force_login(eve)
    other = str(uuid.uuid4())
    for path in ("act", "come-back", "close-reveal", "rematch", "cancel", "join"):
        answer = web.post(f"/play/{game['id']}/{path}/", {"type": "look"})
        unknown = web.post(f"/play/{other}/{path}/", {"type": "look"})
        assert answer.status_code == unknown.status_code, (path, answer.status_code)
