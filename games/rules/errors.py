"""The rules' errors: what the rules refuse, with a machine ``code``.

The API maps the classes to statuses (``Malformed`` 400, ``NotAllowed`` 409).
"""

from __future__ import annotations


class RulesError(Exception):
    """An action the rules refuse, with a machine ``code`` (the API maps classes to statuses)."""

    default_code = "illegal_action"

    def __init__(self, detail: str, code: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.code = code or self.default_code


class Malformed(RulesError):
    """A value that can never be valid in this game (a malformed request)."""

    default_code = "invalid"


class NotAllowed(RulesError):
    """Well-formed but not allowed now. Nothing is stored."""

    default_code = "illegal_action"
