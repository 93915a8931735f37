"""Redis stopped for 30 s while players act, and restarted under a busy worker
(docs/operations.md "Faults").

gunicorn, a Celery worker and beat run on a private Redis and the test
database; players have webhooks. While Redis is down: actions still succeed
(nothing a request does after its commit may fail it), and a deadline falls
due. Once Redis is back: the deadline is enforced, exactly once, and the
"your turn" notification of the action taken during the outage is delivered
(late, from the log or the outbox -- not lost).
"""

from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Event, FollowerPosition, OutboxMessage
from games.notifications import fanout as notifications
from games.notifications import webhooks
from tests.faults.servers import Redis, call
from tests.followers.conftest import PROBE_SETTINGS, probe_table  # noqa: F401
from tests.helpers import Receiver, timeouts_per_turn
from tests.poll import wait_for
from tests.processes import Processes, database_url

pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

OUTAGE = 30.0


@pytest.fixture
def stack(require_postgres, tmp_path):
    redis = Redis()
    service = Processes(
        tmp_path,
        DATABASE_URL=database_url(),
        CELERY_BROKER_URL=redis.url,
        PABLO_SWEEP_SECONDS="0.5",
        PABLO_WEBHOOK_BACKOFF="0.2",
    )
    receiver = Receiver()
    try:
        yield redis, service, receiver
    finally:
        service.close()
        redis.close()
        receiver.close()
        connection.close()


def hooks(receiver: Receiver, game_id: str) -> list[dict]:
    bodies = [json.loads(r["body"]) for r in list(receiver.requests)]
    return [b for b in bodies if b["game_id"] == game_id and r_ok(b)]


def r_ok(body: dict) -> bool:
    return body.get("event") == notifications.YOUR_TURN


def test_redis_stopped_for_30_s(stack):
    redis, service, receiver = stack
    base = service.web(workers=2, threads=4)
    service.worker()
    service.beat()
    tokens = {}
    for name in ("ann", "bob"):
        status, _, data = call(
            base, "POST", "/api/auth/register/", {"username": name, "password": "secret-pw"}
        )
        assert status == 201, data
        tokens[name] = data["token"]
        notifications.NotificationSettings.objects.create(
            user=get_user_model().objects.get(username=name),
            webhook_url=receiver.url,
            webhook_secret=webhooks.new_secret(),
        )

    def new_game(timeout: int) -> dict:
        body = {"ruleset": "skipbo", "seats": 2, "turn_timeout": timeout,
                "options": {"start_seat": 0}}  # fmt: skip
        status, _, game = call(base, "POST", "/api/games/", body, tokens["ann"])
        assert status == 201, game
        status, _, game = call(base, "POST", f"/api/games/{game['id']}/join/", None, tokens["bob"])
        assert status == 200, game
        return game

    slow = new_game(3600)
    wait_for(lambda: hooks(receiver, slow["id"]), 30)  # the broker works: ann was told
    due = new_game(10)  # its first deadline falls inside the outage

    redis.stop()
    stopped = time.monotonic()
    status, _, game = call(base, "GET", f"/api/games/{slow['id']}/", None, tokens["ann"])
    assert status == 200
    card = game["state"]["hand"][0]
    status, _, answer = call(base, "POST", f"/api/games/{slow['id']}/actions/",
                             {"type": "end", "card": card, "discard_pile": 0},
                             tokens["ann"])  # fmt: skip
    assert status == 201, answer  # the action succeeds with the broker away
    acted_version = answer["version"]
    for _ in range(5):  # reads too
        assert call(base, "GET", f"/api/games/{slow['id']}/", None, tokens["bob"])[0] == 200
    # bob's notification waits: in the log, for the notifications follower, whose task
    # cannot come while the broker is away (issue 24: the fan-out follows the log now,
    # the request enqueues nothing), or in the outbox, should a follower's run that
    # began before the outage have fanned it out (its delivery could not be published)
    turn = Event.objects.get(game_id=slow["id"], seq=acted_version)
    follower = FollowerPosition.objects.get(name="notifications")
    assert follower.position < turn.position or OutboxMessage.objects.exists()
    time.sleep(max(0.0, OUTAGE - (time.monotonic() - stopped)))
    redis.start()

    def bob_told() -> bool:
        return any(
            b["seat"] == 1 and b["version"] == acted_version for b in hooks(receiver, slow["id"])
        )

    try:
        wait_for(bob_told, 60, step=0.5)  # late, not lost
    except AssertionError:
        rows = list(OutboxMessage.objects.values())
        raise AssertionError(f"outbox: {rows}\n{receiver.requests}\n{service.logs()}") from None
    wait_for(lambda: timeouts_per_turn(due["id"]), 60, step=0.5)
    time.sleep(2)  # room for a duplicate (sweeps, the fast path's ETA task)
    service.close()
    counts = timeouts_per_turn(due["id"])
    assert counts and set(counts.values()) == {1}, counts
    assert not OutboxMessage.objects.exists()


@pytest.mark.usefixtures("probe_table")
def test_redis_restarted_under_a_busy_worker_and_beat(stack):
    """Issue 18: the worker died (``AttributeError ... 'hostname'``) when Redis restarted
    while it ran a task (pablo/broker.py). The worker here is the default one
    (prefork, gossip, mingle, heartbeat: as ``celery -A pablo worker`` runs in
    compose); the followers' task holds its message, unacknowledged, for 4 s
    (the tests' probe follower pauses in each batch, ``PROBE_PAUSE``) while Redis
    restarts. The worker stays up and keeps working, and a deadline that falls
    due meanwhile is enforced once."""
    redis, service, receiver = stack
    base = service.web(workers=1, threads=4)
    worker = service.worker("busy", options=["--concurrency=2"], PROBE_PAUSE="4", **PROBE_SETTINGS)
    service.beat()
    tokens = {}
    for name in ("ann", "bob"):
        status, _, data = call(
            base, "POST", "/api/auth/register/", {"username": name, "password": "secret-pw"}
        )
        assert status == 201, data
        tokens[name] = data["token"]
        notifications.NotificationSettings.objects.create(
            user=get_user_model().objects.get(username=name),
            webhook_url=receiver.url,
            webhook_secret=webhooks.new_secret(),
        )

    def new_game(timeout: int) -> dict:
        body = {"ruleset": "skipbo", "seats": 2, "turn_timeout": timeout,
                "options": {"start_seat": 0}}  # fmt: skip
        status, _, game = call(base, "POST", "/api/games/", body, tokens["ann"])
        assert status == 201, game
        status, _, game = call(base, "POST", f"/api/games/{game['id']}/join/", None, tokens["bob"])
        assert status == 200, game
        return game

    due = new_game(10)  # its first deadline falls after the restart
    # the followers (the notification among them) are running ...
    wait_for(lambda: "games.follow" in service.log(worker), 30)
    redis.restart()  # ... when Redis restarts
    time.sleep(8)  # the task finishes, its acknowledgement meets a new Redis
    assert worker.poll() is None, service.log(worker)[-5000:]
    # it keeps working: the deadline is enforced once, a new game's turn is told
    wait_for(lambda: timeouts_per_turn(due["id"]), 60, step=0.5)
    after = new_game(3600)
    try:
        wait_for(lambda: hooks(receiver, after["id"]), 60, step=0.5)
    except AssertionError:
        raise AssertionError(service.logs()) from None
    time.sleep(2)  # room for a duplicate timeout
    assert worker.poll() is None, service.log(worker)[-5000:]
    assert "Unrecoverable error" not in service.log(worker)
    service.close()
    counts = timeouts_per_turn(due["id"])
    assert counts and set(counts.values()) == {1}, counts
