"""Web Push with a real Celery worker and beat on Redis + PostgreSQL: a push whose task
the broker lost (Redis restarted empty) is still delivered, once; so is the mail of
the same turn (its row marked sent once, by the mail sweep)."""

from __future__ import annotations

import time

import pytest
import redis

from games import followers
from games.models import MailNotice, PushDelivery
from tests.fixtures import start_skipbo, user
from tests.notifications.common import PAIR, subscribe
from tests.poll import wait_for
from tests.pushservice import PushService

pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]


def test_a_push_lost_with_the_broker_is_delivered_once(celery, redis_broker, settings):
    keys = {
        "PABLO_VAPID_PRIVATE_KEY": PAIR["private_key"],
        "PABLO_VAPID_PUBLIC_KEY": PAIR["public_key"],
        "PABLO_PUSH_ALLOW_PRIVATE": "1",
        "PABLO_PUSH_SECONDS": "0.5",
        "PABLO_PUSH_LOST_SECONDS": "1",
        "PABLO_MAIL_SECONDS": "0.5",
        "PABLO_DIGEST_SECONDS": "1",
    }
    for name, value in keys.items():
        setattr(settings, name, value if "KEY" in name else float(value))
    celery.env.update(keys)
    service = PushService()
    try:
        ann, bob = user("ann", "ann@example.org"), user("bob")
        subscribe(ann, service)
        celery.beat()
        worker = celery.worker()
        start_skipbo(ann, bob, turn_timeout=3600)  # the follower runs in the worker
        wait_for(lambda: len(service.requests) == 1, 30)
        assert service.open(service.requests[0], PAIR["public_key"])["kind"] == "your_turn"
        celery.stop(worker)
        start_skipbo(bob, ann, turn_timeout=3600)  # bob on turn: nothing for ann
        game = start_skipbo(ann, bob, turn_timeout=3600)
        followers.follow_all()  # the rows written, their tasks sent to Redis...
        assert PushDelivery.objects.filter(status="pending").count() == 1
        assert MailNotice.objects.filter(game=game, status="pending").count() == 1
        redis.Redis.from_url(redis_broker).flushdb()  # ... and lost with it
        celery.worker("w2")
        wait_for(lambda: len(service.requests) == 2, 30)
        message = service.open(service.requests[1], PAIR["public_key"])
        assert message["game"] == str(game.id)
        wait_for(lambda: not PushDelivery.objects.filter(status="pending").exists(), 10)
        wait_for(lambda: MailNotice.objects.filter(game=game, status="sent").exists(), 30)
        time.sleep(2)  # room for a duplicate (sweeps)
        assert len(service.requests) == 2
        sent = MailNotice.objects.get(game=game)
        assert sent.status == "sent" and sent.kind == "your_turn"
    finally:
        service.close()
