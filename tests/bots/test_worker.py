"""Bots with a real Celery worker (and beat) on Redis + PostgreSQL."""

from __future__ import annotations

import random
import time

import pytest
from django.utils import timezone

from games.bots import decide, waits_for
from games.models import Event, Game
from tests.poll import wait_for

pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

DELAY = 0.3


def play_as_person(player, game_id, rng, limit=240.0):
    """Play seat 0 through the API, with the basic bot's choices, until the game ends."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        game = player.game(game_id)
        if game["status"] != "active":
            return game
        legal = game["state"]["legal_actions"]
        if legal and waits_for(legal):
            body = decide("basic", game["ruleset"], game["state"], 0, rng)
            answer = player.act(game_id, {**body, "expected_version": game["version"]})
            assert answer.status_code in (201, 409), answer.content
        else:
            time.sleep(0.05)
    raise AssertionError("the game did not end in time")


def test_a_person_plays_skipbo_to_the_end_against_two_basic_bots(celery, ann, settings):
    settings.PABLO_BOT_DELAY = DELAY  # the countdown is set where the move is committed
    celery.worker(PABLO_BOT_DELAY=str(DELAY))
    celery.beat()
    answer = ann.post(
        "/api/games/",
        {
            "ruleset": "skipbo",
            "seats": 3,
            # ann first: with stocks of 5, two bots before her once won before she moved
            "options": {"stock_size": 5, "start_seat": 0},
            "bots": [{"seat": 1, "level": "basic"}, {"seat": 2, "level": "basic"}],
        },
        format="json",
    )
    assert answer.status_code == 201, answer.content
    game = answer.json()
    assert game["status"] == "active"
    final = play_as_person(ann, game["id"], random.Random(3))
    assert final["status"] == "finished" and final["state"]["result"]["winners"]
    rows = list(Event.objects.filter(game_id=game["id"]).order_by("seq"))
    types = [r.type for r in rows]
    assert "turn_timed_out" not in types
    bots_moves = [
        r for r in rows if r.seat in (1, 2) and r.type in ("card_played", "card_discarded")
    ]
    people = [r for r in rows if r.seat == 0 and r.type in ("card_played", "card_discarded")]
    assert bots_moves and people
    # each bot move came about DELAY after the event before it -- a third of it when
    # it goes on the bot's own turn (API.md "Bots") -- within a couple of seconds
    by_seq = {r.seq: r for r in rows}
    for row in bots_moves:
        before = by_seq[row.seq - 1]
        wait = DELAY / 3 if before.seat == row.seat and before.type != "deadline_set" else DELAY
        gap = (row.created_at - before.created_at).total_seconds()
        assert wait * 0.9 <= gap < 3.0, (row.seq, row.type, gap)
    assert Game.objects.get(id=game["id"]).version == len(rows)


def test_a_lost_bot_task_is_caught_up_after_a_restart(celery, ann, settings, redis_broker):
    """The bot's task is lost (the broker emptied, as if the worker holding it died):
    beat's catch-up enqueues it again and the bot moves."""
    import redis

    settings.PABLO_BOT_DELAY = DELAY
    answer = ann.post(
        "/api/games/",
        {
            "ruleset": "cabo",
            "seats": 2,
            "options": {"start_seat": 1},
            "bots": [{"seat": 1, "level": "basic"}],
        },
        format="json",
    )
    game = answer.json()
    redis.Redis.from_url(redis_broker).flushdb()  # the enqueued bot task is gone
    ann.act(game["id"], {"type": "look", "positions": [0, 1]})
    redis.Redis.from_url(redis_broker).flushdb()  # and the next one too
    version = Game.objects.get(id=game["id"]).version
    started = timezone.now()
    celery.worker(PABLO_BOT_DELAY=str(DELAY))
    celery.beat()
    wait_for(lambda: Event.objects.filter(game_id=game["id"], seat=1, type="looked").exists(), 60)
    looked = Event.objects.get(game_id=game["id"], seat=1, type="looked")
    assert looked.seq == version + 1 and looked.created_at > started
    # and the bot goes on playing its turns (seat 1 starts)
    wait_for(
        lambda: (
            Event.objects.filter(game_id=game["id"], seat=1, type="drawn").exists()
            or Event.objects.filter(game_id=game["id"], seat=1, type="called").exists()
        ),
        30,
    )
