"""Rated games played to their end through the services (bots choose the moves)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import rules
from games.bots.play import chooser
from games.followers import follow as follow_log
from games.ratings.follower import Ratings
from games.selectors import games as selectors
from games.services import games as services
from tests.api.conftest import Player, ann, anon, bob, cid, make_player  # noqa: F401

#: Short Skip-Bo games: five stock cards each.
QUICK = {"stock_size": 5}


def play(users: list[Any], *, seed: int = 0, **create: Any) -> str:
    """A Skip-Bo game between ``users`` (seat order) played to its end by the basic
    bot's choices, each through ``services.game_act``; the game's id."""
    game = services.game_create(
        user=users[0], ruleset="skipbo", seats=len(users), options=QUICK, **create
    )
    for user in users[1:]:
        services.game_join(game_id=game.id, user=user, invite=game.invite or None)
    choose, rng = chooser("basic", "skipbo"), random.Random(seed)
    for _ in range(2000):
        state = selectors.game_state(game=selectors.game_get(game.id))
        if state.status != "active":
            return str(game.id)
        seat = rules.get_ruleset("skipbo").actors(state)[0]
        body = choose(state, seat, rng)
        services.game_act(game_id=game.id, user=users[seat], command=body)
    raise AssertionError("the game did not end")


def follow() -> None:
    """The ratings follower catches up with the log (what the worker runs)."""
    follow_log(Ratings())


@pytest.fixture
def people(ann, bob, cid):  # noqa: F811
    return [ann, bob, cid]
