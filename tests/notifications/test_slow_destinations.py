"""A destination that keeps deliveries waiting is left alone for a while (games/notifications/
slow.py).

Attack (attack5c): an account subscribes its devices (or sets its webhook) on a host
that accepts connections and never answers. Each message to it held a delivery worker
``PABLO_WEBHOOK_TIMEOUT`` (5 s), at each retry, however many messages there were: two
accounts with ten such devices each and three games of 1-second turns held the
workers for minutes (live, before the split of the queues: a ``random`` bot's first
move in someone else's game came after more than 120 s instead of 1.1 s). Now one slow
attempt marks the account's destination, and the deliveries to it meanwhile count as
tries without being attempted.
"""

from __future__ import annotations

import os
import socket
import threading
import time

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.utils import timezone

from games.models import NotificationSettings, PushDelivery, PushSubscription
from games.notifications import push, slow, tasks
from games.services import games as game_services
from tests.factories import UserFactory
from tests.notifications.common import PAIR
from tests.pushservice import PushService

pytestmark = pytest.mark.django_db

TIMEOUT = 0.3


class Tarpit:
    """A TCP host on loopback that accepts every connection and never answers."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.held: list[socket.socket] = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self) -> None:
        self.server.close()
        for conn in self.held:
            conn.close()


@pytest.fixture
def tarpit(settings):
    settings.PABLO_WEBHOOK_TIMEOUT = TIMEOUT
    settings.PABLO_WEBHOOK_BACKOFF = 60
    settings.PABLO_VAPID_PRIVATE_KEY = PAIR["private_key"]
    settings.PABLO_VAPID_PUBLIC_KEY = PAIR["public_key"]
    settings.PABLO_PUSH_ALLOW_PRIVATE = True
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = True
    found = Tarpit()
    yield found
    found.close()
    from django.core.cache import cache

    cache.clear()


def _keys() -> dict[str, str]:
    public = ec.generate_private_key(ec.SECP256R1()).public_key()
    point = public.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return {"p256dh": push.b64url(point), "auth": push.b64url(os.urandom(16))}


def _deliveries(user, endpoint: str, count: int, keys: dict | None = None) -> list[PushDelivery]:
    keys = keys or _keys()
    sub = PushSubscription.objects.create(
        user=user, endpoint=endpoint, p256dh=keys["p256dh"], auth=keys["auth"]
    )
    game = game_services.game_create(user=user, ruleset="skipbo", seats=2, turn_timeout=3600)
    message = {"kind": "game_over", "game": str(game.pk), "title": "t", "body": "b", "url": "u"}
    return [
        PushDelivery.objects.create(
            subscription=sub,
            game=game,
            turn=f"t{i}",
            kind="game_over",
            message=message,
            next_try=timezone.now(),
        )
        for i in range(count)
    ]


def test_pushes_to_a_host_that_never_answers_are_tried_once_per_window(tarpit):
    mallory = UserFactory(username="mallory")
    rows = _deliveries(mallory, f"http://127.0.0.1:{tarpit.port}/dev/1", 5)
    started = time.monotonic()
    assert [push.deliver(row.pk) for row in rows] == ["retried"] * 5
    assert len(tarpit.held) == 1  # one attempt (was 5, each TIMEOUT long)
    assert time.monotonic() - started < 3 * TIMEOUT
    later = timezone.now() + timezone.timedelta(seconds=40)
    for row in PushDelivery.objects.filter(pk__in=[r.pk for r in rows]):
        assert row.status == "pending" and row.tries == 1 and row.next_try > later
    # a new device of the same account is left alone too (subscribing again clears nothing)
    (other,) = _deliveries(mallory, f"http://127.0.0.1:{tarpit.port}/dev/2", 1)
    assert push.deliver(other.pk) == "retried" and len(tarpit.held) == 1


def test_a_prompt_destination_is_not_marked_and_clears_a_mark(tarpit):
    service = PushService()
    try:
        ann = UserFactory(username="ann")
        device = service.device()
        rows = _deliveries(ann, device.endpoint, 2, keys=device.body()["keys"])
        assert [push.deliver(row.pk) for row in rows] == ["sent", "sent"]
        assert slow.wait_for(slow.push_key(ann.pk)) == 0
        slow.attempted(slow.push_key(ann.pk), 1.0)  # slow once...
        assert slow.wait_for(slow.push_key(ann.pk)) > 50
        slow.attempted(slow.push_key(ann.pk), 0.01)  # ...then prompt
        assert slow.wait_for(slow.push_key(ann.pk)) == 0
    finally:
        service.close()


def test_a_webhook_that_never_answers_is_tried_once_per_window(tarpit, settings):
    settings.PABLO_WEBHOOK_RETRIES = 2
    mallory = UserFactory(username="mallory")
    NotificationSettings.objects.create(
        user=mallory, webhook_url=f"http://127.0.0.1:{tarpit.port}/hook", webhook_secret="s"
    )
    body = '{"delivery":"d","event":"your_turn"}'
    for _ in range(3):  # eager: each retry at once (they count, then it is given up)
        tasks.deliver_webhook.apply(args=(mallory.pk, body))
    assert len(tarpit.held) == 1  # was 3 messages x 3 tries
