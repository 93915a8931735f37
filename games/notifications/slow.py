"""Destinations that kept a delivery waiting are left alone for a while (an account's
devices, an account's webhook), so that a few accounts cannot hold up everyone's
deliveries.

A push endpoint or a webhook URL is its user's choice, and a host that accepts and
never answers (or answers just before ``PABLO_WEBHOOK_TIMEOUT``) holds a delivery
worker that long per attempt. Every message to it was an attempt: an account's ten
devices on such a host, in games with short turns, kept the ``notifications``
workers waiting on it, and everyone's pushes, webhooks and mails waited behind.

So an attempt that took at least ``SLOW`` of the timeout (failed or not) marks its
destination for a while: ``PABLO_WEBHOOK_BACKOFF`` seconds but at least ``SPAN``
timeouts (one such destination then holds at most 1/``SPAN`` of a worker), doubled
with each such attempt in a row (at most ``MOST`` seconds); a prompt answer (any
status) clears the mark. While marked, a delivery to it is not attempted: it counts
as a failed try and is tried again when the mark ends (push: its row's
``next_try``; a webhook: its task's retry), so it is still given up after
``PABLO_WEBHOOK_RETRIES`` tries. One such destination then costs one attempt per
window, not one per message. A mark is the account's (all its devices: subscribing
again does not clear it), in the shared ``default`` cache; a cache that cannot be
read lets the delivery go.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

#: The part of ``PABLO_WEBHOOK_TIMEOUT`` from which an attempt counts as slow.
SLOW = 0.5
#: The first window is at least this many timeouts: with ``PABLO_WEBHOOK_BACKOFF``'s 10 s alone
#: (two attempts' time), a handful of fresh accounts still filled a pool of two.
SPAN = 12
#: The longest a destination is left alone (as the retries' backoff).
MOST = 1800.0


def _key(destination: str) -> str:
    return f"slow-destination:{destination}"


def _timeout() -> float:
    return float(getattr(settings, "PABLO_WEBHOOK_TIMEOUT", 5.0))


def wait_for(destination: str) -> float:
    """Seconds until ``destination`` may be tried again (0: now)."""
    try:
        found = cache.get(_key(destination))
    except Exception as exc:  # the cache is away: deliver as before
        log.warning("slow destinations unknown (%s): delivering", exc)
        return 0.0
    if not isinstance(found, tuple) or len(found) != 2:
        return 0.0
    return max(0.0, float(found[0]) - time.time())


def attempted(destination: str, seconds: float) -> None:
    """An attempt at ``destination`` took ``seconds``: mark it when that was slow, clear
    its mark when not."""
    try:
        if seconds < SLOW * _timeout():
            cache.delete(_key(destination))
            return
        found = cache.get(_key(destination))
        row = int(found[1]) + 1 if isinstance(found, tuple) and len(found) == 2 else 1
        base = max(float(getattr(settings, "PABLO_WEBHOOK_BACKOFF", 10.0)), SPAN * _timeout())
        window = min(base * 2 ** (row - 1), MOST)
        cache.set(_key(destination), (time.time() + window, row), timeout=int(MOST * 2))
    except Exception as exc:
        log.warning("slow destination %s not marked: %s", destination, exc)


def push_key(user_id: Any) -> str:
    return f"push:{user_id}"


def webhook_key(user_id: Any) -> str:
    return f"webhook:{user_id}"
