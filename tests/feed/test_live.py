"""The live feed on its asynchronous path (games/feed/), against real processes.

``uvicorn pablo.asgi:application`` runs as a process of its own on the test
database and the test Redis database; appends come from this test process, from
a Celery worker, or from another web process -- never from the process that waits.
"""

from __future__ import annotations

import json
import random
import statistics
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
import redis as redis_lib
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.authtoken.models import Token

from games.models import Game
from games.selectors import games as game_selectors
from games.services import games as game_services
from tests.poll import wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

User = get_user_model()


def call(base: str, path: str, token: str = "", method: str = "GET", body: Any = None,
         timeout: float = 40) -> tuple[int, dict[str, str], Any]:  # fmt: skip
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            head = {k.lower(): v for k, v in answer.headers.items()}
            return answer.status, head, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        head = {k.lower(): v for k, v in error.headers.items()}
        return error.code, head, json.loads(error.read() or b"null")


def users(n: int, prefix: str = "u") -> list[tuple[Any, str]]:
    out = []
    for i in range(n):
        user = User.objects.create_user(username=f"{prefix}{i}", password="secret12")
        out.append((user, Token.objects.create(user=user).key))
    return out


def started_game(players: list[Any]) -> Game:
    game = game_services.game_create(
        user=players[0], ruleset="cabo", seats=len(players), turn_timeout=86400, options={}
    )
    for user in players[1:]:
        game_services.game_join(game_id=game.id, user=user)
    return Game.objects.get(pk=game.id)


def look(game: Game, user: Any) -> Game:
    game_services.game_act(
        game_id=game.id, user=user, command={"type": "look", "positions": [0, 1]}
    )
    return Game.objects.get(pk=game.id)


def feed_connections(name: str) -> tuple[int, Any]:
    """(connections of the named process to the test database, latest state change)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), max(state_change) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = %s",
            [f"pablo-test-{name}"],
        )
        return cursor.fetchone()


class Waiters:
    """Clients waiting on the feed in threads; each records (status, body, seconds, done
    at, token)."""

    def __init__(self, base: str, jobs: list[tuple[str, str]]) -> None:
        self.results: list[tuple[int, Any, float, float, str]] = []
        self.lock = threading.Lock()
        self.threads = [
            threading.Thread(target=self._one, args=(base, path, token), daemon=True)
            for path, token in jobs
        ]
        for thread in self.threads:
            thread.start()

    def _one(self, base: str, path: str, token: str) -> None:
        start = time.monotonic()
        status, _head, body = call(base, path, token)
        done = time.monotonic()
        with self.lock:
            self.results.append((status, body, done - start, done, token))

    def join(self, timeout: float = 40) -> list[tuple[int, Any, float, float, str]]:
        for thread in self.threads:
            thread.join(timeout)
        return self.results


def test_waiters_hold_no_connection_and_an_append_elsewhere_wakes_them(pg_servers):
    base = pg_servers.feed(PABLO_ASGI_THREADS="3")
    (ann, ann_token), (ben, ben_token), *others = users(6)
    game = started_game([ann, ben])
    after = game.version
    # 40 clients wait (8 per user: the limit), players and non-players alike
    tokens = [ann_token, ben_token] + [t for _, t in others[:3]]
    jobs = [(f"/api/games/{game.id}/events/?after={after}&wait=25", t) for t in tokens] * 8
    waiters = Waiters(base, jobs)
    # every wait holds its slot (the counters the servers share in Redis), and the last
    # ones are past their first reads: only then is the quiet measured
    slots = redis_lib.Redis.from_url(pg_servers.env["CELERY_BROKER_URL"])
    keys = [f"pablo-throttle:1:feed-waits:{u.pk}" for u in [ann, ben, *[u for u, _ in others[:3]]]]
    wait_for(lambda: sum(int(n or 0) for n in slots.mget(keys)) == len(jobs), 30)
    slots.close()
    time.sleep(0.5)
    count, changed = feed_connections("feed")
    time.sleep(2.0)
    count2, changed2 = feed_connections("feed")
    assert not waiters.results, "nobody is answered before something happens"
    # at most its executor threads' connections, whatever the number of waiters,
    # and none of them ran a query while they waited
    assert count <= 3 and count2 <= 3, (count, count2)
    assert changed2 == changed
    appended = time.monotonic()
    game = look(game, ann)
    results = waiters.join()
    assert len(results) == 40
    assert {status for status, *_ in results} == {200}
    delays = sorted(r[3] - appended for r in results)
    print(f"40 waiters woken: p50 {statistics.median(delays) * 1000:.0f} ms, "
          f"max {delays[-1] * 1000:.0f} ms")  # fmt: skip
    assert delays[-1] < 2.0
    # each got what the sync feed gives that user: the same events, redacted the same
    by_token = {t: u for u, t in [(ann, ann_token), (ben, ben_token), *others]}
    for _status, body, _s, _d, token in results:
        assert body == game_selectors.event_feed(game=game, user=by_token[token], after=after)
        assert [e["seq"] for e in body["events"]] == list(range(after + 1, game.version + 1))
    bodies = {t: b for _s, b, _x, _d, t in results}
    assert bodies[ann_token] != bodies[others[0][1]]  # ann saw her cards; a stranger does not


def act_any(game: Game, players: list[Any], rng: random.Random) -> bool:
    """One legal action of some seat (as a player would choose), False if none."""
    game = Game.objects.get(pk=game.id)
    if game.status != "active":
        return False
    options = []
    for user in players:
        state = game_selectors.game_data(game=game, user=user)["state"] or {}
        options += [(user, a) for a in state.get("legal_actions") or []]
    if not options:
        return False
    user, action = rng.choice(options)
    body = {k: v for k, v in action.items() if k != "choices"}
    for name, values in (action.get("choices") or {}).items():
        body[name] = rng.choice(list(values))
    try:
        game_services.game_act(game_id=game.id, user=user, command=body)
    except Exception as exc:  # a refusal (a stale throw) is skipped; anything else is not
        if not hasattr(exc, "code"):
            raise
    return True


def test_delivery_is_gapless(pg_servers):
    base = pg_servers.feed()
    (ann, token), (ben, _t) = users(2)
    rng = random.Random(7)
    games = [started_game([ann, ben]) for _ in range(3)]
    follow = games[0]
    seen: list[int] = []
    stop = threading.Event()

    def follower() -> None:
        after = 0
        while not stop.is_set() or after < Game.objects.get(pk=follow.id).version:
            status, _h, body = call(
                base, f"/api/games/{follow.id}/events/?after={after}&wait=5", token
            )
            assert status == 200
            seen.extend(e["seq"] for e in body["events"])
            after = body["version"]
        connection.close()

    thread = threading.Thread(target=follower)
    thread.start()
    # actions as fast as they come, in the followed game and the others
    for _ in range(40):
        for game in games:
            act_any(game, [ann, ben], rng)
    stop.set()
    thread.join(30)
    final = Game.objects.get(pk=follow.id).version
    assert final > 30
    assert seen == list(range(1, final + 1))


def test_at_most_feed_waits_per_user_across_processes_and_paths(pg_servers):
    feed = pg_servers.feed(workers=2)
    web = pg_servers.web(workers=2, threads=8)
    (ann, token), (ben, ben_token) = users(2)
    game = started_game([ann, ben])
    path = f"/api/games/{game.id}/events/?after={game.version}&wait=20"
    # 6 waits on the feed processes, 6 on gunicorn's threads, at once: 8 are held
    waiters = Waiters(feed, [(path, token)] * 6)
    waiters2 = Waiters(web, [(path, token)] * 6)
    assert wait_for(lambda: len(waiters.results) + len(waiters2.results) >= 4, 15)
    time.sleep(0.5)
    refused = waiters.results + waiters2.results
    assert len(refused) == 4, refused
    for status, body, seconds, _d, _t in refused:
        assert status == 429 and body["code"] == "throttled"
        assert seconds < 15  # refused, not held for the 20 s wait
    # others are served meanwhile, quickly
    start = time.monotonic()
    assert call(feed, "/api/rulesets/")[0] == 200
    assert call(web, "/api/rulesets/")[0] == 200
    assert call(feed, path.replace("wait=20", "wait=0"), token)[0] == 200  # not a wait
    assert call(feed, path.replace("wait=20", "wait=1"), ben_token)[0] == 200  # another user
    assert time.monotonic() - start < 3
    _s, head, _b = call(feed, path, token)
    assert _s == 429 and int(head["retry-after"]) >= 1
    # every held wait ends (here: by an append); their slots come back
    look(game, ann)
    done = waiters.join() + waiters2.join()
    assert sorted(s for s, *_ in done) == [200] * 8 + [429] * 4
    status, _h, body = call(feed, f"/api/games/{game.id}/events/?after=0&wait=5", token)
    assert status == 200 and body["events"]


def test_a_burst_of_waits_from_one_account_leaves_the_site_answering(pg_servers):
    base = pg_servers.feed(PABLO_ASGI_THREADS="4")
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    path = f"/api/games/{game.id}/events/?after={game.version}&wait=30"
    waiters = Waiters(base, [(path, token)] * 60)
    assert wait_for(lambda: len(waiters.results) >= 52, 20)
    start = time.monotonic()
    assert call(base, "/api/rulesets/")[0] == 200
    assert time.monotonic() - start < 1.0
    count, _ = feed_connections("feed")
    assert count <= 4
    look(game, ann)
    results = waiters.join()
    assert sorted(s for s, *_ in results) == [200] * 8 + [429] * 52


def test_waiters_are_woken_by_the_recheck_when_redis_is_away(pg_servers):
    base = pg_servers.feed(PABLO_FEED_REDIS_URL="redis://127.0.0.1:9/0", PABLO_FEED_RECHECK="0.3")
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    waiters = Waiters(base, [(f"/api/games/{game.id}/events/?after={game.version}&wait=20",
                              token)] * 3)  # fmt: skip
    time.sleep(1.0)
    appended = time.monotonic()
    game = look(game, ann)
    results = waiters.join()
    assert [s for s, *_ in results] == [200] * 3
    assert all(body["version"] == game.version for _s, body, *_ in results)
    assert max(r[3] for r in results) - appended < 2.0


def test_a_redis_restart_loses_nothing_and_the_hub_subscribes_again(pg_servers, settings):
    from tests.faults.servers import Redis

    redis = Redis()
    try:
        settings.PABLO_FEED_REDIS_URL = redis.url  # this process publishes there
        base = pg_servers.feed(PABLO_FEED_REDIS_URL=redis.url, PABLO_FEED_RECHECK="0.3")
        (ann, token), (ben, _t) = users(2)
        game = started_game([ann, ben])
        rng = random.Random(3)

        def round_trip() -> float:
            """Three clients wait; an append; all three have it. Seconds to the last."""
            nonlocal game
            before = game.version
            path = f"/api/games/{game.id}/events/?after={before}&wait=20"
            waiters = Waiters(base, [(path, token)] * 3)
            time.sleep(1.0)
            appended = time.monotonic()
            while Game.objects.get(pk=game.id).version == before:
                act_any(game, [ann, ben], rng)
            game = Game.objects.get(pk=game.id)
            results = waiters.join()
            assert [r[0] for r in results] == [200] * 3
            for r in results:
                assert [e["seq"] for e in r[1]["events"]] == list(
                    range(before + 1, r[1]["version"] + 1)
                )
            return max(r[3] for r in results) - appended

        assert round_trip() < 2.0  # through Redis
        redis.stop()
        assert round_trip() < 2.0  # Redis away: the re-check
        redis.start()
        log = pg_servers.procs[0][1]
        assert wait_for(lambda: "subscription is back" in log.read_text(), 20, 0.2)
        time.sleep(2.5)  # this process's publisher tries again after its pause
        assert round_trip() < 2.0
    finally:
        redis.close()


def test_a_client_that_goes_away_gives_its_wait_back(pg_servers):
    base = pg_servers.feed()
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    path = f"/api/games/{game.id}/events/?after={game.version}&wait=30"
    # eight waits whose clients hang up after a second (the limit is eight)
    hung_up = []
    for _ in range(8):
        thread = threading.Thread(target=_hang_up, args=(base, path, token, hung_up), daemon=True)
        thread.start()
    assert wait_for(lambda: len(hung_up) == 8, 20)
    assert hung_up == ["gone"] * 8
    time.sleep(0.5)  # (the server notices a closed connection at once; give it a moment)
    # their slots came back: a ninth wait is held, not refused
    waiters = Waiters(base, [(path, token)])
    time.sleep(1.5)
    assert not waiters.results
    look(game, ann)
    assert [r[0] for r in waiters.join()] == [200]


def _hang_up(base: str, path: str, token: str, out: list[str]) -> None:
    try:
        call(base, path, token, timeout=1.0)
        out.append("answered")
    except (TimeoutError, urllib.error.URLError, OSError):
        out.append("gone")
