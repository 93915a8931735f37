"""Quiet hours with half a window (found attacking main).

``PATCH /api/me/notifications/ {"quiet_hours": {"start": "22:00"}}`` answered 200 and
stored ``{"start": "22:00"}`` (the nested serializer inherited the PATCH's partial
mode); every notification to that player then raised ``KeyError: 'end'`` in the
notifications follower, which stops the log's notifications for everyone until the
row is mended.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.models import NotificationSettings, PushDelivery
from games.notifications import quiet
from tests.fixtures import start_skipbo, user
from tests.notifications.common import client_for, subscribe


@pytest.mark.django_db
@pytest.mark.parametrize(
    "hours",
    [{"start": "22:00"}, {"end": "07:00"}, {}],
)
def test_half_a_quiet_window_is_refused(hours):
    c = client_for(user("ann"))
    answer = c.patch("/api/me/notifications/", {"quiet_hours": hours}, format="json")
    assert answer.status_code == 400, answer.json()
    assert c.get("/api/me/notifications/").json()["quiet_hours"] is None


@pytest.mark.parametrize("hours", [{"start": "22:00"}, {"end": "07:00"}, {"start": 5, "end": "x"}])
def test_a_malformed_stored_window_is_no_quiet_hours(hours):
    at = datetime(2026, 1, 1, 23, 0, tzinfo=UTC)
    assert quiet.window(hours, "UTC", at) is None
    assert quiet.next_start(hours, "UTC", at) is None
    assert quiet.send_at("your_turn", at, hours=hours, tz="UTC", now=at) == at


@pytest.mark.django_db
def test_the_follower_survives_a_malformed_stored_window(
    vapid, eager, service, django_capture_on_commit_callbacks
):
    ann, bob = user("ann"), user("bob")
    subscribe(ann, service)
    NotificationSettings.objects.update_or_create(
        user=ann, defaults={"quiet_hours": {"start": "22:00"}}
    )
    with django_capture_on_commit_callbacks(execute=True):
        start_skipbo(ann, bob, turn_timeout=3600)
    assert PushDelivery.objects.filter(subscription__user=ann).exists() or service.requests
