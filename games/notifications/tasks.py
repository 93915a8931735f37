"""Celery tasks of the notifications: thin; the work is in ``fanout``, ``mail``, ``webhooks``.

=================================  ===========================================
task                               what
=================================  ===========================================
``games.send_due_reminders``       beat: the 80 % reminders that are due
``games.deliver_webhook``          one signed POST, retried with backoff
``games.deliver_email``            one e-mail, retried with backoff
``games.deliver_push``             one Web Push (``push.deliver``), once
``games.deliver_pushes``           a batch of them (a burst: ``push.BATCH`` a task)
``games.push_sweep``               beat: the pushes whose task was lost
``games.send_mail``                the due notification mails of some users
``games.mail_sweep``               beat: every user's due notification mails
=================================  ===========================================

Every task may run twice (acks late, redelivery): a webhook body carries a ``delivery`` id a
receiver can deduplicate on.
"""

from __future__ import annotations

import logging
import random
import time
from typing import Any

from celery import shared_task
from django.conf import settings

from . import digest, fanout, mail, push, slow, webhooks

log = logging.getLogger(__name__)


def _backoff(retries: int) -> float:
    """Exponential backoff with jitter: base, 2 base, 4 base, ... capped at 30 minutes."""
    base = float(getattr(settings, "PABLO_WEBHOOK_BACKOFF", 10.0))
    delay = min(base * 2**retries, 1800.0)
    return delay * random.uniform(0.8, 1.2)


@shared_task(name="games.send_due_reminders", ignore_result=True)
def send_due_reminders() -> int:
    return fanout.send_due_reminders()


@shared_task(
    bind=True,
    name="games.deliver_webhook",
    ignore_result=True,
    max_retries=None,  # bounded below by PABLO_WEBHOOK_RETRIES, read at run time
)
def deliver_webhook(self: Any, user_id: Any, body: str) -> int | None:
    destination = slow.webhook_key(user_id)
    left = slow.wait_for(destination)
    started = time.monotonic()
    try:
        if left > 0:  # it kept a delivery waiting lately: a try, not attempted (``slow``)
            raise webhooks.WebhookFailed(f"slow, left alone {left:.0f} s")
        try:
            return fanout.deliver_webhook(user_id, body)
        finally:
            slow.attempted(destination, time.monotonic() - started)
    except webhooks.WebhookFailed as exc:
        limit = int(getattr(settings, "PABLO_WEBHOOK_RETRIES", 6))
        if self.request.retries >= limit:
            log.warning("webhook of user %s given up after %s tries: %s", user_id, limit + 1, exc)
            return None
        log.info("webhook of user %s failed (%s); retrying", user_id, exc)
        countdown = max(_backoff(self.request.retries), slow.wait_for(destination))
        raise self.retry(exc=exc, countdown=countdown) from exc


@shared_task(bind=True, name="games.deliver_email", ignore_result=True, max_retries=None)
def deliver_email(self: Any, to: str, subject: str, text: str) -> None:
    try:
        mail.deliver_email(to, subject, text)
    except Exception as exc:
        limit = int(getattr(settings, "PABLO_WEBHOOK_RETRIES", 6))
        if self.request.retries >= limit:
            log.warning("e-mail to user given up after %s tries: %s", limit + 1, exc)
            return
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc


@shared_task(name="games.deliver_push", ignore_result=True)
def deliver_push(delivery_id: int) -> str | None:
    return push.deliver(delivery_id)


@shared_task(name="games.deliver_pushes", ignore_result=True)
def deliver_pushes(delivery_ids: list[int]) -> int:
    """Several pushes, each once (``push.deliver``): one task for a burst's batch."""
    return sum(push.deliver(delivery_id) == "sent" for delivery_id in delivery_ids)


@shared_task(name="games.push_sweep", ignore_result=True)
def push_sweep() -> int:
    return push.sweep()


@shared_task(name="games.send_mail", ignore_result=True)
def send_mail(user_ids: list[Any]) -> int:
    return sum(digest.send_user(u) for u in user_ids)


@shared_task(name="games.mail_sweep", ignore_result=True)
def mail_sweep() -> int:
    return digest.sweep()
