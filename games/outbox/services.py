"""The outbox's writes: its rows, messages the broker refused or claimed ones (exactly once).

``games.outbox`` reads them and talks to the broker; these are the only writes of
an ``OutboxMessage``. They import only the models.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from games.models import OutboxMessage

JSON = dict[str, Any]


def outbox_message_store(
    *,
    task: str,
    args: Any,
    kwargs: Any,
    options: JSON,
    error: Any = "",
    claim: bool = False,
) -> OutboxMessage:
    """Keep a message for ``outbox.flush`` (or for its task to claim)."""
    return OutboxMessage.objects.create(
        task=task,
        args=list(args or ()),
        kwargs=dict(kwargs or {}),
        options=options,
        last_error=str(error)[:300],
        claim=claim,
    )


def outbox_messages_published(*, pks: Sequence[int]) -> None:
    """Claimed messages just published: republished only if unclaimed after the grace."""
    OutboxMessage.objects.filter(pk__in=pks).update(published_at=timezone.now())


def outbox_message_claim(*, outbox_id: Any) -> bool:
    """The task's claim of its message (in the task's transaction): True if it was there."""
    return bool(OutboxMessage.objects.filter(pk=outbox_id).delete()[0] > 0)


def outbox_message_refused(*, message: OutboxMessage, error: Any) -> None:
    """The broker refused the message again: count it and keep the reason."""
    OutboxMessage.objects.filter(pk=message.pk).update(
        attempts=message.attempts + 1, last_error=str(error)[:300]
    )


def outbox_messages_done(*, pks: Sequence[int]) -> None:
    """Forget messages published by ``flush`` (unclaimed ones) or dropped."""
    OutboxMessage.objects.filter(pk__in=pks).delete()
