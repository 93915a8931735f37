"""Webhook transport: the signed body, and a POST to pinned, checked addresses.

The body is compact JSON with sorted keys (``canonical``), signed with
HMAC-SHA256 under the user's secret (header ``X-Pablo-Signature:
sha256=<hex>``). The receiver's host name is resolved once, every address is
checked (no loopback, private or link-local destinations unless
``PABLO_WEBHOOK_ALLOW_PRIVATE``), and the connection goes to those very
addresses with the original ``Host`` header and, for https, the certificate
checked against the original name (no DNS rebinding). Nothing here knows about
games or users: ``games.notifications`` decides what to send to whom.
"""

from __future__ import annotations

import base64
import concurrent.futures
import contextlib
import hashlib
import hmac
import http.client
import ipaddress
import json
import logging
import os
import secrets
import socket
import ssl
import threading
import time
import urllib.parse
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Pablo-Signature"


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


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
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


class WebhookMalformed(WebhookRefused):
    """The URL is not one the transport calls at all (scheme, host, port, credentials)."""


def split_destination(
    url: str, *, schemes: tuple[str, ...] = ("http", "https"), credentials: bool = True
) -> tuple[str, str, int]:
    """``(scheme, host, port)`` of a URL the transport may call; ``WebhookMalformed`` else.

    The one spelling filter of webhooks and Web Push (``push.check_endpoint``): a
    scheme of ``schemes``, a host, a port within 1-65535 (``:0`` is refused rather
    than read as the default port; ``urlsplit`` refuses signs, spaces, non-ASCII
    digits and ports past 65535), and no ``user@`` unless ``credentials``. A host
    name with a trailing dot, an IP literal in any spelling the resolver accepts
    (decimal ``2130706433``, octal ``0177.0.0.1``, IPv6, IPv4-mapped IPv6) is
    judged by the addresses it resolves to (``resolve_destination``), never by how
    it is written.
    """
    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError as exc:
        raise WebhookMalformed(f"{loggable(url)}: {exc}") from exc
    if parts.scheme not in schemes or not host.strip("."):
        raise WebhookMalformed(f"{loggable(url)}: not an {'/'.join(schemes)} URL")
    if port is None:
        port = 443 if parts.scheme == "https" else 80
    elif not 1 <= port <= 65535:
        raise WebhookMalformed(f"{loggable(url)}: port {port} out of 1-65535")
    if not credentials and "@" in parts.netloc:
        raise WebhookMalformed(f"{loggable(url)}: credentials in the URL")
    return parts.scheme, host, port


#: Lookups run on threads of their own, each bounded in time for its caller: a name
#: served by a slow DNS server (the resolver's own timeouts reach 10-30 s) then holds a
#: web worker or a notifications worker for at most ``PABLO_WEBHOOK_TIMEOUT``. A thread
#: stuck in the resolver cannot be stopped, so what stuck threads may hold is bounded per
#: domain, not shared in one queue: one domain (``lookup_zone``: any number of names under
#: it, as many accounts as set them) runs at most ``ZONE_LOOKUPS`` lookups at once, and
#: one name looked up again while it is being looked up waits for that lookup. With one
#: pool of four threads for everyone, four names of a stranger's slow domain held every
#: other account's lookups (their deliveries, their devices) until they timed out.
ZONE_LOOKUPS = 2
#: Lookups running at once in a process, over every domain.
LOOKUP_THREADS = 32
_lookups_lock = threading.Condition()
#: (host, port) -> the lookup running for it; zone -> how many run under it.
_inflight: dict[tuple[str, int], concurrent.futures.Future[list[Any]]] = {}
_zones: dict[str, int] = {}

#: Second-level labels under which names are registered (``example.co.uk``): their zone
#: keeps one label more. An approximation of the Public Suffix List, which is not here.
_SECOND_LEVEL = frozenset(
    {"ac", "co", "com", "edu", "gob", "go", "gov", "ltd", "mil", "ne", "net", "or", "org"}
)


def lookup_zone(host: str) -> str:
    """The domain ``host`` is registered under, as far as its spelling tells: its last two
    labels (``a.b.example.com``: ``example.com``), three under a country's second level
    (``example.co.uk``); an IP literal is its own."""
    with contextlib.suppress(ValueError):
        return str(ipaddress.ip_address(host))
    labels = host.rstrip(".").lower().split(".")
    if len(labels) < 3 or all(label.isdigit() for label in labels):
        return ".".join(labels)
    keep = 3 if labels[-2] in _SECOND_LEVEL or len(labels[-2]) <= 2 else 2
    return ".".join(labels[-keep:])


def _lookups_reset() -> None:
    """A forked child has none of its parent's lookup threads: nothing of theirs runs."""
    global _lookups_lock
    _lookups_lock = threading.Condition()
    _inflight.clear()
    _zones.clear()


os.register_at_fork(after_in_child=_lookups_reset)


def _run_lookup(key: tuple[str, int], zone: str, future: concurrent.futures.Future[Any]) -> None:
    answer: list[Any] | None = None
    error: BaseException | None = None
    try:
        answer = socket.getaddrinfo(key[0], key[1], type=socket.SOCK_STREAM)
    except BaseException as exc:  # (the callers' to raise)
        error = exc
    # Out of the lookups in flight before its answer is given: a lookup asked after its
    # callers have their answer is a new one, never this one's (an answer given first
    # and taken out after was found by the next lookup of the name, however late).
    with _lookups_lock:
        _inflight.pop(key, None)
        _zones[zone] -= 1
        if not _zones[zone]:
            del _zones[zone]
        _lookups_lock.notify_all()
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(answer)


def lookup(host: str, port: int, deadline: float | None = None) -> list[Any]:
    """``socket.getaddrinfo`` for a TCP connection, answered by ``deadline``
    (``time.monotonic``; default ``PABLO_WEBHOOK_TIMEOUT`` seconds from now) or
    ``TimeoutError`` (an ``OSError``): the time waited for a free place under the name's
    domain (``ZONE_LOOKUPS``) counts."""
    timeout = float(_setting("PABLO_WEBHOOK_TIMEOUT", 5.0))
    if deadline is None:
        deadline = time.monotonic() + timeout
    key = (host, port)
    zone = lookup_zone(host)
    with _lookups_lock:
        while (future := _inflight.get(key)) is None:
            if _zones.get(zone, 0) < ZONE_LOOKUPS and sum(_zones.values()) < LOOKUP_THREADS:
                future = _inflight[key] = concurrent.futures.Future()
                _zones[zone] = _zones.get(zone, 0) + 1
                threading.Thread(target=_run_lookup, args=(key, zone, future), daemon=True).start()
                break
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no address within {timeout:g} s ({zone}'s lookups busy)")
            _lookups_lock.wait(left)
    try:
        return future.result(timeout=max(0.0, deadline - time.monotonic()))
    except concurrent.futures.TimeoutError:
        raise TimeoutError(f"no address within {timeout:g} s") from None


def resolve_destination(
    url: str, *, allow_private: bool | None = None, deadline: float | None = None
) -> tuple[str, int, list[tuple[int, Any]]]:
    """Resolve the webhook's host once: its host, port and the addresses to connect to.

    Every address the name resolves to is checked (``check_destination``), and
    the delivery then connects to these very addresses: a second lookup at
    connect time could answer differently (DNS rebinding: a public address to
    the check, ``127.0.0.1`` to the connection). Returns ``(host, port,
    [(family, sockaddr), ...])``; raises ``WebhookRefused`` for a destination
    that may not be called (``WebhookMalformed``: not even spelled as one,
    ``split_destination``) and ``WebhookFailed`` (worth retrying) when the name
    does not resolve (by ``deadline``: ``lookup``). ``allow_private`` None:
    ``PABLO_WEBHOOK_ALLOW_PRIVATE`` (Web Push passes ``PABLO_PUSH_ALLOW_PRIVATE``).
    """
    _scheme, host, port = split_destination(url)
    if allow_private is None:
        allow_private = bool(_setting("PABLO_WEBHOOK_ALLOW_PRIVATE", False))
    name = host.rstrip(".").lower()
    if not allow_private and (name == "localhost" or name.endswith(".localhost")):
        # RFC 6761: loopback whatever a resolver answers (``localhost.`` included)
        raise WebhookRefused(f"{loggable(url)}: a loopback name")
    try:
        infos = lookup(host, port, deadline)
    except (OSError, UnicodeError) as exc:
        raise WebhookFailed(f"{loggable(url)}: {exc}") from exc
    addresses: list[tuple[int, Any]] = []
    for family, _type, _proto, _name, sockaddr in infos:
        if (family, sockaddr) not in addresses:
            addresses.append((family, sockaddr))
    if not addresses:
        raise WebhookFailed(f"{loggable(url)}: no address")
    if not allow_private:
        for _family, sockaddr in addresses:
            address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
            if not is_public(address):
                raise WebhookRefused(f"{loggable(url)}: {address} is not a public address")
    return host, port, addresses


_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052, the well-known prefix
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")  # RFC 8215, local use
_6TO4 = ipaddress.ip_network("2002::/16")


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for, where it embeds one.

    IPv4-mapped ``::ffff:a.b.c.d``, IPv4-compatible ``::a.b.c.d`` (deprecated,
    but a stack may still route it to the IPv4 address), NAT64 ``64:ff9b::/96``
    (a NAT64 gateway connects to the IPv4 address in the low 32 bits) and 6to4
    ``2002:AABB:CCDD::/48`` (the relay's IPv4 address in bits 16-48).
    """
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _IPV4_COMPATIBLE or address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


#: IETF protocol assignments (RFC 6890): not forwarded beyond the site. Python 3.11's
#: ``is_global`` calls the dummy address 192.0.0.8 and the others global.
_IETF_PROTOCOL = ipaddress.ip_network("192.0.0.0/24")


def _global(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """``is_global`` without what Python 3.11 counts as global but no one routes to the
    public internet: multicast (224.0.0.0/4, ff00::/8: a local group), the deprecated
    IPv6 site-local fec0::/10 (RFC 3879; still routed inside some networks) and
    192.0.0.0/24."""
    if not address.is_global or address.is_multicast:
        return False
    if isinstance(address, ipaddress.IPv6Address):
        return not address.is_site_local
    return address not in _IETF_PROTOCOL


def is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether a webhook may be sent to ``address``: global, and so is any IPv4 inside it."""
    if not _global(address):
        return False
    if isinstance(address, ipaddress.IPv6Address):
        if address in _NAT64_LOCAL:
            return False
        inner = embedded_ipv4(address)
        if inner is not None:
            return _global(inner)
    return True


def check_destination(url: str) -> None:
    """Refuse loopback, private and link-local addresses unless the operator allows them.

    ``PABLO_WEBHOOK_ALLOW_PRIVATE`` follows ``DJANGO_DEBUG`` (on for local
    development and the tests' receivers); off, as on a public server, users
    cannot make the server POST into its own network. A host is refused if
    *any* of its addresses is not public (``is_public``: an IPv6 address that
    embeds an IPv4 one -- mapped, compatible, NAT64, 6to4 -- is judged by it).
    (``post_webhook`` does not call this: it uses ``resolve_destination`` and
    connects to the checked addresses.)
    """
    resolve_destination(url)


def _connect_pinned(
    addresses: list[tuple[int, Any]], timeout: float, deadline: float | None = None
) -> socket.socket:
    """A TCP connection to the first of the (already checked) addresses that answers,
    all of them within ``timeout`` seconds -- and by ``deadline`` (``time.monotonic``)
    when given: a host of many silent addresses is given up then, not after a timeout
    for each.

    The addresses are IP literals, so ``socket.create_connection`` does no
    lookup of its own.
    """
    error: OSError | None = None
    for _family, sockaddr in addresses:
        left = timeout if deadline is None else min(timeout, deadline - time.monotonic())
        if left <= 0:
            raise TimeoutError("no time left to connect") from error
        try:
            return socket.create_connection((sockaddr[0], sockaddr[1]), left)
        except OSError as exc:
            error = exc
    assert error is not None
    raise error


def _past(connection: Any) -> None:
    """A connection made once its deadline has passed (the watchdog fired while it was
    being made, with no socket to cut yet) is closed and given up at once."""
    if connection.deadline is not None and time.monotonic() >= connection.deadline:
        with contextlib.suppress(OSError):
            connection.raw.close()
        raise TimeoutError("connected past the deadline")


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to ``host`` (its ``Host`` header) made to pinned addresses."""

    def __init__(
        self,
        host: str,
        port: int,
        addresses: list[tuple[int, Any]],
        timeout: float,
        deadline: float | None = None,
    ) -> None:
        super().__init__(host, port, timeout=timeout)
        self.pinned = addresses
        self.deadline = deadline
        #: the TCP socket, as soon as it is connected (``_Watchdog`` cuts it)
        self.raw: socket.socket | None = None

    def connect(self) -> None:
        self.sock = self.raw = _connect_pinned(self.pinned, self.timeout, self.deadline)
        _past(self)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _tls_context() -> ssl.SSLContext:
    """Certificates verified against the system's authorities (tests swap this)."""
    return ssl.create_default_context()


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to pinned addresses; the certificate is checked against ``host`` (and SNI)."""

    def __init__(
        self,
        host: str,
        port: int,
        addresses: list[tuple[int, Any]],
        timeout: float,
        deadline: float | None = None,
    ) -> None:
        self.tls = _tls_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.pinned = addresses
        self.deadline = deadline
        #: the TCP socket under TLS, as soon as it is connected (``_Watchdog`` cuts it: a
        #: handshake dripped byte by byte included)
        self.raw: socket.socket | None = None

    def connect(self) -> None:
        sock = self.raw = _connect_pinned(self.pinned, self.timeout, self.deadline)
        _past(self)
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
        return post_pinned(url, body.encode(), _webhook_headers(url, secret, body))
    except WebhookRefused as exc:
        log.warning("webhook not sent: %s", exc)
        return 0


def _webhook_headers(url: str, secret: str, body: str) -> dict[str, str]:
    parts = urllib.parse.urlsplit(url)
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
    return headers


class _Watchdog:
    """Cuts ``connection``'s socket ``seconds`` from now unless cancelled first: a read or
    write blocked on it then fails at once (a TCP shutdown, from a timer thread)."""

    def __init__(self, connection: Any, seconds: float) -> None:
        self.connection = connection
        self.fired = False
        self.timer = threading.Timer(seconds, self.cut)
        self.timer.daemon = True
        self.timer.start()

    def cut(self) -> None:
        self.fired = True
        sock = getattr(self.connection, "raw", None)
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        self.timer.cancel()


def post_pinned(
    url: str, data: bytes, headers: dict[str, str], *, allow_private: bool | None = None
) -> int:
    """POST ``data`` to ``url`` at its checked addresses (``resolve_destination``); the
    status. Raises ``WebhookRefused`` (not allowed) or ``WebhookFailed`` (worth retrying:
    unreachable, 429, 5xx). Web Push sends through this too (``push``)."""
    # The whole attempt -- the name's lookup, connecting, sending, the status and
    # headers, the bit of answer read -- ends by ``PABLO_WEBHOOK_TIMEOUT``: each socket
    # operation's own timeout alone let a receiver that drips a byte at a time hold the
    # worker for hours, and a lookup with a timeout of its own doubled the bound.
    deadline = time.monotonic() + float(_setting("PABLO_WEBHOOK_TIMEOUT", 5.0))
    host, port, addresses = resolve_destination(url, allow_private=allow_private, deadline=deadline)
    left = deadline - time.monotonic()
    if left <= 0:
        raise WebhookFailed(f"{loggable(url)}: no answer within the timeout")
    parts = urllib.parse.urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    kind = _PinnedHTTPSConnection if parts.scheme == "https" else _PinnedHTTPConnection
    connection = kind(host, port, addresses, left, deadline)
    watchdog = _Watchdog(connection, left)
    try:
        connection.request("POST", target, body=data, headers=headers)
        answer = connection.getresponse()
        if watchdog.fired:  # (headers cut short read as their end: not an answer)
            raise TimeoutError("cut off")
        status = answer.status
        with contextlib.suppress(http.client.HTTPException, OSError, ValueError):
            answer.read(65536)  # a little of the answer, so the receiver is not cut off
    except (http.client.HTTPException, OSError, ValueError) as exc:
        why = "no answer within the timeout" if watchdog.fired else exc
        raise WebhookFailed(f"{loggable(url)}: {why}") from exc
    finally:
        watchdog.cancel()
        connection.close()
    if status >= 500 or status == 429:
        raise WebhookFailed(f"{loggable(url)} answered {status}")
    return status
