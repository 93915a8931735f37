"""A private game's feed to a stranger on the fast path (found attacking main).

The fast path (games/feed/fast.py) answered "nothing new yet" to any known token once
the hub knew the game's version: a signed-in stranger polling a private game's events
with ``wait`` got ``200 {"events": [], "version": N}`` -- the game exists, and how far
it went -- where the API promises the unknown game's 404, byte for byte.
"""

from __future__ import annotations

import json
import uuid

import pytest

from games.models import Game
from games.services import games as game_services
from tests.feed.test_fast import Log, feed_path, raw_get
from tests.feed.test_live import started_game, users


def private_game(players: list) -> Game:
    game = game_services.game_create(
        user=players[0], ruleset="cabo", seats=len(players), turn_timeout=86400, options={},
        private=True,
    )  # fmt: skip
    for user in players[1:]:
        game_services.game_join(game_id=game.id, user=user, invite=game.invite)
    return Game.objects.get(pk=game.id)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_stranger_polling_a_private_game_gets_the_unknown_games_404(pg_servers):
    base = pg_servers.feed(PABLO_FEED_DEBUG="1", PABLO_ASGI_THREADS="2", PABLO_FEED_AUDIT="600")
    log = Log(pg_servers)
    (ann, ann_token), (ben, _b), (eve, eve_token), (fay, _f) = users(4)
    secret = private_game([ann, ben])
    public = started_game([eve, fay])
    # eve's token becomes known to the process (a Django answer of her own game's feed)
    assert raw_get(base, feed_path(public, public.version, 0.5), eve_token)[0] == 200
    # a player polls the private game: the hub learns its version, the answer's headers
    assert raw_get(base, feed_path(secret, secret.version, 0.5), ann_token)[0] == 200
    assert raw_get(base, feed_path(secret, secret.version, 0.5), ann_token)[0] == 200
    assert log.count("FEEDDBG fast answered") >= 1
    unknown = Game(id=uuid.uuid4(), version=secret.version)
    _s, _h, unknown_body = raw_get(base, feed_path(unknown, secret.version, 0.5), eve_token)
    for after in (secret.version, secret.version + 5):
        status, _headers, body = raw_get(base, feed_path(secret, after, 0.5), eve_token)
        assert status == 404, (status, json.loads(body))
        assert body == unknown_body
    # the account feed's poll by the stranger tells nothing of it either
    status, _headers, body = raw_get(base, "/api/me/events/?after=0&wait=0.5", eve_token)
    assert status == 200 and str(secret.id) not in body.decode()
