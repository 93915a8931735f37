"""A user's notification settings."""

from __future__ import annotations

from typing import Any

from games.models import NotificationSettings

JSON = dict[str, Any]


def notification_settings(*, user: Any) -> NotificationSettings:
    """The user's notification settings (the defaults, unsaved, when they have no row)."""
    found = NotificationSettings.objects.filter(user=user).first()
    return found if found is not None else NotificationSettings(user=user)
