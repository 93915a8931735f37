"""Beat's bot sweep (games/turns/bots.py ``sweep_stalled``): a bot's move whose task was
lost -- taken by a worker killed before it ran, so unacknowledged in the broker for an
hour -- is enqueued again once the game has waited ``PABLO_BOT_SWEEP_GRACE`` seconds at
a bot's turn; a game waiting for a person, or one changed a moment ago, is left alone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.services import bots as bot_services
from games.services import games as game_services
from games.turns import bots
from tests.fixtures import clock, user

pytestmark = pytest.mark.django_db

LOOK = {"type": "look", "positions": [0, 1]}


def _game(ago: float, *, bot_looks: bool):
    """Pablo, a person and a basic bot, last changed ``ago`` seconds ago: ann has looked;
    the setup waits for the bot, or (``bot_looks``) the bot looked and it is ann's turn."""
    person = user(f"p{int(ago)}{int(bot_looks)}")
    with clock(timezone.now() - timedelta(seconds=ago)):
        game = game_services.game_create(
            user=person,
            ruleset="pablo",
            seats=2,
            options={"start_seat": 0},
            bots=[{"seat": 1, "level": "basic"}],
        )
        game_services.game_act(game_id=game.id, user=person, command=LOOK)
        if bot_looks:
            game.refresh_from_db()
            bot_services.game_bot_act(game_id=game.id, seat=1, version=game.version)
    game.refresh_from_db()
    return game


@pytest.fixture
def scheduled(monkeypatch):
    sent = []
    monkeypatch.setattr(
        bots,
        "schedule",
        lambda game_id, version, seats, *, countdown: sent.append(
            (game_id, version, seats, countdown)
        ),
    )
    return sent


def test_a_game_stalled_at_a_bots_turn_gets_its_move_again(settings, scheduled):
    settings.PABLO_BOT_SWEEP_GRACE = 30
    stalled = _game(60, bot_looks=False)
    _game(60, bot_looks=True)  # waits for the person
    _game(5, bot_looks=False)  # the bot's task is still on its way
    _game(3600, bot_looks=False)  # older than the window: the broker's own redelivery

    assert bots.sweep_stalled() == 1
    assert scheduled == [(stalled.id, stalled.version, [1], 0)]


def test_a_version_is_sent_again_only_after_the_grace(settings, scheduled):
    """A loaded worker may not have run the move sent at the last sweep yet: the next
    sweeps do not queue copies of it, until the grace has passed again."""
    from django.core.cache import cache

    settings.PABLO_BOT_SWEEP_GRACE = 30
    stalled = _game(60, bot_looks=False)
    assert bots.sweep_stalled() == 1
    assert bots.sweep_stalled() == 0  # a second later: still on its way
    cache.delete(f"bots:swept:{stalled.id}:{stalled.version}")  # the grace is over
    assert bots.sweep_stalled() == 1
    assert scheduled == [(stalled.id, stalled.version, [1], 0)] * 2


def test_the_sweep_is_in_beats_schedule(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-bots"]
    assert entry["task"] == "games.sweep_bots"
    from pablo.celery import app

    app.loader.import_default_modules()
    assert "games.sweep_bots" in app.tasks
