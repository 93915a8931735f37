"""Web Push (RFC 8030 delivery, RFC 8291 aes128gcm encryption, RFC 8292 VAPID).

The message is encrypted by ``http_ece`` and the VAPID JWT signed by
``py_vapid``; the POST goes through the webhooks' transport
(``webhooks.post_pinned``: the endpoint's host resolved once, every address
checked -- no loopback or private address unless ``PABLO_PUSH_ALLOW_PRIVATE``
-- and the connection made to those very addresses).

Delivery (``deliver``) reads one ``PushDelivery`` row locked ``FOR UPDATE SKIP
LOCKED`` and sends it only while it is pending: the task and the beat's sweep
may both try, a row is sent once. 2xx: sent; 404/410 (403 from Apple's
service): the subscription is removed; 429/5xx/unreachable: tried again later
with backoff, up to ``PABLO_WEBHOOK_RETRIES`` times; any other answer: failed.
The counters (``counters``) live in the shared cache. docs/notifications.md.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import random
import re
import time
import urllib.parse
from datetime import timedelta
from pathlib import Path
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from py_vapid import Vapid02, VapidException

from games import outbox, rules
from games.models import Game, PushDelivery, PushSubscription
from games.names import player_name

from . import services, slow, stale
from .webhooks import (
    WebhookFailed,
    WebhookMalformed,
    WebhookRefused,
    loggable,
    post_pinned,
    resolve_destination,
    split_destination,
)

log = logging.getLogger(__name__)

MAX_DEVICES = 10
MAX_PAYLOAD = 4096 - 86  # RFC 8291: a 4096-byte record less its header and padding
COUNTERS = ("sent", "failed", "pruned", "retried", "skipped")
APPLE_HOST = ".push.apple.com"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# --------------------------------------------------------------------------- keys


def make_keys() -> dict[str, str]:
    """A new VAPID pair, as ``web-push generate-vapid-keys`` prints it (base64url)."""
    key = ec.generate_private_key(ec.SECP256R1())
    raw = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"private_key": b64url(raw), "public_key": b64url(public)}


def _local_keys(path: Path) -> dict[str, str]:
    """The debug run's pair kept in ``path`` (made there, readable by its owner only)."""
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        keys = make_keys()
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first
            return json.loads(path.read_text())
        with os.fdopen(fd, "w") as out:
            json.dump(keys, out)
        return keys


def keys() -> dict[str, str] | None:
    """``{"private_key", "public_key"}``, or None: push is off."""
    private = settings.PABLO_VAPID_PRIVATE_KEY
    public = settings.PABLO_VAPID_PUBLIC_KEY
    if private and public:
        return {"private_key": private, "public_key": public}
    path = getattr(settings, "PABLO_VAPID_FILE", None)
    return _local_keys(Path(path)) if path else None


# --------------------------------------------------------------------------- subscriptions


def check_keys(p256dh: str, auth: str) -> Any:
    """Why a subscription's keys are refused (None: a P-256 point and a 16-byte secret),
    a lazy translation."""
    try:
        point = unb64url(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, TypeError):
        return _("keys.p256dh is not a P-256 public key (base64url of its uncompressed point).")
    if len(point) != 65:
        return _("keys.p256dh is not an uncompressed P-256 point.")
    try:
        secret = unb64url(auth)
    except (ValueError, TypeError):
        secret = b""
    if len(secret) != 16:
        return _("keys.auth is not 16 bytes (base64url).")
    return None


#: What py_vapid takes as a JWT ``aud`` (an origin): a host name or an IPv4 address, no
#: IPv6 literal -- a push service's endpoint names a host anyway.
_AUDIENCE = re.compile(r"https?://[^/:@]+(:\d+)?", re.IGNORECASE)


def _schemes() -> tuple[str, ...]:
    return ("https", "http") if settings.PABLO_PUSH_ALLOW_PRIVATE else ("https",)


def _split(endpoint: str) -> tuple[str, str, int]:
    """The webhooks' spelling filter, stricter: https only (unless
    ``PABLO_PUSH_ALLOW_PRIVATE``), no ``user@`` (a browser gives none), and a host VAPID
    can name as the audience. ``WebhookMalformed`` else."""
    parts = split_destination(endpoint, schemes=_schemes(), credentials=False)
    if not _AUDIENCE.fullmatch(audience(endpoint)):
        raise WebhookMalformed(f"{loggable(endpoint)}: no VAPID audience")
    return parts


def audience(endpoint: str) -> str:
    """The endpoint's origin, the VAPID JWT's ``aud``: ``scheme://host[:port]``."""
    parts = urllib.parse.urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


def canonical_endpoint(endpoint: str) -> str:
    """The endpoint as stored and compared: its scheme and host in lower case (they are
    case-insensitive, RFC 3986 §6.2.2.1), the rest as given -- "HTTPS://Push.Example/x"
    and "https://push.example/x" are one device, not two."""
    try:
        parts = urllib.parse.urlsplit(endpoint)
    except ValueError:
        return endpoint  # refused by ``check_endpoint`` already
    head = f"{parts.scheme.lower()}://{parts.netloc.lower()}"
    return head + endpoint[len(head) :] if endpoint.lower().startswith(head) else endpoint


def check_endpoint(endpoint: str) -> Any:
    """Why an endpoint is refused (None: https on a public address, or allowed private).

    The delivery applies the same filter again (``post``)."""
    try:
        _split(endpoint)
    except WebhookMalformed:
        if not endpoint.lower().startswith(tuple(f"{s}://" for s in _schemes())):
            return _("endpoint must be an https:// URL.")
        if "[" in urllib.parse.urlsplit(endpoint).netloc:
            return _("endpoint must name its host, not an IPv6 address.")
        return _("endpoint is not a well-formed URL (a host, a port within 1-65535, no user name).")
    try:
        resolve_destination(endpoint, allow_private=bool(settings.PABLO_PUSH_ALLOW_PRIVATE))
    except WebhookRefused:
        return _("endpoint is not on a public address.")
    except WebhookFailed:
        return _("endpoint's host does not resolve.")
    return None


# --------------------------------------------------------------------------- messages

KIND = {  # the notification's kind -> the push's
    "your_turn": "your_turn",
    "turn_reminder": "reminder",
    "game_finished": "game_over",
    "game_aborted": "game_over",
    "rematch": "rematch",
    "seat_taken": "seat_taken",
}


def message(body: dict[str, Any], language: str | None = None) -> dict[str, Any]:
    """The push payload of a notification ``body`` (``fanout``'s), in the player's
    ``language``: never a card."""
    with translation.override(language or settings.LANGUAGE_CODE):
        return _message(body)


def _message(body: dict[str, Any]) -> dict[str, Any]:
    kind = KIND[body["event"]]
    game = body["game_id"]
    words = {
        "ruleset": _(rules.get_ruleset(body["ruleset"]).name),
        "by": player_name(body.get("by", "")),
    }
    site = str(settings.PABLO_SITE_URL).rstrip("/")
    if kind == "your_turn":
        title, text = _("Your turn in %(ruleset)s"), _("Your opponents are waiting for you.")
    elif kind == "reminder":
        title, text = _("Your turn in %(ruleset)s ends soon"), _("Most of your time has passed.")
    elif kind == "rematch":
        title, text = _("Rematch in %(ruleset)s"), _("%(by)s offers a rematch.")
    elif kind == "seat_taken":
        title, text = _("A seat was taken in %(ruleset)s"), _("%(by)s joined your game.")
    elif body["event"] == "game_aborted":
        title, text = _("%(ruleset)s game aborted"), _("Every player was absent.")
    else:
        place = body.get("place")
        title = _("%(ruleset)s game over")
        if place == 1:
            text = _("You won.")
        elif place:
            text = _("You finished in place %(place)s.") % {"place": place}
        else:
            text = _("The game is over.")
    return {
        "kind": kind,
        "game": game,
        "title": title % words,
        "body": text % words if "%(" in text else text,
        "url": f"{site}/play/{game}/",
    }


def place(result: dict[str, Any] | None, seat: int) -> int | None:
    """A seat's place in a finished game's ``result``: its recorded ``places`` (ties
    shared); for a result recorded before places were, 1 for a winner, else one past the
    winners; None without either."""
    places = (result or {}).get("places") or []
    if 0 <= seat < len(places):
        return int(places[seat])
    winners = (result or {}).get("winners") or []
    if not winners:
        return None
    return 1 if seat in winners else 1 + len(winners)


# --------------------------------------------------------------------------- "looking"


def _looking_key(game_id: Any, user_id: Any) -> str:
    return f"push:looking:{game_id}:{user_id}"


def mark_looking(game_id: Any, user_id: Any, wait: float) -> None:
    """The player's table is long-polling this game's feed for ``wait`` seconds."""
    ttl = float(wait) + float(settings.PABLO_PUSH_LOOKING_SECONDS)
    try:
        cache.set(_looking_key(game_id, user_id), 1, timeout=ttl)
    except Exception:  # no cache: they get the push, which is harmless
        log.debug("looking mark not set", exc_info=True)


def looking(game_id: Any, user_ids: list[Any]) -> set[Any]:
    """Those of ``user_ids`` whose table of ``game_id`` is open now."""
    try:
        found = cache.get_many([_looking_key(game_id, u) for u in user_ids])
    except Exception:
        return set()
    return {u for u in user_ids if _looking_key(game_id, u) in found}


# --------------------------------------------------------------------------- counters


def count(name: str) -> None:
    key = f"push:count:{name}"
    try:
        cache.add(key, 0, timeout=None)
        cache.incr(key)
    except Exception:
        log.debug("push counter %s not counted", name, exc_info=True)


def counters() -> dict[str, int]:
    """Pushes sent, failed, pruned (subscription removed) and retried since the cache began."""
    found = cache.get_many([f"push:count:{n}" for n in COUNTERS])
    return {n: int(found.get(f"push:count:{n}", 0)) for n in COUNTERS}


# --------------------------------------------------------------------------- sending


def encrypt(message: dict[str, Any], p256dh: str, auth: str) -> bytes:
    """The aes128gcm body of ``message`` for a subscription's keys (RFC 8291)."""
    data = json.dumps(message, separators=(",", ":")).encode()
    if len(data) > MAX_PAYLOAD:
        raise ValueError(f"push payload of {len(data)} bytes is over {MAX_PAYLOAD}")
    return http_ece.encrypt(
        data,
        private_key=ec.generate_private_key(ec.SECP256R1()),
        dh=unb64url(p256dh),
        auth_secret=unb64url(auth),
        version="aes128gcm",
    )


#: Signed headers by (key, subject, audience): (header, its ``exp``). A JWT valid 12 h is
#: signed again once less than 11 h are left -- not once per push (a burst of 10,000
#: pushes to one push service signs once).
_signed: dict[tuple[str, str, str], tuple[str, int]] = {}


def vapid_authorization(endpoint: str, pair: dict[str, str]) -> str:
    """``vapid t=<JWT>,k=<public key>``: ``aud`` the endpoint's origin, ``sub`` the subject."""
    origin = audience(endpoint)
    subject = str(settings.PABLO_VAPID_SUBJECT)
    now = int(timezone.now().timestamp())
    key = (pair["private_key"], subject, origin)
    found = _signed.get(key)
    if found is not None and 11 * 3600 < found[1] - now <= 12 * 3600:
        return found[0]
    claims = {"aud": origin, "exp": now + 12 * 3600, "sub": subject}
    header = Vapid02.from_raw(pair["private_key"].encode()).sign(claims)["Authorization"]
    if len(_signed) > 1000:
        _signed.clear()
    _signed[key] = (header, claims["exp"])
    return header


def post(
    subscription: PushSubscription, message: dict[str, Any], *, urgent: bool, pair: dict[str, str]
) -> int:
    """One push request; its status. Raises ``WebhookFailed`` / ``WebhookRefused``.

    The endpoint passes the subscription's filter again (``check_endpoint``): a row
    stored before it, or while ``PABLO_PUSH_ALLOW_PRIVATE`` was on, is refused here
    rather than sent to plain http or with a user name; its host is resolved and
    every address checked again (``post_pinned``), so DNS that now answers a private
    address gets no POST."""
    _split(subscription.endpoint)
    try:
        authorization = vapid_authorization(subscription.endpoint, pair)
    except VapidException as exc:
        raise WebhookRefused(f"{loggable(subscription.endpoint)}: {exc}") from exc
    headers = {
        "Content-Type": "application/octet-stream",
        "Content-Encoding": "aes128gcm",
        "TTL": str(int(settings.PABLO_PUSH_TTL)),
        "Urgency": "high" if urgent else "normal",
        "Topic": str(message["game"]).replace("-", ""),
        "Authorization": authorization,
    }
    body = encrypt(message, subscription.p256dh, subscription.auth)
    return post_pinned(
        subscription.endpoint,
        body,
        headers,
        allow_private=bool(settings.PABLO_PUSH_ALLOW_PRIVATE),
    )


def _backoff(tries: int) -> float:
    base = float(getattr(settings, "PABLO_WEBHOOK_BACKOFF", 10.0))
    return min(base * 2 ** (tries - 1), 1800.0) * random.uniform(0.8, 1.2)


def _gone(status: int, endpoint: str) -> bool:
    host = urllib.parse.urlsplit(endpoint).hostname or ""
    return status in (404, 410) or (status == 403 and host.endswith(APPLE_HOST))


def deliver(delivery_id: int) -> str | None:
    """Send one pending delivery once; what became of it (None: nothing to do now)."""
    pair = keys()
    with transaction.atomic():
        row = (
            PushDelivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("subscription")
            .filter(pk=delivery_id, status=PushDelivery.Status.PENDING)
            .first()
        )
        if row is None or row.next_try > timezone.now() or pair is None:
            return None
        if _stale(row) or _replaced(row):
            services.push_delivery_skipped(delivery=row)
            count("skipped")
            return "skipped"
        sub = row.subscription
        destination = slow.push_key(sub.user_id)
        left = slow.wait_for(destination)
        started = time.monotonic()
        try:
            if left > 0:  # its devices kept a delivery waiting lately: a try, not attempted
                raise WebhookFailed(f"{loggable(sub.endpoint)}: slow, left alone {left:.0f} s")
            try:
                status = post(sub, row.message, urgent=row.urgent, pair=pair)
            finally:
                slow.attempted(destination, time.monotonic() - started)
        except WebhookRefused as exc:
            log.warning("push not sent: %s", exc)
            status = 0
        except WebhookFailed as exc:
            tries = row.tries + 1
            if tries > int(getattr(settings, "PABLO_WEBHOOK_RETRIES", 6)):
                log.warning("push to %s given up: %s", loggable(sub.endpoint), exc)
                services.push_delivery_done(delivery=row, tries=tries, sent=False)
                count("failed")
                return "failed"
            delay = max(_backoff(tries), slow.wait_for(destination))
            services.push_delivery_later(
                delivery=row, tries=tries, at=timezone.now() + timedelta(seconds=delay)
            )
            count("retried")
            transaction.on_commit(lambda: enqueue([delivery_id], countdown=delay))
            return "retried"
        if 200 <= status < 300:
            services.push_delivery_done(delivery=row, tries=row.tries + 1, sent=True)
            count("sent")
            return "sent"
        if _gone(status, sub.endpoint):
            services.push_subscription_gone(subscription=sub)
            count("pruned")
            return "pruned"
        services.push_delivery_done(delivery=row, tries=row.tries + 1, sent=False)
        count("failed")
        return "failed"


def _stale(row: PushDelivery) -> bool:
    """A "your turn" or reminder whose turn is over (held through quiet hours, say)."""
    if row.kind not in stale.TURN_KINDS:
        return False
    game = Game.objects.filter(pk=row.game_id).first()
    return stale.turn_over(game, row.turn, row.kind, row.subscription.user_id)


def _replaced(row: PushDelivery) -> bool:
    """A held push (quiet hours) for whose game a later push to the same device (by time,
    then by writing) is due too: only the latest goes (one notification per game)."""
    if not row.held:
        return False
    later = Q(next_try__gt=row.next_try) | Q(next_try=row.next_try, pk__gt=row.pk)
    return (
        PushDelivery.objects.filter(later, subscription_id=row.subscription_id, game_id=row.game_id)
        .filter(
            next_try__lte=timezone.now(),
            status__in=(PushDelivery.Status.PENDING, PushDelivery.Status.SENT),
        )
        .exists()
    )


#: Deliveries per ``games.deliver_pushes`` task: a burst (2,000 games ending at once)
#: is a few hundred broker messages, not ten thousand; one push is still one task.
BATCH = 25


def enqueue(ids: list[int], countdown: float = 0) -> None:
    """Tasks that send these deliveries, ``BATCH`` a task (a hint: the sweep catches a lost
    one)."""
    for at in range(0, len(ids), BATCH):
        chunk = list(ids[at : at + BATCH])
        try:
            if len(chunk) == 1:
                outbox.send("games.deliver_push", args=(chunk[0],), countdown=countdown)
            else:
                outbox.send("games.deliver_pushes", args=(chunk,), countdown=countdown)
        except Exception:
            log.warning("pushes %s not enqueued; the sweep sends them", chunk)


def sweep(*, limit: int = 2000) -> int:
    """Enqueue the deliveries still pending ``PABLO_PUSH_LOST_SECONDS`` past their time (a
    task lost with a worker or the broker); returns how many."""
    if keys() is None:
        return 0  # push off: the rows wait for keys
    due = timezone.now() - timedelta(seconds=float(settings.PABLO_PUSH_LOST_SECONDS))
    ids = list(
        PushDelivery.objects.filter(status=PushDelivery.Status.PENDING, next_try__lte=due)
        .order_by("next_try")
        .values_list("pk", flat=True)[:limit]
    )
    enqueue(ids)
    return len(ids)
