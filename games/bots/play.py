"""Bots playing whole games in the pure engine: no database, no clock of its own.

``play_game`` is what ``manage.py simulate``, the benchmarks and the property
tests use. The caller hands in the source of chance (decks, reshuffles) and a
generator for the bots' own choices, so a seed makes a game reproducible.

The game is played by the one driver (``games.bots.driver``: ``drive`` with
``bots_move``, which says who acts when several seats could).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from games import rules

from . import decide, random_decide
from .driver import Chooser, Unfinished, bots_move, drive, has_off_turn_actions

JSON = dict[str, Any]

#: A fixed clock: deadlines in a simulated game are never enforced.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
MAX_ACTIONS = 100_000


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


def bot_view(state: rules.State, seat: int) -> JSON | None:
    """The view a bot decides from: its seat's view with ``memory: assisted``.

    Assisted memory shows every card the seat was shown, where it is now --
    exactly what the seat's own redacted event feed lets one rebuild -- so a
    bot remembers what a careful person at that seat would, whatever the
    game's ``memory`` option says for people's screens.
    """
    return rules.view(state, seat, memory="assisted")


def chooser(level: str, ruleset_id: str) -> Chooser:
    """A function (state, seat, rng) -> action body or None, for one bot level."""
    rulebook = rules.get_ruleset(ruleset_id)
    if level == "random":
        # The random bot needs only the legal actions: skip building the whole view.
        def pick_random(state: rules.State, seat: int, rng: random.Random) -> JSON | None:
            return random_decide({"legal_actions": rulebook.legal_actions(state, seat)}, rng)

        return pick_random

    def pick(state: rules.State, seat: int, rng: random.Random) -> JSON | None:
        return decide(level, ruleset_id, bot_view(state, seat), seat, rng)  # type: ignore[no-any-return]

    return pick


def play_game(
    ruleset: str,
    levels: Sequence[str],
    *,
    chance: rules.Chance,
    rng: random.Random,
    options: JSON | None = None,
    record: bool = False,
    max_actions: int = MAX_ACTIONS,
    check: Callable[[rules.State, int, JSON], None] | None = None,
    stream: list[rules.Event] | None = None,
    choosers: Sequence[Chooser] | None = None,
) -> Outcome:
    """Play one game of ``ruleset`` between bots of ``levels`` (one per seat) to its end.

    ``check(state, seat, body)`` is called before every action (the tests use
    it to hold each choice against ``legal_actions``). ``stream``: a list that
    receives every event of the game (the benchmark folds them again).
    ``choosers``: one per seat instead of the levels' own (a benchmark's policies);
    ``levels`` then only gives the number of seats.
    """
    seats = len(levels)
    ctx = rules.Context(chance=chance, now=EPOCH)
    events = rules.create(
        ruleset, seats=seats, options=dict(options or {}), turn_timeout=86_400, creator="seat0"
    )
    state = rules.fold(events)
    count = len(events)
    if stream is not None:
        stream.extend(events)
    for seat in range(1, seats):
        new = rules.join(state, f"seat{seat}", ctx)
        for event in new:
            rules.apply(state, event)
        count += len(new)
        if stream is not None:
            stream.extend(new)
    choose = list(choosers) if choosers else [chooser(level, ruleset) for level in levels]
    off_turn = has_off_turn_actions(rules.get_ruleset(ruleset))
    moves: list[tuple[int, JSON]] = []

    def act(seat: int, body: JSON) -> None:
        nonlocal count
        if check is not None:
            check(state, seat, body)
        new = rules.act_in_place(state, seat, body, ctx)
        count += len(new)
        if stream is not None:
            stream.extend(new)
        if record:
            moves.append((seat, body))

    actions = drive(
        finished=lambda: state.status != "active",
        next_move=lambda: bots_move(state, choose, rng, off_turn=off_turn),
        act=act,
        max_actions=max_actions,
    )
    if state.status == "active":
        raise Unfinished(f"{ruleset}: no end after {actions} actions")
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
