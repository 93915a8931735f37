"""Every feed wait is held without a thread or refused (issue: fair shares, finding 1).

The attack: waits that the ASGI handler did not recognise as waits -- ``HEAD``
(Django answers it with the view's ``GET``) or the game id spelled another way
the store accepts (``urn:uuid:``, braces, no hyphens) -- each slept on one of the
feed process's executor threads, so 48 of them from 6 accounts took every thread
and the process stopped answering anything else.
"""

from __future__ import annotations

import asyncio
import http.client
import threading
import time
from urllib.parse import urlsplit

import pytest
from django.test import AsyncClient

from tests.feed.test_live import call, look, started_game, users
from tests.poll import wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def spellings(game_id: str) -> list[tuple[str, str]]:
    """(method, id as sent): the ways a client may ask to wait on one game."""
    return [
        ("HEAD", game_id),
        ("GET", f"urn:uuid:{game_id}"),
        ("GET", f"%7B{game_id}%7D"),
        ("HEAD", game_id.replace("-", "").upper()),
        ("HEAD", f"urn:uuid:{game_id}"),
        ("GET", "{" + game_id.replace("-", "") + "}"),
    ]


def request(base: str, method: str, path: str, token: str, timeout: float = 40,
            headers: dict[str, str] | None = None) -> int:  # fmt: skip
    """The status of one request with ``token`` (and ``headers``), its body read."""
    url = urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    try:
        conn.request(method, path, headers={"Authorization": f"Token {token}", **(headers or {})})
        answer = conn.getresponse()
        answer.read()
        return answer.status
    finally:
        conn.close()


def test_waits_in_every_spelling_hold_no_thread(pg_servers):
    base = pg_servers.feed(PABLO_ASGI_THREADS="4", PABLO_FEED_WAITS="8")
    accounts = users(7, prefix="w")
    (ann, _t), (ben, _t2) = accounts[:2]
    game = started_game([ann, ben])
    statuses: list[int] = []
    lock = threading.Lock()

    def wait(method: str, path: str, token: str) -> None:
        status = request(base, method, path, token)
        with lock:
            statuses.append(status)

    # 6 accounts x 8 waits (each account's PABLO_FEED_WAITS), a spelling per account
    threads = []
    for (_user, token), (method, game_id) in zip(
        accounts[1:], spellings(str(game.id)), strict=True
    ):
        path = f"/api/games/{game_id}/events/?after={game.version}&wait=30"
        for _ in range(8):
            threads.append(threading.Thread(target=wait, args=(method, path, token)))
    for thread in threads:
        thread.start()
    time.sleep(3)  # every wait has arrived and is parked
    assert statuses == []  # (none answered early: they do wait)

    seconds = []
    for _ in range(100):
        start = time.monotonic()
        assert call(base, "/api/rulesets/", timeout=5)[0] == 200
        seconds.append(time.monotonic() - start)
    p99 = sorted(seconds)[98]
    # Were the waits on threads, all 4 would be taken and a request would wait for a
    # wait's end (30 s: the call's 5 s timeout fails it). Served at once, it takes a few
    # ms -- but over 100 ms on two saturated cores (CI's parallel suite: 116 ms), so the
    # bound tells the two apart without timing a loaded machine.
    assert p99 < 1.0, f"GET /api/rulesets/ p99 {p99 * 1000:.0f} ms beside 48 waits"

    # a watching client is woken by a move within a second
    watcher = accounts[0][1]
    delivered: list[float] = []

    def watch() -> None:
        path = f"/api/games/{game.id}/events/?after={game.version}&wait=30"
        status, _head, body = call(base, path, watcher)
        assert status == 200 and body["events"]
        delivered.append(time.monotonic())

    watching = threading.Thread(target=watch)
    watching.start()
    time.sleep(1)
    moved = time.monotonic()
    look(game, ann)
    watching.join(10)
    assert delivered and delivered[0] - moved < 1.0
    for thread in threads:
        thread.join(10)
    assert wait_for(lambda: len(statuses) == 48, 5)
    assert statuses == [200] * 48


def test_a_wait_no_handler_holds_is_answered_at_once_under_asgi():
    """Whatever escapes the handler's recognition never sleeps on a thread: under
    ASGI the view answers it at once (as with ``wait=0``). Django's own ASGI handler
    (the test's ``AsyncClient``) holds nothing, like a request ours missed."""
    (ann, token), (ben, _t) = users(2, prefix="x")
    game = started_game([ann, ben])
    path = f"/api/games/{game.id}/events/?after={game.version}&wait=5"

    async def poll() -> tuple[int, float]:
        start = time.monotonic()
        answer = await AsyncClient().get(path, headers={"Authorization": f"Token {token}"})
        return answer.status_code, time.monotonic() - start

    status, seconds = asyncio.run(poll())
    assert status == 200 and seconds < 2
