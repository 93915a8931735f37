"""Token lookups are cached per process (games.api.auth), never past a deletion."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

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
