"""A token accepted by any process is trusted by every feed process's fast path.

A feed process that never saw a token (it was just restarted, or the client was
sent to another one) reads the token's record in the shared cache
(``games.tokens.vouch``: a keyed digest -> user id and the read's time) instead of
sending the wait to Django; a game it does not know yet costs one query
(``asgi._learn_game``), not a Django request. Revocation and change marks still
refuse such a token at once, in every process.
"""

from __future__ import annotations

import pytest
import redis as redis_lib
from django.contrib.auth import get_user_model

from games import tokens
from tests.feed.test_fast import Log, feed_path, raw_get
from tests.feed.test_live import call, started_game, users

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

User = get_user_model()


def shared_cache(settings, servers) -> None:
    """This (test) process writes its marks where the servers read them."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": servers.env["CELERY_BROKER_URL"],
            "KEY_PREFIX": "pablo",
        },
    }


def account_django(log: Log) -> int:
    return log.count("FEEDDBG django GET /api/me/events/")


def two_feeds(pg_servers) -> tuple[str, Log, str, Log, str]:
    first = pg_servers.feed("feed-a", PABLO_FEED_DEBUG="1")
    second = pg_servers.feed("feed-b", PABLO_FEED_DEBUG="1")
    web = pg_servers.web(workers=1, threads=2)
    return first, Log(pg_servers, 0), second, Log(pg_servers, 1), web


def teach_shape(base: str, log: Log) -> None:
    """One pending answer through this process's Django (a user of its own, a game of
    its own): the process knows the answer's headers, and nothing of the tests' token."""
    (cat, token), (dan, _t) = users(2, prefix="teach")
    game = started_game([cat, dan])
    before = log.django_feed()
    assert raw_get(base, feed_path(game, game.version, 0.2), token)[0] == 200
    assert log.django_feed() == before + 1


def test_the_record_holds_a_keyed_digest_never_the_token(pg_servers):
    [(_ann, token)] = users(1)
    web = pg_servers.web(workers=1, threads=2)
    assert call(web, "/api/me/turns/", token)[0] == 200
    client = redis_lib.Redis.from_url(pg_servers.env["CELERY_BROKER_URL"])
    try:
        found = [k.decode() for k in client.scan_iter(match="pablo:*token-vouched:*")]
        assert len(found) == 1, found
        assert token not in found[0]
        value = client.get(found[0])
        assert token.encode() not in value
        assert token not in "".join(k.decode() for k in client.scan_iter(match="*"))
    finally:
        client.close()
    # keyed: not the plain digest of the revocation mark, and not the token's own hash
    assert tokens.vouched_key(token).split(":")[1] != tokens._mark(token).split(":")[1]


def test_a_second_feed_process_answers_a_known_token_with_no_django_request(pg_servers):
    first, _log_a, second, log_b, _web = two_feeds(pg_servers)
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    # the first process's Django accepts the token (and tells every process)
    assert raw_get(first, feed_path(game, game.version, 0.2), token)[0] == 200
    teach_shape(second, log_b)
    other = started_game([ann, ben])  # a game the second process never saw either
    django, fast = log_b.django_feed(), log_b.count("FEEDDBG fast answered")
    for g in (game, other, game):
        status, _h, body = raw_get(second, feed_path(g, g.version, 0.2), token)
        assert status == 200, body
    assert log_b.django_feed() == django, "no Django request in the second process"
    assert log_b.count("FEEDDBG fast answered") == fast + 3


def test_a_rotated_token_is_refused_at_once_in_a_process_that_trusted_its_record(pg_servers):
    first, _log_a, second, log_b, web = two_feeds(pg_servers)
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    assert call(web, "/api/me/turns/", token)[0] == 200  # vouched by the web process
    teach_shape(second, log_b)
    django = log_b.django_feed()
    assert raw_get(second, feed_path(game, game.version, 0.2), token)[0] == 200
    assert log_b.django_feed() == django  # (trusted from the record)
    status, _h, body = call(web, "/api/auth/token/rotate/", token, "POST", {})
    assert status == 200, body
    new = body["token"]
    for base in (second, first):
        status, _h, body = raw_get(base, feed_path(game, game.version, 0.2), token)
        assert status == 401, body
    assert raw_get(second, feed_path(game, game.version, 0.2), new)[0] == 200


def test_a_deactivated_user_is_refused_at_once_in_a_process_that_trusted_the_record(
    pg_servers, settings
):
    _first, _log_a, second, log_b, web = two_feeds(pg_servers)
    (ann, token), (ben, _t) = users(2)
    game = started_game([ann, ben])
    assert call(web, "/api/me/turns/", token)[0] == 200
    teach_shape(second, log_b)
    django = log_b.django_feed()
    assert raw_get(second, feed_path(game, game.version, 0.2), token)[0] == 200
    assert log_b.django_feed() == django
    shared_cache(settings, pg_servers)
    ann.is_active = False
    ann.save()
    status, _h, body = raw_get(second, feed_path(game, game.version, 0.2), token)
    assert status == 401, body


def test_a_deleted_user_is_refused_at_once_in_a_process_that_trusted_the_record(
    pg_servers, settings
):
    _first, _log_a, second, log_b, web = two_feeds(pg_servers)
    (ann, token), (ben, _t), (cat, _c) = users(3)
    game = started_game([ben, cat])  # (a public game ann may read, not seated: deletable)
    assert call(web, "/api/me/turns/", token)[0] == 200  # the record exists
    teach_shape(second, log_b)
    django = log_b.django_feed()
    assert raw_get(second, feed_path(game, game.version, 0.2), token)[0] == 200
    assert log_b.django_feed() == django
    shared_cache(settings, pg_servers)
    User.objects.filter(pk=ann.pk).delete()  # (a queryset delete: signals for each row)
    status, _h, body = raw_get(second, feed_path(game, game.version, 0.2), token)
    assert status == 401, body


def test_the_account_feed_of_a_second_process_waits_with_no_django_request(pg_servers):
    _first, _log_a, second, log_b, web = two_feeds(pg_servers)
    (_ann, token), (_cat, cat_token) = users(2)
    # the account feed's answer headers, taught by another user's wait through Django
    status, _h, body = call(web, "/api/me/events/", cat_token)
    assert status == 200
    cat_head = body["position"]
    before = account_django(log_b)
    path = f"/api/me/events/?after={cat_head}&wait=0.2"
    assert raw_get(second, path, cat_token)[0] == 200
    assert account_django(log_b) == before + 1
    status, _h, body = call(web, "/api/me/events/", token)  # where to start (web: vouched)
    assert status == 200
    django = account_django(log_b)
    path = f"/api/me/events/?after={body['position']}&wait=0.2"
    for _ in range(2):
        status, _h, answer = raw_get(second, path, token)
        assert status == 200, answer
    assert account_django(log_b) == django, "no Django request in the second process"
    status, _h, body = call(web, "/api/auth/token/rotate/", token, "POST", {})
    assert status == 200, body
    status, _h, answer = raw_get(second, path, token)
    assert status == 401, answer
    assert raw_get(second, path, body["token"])[0] == 200
