"""Attacks on the notification settings (``PATCH /api/me/notifications/``), replayed:
each test failed before its fix."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from tests.fixtures import user
from tests.notifications.test_email_confirmation import eager, link_in, patch  # noqa: F401

pytestmark = pytest.mark.django_db


def test_an_address_longer_than_an_account_holds_is_a_400_not_a_500_at_confirmation(
    eager,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    """A 312-character address was accepted (200) and mailed a link; pressing the link's
    button then failed to store it in the account's 254-character column: a 500."""
    ann = user("ann")
    long = "a" * 300 + "@example.org"
    with django_capture_on_commit_callbacks(execute=True):
        answer = patch(ann, email=long)
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "invalid" and "email" in answer.json()["detail"]
    assert mail.outbox == []
    # the longest an account holds still goes through to the end
    longest = "b" * 64 + "@" + ("c" * 63 + ".") * 2 + "d" * 57 + ".org"
    assert len(longest) == 254
    with django_capture_on_commit_callbacks(execute=True):
        assert patch(ann, email=longest).status_code == 200
    done = Client(raise_request_exception=False).post(link_in(mail.outbox[0]))
    assert done.status_code == 200
    ann.refresh_from_db()
    assert ann.email == longest
