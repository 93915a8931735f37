"""Attacks of a stranger (round 3), replayed: each test failed before its fix."""

from __future__ import annotations

import pytest

from games.models import Event, IdempotentAnswer

pytestmark = pytest.mark.django_db

STOCK_TO_PILE_0 = {"type": "play", "from": "stock", "pile": 0}


@pytest.mark.parametrize("key", ["a\x00b", "\x00"])
def test_an_idempotency_key_with_nul_is_a_400_and_stores_nothing(ann, quick_skipbo, key):
    """PostgreSQL's text refuses NUL: the key was stored after the action and the whole
    request failed with a 500 (Django's own server and the test suite's live server pass
    the header on; gunicorn and uvicorn refuse it before the application)."""
    gid = quick_skipbo["id"]
    stored = Event.objects.filter(game_id=gid).count()
    response = ann.act(gid, STOCK_TO_PILE_0, HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400
    assert set(response.json()) == {"code", "detail"}
    assert response.json()["detail"].startswith("Idempotency-Key:")
    assert Event.objects.filter(game_id=gid).count() == stored
    assert not IdempotentAnswer.objects.exists()
