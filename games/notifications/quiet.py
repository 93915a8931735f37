"""Quiet hours: when a notification may reach a player (pure: every clock is an argument).

A player's quiet hours are ``{"start": "HH:MM", "end": "HH:MM"}`` in their own
timezone (an IANA name; blank: UTC). ``end`` before ``start`` spans midnight
(22:00-07:30); ``start`` equal to ``end`` is no quiet hours at all. Local
times that a daylight-saving change skips or repeats are read as
``zoneinfo`` reads them (the first of the two), so a window is never lost.

``send_at`` says when a notification due at ``at`` goes out: at once outside
the quiet hours; inside them, when they end -- except a reminder whose
deadline falls inside the same quiet hours, which is sent before they start
(``margin`` before, if that is still ahead) or at its time if the quiet
hours had already begun when it was scheduled. docs/notifications.md.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Any

REMINDER = "reminder"


#: What the tz database ships that is no place's zone: the host's own setting, the
#: "Factory" placeholder, the POSIX rule files and the copies under posix/ and right/.
NOT_ZONES = frozenset({"localtime", "Factory", "posixrules", "leapseconds", "tzdata.zi"})
_ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9][A-Za-z0-9_+-]*)*")


@functools.cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def known_zone(name: Any) -> bool:
    """Whether ``name`` is a real IANA zone name (``Europe/Paris``, ``UTC``): spelled as
    one (no path tricks such as ``../etc``, no empty part), known to this tz database,
    and not one of ``NOT_ZONES`` or the ``posix/`` and ``right/`` copies."""
    if not isinstance(name, str) or not _ZONE_NAME.fullmatch(name) or name in NOT_ZONES:
        return False
    return name.split("/", 1)[0] not in ("posix", "right") and name in _zones()


def zone(name: str | None) -> tzinfo:
    """The player's timezone (UTC when blank or unknown)."""
    if not name:
        return UTC
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return UTC


def _hhmm(text: str) -> time:
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


def bounds(hours: Any) -> tuple[time, time] | None:
    """The window's (start, end), or None: no quiet hours, or a stored value that is not
    a whole window (the follower must never fail on one player's settings)."""
    if not isinstance(hours, dict):
        return None
    try:
        start, end = _hhmm(hours["start"]), _hhmm(hours["end"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return None if start == end else (start, end)


def window(
    hours: dict[str, Any] | None, tz: str | None, at: datetime
) -> tuple[datetime, datetime] | None:
    """The quiet period ``at`` falls in, as aware datetimes (start, end); None: not quiet."""
    found = bounds(hours)
    if found is None:
        return None
    start, end = found
    where = zone(tz)
    local = at.astimezone(where)
    for days in (-1, 0):  # a period that began yesterday or today
        day = local.date() + timedelta(days=days)
        begins = datetime.combine(day, start, tzinfo=where)
        ends_day = day if end > start else day + timedelta(days=1)
        ends = datetime.combine(ends_day, end, tzinfo=where)
        if begins <= at < ends:
            return begins.astimezone(UTC), ends.astimezone(UTC)
    return None


def next_start(hours: dict[str, Any] | None, tz: str | None, at: datetime) -> datetime | None:
    """When the next quiet period after ``at`` begins (None: no quiet hours)."""
    found = bounds(hours)
    if found is None:
        return None
    where = zone(tz)
    start = found[0]
    local = at.astimezone(where)
    for days in (0, 1, 2):
        begins = datetime.combine(local.date() + timedelta(days=days), start, tzinfo=where)
        if begins > at:
            return begins.astimezone(UTC)
    return None  # pragma: no cover - a start always comes within two days


def send_at(
    kind: str,
    at: datetime,
    *,
    hours: dict[str, Any] | None,
    tz: str | None,
    now: datetime,
    deadline: datetime | None = None,
    margin: timedelta = timedelta(minutes=15),
) -> datetime:
    """When a notification of ``kind`` due at ``at`` (its natural time, ``now`` or later)
    may be sent to a player with these quiet hours."""
    quiet = window(hours, tz, at)
    if quiet is None:
        return at
    begins, ends = quiet
    if kind == REMINDER and deadline is not None and deadline <= ends:
        # The turn ends while the player sleeps: remind them before they go quiet,
        # or, when the quiet hours had begun already, at the reminder's own time.
        early = begins - margin
        if now < begins:
            return max(early, now)
        return at
    return ends
