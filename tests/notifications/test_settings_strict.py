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


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kinds": {"reminder": {"email": "no"}}}, "kinds.reminder.email"),
        ({"kinds": {"reminder": {"email": "false"}}}, "kinds.reminder.email"),
        ({"kinds": {"reminder": {"email": 0}}}, "kinds.reminder.email"),
        ({"kinds": {"seat_taken": {"push": "off"}}}, "kinds.seat_taken.push"),
        ({"email_enabled": "no"}, "email_enabled"),
        ({"push_enabled": 0}, "push_enabled"),
        ({"webhook_enabled": "false"}, "webhook_enabled"),
    ],
)
@pytest.mark.django_db
def test_a_switch_is_a_json_boolean_or_a_400(body, field):
    """``"no"``, ``"false"`` and ``0`` were read as false (DRF's lenient booleans): a
    client's mistyped value silently turned a channel off."""
    ann = user("ann")
    c = client_for(ann)
    before = c.get("/api/me/notifications/").json()
    answer = c.patch("/api/me/notifications/", body, format="json")
    assert answer.status_code == 400, (body, answer.content)
    assert set(answer.json()) == {"code", "detail"}
    assert answer.json()["detail"].startswith(field + ":"), answer.json()
    assert c.get("/api/me/notifications/").json() == before


@pytest.mark.parametrize("name", ["UTC ", " UTC", "UTC\n", "\tEurope/Paris", 7, True, ["UTC"]])
@pytest.mark.django_db
def test_a_timezone_is_taken_as_sent_a_string_without_blanks(name):
    """``"UTC "`` was trimmed and stored as ``UTC``, ``7`` read as ``"7"``: the API takes
    a zone name as it is spelled, a JSON string, or answers 400."""
    ann = user("ann")
    c = client_for(ann)
    c.patch("/api/me/notifications/", {"timezone": "Europe/Paris"}, format="json")
    answer = c.patch("/api/me/notifications/", {"timezone": name}, format="json")
    assert answer.status_code == 400, (name, answer.content)
    assert answer.json()["detail"].startswith("timezone:")
    assert NotificationSettings.objects.get(user=ann).timezone == "Europe/Paris"


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ({"quiet_hours": {"start": "22:00", "end": "07:00", "until": "08:00"}}, "until"),
        ({"push_enable": False}, "push_enable"),  # a misspelt switch
        ({"time_zone": "Europe/Paris"}, "time_zone"),
    ],
)
@pytest.mark.django_db
def test_unknown_keys_anywhere_in_the_body_are_400(body, key):
    """A misspelt top-level switch or quiet-hours key answered 200 and changed nothing."""
    ann = user("ann")
    c = client_for(ann)
    before = c.get("/api/me/notifications/").json()
    answer = c.patch("/api/me/notifications/", body, format="json")
    assert answer.status_code == 400, (body, answer.content)
    assert key in answer.json()["detail"]
    assert c.get("/api/me/notifications/").json() == before


@pytest.mark.django_db
def test_what_a_get_answers_can_be_sent_back():
    """The answer's read-only fields (``webhook_url``, ``email``) are known keys: a client
    that sends back what it read, with one switch changed, is not refused."""
    c = client_for(user("ann"))
    c.patch("/api/me/notifications/", {"timezone": "Europe/Paris"}, format="json")
    body = c.get("/api/me/notifications/").json()  # (a blank timezone is not sent back)
    body["kinds"]["reminder"]["email"] = False
    answer = c.patch("/api/me/notifications/", body, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["kinds"]["reminder"]["email"] is False


@pytest.mark.parametrize(
    "hours", [{"start": "22:00 ", "end": "07:00"}, {"start": 2200, "end": 700}]
)
@pytest.mark.django_db
def test_quiet_hours_are_hh_mm_strings_as_sent(hours):
    """``"22:00 "`` was trimmed and taken."""
    c = client_for(user("ann"))
    answer = c.patch("/api/me/notifications/", {"quiet_hours": hours}, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["detail"].startswith("quiet_hours.start:")
    assert c.get("/api/me/notifications/").json()["quiet_hours"] is None
