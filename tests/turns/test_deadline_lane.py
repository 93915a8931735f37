"""A deadline that waits for an ``expert`` is heavy work (games/lanes.py): the interactive
sweep and fast path hand it to the ``bots`` queue, once per turn, and there the expert
plays its turn as itself -- the one recipe of games/services/bots.py, at its configured
level and budget -- instead of the cheap policy played inline (issue 24 item 2)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery import current_app
from django.utils import timezone

from games import lanes
from games.models import Event, Game
from games.services import bots as bot_services
from games.services import games as game_services
from games.turns import deadlines
from tests.fixtures import clock, user
from tests.helpers import state

pytestmark = pytest.mark.django_db

LOOK = {"type": "look", "positions": [0, 1]}


@pytest.fixture
def overdue_expert():
    """Pablo, ann and an expert bot; ann has looked, the setup waits for the bot, and its
    deadline passed an hour ago (the database's clock decides what is due)."""
    ann = user("ann")
    with clock(timezone.now() - timedelta(hours=1)):
        game = game_services.game_create(
            user=ann,
            ruleset="pablo",
            seats=2,
            options={"start_seat": 0},
            bots=[{"seat": 1, "level": "expert"}],
            turn_timeout=60,
        )
        game_services.game_act(game_id=game.id, user=ann, command=LOOK)
    return Game.objects.get(id=game.id)


@pytest.fixture
def published(monkeypatch):
    sent = []
    task = current_app.tasks["games.enforce_deadline"]
    monkeypatch.setattr(task, "apply_async", lambda args, **options: sent.append((args, options)))
    return sent


def test_the_sweep_hands_an_experts_deadline_to_the_bots_lane_once(overdue_expert, published):
    game = overdue_expert
    turn_key = state(game).turn_key
    assert bot_services.levels_at_deadline(game_id=game.id, turn_key=turn_key) == {"expert"}
    before = Event.objects.filter(game=game).count()

    deadlines.sweep()
    deadlines.sweep()  # overdue still, until the lane gets to it: not handed twice
    assert deadlines.enforce(game_id=game.id, turn_key=turn_key, on_lane=False) == 0

    assert published == [((str(game.id), turn_key), {"queue": lanes.BOTS, "retry": False})]
    assert Event.objects.filter(game=game).count() == before  # nothing played inline


def test_on_the_lane_the_expert_plays_its_turn_as_an_expert(
    overdue_expert, published, monkeypatch, settings
):
    settings.PABLO_EXPERT_ITERATIONS = 5
    game = overdue_expert
    turn_key = state(game).turn_key
    real, levels = bot_services.decide, []

    def decide(level, ruleset, view, seat, rng, **budget):
        levels.append((level, budget))
        return real(level, ruleset, view, seat, rng, **budget)

    monkeypatch.setattr(bot_services, "decide", decide)
    assert deadlines.enforce(game_id=game.id, turn_key=turn_key) > 0  # (on the lane)
    assert levels == [("expert", {"iterations": 5})]
    stored = [(e.type, e.seat) for e in Event.objects.filter(game=game).order_by("seq")]
    assert ("looked", 1) in stored and ("turn_timed_out", 1) not in stored
    assert published == []
