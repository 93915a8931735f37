"""The ruleset protocol and the generic machinery every ruleset shares.

A game is a stream of events. ``fold(events)`` rebuilds its state; the
``create`` / ``join`` / ``act`` / ``timeout`` functions *decide*: they take a
state and a command and return the new events (or raise a ``RulesError``),
and never touch the state they are given. Nothing here reads the clock or a
random generator: the caller hands both in through a ``Context``, and every
outcome of chance (a shuffled deck, a reshuffle, a random start seat) is
written into the events, so folding is exact and needs neither.

This module owns the life cycle common to all rulesets:

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
game_finished     ``{"winners", "losers"}`` -- emitted by a ruleset
game_aborted      ``{"reason"}`` -- every player absent
================  ======================================================

A ruleset (see ``Ruleset``) owns everything else: its state fields, its
events, legal actions, and -- in ``view`` and ``event_view`` only -- what
each seat may see.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, Generic, Protocol, TypeVar

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
#: ruleset bug must not turn that into an endless one.
MAX_AUTO_STEPS = 20_000


# --------------------------------------------------------------------------- errors


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


# --------------------------------------------------------------------------- events, chance


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
    """What a decision may use besides the state: chance and the current time."""

    chance: Chance
    now: datetime


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """One game option, as ``GET /api/rulesets/`` describes it."""

    type: str  # "integer" | "boolean" | "string"
    default: Any
    description: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False

    def describe(self) -> JSON:
        out: JSON = {"type": self.type, "default": self.default}
        if self.choices is not None:
            out["enum"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.nullable:
            out["nullable"] = True
        if self.description:
            out["description"] = self.description
        return out

    def check(self, name: str, value: Any) -> Any:
        if value is None:
            if self.nullable:
                return None
            raise Malformed(f"options.{name}: must not be null.", "invalid_option")
        if self.type == "integer":
            if isinstance(value, bool) or not isinstance(value, int):
                raise Malformed(f"options.{name}: must be an integer.", "invalid_option")
        elif self.type == "boolean":
            if not isinstance(value, bool):
                raise Malformed(f"options.{name}: must be true or false.", "invalid_option")
        elif self.type == "string" and not isinstance(value, str):
            raise Malformed(f"options.{name}: must be a string.", "invalid_option")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise Malformed(f"options.{name}: must be one of {allowed}.", "invalid_option")
        if self.minimum is not None and value < self.minimum:
            raise Malformed(f"options.{name}: must be at least {self.minimum}.", "invalid_option")
        if self.maximum is not None and value > self.maximum:
            raise Malformed(f"options.{name}: must be at most {self.maximum}.", "invalid_option")
        return value


COMMON_OPTIONS: dict[str, Option] = {
    "start_seat": Option(
        "integer",
        None,
        "Seat that starts round 1; null draws it at random.",
        minimum=0,
        nullable=True,
    ),
    "memory": Option(
        "string",
        "assisted",
        "assisted: the view shows every field card you know; strict: only in the answer "
        "to the action that revealed it.",
        choices=("assisted", "strict"),
    ),
    "max_timeouts": Option(
        "integer", 3, "Consecutive timeouts after which a player is marked absent.", minimum=1
    ),
    # The bot levels are games.bots.LEVELS (tests/bots checks that they agree).
    "stand_in": Option(
        "string",
        "rules",
        "Who plays an absent player's turns: rules (the automatic action of a timeout) "
        "or a bot level.",
        choices=("rules", "random", "basic"),
    ),
}


# --------------------------------------------------------------------------- state


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


class Work(Generic[S]):
    """Deciding: a private copy of the state plus the events decided so far.

    Each event is applied to the copy as it is emitted, so later decisions of
    the same command see its effect; ``events`` is what the decision returns.
    """

    def __init__(self, state: S, ctx: Context) -> None:
        self.s: S = state.copy()
        self.ctx = ctx
        self.events: list[Event] = []

    def emit(self, type_: str, data: JSON, seat: int | None = None) -> Event:
        event = Event(type_, data, seat)
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


class Ruleset(Protocol):
    """What a ruleset provides. See ``games/rules/family.py`` and ``skipbo.py``."""

    id: str
    name: str
    min_players: int
    #: Ruleset-specific options (the common ones are added by the engine).
    options: dict[str, Option]

    def max_players(self, options: JSON) -> int:
        """Largest seat count allowed with these (validated) options."""
        ...

    @property
    def max_players_any(self) -> int:
        """Largest ``max_players`` over all options (``GET /api/rulesets/``)."""
        ...

    def check_options(self, seats: int, options: JSON) -> None:
        """Cross-field checks beyond each option's own range; raise ``Malformed``."""
        ...

    def deck(self, options: JSON) -> list[str]:
        """Every card code of one round's full deck (validates stacked decks)."""
        ...

    def initial_state(self, header: JSON) -> State:
        """The state right after ``game_created`` (header = that event's data)."""
        ...

    def start(self, state: State, ctx: Context) -> list[Event]:
        """The events that begin play once every seat is taken (deal round 1)."""
        ...

    def decide(self, state: State, seat: int, command: JSON, ctx: Context) -> list[Event]:
        """The events of ``seat`` doing ``command`` (already shape-checked), or raise."""
        ...

    def apply(self, state: State, event: Event) -> None:
        """Evolve ``state`` in place by one of the ruleset's own events."""
        ...

    def timeout(self, state: State, seat: int, ctx: Context) -> list[Event]:
        """The automatic action (docs/rules.md "Timeouts") for ``seat`` (one of ``actors``)."""
        ...

    def actors(self, state: State) -> list[int]:
        """Seats that must act before the game can go on (deadline, timeouts)."""
        ...

    def turn_key(self, state: State) -> str | None:
        """Names the current turn (or setup phase); a change starts a new deadline."""
        ...

    def view(self, state: State, seat: int | None, recent: Sequence[Event] = ()) -> JSON:
        """The API ``state`` object as ``seat`` (None: a non-player) sees it.

        ``recent`` are the events the viewer's own action just produced
        (``memory: strict`` shows field cards only when they reveal them).
        Includes ``legal_actions`` and ``turn.deadline``.
        """
        ...

    def event_view(self, before: State, event: Event, seat: int | None) -> JSON:
        """``event.data`` as ``seat`` saw it at that moment (``before`` = state before it)."""
        ...

    def legal_actions(self, state: State, seat: int | None) -> list[JSON]:
        """What ``seat`` may do now: complete bodies or templates (see docs/design.md)."""
        ...


# --------------------------------------------------------------------------- registry

_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        raise Malformed(f"ruleset: unknown ruleset {ruleset_id!r}.", "unknown_ruleset") from None


def rulesets() -> list[Ruleset]:
    return list(_REGISTRY.values())


def all_options(ruleset: Ruleset) -> dict[str, Option]:
    return {**ruleset.options, **COMMON_OPTIONS}


# --------------------------------------------------------------------------- folding


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


def _apply_all(state: State, events: Iterable[Event]) -> None:
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


# --------------------------------------------------------------------------- deciding


def validate_options(ruleset: Ruleset, seats: int, options: JSON) -> JSON:
    """Options with defaults filled in; ``Malformed`` naming the field otherwise."""
    if not isinstance(options, dict):
        raise Malformed("options: must be an object.", "invalid_option")
    specs = all_options(ruleset)
    unknown = sorted(set(options) - set(specs))
    if unknown:
        raise Malformed(
            f"options.{unknown[0]}: unknown option for {ruleset.id}; known: "
            f"{', '.join(sorted(specs))}.",
            "invalid_option",
        )
    clean = {
        name: spec.check(name, options.get(name, spec.default)) for name, spec in specs.items()
    }
    if clean["start_seat"] is not None and clean["start_seat"] >= seats:
        raise Malformed(f"options.start_seat: must be below seats ({seats}).", "invalid_option")
    ruleset.check_options(seats, clean)
    return clean


def create(
    ruleset_id: str, *, seats: Any, options: JSON, turn_timeout: int, creator: str
) -> list[Event]:
    """The first events of a new game: its header and the creator in seat 0."""
    ruleset = get_ruleset(ruleset_id)
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise Malformed("seats: must be an integer.", "invalid_seats")
    clean = validate_options(ruleset, seats, options)
    low, high = ruleset.min_players, ruleset.max_players(clean)
    if not low <= seats <= high:
        raise Malformed(
            f"seats: {ruleset.id} takes {low} to {high} players with these options.",
            "invalid_seats",
        )
    header = {"ruleset": ruleset.id, "seats": seats, "options": clean, "turn_timeout": turn_timeout}
    return [
        Event("game_created", header, 0),
        Event("player_joined", {"seat": 0, "username": creator}, 0),
    ]


def join(
    state: State, username: str, ctx: Context, *, seat: int | None = None, bot: str | None = None
) -> list[Event]:
    """The events of ``username`` taking the lowest free seat (and a full game starting).

    ``seat``: that seat instead (bots at creation); ``bot``: the bot's level,
    recorded in the event (``player_joined`` data ``"bot"``).
    """
    if state.status != "waiting":
        raise NotAllowed("This game has already started.", "game_not_waiting")
    if username in state.players:
        raise NotAllowed("You already have a seat in this game.", "already_seated")
    free = [s for s, name in enumerate(state.players) if name is None]
    if not free:
        raise NotAllowed("This game is full.", "game_full")
    if seat is not None and seat not in free:
        raise NotAllowed(f"Seat {seat} is taken.", "seat_taken")
    seat = free[0] if seat is None else seat
    data: JSON = {"seat": seat, "username": username}
    if bot is not None:
        data["bot"] = bot
    events = [Event("player_joined", data, seat)]
    if len(free) == 1:
        work = state.copy()
        events.append(Event("game_started", {}))
        _apply_all(work, events)
        started = get_ruleset(state.ruleset).start(work, ctx)
        _apply_all(work, started)
        events += started
        events += _follow_up(work, ctx)
    return events


def act(
    state: State, seat: int, command: JSON, ctx: Context, *, stand_in: bool = False
) -> list[Event]:
    """The events of ``seat`` doing ``command`` (a shape-checked API action body).

    ``stand_in``: a bot plays the turn of an absent player (option ``stand_in``):
    the player stays absent (no ``player_returned``).
    """
    # The shape checks that need the game (the API checked the rest): 400 before 409.
    target = command.get("seat")
    if isinstance(target, int) and not 0 <= target < state.seats:
        raise Malformed(f"seat: This game has seats 0 to {state.seats - 1}.", "invalid_seat")
    if command.get("give_position") is not None and target == seat:
        raise Malformed("give_position: Only with another player's card.")
    if state.status != "active":
        raise NotAllowed(f"The game is {state.status}, not active.", "game_not_active")
    return act_in_place(state.copy(), seat, command, ctx, stand_in=stand_in)


def act_in_place(
    state: State, seat: int, command: JSON, ctx: Context, *, stand_in: bool = False
) -> list[Event]:
    """``act`` evolving ``state`` itself by the events it returns (no copy).

    For callers that own their state and want the next one without a second
    copy and fold (the bots' simulations, games/bots/play.py). After a
    refusal ``state`` may hold a ``player_returned`` mark: pass a copy if that
    matters (``act`` does).
    """
    if state.status != "active":
        raise NotAllowed(f"The game is {state.status}, not active.", "game_not_active")
    ruleset = get_ruleset(state.ruleset)
    events: list[Event] = []
    if not stand_in and (state.absent[seat] or state.timeouts[seat]):
        events.append(Event("player_returned", {}, seat))
        _apply_all(state, events)
    decided = ruleset.decide(state, seat, command, ctx)
    _apply_all(state, decided)
    events += decided
    events += _follow_up(state, ctx)
    return events


def come_back(state: State, seat: int) -> list[Event]:
    """An absent player says they are back: their turns are no longer played for them.

    Any action of theirs clears the mark too (``act``), but in rulesets with no
    action out of turn an absent player never gets one: their turns are played
    at once. This is their way back (API: ``POST /api/games/{id}/back/``).
    """
    if state.status != "active":
        raise NotAllowed(f"The game is {state.status}, not active.", "game_not_active")
    if not state.absent[seat]:
        raise NotAllowed("You are not marked absent in this game.", "not_absent")
    return [Event("player_returned", {}, seat)]


def timeout(state: State, key: str, ctx: Context) -> list[Event]:
    """Enforce the deadline of turn ``key``; ``[]`` when the game has moved on.

    A duplicate (two sweeps, a redelivered task, a player who acted at the last
    moment) finds another key or no deadline and stores nothing.
    """
    if state.status != "active" or state.turn_key != key:
        return []
    ruleset = get_ruleset(state.ruleset)
    if ruleset.turn_key(state) != key:
        return []
    work = state.copy()
    events = _time_out(work, ruleset, ruleset.actors(work), ctx)
    events += _follow_up(work, ctx)
    return events


def _time_out(work: State, ruleset: Ruleset, seats: Sequence[int], ctx: Context) -> list[Event]:
    """Play ``seats``'s pending actions for them (mutates ``work``)."""
    events: list[Event] = []
    for seat in seats:
        if work.status != "active" or seat not in ruleset.actors(work):
            continue
        step = [Event("turn_timed_out", {}, seat)]
        _apply_all(work, step)
        auto = ruleset.timeout(work, seat, ctx)
        _apply_all(work, auto)
        step += auto
        if not work.absent[seat] and work.timeouts[seat] >= work.options["max_timeouts"]:
            marks = [Event("player_absent", {}, seat)]
            if all(work.absent[s] or s == seat for s in range(work.seats)):
                marks.append(Event("game_aborted", {"reason": "every player is absent"}))
            _apply_all(work, marks)
            step += marks
        events += step
    return events


def _follow_up(work: State, ctx: Context) -> list[Event]:
    """After an action: start a new deadline, play absent players' turns at once."""
    ruleset = get_ruleset(work.ruleset)
    events: list[Event] = []
    for _ in range(MAX_AUTO_STEPS):
        if work.status != "active":
            return events
        key = ruleset.turn_key(work)
        actors = ruleset.actors(work)
        if key is not None and key != work.turn_key:
            deadline = ctx.now + timedelta(seconds=work.turn_timeout)
            step = [Event("deadline_set", {"key": key, "deadline": iso(deadline), "seats": actors})]
            _apply_all(work, step)
            events += step
        # With a bot as stand-in (option ``stand_in``) the absent player's turns wait
        # for that bot (games/bot_turns.py); the deadline still backs it up.
        if work.options.get("stand_in", "rules") != "rules":
            return events
        away = [s for s in actors if work.absent[s]]
        if not away:
            return events
        events += _time_out(work, ruleset, away, ctx)
    raise RuntimeError("absent players' turns did not come to an end")


def iso(moment: datetime) -> str:
    """ISO 8601 UTC with a Z, to the millisecond."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


# --------------------------------------------------------------------------- viewing


def event_view(before: State, event: Event, seat: int | None) -> JSON:
    """``event.data`` as ``seat`` saw it when it happened."""
    if event.type in ENGINE_EVENTS:
        return dict(event.data)
    return get_ruleset(before.ruleset).event_view(before, event, seat)


def view(state: State, seat: int | None, recent: Sequence[Event] = ()) -> JSON | None:
    """The API ``state`` object for ``seat``; None while the game waits for players."""
    if state.status == "waiting":
        return None
    return get_ruleset(state.ruleset).view(state, seat, recent)


def reveal(state: State) -> JSON | None:
    """The table with every card face up, for the replay viewer of a finished game.

    Same shape as ``view(state, None)`` but hiding nothing: the Pablo family
    shows every ``fields`` slot's code and ``held``; Skip-Bo adds ``hands``
    (``{seat: [codes]}``). A ruleset opts in by providing ``reveal(state)``;
    None when it does not (the viewer then merges the seats' own views).
    """
    if state.status == "waiting":
        return None
    own = getattr(get_ruleset(state.ruleset), "reveal", None)
    if own is None:
        return None
    result: JSON = own(state)
    return result


def knowledge_view(state: State, seat: int | None) -> JSON | None:
    """What ``seat`` knows at ``state``: its ``view`` as under ``memory: assisted``.

    Assisted memory shows every card the seat was shown, where it is now --
    exactly what the seat's own redacted event feed lets one rebuild -- whatever
    the game's ``memory`` option hides on people's screens. Bots decide from it,
    and the replay viewer shows a seat's knowledge with it.
    """
    if state.options.get("memory", "assisted") != "assisted":
        state = copy.copy(state)
        state.options = {**state.options, "memory": "assisted"}
    return view(state, seat)
