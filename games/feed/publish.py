"""Announce a game's new version to every waiter, whoever appended.

A receiver of ``games.store.signals.events_appended`` -- sent by the game's stream
once an append has committed, by a web process, the Celery worker (timeouts,
bots) or another machine alike -- PUBLISHes the game's new version on the
game's Redis channel (``PABLO_FEED_CHANNEL:<game id>``), where the hubs of the
ASGI processes that have waiters for that game listen (``games.feed.hub``),
and wakes this process's own hub directly.

Publishing never fails or slows the write: the receiver only queues the
version; a thread of the process publishes the queue (pipelined, the latest
version per game). A Redis that is away is given ``TIMEOUT`` seconds once, then
left alone for ``PAUSE`` seconds (the waiters' hubs re-check the database while
their own subscription is down, and a waiter that missed a wake-up still
answers at its ``wait`` with the version it had, after which the client's next
poll reads the new events: late, never lost; so is a message queued by a
process that exits before its thread sent it).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from typing import Any

import redis
from django.conf import settings
from django.dispatch import receiver

from games.store.signals import events_appended

log = logging.getLogger(__name__)

TIMEOUT = 0.25
PAUSE = 2.0

_client: redis.Redis | None = None
_client_url = ""
_down_until = 0.0
_lock = threading.Lock()
#: hubs of this process (one per running event loop), woken in-process
local_hubs: set[Any] = set()


def channel(game_id: Any) -> str:
    return f"{settings.PABLO_FEED_CHANNEL}:{game_id}"


def redis_url() -> str:
    return str(getattr(settings, "PABLO_FEED_REDIS_URL", "") or "")


def _redis() -> redis.Redis | None:
    global _client, _client_url
    url = redis_url()
    if not url:
        return None
    if _client is None or _client_url != url:
        with _lock:
            _client = redis.Redis.from_url(
                url,
                socket_connect_timeout=TIMEOUT,
                socket_timeout=TIMEOUT,
                lib_name=None,  # no CLIENT SETINFO (it reads the package metadata)
                lib_version=None,
            )
            _client_url = url
    return _client


def publish(game_id: Any, version: int) -> None:
    """Wake every waiter of ``game_id`` below ``version``, in every process.

    This process's hubs at once; the others through Redis, by a background
    thread (``_publisher``), so that the writer's request never waits for the
    round trip: it only puts the version in a queue."""
    key = str(game_id)
    for hub in list(local_hubs):
        hub.wake_threadsafe(key, version)
    if not redis_url():
        return
    _outbox.put((key, version))
    _ensure_publisher()


_outbox: queue.SimpleQueue[tuple[str, int]] = queue.SimpleQueue()
_publisher_pid = 0


def _ensure_publisher() -> None:
    global _publisher_pid
    if _publisher_pid == os.getpid():
        return
    with _lock:
        if _publisher_pid != os.getpid():  # first use, or a forked child (Celery's pool)
            _publisher_pid = os.getpid()
            threading.Thread(target=_publisher, name="pablo-feed-publish", daemon=True).start()


def _publisher() -> None:
    """Publish what is queued, many at a time (one round trip), the latest version per game."""
    global _down_until
    while True:
        key, version = _outbox.get()
        latest = {key: version}
        while True:
            try:
                key, version = _outbox.get_nowait()
            except queue.Empty:
                break
            latest[key] = max(version, latest.get(key, 0))
        client = _redis()
        if client is None or time.monotonic() < _down_until:
            continue  # Redis is away: the hubs re-check meanwhile
        try:
            pipe = client.pipeline(transaction=False)
            for game, newest in latest.items():
                pipe.publish(channel(game), str(newest))
            pipe.execute()
        except redis.RedisError as exc:
            _down_until = time.monotonic() + PAUSE
            log.warning("feed: cannot publish to Redis (%s); waiters re-check instead", exc)


@receiver(events_appended, dispatch_uid="games.feed.publish")
def on_events_appended(sender: Any, game_id: Any, version: int, **kwargs: Any) -> None:
    publish(game_id, version)
