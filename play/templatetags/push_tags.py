"""``{% push_control %}``: the "Notify me on this device" control (lobby and table)."""

from __future__ import annotations

from typing import Any

from django import template

from games.notifications import devices as push_selectors

register = template.Library()


def _shown(context: Any) -> bool:
    user = getattr(context.get("request"), "user", None)
    return bool(user and user.is_authenticated) and push_selectors.push_on()


@register.inclusion_tag("play/_push.html", takes_context=True)
def push_control(context: Any) -> dict[str, Any]:
    """Rendered (hidden: push.js shows it where the browser can subscribe) only for a
    signed-in user on a server with VAPID keys."""
    return {"shown": _shown(context), "part": "control"}


@register.inclusion_tag("play/_push.html", takes_context=True)
def ios_push_hint(context: Any) -> dict[str, Any]:
    """The table's note for iOS Safari outside a Home Screen app (push.js shows it once)."""
    return {"shown": _shown(context), "part": "ios_hint"}


@register.inclusion_tag("play/_devices.html", takes_context=True)
def push_devices(context: Any) -> dict[str, Any]:
    """The account page's devices that get push, each with Remove."""
    user = context["request"].user
    return {
        "devices": push_selectors.push_devices(user=user),
        "push_on": push_selectors.push_on(),
        "csrf_token": context.get("csrf_token"),
    }
