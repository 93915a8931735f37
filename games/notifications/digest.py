"""Notification e-mails: the ``MailNotice`` rows the follower wrote, sent when due.

Per user, under a lock on the user's row (two workers never mail one user at
once), the due notices are read; a notice held for later (quiet hours) counts
only if it is the latest of its game (by due time, then by writing): held
notices collapse, one per game; a "your turn" or a
reminder whose turn is over is skipped; the rest are mailed. "Your turn"
goes out as a digest -- one mail listing every game waiting for the player
(``selectors.programs.turns``) -- at most once an hour: within the hour the
notices wait (their ``due`` moved to the hour's end). The rows' status is
written in the same transaction as the mails are handed to the outbox after
it commits, so a notice is mailed once: a task run twice finds it sent.
docs/notifications.md.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games import outbox
from games.models import MailNotice, NotificationSettings
from games.selectors import programs

from . import prefs, services, stale
from .mail import digest_text, email_text, language_of

log = logging.getLogger(__name__)


def every() -> timedelta:
    """The least time between two "your turn" mails to one player."""
    return timedelta(seconds=float(getattr(settings, "PABLO_DIGEST_SECONDS", 3600)))


def enqueue(user_ids: list[Any]) -> None:
    """A hint: mail these users' due notices now (the sweep catches a lost one)."""
    if not user_ids:
        return
    try:
        outbox.send("games.send_mail", args=([str(u) for u in user_ids],))
    except Exception:
        log.warning("mail of %s users not enqueued; the sweep sends it", len(user_ids))


def sweep(*, limit: int = 500) -> int:
    """Mail every user who has due notices (beat); how many mails."""
    users = list(
        MailNotice.objects.filter(status=MailNotice.Status.PENDING, due__lte=timezone.now())
        .values_list("user_id", flat=True)
        .distinct()[:limit]
    )
    return sum(send_user(u) for u in users)


def send_user(user_id: Any) -> int:
    """Mail one user's due notices; how many mails (0: none due, or another worker has
    the user)."""
    now = timezone.now()
    with transaction.atomic():
        user_model = get_user_model()
        user = user_model.objects.select_for_update(skip_locked=True).filter(pk=user_id).first()
        if user is None:
            return 0
        rows = list(
            MailNotice.objects.filter(user=user, status=MailNotice.Status.PENDING, due__lte=now)
            .select_related("game")
            .order_by("due", "pk")
        )
        if not rows:
            return 0
        settings_row = NotificationSettings.objects.filter(user=user).first()
        newest: dict[Any, MailNotice] = {}
        for row in rows:
            newest[row.game_id] = row
        # a held notice collapses into its game's latest; one written for now stands
        skipped = [r.pk for r in rows if r.held and newest[r.game_id] is not r]
        keep = []
        for row in rows:
            if row.pk in skipped:
                continue
            if (
                not user.email
                or not prefs.enabled(settings_row, row.kind, "email")
                or stale.turn_over(row.game, row.turn, row.kind, user.pk)
            ):
                skipped.append(row.pk)
            else:
                keep.append(row)
        language = language_of(user)
        mails = [email_text(r.data, language) for r in keep if r.kind != "your_turn"]
        sent = [r.pk for r in keep if r.kind != "your_turn"]
        turns = [r for r in keep if r.kind == "your_turn"]
        later: list[int] = []
        at: datetime | None = None
        if turns:
            last = MailNotice.objects.filter(
                user=user, kind="your_turn", status=MailNotice.Status.SENT
            ).aggregate(last=Max("sent_at"))["last"]
            if last is not None and now < last + every():
                later, at = [r.pk for r in turns], last + every()
            else:
                mails.append(_digest(user, turns, language))
                sent += [r.pk for r in turns]
        services.mail_notices_settle(sent=sent, skipped=skipped, later=later, at=at, now=now)
        address = user.email

        def hand_over() -> None:
            for subject, text in mails:
                try:
                    outbox.send("games.deliver_email", args=(address, subject, text))
                except Exception:
                    log.warning("a notification mail to user %s not enqueued", user_id)

        transaction.on_commit(hand_over)
    return len(mails)


def _digest(user: Any, turns: list[MailNotice], language: str) -> tuple[str, str]:
    """The "your turn" mail: the one game's own mail, or the list of every game waiting."""
    waiting = programs.turns(user=user)
    known = {w["game"] for w in waiting}
    for row in turns:  # a game the rules wait for although the turn list missed it
        if str(row.game_id) not in known:
            waiting.append(
                {"game": str(row.game_id), "ruleset": row.game.ruleset, "deadline": None}
            )
    if len(waiting) == 1 and len(turns) == 1 and waiting[0]["game"] == str(turns[0].game_id):
        return email_text(turns[0].data, language)
    return digest_text(waiting, language)
