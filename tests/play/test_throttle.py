"""Web log-in and sign-up are throttled like the API's auth (games/api/throttling.py).

The test settings turn every limit off; these tests turn on the ones they check,
on the per-test in-memory throttle cache (as tests/api/test_throttling.py does).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.test import Client

from tabletop.durations import human_seconds
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_throttle_cache():
    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


def login(client: Client, password: str, address: str = "10.9.0.1", username: str = "ann"):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_30_wrong_passwords_in_a_row_get_429_pages(settings):
    settings.PABLO_THROTTLE_LOGIN_FAILURES = "10/hour"
    settings.PABLO_THROTTLE_AUTH = None
    UserFactory(username="ann", password="right-one-77")
    client = Client()
    answers = [login(client, f"guess-{i}") for i in range(30)]
    # the first ten are the form again, with its error; then the 429 page
    assert [a.status_code for a in answers[:10]] == [200] * 10
    assert "enter a correct username and password" in answers[0].content.decode()
    assert [a.status_code for a in answers[10:]] == [429] * 20
    refused = answers[-1]
    assert 3500 < int(refused["Retry-After"]) <= 3600
    assert refused["Content-Type"].startswith("text/html")
    page = refused.content.decode()
    wait = human_seconds(int(refused["Retry-After"]))  # "1 h" or "59 min"
    assert "<h1" in page and "Too many attempts" in page and f"wait <strong>{wait}</strong>" in page
    assert "{" not in page.split("<main", 1)[1].split("</main>", 1)[0]  # no JSON for a person
    # the right password from that address waits too (a guesser learns nothing) ...
    assert login(client, "right-one-77").status_code == 429
    # ... but the owner logs in from elsewhere, and another user from here
    assert login(Client(), "right-one-77", address="10.9.0.2").status_code == 302
    UserFactory(username="bob", password="bobs-pass-77")
    assert login(Client(), "bobs-pass-77", username="bob").status_code == 302


def test_sign_up_and_log_in_posts_are_limited_per_address(settings):
    settings.PABLO_THROTTLE_LOGIN_FAILURES = None
    settings.PABLO_THROTTLE_AUTH = "3/min"
    client = Client()
    for i in range(3):
        r = client.post(
            "/accounts/signup/",
            {"username": f"new{i}", "password1": "xx-secret-77", "password2": "xx-secret-77"},
            REMOTE_ADDR="10.9.1.1",
        )
        assert r.status_code == 302
        client.post("/accounts/logout/")
    r = client.post(
        "/accounts/signup/",
        {"username": "new3", "password1": "xx-secret-77", "password2": "xx-secret-77"},
        REMOTE_ADDR="10.9.1.1",
    )
    assert r.status_code == 429 and 1 <= int(r["Retry-After"]) <= 60
    assert "Too many attempts" in r.content.decode()
    assert not get_user_model().objects.filter(username="new3").exists()
    # the log-in shares the address's budget; reading the forms is never limited
    assert login(client, "whatever", address="10.9.1.1").status_code == 429
    assert client.get("/accounts/login/").status_code == 200
    assert client.get("/accounts/signup/").status_code == 200
    # another address is not affected
    assert login(client, "whatever", address="10.9.1.2").status_code == 200
