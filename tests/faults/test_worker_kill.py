"""The worker killed (SIGKILL) in the middle of a notification task.

The task's work commits together with the claim of its outbox message
(pablo/outbox.py). Killed before that commit, nothing of it is stored or
sent; the outbox flush publishes the message again once it has gone
unclaimed for ``PABLO_OUTBOX_GRACE`` seconds, a new worker does it, and the
player gets the notification exactly once. (A sweep batch killed midway:
tests/turns/test_worker.py.)
"""

from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection, transaction

from games.models import OutboxMessage
from games.notifications import fanout as notifications
from games.notifications import webhooks
from tests.faults.servers import Redis, Service, call, database_url
from tests.helpers import Receiver, wait_for

pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]


def claim_in_progress() -> bool:
    """A notification's outbox row is locked: a worker is inside its claim."""
    try:
        with transaction.atomic():
            rows = OutboxMessage.objects.select_for_update(nowait=True).filter(claim=True)
            return not list(rows) and OutboxMessage.objects.filter(claim=True).exists()
    except OperationalError:
        return True


def test_worker_killed_mid_notification_task(require_postgres, tmp_path):
    redis = Redis()
    service = Service(
        tmp_path, database_url(), redis.url, PABLO_OUTBOX_GRACE="2", PABLO_OUTBOX_SECONDS="0.5"
    )
    receiver = Receiver()
    try:
        base = service.web(workers=1, threads=2)
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
        body = {"ruleset": "skipbo", "seats": 2, "options": {"start_seat": 0}}
        status, _, game = call(base, "POST", "/api/games/", body, tokens["ann"])
        assert status == 201, game
        status, _, game = call(base, "POST", f"/api/games/{game['id']}/join/", None, tokens["bob"])
        assert status == 200, game
        # Started only now: the pause holds the task's locks (its reminder row's key
        # share on the game), which a join would wait for.
        doomed = service.worker("doomed", PABLO_CLAIM_PAUSE="120")
        wait_for(claim_in_progress, 60)  # the doomed worker is inside the task
        time.sleep(0.5)
        service.kill(doomed)
        assert receiver.requests == []  # nothing was sent
        assert OutboxMessage.objects.filter(claim=True).count() == 1  # rolled back: kept
        service.worker("phoenix")
        wait_for(lambda: receiver.requests, 60, step=0.2)
        time.sleep(4)  # room for a duplicate (grace is 2 s, flush every 0.5 s)
        bodies = [json.loads(r["body"]) for r in receiver.requests]
        turns = [b for b in bodies if b["event"] == notifications.YOUR_TURN]
        assert [(b["game_id"], b["seat"]) for b in turns] == [(game["id"], 0)], bodies
        assert not OutboxMessage.objects.exists()
    finally:
        service.close()
        redis.close()
        receiver.close()
        connection.close()
