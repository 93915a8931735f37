"""503 ``{"code": "unavailable"}`` while the database cannot be reached.

When PostgreSQL restarts (or the network to it drops) a request fails with
``OperationalError`` / ``InterfaceError`` from the database driver. That is
not a bug in the request: the client should retry shortly. This middleware
turns those errors into ``503 {"code": "unavailable", "detail"}`` with
``Retry-After`` (``PABLO_UNAVAILABLE_RETRY_AFTER`` seconds, default 5) --
JSON under ``/api/``, a short plain page elsewhere -- instead of a 500.

Nothing is half-stored: every write runs in one transaction, which the
database rolls back when the connection drops. The broken connection is
closed when the request ends (Django closes unusable connections), and
``CONN_HEALTH_CHECKS`` (pablo.settings) makes the next request check a
persistent connection before using it, so requests succeed again as soon as
the database is back, without restarting the service.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext_lazy

log = logging.getLogger(__name__)

DETAIL = gettext_lazy("The service is briefly unavailable; retry in a few seconds.")


def unavailable_response(request: HttpRequest) -> HttpResponse:
    wait = int(getattr(settings, "PABLO_UNAVAILABLE_RETRY_AFTER", 5))
    if request.path_info.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"code": "unavailable", "detail": str(DETAIL)}, status=503
        )
    else:
        response = HttpResponse(str(DETAIL), status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(wait)
    return response


def _drop_broken_connections() -> None:
    for conn in connections.all(initialized_only=True):
        try:
            if conn.connection is not None and not conn.is_usable():
                conn.close()
        except Exception:  # closing a dead connection may raise too
            conn.connection = None


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        except (OperationalError, InterfaceError) as exc:
            # Raised by a middleware below us (sessions, auth) outside any view.
            return self._answer(request, exc)

    def process_exception(self, request: HttpRequest, exc: Exception) -> Any:
        if isinstance(exc, OperationalError | InterfaceError):
            return self._answer(request, exc)
        return None

    def _answer(self, request: HttpRequest, exc: Exception) -> HttpResponse:
        log.warning("database unavailable for %s %s: %s", request.method, request.path, exc)
        _drop_broken_connections()
        return unavailable_response(request)
