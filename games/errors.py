"""Domain errors: a refusal carries a machine ``code`` and a ``detail`` sentence, never an
HTTP status.

The one place that turns errors into HTTP answers is
``games.api.exceptions.exception_handler`` (``STATUSES`` there): ``NotFound`` 404,
``Forbidden`` 403, ``Conflict`` 409, ``Unavailable`` 503, any other
``ApplicationError`` 400; the pure rules' ``games.rules.Malformed`` 400 and
``NotAllowed`` 409. Services, selectors and the stream raise these; they never
name a status.
"""

from __future__ import annotations


class ApplicationError(Exception):
    """A refusal of the request as sent (malformed: a field that can never be valid)."""

    default_code = "invalid"

    def __init__(self, detail: str, code: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
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


# One wording per error: the sentences raised in more than one place.
NO_GAME = "No game with this id."
NOT_A_PLAYER = "You are not a player of this game."
RACE = "Someone else changed this game at the same moment; reload it and try again."


def not_found() -> NotFound:
    return NotFound(NO_GAME)


def not_a_player() -> Forbidden:
    return Forbidden(NOT_A_PLAYER, "not_a_player")


def version_conflict(version: int | None = None, expected: int | None = None) -> Conflict:
    if version is None:
        return Conflict(RACE, "version_conflict")
    return Conflict(
        f"The game is at version {version}, not {expected}; reload it and decide again.",
        "version_conflict",
    )
