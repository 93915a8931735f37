"""Throttling: the limits of API.md "Throttling", for the API and for the web log-in.

Four limits, each a setting in DRF's rate format (``N/s``, ``N/min``,
``N/hour``, ``N/day``; empty turns it off):

=================================  ==================================================
``PABLO_THROTTLE_AUTH``            every ``/api/auth/...`` call, and every web log-in
                                   or sign-up submission, per client address (60/min)
``PABLO_THROTTLE_LOGIN_FAILURES``  failed log-ins per username key *and* client
                                   address (10/hour); a success does not count
``PABLO_THROTTLE_ACTIONS``         ``POST /api/games/{id}/actions/`` per user, over all
                                   their games (120/min)
``PABLO_THROTTLE_GAMES``           games created per user, rematches included (30/hour)
``PABLO_THROTTLE_SIGNUPS``         accounts made per client address, API and web
                                   (10/hour): accounts are cheap, limits per account
                                   mean little without it
``PABLO_THROTTLE_EMAILS``          e-mail addresses set per user, each mailed a
                                   confirmation link, and per address mailed (5/hour)
=================================  ==================================================

Over a limit the answer is ``429 {"code": "throttled", "detail"}`` with
``Retry-After`` (seconds). While a username and address are over the failure
limit, that address is refused for that username *even with the right
password* until ``Retry-After`` has passed: a guesser learns nothing from the
answer. Other addresses may still log in as that user (an attacker cannot lock
the owner out from elsewhere). The username is counted by its key
(``games.usernames.username_key``: trimmed, NFKC, case-folded), so
``"victim "``, ``"VICTIM"`` and a fullwidth ``"victim"`` share one counter.

How:

* Each counter is a count and the end of its window (the window opens with
  its first count and lasts the limit's period) in the ``"throttle"`` cache
  (``pablo.settings``): Redis when configured, otherwise files under ``var/``
  -- shared by every worker process, never a per-process dict. Counting is
  atomic (``count``: a Lua script on Redis, a file lock on the file cache), so
  requests sent all at once cannot slip past a limit.
* Failed log-ins are counted by the authentication backend
  (``ThrottledModelBackend``, the only one in ``AUTHENTICATION_BACKENDS``),
  which every ``authenticate()`` with a request goes through: the API's token
  view, the web log-in and the admin log-in. It counts an attempt *before*
  checking the password and gives it back on success; over the limit it does
  not check the password at all.
* The API is throttled by one DRF throttle class set as the default for every
  view (``ApiThrottle``); it picks the limits from the route: ``/api/auth/``
  calls, the token view (failure limit), the action view, game creation.
* The web views call ``check_web_auth`` (or are wrapped by ``throttle_web_auth``);
  whatever else creates a game calls ``game_created(request)``.
* A cache that cannot be reached (Redis away) lets the request through, and
  says so in the log: throttling protects the service, it must not take it
  down with the cache.

For the web log-in and sign-up (``/accounts/login/``, ``/accounts/signup/``)::

    from games.api.throttling import throttle_web_auth
    path("accounts/login/", throttle_web_auth(LoginView.as_view()), name="login"),
    path("accounts/signup/", throttle_web_auth(SignupView.as_view()), name="signup"),

``throttle_web_auth`` counts each POST against ``PABLO_THROTTLE_AUTH`` for the
address and, when the form names a ``username``, refuses it while that username
and address are over the failure limit; a refusal is a 429 page with
``Retry-After`` (and the sentence in ``TOO_MANY``). A view that wants its own
page calls ``check_web_auth(request, username)`` itself: it returns the seconds
to wait, or None when the request may go on.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import ipaddress
import logging
import math
import threading
import time
from collections.abc import Callable, Iterator
from functools import wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy
from rest_framework.throttling import BaseThrottle

from games.usernames import username_key

log = logging.getLogger(__name__)

CACHE = "throttle"
TOO_MANY = gettext_lazy("Too many attempts from your address; try again in %(wait)s seconds.")
_last_warning = 0.0


def _warn_cache_down(exc: Exception) -> None:
    global _last_warning
    now = time.monotonic()
    if now - _last_warning > 60:  # once a minute, not once a request
        _last_warning = now
        log.warning("throttle cache unreachable, requests are not throttled: %s", exc)


def client_address(request: Any) -> str:
    """The client's address: ``REMOTE_ADDR``, or X-Forwarded-For behind trusted proxies.

    ``PABLO_TRUSTED_PROXIES`` (DRF's ``NUM_PROXIES``) says how many proxies
    stand in front: the address is read that many hops from the right of
    X-Forwarded-For, so a client cannot pick its own by sending the header.
    """
    meta = request.META
    remote = str(meta.get("REMOTE_ADDR") or "")
    proxies = int(getattr(settings, "PABLO_TRUSTED_PROXIES", 0) or 0)
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if proxies > 0 and forwarded:
        hops = [h.strip() for h in forwarded.split(",") if h.strip()]
        if hops:
            return client_key(hops[-min(proxies, len(hops))])
    if forwarded and proxies <= 0 and _local(remote):
        _warn_proxy_undeclared(remote)
    return client_key(remote)


def _local(remote: str) -> bool:
    """A unix socket's peer ("") or this host: a proxy beside the service, most likely."""
    try:
        return not remote or ipaddress.ip_address(remote.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


_last_proxy_warning = 0.0


def _warn_proxy_undeclared(remote: str) -> None:
    """Requests from this host carry X-Forwarded-For while no proxy is declared: every
    client is then one address, and one client's limits are everyone's."""
    global _last_proxy_warning
    now = time.monotonic()
    if now - _last_proxy_warning > 60:  # once a minute, not once a request
        _last_proxy_warning = now
        log.warning(
            "requests from %r carry X-Forwarded-For but PABLO_TRUSTED_PROXIES is 0: every "
            "client counts as that one address in the throttles (docs/operations.md)",
            remote,
        )


def client_key(address: str) -> str:
    """The client an address stands for: an IPv6 address's /64 (one host or one home is
    given a whole /64: keyed by the full address, a client passed every limit per
    address by changing its own), an IPv4 address embedded in an IPv6 one (mapped,
    ``::ffff:a.b.c.d``, or through a NAT64/SIIT translator, ``64:ff9b::a.b.c.d``)
    as that IPv4 address, a 6to4 host (``2002:aabb:ccdd::/48``: its 65,536 /64s) as its
    IPv4 address, a Teredo client (``2001:0::/32``, whose /64 is its server's) as its
    own IPv4 address, else the address as given.

    A port some proxies write after the address (``a.b.c.d:port``,
    ``[v6]:port``) and brackets are left out: with them each new connection
    (a new source port) was a new client."""
    text = address.strip()
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        found = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        if found in _NAT64:
            return str(ipaddress.IPv4Address(int(found) & 0xFFFFFFFF))
        if found.sixtofour is not None:  # one IPv4 host owns 2002:aabb:ccdd::/48: 2**16 /64s
            return str(found.sixtofour)
        if found.teredo is not None:  # the /64 is the Teredo server's, shared by its clients
            return str(found.teredo[1])
        return str(ipaddress.IPv6Network((found, 64), strict=False))
    return str(found)


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052's well-known prefix


def parse_rate(rate: str) -> tuple[int, int]:
    """DRF's rate format: ``"10/hour"`` -> ``(10, 3600)``."""
    count, period = rate.split("/")
    seconds = {"s": 1, "m": 60, "h": 3600, "d": 86400}[period.strip()[0]]
    return int(count), seconds


# --------------------------------------------------------------------------- counters
#
# A counter is (count, end of its window) under one cache key. Its window starts
# with its first count and lasts the limit's period; adding to it is atomic
# across every thread and process sharing the cache: a Lua script on Redis, a
# file lock on the file cache, a lock on the per-process memory cache (tests).

_COUNT_SCRIPT = """
local now = tonumber(ARGV[1])
local n = redis.call('HGET', KEYS[1], 'n')
local e = tonumber(redis.call('HGET', KEYS[1], 'e') or '0')
local delta = tonumber(ARGV[3])
if (not n) or e <= now then
  if delta <= 0 then return {0, tostring(now)} end
  e = now + tonumber(ARGV[2])
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'n', 0, 'e', tostring(e))
  redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])) + 1)
end
local c = redis.call('HINCRBY', KEYS[1], 'n', delta)
return {c, tostring(e)}
"""
_local_lock = threading.Lock()


@contextlib.contextmanager
def _locked(cache: Any) -> Iterator[None]:
    """Serialise read-modify-write on a non-Redis cache (threads, and files' processes)."""
    with _local_lock:
        folder = getattr(cache, "_dir", None)  # FileBasedCache: lock a file beside it
        if folder is None:
            yield
            return
        Path(folder).mkdir(parents=True, exist_ok=True)
        with open(Path(folder) / ".counters.lock", "a") as lock_file:
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock_file, fcntl.LOCK_UN)


def count(cache: Any, key: str, delta: int, period: float, now: float) -> tuple[int, float]:
    """Add ``delta`` to the counter ``key`` atomically: (its count now, its window's end).

    ``delta`` 0 only looks. A counter whose window has passed starts again
    (at 0, a window of ``period`` seconds from ``now``) when ``delta`` > 0.
    """
    client_of = getattr(getattr(cache, "_cache", None), "get_client", None)
    if getattr(cache, "_class", None) is not None and client_of is not None:  # Redis
        full = cache.make_and_validate_key(key)
        client = client_of(full, write=True)
        n, end = client.eval(_COUNT_SCRIPT, 1, full, repr(now), repr(period), delta)
        return int(n), float(end)
    with _locked(cache):
        value = cache.get(key)
        n, end = value if isinstance(value, tuple) and len(value) == 2 else (0, 0.0)
        if end <= now:
            if delta <= 0:
                return 0, now
            n, end = 0, now + period
        if delta:
            n += delta
            cache.set(key, (n, end), timeout=math.ceil(period) + 1)
        return n, end


class _Limit:
    """One limit on the shared cache, its rate read from a Django setting."""

    setting = ""
    scope = ""

    def __init__(self) -> None:
        self.cache = caches[CACHE]
        self.rate: str | None = getattr(settings, self.setting, None) or None
        self.num_requests, self.duration = parse_rate(self.rate) if self.rate else (0, 0)
        self._wait: float | None = None
        #: (count, seconds left in the window) of the last count; None: not limited
        self.counted: tuple[int, float] | None = None

    def timer(self) -> float:
        return time.time()

    def ident(self, request: Any) -> str | None:
        raise NotImplementedError

    def get_cache_key(self, request: Any, view: Any = None) -> str | None:
        ident = self.ident(request)
        return None if ident is None else f"throttle_{self.scope}_{ident}"

    def _count(self, request: Any, delta: int) -> tuple[int, float] | None:
        """(count, seconds left in the window), or None when not limited or the cache is away."""
        if self.rate is None:
            return None
        key = self.get_cache_key(request)
        if key is None:
            return None
        now = self.timer()
        try:
            n, end = count(self.cache, key, delta, self.duration, now)
        except Exception as exc:  # the cache is away: let it through
            _warn_cache_down(exc)
            return None
        self.counted = n, end - now
        return self.counted

    def allow_request(self, request: Any, view: Any = None) -> bool:
        """Count this request; False when it is over the limit (``wait`` says how long)."""
        counted = self._count(request, 1)
        if counted is None or counted[0] <= self.num_requests:
            return True
        self._wait = counted[1]
        return False

    def wait(self) -> float | None:
        return None if self._wait is None else max(1, math.ceil(self._wait))

    def headers(self) -> tuple[int, int, int] | None:
        """(limit, remaining, seconds until the window frees) after a count, else None."""
        if self.counted is None:
            return None
        n, left = self.counted
        return self.num_requests, max(0, self.num_requests - n), max(0, math.ceil(left))


class AuthLimit(_Limit):
    """``PABLO_THROTTLE_AUTH``: every auth call (API or web) per client address."""

    setting = "PABLO_THROTTLE_AUTH"
    scope = "auth"

    def ident(self, request: Any) -> str | None:
        return client_address(request)


class ActionLimit(_Limit):
    """``PABLO_THROTTLE_ACTIONS``: actions per user, over all their games."""

    setting = "PABLO_THROTTLE_ACTIONS"
    scope = "actions"

    def ident(self, request: Any) -> str | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        return str(user.pk)


class GameLimit(ActionLimit):
    """``PABLO_THROTTLE_GAMES``: games created per user (rematches included)."""

    setting = "PABLO_THROTTLE_GAMES"
    scope = "games"


class AnalysisLimit(ActionLimit):
    """``PABLO_THROTTLE_ANALYSES``: analyses started per user (API and viewer)."""

    setting = "PABLO_THROTTLE_ANALYSES"
    scope = "analyses"


def check_analysis(request: HttpRequest) -> int | None:
    """For the viewer's "Analyse this game" form: seconds to wait, or None to go on."""
    limit = AnalysisLimit()
    if limit.allow_request(request, None):
        return None
    wait = limit.wait()
    return int(wait) + 1 if wait is not None else 1


class LoginFailureLimit(_Limit):
    """``PABLO_THROTTLE_LOGIN_FAILURES``: failed log-ins per username and address.

    The username is ``games.usernames.username_key`` of the name sent (trimmed,
    NFKC, case-folded): every spelling of a name shares one counter.
    ``allow_request`` only *looks*: a request is refused while the counter is
    full. The counting is done by ``ThrottledModelBackend`` around the password
    check: ``reserve`` before it (atomic: of many attempts sent at once, at
    most the limit get their password checked), ``release`` after a success.
    """

    setting = "PABLO_THROTTLE_LOGIN_FAILURES"
    scope = "login-failures"

    def __init__(self, username: str = "") -> None:
        super().__init__()
        self.username = username

    def ident(self, request: Any) -> str | None:
        key = username_key(self.username or "")
        if not key:
            return None
        # Hashed, so any username makes a valid cache key.
        return hashlib.sha256(f"{key}\n{client_address(request)}".encode()).hexdigest()

    def allow_request(self, request: Any, view: Any = None) -> bool:
        counted = self._count(request, 0)
        if counted is None or counted[0] < self.num_requests:
            return True
        self._wait = counted[1]
        return False

    def reserve(self, request: Any) -> bool:
        """Count one attempt before its password is checked; False (uncounted) when over."""
        counted = self._count(request, 1)
        if counted is None or counted[0] <= self.num_requests:
            return True
        self._count(request, -1)
        self._wait = counted[1]
        return False

    def release(self, request: Any) -> None:
        """The attempt succeeded: a success does not count."""
        self._count(request, -1)

    def record(self, request: Any) -> None:
        """Count one failure (for a check made elsewhere than ``authenticate``)."""
        self._count(request, 1)


class ThrottledModelBackend(ModelBackend):
    """Django's ``ModelBackend``, counting failed log-ins in ``LoginFailureLimit``.

    Every ``authenticate()`` with a request -- the API's token call, the web
    log-in, the admin log-in -- goes through here. While the username's key
    and the address are over the failure limit the password is not even
    checked: ``PermissionDenied`` makes ``authenticate`` answer None (the form's
    error; the views' own check answers 429 before that). The attempt is
    counted before the password is checked and given back on success, so
    attempts sent all at once cannot slip past the limit.
    """

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if username is None:
            username = kwargs.get("username")
        limit = LoginFailureLimit(username or "") if request is not None else None
        if limit is not None and not limit.reserve(request):
            # The views answer 429 with this wait instead of "wrong password".
            request.login_refused_wait = int(limit.wait() or 1)
            raise PermissionDenied("too many failed log-ins")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None and limit is not None:
            limit.release(request)
        return user


class EmailConfirmationLimit(ActionLimit):
    """``PABLO_THROTTLE_EMAILS``: confirmation mails asked for per user (a new address each)."""

    setting = "PABLO_THROTTLE_EMAILS"
    scope = "emails"


class EmailTargetLimit(_Limit):
    """``PABLO_THROTTLE_EMAILS`` again, per address mailed (whoever asks): many cheap
    accounts cannot mail one victim more than one account can."""

    setting = "PABLO_THROTTLE_EMAILS"
    scope = "emails-to"

    def __init__(self, email: str) -> None:
        super().__init__()
        self.email = mailbox(email)

    def ident(self, request: Any) -> str | None:
        return hashlib.sha256(self.email.encode()).hexdigest() if self.email else None


def mailbox(email: str) -> str:
    """The mailbox an address reaches, as a counter's key: trimmed, lower-cased, without
    a ``+tag`` (sub-addressing, RFC 5233: ``victim+1@`` and ``victim+2@`` reach one
    mailbox, and each was a counter of its own) -- a key only, never an address mailed."""
    local, at, domain = email.strip().lower().rpartition("@")
    if not at:
        return domain
    return f"{local.split('+', 1)[0] or local}@{domain.rstrip('.')}"


class SignupLimit(AuthLimit):
    """``PABLO_THROTTLE_SIGNUPS``: accounts made per client address (API and web)."""

    setting = "PABLO_THROTTLE_SIGNUPS"
    scope = "signups"


def signing_up(request: Any) -> int | None:
    """Count one sign-up from ``request``'s address (a valid form or body, about to make
    an account): None to go on, else the seconds to wait."""
    limit = SignupLimit()
    if limit.allow_request(request):
        return None
    return int(limit.wait() or 1)


def game_created(request: Any) -> int | None:
    """Count one game created by ``request.user`` (``PABLO_THROTTLE_GAMES``).

    Returns None when the game may be made, else the seconds to wait. Every
    way of creating a game calls it before creating one: ``POST /api/games/``
    (by ``ApiThrottle``), the lobby's form, a rematch.
    """
    limit = GameLimit()
    if limit.allow_request(request):
        return None
    return int(limit.wait() or 1)


def _field(request: Any, name: str) -> str:
    """A string field of the JSON body ("" when absent or not a string).

    A body that does not parse raises here (DRF answers its 400 ``parse_error``):
    DRF keeps an empty body after a failed parse, so swallowing the error would hand
    the view ``{}`` -- a malformed PATCH answered 200 as a no-op."""
    data = request.data
    value = data.get(name) if isinstance(data, dict) else None
    return value if isinstance(value, str) else ""


def _username(request: Any) -> str:
    return _field(request, "username")


class ApiThrottle(BaseThrottle):
    """The one DRF throttle of every API view: picks the limits by route.

    * ``/api/auth/...``: ``AuthLimit``; the token call also ``LoginFailureLimit``
      for the username in its body;
    * ``POST`` to the action route (``games:actions``): ``ActionLimit``;
    * ``POST /api/games/`` (``games:games``): ``GameLimit``;
    * ``PATCH /api/me/notifications/`` naming an ``email``: ``EmailConfirmationLimit``
      (per user) and ``EmailTargetLimit`` (per address named).

    Everything else is not throttled.
    """

    def __init__(self) -> None:
        self.refused: _Limit | None = None

    def _limits(self, request: Any, view: Any) -> list[_Limit]:
        # the route, without the script prefix (``request.path`` has it: under a prefix,
        # ``/api/auth/`` calls were not counted at all)
        path = request.path_info
        if path.startswith("/api/auth/"):
            limits: list[_Limit] = [AuthLimit()]
            if path == "/api/auth/token/" and request.method == "POST":
                limits.append(LoginFailureLimit(_username(request)))
            return limits
        match = getattr(request, "resolver_match", None)
        if request.method == "POST" and match is not None:
            if match.view_name == "games:actions":
                return [ActionLimit()]
            if match.view_name in GAME_CREATING_VIEWS:
                return [GameLimit()]
            if match.view_name == "games:analysis":
                return [AnalysisLimit()]
        emails = match is not None and match.view_name == "me-notifications"
        if request.method == "PATCH" and emails and _field(request, "email"):
            return [EmailConfirmationLimit(), EmailTargetLimit(_field(request, "email"))]
        return []

    def allow_request(self, request: Any, view: Any) -> bool:
        counted: list[_Limit] = []
        try:
            for limit in self._limits(request, view):
                counted.append(limit)
                if not limit.allow_request(request, view):
                    self.refused = limit
                    return False
            return True
        finally:
            _remember_headers(request, counted)

    def wait(self) -> float | None:
        return self.refused.wait() if self.refused is not None else None


def _remember_headers(request: Any, limits: list[_Limit]) -> None:
    """Keep the ``RateLimit-*`` values of the tightest limit that counted ``request``
    (fewest left) on the Django request, for ``RateLimitHeaders``."""
    known = [h for h in (limit.headers() for limit in limits) if h is not None]
    if known:
        raw = getattr(request, "_request", request)
        raw.pablo_rate_limit = min(known, key=lambda h: (h[1], -h[2]))


class RateLimitHeaders:
    """A mixin of every API view: the answer to a request a throttle counted carries
    ``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds)."""

    def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        found = getattr(getattr(request, "_request", request), "pablo_rate_limit", None)
        if found is not None:
            limit, remaining, reset = found
            response["RateLimit-Limit"] = str(limit)
            response["RateLimit-Remaining"] = str(remaining)
            response["RateLimit-Reset"] = str(reset)
        return response


def throttled(method: str, path: str, view_name: str | None) -> bool:
    """Whether ``ApiThrottle`` may count a request to this route (the schema documents
    its ``429``, ``games.api.openapi``)."""
    if path.startswith("/api/auth/"):
        return True
    counted = {"games:actions", "games:analysis", *GAME_CREATING_VIEWS}
    if method == "POST" and view_name in counted:
        return True
    return method == "PATCH" and view_name == "me-notifications"


#: API routes that create a game (``PABLO_THROTTLE_GAMES``); a rematch route adds its name.
GAME_CREATING_VIEWS = {"games:games", "games:rematch"}  # a rematch creates a game too


# --------------------------------------------------------------------------- web views


def check_web_auth(request: HttpRequest, username: str | None = None) -> int | None:
    """For a web log-in or sign-up submission: seconds to wait, or None to go on.

    Counts the request against ``PABLO_THROTTLE_AUTH`` (per client address)
    and, with ``username``, refuses it while that username and address are
    over ``PABLO_THROTTLE_LOGIN_FAILURES``. Failures themselves are counted by
    the ``user_login_failed`` signal (Django's ``authenticate``).
    """
    limits: list[_Limit] = [AuthLimit()]
    if username:
        limits.append(LoginFailureLimit(username))
    for limit in limits:
        if not limit.allow_request(request, None):
            wait = limit.wait()
            return int(wait) if wait is not None else 1
    return None


def too_many_response(wait: int) -> HttpResponse:
    """The 429 page of a refused web log-in or sign-up, with ``Retry-After``."""
    response = HttpResponse(
        str(TOO_MANY) % {"wait": wait}, status=429, content_type="text/plain; charset=utf-8"
    )
    response["Retry-After"] = str(wait)
    return response


def throttle_web_auth(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap a log-in or sign-up view: each POST is checked by ``check_web_auth``."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST":
            wait = check_web_auth(request, request.POST.get("username") or None)
            if wait is not None:
                return too_many_response(wait)
        response = view(request, *args, **kwargs)
        wait = getattr(request, "login_refused_wait", None)
        return response if wait is None else too_many_response(wait)

    return wrapped


__all__ = [
    "GAME_CREATING_VIEWS",
    "ActionLimit",
    "ApiThrottle",
    "AuthLimit",
    "EmailConfirmationLimit",
    "EmailTargetLimit",
    "GameLimit",
    "LoginFailureLimit",
    "SignupLimit",
    "ThrottledModelBackend",
    "check_web_auth",
    "client_address",
    "client_key",
    "game_created",
    "signing_up",
    "throttle_web_auth",
    "too_many_response",
]
