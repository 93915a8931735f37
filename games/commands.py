"""Typed commands: what the API hands the services once a body has been checked.

Commands are checked once, at the edge. The API's serializers
(``games.api.serializers``) turn a request body into one of these values, checking
every shape a body can get wrong -- JSON types, required fields, ranges that can
never be valid -- with one wording per error. The services trust them and add
only what needs the game: the pure rules check what depends on the state (a
seat of this game, whose turn it is, which card is where). Python callers
(tests, bots, the web table) build these values themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.errors import ApplicationError

MIN_TURN_TIMEOUT = 1
MAX_TURN_TIMEOUT = 1_209_600  # 14 days
DEFAULT_TURN_TIMEOUT = 86_400
MAX_IDEMPOTENCY_KEY = 255


def check_turn_timeout(value: Any) -> int:
    """A turn timeout in seconds, within the bounds (the one check, for every caller)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApplicationError("turn_timeout: A valid integer is required.")
    if value < MIN_TURN_TIMEOUT:
        raise ApplicationError(
            "turn_timeout: Ensure this value is greater than or equal to %(least)s.",
            least=MIN_TURN_TIMEOUT,
        )
    if value > MAX_TURN_TIMEOUT:
        raise ApplicationError(
            "turn_timeout: Ensure this value is less than or equal to %(most)s.",
            most=MAX_TURN_TIMEOUT,
        )
    return value


@dataclass(frozen=True)
class Action:
    """A player's action: the rules' command, and the optional guards around it."""

    command: dict[str, Any]
    expected_version: int | None = None
    idempotency_key: str | None = None
