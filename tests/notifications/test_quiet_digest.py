"""Per kind and channel switches, quiet hours, the "your turn" digest, and nothing twice.

Clocks are fixed (``tests.fixtures.clock``): no test sleeps through quiet hours. The
push stand-in (tests/pushservice.py) checks the VAPID JWT's ``exp`` against the real
clock, so the scenarios with pushes take their quiet hours a little after the real now.
Celery runs eagerly, the followers inline (as in test_push.py).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from games.models import MailNotice, NotificationSettings, PushDelivery, TurnReminder
from games.notifications import digest, fanout, push, quiet, tasks
from games.services import games as game_services
from tests.fixtures import clock, start_skipbo, user
from tests.helpers import Receiver
from tests.notifications.common import PAIR, client_for, private_game, subscribe
from tests.pushservice import PushService

PARIS = "Europe/Paris"


@pytest.fixture
def vapid(vapid, settings):  # the shared one, and a lost push is swept at once
    settings.PABLO_PUSH_LOST_SECONDS = 0


@pytest.fixture
def eager(eager, settings):
    settings.PABLO_QUIET_MARGIN = 900


def settings_of(u, **fields):
    answer = client_for(u).patch("/api/me/notifications/", fields, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()


def hhmm(moment: datetime, tz: str = PARIS) -> str:
    return moment.astimezone(ZoneInfo(tz)).strftime("%H:%M")


def soon() -> datetime:
    """A whole minute a little after the real now (see the module's note)."""
    return timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=1)


def quiet_from(u, begins: datetime, ends: datetime) -> None:
    settings_of(u, timezone=PARIS, quiet_hours={"start": hhmm(begins), "end": hhmm(ends)})


def opened(service: PushService) -> list[dict]:
    return [service.open(r, PAIR["public_key"]) for r in service.requests]


# --------------------------------------------------------------------------- the clock (pure)


def paris(*args) -> datetime:
    return datetime(*args, tzinfo=ZoneInfo(PARIS))


NIGHT = {"start": "22:00", "end": "07:30"}


def test_quiet_window_spans_midnight_in_the_players_timezone():
    begins, ends = paris(2027, 1, 10, 22, 0), paris(2027, 1, 11, 7, 30)
    assert quiet.window(NIGHT, PARIS, paris(2027, 1, 10, 23, 0)) == (begins, ends)
    assert quiet.window(NIGHT, PARIS, paris(2027, 1, 11, 3, 0)) == (begins, ends)
    assert quiet.window(NIGHT, PARIS, paris(2027, 1, 11, 7, 30)) is None
    assert quiet.window(NIGHT, PARIS, paris(2027, 1, 10, 21, 59)) is None
    # the same hours in UTC are another moment; blank timezone: UTC
    assert quiet.window(NIGHT, "", paris(2027, 1, 10, 22, 30)) is None
    assert quiet.window(NIGHT, "", datetime(2027, 1, 10, 22, 30, tzinfo=UTC)) is not None
    assert quiet.window({"start": "09:00", "end": "09:00"}, PARIS, paris(2027, 1, 10, 9)) is None
    assert quiet.window(None, PARIS, paris(2027, 1, 10, 23)) is None
    # a day-time period, and the night the clocks go forward
    day = {"start": "12:00", "end": "14:00"}
    assert quiet.window(day, PARIS, paris(2027, 1, 10, 13)) == (
        paris(2027, 1, 10, 12),
        paris(2027, 1, 10, 14),
    )
    spring = quiet.window(NIGHT, PARIS, paris(2027, 3, 28, 5, 0))
    assert spring is not None and spring[1] - spring[0] == timedelta(hours=8, minutes=30)
    assert quiet.next_start(NIGHT, PARIS, paris(2027, 1, 10, 23)) == paris(2027, 1, 11, 22)


def test_send_at_holds_all_but_a_reminder_whose_turn_ends_in_the_quiet_hours():
    now = paris(2027, 1, 10, 20, 0)
    ends = paris(2027, 1, 11, 7, 30)
    args = {"hours": NIGHT, "tz": PARIS, "margin": timedelta(minutes=15)}
    assert quiet.send_at("your_turn", now, now=now, **args) == now  # not quiet yet
    late = paris(2027, 1, 10, 23, 0)
    for kind in ("your_turn", "game_over", "rematch", "seat_taken"):
        assert quiet.send_at(kind, late, now=late, **args) == ends
    # a reminder due at 23:12 for a turn ending at midnight: before the quiet hours begin
    at, deadline = paris(2027, 1, 10, 23, 12), paris(2027, 1, 11, 0, 0)
    early = quiet.send_at("reminder", at, now=now, deadline=deadline, **args)
    assert early == paris(2027, 1, 10, 21, 45)
    # ... at once when the turn began within the margin, at its time when already quiet
    edge = paris(2027, 1, 10, 21, 50)
    assert quiet.send_at("reminder", at, now=edge, deadline=deadline, **args) == edge
    assert quiet.send_at("reminder", at, now=late, deadline=deadline, **args) == at
    # a reminder for a turn that outlasts the night: when the night ends
    morning = paris(2027, 1, 11, 9, 0)
    assert quiet.send_at("reminder", at, now=now, deadline=morning, **args) == ends


# --------------------------------------------------------------------------- switches


@pytest.mark.django_db
def test_kinds_per_channel_through_the_api():
    ann = user("ann")
    got = settings_of(ann, kinds={"reminder": {"email": False}, "rematch": {"push": False}})
    assert got["kinds"]["reminder"] == {"push": True, "email": False, "webhook": True}
    assert got["kinds"]["rematch"] == {"push": False, "email": True, "webhook": True}
    assert got["kinds"]["your_turn"] == {"push": True, "email": True, "webhook": True}
    # a PATCH changes only what it names; on again is forgotten
    got = settings_of(ann, kinds={"rematch": {"push": True}})
    assert got["kinds"]["reminder"]["email"] is False and got["kinds"]["rematch"]["push"]
    assert NotificationSettings.objects.get(user=ann).kinds == {"reminder": {"email": False}}
    bad = client_for(ann).patch(
        "/api/me/notifications/", {"kinds": {"reminder": {"email": "maybe"}}}, format="json"
    )
    assert bad.status_code == 400
    # the binding fields are still there
    assert {"push_enabled", "timezone", "quiet_hours"} <= set(got)
    refused = client_for(ann).patch("/api/me/notifications/", {"timezone": "Mars/Base"})
    assert refused.status_code == 400


@pytest.mark.django_db
def test_a_kind_switched_off_on_one_channel_only(
    vapid, eager, service, django_capture_on_commit_callbacks
):
    ann, bob = user("ann", "ann@example.org"), user("bob")
    subscribe(ann, service)
    receiver = Receiver()
    try:
        client_for(ann).put("/api/me/webhook/", {"url": receiver.url}, format="json")
        settings_of(ann, kinds={"your_turn": {"push": False}, "reminder": {"email": False}})
        with django_capture_on_commit_callbacks(execute=True):
            start_skipbo(ann, bob, turn_timeout=3600)
        assert service.requests == []  # your_turn: no push ...
        assert [m.subject for m in mail.outbox] == ["Your turn in Skip-Bo"]  # ... but a mail
        assert len(receiver.requests) == 1  # ... and the webhook
        mail.outbox.clear()
        TurnReminder.objects.update(remind_at=timezone.now() - timedelta(seconds=1))
        with django_capture_on_commit_callbacks(execute=True):
            assert fanout.send_due_reminders() == 1
        assert [m["kind"] for m in opened(service)] == ["reminder"]  # reminder: a push ...
        assert mail.outbox == []  # ... no mail
        assert len(receiver.requests) == 2
    finally:
        receiver.close()


# --------------------------------------------------------------------------- quiet hours


@pytest.mark.django_db
def test_quiet_hours_hold_push_and_mail_until_they_end_then_once_per_game(
    vapid, eager, service, django_capture_on_commit_callbacks
):
    t0 = soon()
    begins, ends = t0 - timedelta(minutes=30), t0 + timedelta(hours=2)
    ann, bob = user("ann", "ann@example.org"), user("bob")
    subscribe(ann, service)
    quiet_from(ann, begins, ends)
    receiver = Receiver()
    try:
        client_for(ann).put("/api/me/webhook/", {"url": receiver.url}, format="json")
        # a turn of 2 h 15 begun in the quiet hours: its reminder (80 %, at 1 h 48) falls in
        # them too, its deadline after them
        with clock(t0), django_capture_on_commit_callbacks(execute=True):
            game = start_skipbo(ann, bob, turn_timeout=8100)
        assert service.requests == [] and mail.outbox == []
        assert len(receiver.requests) == 1  # programs are not held
        held = PushDelivery.objects.filter(status="pending").order_by("pk")
        assert [(d.kind, d.next_try) for d in held] == [("your_turn", ends), ("reminder", ends)]
        assert sorted(MailNotice.objects.values_list("kind", "due")) == [
            ("reminder", ends),
            ("your_turn", ends),
        ]
        # the reminder sweep at the 80 % point adds nothing: both are written already
        TurnReminder.objects.update(remind_at=timezone.now() - timedelta(seconds=1))
        with clock(t0 + timedelta(minutes=109)), django_capture_on_commit_callbacks(execute=True):
            fanout.send_due_reminders()
            push.sweep()
            digest.sweep()
        assert PushDelivery.objects.count() == 2 and MailNotice.objects.count() == 2
        assert service.requests == [] and mail.outbox == []
        # the quiet hours end: one push and one mail for the game, the newest kind
        for _ in range(2):  # the sweeps of two beats (or two workers): still once
            with (
                clock(ends + timedelta(seconds=5)),
                django_capture_on_commit_callbacks(execute=True),
            ):
                push.sweep()
                digest.sweep()
        assert [(m["kind"], m["game"]) for m in opened(service)] == [("reminder", str(game.id))]
        assert [m.subject for m in mail.outbox] == ["Reminder: your turn in Skip-Bo ends soon"]
        assert set(PushDelivery.objects.values_list("kind", "status")) == {
            ("your_turn", "skipped"),
            ("reminder", "sent"),
        }
    finally:
        receiver.close()


@pytest.mark.django_db
def test_a_turn_that_ends_in_the_quiet_hours_is_reminded_before_they_begin(
    vapid, eager, service, django_capture_on_commit_callbacks
):
    t0 = soon()
    begins, ends = t0 + timedelta(hours=1), t0 + timedelta(hours=3)
    ann, bob = user("ann", "ann@example.org"), user("bob")
    subscribe(ann, service)
    quiet_from(ann, begins, ends)
    # a 2-hour turn: its 80 % point (t0 + 96 min) and its deadline in the quiet hours
    with clock(t0), django_capture_on_commit_callbacks(execute=True):
        game = start_skipbo(ann, bob, turn_timeout=2 * 3600)
    assert [m["kind"] for m in opened(service)] == ["your_turn"]  # not quiet yet
    assert [m.subject for m in mail.outbox] == ["Your turn in Skip-Bo"]
    early = begins - timedelta(minutes=15)
    reminder = PushDelivery.objects.get(kind="reminder")
    assert reminder.next_try == early
    assert MailNotice.objects.get(kind="reminder").due == early
    with clock(early - timedelta(minutes=1)), django_capture_on_commit_callbacks(execute=True):
        push.sweep()
        digest.sweep()
    assert len(service.requests) == 1 and len(mail.outbox) == 1  # not yet
    with clock(early + timedelta(seconds=5)), django_capture_on_commit_callbacks(execute=True):
        push.sweep()
        digest.sweep()
    assert [m["kind"] for m in opened(service)] == ["your_turn", "reminder"]
    assert mail.outbox[-1].subject == "Reminder: your turn in Skip-Bo ends soon"
    # the 80 % point comes in the quiet hours: the sweep sends nothing again
    TurnReminder.objects.update(remind_at=timezone.now() - timedelta(seconds=1))
    with clock(t0 + timedelta(minutes=97)), django_capture_on_commit_callbacks(execute=True):
        assert fanout.send_due_reminders() == 1
        push.sweep()
        digest.sweep()
    assert len(service.requests) == 2 and len(mail.outbox) == 2
    assert PushDelivery.objects.filter(game=game).count() == 2


@pytest.mark.django_db
def test_a_held_your_turn_whose_turn_ended_is_not_sent(
    vapid, eager, service, django_capture_on_commit_callbacks
):
    t0 = soon()
    ann, bob = user("ann", "ann@example.org"), user("bob")
    subscribe(ann, service)
    settings_of(ann, kinds={"reminder": {"push": False, "email": False}})
    quiet_from(ann, t0 - timedelta(minutes=5), t0 + timedelta(hours=1))
    with clock(t0), django_capture_on_commit_callbacks(execute=True):
        game = start_skipbo(ann, bob, turn_timeout=3 * 3600)
    game.turn_key = "a-later-turn"  # ann played (or timed out) meanwhile
    game.save(update_fields=["turn_key"])
    with (
        clock(t0 + timedelta(hours=1, seconds=5)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        push.sweep()
        digest.sweep()
    assert service.requests == [] and mail.outbox == []
    assert PushDelivery.objects.get().status == "skipped"
    assert MailNotice.objects.get().status == "skipped"


@pytest.mark.django_db
def test_an_early_reminder_skips_a_player_who_has_acted_in_the_setup(
    eager, django_capture_on_commit_callbacks
):
    t0 = soon()
    begins, ends = t0 + timedelta(minutes=30), t0 + timedelta(hours=2)
    ann, bob = user("ann", "ann@example.org"), user("bob", "bob@example.org")
    for u in (ann, bob):
        quiet_from(u, begins, ends)
    # a 40-minute setup phase: its 80 % point and its end in the quiet hours
    with clock(t0), django_capture_on_commit_callbacks(execute=True):
        game = game_services.game_create(
            user=ann, ruleset="pablo", seats=2, turn_timeout=2400, options={"start_seat": 0}
        )
        game_services.game_join(game_id=game.id, user=bob)
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "bob@example.org"]
    early = begins - timedelta(minutes=15)
    assert set(MailNotice.objects.filter(kind="reminder").values_list("due", flat=True)) == {early}
    with clock(t0 + timedelta(minutes=5)):
        game_services.game_act(
            game_id=game.id, user=bob, command={"type": "look", "positions": [0, 1]}
        )
    mail.outbox.clear()
    with clock(early + timedelta(seconds=5)), django_capture_on_commit_callbacks(execute=True):
        digest.sweep()
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["ann@example.org"], "Reminder: your turn in Pablo ends soon")
    ]


@pytest.mark.django_db
def test_notifications_not_held_do_not_collapse_and_a_seat_taken_is_not_mailed(
    vapid, eager, service, django_capture_on_commit_callbacks
):
    ann, bob = user("ann", "ann@example.org"), user("bob")
    subscribe(ann, service)
    with django_capture_on_commit_callbacks(execute=True):
        game = private_game(ann, options={"start_seat": 0})
        game_services.game_join(game_id=game.id, user=bob, invite=game.invite)
    # bob's join starts the game: ann hears of both by push; only the start is mailed
    assert sorted(m["kind"] for m in opened(service)) == ["seat_taken", "your_turn"]
    assert [m.subject for m in mail.outbox] == ["Your turn in Skip-Bo"]
    assert f"/play/{game.id}/" in mail.outbox[0].body


# --------------------------------------------------------------------------- the digest


@pytest.mark.django_db
def test_at_most_one_your_turn_mail_an_hour_listing_every_waiting_game(
    eager, django_capture_on_commit_callbacks
):
    t0 = soon()
    ann = user("ann", "ann@example.org")
    games = []
    with clock(t0), django_capture_on_commit_callbacks(execute=True):
        games.append(start_skipbo(ann, user("bob"), turn_timeout=86400))
    assert [m.subject for m in mail.outbox] == ["Your turn in Skip-Bo"]  # the first at once
    for minutes in (10, 20):
        with (
            clock(t0 + timedelta(minutes=minutes)),
            django_capture_on_commit_callbacks(execute=True),
        ):
            games.append(start_skipbo(ann, user(f"p{minutes}"), turn_timeout=86400))
            digest.sweep()
    assert len(mail.outbox) == 1  # the others wait for the hour's end
    waiting = MailNotice.objects.filter(status="pending")
    assert set(waiting.values_list("due", flat=True)) == {t0 + timedelta(hours=1)}
    for _ in range(2):  # two sweeps, or a redelivered task: one mail
        with (
            clock(t0 + timedelta(hours=1, seconds=1)),
            django_capture_on_commit_callbacks(execute=True),
        ):
            digest.sweep()
            tasks.send_mail([str(ann.pk)])
    assert len(mail.outbox) == 2
    sent = mail.outbox[1]
    assert sent.subject == "Your turn in 3 games" and sent.to == ["ann@example.org"]
    for game in games:  # every game waiting for ann, the first one too
        assert f"/play/{game.id}/" in sent.body
    assert "♠" not in sent.body and "of hearts" not in sent.body  # never a card
    assert not MailNotice.objects.filter(status="pending").exists()


@pytest.mark.django_db
def test_a_mail_whose_task_was_lost_is_sent_by_the_sweep_once(
    monkeypatch, eager, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(digest, "enqueue", lambda users: None)  # the hint lost with the broker
    ann = user("ann", "ann@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        game = start_skipbo(ann, user("bob"), turn_timeout=3600)
    assert mail.outbox == [] and MailNotice.objects.get().status == "pending"
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            assert digest.sweep() in (0, 1)
    assert [m.subject for m in mail.outbox] == ["Your turn in Skip-Bo"]
    assert str(game.id) in mail.outbox[0].body


# --------------------------------------------------------------------------- nothing twice


@pytest.mark.django_db
def test_a_notification_handled_twice_and_redelivered_tasks_send_once(
    vapid, eager, service, django_capture_on_commit_callbacks
):
    ann, bob = user("ann", "ann@example.org"), user("bob")
    subscribe(ann, service)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_skipbo(ann, bob, turn_timeout=3600)
    assert len(service.requests) == 1 and len(mail.outbox) == 1
    job = {
        "game_id": game.id,
        "version": game.version,
        "kind": "your_turn",
        "turn_key": game.turn_key,
        "deadline": game.deadline.isoformat().replace("+00:00", "Z"),
        "seats": [0],
    }
    for _ in range(2):  # the follower's batch handled again (a worker restarted mid-batch)
        with django_capture_on_commit_callbacks(execute=True):
            fanout.notify_game(**job)
    for delivery in PushDelivery.objects.all():  # the task redelivered (acks late)
        assert tasks.deliver_push(delivery.pk) is None
    with django_capture_on_commit_callbacks(execute=True):
        tasks.send_mail([str(ann.pk)])
        push.sweep()
        digest.sweep()
    assert len(service.requests) == 1 and len(mail.outbox) == 1
    assert PushDelivery.objects.count() == 1 and MailNotice.objects.count() == 1


@pytest.mark.django_db
def test_manage_push_shows_every_counter(vapid, eager, service, django_capture_on_commit_callbacks):
    ann = user("ann", "ann@example.org")
    subscribe(ann, service)
    with django_capture_on_commit_callbacks(execute=True):
        start_skipbo(ann, user("bob"), turn_timeout=3600)
    out = StringIO()
    call_command("push", stdout=out)
    names = [line.split()[0] for line in out.getvalue().splitlines()]
    for name in ("sent", "failed", "pruned", "retried", "skipped", "pending", "devices"):
        assert name in names
    assert "mails" in out.getvalue()
