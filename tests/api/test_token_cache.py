"""Token lookups are cached per process (games.tokens), never past a deletion."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import tokens
from tests.factories import UserFactory


@pytest.mark.django_db
def test_a_deleted_token_is_refused_at_once_and_a_deactivated_user_too():
    user = UserFactory(username="cached", password="x")
    token = Token.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/games/").status_code == 200
    assert client.get("/api/games/").status_code == 200  # from the cache
    user.is_active = False
    user.save()
    assert client.get("/api/games/").status_code == 401
    user.is_active = True
    user.save()
    assert client.get("/api/games/").status_code == 200
    token.delete()
    assert client.get("/api/games/").status_code == 401


@pytest.mark.django_db
def test_a_rotation_whose_revocation_cannot_be_shared_changes_nothing(monkeypatch):
    """Other processes (the feed's fast path) trust a token for minutes: a rotation that
    cannot tell them the old token is dead is refused (503, retry) and undone."""
    user = UserFactory(username="rotating", password="x")
    token = Token.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")

    def away(*args, **kwargs):
        raise ConnectionError("the shared cache is away")

    monkeypatch.setattr(caches["default"], "set", away)
    answer = client.post("/api/auth/token/rotate/")
    assert answer.status_code == 503
    assert answer.json()["code"] == "unavailable"
    assert answer["Retry-After"]
    assert list(Token.objects.filter(user=user).values_list("key", flat=True)) == [token.key]
    monkeypatch.undo()
    assert client.get("/api/games/").status_code == 200  # the old token still works
    fresh = client.post("/api/auth/token/rotate/")
    assert fresh.status_code == 200
    assert client.get("/api/games/").status_code == 401


@pytest.mark.django_db
def test_a_user_saved_by_another_process_is_seen_at_once(monkeypatch):
    """The attack: ``GET /api/me/notifications/`` answered the old (empty) address right
    after a confirmation another process saved. Here the save happens "elsewhere": this
    process's own memory is not told (``forget`` does nothing), only the shared cache."""
    user = UserFactory(username="confirming", password="x")
    token = Token.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/me/notifications/").json()["email"] == ""  # now remembered
    elsewhere = get_user_model().objects.get(pk=user.pk)
    monkeypatch.setattr(tokens, "forget", lambda **kwargs: None)
    elsewhere.email = "confirmed@example.org"
    elsewhere.save(update_fields=["email"])
    assert client.get("/api/me/notifications/").json()["email"] == "confirmed@example.org"
