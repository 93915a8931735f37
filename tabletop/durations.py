"""Times in words for people: "3 h 20 min" left, "2 days" per turn."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.translation import ngettext


def time_left(deadline: str | None, now: datetime | None = None) -> str:
    if not deadline:
        return ""
    try:
        when = datetime.fromisoformat(deadline.replace("Z", "+00:00"))
    except ValueError:
        return ""
    seconds = int((when - (now or timezone.now())).total_seconds())
    return human_seconds(max(0, seconds))


def human_seconds(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds} s"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(hours, 24)
    text = ngettext("%(days)s day", "%(days)s days", days) % {"days": days}
    return f"{text} {hours} h" if hours else text
