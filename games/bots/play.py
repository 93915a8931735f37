"""Bots playing whole games in the pure engine: no database, no clock of its own.

``play_game`` is what ``manage.py simulate``, the benchmarks and the property
tests use. The caller hands in the source of chance (decks, reshuffles) and a
generator for the bots' own choices, so a seed makes a game reproducible.

Who acts when several seats could (the Pablo family's throws and calls out of
turn): after every action each seat the game is *not* waiting for, in seat
order, gets one chance at the new version -- the bot may take it or pass --
and then the seat the game waits for acts. That mirrors the service, where a
bot is asked once per version of the game (``games.bot_turns``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from games.rules import engine

from . import decide, random_decide

JSON = dict[str, Any]

#: A fixed clock: deadlines in a simulated game are never enforced.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
MAX_ACTIONS = 100_000


class Unfinished(RuntimeError):
    """A game did not end within ``MAX_ACTIONS`` actions."""


@dataclass
class Outcome:
    ruleset: str
    seats: int
    winners: list[int]
    losers: list[int]
    scores: list[int]  # game totals (skipbo: cards left in the stock)
    rounds: int
    events: int
    actions: int
    #: Every (seat, action body) in order, when ``record`` was asked for.
    moves: list[tuple[int, JSON]] = field(default_factory=list)


def bot_view(state: engine.State, seat: int) -> JSON | None:
    """The view a bot decides from: its seat's view with ``memory: assisted``.

    Assisted memory shows every card the seat was shown, where it is now --
    exactly what the seat's own redacted event feed lets one rebuild -- so a
    bot remembers what a careful person at that seat would, whatever the
    game's ``memory`` option says for people's screens.
    """
    if state.options.get("memory", "assisted") != "assisted":
        state = _assisted(state)
    return engine.view(state, seat)


def _assisted(state: engine.State) -> engine.State:
    import copy

    shallow = copy.copy(state)
    shallow.options = {**state.options, "memory": "assisted"}
    return shallow


Chooser = Callable[[engine.State, int, random.Random], "JSON | None"]


def chooser(level: str, ruleset_id: str) -> Chooser:
    """A function (state, seat, rng) -> action body or None, for one bot level."""
    rules = engine.get_ruleset(ruleset_id)
    if level == "random":
        # The random bot needs only the legal actions: skip building the whole view.
        def pick_random(state: engine.State, seat: int, rng: random.Random) -> JSON | None:
            return random_decide({"legal_actions": rules.legal_actions(state, seat)}, rng)

        return pick_random

    def pick(state: engine.State, seat: int, rng: random.Random) -> JSON | None:
        return decide(level, ruleset_id, bot_view(state, seat), seat, rng)  # type: ignore[no-any-return]

    return pick


def has_off_turn_actions(rules: Any) -> bool:
    """Can a seat ever act while the game is not waiting for it (throws, calls after a turn)?"""
    preset = getattr(rules, "preset", None)
    if preset is None:
        return False  # skipbo: only the player on turn acts
    return bool(preset.throwing != "none" or preset.call_when == "after_turn")


def play_game(
    ruleset: str,
    levels: Sequence[str],
    *,
    chance: engine.Chance,
    rng: random.Random,
    options: JSON | None = None,
    record: bool = False,
    max_actions: int = MAX_ACTIONS,
    check: Callable[[engine.State, int, JSON], None] | None = None,
    stream: list[engine.Event] | None = None,
) -> Outcome:
    """Play one game of ``ruleset`` between bots of ``levels`` (one per seat) to its end.

    ``check(state, seat, body)`` is called before every action (the tests use
    it to hold each choice against ``legal_actions``). ``stream``: a list that
    receives every event of the game (the benchmark folds them again).
    """
    seats = len(levels)
    ctx = engine.Context(chance=chance, now=EPOCH)
    events = engine.create(
        ruleset, seats=seats, options=dict(options or {}), turn_timeout=86_400, creator="seat0"
    )
    state = engine.fold(events)
    count = len(events)
    if stream is not None:
        stream.extend(events)
    for seat in range(1, seats):
        new = engine.join(state, f"seat{seat}", ctx)
        for event in new:
            engine.apply(state, event)
        count += len(new)
        if stream is not None:
            stream.extend(new)
    rules = engine.get_ruleset(ruleset)
    choose = [chooser(level, ruleset) for level in levels]
    moves: list[tuple[int, JSON]] = []
    actions = 0
    off_turn = has_off_turn_actions(rules)
    while state.status == "active":
        if actions >= max_actions:
            raise Unfinished(f"{ruleset}: no end after {actions} actions")
        actors = rules.actors(state)
        body: JSON | None = None
        seat = -1
        for other in range(seats) if off_turn else ():
            if other in actors:
                continue
            body = choose[other](state, other, rng)
            if body is not None:
                seat = other
                break
        if body is None:
            if not actors:
                raise RuntimeError(f"{ruleset}: nobody may act at version {state.version}")
            seat = actors[0]
            body = choose[seat](state, seat, rng)
            if body is None:
                raise RuntimeError(f"{ruleset}: the bot of seat {seat} passed on its turn")
        if check is not None:
            check(state, seat, body)
        new = engine.act_in_place(state, seat, body, ctx)
        count += len(new)
        if stream is not None:
            stream.extend(new)
        actions += 1
        if record:
            moves.append((seat, body))
    result = state.result or {"winners": [], "losers": []}
    rounds = getattr(state, "round", 1) or 1
    return Outcome(
        ruleset=ruleset,
        seats=seats,
        winners=list(result["winners"]),
        losers=list(result["losers"]),
        scores=list(state.scores),
        rounds=rounds,
        events=count,
        actions=actions,
        moves=moves,
    )
