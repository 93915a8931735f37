"""Deadlines and notifications with a real Celery worker and beat on Redis + PostgreSQL.

Every test here starts its own processes (``tests.processes``), with beat
sweeping every 0.5 s; the fast path (ETA tasks enqueued on commit by this
process) runs as well, so each test also shows that the two paths together
still store every timeout once.
"""

from __future__ import annotations

import json
import time

import pytest
from django.db import OperationalError, transaction

from games.models import Event, Game
from games.notifications import fanout as notifications
from games.notifications import webhooks
from tests.fixtures import start_skipbo, user
from tests.helpers import Receiver, timeouts_per_turn, timeouts_per_turn_of
from tests.poll import wait_for

pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]


def timed_out(game: Game) -> int:
    return Event.objects.filter(game_id=game.id, type="turn_timed_out").count()


def test_a_two_second_turn_times_out_exactly_once(celery):
    celery.worker()
    celery.beat()
    game = start_skipbo(user("ann"), user("bob"), turn_timeout=2)
    key = game.turn_key
    wait_for(lambda: timed_out(game), 20)
    celery.close()
    counts = timeouts_per_turn(game.id)
    assert counts[(key, 0)] == 1
    assert set(counts.values()) == {1}  # later turns (seat 1's, 2 s on) once each, too
    rows = list(Event.objects.filter(game_id=game.id).order_by("seq"))
    first = next(r for r in rows if r.type == "turn_timed_out")
    assert first.created_at >= game.deadline  # never early
    assert (first.created_at - game.deadline).total_seconds() < 3
    # the timeout's events end with the next player's deadline
    after = [r for r in rows if r.seq > first.seq]
    following = next(r for r in after if r.type == "deadline_set")
    assert following.data["seats"] == [1] and following.data["key"] != key


def _locked_by_someone_else(game: Game) -> bool:
    try:
        with transaction.atomic():
            Game.objects.select_for_update(nowait=True).get(id=game.id)
        return False
    except OperationalError:
        return True


def test_worker_killed_while_enforcing_then_enforced_once_after_restart(celery):
    celery.beat()
    # The first worker pauses inside the enforcement transaction: the timeout's
    # events are written but not committed when it is killed.
    doomed = celery.worker("doomed", PABLO_ENFORCE_PAUSE="120")
    game = start_skipbo(user("ann"), user("bob"), turn_timeout=1)
    key = game.turn_key
    wait_for(lambda: _locked_by_someone_else(game), 30)
    time.sleep(0.3)
    assert timed_out(game) == 0
    celery.kill(doomed)
    wait_for(lambda: not _locked_by_someone_else(game), 10)  # its transaction rolled back
    assert timed_out(game) == 0
    game.refresh_from_db()
    assert game.turn_key == key and game.version == Event.objects.filter(game=game).count()
    celery.worker("phoenix")
    wait_for(lambda: timed_out(game), 30)
    time.sleep(1.5)  # room for any duplicate (sweeps, redelivered or replayed ETA tasks)
    celery.close()
    counts = timeouts_per_turn(game.id)
    assert counts[(key, 0)] == 1
    assert set(counts.values()) == {1}


def test_200_games_due_at_once_with_two_workers_sweeping(celery):
    players = [user(f"p{i}") for i in range(4)]
    # all overdue before any worker runs (their fast-path tasks are queued too)
    games = [
        start_skipbo(players[i % 2], players[2 + i % 2], turn_timeout=60, ago=61)
        for i in range(200)
    ]
    celery.worker("one", wait=False, PABLO_SWEEP_BATCH="10")
    celery.worker("two", wait=False, PABLO_SWEEP_BATCH="10")
    celery.beat()
    wait_for(lambda: Event.objects.filter(type="turn_timed_out").count() >= 200, 90, step=0.5)
    time.sleep(1.5)
    celery.close()
    assert Event.objects.filter(type="turn_timed_out").count() == 200
    counts = timeouts_per_turn_of([game.id for game in games])
    for game in games:
        assert counts.get(str(game.id)) == {(game.turn_key, 0): 1}


def test_webhook_arrives_signed_and_a_500_is_retried(celery):
    receiver = Receiver([500])
    try:
        celery.worker()
        ann, bob = user("ann"), user("bob")
        secret = webhooks.new_secret()
        notifications.NotificationSettings.objects.create(
            user=ann, webhook_url=receiver.url, webhook_secret=secret
        )
        game = start_skipbo(ann, bob, turn_timeout=3600)
        wait_for(lambda: len(receiver.requests) >= 2, 30)
        time.sleep(0.5)
        celery.close()
        assert [r["status"] for r in receiver.requests] == [500, 200]
        for got in receiver.requests:
            assert webhooks.verify(secret, got["body"], got["headers"]["X-Pablo-Signature"])
        first, second = (json.loads(r["body"]) for r in receiver.requests)
        assert first == second  # a retry re-sends the same delivery
        assert first["game_id"] == str(game.id) and first["event"] == "your_turn"
        assert first["seat"] == 0 and first["ruleset"] == "skipbo"
        assert first["deadline"] is not None
    finally:
        receiver.close()


def test_players_acting_at_their_deadline_race_the_worker(celery):
    from django.utils import timezone

    from games import rules
    from games.errors import ApplicationError
    from games.rules import RulesError
    from games.services import games as game_services
    from tests.helpers import state

    celery.worker()
    celery.beat()
    ann, bob = user("ann"), user("bob")
    games = [start_skipbo(ann, bob, turn_timeout=2) for _ in range(6)]
    acted = {}
    for i, game in enumerate(games):
        hand = rules.view(state(game), 0)["hand"]
        # act from just at the deadline to 0.25 s after it, while the fast-path task
        # (due at the deadline) and the sweeps (every 0.5 s) go for the same turn
        wait = (game.deadline - timezone.now()).total_seconds() + 0.05 * i
        time.sleep(max(0.0, wait))
        try:
            command = {"type": "end", "card": hand[0], "discard_pile": 0}
            game_services.game_act(game_id=game.id, user=ann, command=command)
            acted[game.id] = True
        except (RulesError, ApplicationError):
            acted[game.id] = False
    wait_for(lambda: all(timed_out(g) or acted[g.id] for g in games), 20)
    celery.close()
    for game in games:
        first_key = game.turn_key
        counts = timeouts_per_turn(game.id)
        # exactly one of them ended seat 0's first turn
        assert counts.get((first_key, 0), 0) == (0 if acted[game.id] else 1), counts
        assert set(counts.values()) <= {1}
        keys = [
            r.data["key"]
            for r in Event.objects.filter(game_id=game.id, type="deadline_set").order_by("seq")
        ]
        assert keys.count(first_key) == 1
    print("acted in time:", sum(acted.values()), "of", len(games))
