"""Notifications: "your turn", "80 % of your time has passed", "the game ended".

Every committed append sends ``games.signals.events_appended``; the receiver
here looks at the new events only and never writes to the database, so a
game action costs at most one small query and one broker message:

* the last ``deadline_set`` of the batch names the seats now on turn: a near
  deadline gets its fast-path ETA task (``games.deadlines``) and, if anyone
  in the game listens, a ``notify_game`` task is enqueued;
* ``game_finished`` / ``game_aborted`` notify every seat.

The ``notify_game`` task (a Celery worker, never the web request) checks the
turn is still current, remembers the reminder due at 80 % of the turn in a
``TurnReminder`` row (sent by the reminder sweep, beat), and fans out one
delivery task per channel and user: an e-mail (Django's e-mail framework) and
a webhook (an HTTP POST of a JSON body signed with HMAC-SHA256 under the
user's secret, header ``X-Pablo-Signature: sha256=<hex>``). Deliveries are
retried with exponential backoff; a failing or slow receiver only ever
delays its own delivery task. Users turn each channel off through
``/api/me/notifications/`` (see ``games.notification_apis``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import ipaddress
import json
import logging
import secrets
import socket
import ssl
import urllib.parse
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Now
from django.dispatch import receiver
from django.utils import timezone

from . import deadlines
from .models import Game, NotificationSettings, Seat, TurnReminder
from .rules import engine
from .signals import events_appended

log = logging.getLogger(__name__)

YOUR_TURN = "your_turn"
TURN_REMINDER = "turn_reminder"
GAME_FINISHED = "game_finished"
GAME_ABORTED = "game_aborted"
KINDS = (YOUR_TURN, TURN_REMINDER, GAME_FINISHED, GAME_ABORTED)

SIGNATURE_HEADER = "X-Pablo-Signature"


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


# --------------------------------------------------------------------------- the signal


@receiver(events_appended, dispatch_uid="games.notifications.on_events_appended")
def on_events_appended(sender: Any, game_id: Any, version: int, events: Any, **kwargs: Any) -> None:
    """After every committed append: fast path for the new deadline, notifications."""
    try:
        _on_events(game_id, version, list(events))
    except Exception:  # never let notifications touch the game action
        log.exception("notifications for game %s v%s failed", game_id, version)


def _on_events(game_id: Any, version: int, events: list[Any]) -> None:
    turn = None
    ending = None
    for event in events:
        if event.type == "deadline_set":
            turn = event
        elif event.type in (GAME_FINISHED, GAME_ABORTED):
            ending = event
    if ending is not None:
        turn = None
    if turn is not None:
        deadline = deadlines.parse_deadline(turn.data.get("deadline"))
        if deadline is not None:
            deadlines.schedule_fast_path(
                game_id=game_id, turn_key=turn.data["key"], deadline=deadline
            )
    if turn is None and ending is None:
        return
    if ending is not None:
        kwargs = {"kind": ending.type, "turn_key": None, "deadline": None, "seats": None}
    else:
        kwargs = {
            "kind": YOUR_TURN,
            "turn_key": turn.data["key"],
            "deadline": turn.data.get("deadline"),
            "seats": list(turn.data.get("seats") or []),
        }
    job = {"game_id": str(game_id), "version": version, **kwargs}
    bucket = _bucket.get()
    if bucket is not None:
        bucket.append(job)
    elif anyone_listens(game_id):
        _enqueue(job)


def _enqueue(job: dict[str, Any]) -> None:
    from .tasks import notify_game

    try:
        notify_game.apply_async(kwargs=job, retry=False)
    except Exception:
        log.warning("notification for game %s v%s not enqueued", job["game_id"], job["version"])


#: Set by ``batched()``: notifications collected instead of sent one by one.
_bucket: ContextVar[list[dict[str, Any]] | None] = ContextVar("notifications", default=None)


@contextmanager
def batched() -> Iterator[None]:
    """Collect the notifications of many appends and look up their listeners at once.

    The deadline sweep wraps each batch in it: one query per batch instead of
    one per game.
    """
    bucket: list[dict[str, Any]] = []
    token = _bucket.set(bucket)
    try:
        yield
    finally:
        _bucket.reset(token)
        if bucket:
            try:
                games = {job["game_id"] for job in bucket}
                seats = Seat.objects.filter(game_id__in=games).filter(_listening())
                listening = {str(g) for g in seats.values_list("game_id", flat=True)}
                for job in bucket:
                    if job["game_id"] in listening:
                        _enqueue(job)
            except Exception:
                log.exception("notifications of a batch of %s appends failed", len(bucket))


def _listening() -> Q:
    """Users with at least one channel that would deliver (no settings row = e-mail on)."""
    prefix = "user__notification_settings__"
    has_email = ~Q(user__email="")
    return (
        Q(**{f"{prefix}isnull": True}) & has_email
        | Q(**{f"{prefix}email_enabled": True}) & has_email
        | Q(**{f"{prefix}webhook_enabled": True}) & ~Q(**{f"{prefix}webhook_url": ""})
    )


def anyone_listens(game_id: Any) -> bool:
    return Seat.objects.filter(game_id=game_id).filter(_listening()).exists()


# --------------------------------------------------------------------------- fan-out (worker)


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
    if kind in (YOUR_TURN, TURN_REMINDER):
        if game.status != Game.Status.ACTIVE or game.turn_key != turn_key:
            return 0  # the game moved on: a newer append notified (or will)
        if kind == YOUR_TURN:
            _remember_reminder(game, turn_key or "", seats or [], deadline)
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
    return _fan_out(game, seats or [], payload)


def _remember_reminder(game: Game, turn_key: str, seats: list[int], deadline: str | None) -> None:
    due = deadlines.parse_deadline(deadline)
    if due is None:
        return
    fraction = float(_setting("PABLO_REMINDER_FRACTION", 0.8))
    remind_at = due - timedelta(seconds=game.turn_timeout * (1 - fraction))
    if remind_at <= timezone.now():
        return
    TurnReminder.objects.update_or_create(
        game=game,
        defaults={"turn_key": turn_key, "seats": seats, "deadline": due, "remind_at": remind_at},
    )


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
                    "deadline": engine.iso(game.deadline),
                    "version": game.version,
                }
                if seats:
                    _fan_out(game, seats, payload)
                    sent += 1
            TurnReminder.objects.filter(pk=reminder.pk, turn_key=reminder.turn_key).delete()
    return sent


def _still_to_act(game: Game, seats: list[int]) -> list[int]:
    """Those of ``seats`` the game still waits for (in a setup phase some have looked)."""
    from . import selectors

    state = selectors.game_state(game=game)
    actors = set(engine.get_ruleset(game.ruleset).actors(state))
    return [s for s in seats if s in actors]


def _fan_out(game: Game, seats: list[int], payload: dict[str, Any]) -> int:
    """Enqueue one delivery per seat and channel, after the current transaction commits."""
    from .tasks import deliver_email, deliver_webhook

    rows = (
        Seat.objects.filter(game=game, seat__in=seats)
        .select_related("user", "user__notification_settings")
        .order_by("seat")
    )
    jobs: list[tuple[Any, tuple[Any, ...]]] = []
    for row in rows:
        user = row.user
        prefs = getattr(user, "notification_settings", None)
        body = {**payload, "seat": row.seat, "delivery": str(uuid.uuid4())}
        email_on = prefs.email_enabled if prefs is not None else True
        if email_on and user.email:
            subject, text = email_text(body)
            jobs.append((deliver_email, (user.email, subject, text)))
        if prefs is not None and prefs.webhook_enabled and prefs.webhook_url:
            jobs.append((deliver_webhook, (user.pk, canonical(body))))

    def enqueue() -> None:
        for task, args in jobs:
            try:
                task.apply_async(args, retry=False)
            except Exception:
                log.warning("delivery %s for game %s not enqueued", task.name, game.id)

    transaction.on_commit(enqueue)
    return len(jobs)


# --------------------------------------------------------------------------- channels


def canonical(body: dict[str, Any]) -> str:
    """The exact text sent (and signed): compact JSON with sorted keys."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"))


def sign(secret: str, body: bytes) -> str:
    """The ``X-Pablo-Signature`` header value for ``body``."""
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def verify(secret: str, body: bytes, header: str) -> bool:
    """What a receiver does: recompute the signature and compare in constant time."""
    return hmac.compare_digest(sign(secret, body), header or "")


def new_secret() -> str:
    return secrets.token_hex(32)


class WebhookFailed(Exception):
    """The receiver could not be reached or answered 5xx/429: worth retrying."""


class WebhookRefused(Exception):
    """The URL may not be called from here (``PABLO_WEBHOOK_ALLOW_PRIVATE`` off)."""


def loggable(url: str) -> str:
    """``scheme://host[:port]`` of a webhook URL, for logs and errors.

    The path, query and credentials stay out: receivers such as chat webhooks
    carry their secret token in the path.
    """
    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return "<unparsable url>"
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


def resolve_destination(url: str) -> tuple[str, int, list[tuple[int, Any]]]:
    """Resolve the webhook's host once: its host, port and the addresses to connect to.

    Every address the name resolves to is checked (``check_destination``), and
    the delivery then connects to these very addresses: a second lookup at
    connect time could answer differently (DNS rebinding: a public address to
    the check, ``127.0.0.1`` to the connection). Returns ``(host, port,
    [(family, sockaddr), ...])``; raises ``WebhookRefused`` for a destination
    that may not be called and ``WebhookFailed`` (worth retrying) when the name
    does not resolve.
    """
    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname or ""
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise WebhookRefused(f"{loggable(url)}: {exc}") from exc
    if parts.scheme not in ("http", "https") or not host:
        raise WebhookRefused(f"{loggable(url)}: not an http(s) URL")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise WebhookFailed(f"{loggable(url)}: {exc}") from exc
    addresses: list[tuple[int, Any]] = []
    for family, _type, _proto, _name, sockaddr in infos:
        if (family, sockaddr) not in addresses:
            addresses.append((family, sockaddr))
    if not addresses:
        raise WebhookFailed(f"{loggable(url)}: no address")
    if not _setting("PABLO_WEBHOOK_ALLOW_PRIVATE", False):
        for _family, sockaddr in addresses:
            address = ipaddress.ip_address(sockaddr[0])
            if not address.is_global:
                raise WebhookRefused(f"{loggable(url)}: {address} is not a public address")
    return host, port, addresses


def check_destination(url: str) -> None:
    """Refuse loopback, private and link-local addresses unless the operator allows them.

    ``PABLO_WEBHOOK_ALLOW_PRIVATE`` follows ``DJANGO_DEBUG`` (on for local
    development and the tests' receivers); off, as on a public server, users
    cannot make the server POST into its own network. A host is refused if
    *any* of its addresses is not public. (``post_webhook`` does not call this:
    it uses ``resolve_destination`` and connects to the checked addresses.)
    """
    resolve_destination(url)


def _connect_pinned(addresses: list[tuple[int, Any]], timeout: float) -> socket.socket:
    """A TCP connection to the first of the (already checked) addresses that answers.

    The addresses are IP literals, so ``socket.create_connection`` does no
    lookup of its own.
    """
    error: OSError | None = None
    for _family, sockaddr in addresses:
        try:
            return socket.create_connection((sockaddr[0], sockaddr[1]), timeout)
        except OSError as exc:
            error = exc
    assert error is not None
    raise error


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to ``host`` (its ``Host`` header) made to pinned addresses."""

    def __init__(
        self, host: str, port: int, addresses: list[tuple[int, Any]], timeout: float
    ) -> None:
        super().__init__(host, port, timeout=timeout)
        self.pinned = addresses

    def connect(self) -> None:
        self.sock = _connect_pinned(self.pinned, self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _tls_context() -> ssl.SSLContext:
    """Certificates verified against the system's authorities (tests swap this)."""
    return ssl.create_default_context()


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to pinned addresses; the certificate is checked against ``host`` (and SNI)."""

    def __init__(
        self, host: str, port: int, addresses: list[tuple[int, Any]], timeout: float
    ) -> None:
        self.tls = _tls_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.pinned = addresses

    def connect(self) -> None:
        sock = _connect_pinned(self.pinned, self.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)
        except BaseException:
            sock.close()
            raise


def post_webhook(url: str, secret: str, body: str) -> int:
    """POST ``body`` to ``url``; returns the status, raises ``WebhookFailed`` to retry.

    A 4xx other than 429 is the receiver refusing this delivery: not retried;
    nor is a 3xx (redirects are not followed: a 3xx is the receiver's answer,
    not an order to POST, or GET, wherever ``Location`` points) or a
    destination that is not allowed (``resolve_destination``: the host is
    resolved once and the connection goes to the checked addresses, with the
    original ``Host`` header and, for https, the certificate verified against
    the original host name). No HTTP proxy is used: it would resolve the name
    again. Credentials in the URL (``https://user:pass@host/``) are sent as
    HTTP Basic authorization.
    """
    try:
        host, port, addresses = resolve_destination(url)
    except WebhookRefused as exc:
        log.warning("webhook not sent: %s", exc)
        return 0
    parts = urllib.parse.urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    data = body.encode()
    fields = json.loads(body)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "pablo-webhooks/1",
        SIGNATURE_HEADER: sign(secret, data),
        "X-Pablo-Event": fields.get("event", ""),
        "X-Pablo-Delivery": fields.get("delivery", ""),
    }
    if parts.username is not None:
        user = urllib.parse.unquote(parts.username)
        password = urllib.parse.unquote(parts.password or "")
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        headers["Authorization"] = f"Basic {token}"
    timeout = float(_setting("PABLO_WEBHOOK_TIMEOUT", 5.0))
    kind = _PinnedHTTPSConnection if parts.scheme == "https" else _PinnedHTTPConnection
    connection = kind(host, port, addresses, timeout)
    try:
        connection.request("POST", target, body=data, headers=headers)
        answer = connection.getresponse()
        status = answer.status
        answer.read(65536)  # a little of the answer, so the receiver is not cut off
    except (http.client.HTTPException, OSError, ValueError) as exc:
        raise WebhookFailed(f"{loggable(url)}: {exc}") from exc
    finally:
        connection.close()
    if status >= 500 or status == 429:
        raise WebhookFailed(f"{loggable(url)} answered {status}")
    return status


def deliver_webhook(user_id: Any, body: str) -> int | None:
    """Post ``body`` to the user's webhook as it is registered now (None: turned off)."""
    prefs = NotificationSettings.objects.filter(user_id=user_id).first()
    if prefs is None or not prefs.webhook_enabled or not prefs.webhook_url:
        return None
    return post_webhook(prefs.webhook_url, prefs.webhook_secret, body)


def deliver_email(to: str, subject: str, text: str) -> None:
    send_mail(subject, text, settings.DEFAULT_FROM_EMAIL, [to], fail_silently=False)


def email_text(body: dict[str, Any]) -> tuple[str, str]:
    """Subject and plain text of the e-mail for a notification ``body``."""
    game = body["game_id"]
    ruleset = body["ruleset"]
    where = f"{ruleset} game {game} (seat {body['seat']})"
    deadline = body.get("deadline")
    kind = body["event"]
    # Links: the table (/play/{id}/) to act, the replay (/replays/{id}/) once it is over.
    site = str(_setting("PABLO_SITE_URL", "http://localhost:8000")).rstrip("/")
    table, replay = f"{site}/play/{game}/", f"{site}/replays/{game}/"
    if kind == YOUR_TURN:
        return (
            f"Your turn in {ruleset}",
            f"It is your turn in {where}.\nPlay before {deadline} (UTC); after that the "
            f"server plays for you.\nYour seat: {table}\n",
        )
    if kind == TURN_REMINDER:
        return (
            f"Reminder: your turn in {ruleset} ends soon",
            f"Most of your time for this turn in {where} has passed.\nPlay before "
            f"{deadline} (UTC); after that the server plays for you.\nYour seat: {table}\n",
        )
    if kind == GAME_ABORTED:
        return (
            f"{ruleset} game aborted",
            f"The {where} was aborted: every player was absent.\nReplay: {replay}\n",
        )
    result = body.get("result") or {}
    seat = body["seat"]
    verdict = "You won." if seat in result.get("winners", []) else "You did not win this time."
    return (f"{ruleset} game over", f"The {where} is over. {verdict}\nReplay: {replay}\n")


def user_settings(user: Any) -> NotificationSettings:
    """The user's settings row (created with the defaults on first use)."""
    prefs, _ = NotificationSettings.objects.get_or_create(user=user)
    return prefs
