"""Notifications: the /api/me/ channels, signing, fan-out, reminders, game end.

Celery runs eagerly here (in-process), with the deadline fast path off; the
real-worker tests are in tests/turns/test_worker.py.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from games import rules
from games.models import NotificationSettings, TurnReminder
from games.notifications import fanout as notifications
from games.notifications import webhooks
from games.services import accounts as account_services
from games.services import games as game_services
from games.turns import deadlines
from tests.fixtures import clock, start_skipbo, user
from tests.helpers import Receiver
from tests.notifications.common import client_for

KINDS = ("your_turn", "reminder", "game_over", "rematch", "seat_taken")


def webhook(u, url: str) -> str:
    answer = client_for(u).put("/api/me/webhook/", {"url": url}, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["secret"]


# --------------------------------------------------------------------------- API


@pytest.mark.django_db
def test_webhook_secret_is_shown_once_and_replaced_on_register():
    ann = user("ann")
    c = client_for(ann)
    assert c.get("/api/me/webhook/").json() == {"url": None, "enabled": True}
    first = c.put("/api/me/webhook/", {"url": "https://example.org/hook"}, format="json").json()
    assert first["url"] == "https://example.org/hook" and first["enabled"] is True
    assert len(first["secret"]) == 64 and int(first["secret"], 16) >= 0
    shown = c.get("/api/me/webhook/").json()
    assert shown == {"url": "https://example.org/hook", "enabled": True}  # no secret
    again = c.put("/api/me/webhook/", {"url": "https://example.org/hook"}, format="json").json()
    assert again["secret"] != first["secret"]
    assert NotificationSettings.objects.get(user=ann).webhook_secret == again["secret"]
    assert c.delete("/api/me/webhook/").status_code == 204
    assert c.get("/api/me/webhook/").json()["url"] is None


@pytest.mark.django_db
def test_webhook_url_must_be_http():
    c = client_for(user("ann"))
    answer = c.put("/api/me/webhook/", {"url": "ftp://example.org/x"}, format="json")
    assert answer.status_code == 400
    assert set(answer.json()) == {"code", "detail"}
    assert c.put("/api/me/webhook/", {}, format="json").status_code == 400


@pytest.mark.django_db
def test_channels_need_a_token():
    assert APIClient().get("/api/me/notifications/").status_code == 401
    assert APIClient().put("/api/me/webhook/", {"url": "https://x.org/"}).status_code == 401


@pytest.mark.django_db
def test_notification_settings_turn_channels_on_and_off():
    ann = user("ann")
    c = client_for(ann)
    assert c.get("/api/me/notifications/").json() == {
        "email": "",
        "email_enabled": True,
        "webhook_enabled": True,
        "webhook_url": None,
        "push_enabled": True,
        "timezone": "",
        "quiet_hours": None,
        "kinds": {
            **{k: {"push": True, "email": True, "webhook": True} for k in KINDS},
            "seat_taken": {"push": True, "webhook": True},  # never mailed
        },
    }
    answer = c.patch(
        "/api/me/notifications/",
        {"email": "ann@example.org", "email_enabled": False, "webhook_enabled": False},
        format="json",
    )
    assert answer.status_code == 200
    # issue 18: a new address is confirmed by a link first (test_email_confirmation.py)
    assert answer.json()["email"] == "" and answer.json()["email_pending"] == "ann@example.org"
    assert answer.json()["email_enabled"] is False and answer.json()["webhook_enabled"] is False
    ann.refresh_from_db()
    assert ann.email == ""
    nonce = NotificationSettings.objects.get(user=ann).email_nonce  # (the mailed link's)
    link = notifications.email_confirmation_link(ann, "ann@example.org", nonce)
    token = link.rsplit("/", 2)[-2]
    account_services.email_confirm(token=token, apply=True)
    ann.refresh_from_db()
    assert ann.email == "ann@example.org"
    assert c.get("/api/me/notifications/").json()["email"] == "ann@example.org"
    assert c.patch("/api/me/notifications/", {"email": "nope"}, format="json").status_code == 400


# --------------------------------------------------------------------------- signing


def test_signature_is_hmac_sha256_of_the_exact_body():
    body = b'{"event":"your_turn","seat":0}'
    expected = hmac.new(b"k3y", body, hashlib.sha256).hexdigest()
    assert webhooks.sign("k3y", body) == f"sha256={expected}"
    assert webhooks.verify("k3y", body, f"sha256={expected}")
    assert not webhooks.verify("k3y", body + b" ", f"sha256={expected}")
    assert not webhooks.verify("other", body, f"sha256={expected}")


# --------------------------------------------------------------------------- fan-out


@pytest.mark.django_db
def test_your_turn_email_and_signed_webhook(eager, receiver, django_capture_on_commit_callbacks):
    ann, bob = user("ann", "ann@example.org"), user("bob")
    secret = webhook(ann, receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_skipbo(ann, bob, turn_timeout=3600)
    # seat 0 is on turn: ann gets an e-mail and a webhook; bob has no channel
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    assert mail.outbox[0].subject == "Your turn in Skip-Bo"
    assert str(game.id) in mail.outbox[0].body
    assert len(receiver.requests) == 1
    got = receiver.requests[0]
    assert webhooks.verify(secret, got["body"], got["headers"]["X-Pablo-Signature"])
    body = json.loads(got["body"])
    assert body["game_id"] == str(game.id) and body["ruleset"] == "skipbo"
    assert body["seat"] == 0 and body["event"] == "your_turn"
    assert body["deadline"] == rules.iso(game.deadline)
    # and the reminder at 80 %: 3600 s turn -> 720 s before the deadline
    reminder = TurnReminder.objects.get(game=game)
    assert reminder.remind_at == game.deadline - timedelta(seconds=720)
    assert reminder.seats == [0] and reminder.turn_key == game.turn_key


@pytest.mark.django_db
def test_channels_turned_off_send_nothing(eager, receiver, django_capture_on_commit_callbacks):
    ann, bob = user("ann", "ann@example.org"), user("bob")
    webhook(ann, receiver.url)
    client_for(ann).patch(
        "/api/me/notifications/",
        {"email_enabled": False, "webhook_enabled": False},
        format="json",
    )
    assert not notifications.listening([start_skipbo(user("x"), user("y"), turn_timeout=60).id])
    with django_capture_on_commit_callbacks(execute=True):
        start_skipbo(ann, bob, turn_timeout=3600)
    assert mail.outbox == [] and receiver.requests == []


@pytest.mark.django_db
def test_failing_receiver_is_retried_and_never_fails_the_action(
    eager, settings, django_capture_on_commit_callbacks
):
    settings.PABLO_WEBHOOK_BACKOFF = 0.01
    failing = Receiver([500, 500])
    try:
        ann, bob = user("ann"), user("bob")
        secret = webhook(ann, failing.url)
        with django_capture_on_commit_callbacks(execute=True):
            game = start_skipbo(ann, bob, turn_timeout=3600)
        assert game.status == "active"
        assert [r["status"] for r in failing.requests] == [500, 500, 200]
        bodies = {r["body"] for r in failing.requests}
        assert len(bodies) == 1  # the same delivery (same id) each time
        assert webhooks.verify(
            secret,
            failing.requests[-1]["body"],
            failing.requests[-1]["headers"]["X-Pablo-Signature"],
        )
    finally:
        failing.close()


@pytest.mark.django_db
def test_unreachable_receiver_gives_up(eager, settings, django_capture_on_commit_callbacks):
    settings.PABLO_WEBHOOK_BACKOFF = 0.01
    settings.PABLO_WEBHOOK_RETRIES = 2
    ann, bob = user("ann"), user("bob")
    webhook(ann, "http://127.0.0.1:9/nothing-listens-here")
    with django_capture_on_commit_callbacks(execute=True):
        game = start_skipbo(ann, bob, turn_timeout=3600)
    assert game.status == "active"


@pytest.mark.django_db
def test_broker_down_never_fails_the_action(monkeypatch, django_capture_on_commit_callbacks):
    from games.followers import tasks as follower_tasks
    from games.turns import tasks

    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(follower_tasks.follow, "apply_async", down)
    monkeypatch.setattr(tasks.enforce_deadline, "apply_async", down)
    ann, bob = user("ann", "ann@example.org"), user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        game = start_skipbo(ann, bob, turn_timeout=30)
    assert game.status == "active" and game.deadline is not None


@pytest.mark.django_db
def test_fast_path_only_for_near_deadlines(
    monkeypatch, followers_inline, django_capture_on_commit_callbacks
):
    from games.turns import tasks

    sent = []
    monkeypatch.setattr(tasks.enforce_deadline, "apply_async", lambda *a, **k: sent.append((a, k)))
    ann, bob = user("ann"), user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        near = start_skipbo(ann, bob, turn_timeout=30)
        start_skipbo(ann, bob, turn_timeout=86400)  # a day: the sweep's alone
    assert len(sent) == 1
    args, kwargs = sent[0]
    assert args[0] == (str(near.id), near.turn_key)
    assert kwargs["eta"] == near.deadline


# --------------------------------------------------------------------------- reminders, end


@pytest.mark.django_db
def test_reminder_sent_once_while_the_turn_lasts(eager, django_capture_on_commit_callbacks):
    ann, bob = user("ann", "ann@example.org"), user("bob", "bob@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        game = start_skipbo(ann, bob, turn_timeout=3600)
        stale = start_skipbo(bob, ann, turn_timeout=3600)
    mail.outbox.clear()
    TurnReminder.objects.update(remind_at=timezone.now() - timedelta(seconds=1))
    # the second game moved on: its reminder is for a turn that is over
    TurnReminder.objects.filter(game=stale).update(turn_key="gone")
    with django_capture_on_commit_callbacks(execute=True):
        assert notifications.send_due_reminders() == 1
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["ann@example.org"], "Reminder: your turn in Skip-Bo ends soon")
    ]
    assert str(game.id) in mail.outbox[0].body
    assert not TurnReminder.objects.exists()
    assert notifications.send_due_reminders() == 0


@pytest.mark.django_db
def test_game_end_notifies_every_player(eager, django_capture_on_commit_callbacks):
    ann, bob = user("ann", "ann@example.org"), user("bob", "bob@example.org")
    game = start_skipbo(ann, bob, turn_timeout=60, ago=1000, max_timeouts=1)
    with django_capture_on_commit_callbacks(execute=True):
        with clock(timezone.now() - timedelta(seconds=500)):
            deadlines.sweep()  # seat 0 absent, seat 1's deadline overdue too
        deadlines.sweep()  # seat 1 absent: everyone is: aborted
    game.refresh_from_db()
    assert game.status == "aborted"
    ended = [m for m in mail.outbox if m.subject == "Skip-Bo game aborted"]
    assert sorted(m.to[0] for m in ended) == ["ann@example.org", "bob@example.org"]


@pytest.mark.django_db
def test_private_destinations_can_be_refused(settings, receiver):
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = False
    assert webhooks.post_webhook(receiver.url, "s", '{"event":"x"}') == 0
    assert receiver.requests == []
    settings.PABLO_WEBHOOK_ALLOW_PRIVATE = True
    assert webhooks.post_webhook(receiver.url, "s", '{"event":"x"}') == 200
    assert len(receiver.requests) == 1


@pytest.mark.django_db
def test_no_stale_your_turn(eager, django_capture_on_commit_callbacks):
    ann, bob = user("ann", "ann@example.org"), user("bob", "bob@example.org")
    game = start_skipbo(ann, bob, turn_timeout=3600)
    sent = notifications.notify_game(
        game_id=game.id, version=1, kind="your_turn", turn_key="an-older-turn", seats=[1]
    )
    assert sent == 0 and mail.outbox == [] and not TurnReminder.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        sent = notifications.notify_game(
            game_id=game.id,
            version=game.version,
            kind="your_turn",
            turn_key=game.turn_key,
            deadline=rules.iso(game.deadline),
            seats=[0],
        )
    assert sent == 1 and [m.to for m in mail.outbox] == [["ann@example.org"]]


@pytest.mark.django_db
def test_setup_reminder_only_for_players_who_have_not_looked(
    eager, django_capture_on_commit_callbacks
):
    ann, bob = user("ann", "ann@example.org"), user("bob", "bob@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.game_create(
            user=ann, ruleset="pablo", seats=2, turn_timeout=600, options={"start_seat": 0}
        )
        game_services.game_join(game_id=game.id, user=bob)
    # the setup phase waits for both: both were told
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "bob@example.org"]
    assert TurnReminder.objects.get(game=game).seats == [0, 1]
    game_services.game_act(game_id=game.id, user=bob, command={"type": "look", "positions": [0, 1]})
    mail.outbox.clear()
    TurnReminder.objects.update(remind_at=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert notifications.send_due_reminders() == 1
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]  # bob has looked
