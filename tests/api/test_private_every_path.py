"""Every path of a private game answers a non-player the unknown game's 404, byte for byte.

Attack (the "attack" helper, on main): a signed-in stranger, a signed-out visitor, a
web session and an API token each ask every API and web path of a private game --
reads, writes, HEAD, OPTIONS, a wrong or cut invite, the table's own forms and the
replay's analysis -- and the same paths of an id that does not exist. Status, body and
headers must be the same (the id itself, CSP nonces and CSRF tokens aside: they differ
between any two answers); the lobby, history and player pages must not name the game.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client
from rest_framework.test import APIClient

from tests.api.conftest import create

pytestmark = pytest.mark.django_db

VARYING = {"date", "x-request-id", "set-cookie"}
API_PATHS = [
    ("get", "/api/games/{}/"),
    ("head", "/api/games/{}/"),
    ("options", "/api/games/{}/"),
    ("patch", "/api/games/{}/"),
    ("put", "/api/games/{}/"),
    ("delete", "/api/games/{}/"),
    ("get", "/api/games/{}/events/"),
    ("get", "/api/games/{}/events/?after=0&wait=0.1"),
    ("get", "/api/games/{}/replay/"),
    ("get", "/api/games/{}/analysis/"),
    ("post", "/api/games/{}/analysis/"),
    ("post", "/api/games/{}/actions/"),
    ("post", "/api/games/{}/join/"),
    ("post", "/api/games/{}/back/"),
    ("post", "/api/games/{}/rematch/"),
    ("post", "/api/games/{}/cancel/"),
    ("get", "/api/games/{}/?invite=wrong"),
    ("get", "/api/games/{}/events/?invite=wrong"),
    ("get", "/api/games/{}/replay/?invite=wrong"),
]
WEB_PATHS = [
    ("get", "/play/{}/"),
    ("head", "/play/{}/"),
    ("options", "/play/{}/"),
    ("get", "/play/{}/?invite=wrong"),
    ("post", "/play/{}/act/"),
    ("post", "/play/{}/join/"),
    ("post", "/play/{}/come-back/"),
    ("post", "/play/{}/cancel/"),
    ("post", "/play/{}/rematch/"),
    ("post", "/play/{}/close-reveal/"),
    ("get", "/replays/{}/"),
    ("get", "/replays/{}/?invite=wrong"),
    ("get", "/replays/{}/analyse/"),
    ("post", "/replays/{}/analyse/"),
]


def answer(client: Any, method: str, path: str, game_id: str) -> tuple[Any, ...]:
    caches["throttle"].clear()  # (each answer with the same RateLimit-Remaining)
    response = getattr(client, method)(path.format(game_id))
    body = response.content.replace(game_id.encode(), b"<id>")
    body = re.sub(rb'nonce="[^"]*"', b'nonce=""', body)
    body = re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", body)
    headers = {
        name.lower(): value.replace(game_id, "<id>")
        for name, value in response.items()
        if name.lower() not in VARYING
    }
    return response.status_code, body, headers


def test_every_path_of_a_private_game_is_the_unknown_games_404(ann, bob, cid):
    game = create(ann, ruleset="pablo", seats=3, private=True)
    secret = game["id"]
    invite = ann.get(f"/api/games/{secret}/").json()["invite"]
    assert (
        bob.post(f"/api/games/{secret}/join/", {"invite": invite}, format="json").status_code == 200
    )
    unknown = str(uuid.uuid4())
    cut = [
        ("get", "/api/games/{}/?invite=" + invite[:-1]),
        ("get", "/play/{}/?invite=" + invite[:-1]),
    ]
    session = Client()
    session.force_login(cid.user)
    for client, paths in (
        (cid, API_PATHS + cut[:1]),
        (APIClient(), API_PATHS + cut[:1]),
        (session, WEB_PATHS + API_PATHS + cut),
        (Client(), WEB_PATHS + cut[1:]),
    ):
        for method, path in paths:
            found = answer(client, method, path, secret)
            refused = found[0] >= 300 or method == "options"
            assert refused, (method, path, found[:2])
            assert found == answer(client, method, path, unknown), (method, path)
    for path in ("/", "/replays/", "/history/", "/players/ann/", "/players/bob/"):
        assert secret not in session.get(path).content.decode()
    for path in ("/api/games/", "/api/players/ann/", "/api/players/bob/", "/api/me/events/"):
        assert secret not in cid.get(path).content.decode()
