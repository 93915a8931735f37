"""The notification room's writes: the worker's bookkeeping, as services.

Every other write is in ``games.services``. These are apart because
``games.services`` calls into this room (webhook secrets; confirmation mails)
while the modules that need these writes -- ``fanout`` (the reminder due at
80 % of a turn) and ``games.outbox`` (the rows of refused messages, every
one of them a notification or a delivery today) -- are called
by it: in ``games.services`` they would close a circle. This module imports
only the models, and nothing of the project imports it but those two.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from games.models import Game, OutboxMessage, TurnReminder

JSON = dict[str, Any]


def turn_reminder_set(
    *, game: Game, turn_key: str, seats: list[int], deadline: datetime, remind_at: datetime
) -> None:
    """Remember the reminder due at ``remind_at`` for turn ``turn_key`` (one per game: a
    newer turn's replaces it). The notification worker's, on "your turn"."""
    TurnReminder.objects.update_or_create(
        game=game,
        defaults={
            "turn_key": turn_key,
            "seats": seats,
            "deadline": deadline,
            "remind_at": remind_at,
        },
    )


def turn_reminder_done(*, reminder: TurnReminder) -> None:
    """Forget a reminder the sweep has handled (unless a newer turn replaced it meanwhile)."""
    TurnReminder.objects.filter(pk=reminder.pk, turn_key=reminder.turn_key).delete()


# --------------------------------------------------------------------------- the outbox
# The rows of ``games.outbox``: messages the broker refused.


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
