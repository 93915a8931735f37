"""``PATCH /api/me/notifications/`` at its edges: quiet hours are exactly HH:MM (a final
newline is not), and a key the client spelt with a lone surrogate is named in a 400,
not a 500 (JSON decodes ``"\\ud800"``; UTF-8 cannot encode it back)."""

from __future__ import annotations

import pytest

from games.models import NotificationSettings
from tests.fixtures import user
from tests.notifications.common import client_for


@pytest.mark.parametrize("start", ["22:00\n", "22:00\r\n", "\n22:00", "22:00 "])
@pytest.mark.django_db
def test_quiet_hours_with_a_newline_are_400(start):
    ann = user("ann")
    c = client_for(ann)
    answer = c.patch(
        "/api/me/notifications/", {"quiet_hours": {"start": start, "end": "07:00"}}, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert "quiet_hours.start" in answer.json()["detail"]
    row = NotificationSettings.objects.filter(user=ann).first()
    assert row is None or not row.quiet_hours


@pytest.mark.parametrize(
    "body",
    [
        b'{"\\ud800": 1}',
        b'{"kinds": {"\\udfff": {}}}',
        b'{"kinds": {"reminder": {"x\\ud800": true}}}',
        b'{"quiet_hours": {"start": "22:00", "end": "07:00", "\\ud83d": 1}}',
    ],
)
@pytest.mark.django_db
def test_an_unknown_key_with_a_lone_surrogate_is_400(body):
    c = client_for(user("ann"))
    answer = c.generic("PATCH", "/api/me/notifications/", body, content_type="application/json")
    assert answer.status_code == 400
    detail = answer.json()["detail"]
    assert "unknown key" in detail and ("\\ud8" in detail or "\\udf" in detail)
