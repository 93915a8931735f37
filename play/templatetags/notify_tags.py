"""``{% notification_settings %}``: the account page's notification settings form
(play/notify_settings.py), for the signed-in user."""

from __future__ import annotations

from typing import Any

from django import template

from play.notify_settings import form_for

register = template.Library()


@register.inclusion_tag("play/_notify_settings.html", takes_context=True)
def notification_settings(context: Any) -> dict[str, Any]:
    request = context["request"]
    return {"form": form_for(request.user), "csrf_token": context.get("csrf_token")}
