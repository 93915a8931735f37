"""A malformed JSON body on a route whose throttle reads the body (found attacking main).

The throttle read ``request.data`` first and swallowed the parse error; DRF then hands
the view an empty body, so ``PATCH /api/me/notifications/`` with ``{`` answered 200 (a
silent no-op) instead of the 400 ``parse_error`` every other route answers."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.fixtures import user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("body", [b"{", b"\xff\xfe", b'{"timezone": "UTC"}\x00'])
@pytest.mark.parametrize(
    ("method", "path"),
    [("patch", "/api/me/notifications/"), ("post", "/api/auth/token/"), ("post", "/api/me/push/")],
)
def test_a_malformed_body_is_a_parse_error_everywhere(settings, method, path, body):
    settings.PABLO_THROTTLE_EMAILS = "5/hour"
    settings.PABLO_THROTTLE_LOGIN_FAILURES = "10/hour"
    client = APIClient()
    client.force_authenticate(user("ann"))
    answer = getattr(client, method)(path, body, content_type="application/json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "parse_error"
