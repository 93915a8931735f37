"""One error shape for the whole API: ``{"code": "...", "detail": "..."}``.

This is DRF's ``EXCEPTION_HANDLER`` and Django's ``handler400`` / ``handler500``
(wired by pablo's settings and urls, through ``pablo.exceptions``); the web
pages (play/) use the same table to turn a domain error into a status, so it
lives with the API, which everything may import, not in pablo/, which nothing
imports but Django.

Everything that can go wrong in a request maps here to the status of API.md:

* the domain errors of ``games.errors`` (``NotFound`` 404, ``Forbidden`` 403,
  ``Conflict`` 409, any other ``ApplicationError`` 400) and the pure rules'
  ``games.rules.Malformed`` 400 / ``NotAllowed`` 409, by their class
  (``STATUSES``, the only table of statuses) with their own ``code``;
* DRF's exceptions (validation 400 ``invalid`` with the field named in the
  detail, parse errors 400, 401, 403, 404, 405, ...) by their status and code;
* Django's ``Http404`` and ``PermissionDenied``.

A malformed request must never become a 500, and no detail may name a hidden
card: rules errors are written that way, and validation details only echo
what the client sent.

Every ``detail`` is said in the active language, which for the API is the
request's ``Accept-Language`` (``play.language``): a domain or rules error's
template through the catalogues (``games.errors.sentence``), DRF's own
sentences through DRF's, ours here with ``gettext``. The ``code`` never changes.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, JsonResponse
from django.utils.translation import gettext
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import (
    ApplicationError,
    Conflict,
    Forbidden,
    NotFound,
    Unauthenticated,
    Unavailable,
    sentence,
)
from games.rules import Malformed, NotAllowed, RulesError

__all__ = [
    "ApplicationError",
    "Conflict",
    "Forbidden",
    "NotFound",
    "Unauthenticated",
    "exception_handler",
]


#: Error class -> HTTP status; the first class the error is an instance of wins.
STATUSES: tuple[tuple[type[Exception], int], ...] = (
    (NotFound, 404),
    (Unauthenticated, 401),
    (Forbidden, 403),
    (Conflict, 409),
    (Unavailable, 503),
    (ApplicationError, 400),
    (Malformed, 400),
    (NotAllowed, 409),
    (RulesError, 409),
)


def status_of(exc: Exception) -> int | None:
    """The HTTP status of a domain or rules error (None: not one of ours)."""
    return next((status for cls, status in STATUSES if isinstance(exc, cls)), None)


def error_body(code: str, detail: str) -> dict[str, str]:
    return {"code": code, "detail": detail}


def _flatten(detail: Any, prefix: str = "") -> list[tuple[str, str, str]]:
    """(field path, message, code) for every message of a DRF validation error."""
    out: list[tuple[str, str, str]] = []
    if isinstance(detail, dict):
        for key, value in detail.items():
            if isinstance(key, int):  # a ListField's items: {index: errors}
                out += _flatten(value, f"{prefix}[{key}]")
                continue
            name = str(key)
            if name in ("non_field_errors", "__all__"):
                name = ""
            path = f"{prefix}.{name}" if prefix and name else (prefix or name)
            out += _flatten(value, path)
    elif isinstance(detail, list):
        scalar = all(isinstance(item, exceptions.ErrorDetail) for item in detail)
        for index, item in enumerate(detail):
            if scalar:
                out += _flatten(item, prefix)
            elif item:
                out += _flatten(item, f"{prefix}[{index}]")
    else:
        code = getattr(detail, "code", None) or "invalid"
        out.append((prefix, str(detail), code))
    return out


def validation_detail(detail: Any) -> tuple[str, str]:
    """(code, sentence) for a DRF ``ValidationError.detail``, naming the fields."""
    messages = _flatten(detail)
    if not messages:
        return "invalid", gettext("The request is not valid.")
    parts = []
    for path, message, _code in messages:
        parts.append(f"{path}: {message}" if path else message)
    # A serializer may raise with a specific code ("invalid_seat", ...): keep the first one
    # that is one of ours, otherwise the generic "invalid" (DRF's "required",
    # "null", ... are details, not API codes).
    code = next((c for _p, _m, c in messages if c in OWN_VALIDATION_CODES), "invalid")
    return code, printable(" ".join(parts))


def printable(text: str) -> str:
    """``text`` with any lone surrogate written as its escape (``\\ud800``): a detail
    naming what the client sent (an unknown key) may hold one, which JSON decodes but
    UTF-8 cannot encode -- the answer was a 500."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


#: Codes a serializer may raise that are passed through as the error code.
OWN_VALIDATION_CODES = frozenset(
    {
        "invalid_seat",
        "invalid_deck",
        "invalid_option",
        "invalid_seats",
        "unknown_ruleset",
        "stacked_decks_disabled",
        "username_taken",
        "invalid_credentials",
    }
)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    domain = status_of(exc)
    if domain is not None:
        assert isinstance(exc, RulesError | ApplicationError)
        answer = Response(error_body(exc.code, sentence(exc)), status=domain)
        if domain == status.HTTP_401_UNAUTHORIZED:
            answer["WWW-Authenticate"] = "Token"  # as DRF's own 401s
        if domain == status.HTTP_503_SERVICE_UNAVAILABLE:
            answer["Retry-After"] = str(getattr(settings, "PABLO_UNAVAILABLE_RETRY_AFTER", 5))
        return answer
    if isinstance(exc, RequestDataTooBig):
        # Django's own answer is an HTML 400 page; a body that big is malformed.
        return Response(
            error_body(
                "body_too_large", gettext("The body is too large for any action of this API.")
            ),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a genuine server error
    assert isinstance(exc, exceptions.APIException)
    if isinstance(exc, exceptions.ValidationError):
        code, detail = validation_detail(exc.detail)
        response.data = error_body(code, detail)
        return response
    if isinstance(exc, exceptions.UnsupportedMediaType):
        # API.md: a body that is not JSON is a malformed body (400).
        response.status_code = status.HTTP_400_BAD_REQUEST
        response.data = error_body("parse_error", gettext("The body must be a JSON object."))
        return response
    if isinstance(exc, exceptions.ParseError):
        response.data = error_body("parse_error", gettext("The body is not valid JSON."))
        return response
    code = exc.get_codes()
    if not isinstance(code, str):
        code = exc.default_code
    response.data = error_body(code, str(exc.detail))
    return response


@csrf_exempt  # a POST to an unknown path is a 404, not a CSRF 403 page
def not_found_view(request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
    """JSON 404 for unknown paths under /api/ (Django's own page is HTML)."""
    return JsonResponse(error_body("not_found", gettext("No such API path.")), status=404)


def _api(request: Any) -> bool:
    return str(getattr(request, "path", "")).startswith("/api/")


def bad_request_view(request: Any, exception: Exception | None = None) -> Any:
    """``handler400``: what Django refuses before any view (a disallowed Host header,
    too many fields...) is JSON under /api/, Django's page elsewhere."""
    if _api(request):
        return JsonResponse(
            error_body("bad_request", gettext("The request is malformed.")), status=400
        )
    return defaults.bad_request(request, exception)


def server_error_view(request: Any) -> Any:
    """``handler500``: even a genuine server error keeps the error shape under /api/."""
    if _api(request):
        return JsonResponse(
            error_body(
                "server_error", gettext("Something went wrong on our side; reload, then retry.")
            ),
            status=500,
        )
    return defaults.server_error(request)
