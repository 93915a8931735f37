"""``PATCH /api/me/notifications/`` refuses what it cannot honour: a timezone that is no
real IANA zone, a kind or a channel it does not know (never silently ignored)."""

from __future__ import annotations

import pytest

from games.models import NotificationSettings
from games.notifications import quiet
from tests.fixtures import user
from tests.notifications.common import client_for


@pytest.mark.parametrize(
    "name",
    [
        "localtime",
        "Factory",
        "posixrules",
        "posix/Europe/Paris",
        "right/UTC",
        "../etc/passwd",
        "Europe/../Europe/Paris",
        "/usr/share/zoneinfo/UTC",
        "Europe//Paris",
        "Europe/",
        "",
        "   ",
        "Mars/Olympus",
        "zone.tab",
    ],
)
@pytest.mark.django_db
def test_a_timezone_that_is_no_real_zone_is_400(name):
    ann = user("ann")
    c = client_for(ann)
    c.patch("/api/me/notifications/", {"timezone": "Europe/Paris"}, format="json")
    answer = c.patch("/api/me/notifications/", {"timezone": name}, format="json")
    assert answer.status_code == 400, (name, answer.content)
    body = answer.json()
    assert body["code"] and "timezone" in body["detail"]
    assert NotificationSettings.objects.get(user=ann).timezone == "Europe/Paris"
    assert not quiet.known_zone(name)


@pytest.mark.parametrize("name", ["Europe/Paris", "UTC", "America/Argentina/Buenos_Aires"])
@pytest.mark.django_db
def test_real_zones_are_kept(name):
    c = client_for(user("ann"))
    answer = c.patch("/api/me/notifications/", {"timezone": name}, format="json")
    assert answer.status_code == 200 and answer.json()["timezone"] == name


@pytest.mark.parametrize(
    "kinds",
    [
        {"remindr": {"email": False}},  # a misspelt kind
        {"reminder": {"mail": False}},  # a misspelt channel
        {"reminder": {"email": False, "sms": False}},
        {"your_turn": {"push": False}, "game_end": {"push": False}},
    ],
)
@pytest.mark.django_db
def test_unknown_kinds_and_channels_are_400_and_change_nothing(kinds):
    ann = user("ann")
    c = client_for(ann)
    answer = c.patch("/api/me/notifications/", {"kinds": kinds}, format="json")
    assert answer.status_code == 400, (kinds, answer.content)
    assert set(answer.json()) == {"code", "detail"}
    assert "kinds" in answer.json()["detail"]
    row = NotificationSettings.objects.filter(user=ann).first()
    assert row is None or not row.kinds
    got = c.get("/api/me/notifications/").json()["kinds"]
    assert all(all(channels.values()) for channels in got.values())


@pytest.mark.django_db
def test_known_kinds_still_patch_partially():
    c = client_for(user("ann"))
    answer = c.patch(
        "/api/me/notifications/", {"kinds": {"rematch": {"webhook": False}}}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["kinds"]["rematch"] == {"push": True, "email": True, "webhook": False}
