"""What the notification tests share: the VAPID pair the push stand-in checks against,
an API client for a user, a device subscribed through the API and a private two-seat
Skip-Bo table (the fixtures are in conftest.py)."""

from __future__ import annotations

from rest_framework.test import APIClient

from games.notifications import push
from games.services import games as game_services
from tests.fixtures import SKIPBO_QUICK_OPTIONS
from tests.pushservice import PushService

#: The server's VAPID pair in these tests (the ``vapid`` fixture installs it).
PAIR = push.make_keys()


def client_for(u) -> APIClient:
    c = APIClient()
    c.force_authenticate(u)
    return c


def subscribe(u, service: PushService):
    """A new device of ``u`` at ``service``, subscribed through ``POST /api/me/push/``."""
    device = service.device()
    answer = client_for(u).post("/api/me/push/", device.body(), format="json")
    assert answer.status_code == 201, answer.content
    return device


def private_game(owner, *, decks=None, options=SKIPBO_QUICK_OPTIONS):
    """A private two-seat Skip-Bo game of ``owner``'s (an hour a turn), waiting for a
    second player (``game.invite``)."""
    return game_services.game_create(
        user=owner,
        ruleset="skipbo",
        seats=2,
        turn_timeout=3600,
        private=True,
        options=options,
        decks=decks,
    )
