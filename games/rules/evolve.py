"""Evolving a state by events: ``apply`` one, ``fold`` a stream, and the life-cycle handlers.

``Handlers`` is the table each module fills with its events' handlers;
``Work`` is a decision's private copy of the state, evolved as it emits events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from .events import JSON, Context, Event
from .registry import get_ruleset
from .state import State

S = TypeVar("S", bound=State)


class Work(Generic[S]):
    """Deciding: a private copy of the state plus the events decided so far.

    Each event is applied to the copy as it is emitted, so later decisions of
    the same command see its effect; ``events`` is what the decision returns.
    With ``ctx.scratch`` the state itself is evolved (no copy).
    """

    def __init__(self, state: S, ctx: Context) -> None:
        self.s: S = state if ctx.scratch else state.copy()
        self.ctx = ctx
        self.events: list[Event] = []

    def emit(self, type_: str, data: JSON, seat: int | None = None) -> Event:
        event = Event(type_, data, seat)
        if self.ctx.before is not None:
            self.ctx.before(self.s, event)
        apply(self.s, event)
        self.events.append(event)
        return event


#: An event handler: evolves the state in place (a ruleset's may take ``self`` first).
Handler = Callable[..., None]
H = TypeVar("H", bound=Handler)


class Handlers:
    """The one way an event is applied: a table from event type to its handler.

    Each module fills its own table with ``@table.on("type", ...)`` on the
    handler and looks the handler up with ``table[event.type]``.
    """

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.table: dict[str, Handler] = {}

    def on(self, *types: str) -> Callable[[H], H]:
        def register(handler: H) -> H:
            for type_ in types:
                assert type_ not in self.table, f"{self.owner}: two handlers of {type_!r}"
                self.table[type_] = handler
            return handler

        return register

    def __contains__(self, type_: str) -> bool:
        return type_ in self.table

    def __getitem__(self, type_: str) -> Handler:
        try:
            return self.table[type_]
        except KeyError:
            raise ValueError(f"{self.owner}: unknown event {type_!r}") from None


def apply(state: State, event: Event) -> None:
    """Evolve ``state`` in place by ``event`` (engine events here, the rest by the ruleset)."""
    state.version += 1
    if event.type in _ON:
        _ON[event.type](state, event)
    else:
        get_ruleset(state.ruleset).apply(state, event)


def fold(events: Iterable[Event]) -> State:
    """The state after ``events``; the first must be ``game_created``."""
    it = iter(events)
    first = next(it)
    if first.type != "game_created":
        raise ValueError("a game's stream starts with game_created")
    state = get_ruleset(first.data["ruleset"]).initial_state(first.data)
    state.version = 1
    for event in it:
        apply(state, event)
    return state


def apply_all(state: State, events: Iterable[Event]) -> None:
    for event in events:
        apply(state, event)


_ON = Handlers("engine")


@_ON.on("player_joined")
def _joined(state: State, event: Event) -> None:
    assert event.seat is not None
    state.players[event.seat] = event.data["username"]


@_ON.on("game_started")
def _started(state: State, event: Event) -> None:
    state.status = "active"


@_ON.on("deadline_set")
def _deadline(state: State, event: Event) -> None:
    state.turn_key = event.data["key"]
    state.deadline = event.data["deadline"]


@_ON.on("turn_timed_out")
def _timed_out(state: State, event: Event) -> None:
    assert event.seat is not None
    state.timeouts[event.seat] += 1


@_ON.on("player_absent")
def _absent(state: State, event: Event) -> None:
    assert event.seat is not None
    state.absent[event.seat] = True


@_ON.on("player_returned")
def _returned(state: State, event: Event) -> None:
    assert event.seat is not None
    state.absent[event.seat] = False
    state.timeouts[event.seat] = 0


@_ON.on("game_finished")
def _finished(state: State, event: Event) -> None:
    state.status = "finished"
    state.result = {"winners": list(event.data["winners"]), "losers": list(event.data["losers"])}
    state.deadline = None
    state.turn_key = None


@_ON.on("game_aborted")
def _aborted(state: State, event: Event) -> None:
    state.status = "aborted"
    state.result = {"winners": [], "losers": []}
    state.deadline = None
    state.turn_key = None
