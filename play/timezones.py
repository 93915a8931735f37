"""The account's timezone for the times its pages show (the account page's setting).

A signed-in reader sees the dates and times of the site's pages (the replays, a
device's last notification) in the timezone their account names -- the one the
notifications' quiet hours use, which the browser fills in once when it is blank.
It is cached per account (``games.selectors.notifications.account_timezone``) and
the cached copy is dropped whenever the setting changes, from the account page or
``PATCH /api/me/notifications/``, on any device. Without one (signed out, or none
set, or a stored name that is no zone) times stay in UTC, and the pages say so: an
absolute time is always followed by its zone's name. The API never changes: its
times are ISO 8601 UTC.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from games.notifications import quiet
from games.selectors import notifications as notification_selectors


def account_zone_name(request: HttpRequest) -> str:
    """The signed-in account's timezone name, or ``""``."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    found = notification_selectors.account_timezone(user=user)
    return found if quiet.known_zone(found) else ""


class TimezoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        name = "" if request.path_info.startswith("/api/") else account_zone_name(request)
        if not name:
            return self.get_response(request)
        timezone.activate(quiet.zone(name))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
