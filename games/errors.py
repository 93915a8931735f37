"""Domain errors: a refusal carries a machine ``code`` and a ``detail`` sentence, never an
HTTP status.

The one place that turns errors into HTTP answers is
``games.api.exceptions.exception_handler`` (``STATUSES`` there): ``NotFound`` 404,
``Forbidden`` 403, ``Conflict`` 409, ``Unavailable`` 503, any other
``ApplicationError`` 400; the pure rules' ``games.rules.Malformed`` 400 and
``NotAllowed`` 409. Services, selectors and the stream raise these; they never
name a status.

A refusal's sentence is written as the rules write theirs (``games.rules.errors``):
an English template, a plain string literal at the call, with ``%(name)s``
placeholders and the values apart -- ``Conflict("You have %(most)s devices
already.", "too_many_devices", most=5)``. ``makemessages`` collects it (the
project's command knows these classes), and ``sentence`` says it in the active
language: the API's exception handler and the pages call it, so a refusal
speaks the request's language (docs/design.md "Languages"). A value that is
itself a sentence is a lazy translation (``gettext_lazy``), so it too follows
the language it is finally said in.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.rules import RulesError


class ApplicationError(Exception):
    """A refusal of the request as sent (malformed: a field that can never be valid).

    ``message`` is the English template, ``params`` its values, ``detail`` the
    English sentence (logs, the command line); ``sentence(exc)`` the translated one."""

    default_code = "invalid"

    def __init__(self, message: str, code: str | None = None, **params: Any) -> None:
        self.message = message
        self.params = params
        self.detail = _fill(message, params)
        super().__init__(self.detail)
        self.code = code or self.default_code


class NotFound(ApplicationError):
    """No such game (or the caller may not know it exists)."""

    default_code = "not_found"


class Forbidden(ApplicationError):
    """The caller is not a player of this game."""

    default_code = "not_a_player"


class Unauthenticated(ApplicationError):
    """The credentials the request came with are no longer valid (a token rotated meanwhile)."""

    default_code = "authentication_failed"


class Unavailable(ApplicationError):
    """A part the write needs is briefly away (the shared cache): nothing stored, retry."""

    default_code = "unavailable"


class Conflict(ApplicationError):
    """Well-formed, but not allowed now (another write got there first, ...). Nothing stored."""

    default_code = "illegal_action"


def _fill(message: str, params: dict[str, Any]) -> str:
    return message % {k: str(v) for k, v in params.items()} if params else message


def sentence(exc: RulesError | ApplicationError) -> str:
    """The refusal's sentence in the active language (English when the catalogues lack it)."""
    return _fill(gettext(exc.message), exc.params)


# One wording per error: the sentences raised in more than one place.


def not_found() -> NotFound:
    return NotFound("No game with this id.")


def not_a_player() -> Forbidden:
    return Forbidden("You are not a player of this game.", "not_a_player")


def version_conflict(version: int | None = None, expected: int | None = None) -> Conflict:
    if version is None:
        return Conflict(
            "Someone else changed this game at the same moment; reload it and try again.",
            "version_conflict",
        )
    return Conflict(
        "The game is at version %(version)s, not %(expected)s; reload it and decide again.",
        "version_conflict",
        version=version,
        expected=expected,
    )
