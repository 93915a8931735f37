"""``PABLO_FEED_WAITS`` holds across every way of waiting at once (attack on main).

One account opens 13 waits in parallel on one feed process: clean token polls (the fast
path), polls with an extra header (Django's path, parked after the view), ``HEAD``, the
``urn:uuid:`` spelling, and the account feed, both clean and through Django. Exactly
eight wait; the five others are refused at once (429), and a move answers the eight.
"""

from __future__ import annotations

import threading
import time

import pytest

from tests.feed.test_fast import Log, feed_path, primed
from tests.feed.test_held_waits import request
from tests.feed.test_live import call, look, started_game, users

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_eight_waits_in_all_across_the_fast_path_django_and_the_account_feed(pg_servers):
    base = pg_servers.feed(PABLO_FEED_DEBUG="1", PABLO_FEED_WAITS="8")
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    primed(base, game, token, Log(pg_servers))  # (the fast path knows the game, the token)
    head = call(base, "/api/me/events/", token)[2]["position"]
    game_wait = feed_path(game, game.version, 20)
    account_wait = f"/api/me/events/?after={head}&wait=20"
    other = {"X-Other": "1"}  # (a header the fast path does not take: Django's path)
    jobs = [
        *[("GET", game_wait, {})] * 3,
        *[("GET", game_wait, other)] * 2,
        ("HEAD", game_wait, {}),
        *[("GET", account_wait, {})] * 2,
        *[("GET", account_wait, other)] * 2,
        *[("GET", game_wait, {})] * 2,
        ("HEAD", f"/api/games/urn:uuid:{game.id}/events/?after={game.version}&wait=20", {}),
    ]
    statuses: list[int] = []
    lock = threading.Lock()

    def wait(method: str, path: str, headers: dict[str, str]) -> None:
        status = request(base, method, path, token, headers=headers)
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=wait, args=job, daemon=True) for job in jobs]
    for thread in threads:
        thread.start()
        time.sleep(0.05)
    time.sleep(3)
    with lock:
        assert sorted(statuses) == [429] * 5  # refused at once; eight wait
    look(game, ann)
    for thread in threads:
        thread.join(40)
    assert sorted(statuses) == [200] * 8 + [429] * 5
