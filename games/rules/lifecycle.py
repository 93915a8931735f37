"""A game's life cycle: create, join, act, come back, time out (shared by every ruleset).

Each function takes a state and a command and returns the new events (or
raises a ``RulesError``), and never touches the state it is given (but
``act_in_place`` and ``act_seen``). After an action, ``_follow_up`` starts the
next deadline and plays absent players' turns at once. Each event is applied
once to the state being worked on: the rulesets' decisions evolve it as they
emit (``Context.scratch``), and the life cycle applies only the events it makes
itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from .errors import Malformed, NotAllowed
from .events import JSON, Context, Event, iso
from .evolve import apply, apply_all
from .protocol import Ruleset
from .registry import get_ruleset, validate_options
from .state import State
from .visibility import event_view

#: Safety net: an absent player's turns are played at once, in a loop; a
#: ruleset bug must not turn that into an endless one.
MAX_AUTO_STEPS = 20_000


def create(
    ruleset_id: str,
    *,
    seats: Any,
    options: JSON,
    turn_timeout: int,
    creator: str,
    rated: bool = True,
) -> list[Event]:
    """The first events of a new game: its header and the creator in seat 0.

    ``rated``: whether the game counts for ratings (the header keeps it, so the
    ratings are rebuilt from the events alone).
    """
    ruleset = get_ruleset(ruleset_id)
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise Malformed("seats: must be an integer.", "invalid_seats")
    clean = validate_options(ruleset, seats, options)
    low, high = ruleset.min_players, ruleset.max_players(clean)
    if not low <= seats <= high:
        raise Malformed(
            "seats: %(ruleset)s takes %(low)s to %(high)s players with these options.",
            "invalid_seats",
            ruleset=ruleset.id,
            low=low,
            high=high,
        )
    header = {
        "ruleset": ruleset.id,
        "seats": seats,
        "options": clean,
        "turn_timeout": turn_timeout,
        "rated": rated,
    }
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
        raise NotAllowed("Seat %(seat)s is taken.", "seat_taken", seat=seat)
    seat = free[0] if seat is None else seat
    data: JSON = {"seat": seat, "username": username}
    if bot is not None:
        data["bot"] = bot
    events = [Event("player_joined", data, seat)]
    if len(free) == 1:
        work = state.copy()
        events.append(Event("game_started", {}))
        apply_all(work, events)
        events += get_ruleset(state.ruleset).start(work, replace(ctx, scratch=True))
        events += _follow_up(work, ctx)
    return events


def act(
    state: State, seat: int, command: JSON, ctx: Context, *, stand_in: bool = False
) -> list[Event]:
    """The events of ``seat`` doing ``command`` (a shape-checked API action body).

    ``stand_in``: a bot plays the turn of an absent player (option ``stand_in``):
    the player stays absent (no ``player_returned``).
    """
    return _act(state.copy(), seat, command, ctx, stand_in)


def act_in_place(
    state: State, seat: int, command: JSON, ctx: Context, *, stand_in: bool = False
) -> list[Event]:
    """``act`` evolving ``state`` itself by the events it returns (no copy).

    For callers that own their state and want the next one without a second
    copy and fold (a bot's move in games.services.bots, the bots' simulations,
    games/bots/driver.py). After a refusal ``state`` may be half-evolved: pass
    a copy if that matters (``act`` does).
    """
    return _act(state, seat, command, ctx, stand_in)


@dataclass
class Acted:
    """A player's action as its player saw it happen."""

    events: list[Event]
    #: Each event's data as the actor saw it: ``event_view`` against the state just
    #: before that event (the API answer's ``events``).
    seen: list[JSON]


def act_seen(state: State, seat: int, command: JSON, ctx: Context) -> Acted:
    """``act_in_place`` that also redacts each event for ``seat`` as it is applied.

    ``state`` (the caller's own) ends evolved by the events, so a writer stores
    them without applying them again: each event is applied once.
    """
    seen: list[JSON] = []

    def before(work: State, event: Event) -> None:
        seen.append(event_view(work, event, seat))

    return Acted(_act(state, seat, command, ctx, False, before), seen)


#: Called with the state and each event just before the event is applied to it.
Before = Callable[[State, Event], None]
#: How the life cycle evolves its state by the events it makes itself (the
#: ruleset's decisions evolve it as they emit theirs: ``Context.scratch``).
Step = Callable[[State, Iterable[Event]], None]


def _stepper(before: Before | None) -> Step:
    """``apply`` each event, after ``before`` if there is one."""
    if before is None:
        return apply_all

    def step(work: State, events: Iterable[Event]) -> None:
        for event in events:
            before(work, event)
            apply(work, event)

    return step


def _act(
    state: State,
    seat: int,
    command: JSON,
    ctx: Context,
    stand_in: bool,
    before: Before | None = None,
) -> list[Event]:
    """``state`` is the caller's own: every event is applied to it once, as it is
    decided (the ruleset's decision evolves it in place: ``Context.scratch``)."""
    # The shape checks that need the game (the API checked the rest): 400 before 409.
    target = command.get("seat")
    if isinstance(target, int) and not 0 <= target < state.seats:
        raise Malformed(
            "seat: This game has seats 0 to %(last)s.", "invalid_seat", last=state.seats - 1
        )
    if command.get("give_position") is not None and target == seat:
        raise Malformed("give_position: Only with another player's card.")
    if state.status != "active":
        raise _not_active(state.status)
    ruleset = get_ruleset(state.ruleset)
    step = _stepper(before)
    events: list[Event] = []
    if not stand_in and (state.absent[seat] or state.timeouts[seat]):
        events.append(Event("player_returned", {}, seat))
        step(state, events)
    events += ruleset.decide(state, seat, command, replace(ctx, scratch=True, before=before))
    events += _follow_up(state, ctx, before)
    return events


def come_back(state: State, seat: int) -> list[Event]:
    """An absent player says they are back: their turns are no longer played for them.

    Any action of theirs clears the mark too (``act``), but in rulesets with no
    action out of turn an absent player never gets one: their turns are played
    at once. This is their way back (API: ``POST /api/games/{id}/back/``).
    """
    if state.status != "active":
        raise _not_active(state.status)
    if not state.absent[seat]:
        raise NotAllowed("You are not marked absent in this game.", "not_absent")
    return [Event("player_returned", {}, seat)]


def timeout(state: State, key: str, ctx: Context) -> list[Event]:
    """Enforce the deadline of turn ``key``; ``[]`` when the game has moved on.

    A duplicate (two sweeps, a redelivered task, a player who acted at the last
    moment) finds another key or no deadline and stores nothing.
    """
    if not _times_out(state, key):
        return []
    return timeout_in_place(state.copy(), key, ctx)


def timeout_in_place(state: State, key: str, ctx: Context) -> list[Event]:
    """``timeout`` evolving ``state`` itself by the events it returns (no copy), for a
    caller that owns its state (a stream's: the store then applies nothing again)."""
    if not _times_out(state, key):
        return []
    ruleset = get_ruleset(state.ruleset)
    events = _time_out(state, ruleset, ruleset.actors(state), ctx)
    events += _follow_up(state, ctx)
    return events


def _times_out(state: State, key: str) -> bool:
    """Whether turn ``key`` is the game's current turn (else a timeout stores nothing)."""
    if state.status != "active" or state.turn_key != key:
        return False
    return get_ruleset(state.ruleset).turn_key(state) == key


def _time_out(
    work: State, ruleset: Ruleset, seats: Sequence[int], ctx: Context, before: Before | None = None
) -> list[Event]:
    """Play ``seats``'s pending actions for them (mutates ``work``: each event once)."""
    step = _stepper(before)
    events: list[Event] = []
    for seat in seats:
        if work.status != "active" or seat not in ruleset.actors(work):
            continue
        first = [Event("turn_timed_out", {}, seat)]
        step(work, first)
        auto = ruleset.timeout(work, seat, replace(ctx, scratch=True, before=before))
        done = first + auto
        if not work.absent[seat] and work.timeouts[seat] >= work.options["max_timeouts"]:
            marks = [Event("player_absent", {}, seat)]
            if all(work.absent[s] or s == seat for s in range(work.seats)):
                marks.append(Event("game_aborted", {"reason": "every player is absent"}))
            step(work, marks)
            done += marks
        events += done
    return events


def _follow_up(work: State, ctx: Context, before: Before | None = None) -> list[Event]:
    """After an action: start a new deadline, play absent players' turns at once
    (mutates ``work``: each event once)."""
    step = _stepper(before)
    ruleset = get_ruleset(work.ruleset)
    events: list[Event] = []
    for _ in range(MAX_AUTO_STEPS):
        if work.status != "active":
            return events
        key = ruleset.turn_key(work)
        actors = ruleset.actors(work)
        if key is not None and key != work.turn_key:
            deadline = ctx.now + timedelta(seconds=work.turn_timeout)
            new = [Event("deadline_set", {"key": key, "deadline": iso(deadline), "seats": actors})]
            step(work, new)
            events += new
        # With a bot as stand-in (option ``stand_in``) the absent player's turns wait
        # for that bot (games/turns/bots.py); the deadline still backs it up.
        if work.options.get("stand_in", "rules") != "rules":
            return events
        away = [s for s in actors if work.absent[s]]
        if not away:
            return events
        events += _time_out(work, ruleset, away, ctx, before)
    raise RuntimeError("absent players' turns did not come to an end")


def _not_active(status: str) -> NotAllowed:
    """A game that is not in play: one sentence per status (a status is a code, not a word)."""
    if status == "waiting":
        return NotAllowed("The game is waiting, not active.", "game_not_active")
    if status == "finished":
        return NotAllowed("The game is finished, not active.", "game_not_active")
    return NotAllowed("The game is aborted, not active.", "game_not_active")
