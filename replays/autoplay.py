"""Random legal play: the viewer's tests and the benchmarks (bench/bench_table.py).

It plays only what ``legal_actions`` offers, choosing any seat's action at
random with a seeded generator (``games.bots.driver.weighted_random_move``),
so a game is the same every time for the same seed. The loop is the one
driver's (``games.bots.driver.drive``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.bots.driver import drive, weighted_random_move

JSON = dict[str, Any]


def play(
    *,
    seats: int,
    view: Callable[[int], JSON | None],
    act: Callable[[int, JSON], Any],
    finished: Callable[[], bool],
    rng: random.Random,
    max_actions: int = 5000,
) -> int:
    """Play until ``finished()``: ask every seat's view for legal actions, act one.

    Returns the number of actions. ``act`` may raise for a refused action (a
    legal-looking throw that went stale); that is skipped.
    """

    def act_or_skip(seat: int, body: JSON) -> None:
        try:
            act(seat, body)
        except Exception as exc:  # a rules refusal: try something else
            if getattr(exc, "status", None) not in (400, 409):
                raise

    return drive(
        finished=finished,
        next_move=lambda: weighted_random_move([view(s) for s in range(seats)], rng),
        act=act_or_skip,
        max_actions=max_actions,
    )
