"""Fixtures for service-level tests: users and started games made through the services."""

from __future__ import annotations

import pytest

from games.services import games as game_services
from tests.factories import UserFactory

#: Skip-Bo, 2 players, stock 5 (see tests/api/conftest.py): seat 0 holds five 7s and
#: wins by playing its stock 1..5 onto building pile 0.
SKIPBO_QUICK = ["1", "2", "3", "4", "5", "9", "9", "9", "9", "9", "7", "7", "7", "7", "7"]
STOCK_TO_PILE_0 = {"type": "play", "from": "stock", "pile": 0}


@pytest.fixture
def users(db):
    return [UserFactory(username=f"u{i}", password="secret-pw") for i in range(6)]


def start_skipbo(users, seats=2):
    game = game_services.game_create(
        user=users[0],
        ruleset="skipbo",
        seats=seats,
        options={"start_seat": 0, "stock_size": 5},
        decks=[SKIPBO_QUICK],
    )
    for user in users[1:seats]:
        game_services.game_join(game_id=game.id, user=user)
    game.refresh_from_db()
    return game


@pytest.fixture
def skipbo_game(users):
    return start_skipbo(users)
