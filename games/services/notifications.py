"""A user's notification settings: e-mail and webhook (the sending: games/notifications/)."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.db import transaction

from games.models import NotificationSettings
from games.notifications import fanout, webhooks

JSON = dict[str, Any]

log = logging.getLogger(__name__)


@transaction.atomic
def email_confirmations_forget(user: Any) -> None:
    """Kill every confirmation link ``user`` was sent (the address was confirmed or
    cleared): ``games.notifications.fanout`` accepts only the latest nonce."""
    NotificationSettings.objects.filter(user=user).update(email_nonce="")


@transaction.atomic
def notification_settings_update(
    *,
    user: Any,
    email: str | None = None,
    email_enabled: bool | None = None,
    webhook_enabled: bool | None = None,
) -> NotificationSettings:
    """Change the user's e-mail address or turn channels on and off (None: unchanged)."""
    prefs, _ = NotificationSettings.objects.get_or_create(user=user)
    if email is not None:
        # A new address is not used yet: it is mailed a confirmation link and
        # becomes user.email once confirmed (email_confirm). Blank removes it. Either
        # way the links sent before are dead.
        if email and email != user.email:
            prefs.email_nonce = secrets.token_urlsafe(16)  # the links sent before die
            prefs.save(update_fields=["email_nonce", "updated_at"])
            fanout.send_email_confirmation(user, email, prefs.email_nonce)
        else:
            if not email and user.email:
                user.email = ""
                user.save(update_fields=["email"])
            email_confirmations_forget(user)
    changed = {"email_enabled": email_enabled, "webhook_enabled": webhook_enabled}
    fields = [name for name, value in changed.items() if value is not None]
    for name in fields:
        setattr(prefs, name, changed[name])
    if fields:
        prefs.save(update_fields=[*fields, "updated_at"])
    return prefs


@transaction.atomic
def webhook_register(*, user: Any, url: str) -> NotificationSettings:
    """Register (or replace) the user's webhook, with a fresh signing secret."""
    prefs, _ = NotificationSettings.objects.get_or_create(user=user)
    prefs.webhook_url = url
    prefs.webhook_secret = webhooks.new_secret()
    prefs.webhook_enabled = True
    prefs.save(update_fields=["webhook_url", "webhook_secret", "webhook_enabled", "updated_at"])
    return prefs


def webhook_remove(*, user: Any) -> None:
    """Forget the user's webhook (its URL and secret)."""
    NotificationSettings.objects.filter(user=user).update(webhook_url="", webhook_secret="")
