"""Issue 18, item 7: a new notification address is confirmed before anything is sent to it.

The attack: ``PATCH /api/me/notifications/ {"email": "victim@…"}`` was taken
as it was, and "your turn" mails went to the victim. Now the address gets one
mail with a link; it becomes the account's address only when the link's page
is confirmed (a GET changes nothing: mail scanners open links), and no
notification goes to it before. Confirmation mails are limited per user
(``PABLO_THROTTLE_EMAILS``).
"""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.cache import caches
from django.test import Client
from rest_framework.test import APIClient

from pablo.celery import app
from tests.helpers import skipbo_game, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager(settings):
    settings.PABLO_FAST_PATH_SECONDS = 0
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


def patch(u, **body):
    c = APIClient()
    c.force_authenticate(u)
    return c.patch("/api/me/notifications/", body, format="json")


def link_in(message) -> str:
    found = re.search(r"https?://\S+/accounts/email/(\S+)/", message.body)
    assert found, message.body
    return f"/accounts/email/{found.group(1)}/"


def test_a_new_address_gets_only_a_confirmation_until_confirmed(
    eager, django_capture_on_commit_callbacks
):
    ann, bob = user("ann"), user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        answer = patch(ann, email="victim@example.org")
    assert answer.status_code == 200
    assert answer.json()["email"] == "" and answer.json()["email_pending"] == "victim@example.org"
    assert [m.to for m in mail.outbox] == [["victim@example.org"]]
    confirmation = mail.outbox[0]
    assert "Confirm" in confirmation.subject and "ann" in confirmation.body
    path = link_in(confirmation)
    ann.refresh_from_db()
    assert ann.email == ""
    # ann's turn: nothing goes to the unconfirmed address
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        skipbo_game(ann, bob, turn_timeout=3600)
    assert mail.outbox == []
    # opening the link changes nothing; pressing its button confirms
    page = Client().get(path)
    assert page.status_code == 200 and "victim@example.org" in page.content.decode()
    ann.refresh_from_db()
    assert ann.email == ""
    done = Client().post(path)
    assert done.status_code == 200 and "confirmed" in done.content.decode()
    ann.refresh_from_db()
    assert ann.email == "victim@example.org"
    with django_capture_on_commit_callbacks(execute=True):
        skipbo_game(ann, bob, turn_timeout=3600)
    assert [m.to for m in mail.outbox] == [["victim@example.org"]]
    assert mail.outbox[0].subject.startswith("Your turn")


def test_a_forged_or_altered_link_is_refused():
    ann = user("ann")
    for token in ("nonsense", "eyJ1IjoxLCJlIjoibWVAeC5vcmcifQ:1abc:forged"):
        answer = Client().post(f"/accounts/email/{token}/")
        assert answer.status_code == 400
    ann.refresh_from_db()
    assert ann.email == ""


def test_the_same_address_again_or_none_sends_nothing(django_capture_on_commit_callbacks):
    ann = user("ann", "ann@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        assert "email_pending" not in patch(ann, email="ann@example.org").json()
        answer = patch(ann, email="")
    assert answer.json()["email"] == "" and mail.outbox == []


def test_confirmation_mails_are_limited_per_user(settings, django_capture_on_commit_callbacks):
    settings.PABLO_THROTTLE_EMAILS = "3/hour"
    caches["throttle"].clear()
    ann = user("ann")
    with django_capture_on_commit_callbacks(execute=True):
        answers = [patch(ann, email=f"v{i}@example.org") for i in range(5)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
    assert answers[-1].json()["code"] == "throttled" and int(answers[-1]["Retry-After"]) > 0
    assert patch(ann, email_enabled=False).status_code == 200  # other changes are not limited
    caches["throttle"].clear()
