"""``PABLO_FEED_WAITS``: at most that many concurrent long-poll waits per user.

A wait (a feed request with ``wait`` > 0) takes a slot when it starts and
gives it back when it ends, on every path (answered, timed out, refused, the
client gone). The count lives in the ``throttle`` cache, which every process
of the service shares, and is changed atomically: on Redis one script
(``INCRBY`` and ``EXPIRE`` in one round trip); on the files of the embedded default under an
exclusive file lock; on a per-process cache (tests) under a thread lock. The
key expires ``TTL`` seconds after the user's last wait started, so a slot
that a killed process never gave back is forgotten once the user has started
no wait for that long (every wait ends within ``MAX_WAIT`` seconds, well below
it). A user who keeps polling meanwhile keeps the lost slots counted, with
fewer concurrent waits left until then (a per-wait expiry -- a sorted set of
slots by deadline -- would free them one by one; not done). A wait *refused*
(over the limit) is not counted and leaves the expiry alone: a client retrying
every ``Retry-After`` seconds must not keep a dead process's slots counted for
ever (and itself refused for as long as it retries). A cache that cannot be
reached lets the wait through (and says so in the log), like the throttles.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)

CACHE = "throttle"
TTL = 120
#: seconds a refused client is asked to wait before it polls again
RETRY_AFTER = 5
_thread_lock = threading.Lock()
#: One round trip, atomic: add ``delta`` (never below zero), expire TTL seconds later
#: when taking (a release leaves the expiry alone). A take past ``ARGV[3]`` (the
#: limit; absent or 0: none) is undone at once, the expiry untouched: the count
#: returned is then above the limit (refused).
CHANGE = """
local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if n < 0 then redis.call('SET', KEYS[1], 0, 'KEEPTTL') n = 0 end
if tonumber(ARGV[1]) > 0 then
  local most = tonumber(ARGV[3] or '0') or 0
  if most > 0 and n > most then
    redis.call('DECRBY', KEYS[1], ARGV[1])
    return n
  end
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return n
"""
_script: Any = None


def _redis_script(cache: RedisCache) -> Any:
    """The counting script on one client for the process (a thread-safe pool), not
    Django's cache client, which is made again per request context (a new
    connection each time)."""
    global _script
    if _script is None:
        with _thread_lock:
            if _script is None:
                client = redis.Redis.from_url(
                    cache._servers[0],
                    socket_connect_timeout=0.5,
                    socket_timeout=0.5,
                    lib_name=None,
                    lib_version=None,
                )
                _script = client.register_script(CHANGE)
    return _script


_last_warning = 0.0


class Slot:
    """A held wait; ``release()`` gives it back (once)."""

    def __init__(self, key: str | None) -> None:
        self.key = key
        self._lock = threading.Lock()

    @property
    def held(self) -> bool:
        return self.key is not None

    def release(self) -> None:
        key = self.take()
        if key is not None:
            _change(key, -1)

    def take(self) -> str | None:
        """The counter's key, once: whoever takes it gives the wait back."""
        with self._lock:
            key, self.key = self.key, None
        return key


def limit() -> int:
    return int(getattr(settings, "PABLO_FEED_WAITS", 8) or 0)


def acquire(user: Any) -> Slot | None:
    """A slot for one more wait of ``user``, or None when they have ``limit()`` already."""
    most = limit()
    if most <= 0 or user is None or not getattr(user, "is_authenticated", False):
        return Slot(None)
    key = key_for(user.pk)
    try:
        count = _change(key, +1, most)
    except Exception as exc:
        _warn(exc)
        return Slot(None)
    if count > most:  # (not counted: _change undid it)
        return None
    return Slot(key)


def key_for(user_id: Any) -> str:
    """The user's counter (in the ``throttle`` cache, before its prefix)."""
    return f"feed-waits:{user_id}"


def change(key: str, delta: int, most: int = 0) -> int:
    """Add ``delta`` to a counter (the fast path's executor fallback): the count now; a
    take past ``most`` (> 0) is not counted and returns a count above it."""
    return _change(key, delta, most)


def _warn(exc: Exception) -> None:
    global _last_warning
    now = time.monotonic()
    if now - _last_warning > 60:
        _last_warning = now
        log.warning("feed: wait counter unreachable, waits are not limited: %s", exc)


def _change(key: str, delta: int, most: int = 0) -> int:
    """Add ``delta``; a take (``delta`` > 0) that would pass ``most`` (> 0) is not
    counted and leaves the expiry alone: the count it would have made is returned."""
    cache = caches[CACHE]
    if isinstance(cache, RedisCache):
        script = _redis_script(cache)
        return int(script(keys=[cache.make_key(key)], args=[delta, TTL, most]))
    with _locked(cache):
        now = int(cache.get(key, 0) or 0)
        count = max(0, now + delta)
        if delta > 0 and 0 < most < count:
            return count
        cache.set(key, count, TTL)
        return count


@contextlib.contextmanager
def _locked(cache: Any) -> Iterator[None]:
    if isinstance(cache, FileBasedCache):
        os.makedirs(cache._dir, exist_ok=True)
        with open(os.path.join(cache._dir, "feed-waits.lock"), "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
    else:
        with _thread_lock:
            yield
