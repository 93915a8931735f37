"""The feeds' 429 when every wait slot is taken says how many (found attacking main:
the account feed's answer read "You are waiting on %(n)s feeds at once already")."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.feed import waiting

User = get_user_model()


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/me/events/?after=0&wait=1"])
def test_the_refused_waits_detail_names_the_limit(path, settings, monkeypatch):
    settings.PABLO_FEED_WAITS = 3
    monkeypatch.setattr(waiting.limits, "acquire", lambda user: None)
    user = User.objects.create_user(username="ann", password="secret12")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    answer = client.get(path)
    assert answer.status_code == 429 and answer["Retry-After"]
    detail = answer.json()["detail"]
    assert "%(" not in detail and "{n}" not in detail
    assert "waiting on 3 feeds" in detail
