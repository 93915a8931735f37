"""Fixtures for API tests: players with tokens, games made through the HTTP client."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.fixtures import SKIPBO_QUICK, SKIPBO_QUICK_OPTIONS

JSON = dict[str, Any]


class Player(APIClient):
    user: Any
    token: str

    def game(self, game_id: str) -> JSON:
        response = self.get(f"/api/games/{game_id}/")
        assert response.status_code == 200, response.content
        return response.json()

    def act(self, game_id: str, body: JSON, **extra: Any) -> Any:
        return self.post(f"/api/games/{game_id}/actions/", body, format="json", **extra)

    def ok(self, game_id: str, body: JSON) -> JSON:
        response = self.act(game_id, body)
        assert response.status_code == 201, response.content
        return response.json()


@pytest.fixture
def make_player(db):
    def make(username: str) -> Player:
        user = UserFactory(username=username, password="secret-pw")
        token = Token.objects.create(user=user)
        client = Player()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        client.user = user
        client.token = token.key
        return client

    return make


@pytest.fixture
def ann(make_player) -> Player:
    return make_player("ann")


@pytest.fixture
def bob(make_player) -> Player:
    return make_player("bob")


@pytest.fixture
def cid(make_player) -> Player:
    return make_player("cid")


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


def create(client: APIClient, **body: Any) -> JSON:
    response = client.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def quick_skipbo(ann, bob) -> JSON:
    """An active 2-player Skip-Bo game on the quick deck (ann seat 0 on turn, bob seat 1):
    ``tests.fixtures.start_skipbo(ann, bob, quick=True)`` through the HTTP client."""
    game = create(
        ann, ruleset="skipbo", seats=2, options=SKIPBO_QUICK_OPTIONS, decks=[SKIPBO_QUICK]
    )
    response = bob.post(f"/api/games/{game['id']}/join/")
    assert response.status_code == 200, response.content
    return response.json()
