"""Throttling: the limits of API.md "Throttling", for the API and for the web log-in.

Three limits, each a setting in DRF's rate format (``N/s``, ``N/min``,
``N/hour``, ``N/day``; empty turns it off):

=================================  ==================================================
``PABLO_THROTTLE_AUTH``            every ``/api/auth/...`` call, and every web log-in
                                   or sign-up submission, per client address (60/min)
``PABLO_THROTTLE_LOGIN_FAILURES``  failed log-ins per username *and* client address
                                   (10/hour); a success does not count
``PABLO_THROTTLE_ACTIONS``         ``POST /api/games/{id}/actions/`` per user, over all
                                   their games (120/min)
=================================  ==================================================

Over a limit the answer is ``429 {"code": "throttled", "detail"}`` with
``Retry-After`` (seconds). While a username and address are over the failure
limit, that address is refused for that username *even with the right
password* until ``Retry-After`` has passed: a guesser learns nothing from the
answer. Other addresses may still log in as that user (an attacker cannot lock
the owner out from elsewhere).

How:

* The counters are DRF's ``SimpleRateThrottle`` histories (a list of times per
  key, sliding window) in the ``"throttle"`` cache (``pablo.settings``): Redis
  when configured, otherwise files under ``var/`` -- shared by every worker
  process, never a per-process dict.
* Failures are counted by a receiver of Django's ``user_login_failed`` signal,
  which ``django.contrib.auth.authenticate`` sends for every failed attempt
  with the request: the API's token view (``services.user_token`` passes the
  request) and Django's ``LoginView`` (its form passes it) are both counted
  with no code of their own.
* The API is throttled by one DRF throttle class set as the default for every
  view (``ApiThrottle``); it picks the limits from the route: ``/api/auth/``
  calls, the token view (failure limit), the action view.
* The web views call ``check_web_auth`` (or are wrapped by ``throttle_web_auth``).
* A cache that cannot be reached (Redis away) lets the request through, and
  says so in the log: throttling protects the service, it must not take it
  down with the cache.

For the web log-in and sign-up (``/accounts/login/``, ``/accounts/signup/``)::

    from pablo.throttling import throttle_web_auth
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

import hashlib
import logging
import math
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import caches
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

log = logging.getLogger(__name__)

CACHE = "throttle"
TOO_MANY = "Too many attempts from your address; try again in {wait} seconds."
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
            return hops[-min(proxies, len(hops))]
    return remote


class _Limit(SimpleRateThrottle):
    """A ``SimpleRateThrottle`` on the shared cache, its rate read from a Django setting."""

    setting = ""
    scope = ""

    def __init__(self) -> None:
        self.cache = caches[CACHE]
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)

    def get_rate(self) -> str | None:
        return getattr(settings, self.setting, None) or None

    def wait(self) -> float | None:
        seconds = super().wait()
        return None if seconds is None else max(1, math.ceil(seconds))

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception as exc:  # the cache is away: let it through
            _warn_cache_down(exc)
            return True


class AuthLimit(_Limit):
    """``PABLO_THROTTLE_AUTH``: every auth call (API or web) per client address."""

    setting = "PABLO_THROTTLE_AUTH"
    scope = "auth"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


class ActionLimit(_Limit):
    """``PABLO_THROTTLE_ACTIONS``: actions per user, over all their games."""

    setting = "PABLO_THROTTLE_ACTIONS"
    scope = "actions"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": user.pk}


class LoginFailureLimit(_Limit):
    """``PABLO_THROTTLE_LOGIN_FAILURES``: failed log-ins per username and address.

    ``allow_request`` only *looks*: a request is refused while the history of
    failures is full. Failures are added by ``record_failure`` (the
    ``user_login_failed`` receiver), never by a success.
    """

    setting = "PABLO_THROTTLE_LOGIN_FAILURES"
    scope = "login-failures"

    def __init__(self, username: str = "") -> None:
        super().__init__()
        self.username = username

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if not self.username:
            return None
        # Usernames are case-sensitive in Django but a guesser may vary the case:
        # count them together. Hashed, so any username makes a valid cache key.
        ident = hashlib.sha256(
            f"{self.username.casefold()}\n{client_address(request)}".encode()
        ).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        try:
            self.history = self.cache.get(self.key, [])
        except Exception as exc:
            _warn_cache_down(exc)
            return True
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        return len(self.history) < self.num_requests

    def record(self, request: Any) -> None:
        if self.rate is None:
            return
        self.key = self.get_cache_key(request, None)
        if self.key is None:
            return
        try:
            history = self.cache.get(self.key, [])
            now = self.timer()
            history = [t for t in history if t > now - self.duration]
            history.insert(0, now)
            self.cache.set(self.key, history, self.duration)
        except Exception as exc:
            _warn_cache_down(exc)


@receiver(user_login_failed, dispatch_uid="pablo.throttling.record_failure")
def record_failure(
    sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
) -> None:
    """Count a failed ``authenticate()`` against its username and client address."""
    username = credentials.get("username")
    if request is None or not isinstance(username, str) or not username:
        return
    LoginFailureLimit(username).record(request)


def _username(request: Any) -> str:
    try:
        data = request.data
    except Exception:
        return ""  # the view answers the malformed body with its own 400
    name = data.get("username") if isinstance(data, dict) else None
    return name if isinstance(name, str) else ""


class ApiThrottle(BaseThrottle):
    """The one DRF throttle of every API view: picks the limits by route.

    * ``/api/auth/...``: ``AuthLimit``; the token call also ``LoginFailureLimit``
      for the username in its body;
    * ``POST`` to the action route (``games:actions``): ``ActionLimit``.

    Everything else is not throttled.
    """

    def __init__(self) -> None:
        self.refused: _Limit | None = None

    def _limits(self, request: Any, view: Any) -> list[_Limit]:
        path = request.path
        if path.startswith("/api/auth/"):
            limits: list[_Limit] = [AuthLimit()]
            if path.startswith("/api/auth/token/") and request.method == "POST":
                limits.append(LoginFailureLimit(_username(request)))
            return limits
        match = getattr(request, "resolver_match", None)
        if request.method == "POST" and match is not None and match.view_name == "games:actions":
            return [ActionLimit()]
        return []

    def allow_request(self, request: Any, view: Any) -> bool:
        for limit in self._limits(request, view):
            if not limit.allow_request(request, view):
                self.refused = limit
                return False
        return True

    def wait(self) -> float | None:
        return self.refused.wait() if self.refused is not None else None


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
        TOO_MANY.format(wait=wait), status=429, content_type="text/plain; charset=utf-8"
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
        return view(request, *args, **kwargs)

    return wrapped


__all__ = [
    "ActionLimit",
    "ApiThrottle",
    "AuthLimit",
    "LoginFailureLimit",
    "check_web_auth",
    "client_address",
    "throttle_web_auth",
    "too_many_response",
]
