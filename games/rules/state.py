"""The state every game has, and the one way a state is copied.

Rulesets subclass ``State`` with their own fields; ``base_header`` fills the
common ones from the ``game_created`` header.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from .events import JSON


@dataclass
class State:
    """What every game has. Rulesets subclass it with their own fields.

    States are plain mutable dataclasses for speed; the engine's public
    functions never mutate the state they are given: they decide on a ``copy``.
    """

    #: Fields that are only ever replaced, never changed in place: ``copy`` shares them.
    SHARED: ClassVar[frozenset[str]] = frozenset({"options"})

    ruleset: str
    seats: int
    options: JSON
    turn_timeout: int
    version: int = 0
    status: str = "waiting"  # waiting | active | finished | aborted
    players: list[str | None] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)  # game totals
    timeouts: list[int] = field(default_factory=list)  # consecutive, per seat
    absent: list[bool] = field(default_factory=list)
    deadline: str | None = None  # ISO 8601 UTC, for the current turn_key
    turn_key: str | None = None
    result: JSON | None = None  # {"winners": [...], "losers": [...]}

    def copy(self: S) -> S:
        """An independent copy (the one copy every ruleset's state uses).

        ``copy.deepcopy`` was the slowest part of a decision. A state is plain data
        (lists, dicts and sets of numbers, strings, None), so each field is copied
        structurally by ``clone``, and the ``SHARED`` ones not at all.
        """
        new = copy.copy(self)
        for name in _copied_fields(type(self)):
            value = getattr(self, name)
            if type(value) not in _ATOMS:
                setattr(new, name, clone(value))
        return new


S = TypeVar("S", bound=State)

_ATOMS = frozenset({int, str, bool, float, type(None)})


def clone(value: Any) -> Any:
    """A copy of plain data: lists and dicts all the way down, sets; anything else is shared."""
    kind = type(value)
    if kind is list:
        return [v if type(v) in _ATOMS else clone(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _ATOMS else clone(v) for k, v in value.items()}
    if kind is set:
        return set(value)  # of hashable, so immutable, items
    return value


_COPIED: dict[type, tuple[str, ...]] = {}


def _copied_fields(cls: type[State]) -> tuple[str, ...]:
    names = _COPIED.get(cls)
    if names is None:
        names = _COPIED[cls] = tuple(f.name for f in fields(cls) if f.name not in cls.SHARED)
    return names


def base_header(state_cls: type[S], header: JSON) -> S:
    """A ruleset's ``initial_state`` helper: the common fields from the header."""
    seats = header["seats"]
    return state_cls(
        ruleset=header["ruleset"],
        seats=seats,
        options=dict(header["options"]),
        turn_timeout=header["turn_timeout"],
        players=[None] * seats,
        scores=[0] * seats,
        timeouts=[0] * seats,
        absent=[False] * seats,
    )
