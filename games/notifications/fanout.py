"""Notifications: "your turn", "80 % of your time has passed", "the game ended".

The ``notifications`` follower of the log (``followers``) calls ``notify_game``
for each game whose newest turn or end it reads and where anyone listens.

``notify_game`` checks the turn is still current, remembers the reminder due at
80 % of the turn in a ``TurnReminder`` row (sent by the reminder sweep, beat;
written by this room's ``services``), and fans out one
delivery task per channel and user: an e-mail (Django's e-mail framework) and
a webhook (an HTTP POST of a JSON body signed with HMAC-SHA256 under the
user's secret, header ``X-Pablo-Signature: sha256=<hex>``). Deliveries are
retried with exponential backoff; a failing or slow receiver only ever
delays its own delivery task. Users turn each channel off through
``/api/me/notifications/`` (see ``api``).
"""

from __future__ import annotations

import hmac
import logging
import uuid
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models.functions import Now
from django.utils import timezone, translation
from django.utils.translation import gettext

from games import outbox, rules, store
from games.models import Game, NotificationSettings, PushSubscription, Seat, TurnReminder

from . import digest, prefs, push, quiet, services
from .mail import (
    GAME_ABORTED,
    GAME_FINISHED,
    KINDS,
    TURN_REMINDER,
    YOUR_TURN,
    language_of,
)
from .webhooks import canonical, post_webhook

__all__ = ["GAME_ABORTED", "GAME_FINISHED", "KINDS", "TURN_REMINDER", "YOUR_TURN"]

log = logging.getLogger(__name__)


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


# --------------------------------------------------------------------------- fan-out


def listening(game_ids: list[Any]) -> set[Any]:
    """The games among ``game_ids`` where any player has a notification channel on."""
    seats = Seat.objects.filter(game_id__in=game_ids).listening()
    return set(seats.values_list("game_id", flat=True))


def notify_game(
    *,
    game_id: Any,
    version: int,
    kind: str,
    turn_key: str | None = None,
    deadline: str | None = None,
    seats: list[int] | None = None,
) -> int:
    """Send ``kind`` to the players concerned; returns how many deliveries were enqueued."""
    game = Game.objects.filter(id=game_id).first()
    if game is None:
        return 0
    remind_at = None
    if kind in (YOUR_TURN, TURN_REMINDER):
        if game.status != Game.Status.ACTIVE or game.turn_key != turn_key:
            return 0  # the game moved on: a newer append notified (or will)
        if kind == YOUR_TURN:
            remind_at = _remember_reminder(game, turn_key or "", seats or [], deadline)
    else:
        seats = list(range(game.seats))
    payload = {
        "game_id": str(game.id),
        "ruleset": game.ruleset,
        "event": kind,
        "deadline": deadline,
        "version": version,
    }
    if kind in (GAME_FINISHED, GAME_ABORTED):
        payload["result"] = game.result
    sent = _fan_out(game, seats or [], payload)
    if kind == YOUR_TURN and remind_at is not None:
        # Quiet hours may move some players' reminder (before they begin, or to their
        # end): written now, after "your turn"; the reminder sweep finds them written.
        early = {**payload, "event": TURN_REMINDER}
        sent += _fan_out(game, seats or [], early, at=remind_at, shifted_only=True)
    return sent


def _remember_reminder(
    game: Game, turn_key: str, seats: list[int], deadline: str | None
) -> datetime | None:
    """Write the turn's reminder row; when it is due (None: no reminder this turn)."""
    due = store.parse_deadline(deadline)
    if due is None:
        return None
    fraction = float(_setting("PABLO_REMINDER_FRACTION", 0.8))
    remind_at = due - timedelta(seconds=game.turn_timeout * (1 - fraction))
    if remind_at <= timezone.now():
        return None
    services.turn_reminder_set(
        game=game, turn_key=turn_key, seats=seats, deadline=due, remind_at=remind_at
    )
    return remind_at


def send_due_reminders(*, limit: int = 200) -> int:
    """The reminder sweep (beat): send the reminders that are due; returns how many turns."""
    sent = 0
    with transaction.atomic():
        query = TurnReminder.objects.filter(remind_at__lte=Now()).select_related("game")
        query = query.order_by("remind_at").select_for_update(skip_locked=True, of=("self",))
        due = list(query[:limit])
        now = timezone.now()
        for reminder in due:
            game = reminder.game
            if (
                game.status == Game.Status.ACTIVE
                and game.turn_key == reminder.turn_key
                and game.deadline is not None
                and game.deadline > now
            ):
                seats = _still_to_act(game, list(reminder.seats))
                payload = {
                    "game_id": str(game.id),
                    "ruleset": game.ruleset,
                    "event": TURN_REMINDER,
                    "deadline": rules.iso(game.deadline),
                    "version": game.version,
                }
                if seats:
                    _fan_out(game, seats, payload)
                    sent += 1
            services.turn_reminder_done(reminder=reminder)
    return sent


def _still_to_act(game: Game, seats: list[int]) -> list[int]:
    """Those of ``seats`` the game still waits for (in a setup phase some have looked)."""
    state = store.state(game)
    actors = set(rules.get_ruleset(game.ruleset).actors(state))
    return [s for s in seats if s in actors]


def _when(user: Any, kind: str, at: datetime, now: datetime, deadline: datetime | None) -> datetime:
    """When a notification of ``kind`` due at ``at`` may reach ``user`` (quiet hours)."""
    settings_row = getattr(user, "notification_settings", None)
    if settings_row is None:
        return at
    return quiet.send_at(
        kind,
        at,
        hours=settings_row.quiet_hours,
        tz=settings_row.timezone,
        now=now,
        deadline=deadline,
        margin=timedelta(seconds=float(_setting("PABLO_QUIET_MARGIN", 900))),
    )


def _fan_out(
    game: Game,
    seats: list[int],
    payload: dict[str, Any],
    *,
    at: datetime | None = None,
    shifted_only: bool = False,
) -> int:
    """Write the notification ``payload`` for ``seats``, due at ``at`` (default now):
    a mail notice and a push per device (sent by their sweeps and hint tasks, quiet hours
    respected), a webhook task (programs: sent at once). ``shifted_only``: only for the
    players whose quiet hours move it (an early reminder, written with "your turn")."""
    now = timezone.now()
    at = at or now
    rows = list(
        Seat.objects.filter(game=game, seat__in=seats)
        .select_related("user", "user__notification_settings", "user__language")
        .order_by("seat")
    )
    kind = prefs.EVENT_KIND[payload["event"]]
    deadline = store.parse_deadline(payload.get("deadline"))
    when = {r.user_id: _when(r.user, kind, at, now, deadline) for r in rows}
    if shifted_only:
        rows = [r for r in rows if when[r.user_id] != at]
    jobs: list[tuple[str, tuple[Any, ...]]] = []
    mails: dict[Any, tuple[dict[str, Any], datetime]] = {}
    for row in rows:
        user = row.user
        settings_row = getattr(user, "notification_settings", None)
        body = {**payload, "seat": row.seat}
        if user.email and prefs.enabled(settings_row, kind, "email"):
            mails[user.pk] = (body, when[user.pk])
        if (
            not shifted_only
            and settings_row is not None
            and settings_row.webhook_url
            and prefs.enabled(settings_row, kind, "webhook")
        ):
            hook = {**body, "delivery": str(uuid.uuid4())}
            jobs.append(("games.deliver_webhook", (user.pk, canonical(hook))))
    turn = game.turn_key if kind in ("your_turn", "reminder") else "end"
    pushes = _pushes(game, rows, payload, turn, when)
    mailed = services.mail_notices_add(game=game, turn=turn, kind=kind, notices=mails)
    now_due = [u for u in mailed if mails[u][1] <= now]

    # The webhooks' messages commit with the follower's position (and are published
    # right after): a worker killed between the commit and the publish loses none.
    for task, args in jobs:
        outbox.keep(task, args=args)

    def send() -> None:
        push.enqueue(pushes)
        digest.enqueue(now_due)

    transaction.on_commit(send)
    return len(jobs) + len(pushes) + len(mailed)


def _pushes(
    game: Game, rows: list[Seat], payload: dict[str, Any], turn: str, when: dict[Any, datetime]
) -> list[int]:
    """Write the pushes of a notification (one ``PushDelivery`` per device, unique by
    game, turn and kind: a notification handled again adds none); their ids."""
    kind = payload["event"]
    users = [r.user_id for r in rows]
    if kind == YOUR_TURN:  # not to a player who has the table open
        users = [u for u in users if u not in push.looking(game.id, users)]
    result = payload.get("result")
    bodies = {
        r.user_id: {**payload, "place": push.place(result, r.seat), "seat": r.seat} for r in rows
    }
    return _push_to(game, users, turn, kind, bodies, when)


def _push_to(
    game: Game,
    users: list[Any],
    turn: str,
    kind: str,
    bodies: dict[Any, dict[str, Any]],
    when: dict[Any, datetime] | None = None,
) -> list[int]:
    """One pending push per device of ``users`` who have push on for ``kind``; their ids."""
    if push.keys() is None:
        return []
    subs = PushSubscription.objects.filter(user_id__in=users).select_related(
        "user__notification_settings", "user__language"
    )
    pkind = push.KIND[kind]
    wanted = [s for s in subs if _push_on(s.user, pkind)]
    when = when or {}
    return services.push_deliveries_add(
        game=game,
        turn=turn,
        kind=pkind,
        urgent=kind == YOUR_TURN,
        messages={s.pk: push.message(bodies[s.user_id], language_of(s.user)) for s in wanted},
        at={s.pk: when[s.user_id] for s in wanted if s.user_id in when},
    )


def notify_joined(*, game: Game, events: list[Any]) -> int:
    """A rematch offered (a game created as a finished one's rematch: to that game's other
    players) and a seat taken in a private game (to the players seated before: a join
    takes the lowest free seat): pushes and mails."""
    related = ("user", "user__notification_settings", "user__language")
    seated = {r.seat: r for r in Seat.objects.filter(game=game).select_related(*related)}
    payload = {"game_id": str(game.id), "ruleset": game.ruleset}
    count = 0
    for event in events:
        if event.type == "game_created" and game.rematch_of_id and 0 in seated:
            by = seated[0].user
            old = Seat.objects.filter(game_id=game.rematch_of_id).exclude(user=by)
            old = old.select_related(*related)
            count += _joined(game, list(old), "rematch", "rematch", {**payload, "by": by.username})
        elif event.type == "player_joined" and game.private:
            seat = event.data["seat"]
            before = [r for s, r in seated.items() if s < seat]  # seated before
            body = {**payload, "by": event.data["username"]}
            count += _joined(game, before, f"seat{seat}", "seat_taken", body)
    return count


def _joined(game: Game, rows: list[Seat], turn: str, kind: str, payload: dict[str, Any]) -> int:
    """The push, webhook and mail (``prefs.CHANNELS_OF``: a rematch only) of a rematch or
    a seat taken to the players of ``rows``. The webhook's body: ``event``, ``game_id``,
    ``ruleset``, ``by``, ``version`` and ``delivery``, with ``rematch_of`` (the finished
    game) for a rematch and ``seat`` (the receiver's) for a seat taken."""
    now = timezone.now()
    users = [r.user_id for r in rows]
    loaded = {r.user_id: r.user for r in rows}
    when = {u: _when(loaded[u], kind, now, now, None) for u in users}
    body = {**payload, "event": kind}
    ids = _push_to(game, users, turn, kind, dict.fromkeys(users, body), when)
    jobs = []
    for r in rows:
        settings_row = getattr(loaded[r.user_id], "notification_settings", None)
        if (
            settings_row is not None
            and settings_row.webhook_url
            and prefs.enabled(settings_row, kind, "webhook")
        ):
            where = (
                {"rematch_of": str(game.rematch_of_id)} if kind == "rematch" else {"seat": r.seat}
            )
            hook = {**body, **where, "version": game.version, "delivery": str(uuid.uuid4())}
            jobs.append(("games.deliver_webhook", (r.user_id, canonical(hook))))
    mails = {
        r.user_id: ({**body, "seat": r.seat}, when[r.user_id])
        for r in rows
        if loaded[r.user_id].email
        and prefs.enabled(getattr(loaded[r.user_id], "notification_settings", None), kind, "email")
    }
    mailed = services.mail_notices_add(game=game, turn=turn, kind=kind, notices=mails)
    now_due = [u for u in mailed if mails[u][1] <= now]

    def send() -> None:
        for task, args in jobs:
            try:
                outbox.send(task, args=args)  # webhooks: at once, quiet hours or not
            except Exception:
                log.warning("delivery %s for game %s not enqueued", task, game.id)
        push.enqueue(ids)
        digest.enqueue(now_due)

    transaction.on_commit(send)
    return len(jobs) + len(ids) + len(mailed)


def _push_on(user: Any, kind: str) -> bool:
    return prefs.enabled(getattr(user, "notification_settings", None), kind, "push")


def deliver_webhook(user_id: Any, body: str) -> int | None:
    """Post ``body`` to the user's webhook as it is registered now (None: turned off)."""
    prefs = NotificationSettings.objects.filter(user_id=user_id).first()
    if prefs is None or not prefs.webhook_enabled or not prefs.webhook_url:
        return None
    return post_webhook(prefs.webhook_url, prefs.webhook_secret, body)


# --------------------------------------------------------------------------- e-mail confirmation
# A new address gets one mail, with a link to confirm it; nothing else is sent
# to it until then. ``user.email`` is always a confirmed address (or empty):
# the address waiting for confirmation lives only in the signed link, so an
# address typed by someone else never receives anything but that one mail.
#
# A link is used once and only while it is the latest: its token names the
# address it confirms, the account's address when it was sent ("f") and a
# nonce kept in ``NotificationSettings.email_nonce``. Asking for another
# address replaces the nonce, clearing the address or confirming empties it,
# and any change of the account's address fails the "f" check: each kills
# every link sent before.

CONFIRM_SALT = "games.notifications.email-confirmation"
CONFIRM_DAYS = 3


def email_confirmation_link(user: Any, email: str, nonce: str) -> str:
    data = {"u": user.pk, "e": email, "f": user.email, "n": nonce}
    token = signing.dumps(data, salt=CONFIRM_SALT, compress=True)
    site = str(getattr(settings, "PABLO_SITE_URL", "http://localhost:8000")).rstrip("/")
    return f"{site}/accounts/email/{token}/"


def send_email_confirmation(user: Any, email: str, nonce: str) -> None:
    """Mail ``email`` a link that makes it ``user``'s address (after the commit, by the
    outbox); ``nonce`` is the one the caller just stored (``email_nonce``)."""
    link = email_confirmation_link(user, email, nonce)
    with translation.override(language_of(user)):
        subject = gettext("Confirm your e-mail address for Pablo")
        text = gettext(
            "Someone -- we hope you -- asked to receive the notifications of the Pablo player "
            "%(name)s at this address.\nTo confirm, open this link within "
            "%(days)s days and press the button:\n%(link)s\n\nIf it was not you, ignore "
            "this mail: nothing else will be sent to this address.\n"
        ) % {"name": repr(user.username), "days": CONFIRM_DAYS, "link": link}

    def send() -> None:
        try:
            outbox.send("games.deliver_email", args=(email, subject, text))
        except Exception:
            log.warning("e-mail confirmation for user %s not enqueued", user.pk)

    transaction.on_commit(send)


def read_email_confirmation(token: str, *, lock: bool = False) -> tuple[Any, str] | None:
    """(user, address) of a live confirmation link's token: valid, unexpired, the latest
    one sent and the account's address unchanged since; else None. ``lock``: the
    account's settings row stays locked to the transaction's end (two confirmations of
    one link take turns; the second finds it used)."""
    try:
        data = signing.loads(token, salt=CONFIRM_SALT, max_age=CONFIRM_DAYS * 86400)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in ("e", "f", "n")):
        return None
    rows = NotificationSettings.objects.select_related("user").filter(user_id=data.get("u"))
    prefs = (rows.select_for_update() if lock else rows).first()
    if prefs is None or not prefs.email_nonce or prefs.user.email != data["f"]:
        return None
    if not hmac.compare_digest(prefs.email_nonce, data["n"]):
        return None
    return prefs.user, data["e"]
