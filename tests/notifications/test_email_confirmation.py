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
from tests.fixtures import start_skipbo, user

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
        start_skipbo(ann, bob, turn_timeout=3600)
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
        start_skipbo(ann, bob, turn_timeout=3600)
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


def confirmation_link(u, email, django_capture_on_commit_callbacks) -> str:
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert patch(u, email=email).status_code == 200
    (message,) = mail.outbox
    return link_in(message)


def test_a_link_is_used_once(eager, django_capture_on_commit_callbacks):
    ann = user("ann")
    path = confirmation_link(ann, "ann@example.org", django_capture_on_commit_callbacks)
    assert Client().post(path).status_code == 200
    ann.refresh_from_db()
    assert ann.email == "ann@example.org"
    # the attack: the address is cleared, and the old link used again
    patch(ann, email="")
    for method in (Client().get, Client().post):
        assert method(path).status_code == 400
    ann.refresh_from_db()
    assert ann.email == ""


def test_a_link_dies_when_another_address_is_asked_or_the_address_cleared(
    eager, django_capture_on_commit_callbacks
):
    ann = user("ann", "ann@example.org")
    first = confirmation_link(ann, "typo@example.org", django_capture_on_commit_callbacks)
    second = confirmation_link(ann, "right@example.org", django_capture_on_commit_callbacks)
    assert Client().post(first).status_code == 400  # replaced by the second
    third = confirmation_link(ann, "later@example.org", django_capture_on_commit_callbacks)
    patch(ann, email="")
    assert Client().post(third).status_code == 400  # the address was cleared
    assert Client().post(second).status_code == 400
    ann.refresh_from_db()
    assert ann.email == ""


def test_a_link_dies_when_the_address_changes_by_any_other_way(
    eager, django_capture_on_commit_callbacks
):
    ann = user("ann")
    path = confirmation_link(ann, "ann@example.org", django_capture_on_commit_callbacks)
    ann.email = "admin-set@example.org"
    ann.save()
    assert Client().post(path).status_code == 400
    ann.refresh_from_db()
    assert ann.email == "admin-set@example.org"


def test_confirmation_mails_are_limited_per_address_too(
    eager, settings, django_capture_on_commit_callbacks
):
    """Many cheap accounts cannot mail one victim more than one account can."""
    settings.PABLO_THROTTLE_EMAILS = "3/hour"
    caches["throttle"].clear()
    senders = [user(f"s{i}") for i in range(5)]
    with django_capture_on_commit_callbacks(execute=True):
        answers = [patch(s, email="Victim@Example.org") for s in senders]
    assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
    assert int(answers[-1]["Retry-After"]) > 0
    assert len(mail.outbox) == 3
    assert patch(senders[4], email="other@example.org").status_code == 200
    caches["throttle"].clear()


def test_a_tag_in_the_address_does_not_make_another_victim(
    eager, settings, django_capture_on_commit_callbacks
):
    """``victim+1@``, ``victim+2@``, ... reach one mailbox (sub-addressing, RFC 5233) but
    each was a counter of its own: cheap accounts mailed one victim without end."""
    settings.PABLO_THROTTLE_EMAILS = "3/hour"
    caches["throttle"].clear()
    senders = [user(f"t{i}") for i in range(5)]
    with django_capture_on_commit_callbacks(execute=True):
        answers = [patch(s, email=f"Victim+{i}@Example.org") for i, s in enumerate(senders)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
    assert len(mail.outbox) == 3
    with django_capture_on_commit_callbacks(execute=True):
        assert patch(senders[4], email="victim@example.org").status_code == 429
        assert patch(senders[4], email="victimb+1@example.org").status_code == 200
    caches["throttle"].clear()
