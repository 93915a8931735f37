"""Small per-account settings that every page reads (the timezone, the language).

They are kept in the cache every process shares, per account, so a page costs
no query for them; whoever changes one (the account page, the header's switch,
``PATCH /api/me/notifications/``, on any device) drops the cached copy, at once
and again once the change is committed, so the account's next page anywhere
follows it. A cache that is away is no error: the database answers.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db import transaction

log = logging.getLogger(__name__)

#: How long a value stays cached (it is dropped whenever it changes).
TTL = 24 * 3600


def cache_key(user: Any, name: str) -> str:
    """The key of ``user``'s ``name``: the id and the moment the account was made, so
    that an id used again (a test database rolled back) never finds another's."""
    joined = user.date_joined.timestamp() if user.date_joined else 0
    return f"pablo:account-{name}:{user.pk}:{joined}"


def _stamp_key(key: str) -> str:
    return f"{key}:stamp"


def cached(*, user: Any, name: str, read: Callable[[], str]) -> str:
    """``user``'s ``name`` from the cache, else ``read()`` (the database), then cached.

    A value is cached with the stamp its key had *before* the database was read, and
    found only while the stamp is still that one: a change (``changed``: a new stamp)
    committed between the read and the caching leaves a value nobody finds, not the
    former one found by every page for the cache's day."""
    key = cache_key(user, name)
    stamp_key = _stamp_key(key)
    try:
        got = cache.get_many([key, stamp_key])
    except Exception:  # no cache: the database answers
        log.debug("account's %s not read from the cache", name, exc_info=True)
        return str(read())
    stamp, entry = got.get(stamp_key), got.get(key)
    if stamp is not None and isinstance(entry, tuple) and len(entry) == 2 and entry[0] == stamp:
        return str(entry[1])
    found = read()
    try:
        if stamp is None:  # (a first read, or the stamp evicted: a new one, unless a
            stamp = secrets.token_hex(8)  # change made one meanwhile: nothing cached)
            if not cache.add(stamp_key, stamp, TTL):
                return str(found)
        cache.set(key, (stamp, found), TTL)
    except Exception:
        log.debug("account's %s not cached", name, exc_info=True)
    return str(found)


def changed(*, user: Any, name: str) -> None:
    """``user``'s ``name`` changed: its cached copy is no longer found, now and once
    committed (a page that read the database between the two caches what it read under
    a stamp that is gone)."""
    stamp_key = _stamp_key(cache_key(user, name))

    def drop() -> None:
        try:
            cache.set(stamp_key, secrets.token_hex(8), TTL)
        except Exception:
            log.debug("account's %s not dropped from the cache", name, exc_info=True)

    drop()
    transaction.on_commit(drop)
