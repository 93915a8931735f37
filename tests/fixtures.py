"""The shared game fixtures: users, clocks, and Skip-Bo games started through the services.

Loaded for every test directory by ``tests/conftest.py`` (``pytest_plugins``).
The API tests make the same quick game through the HTTP client
(``tests/api/conftest.py`` ``quick_skipbo``), with the same deck.
"""

from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from games.commands import DEFAULT_TURN_TIMEOUT
from games.models import Game
from games.services import games as game_services
from tests.factories import UserFactory

#: Skip-Bo, 2 players, stock 5 (``SKIPBO_QUICK_OPTIONS``): seat 0's stock is 1..5 (top
#: first), so seat 0 wins by playing its stock onto building pile 0 five times. Seat 1's
#: stock: five 9s. Then the draw pile: seat 0's first hand (five 7s), seat 1's (five 8s) ...
SKIPBO_QUICK = ["1", "2", "3", "4", "5", "9", "9", "9", "9", "9", "7", "7", "7", "7", "7"]
SKIPBO_QUICK_OPTIONS = {"start_seat": 0, "stock_size": 5}
STOCK_TO_PILE_0 = {"type": "play", "from": "stock", "pile": 0}


def user(name: str, email: str = "") -> Any:
    return UserFactory(username=name, email=email)


@contextmanager
def clock(moment: datetime):
    """Make the services believe it is ``moment`` (deadlines are written from their clock)."""
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


def start_skipbo(
    *players: Any,
    quick: bool = False,
    turn_timeout: int = DEFAULT_TURN_TIMEOUT,
    ago: float = 0,
    **options: Any,
) -> Game:
    """A started Skip-Bo game, a seat per player, ``players[0]`` in seat 0 on turn.

    ``quick``: the stacked ``SKIPBO_QUICK`` deck (else a shuffled one). ``ago``:
    pretend it was created that many seconds ago, so its first deadline is
    ``turn_timeout - ago`` seconds from now (negative: overdue). ``options``: the
    ruleset's (``max_timeouts=1`` …).
    """
    options = {**(SKIPBO_QUICK_OPTIONS if quick else {"start_seat": 0}), **options}
    with clock(timezone.now() - timedelta(seconds=ago)):
        game = game_services.game_create(
            user=players[0],
            ruleset="skipbo",
            seats=len(players),
            turn_timeout=turn_timeout,
            options=options,
            decks=[SKIPBO_QUICK] if quick else None,
        )
        for player in players[1:]:
            game_services.game_join(game_id=game.id, user=player)
    game.refresh_from_db()
    return game


@pytest.fixture
def users(db):
    return [user(f"u{i}") for i in range(6)]


@pytest.fixture
def skipbo_game(users):
    """The quick game of ``users[0]`` (seat 0, on turn) and ``users[1]``."""
    return start_skipbo(*users[:2], quick=True)
