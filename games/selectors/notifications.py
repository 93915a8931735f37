"""A user's notification settings."""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

from games.models import NotificationSettings

JSON = dict[str, Any]

log = logging.getLogger(__name__)


def notification_settings(*, user: Any) -> NotificationSettings:
    """The user's notification settings (the defaults, unsaved, when they have no row)."""
    found = NotificationSettings.objects.filter(user=user).first()
    return found if found is not None else NotificationSettings(user=user)


#: How long an account's timezone stays in the cache (it is dropped whenever it
#: changes: ``games.services.notifications.notification_settings_update``).
TIMEZONE_TTL = 24 * 3600


def timezone_cache_key(user: Any) -> str:
    """The cache key of ``user``'s timezone: the id and the moment the account was made,
    so that an id used again (a test database rolled back) never finds another's."""
    joined = user.date_joined.timestamp() if user.date_joined else 0
    return f"pablo:account-timezone:{user.pk}:{joined}"


def account_timezone(*, user: Any) -> str:
    """The user's timezone setting as stored (``""``: none), cached per account: the
    pages read it on every request, and any change (the account page or
    ``PATCH /api/me/notifications/``, on any device) drops the cached copy."""
    key = timezone_cache_key(user)
    try:
        found = cache.get(key)
    except Exception:  # no cache: the database answers
        log.debug("account timezone not read from the cache", exc_info=True)
        found = None
    if found is None:
        found = (
            NotificationSettings.objects.filter(user=user)
            .values_list("timezone", flat=True)
            .first()
            or ""
        )
        timezone_forget(key, found)
    return str(found)


def timezone_forget(key: str, value: str | None = None) -> None:
    """Drop (``value`` None) or set the cached timezone under ``key``; a cache that is
    away is no error (the pages then read the database)."""
    try:
        if value is None:
            cache.delete(key)
        else:
            cache.set(key, value, TIMEZONE_TTL)
    except Exception:
        log.debug("account timezone not cached", exc_info=True)
