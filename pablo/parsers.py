"""The one request parser of the API: JSON, refusing what the standard one lets through.

DRF's ``JSONParser`` turns only a ``ValueError`` into a 400. A body nested
deeper than the interpreter's recursion limit (``[[[[...]]]]``, a few hundred
kilobytes) raises ``RecursionError`` from ``json.load`` instead, and an
unknown charset a ``LookupError``: both were 500s. Here they are parse errors
(400 ``parse_error``) like any other body that is not JSON.
"""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except (RecursionError, LookupError) as exc:
            raise ParseError(f"JSON parse error - {type(exc).__name__}") from None
