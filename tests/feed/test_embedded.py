"""The live feed on the embedded default: SQLite, no Redis, the file cache (``make run``).

Two ``uvicorn pablo.asgi:application`` processes share one SQLite file, as
``make run``'s workers do: a wait on one is woken at once by an action made in
the same process, and by the shared re-check (one query per process per
``PABLO_FEED_RECHECK``) for an action made in the other.
"""

from __future__ import annotations

import time

import pytest

from tests.feed.test_live import Waiters, call
from tests.processes import Processes


@pytest.fixture
def embedded(processes: Processes) -> Processes:
    processes.env.update(
        DATABASE_URL="",
        CELERY_BROKER_URL="",
        PABLO_FEED_REDIS_URL="",
        PABLO_CACHE_URL="",
        DJANGO_LOG_LEVEL="WARNING",
        PABLO_TEST_KEEP_THROTTLE_CACHE="1",
    )
    processes.manage("migrate", "-v0")
    return processes


def test_the_embedded_default_wakes_waiters_in_and_across_processes(embedded):
    one = embedded.feed("one", PABLO_FEED_RECHECK="0.5")
    two = embedded.feed("two", PABLO_FEED_RECHECK="0.5")
    tokens = []
    for name in ("ann", "ben"):
        status, _h, body = call(one, "/api/auth/register/", method="POST",
                                body={"username": name, "password": "secret12"})  # fmt: skip
        assert status == 201, body
        tokens.append(body["token"])
    body = {"ruleset": "cabo", "seats": 2, "options": {"start_seat": 0}}
    status, _h, game = call(one, "/api/games/", tokens[0], "POST", body)
    assert status == 201, game
    assert call(one, f"/api/games/{game['id']}/join/", tokens[1], "POST", {})[0] == 200
    feed = f"/api/games/{game['id']}/events/"
    version = call(one, f"{feed}?after=0", tokens[0])[2]["version"]
    for acting, (base, token) in enumerate([(one, tokens[0]), (two, tokens[1])]):
        waiters = Waiters(one, [(f"{feed}?after={version}&wait=20", tokens[1 - acting])] * 3)
        time.sleep(1.0)
        assert not waiters.results
        appended = time.monotonic()
        status, _h, answer = call(base, f"/api/games/{game['id']}/actions/", token, "POST",
                                  {"type": "look", "positions": [0, 1]})  # fmt: skip
        assert status == 201, answer
        results = waiters.join()
        assert [r[0] for r in results] == [200] * 3
        assert all(r[1]["version"] == answer["version"] for r in results)
        # the same process: at once; the other one: within the re-check's period
        assert max(r[3] for r in results) - appended < (1.0 if acting == 0 else 2.0)
        version = answer["version"]
