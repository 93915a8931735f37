"""What goes in and out of a decision: events, the action types, chance and the time.

Life-cycle events common to every ruleset (``ENGINE_EVENTS``; the rest are a
ruleset's own):

================  ======================================================
event             meaning
================  ======================================================
game_created      header: ruleset, seats, options, turn_timeout
player_joined     ``{"seat", "username"}``
game_started      the last seat was taken; the ruleset's own events follow
deadline_set      a new turn (or a setup phase) began: ``{"key", "deadline", "seats"}``
turn_timed_out    the deadline passed; the auto action's events follow
player_absent     ``max_timeouts`` consecutive timeouts (docs/rules.md "Timeouts")
player_returned   an absent (or timed-out) player acted again
game_finished     ``{"winners", "losers", "places", "points"}`` -- emitted by a ruleset
                  (``places``: each seat's final place, 1 = first, ties share;
                  ``points``: the ruleset's final count per seat; both since ratings)
game_aborted      ``{"reason"}`` -- every player absent
================  ======================================================

Nothing here reads the clock or a random generator: the caller hands both in
through a ``Context``, and every outcome of chance is written into the events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

JSON = dict[str, Any]
T = TypeVar("T")

#: Player-commanded action types known to the API (API.md "Actions"). A type
#: outside this set is malformed (400); one a ruleset lacks is refused (409).
ACTION_TYPES = frozenset(
    {
        "look",
        "draw",
        "discard",
        "replace",
        "peek",
        "spy",
        "swap",
        "skip",
        "throw",
        "call",
        "play",
        "end",
    }
)

ENGINE_EVENTS = frozenset(
    {
        "game_created",
        "player_joined",
        "game_started",
        "deadline_set",
        "turn_timed_out",
        "player_absent",
        "player_returned",
        "game_finished",
        "game_aborted",
    }
)

#: Safety net: an absent player's turns are played at once, in a loop; a


@dataclass(frozen=True)
class Event:
    """A fact. ``seat`` is the seat it concerns (the actor), or None."""

    type: str
    data: JSON = field(default_factory=dict)
    seat: int | None = None


class Chance(Protocol):
    """Randomness, handed in by the caller. Results go into events."""

    def deck(self, round_no: int, cards: Sequence[str]) -> list[str]:
        """The shuffled deck for round ``round_no`` (1-based); honours stacked decks."""
        ...

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of ``items``."""
        ...

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items``."""
        ...


@dataclass(frozen=True)
class Context:
    """What a decision may use besides the state: chance and the current time.

    ``scratch``: the caller owns the state: the decision evolves it in place
    instead of a copy, so each decided event is applied once (an action stored by
    a service, a bot's rollout on a world of its own; a refused action leaves the
    state half-evolved). ``before``: called with the state and each decided event
    just before the event is applied to it (the actor's redaction,
    ``rules.act_seen``).
    """

    chance: Chance
    now: datetime
    scratch: bool = False
    before: Callable[[Any, Event], None] | None = None


def iso(moment: datetime) -> str:
    """ISO 8601 UTC with a Z, to the millisecond."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def places(keys: Sequence[Any]) -> list[int]:
    """Each seat's place from its sort key (lower is better): 1 for the best, ties
    share a place and the next one skips (1, 2, 2, 4), as ``game_finished`` records it."""
    return [1 + sum(other < key for other in keys) for key in keys]
