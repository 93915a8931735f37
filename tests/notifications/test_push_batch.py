"""A burst of pushes (many games ending at once) goes to the broker in batches, and each
push is still sent once (games.deliver_pushes; bench/bench_push.py measures it)."""

from __future__ import annotations

import collections

import pytest
from django.utils import timezone

from games import outbox
from games.models import PushDelivery, PushSubscription
from games.notifications import push
from pablo.celery import app
from tests.fixtures import start_skipbo, user
from tests.notifications.common import PAIR, subscribe


@pytest.mark.django_db
def test_a_burst_is_sent_in_batches_each_push_once(vapid, service, monkeypatch):
    ann, bob = user("ann"), user("bob")
    devices = [subscribe(ann, service) for _ in range(3)]
    game = start_skipbo(ann, bob)
    rows = PushDelivery.objects.bulk_create(
        PushDelivery(
            subscription_id=sub_id,
            game=game,
            turn=f"t{n}",
            kind="game_over",
            next_try=timezone.now(),
            message={
                "kind": "game_over",
                "game": str(game.id),
                "title": "t",
                "body": "b",
                "url": f"http://127.0.0.1/play/{game.id}/",
            },
        )
        for sub_id in PushSubscription.objects.filter(
            endpoint__in=[d.endpoint for d in devices]
        ).values_list("pk", flat=True)
        for n in range(20)
    )
    sent = []
    real = outbox.send

    def counted(task, *args, **kwargs):
        sent.append(task)
        return real(task, *args, **kwargs)

    monkeypatch.setattr(outbox, "send", counted)
    app.conf.task_always_eager = True
    try:
        ids = [row.pk for row in rows]
        push.enqueue(ids)
        push.enqueue(ids)  # the sweep or a redelivery: nothing twice
    finally:
        app.conf.task_always_eager = False
    batches = -(-len(ids) // push.BATCH)
    assert sent == ["games.deliver_pushes"] * (2 * batches)
    per = collections.Counter(r["path"] for r in service.requests)
    assert sorted(per.values()) == [20, 20, 20]
    assert not PushDelivery.objects.exclude(status="sent").exists()
    service.open(service.requests[0], PAIR["public_key"])


def test_the_vapid_jwt_is_signed_once_per_push_service_and_renewed(settings):
    settings.PABLO_VAPID_SUBJECT = "mailto:ops@example.org"
    push._signed.clear()
    one = push.vapid_authorization("https://fcm.googleapis.com/fcm/send/a", PAIR)
    assert push.vapid_authorization("https://fcm.googleapis.com/fcm/send/b", PAIR) == one
    other = push.vapid_authorization("https://updates.push.services.mozilla.com/w/c", PAIR)
    assert other != one  # another audience
    key = next(k for k in push._signed if k[2] == "https://fcm.googleapis.com")
    header, exp = push._signed[key]
    push._signed[key] = (header, exp - 3600 - 1)  # an hour on: less than 11 h left
    assert push.vapid_authorization("https://fcm.googleapis.com/fcm/send/a", PAIR) != one
