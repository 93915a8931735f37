"""attack6: a stranger's first wait on a private game the feed process does not know
yet (learned through the batched ``Application._facts``), in every spelling of its id,
answered exactly like an unknown game; many games asked for at once each get their own
facts."""

from __future__ import annotations

import concurrent.futures
import uuid

import pytest

from tests.feed.test_fast import Log, raw_get
from tests.feed.test_live import started_game, users
from tests.feed.test_private_fast import private_game

VARYING = {"date", "x-request-id", "server-timing"}


def spellings(gid: uuid.UUID) -> list[str]:
    return [str(gid), str(gid).upper(), gid.hex, "{" + str(gid) + "}", f"urn:uuid:{gid}"]


def answer(base: str, spelled: str, after: int, token: str) -> tuple:
    status, headers, body = raw_get(
        base, f"/api/games/{spelled}/events/?after={after}&wait=0.3", token
    )
    kept = sorted((k.lower(), v) for k, v in headers if k.lower() not in VARYING)
    return status, kept, body


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_strangers_first_wait_on_an_unknown_private_game_is_the_unknown_games_404(pg_servers):
    base = pg_servers.feed(PABLO_FEED_DEBUG="1", PABLO_ASGI_THREADS="2", PABLO_FEED_AUDIT="600")
    log = Log(pg_servers)
    (ann, ann_token), (ben, _b), (eve, eve_token), (fay, _f) = users(4)
    secrets = [private_game([ann, ben]) for _ in range(3)]
    public = started_game([eve, fay])
    # eve's token known to the process (her own game's feed through Django, then fast)
    assert (
        raw_get(base, f"/api/games/{public.id}/events/?after={public.version}&wait=0.3", eve_token)[
            0
        ]
        == 200
    )
    assert (
        raw_get(base, f"/api/games/{public.id}/events/?after={public.version}&wait=0.3", eve_token)[
            0
        ]
        == 200
    )
    unknown = uuid.uuid4()
    expected = answer(base, str(unknown), 0, eve_token)
    assert expected[0] == 404
    # many at once: private, unknown, odd spellings, a public game -- the stranger first
    jobs = []
    for secret in secrets:
        for spelled in spellings(secret.id):
            jobs.append(("secret", spelled, secret.version))
    for _ in range(5):
        jobs.append(("unknown", str(uuid.uuid4()), 0))
    for spelled in spellings(public.id):
        jobs.append(("public", spelled, public.version))
    with concurrent.futures.ThreadPoolExecutor(len(jobs)) as pool:
        got = list(pool.map(lambda j: (j, answer(base, j[1], j[2], eve_token)), jobs))
    for (kind, spelled, _after), (status, headers, body) in got:
        if kind == "public":
            assert status == 200, (spelled, status, body)
        else:
            assert (status, headers, body) == expected, (kind, spelled, status, headers, body)
    # and again, now that the process knows every game
    for secret in secrets:
        for spelled in spellings(secret.id):
            assert answer(base, spelled, secret.version, eve_token) == expected, spelled
    # a player of the private game still gets its feed
    status, _h, _b2 = raw_get(
        base, f"/api/games/{secrets[0].id}/events/?after={secrets[0].version}&wait=0.3", ann_token
    )
    assert status == 200
    assert log.count("Traceback") == 0


def wait_status(base: str, game, token: str) -> int:
    path = f"/api/games/{game.id}/events/?after={game.version}&wait=0.5"
    return raw_get(base, path, token)[0]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_every_waiter_is_answered_when_the_database_drops_the_feeds_connections(pg_servers):
    import time

    from django.db import connection

    base = pg_servers.feed(PABLO_FEED_DEBUG="1", PABLO_ASGI_THREADS="2", PABLO_FEED_AUDIT="600")
    (ann, ann_token), (ben, _b), (eve, eve_token), (fay, _f) = users(4)
    games = [started_game([ann, ben]) for _ in range(6)]
    secrets = [private_game([ann, ben]) for _ in range(3)]
    public = started_game([eve, fay])
    for token in (ann_token, eve_token):
        assert (
            raw_get(base, f"/api/games/{public.id}/events/?after={public.version}&wait=0.3", token)[
                0
            ]
            == 200
        )
    with connection.cursor() as cur:
        cur.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    jobs = [(g, ann_token) for g in games + secrets] + [(s, eve_token) for s in secrets]
    jobs += [(type("G", (), {"id": uuid.uuid4(), "version": 0}), eve_token) for _ in range(3)]
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(len(jobs)) as pool:
        got = list(pool.map(lambda j: wait_status(base, j[0], j[1]), jobs))
    assert time.monotonic() - started < 20
    assert all(s in (200, 404, 429, 503) for s in got), repr(got)  # 429: the per-user wait cap
    # retried: every answer right
    again = [
        raw_get(base, f"/api/games/{g.id}/events/?after={g.version}&wait=0.5", t)[0]
        for g, t in jobs
    ]
    assert again == [200] * 9 + [404] * 6, (got, again)


def raw_head(base: str, path: str, token: str) -> tuple:
    import http.client
    from urllib.parse import urlparse

    url = urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=40)
    try:
        conn.request("HEAD", path, headers={"Authorization": f"Token {token}"})
        got = conn.getresponse()
        kept = sorted((k.lower(), v) for k, v in got.getheaders() if k.lower() not in VARYING)
        return got.status, kept, got.read()
    finally:
        conn.close()


def stranger_beside(pg_servers, fetch) -> tuple:
    """A feed process, a private game of ann and ben, and eve's token, which the process
    knows (eve waited twice on a public game of her own through ``fetch``)."""
    base = pg_servers.feed(PABLO_FEED_DEBUG="1", PABLO_ASGI_THREADS="2", PABLO_FEED_AUDIT="600")
    (ann, _a), (ben, _b), (eve, eve_token), (fay, _f) = users(4)
    secret = private_game([ann, ben])
    public = started_game([eve, fay])
    for _ in range(2):
        assert fetch(base, f"/api/games/{public.id}/events/?after=0&wait=0.3", eve_token)[0] == 200
    return base, secret, eve_token


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_strangers_first_head_wait_on_a_private_game_is_the_unknown_games(pg_servers):
    base, secret, eve_token = stranger_beside(pg_servers, raw_head)
    expected = raw_head(base, f"/api/games/{uuid.uuid4()}/events/?after=0&wait=0.3", eve_token)
    assert expected[0] == 404
    for after in (0, secret.version, secret.version + 3):
        for spelled in spellings(secret.id):
            path = f"/api/games/{spelled}/events/?after={after}&wait=0.3"
            assert raw_head(base, path, eve_token) == expected, (after, spelled)


ODD_QUERIES = [
    "wait=inf", "wait=1e999", "wait=nan", "wait=0&wait=0.3", "wait=-0.0",
    "wait=0.3&after=-1", "wait=0.3&after=abc", "wait=0.3&after=99999999999999999999",
]  # fmt: skip


def raw_answer(base: str, path: str, token: str) -> tuple:
    status, headers, body = raw_get(base, path, token)
    return status, sorted((k.lower(), v) for k, v in headers if k.lower() not in VARYING), body


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_odd_wait_values_on_a_private_game_answer_as_for_an_unknown_one(pg_servers):
    base, secret, eve_token = stranger_beside(pg_servers, raw_get)
    unknown = uuid.uuid4()
    for query in ODD_QUERIES:
        expected = raw_answer(base, f"/api/games/{unknown}/events/?{query}", eve_token)
        got = raw_answer(base, f"/api/games/{secret.id}/events/?{query}", eve_token)
        assert got == expected, (query, got, expected)
        assert got[0] in (400, 404), (query, got)
