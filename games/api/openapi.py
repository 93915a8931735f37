"""The schema's generator (``DEFAULT_SCHEMA_CLASS``): drf-spectacular's, plus the
``429`` of every operation a throttle counts (``throttling.throttled``), so that a
program reading the schema knows where it may be told to wait."""

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


class ThrottledAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction: Any = "response") -> Any:
        # (``extend_schema`` overrides ``get_response_serializers`` in a subclass: add here)
        bodies = super()._get_response_bodies(direction)
        if "429" not in bodies and self._throttled():
            bodies["429"] = self._get_response_for_code(THROTTLED, "429", direction=direction)
        return bodies

    def _throttled(self) -> bool:
        path = re.sub(r"\{[^}]+\}", "0", self.path)  # any value resolves the route
        try:
            name = resolve(path).view_name
        except Resolver404:
            return False
        return throttled(self.method, path, name)
