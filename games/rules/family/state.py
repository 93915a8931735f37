"""A Pablo-family game's state, and the small helpers every job of the package shares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, cast

from ..errors import Malformed
from ..events import JSON
from ..state import State

SLOTS = 4  # dealt per player


@dataclass
class FamilyState(State):
    round: int = 0
    phase: str = "setup"  # setup | turn (the view says "over" once the game ended)
    codes: list[str] = field(default_factory=list)  # card id -> code, this round
    fields: list[list[int | None]] = field(default_factory=list)
    draw: list[int] = field(default_factory=list)  # top first
    discard: list[int] = field(default_factory=list)  # bottom -> top
    serial: int = 0
    held: int | None = None
    held_from: str | None = None  # deck | discard
    turn_seat: int | None = None
    stage: str = "look"  # look | draw | hold | power | done (between events of one action)
    turn_no: int = 0
    start_seat: int = 0
    looked: list[bool] = field(default_factory=list)
    #: per seat, then one more for the public (non-players): card ids they know
    known: list[set[int]] = field(default_factory=list)
    power: JSON | None = None  # {"kind", "optional", "spied"}
    callers: list[int] = field(default_factory=list)
    call_window: int | None = None
    match_open: bool = False
    rounds: list[JSON] = field(default_factory=list)
    #: The last finished round with every card face up (games/rules/round_reveal.py).
    reveal: JSON | None = None

    #: ``codes`` is only replaced (each round): ``copy`` shares it.
    SHARED: ClassVar[frozenset[str]] = State.SHARED | {"codes"}


def as_family(state: State) -> FamilyState:
    return cast(FamilyState, state)


def occupied(f: Sequence[int | None]) -> list[int]:
    return [p for p, c in enumerate(f) if c is not None]


def card_data(s: FamilyState, card: int) -> JSON:
    return {"card": card, "code": s.codes[card]}


def int_arg(command: JSON, name: str) -> int:
    value = command.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Malformed("%(name)s: must be a non-negative integer.", name=name)
    return value
