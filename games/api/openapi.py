"""The schema's generator (``DEFAULT_SCHEMA_CLASS``): drf-spectacular's, plus the
``429`` of every operation a throttle counts (``throttling.throttled``), so that a
program reading the schema knows where it may be told to wait, and the headers that
say how long: ``Retry-After`` on every ``429``, ``RateLimit-*`` on the answers of a
throttled operation (only where a limit counted the request: not required)."""

from __future__ import annotations

import re
from typing import Any

from django.urls import Resolver404, resolve
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse

from .schema import ErrorSerializer
from .throttling import throttled

THROTTLED = OpenApiResponse(
    ErrorSerializer,
    description="`throttled`: over a rate limit; wait `Retry-After` seconds. Every "
    "answer such a limit counts carries `RateLimit-Limit`, `RateLimit-Remaining` and "
    "`RateLimit-Reset` (seconds until the window frees).",
)

SECONDS = {"type": "integer", "minimum": 0}
RETRY_AFTER = {
    "schema": SECONDS,
    "required": True,
    "description": "Seconds to wait before trying again.",
}
RATE_LIMIT = {
    "RateLimit-Limit": "The limit's count of requests per window.",
    "RateLimit-Remaining": "Requests left in the current window (0 on a 429).",
    "RateLimit-Reset": "Seconds until the current window frees.",
}


class ThrottledAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction: Any = "response") -> Any:
        # (``extend_schema`` overrides ``get_response_serializers`` in a subclass: add here)
        bodies = super()._get_response_bodies(direction)
        if "429" not in bodies and self._throttled():
            bodies["429"] = self._get_response_for_code(THROTTLED, "429", direction=direction)
        return bodies

    def _get_response_headers_for_code(self, status_code: Any, direction: Any = "response") -> Any:
        headers = super()._get_response_headers_for_code(status_code, direction)
        if str(status_code) == "429":
            headers.setdefault("Retry-After", RETRY_AFTER)
        if self._throttled():
            for name, text in RATE_LIMIT.items():
                headers.setdefault(name, {"schema": SECONDS, "description": text})
        return headers

    def _throttled(self) -> bool:
        path = re.sub(r"\{[^}]+\}", "0", self.path)  # any value resolves the route
        try:
            name = resolve(path).view_name
        except Resolver404:
            return False
        return throttled(self.method, path, name)
