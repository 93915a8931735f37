"""The one whole-game driver: who acts next, until the game is over.

Pure, like the rest of ``games.bots``: it never touches a game itself. A
caller hands in how to read the game and how to act -- on a state in memory
(``games.bots.play``, the benchmarks, the rules tests), through the services
(``manage.py demo``) or through the HTTP API (the API tests) -- and a
``next_move`` that says which seat does what next. ``drive`` is the loop; the
move pickers below are the ways of choosing that exist:

* ``bots_move``: bots at every seat, in the service's order. After every
  action each seat the game is *not* waiting for, in seat order, gets one
  chance at the new version -- the bot may take it or pass -- and then the
  first seat the game waits for acts. That mirrors the service, where a bot is
  asked once per version of the game (``games.turns.bots``).
* ``weighted_random_move``: any seat's legal action at random, throws rarer
  (``replays.autoplay``: lively games for the viewer's tests and benchmarks).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from games.rules import State, get_ruleset

from .common import concrete

JSON = dict[str, Any]
#: (seat, action body)
Move = tuple[int, JSON]
#: A bot of one seat: (state, seat, rng) -> an action body, or None to pass.
Chooser = Callable[[State, int, random.Random], "JSON | None"]


class Unfinished(RuntimeError):
    """A game did not end within the actions it was given."""


def drive(
    *,
    finished: Callable[[], bool],
    next_move: Callable[[], Move | None],
    act: Callable[[int, JSON], object],
    max_actions: int,
) -> int:
    """Play ``next_move()`` with ``act`` until ``finished()``; the number of actions.

    Stops early when ``next_move`` has nothing (None) or after ``max_actions``;
    the caller decides whether an unfinished game is an error (``Unfinished``).
    """
    done = 0
    while not finished() and done < max_actions:
        move = next_move()
        if move is None:
            break
        act(*move)
        done += 1
    return done


def has_off_turn_actions(rulebook: Any) -> bool:
    """Can a seat ever act while the game is not waiting for it (throws, calls after a turn)?"""
    return bool(rulebook.off_turn_actions)


def bots_move(
    state: State, choosers: Sequence[Chooser], rng: random.Random, *, off_turn: bool = True
) -> Move:
    """The next move of bots at every seat, in the service's order (module docstring).

    ``off_turn=False`` skips the chances out of turn (a ruleset without any:
    ``has_off_turn_actions``). Raises ``RuntimeError`` when nobody may act or
    the bot the game waits for passes: a bug, in the rules or in a bot.
    """
    actors = get_ruleset(state.ruleset).actors(state)
    for other in range(state.seats) if off_turn else ():
        if other in actors:
            continue
        body = choosers[other](state, other, rng)
        if body is not None:
            return other, body
    if not actors:
        raise RuntimeError(f"{state.ruleset}: nobody may act at version {state.version}")
    seat = actors[0]
    body = choosers[seat](state, seat, rng)
    if body is None:
        raise RuntimeError(f"{state.ruleset}: the bot of seat {seat} passed on its turn")
    return seat, body


#: Action types a random player prefers, so that games end in a sensible number of
#: steps (the Pablo family's call ends a round; throws are kept rarer).
WEIGHTS = {"call": 0.04, "throw": 0.2, "skip": 0.5, "end": 1.0, "play": 3.0}


def weighted_pick(actions: list[JSON], rng: random.Random) -> JSON | None:
    """One of ``actions`` at random by ``WEIGHTS``, made complete; None if there is none."""
    if not actions:
        return None
    weights = [WEIGHTS.get(a.get("type", ""), 1.0) for a in actions]
    return concrete(rng.choices(actions, weights=weights, k=1)[0], rng)


def weighted_random_move(views: Sequence[JSON | None], rng: random.Random) -> Move | None:
    """Any seat's legal action at random (``views``: each seat's view); None if none.

    A seat with an action other than a throw is chosen nine times in ten; then
    one of its actions by ``WEIGHTS``.
    """
    options: list[Move] = []
    for seat, view in enumerate(views):
        for action in (view or {}).get("legal_actions") or []:
            options.append((seat, action))
    if not options:
        return None
    on_turn = [(s, a) for s, a in options if a.get("type") != "throw"]
    pool = on_turn if on_turn and rng.random() > 0.1 else options
    seat = rng.choice(sorted({s for s, _ in pool}))
    body = weighted_pick([a for s, a in pool if s == seat], rng)
    if body is None:
        return None
    return seat, body
