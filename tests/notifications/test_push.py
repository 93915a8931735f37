"""Web Push: the API (key, devices, settings) and delivery to a push-service stand-in
on loopback that checks the VAPID JWT and decrypts the payload (tests/pushservice.py).

Celery runs eagerly here, the followers inline (as in test_notifications.py).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import PushDelivery, PushSubscription, TurnReminder
from games.notifications import fanout, push
from tests.fixtures import start_skipbo, user
from tests.notifications.common import PAIR, client_for, private_game, subscribe
from tests.pushservice import PushService

# --------------------------------------------------------------------------- API


@pytest.mark.django_db
def test_key_is_404_when_push_is_off_and_the_public_point_when_on(settings, vapid):
    assert APIClient().get("/api/push/key/").json() == {"public_key": PAIR["public_key"]}
    settings.PABLO_VAPID_PRIVATE_KEY = settings.PABLO_VAPID_PUBLIC_KEY = ""
    settings.PABLO_VAPID_FILE = None
    off = APIClient().get("/api/push/key/")
    assert off.status_code == 404 and off.json()["code"] == "push_disabled"


def test_a_debug_run_makes_its_keys_once(settings, tmp_path):
    settings.PABLO_VAPID_PRIVATE_KEY = settings.PABLO_VAPID_PUBLIC_KEY = ""
    settings.PABLO_VAPID_FILE = tmp_path / "vapid.json"
    first = push.keys()
    assert first == push.keys() and len(push.unb64url(first["public_key"])) == 65
    assert (tmp_path / "vapid.json").stat().st_mode & 0o077 == 0


@pytest.mark.django_db
def test_devices_unique_by_endpoint_listed_removed(vapid, service):
    ann, bob = user("ann"), user("bob")
    c = client_for(ann)
    device = service.device()
    made = c.post("/api/me/push/", device.body(), format="json")
    assert made.status_code == 201 and set(made.json()) == {"id", "endpoint", "created"}
    again = service.device().body()
    again["endpoint"] = device.endpoint  # the browser subscribed again: new keys
    updated = c.post("/api/me/push/", again, format="json")
    assert updated.status_code == 200 and updated.json()["id"] == made.json()["id"]
    row = PushSubscription.objects.get()
    assert row.p256dh == again["keys"]["p256dh"] and row.auth == again["keys"]["auth"]
    # the scheme and host in other letters: the same device (RFC 3986: case-insensitive)
    scheme, rest = device.endpoint.split("://", 1)
    host, path = rest.split("/", 1)
    shouted = {**again, "endpoint": f"{scheme.upper()}://{host.upper()}/{path}"}
    assert c.post("/api/me/push/", shouted, format="json").json()["id"] == row.pk
    assert PushSubscription.objects.get().endpoint == device.endpoint
    listed = c.get("/api/me/push/").json()
    assert [d["id"] for d in listed] == [row.pk] and listed[0]["last_success"] is None
    assert client_for(bob).get("/api/me/push/").json() == []
    assert client_for(bob).delete(f"/api/me/push/{row.pk}/").status_code == 404
    assert c.delete(f"/api/me/push/{row.pk}/").status_code == 204
    assert c.delete(f"/api/me/push/{row.pk}/").status_code == 404


@pytest.mark.django_db
def test_at_most_ten_devices(vapid, service):
    ann = user("ann")
    for _ in range(push.MAX_DEVICES):
        subscribe(ann, service)
    over = client_for(ann).post("/api/me/push/", service.device().body(), format="json")
    assert over.status_code == 409 and over.json()["code"] == "too_many_devices"


@pytest.mark.django_db
def test_malformed_subscriptions_are_400(settings, vapid, service):
    c = client_for(user("ann"))
    good = service.device().body()
    bad = [
        {},
        {"endpoint": good["endpoint"]},
        {**good, "keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}},
        {**good, "keys": {"p256dh": good["keys"]["p256dh"], "auth": "AAAA"}},
        {**good, "endpoint": "ftp://example.org/x"},
    ]
    for body in bad:
        answer = c.post("/api/me/push/", body, format="json")
        assert answer.status_code == 400, body
        assert set(answer.json()) == {"code", "detail"}
    settings.PABLO_PUSH_ALLOW_PRIVATE = False  # loopback and plain http refused
    assert c.post("/api/me/push/", good, format="json").status_code == 400
    good["endpoint"] = good["endpoint"].replace("http://", "https://")
    assert c.post("/api/me/push/", good, format="json").status_code == 400
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_settings_push_enabled_timezone_quiet_hours():
    c = client_for(user("ann"))
    got = c.get("/api/me/notifications/").json()
    assert got["push_enabled"] is True and got["timezone"] == "" and got["quiet_hours"] is None
    hours = {"start": "22:00", "end": "07:30"}
    changed = c.patch(
        "/api/me/notifications/",
        {"push_enabled": False, "timezone": "Europe/Paris", "quiet_hours": hours},
        format="json",
    ).json()
    assert changed["push_enabled"] is False and changed["timezone"] == "Europe/Paris"
    assert changed["quiet_hours"] == hours
    assert (
        c.patch("/api/me/notifications/", {"quiet_hours": None}, format="json").json()[
            "quiet_hours"
        ]
        is None
    )
    for bad in ({"timezone": "Mars/Olympus"}, {"quiet_hours": {"start": "25:00", "end": "7"}}):
        assert c.patch("/api/me/notifications/", bad, format="json").status_code == 400


# --------------------------------------------------------------------------- delivery


@pytest.mark.django_db
def test_your_turn_push_signed_encrypted_and_never_a_card(
    vapid, eager, service, django_capture_on_commit_callbacks
):
    ann, bob = user("ann"), user("bob")
    subscribe(ann, service)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_skipbo(ann, bob, turn_timeout=3600)
    assert len(service.requests) == 1
    request = service.requests[0]
    headers = request["headers"]
    assert headers["Topic"] == str(game.id).replace("-", "") and headers["Urgency"] == "high"
    assert headers["TTL"] == str(12 * 3600)
    assert len(request["body"]) <= 4096
    message = service.open(request, PAIR["public_key"])
    assert message == {
        "kind": "your_turn",
        "game": str(game.id),
        "title": "Your turn in Skip-Bo",
        "body": "Your opponents are waiting for you.",
        "url": f"http://localhost:8000/play/{game.id}/",
    }
    assert PushSubscription.objects.get().last_success is not None
    assert push.counters()["sent"] >= 1
    # the same turn handled again (a follower re-run): nothing twice
    with django_capture_on_commit_callbacks(execute=True):
        fanout.notify_game(
            game_id=game.id,
            version=game.version,
            kind="your_turn",
            turn_key=game.turn_key,
            deadline=None,
            seats=[0],
        )
    assert len(service.requests) == 1


@pytest.mark.django_db
def test_no_your_turn_push_to_an_open_table(
    vapid, eager, service, django_capture_on_commit_callbacks
):
    ann, bob = user("ann"), user("bob")
    subscribe(ann, service)
    game = start_skipbo(ann, bob, turn_timeout=3600)
    service.requests.clear()
    PushDelivery.objects.all().delete()
    push.mark_looking(game.id, ann.pk, 30)
    with django_capture_on_commit_callbacks(execute=True):
        fanout.notify_game(
            game_id=game.id,
            version=game.version,
            kind="your_turn",
            turn_key=game.turn_key,
            deadline=None,
            seats=[0],
        )
    assert service.requests == []


@pytest.mark.django_db
def test_the_table_long_poll_marks_the_player_looking(vapid):
    ann, bob = user("ann"), user("bob")
    game = start_skipbo(ann, bob, turn_timeout=3600)
    assert push.looking(game.id, [ann.pk]) == set()
    client_for(ann).get(f"/api/games/{game.id}/events/?after={game.version}&wait=0.1")
    assert push.looking(game.id, [ann.pk, bob.pk]) == {ann.pk}


@pytest.mark.django_db
def test_gone_subscription_is_removed(vapid, eager, django_capture_on_commit_callbacks):
    service = PushService([410])
    try:
        ann, bob = user("ann"), user("bob")
        subscribe(ann, service)
        with django_capture_on_commit_callbacks(execute=True):
            start_skipbo(ann, bob, turn_timeout=3600)
        assert [r["status"] for r in service.requests] == [410]
        assert not PushSubscription.objects.exists() and push.counters()["pruned"] >= 1
    finally:
        service.close()


@pytest.mark.parametrize("status", [429, 500])
@pytest.mark.django_db
def test_throttled_or_failing_service_is_retried(
    status, settings, vapid, eager, django_capture_on_commit_callbacks
):
    settings.PABLO_WEBHOOK_BACKOFF = 60  # the retry (eager: at once) finds it not due
    service = PushService([status])
    try:
        ann, bob = user("ann"), user("bob")
        subscribe(ann, service)
        with django_capture_on_commit_callbacks(execute=True):
            start_skipbo(ann, bob, turn_timeout=3600)
        row = PushDelivery.objects.get()
        assert row.status == "pending" and row.tries == 1 and row.next_try > timezone.now()
        assert push.deliver(row.pk) is None  # not due yet
        PushDelivery.objects.update(next_try=timezone.now())
        assert push.deliver(row.pk) == "sent"
        assert push.deliver(row.pk) is None  # once
        assert [r["status"] for r in service.requests] == [status, 201]
        assert PushSubscription.objects.exists() and push.counters()["retried"] >= 1
    finally:
        service.close()


@pytest.mark.django_db
def test_a_lost_task_is_sent_by_the_sweep(
    vapid, eager, service, monkeypatch, django_capture_on_commit_callbacks
):
    ann, bob = user("ann"), user("bob")
    subscribe(ann, service)
    real = push.enqueue
    monkeypatch.setattr(push, "enqueue", lambda ids, countdown=0: None)  # broker lost it
    with django_capture_on_commit_callbacks(execute=True):
        start_skipbo(ann, bob, turn_timeout=3600)
    assert service.requests == []
    monkeypatch.setattr(push, "enqueue", real)
    assert push.sweep() == 0  # too recent: its task may still come
    PushDelivery.objects.update(next_try=timezone.now() - timedelta(seconds=60))
    assert push.sweep() == 1
    assert push.sweep() == 0
    assert len(service.requests) == 1


@pytest.mark.django_db
def test_reminder_and_game_over_pushes(vapid, eager, service, django_capture_on_commit_callbacks):
    ann, bob = user("ann"), user("bob")
    subscribe(ann, service)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_skipbo(ann, bob, turn_timeout=3600)
    TurnReminder.objects.update(remind_at=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert fanout.send_due_reminders() == 1
    reminder = service.open(service.requests[-1], PAIR["public_key"])
    assert reminder["kind"] == "reminder" and reminder["game"] == str(game.id)
    assert service.requests[-1]["headers"]["Urgency"] == "normal"
    game.status, game.result = "finished", {"winners": [0], "losers": [1]}
    game.save(update_fields=["status", "result"])
    with django_capture_on_commit_callbacks(execute=True):
        fanout.notify_game(game_id=game.id, version=game.version, kind="game_finished")
    over = service.open(service.requests[-1], PAIR["public_key"])
    assert over["kind"] == "game_over" and over["body"] == "You won."
    assert len(service.requests) == 3


@pytest.mark.django_db
def test_push_turned_off_sends_nothing(vapid, eager, service, django_capture_on_commit_callbacks):
    ann, bob = user("ann"), user("bob")
    subscribe(ann, service)
    client_for(ann).patch("/api/me/notifications/", {"push_enabled": False}, format="json")
    with django_capture_on_commit_callbacks(execute=True):
        start_skipbo(ann, bob, turn_timeout=3600)
    assert service.requests == []


@pytest.mark.django_db
def test_operators_see_the_counters(vapid):
    from io import StringIO

    from django.core.management import call_command

    push.count("sent")
    out = StringIO()
    call_command("push", stdout=out)
    lines = dict(line.split(maxsplit=1) for line in out.getvalue().splitlines())
    assert int(lines["sent"]) >= 1 and lines["pending"].strip() == "0"
    assert lines["push"] == "on"


@pytest.mark.django_db
def test_seat_taken_and_rematch_pushes(vapid, eager, service, django_capture_on_commit_callbacks):
    from games.services import friends as friend_services
    from games.services import games as game_services
    from tests.fixtures import SKIPBO_QUICK

    ann, bob = user("ann"), user("bob")
    subscribe(ann, service)
    bob_device = subscribe(bob, service)
    with django_capture_on_commit_callbacks(execute=True):
        game = private_game(ann, decks=[SKIPBO_QUICK])
        game_services.game_join(game_id=game.id, user=bob, invite=game.invite)
    opened = [service.open(r, PAIR["public_key"]) for r in service.requests]
    taken = [m for m in opened if m["kind"] == "seat_taken"]
    assert [(m["game"], m["body"]) for m in taken] == [(str(game.id), "bob joined your game.")]
    for _ in range(5):
        game_services.game_act(
            game_id=game.id, user=ann, command={"type": "play", "from": "stock", "pile": 0}
        )
    service.requests.clear()
    with django_capture_on_commit_callbacks(execute=True):
        new, _ = friend_services.game_rematch(game_id=game.id, user=ann)
    to_bob = [r for r in service.requests if r["path"] in bob_device.endpoint]
    offered = [service.open(r, PAIR["public_key"]) for r in to_bob]
    assert {"kind": "rematch", "game": str(new.id), "body": "ann offers a rematch."}.items() <= (
        next(m for m in offered if m["kind"] == "rematch").items()
    )


# --------------------------------------------------------------------------- slow destinations


#: The tasks that call out to a destination a user chose (a push endpoint, a webhook URL):
#: each may wait up to ``PABLO_WEBHOOK_TIMEOUT`` on it (an endpoint that accepts and never
#: answers), times every retry.
DELIVERIES = ("games.deliver_push", "games.deliver_pushes", "games.deliver_webhook")


@pytest.mark.parametrize("task", DELIVERIES)
def test_deliveries_to_a_users_destination_keep_off_the_interactive_queue(task):
    """Pushes went to ``celery``, the queue of the deadlines' sweeps and the bots' moves:
    an account with ten subscriptions on a host that never answers held a worker slot 5 s
    per device for every "your turn" (and again at each retry) -- a few such accounts in
    games with 1-second turns stopped everyone's deadlines and bot moves, whatever the
    deployment, since splitting ``celery`` from ``notifications`` (docs/deadlines.md)
    left pushes with the sweeps."""
    from pablo.celery import app

    route = app.amqp.router.route({}, task, args=(1,), kwargs={})
    assert route["queue"].name == "notifications"


def test_the_shipped_workers_keep_deliveries_apart_from_the_game_flow():
    """docker-compose's interactive worker took ``celery,notifications`` in one pool: slow
    destinations (above) held the slots the sweeps and bot moves need."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docker-compose.yml").read_text()
    queues = [q.split(",") for q in re.findall(r"celery -A pablo worker -Q (\S+)", text)]
    assert ["celery"] in queues and ["notifications"] in queues
    assert not any("celery" in q and "notifications" in q for q in queues)
