"""The notification room's writes: the worker's bookkeeping (the reminder due at 80 % of
a turn, written by ``fanout``), as services.

``games.services`` calls into this room (webhook secrets; confirmation mails), so
the room's own writes are here, below it: in ``games.services`` they would close a
circle (services -> fanout -> services). This module imports only the models.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from games.models import Game, MailNotice, PushDelivery, PushSubscription, TurnReminder

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


def push_deliveries_add(
    *,
    game: Game,
    turn: str,
    kind: str,
    urgent: bool,
    messages: dict[int, JSON],
    at: dict[int, datetime] | None = None,
) -> list[int]:
    """One pending push per subscription id in ``messages`` for (game, turn, kind), sent
    from ``at[id]`` (default now: quiet hours put it later); those already written (the
    notification handled twice) are not written again. The new ids."""
    now = timezone.now()
    at = at or {}
    known = set(
        PushDelivery.objects.filter(
            game=game, turn=turn, kind=kind, subscription_id__in=list(messages)
        ).values_list("subscription_id", flat=True)
    )
    rows = [
        PushDelivery(
            subscription_id=sub,
            game=game,
            turn=turn,
            kind=kind,
            message=message,
            urgent=urgent,
            next_try=at.get(sub, now),
            held=at.get(sub, now) > now,
        )
        for sub, message in messages.items()
        if sub not in known
    ]
    PushDelivery.objects.bulk_create(rows)  # the one follower writes them: no race
    return [row.pk for row in rows]


def push_delivery_done(*, delivery: PushDelivery, tries: int, sent: bool) -> None:
    """A push delivered (its device's ``last_success`` now) or given up: never sent again."""
    delivery.tries = tries
    delivery.status = PushDelivery.Status.SENT if sent else PushDelivery.Status.FAILED
    delivery.save(update_fields=["tries", "status"])
    if sent:
        PushSubscription.objects.filter(pk=delivery.subscription_id).update(
            last_success=timezone.now()
        )


def push_delivery_skipped(*, delivery: PushDelivery) -> None:
    """A push not to send: its turn is over, or a newer one of its game replaces it."""
    delivery.status = PushDelivery.Status.SKIPPED
    delivery.save(update_fields=["status"])


def mail_notices_add(
    *, game: Game, turn: str, kind: str, notices: dict[Any, tuple[JSON, datetime]]
) -> list[Any]:
    """One pending mail per user id in ``notices`` (``{user: (body, due)}``) for (game, turn,
    kind); those already written are not written again. The users written for."""
    known = set(
        MailNotice.objects.filter(
            game=game, turn=turn, kind=kind, user_id__in=list(notices)
        ).values_list("user_id", flat=True)
    )
    now = timezone.now()
    rows = [
        MailNotice(
            user_id=user, game=game, turn=turn, kind=kind, data=data, due=due, held=due > now
        )
        for user, (data, due) in notices.items()
        if user not in known
    ]
    MailNotice.objects.bulk_create(rows)  # the one follower writes them: no race
    return [row.user_id for row in rows]


def mail_notices_settle(
    *, sent: list[int], skipped: list[int], later: list[int], at: datetime | None, now: datetime
) -> None:
    """The mail sweep's verdict on a user's due notices: mailed, dropped, or due at ``at``."""
    MailNotice.objects.filter(pk__in=sent).update(status=MailNotice.Status.SENT, sent_at=now)
    MailNotice.objects.filter(pk__in=skipped).update(status=MailNotice.Status.SKIPPED)
    if later and at is not None:
        MailNotice.objects.filter(pk__in=later).update(due=at)


def push_delivery_later(*, delivery: PushDelivery, tries: int, at: datetime) -> None:
    """A push the service refused for now (429, 5xx, unreachable): tried again at ``at``."""
    delivery.tries, delivery.next_try = tries, at
    delivery.save(update_fields=["tries", "next_try"])


def push_subscription_gone(*, subscription: PushSubscription) -> None:
    """The push service says the device unsubscribed (404/410; 403 from Apple's)."""
    subscription.delete()
