"""A bot never times out and is never marked absent, whatever the turn time (issue 19).

No worker here: the bots' tasks never run, so every bot turn reaches its deadline --
the worst case of a late or lost task. The deadline then makes the bot move by
itself (no ``turn_timed_out`` for it); people still time out as RULES.md §8 says.
Games are made overdue with the services' clock set back (``tests.helpers.clock``).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Event, Game
from games.services import bots as bot_services
from games.services import games as game_services
from games.turns import deadlines
from tests.fixtures import clock, user

pytestmark = pytest.mark.django_db


def bot_game(ruleset: str, turn_timeout: int, **options):
    ann = user("ann")
    with clock(timezone.now() - timedelta(seconds=turn_timeout + 1)):  # already overdue
        game = game_services.game_create(
            user=ann,
            ruleset=ruleset,
            seats=2,
            turn_timeout=turn_timeout,
            options={"start_seat": 1, **options},
            bots=[{"seat": 1, "level": "basic"}],
        )
    return Game.objects.get(id=game.id)


def rows(game):
    return list(Event.objects.filter(game=game).order_by("seq"))


@pytest.mark.parametrize("enforce", ["sweep", "one_game"])
def test_a_cabo_bot_with_a_two_second_turn_never_times_out(enforce):
    """The issue's game: Cabo, turn_timeout 2, one bot. Before, the bot's turns timed
    out, it was marked absent and the game aborted ("every player is absent")."""
    game = bot_game("cabo", 2)
    for _ in range(12):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        # every deadline written from here on is already past as well
        with clock(timezone.now() - timedelta(seconds=3)):
            if enforce == "sweep":  # the sweep: services.bots.game_timeout_many
                deadlines.sweep()
            else:  # the fast path's (and a failed batch's) services.bots.game_timeout
                bot_services.game_timeout(game_id=game.id, turn_key=game.turn_key)
    events = rows(game)
    types = [(e.type, e.seat) for e in events]
    assert ("turn_timed_out", 1) not in types
    assert ("player_absent", 1) not in types
    assert not any(t == "game_aborted" for t, _ in types)
    # the bot played: it looked, and drew or called on its turns
    assert ("looked", 1) in types
    bot_turns = [t for t in types if t[1] == 1 and t[0] in ("drawn", "called")]
    assert len(bot_turns) >= 3
    # the person, who never acted, timed out and was marked absent as before
    assert ("turn_timed_out", 0) in types and ("player_absent", 0) in types


def test_in_the_setup_phase_the_bot_looks_and_the_person_times_out():
    game = bot_game("pablo", 60)
    assert deadlines.sweep() == 1
    events = rows(game)
    looked = [e for e in events if e.type == "looked"]
    timed_out = [e.seat for e in events if e.type == "turn_timed_out"]
    assert timed_out == [0]  # the person only
    assert sorted(e.seat for e in looked) == [0, 1]  # the bot's own look; ann's auto look
    game.refresh_from_db()
    assert game.status == "active"


def test_a_bots_own_move_at_the_deadline_replaces_its_pending_task():
    """The bot moved at its deadline; its task, arriving later, finds the game moved on."""
    game = bot_game("skipbo", 30, stock_size=5)
    version = game.version
    assert deadlines.sweep() == 1
    game.refresh_from_db()
    assert game.version > version
    assert bot_services.game_bot_act(game_id=game.id, seat=1, version=version) == 0
    assert not Event.objects.filter(game=game, type="turn_timed_out").exists()
