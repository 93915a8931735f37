"""``PABLO_FEED_WAITS``' counter forgets slots nobody gives back (games/feed/limits.py).

A process killed with waits parked (a crashed or SIGKILLed worker, an OOM kill)
never gives their slots back; the counter's expiry is what forgets them. A
*refused* wait must not renew that expiry: a client that retries every
``Retry-After`` seconds would otherwise keep the leaked slots counted for ever and
be refused (429) for as long as it retries.
"""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import pytest
import redis as redis_lib

from games.feed import fast, limits


@pytest.fixture
def redis_caches(redis_broker, settings, monkeypatch):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_broker,
            "KEY_PREFIX": "pablo",
        },
        "throttle": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_broker,
            "KEY_PREFIX": "pablo-throttle",
        },
    }
    settings.PABLO_FEED_WAITS = 8
    monkeypatch.setattr(limits, "_script", None)
    client = redis_lib.Redis.from_url(redis_broker)
    yield client
    client.close()


def _leaked(client: redis_lib.Redis, user_id: int, ms: int) -> str:
    """Eight slots of a killed process: counted, expiring ``ms`` from now."""
    key = f"pablo-throttle:1:feed-waits:{user_id}"
    client.set(key, 8, px=ms)
    return key


def test_refused_waits_do_not_keep_leaked_slots_alive(redis_caches):
    user = SimpleNamespace(pk=990001, is_authenticated=True)
    key = _leaked(redis_caches, user.pk, 1500)
    for _ in range(5):
        assert limits.acquire(user) is None  # 429
    assert int(redis_caches.get(key)) == 8
    assert 0 < redis_caches.pttl(key) <= 1500, "a refusal renewed the leaked slots' expiry"
    time.sleep(1.7)
    slot = limits.acquire(user)
    assert slot is not None and slot.held
    slot.release()


def test_refused_fast_path_takes_do_not_keep_leaked_slots_alive(redis_caches):
    user_id = 990002
    key = _leaked(redis_caches, user_id, 1500)

    async def takes() -> list[str | None]:
        fast._counters.clear()
        try:
            wall = int(time.time() * 1000)
            return [await fast._take("tok", user_id, wall) for _ in range(5)]
        finally:
            await fast.close()

    assert asyncio.run(takes()) == [None] * 5
    assert int(redis_caches.get(key)) == 8
    assert 0 < redis_caches.pttl(key) <= 1500, "a refusal renewed the leaked slots' expiry"
