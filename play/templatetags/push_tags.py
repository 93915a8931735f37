"""``{% push_control %}``: the "Notify me on this device" control (lobby and table)."""

from __future__ import annotations

from typing import Any

from django import template

from games.selectors import push as push_selectors

register = template.Library()


@register.inclusion_tag("play/_push.html", takes_context=True)
def push_control(context: Any, ios_hint: bool = False) -> dict[str, Any]:
    """Rendered (hidden: push.js shows it where the browser can subscribe) only for a
    signed-in user on a server with VAPID keys; ``ios_hint`` adds the Home Screen note."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return {
        "shown": bool(user and user.is_authenticated) and push_selectors.push_on(),
        "ios_hint": ios_hint,
    }
