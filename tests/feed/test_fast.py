"""The feed's fast path (games/feed/fast.py): "nothing new yet" answered before Django.

The feed process runs with ``PABLO_FEED_DEBUG=1``: it prints a ``FEEDDBG django``
line for every request Django handles and ``FEEDDBG fast answered`` /
``FEEDDBG fast woke`` for the fast path's answers and wake-ups, which these tests
count in its log.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from typing import Any
from urllib.parse import urlparse

import pytest
import redis as redis_lib
from django.contrib.auth import get_user_model

from games.feed import fast
from games.selectors import games as game_selectors
from tests.feed.test_live import (
    Waiters,
    _hang_up,
    call,
    feed_connections,
    look,
    started_game,
    users,
)
from tests.poll import wait_for

User = get_user_model()


def raw_get(base: str, path: str, token: str = "", headers: dict[str, str] | None = None
            ) -> tuple[int, list[tuple[str, str]], bytes]:  # fmt: skip
    url = urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=40)
    try:
        sent = {**({"Authorization": f"Token {token}"} if token else {}), **(headers or {})}
        conn.request("GET", path, headers=sent)
        answer = conn.getresponse()
        return answer.status, answer.getheaders(), answer.read()
    finally:
        conn.close()


class Log:
    def __init__(self, servers: Any, index: int = 0) -> None:
        self.path = servers.procs[index][1]

    def count(self, text: str) -> int:
        return self.path.read_text(errors="replace").count(text)

    def django_feed(self) -> int:
        return self.count("FEEDDBG django GET /api/games/")


def feed_path(game: Any, after: int, wait: float) -> str:
    return f"/api/games/{game.id}/events/?after={after}&wait={wait}"


def primed(base: str, game: Any, token: str, log: Log) -> None:
    """One poll through Django (the hub learns the version, the process the answer's
    headers, the token), then one on the fast path."""
    before = log.count("FEEDDBG fast answered")
    assert raw_get(base, feed_path(game, game.version, 0.5), token)[0] == 200
    assert raw_get(base, feed_path(game, game.version, 0.5), token)[0] == 200
    assert log.count("FEEDDBG fast answered") == before + 1, "the second poll took the fast path"


# --------------------------------------------------------------------------- unit


@pytest.mark.parametrize(
    ("query", "headers", "taken"),
    [
        ("after=3&wait=30", [], True),
        ("after=3&wait=0.5", [(b"accept", b"application/json")], True),
        ("after=3&wait=0", [], False),
        ("after=3&wait=31", [], False),
        ("after=3&wait=nan", [], False),
        ("after=-1&wait=5", [], False),
        ("after=3&wait=5&format=json", [], False),
        ("after=3&after=4&wait=5", [], False),
        ("wait=5", [], False),
        ("after=3&wait=5", [(b"cookie", b"sessionid=x")], False),
        ("after=3&wait=5", [(b"accept", b"text/html")], False),
        ("after=3&wait=5", [(b"x-custom", b"1")], False),
    ],
)
def test_which_requests_may_take_the_fast_path(query, headers, taken):
    scope = {
        "type": "http",
        "method": "GET",
        "scheme": "http",
        "path": "/api/games/0b6f5c1e-1111-4222-8333-944455556666/events/",
        "query_string": query.encode(),
        "headers": [(b"host", b"x"), (b"authorization", b"Token abc123"), *headers],
    }
    found = fast.shape(scope)
    assert (found is not None) is taken
    if taken:
        assert found.token == "abc123" and found.after == 3


def test_the_fast_answer_renders_as_drf_does():
    from rest_framework.renderers import JSONRenderer

    assert fast.render(17) == JSONRenderer().render({"events": [], "version": 17})


# --------------------------------------------------------------------------- live


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_an_idle_repoll_is_answered_without_django_and_without_a_query(pg_servers):
    base = pg_servers.feed(PABLO_FEED_DEBUG="1", PABLO_ASGI_THREADS="2", PABLO_FEED_AUDIT="600")
    log = Log(pg_servers)
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    path = feed_path(game, game.version, 1)
    # the first wait goes through Django: it reads the game, answers when the wait runs out
    status, django_headers, django_body = raw_get(base, path, token)
    assert status == 200 and log.django_feed() == 1
    count, changed = feed_connections("feed")
    # the next ones: not a Django request, not a query
    for _ in range(3):
        status, headers, body = raw_get(base, path, token)
        assert status == 200
        # the very same answer, byte for byte, header for header (but the date)
        assert body == django_body
        assert [h for h in headers if h[0].lower() != "date"] == [
            h for h in django_headers if h[0].lower() != "date"
        ]
    assert log.django_feed() == 1
    assert log.count("FEEDDBG fast answered") == 3
    assert feed_connections("feed") == (count, changed)
    assert json.loads(body) == {"events": [], "version": game.version}
    names = {h[0].lower() for h in headers}
    for name in ("content-type", "vary", "allow", "x-frame-options", "content-length",
                 "x-content-type-options", "referrer-policy", "cross-origin-opener-policy",
                 "content-security-policy", "permissions-policy"):  # fmt: skip
        assert name in names, name
    # news: Django answers it at once, with the events
    game = look(game, ann)
    status, _h, body = raw_get(base, path, token)
    assert status == 200 and log.django_feed() == 2
    assert json.loads(body) == game_selectors.event_feed(
        game=game, user=ann, after=game.version - 1
    )
    # a session's poll (a cookie) and an unknown token go to Django, as before
    path = feed_path(game, game.version, 0.5)
    assert raw_get(base, path, token, {"Cookie": "sessionid=nope"})[0] == 200
    assert raw_get(base, path, "f" * 40)[0] == 401
    assert raw_get(base, path)[0] == 401
    assert log.django_feed() == 5


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_rotated_token_is_refused_at_once_after_fast_answers(pg_servers):
    base = pg_servers.feed(PABLO_FEED_DEBUG="1")
    web = pg_servers.web(workers=1, threads=2)  # another process rotates it
    log = Log(pg_servers)
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    primed(base, game, token, log)
    status, _h, body = call(web, "/api/auth/token/rotate/", token, "POST", {})
    assert status == 200
    new = body["token"]
    path = feed_path(game, game.version, 0.5)
    status, _h, body = raw_get(base, path, token)
    assert status == 401, body
    assert raw_get(base, path, new)[0] == 200


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_deactivated_user_is_refused_at_once_after_fast_answers(pg_servers, settings):
    base = pg_servers.feed(PABLO_FEED_DEBUG="1")
    log = Log(pg_servers)
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    primed(base, game, token, log)
    # this process deactivates the user and writes its mark in the servers' cache
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": pg_servers.env["CELERY_BROKER_URL"],
            "KEY_PREFIX": "pablo",
        },
    }
    ann.is_active = False
    ann.save()
    status, _h, body = raw_get(base, feed_path(game, game.version, 0.5), token)
    assert status == 401, body


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_ninth_wait_is_refused_when_all_would_take_the_fast_path(pg_servers):
    base = pg_servers.feed(PABLO_FEED_DEBUG="1")
    log = Log(pg_servers)
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    primed(base, game, token, log)
    waiters = Waiters(base, [(feed_path(game, game.version, 20), token)] * 9)
    assert wait_for(lambda: len(waiters.results) >= 1, 10)
    time.sleep(0.5)
    assert [(r[0], r[1]["code"]) for r in waiters.results] == [(429, "throttled")]
    assert log.django_feed() == 2  # the primer's, the refusal's: the eight wait on the loop
    woke = time.monotonic()
    game = look(game, ann)
    results = waiters.join()
    assert sorted(r[0] for r in results) == [200] * 8 + [429]
    print(f"eight fast waiters answered {max(r[3] for r in results) - woke:.3f} s after")
    assert log.count("FEEDDBG fast woke") == 8
    for status, body, *_ in results:
        if status == 200:
            assert body == game_selectors.event_feed(game=game, user=ann, after=game.version - 1)
    # every slot came back
    client = redis_lib.Redis.from_url(pg_servers.env["CELERY_BROKER_URL"])
    assert wait_for(lambda: int(client.get(f"pablo-throttle:1:feed-waits:{ann.pk}")) == 0, 5)
    client.close()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_an_append_elsewhere_wakes_a_fast_waiter_at_once(pg_servers):
    base = pg_servers.feed(PABLO_FEED_DEBUG="1")
    log = Log(pg_servers)
    (ann, token), (ben, ben_token) = users(2)
    game = started_game([ann, ben])
    primed(base, game, token, log)
    primed(base, game, ben_token, log)
    before = game.version
    waiters = Waiters(base, [(feed_path(game, before, 20), t) for t in (token, ben_token)])
    time.sleep(1.0)
    assert not waiters.results
    appended = time.monotonic()
    game = look(game, ann)
    results = waiters.join()
    delay = max(r[3] for r in results) - appended
    print(f"fast waiters woken in {delay * 1000:.0f} ms")
    assert delay < 0.5
    assert log.count("FEEDDBG fast woke") == 2
    bodies = {r[4]: r[1] for r in results}
    assert bodies[token] == game_selectors.event_feed(game=game, user=ann, after=before)
    assert bodies[ben_token] == game_selectors.event_feed(game=game, user=ben, after=before)
    assert bodies[token] != bodies[ben_token]  # redacted for each, by the usual selectors


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_losing_the_subscription_forgets_the_known_version(pg_servers, settings):
    from tests.faults.servers import Redis

    redis = Redis()
    try:
        settings.PABLO_FEED_REDIS_URL = redis.url  # this process publishes there
        base = pg_servers.feed(
            PABLO_FEED_DEBUG="1", PABLO_FEED_REDIS_URL=redis.url, PABLO_FEED_RECHECK="0.3"
        )
        log = Log(pg_servers)
        (ann, token), (ben, _t) = users(2)
        game = started_game([ann, ben])
        primed(base, game, token, log)
        redis.stop()
        assert wait_for(lambda: "subscription lost" in log.path.read_text(), 10, 0.1)
        before = game.version
        game = look(game, ann)  # unheard: the fan-out is away
        django = log.django_feed()
        start = time.monotonic()
        status, _h, body = raw_get(base, feed_path(game, before, 10), token)
        assert status == 200 and time.monotonic() - start < 2.0
        assert [e["seq"] for e in json.loads(body)["events"]] == [before + 1]
        assert log.django_feed() == django + 1  # not answered "nothing new" from memory
        # nothing new while Redis is away: Django (and the re-check) every time
        assert raw_get(base, feed_path(game, game.version, 0.5), token)[0] == 200
        assert log.django_feed() == django + 2
        redis.start()
        assert wait_for(lambda: "subscription is back" in log.path.read_text(), 20, 0.2)
        # learnt again with one query (asgi._learn_game), not a Django request
        django, answered = log.django_feed(), log.count("FEEDDBG fast answered")
        assert raw_get(base, feed_path(game, game.version, 0.5), token)[0] == 200
        assert log.django_feed() == django
        assert log.count("FEEDDBG fast answered") == answered + 1
    finally:
        redis.close()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_audit_catches_a_message_lost_by_its_publisher(pg_servers, settings):
    base = pg_servers.feed(PABLO_FEED_DEBUG="1", PABLO_FEED_AUDIT="1")
    log = Log(pg_servers)
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    primed(base, game, token, log)
    before = game.version
    waiters = Waiters(base, [(feed_path(game, before, 20), token)])
    time.sleep(0.5)
    settings.PABLO_FEED_REDIS_URL = "redis://127.0.0.1:9/0"  # this append is never published
    appended = time.monotonic()
    game = look(game, ann)
    results = waiters.join()
    assert [r[0] for r in results] == [200]
    assert [e["seq"] for e in results[0][1]["events"]] == list(range(before + 1, game.version + 1))
    assert results[0][3] - appended < 2.5  # the audit's period, not the wait's 20 s
    assert log.count("FEEDDBG fast woke") == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_clients_gone_from_fast_waits_give_their_slots_back(pg_servers):
    base = pg_servers.feed(PABLO_FEED_DEBUG="1")
    log = Log(pg_servers)
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    primed(base, game, token, log)
    django = log.django_feed()
    path = feed_path(game, game.version, 30)
    hung_up: list[str] = []
    threads = [
        threading.Thread(target=_hang_up, args=(base, path, token, hung_up), daemon=True)
        for _ in range(8)  # the limit: eight waits on the fast path, whose clients leave
    ]
    for thread in threads:
        thread.start()
    assert wait_for(lambda: len(hung_up) == 8, 20)
    assert hung_up == ["gone"] * 8
    assert log.django_feed() == django  # they were all parked on the fast path
    client = redis_lib.Redis.from_url(pg_servers.env["CELERY_BROKER_URL"])
    key = f"pablo-throttle:1:feed-waits:{ann.pk}"
    assert wait_for(lambda: int(client.get(key)) == 0, 5), client.get(key)
    client.close()
    waiters = Waiters(base, [(path, token)])  # a ninth is held, not refused
    time.sleep(1.0)
    assert not waiters.results
    look(game, ann)
    assert [r[0] for r in waiters.join()] == [200]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_stopping_feed_process_answers_its_waits_at_once(pg_servers):
    """SIGTERM: every wait held (on the fast path, or parked after Django's view) is
    answered at once with nothing new, on a closed connection, its slot given back;
    the process stops in a moment instead of holding them for their whole wait (the
    test's uvicorn has no graceful-shutdown timeout: it would wait 30 s)."""
    import signal

    base = pg_servers.feed(PABLO_FEED_DEBUG="1", PABLO_FEED_AUDIT="600")
    proc = pg_servers.procs[-1][0]
    log = Log(pg_servers, len(pg_servers.procs) - 1)
    (ann, ann_token), (ben, ben_token) = users(2)
    game = started_game([ann, ben])
    primed(base, game, ann_token, log)  # ann's next wait is the fast path's
    path = feed_path(game, game.version, 30)
    answers: list[tuple[str, int, dict[str, str], bytes, float]] = []

    def wait(name: str, token: str) -> None:
        status, headers, body = raw_get(base, path, token)
        answers.append((name, status, {k.lower(): v for k, v in headers}, body, time.monotonic()))

    threads = [
        threading.Thread(target=wait, args=a) for a in (("ann", ann_token), ("ben", ben_token))
    ]
    for thread in threads:
        thread.start()
    # ann parked on the fast path; ben's (a token this process does not know) went
    # through Django's view, then parked
    assert wait_for(lambda: log.django_feed() == 2, 10)
    time.sleep(1.0)
    assert answers == []
    stopped = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    for thread in threads:
        thread.join(10)
    assert sorted(a[0] for a in answers) == ["ann", "ben"]
    for _name, status, headers, body, at in answers:
        assert status == 200 and at - stopped < 3
        assert json.loads(body) == {"events": [], "version": game.version}
        assert headers.get("connection") == "close"
    proc.wait(10)  # (stopped: else TimeoutExpired)
    client = redis_lib.Redis.from_url(pg_servers.env["CELERY_BROKER_URL"])
    for user in (ann, ben):
        assert int(client.get(f"pablo-throttle:1:feed-waits:{user.pk}") or 0) == 0
    client.close()


def test_one_request_of_an_unknown_shape_goes_to_django_and_the_others_wait_for_it():
    import asyncio

    from django.http import HttpResponse

    key = ("test-shape", "http", "", True, b"x", None, None, None, None)

    async def run() -> None:
        first = fast.Shape("one", 3, 5.0, key)
        second = fast.Shape("two", 3, 5.0, key)
        third = fast.Shape("three", 3, 5.0, key)
        await fast.learn_headers(first)
        assert first.teaches  # it goes through Django
        waiting = [asyncio.ensure_future(fast.learn_headers(s)) for s in (second, third)]
        await asyncio.sleep(0.05)
        assert not any(w.done() for w in waiting)
        fast.remember_headers(first, HttpResponse(b"{}", content_type="application/json"))
        await asyncio.wait_for(asyncio.gather(*waiting), 1)
        assert fast.knows(second) and not second.teaches and not third.teaches
        fast.taught(first)  # (its request ends)
        # a teacher whose answer taught nothing: the next one goes to teach
        other = ("test-shape-2", *key[1:])
        a, b = fast.Shape("a", 3, 5.0, other), fast.Shape("b", 3, 5.0, other)
        await fast.learn_headers(a)
        follower = asyncio.ensure_future(fast.learn_headers(b))
        await asyncio.sleep(0.05)
        fast.taught(a)  # (a 401, say: no headers learnt)
        await asyncio.wait_for(follower, 1)
        assert b.teaches and not fast.knows(b)
        fast.taught(b)

    try:
        asyncio.run(run())
    finally:
        fast._headers.pop(key, None)
