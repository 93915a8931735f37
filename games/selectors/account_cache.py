"""Small per-account settings that every page reads (the timezone, the language).

They are kept in the cache every process shares, per account, so a page costs
no query for them; whoever changes one (the account page, the header's switch,
``PATCH /api/me/notifications/``, on any device) drops the cached copy, at once
and again once the change is committed, so the account's next page anywhere
follows it. A cache that is away is no error: the database answers.
"""

from __future__ import annotations

import logging
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


def cached(*, user: Any, name: str, read: Callable[[], str]) -> str:
    """``user``'s ``name`` from the cache, else ``read()`` (the database), then cached."""
    key = cache_key(user, name)
    try:
        found = cache.get(key)
    except Exception:  # no cache: the database answers
        log.debug("account's %s not read from the cache", name, exc_info=True)
        found = None
    if found is None:
        found = read()
        try:
            cache.set(key, found, TTL)
        except Exception:
            log.debug("account's %s not cached", name, exc_info=True)
    return str(found)


def changed(*, user: Any, name: str) -> None:
    """``user``'s ``name`` changed: its cached copy goes now and once committed (a page
    read between the two must not keep the old value for a day)."""
    key = cache_key(user, name)

    def drop() -> None:
        try:
            cache.delete(key)
        except Exception:
            log.debug("account's %s not dropped from the cache", name, exc_info=True)

    drop()
    transaction.on_commit(drop)
