"""A user's notification settings: e-mail and webhook (the sending: games/notifications/)."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.timezone import now

from games import errors
from games.models import NotificationSettings, PushDelivery, PushSubscription
from games.notifications import fanout, push, webhooks
from games.notifications import prefs as notification_prefs
from games.selectors import account_cache

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
    push_enabled: bool | None = None,
    timezone: str | None = None,
    quiet_hours: JSON | None = None,
    clear_quiet_hours: bool = False,
    kinds: dict[str, dict[str, bool]] | None = None,
) -> NotificationSettings:
    """Change the user's e-mail address, turn channels on and off, set the timezone or
    the quiet hours (None: unchanged; ``clear_quiet_hours``: none), or switch kinds of
    notification per channel (``kinds``: only those named change)."""
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
    changed = {
        "email_enabled": email_enabled,
        "webhook_enabled": webhook_enabled,
        "push_enabled": push_enabled,
        "timezone": timezone,
        "quiet_hours": quiet_hours,
    }
    fields = [name for name, value in changed.items() if value is not None]
    for name in fields:
        setattr(prefs, name, changed[name])
    if clear_quiet_hours:
        prefs.quiet_hours = None
        fields.append("quiet_hours")
    if kinds:
        prefs.kinds = notification_prefs.merged(prefs.kinds, kinds)
        fields.append("kinds")
    if fields:
        prefs.save(update_fields=[*fields, "updated_at"])
    if timezone is not None:  # the pages' times follow at once, on every device
        account_cache.changed(user=user, name="timezone")
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


@transaction.atomic
def push_subscribe(*, user: Any, endpoint: str, p256dh: str, auth: str) -> tuple[Any, bool]:
    """Subscribe a device (or update the keys of its endpoint): (subscription, created).

    Unique by endpoint: a browser that subscribes again updates its row (even one
    another account made on that browser: the endpoint is the device's, and it then
    counts as the new account's, and the pushes still waiting for the former account
    are skipped, never sent to the device now someone else's, and its ``created`` is
    now: no date of the former account's shows). At most
    ``push.MAX_DEVICES`` per user (``Conflict`` too_many_devices).

    The user's row is locked first, then the endpoint's: requests sent at once for one
    endpoint (by one account or several) make one row, the others update it."""
    endpoint = push.canonical_endpoint(endpoint)
    # one at a time per user (the user's model, not type(user): a page's user is a lazy object)
    users = get_user_model().objects.select_for_update()
    list(users.filter(pk=user.pk).values("pk"))
    found = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    if found is None:
        _check_room(user)
        try:
            with transaction.atomic():  # a savepoint: another account may insert it first
                row = PushSubscription.objects.create(
                    user=user, endpoint=endpoint, p256dh=p256dh, auth=auth
                )
            return row, True
        except IntegrityError:
            found = PushSubscription.objects.select_for_update().get(endpoint=endpoint)
    if found.user_id != user.pk:  # now this account's device: nothing of the former's shows
        _check_room(user)
        PushDelivery.objects.filter(subscription=found, status=PushDelivery.Status.PENDING).update(
            status=PushDelivery.Status.SKIPPED
        )
        found.last_success, found.created = None, now()
    found.user, found.p256dh, found.auth = user, p256dh, auth
    found.save(update_fields=["user", "p256dh", "auth", "last_success", "created"])
    return found, False


def _check_room(user: Any) -> None:
    if PushSubscription.objects.filter(user=user).count() >= push.MAX_DEVICES:
        raise errors.Conflict(
            "You have %(most)s devices already: remove one first.",
            "too_many_devices",
            most=push.MAX_DEVICES,
        )


def push_unsubscribe(*, user: Any, subscription_id: int) -> None:
    """Remove one of the user's devices (``NotFound`` for another's or an unknown id)."""
    deleted, _ = PushSubscription.objects.filter(user=user, pk=subscription_id).delete()
    if not deleted:
        raise errors.NotFound("No such device.")
