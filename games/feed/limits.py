"""``PABLO_FEED_WAITS``: at most that many concurrent long-poll waits per user.

A wait (a feed request with ``wait`` > 0) takes a slot when it starts and
gives it back when it ends, on every path (answered, timed out, refused, the
client gone). The count lives in the ``throttle`` cache, which every process
of the service shares, and is changed atomically: on Redis one
``MULTI INCR EXPIRE EXEC``; on the files of the embedded default under an
exclusive file lock; on a per-process cache (tests) under a thread lock. The
key expires ``TTL`` seconds after the user's last wait started, so a slot
that a killed process never gave back is forgotten after that long (every
wait ends within ``MAX_WAIT`` seconds, well below it). A cache that cannot be
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
_last_warning = 0.0


class Slot:
    """A held wait; ``release()`` gives it back (once)."""

    def __init__(self, key: str | None) -> None:
        self.key = key
        self._lock = threading.Lock()

    def release(self) -> None:
        with self._lock:
            key, self.key = self.key, None
        if key is not None:
            _change(key, -1)


def limit() -> int:
    return int(getattr(settings, "PABLO_FEED_WAITS", 8) or 0)


def acquire(user: Any) -> Slot | None:
    """A slot for one more wait of ``user``, or None when they have ``limit()`` already."""
    most = limit()
    if most <= 0 or user is None or not getattr(user, "is_authenticated", False):
        return Slot(None)
    key = f"feed-waits:{user.pk}"
    try:
        count = _change(key, +1)
    except Exception as exc:
        _warn(exc)
        return Slot(None)
    if count > most:
        _change(key, -1)
        return None
    return Slot(key)


def _warn(exc: Exception) -> None:
    global _last_warning
    now = time.monotonic()
    if now - _last_warning > 60:
        _last_warning = now
        log.warning("feed: wait counter unreachable, waits are not limited: %s", exc)


def _change(key: str, delta: int) -> int:
    cache = caches[CACHE]
    if isinstance(cache, RedisCache):
        client = cache._cache.get_client(key, write=True)
        full = cache.make_and_validate_key(key)
        pipe = client.pipeline(transaction=True)
        pipe.incrby(full, delta)
        pipe.expire(full, TTL)
        count = int(pipe.execute()[0])
        if count < 0:  # a release after the key expired: never below zero
            client.incrby(full, -count)
            count = 0
        return count
    with _locked(cache):
        count = max(0, int(cache.get(key, 0) or 0) + delta)
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
