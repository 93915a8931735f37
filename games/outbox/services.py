"""The outbox's writes: its rows, the messages the broker refused.

``games.outbox`` reads them and talks to the broker; these are the only writes of
an ``OutboxMessage``. They import only the models.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.models import OutboxMessage

JSON = dict[str, Any]


def outbox_message_store(
    *,
    task: str,
    args: Any,
    kwargs: Any,
    options: JSON,
    error: Any = "",
) -> OutboxMessage:
    """Keep a message for ``outbox.flush``."""
    return OutboxMessage.objects.create(
        task=task,
        args=list(args or ()),
        kwargs=dict(kwargs or {}),
        options=options,
        last_error=str(error)[:300],
    )


def outbox_message_refused(*, message: OutboxMessage, error: Any) -> None:
    """The broker refused the message again: count it and keep the reason."""
    OutboxMessage.objects.filter(pk=message.pk).update(
        attempts=message.attempts + 1, last_error=str(error)[:300]
    )


def outbox_messages_done(*, pks: Sequence[int]) -> None:
    """Forget messages published by ``flush`` or dropped."""
    OutboxMessage.objects.filter(pk__in=pks).delete()
