"""The notification room's writes: the worker's bookkeeping (the reminder due at 80 % of
a turn, written by ``fanout``), as services.

``games.services`` calls into this room (webhook secrets; confirmation mails), so
the room's own writes are here, below it: in ``games.services`` they would close a
circle (services -> fanout -> services). This module imports only the models.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.models import Game, TurnReminder

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
