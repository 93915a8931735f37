"""Attacks on Web Push subscriptions (``POST /api/me/push/``), replayed: each test failed
before its fix."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import PushDelivery, PushSubscription
from games.notifications import push
from tests.fixtures import start_skipbo, user
from tests.pushservice import PushService

PAIR = push.make_keys()


@pytest.fixture
def vapid(settings):
    settings.PABLO_VAPID_PRIVATE_KEY = PAIR["private_key"]
    settings.PABLO_VAPID_PUBLIC_KEY = PAIR["public_key"]
    settings.PABLO_VAPID_SUBJECT = "mailto:ops@example.org"
    settings.PABLO_PUSH_ALLOW_PRIVATE = True  # the stand-in push service is on loopback


@pytest.fixture
def service():
    s = PushService()
    yield s
    s.close()


def client_for(u) -> APIClient:
    c = APIClient()
    c.force_authenticate(u)
    return c


@pytest.mark.django_db
def test_taking_over_another_accounts_device_still_counts_ten(vapid, service):
    """Ten devices, then an eleventh endpoint first subscribed by another account of
    one's own: it was moved over (200), and every account could hold any number."""
    ann, bob = user("ann"), user("bob")
    for _ in range(push.MAX_DEVICES):
        assert client_for(ann).post("/api/me/push/", service.device().body(), format="json")
    eleventh = service.device()
    assert client_for(bob).post("/api/me/push/", eleventh.body(), format="json").status_code == 201
    over = client_for(ann).post("/api/me/push/", eleventh.body(), format="json")
    assert over.status_code == 409 and over.json()["code"] == "too_many_devices"
    assert PushSubscription.objects.filter(user=ann).count() == push.MAX_DEVICES
    assert PushSubscription.objects.get(endpoint=eleventh.endpoint).user == bob


@pytest.mark.django_db
def test_a_device_signed_into_another_account_gets_none_of_the_formers_pushes(vapid, service):
    """A browser (a shared computer) subscribed by ann, then by bob: the pushes still
    waiting for ann (held through her quiet hours: her private game, who joined it)
    were sent to the device now bob's, encrypted to bob's keys."""
    ann, bob, cat = user("ann"), user("bob"), user("cat")
    device = service.device()
    client_for(ann).post("/api/me/push/", device.body(), format="json")
    game = start_skipbo(ann, cat, turn_timeout=3600)
    row = PushDelivery.objects.create(
        subscription=PushSubscription.objects.get(),
        game=game,
        turn="seat",
        kind="seat_taken",
        message={"kind": "seat_taken", "game": str(game.id), "title": "t", "body": "cat joined"},
        next_try=timezone.now(),
        held=True,
    )
    again = service.device().body()
    again["endpoint"] = device.endpoint  # the same browser, bob's keys now
    before = PushSubscription.objects.get().created
    moved = client_for(bob).post("/api/me/push/", again, format="json")
    assert moved.status_code == 200
    # nothing of ann's device shows to bob: not the day she subscribed it
    assert moved.json()["created"] != before.isoformat().replace("+00:00", "Z")
    assert PushSubscription.objects.get().created > before
    assert push.deliver(row.pk) is None
    assert service.requests == []
    row.refresh_from_db()
    assert row.status == PushDelivery.Status.SKIPPED


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_one_endpoint_subscribed_at_once_by_many_requests_is_never_a_500(
    require_postgres, vapid, service
):
    """Eight requests with one new endpoint at once (a page's double subscribe, two
    accounts on one browser): they answered 500 (the endpoint's unique key) and 503
    (a deadlock). Now one 201, the rest 200, one row."""
    ann, bob = user("ann"), user("bob")
    body = service.device().body()
    barrier = threading.Barrier(8)
    codes: list[int] = []

    def subscribe(who) -> None:
        client = client_for(who)
        barrier.wait()
        try:
            codes.append(client.post("/api/me/push/", body, format="json").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=subscribe, args=((ann, bob)[i % 2],)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(codes) == [200] * 7 + [201], codes
    assert PushSubscription.objects.filter(endpoint=body["endpoint"]).count() == 1
