"""A user's notification settings."""

from __future__ import annotations

from typing import Any

from games.models import NotificationSettings
from games.selectors import account_cache

JSON = dict[str, Any]


def notification_settings(*, user: Any) -> NotificationSettings:
    """The user's notification settings (the defaults, unsaved, when they have no row)."""
    found = NotificationSettings.objects.filter(user=user).first()
    return found if found is not None else NotificationSettings(user=user)


def account_timezone(*, user: Any) -> str:
    """The user's timezone setting as stored (``""``: none), cached per account
    (``account_cache``): the pages read it on every request."""

    def read() -> str:
        return (
            NotificationSettings.objects.filter(user=user)
            .values_list("timezone", flat=True)
            .first()
            or ""
        )

    return account_cache.cached(user=user, name="timezone", read=read)
