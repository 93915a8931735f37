"""Attacks of a stranger (round 3), replayed: each test failed before its fix."""

from __future__ import annotations

import pytest

from games.models import Event, IdempotentAnswer

pytestmark = pytest.mark.django_db

STOCK_TO_PILE_0 = {"type": "play", "from": "stock", "pile": 0}


@pytest.mark.parametrize("key", ["a\x00b", "\x00"])
def test_an_idempotency_key_with_nul_is_a_400_and_stores_nothing(ann, quick_skipbo, key):
    """PostgreSQL's text refuses NUL: the key was stored after the action and the whole
    request failed with a 500 (Django's own server and the test suite's live server pass
    the header on; gunicorn and uvicorn refuse it before the application)."""
    gid = quick_skipbo["id"]
    stored = Event.objects.filter(game_id=gid).count()
    response = ann.act(gid, STOCK_TO_PILE_0, HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400
    assert set(response.json()) == {"code", "detail"}
    assert response.json()["detail"].startswith("Idempotency-Key:")
    assert Event.objects.filter(game_id=gid).count() == stored
    assert not IdempotentAnswer.objects.exists()


@pytest.mark.parametrize("typo", ["privat", "Private", "is_private", "option", "turn_timout"])
def test_a_misspelt_field_of_a_new_game_is_a_400_not_a_public_game(ann, typo):
    """``{"privat": true}`` made a public game, listed to everyone: the misspelt switch
    was dropped without a word (as the notification settings already refuse a
    misspelt key)."""
    from games.models import Game

    body = {"ruleset": "cabo", "seats": 2, typo: True}
    response = ann.post("/api/games/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert response.json()["detail"].startswith(f"{typo}: unknown key")
    assert not Game.objects.exists()


def test_every_documented_field_of_a_new_game_is_still_taken(ann):
    body = {
        "ruleset": "cabo",
        "seats": 3,
        "turn_timeout": 600,
        "options": {"memory": "strict"},
        "bots": [{"seat": 2, "level": "random"}],
        "seed": "s",
        "private": True,
        "rated": False,
        "decks": None,
    }
    response = ann.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["private"] is True
