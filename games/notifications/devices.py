"""Web Push as the pages see it: is it on, and the user's devices (docs/notifications.md).

A read of the notifications room (it asks `push` for the keys), not of games.selectors:
the selectors stay below the rooms that follow the log."""

from __future__ import annotations

import urllib.parse
from typing import Any

from games.models import PushSubscription

from . import push

#: The push services of the browsers people use, by the end of their host name.
SERVICES = (
    ("fcm.googleapis.com", "Chrome"),
    ("push.services.mozilla.com", "Firefox"),
    (".push.apple.com", "Safari"),
    (".notify.windows.com", "Edge"),
)


def push_on() -> bool:
    """True when the server has VAPID keys (``GET /api/push/key/`` answers 200)."""
    return push.keys() is not None


def push_devices(*, user: Any) -> list[dict[str, Any]]:
    """The user's subscribed devices, oldest first: id, endpoint, browser, created, last_success."""
    rows = PushSubscription.objects.filter(user=user).order_by("created", "pk")
    return [
        {
            "id": row.pk,
            "endpoint": row.endpoint,
            "browser": browser_of(row.endpoint),
            "created": row.created,
            "last_success": row.last_success,
        }
        for row in rows
    ]


def browser_of(endpoint: str) -> str:
    """The browser a push endpoint belongs to, by its push service (else the service's host)."""
    host = (urllib.parse.urlsplit(endpoint).hostname or "").lower()
    for end, name in SERVICES:
        if host == end.lstrip(".") or host.endswith(end if end.startswith(".") else "." + end):
            return name
    return host
