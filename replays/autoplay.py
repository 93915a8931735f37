"""Random legal play: the demo games (``manage.py demo``), the tests and the benchmark.

It plays only what ``legal_actions`` offers (RULES.md's own judgement of what
is legal), choosing at random with a seeded generator, so a game is the same
every time for the same seed. Templates with ``choices`` get one choice per
free parameter. Until real bots exist this is how the demo plays.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

JSON = dict[str, Any]

#: Action types a random player prefers, so that games end in a sensible number of
#: steps (the Pablo family's call ends a round; throws are kept rarer).
WEIGHTS = {"call": 0.04, "throw": 0.2, "skip": 0.5, "end": 1.0, "play": 3.0}


def concrete(action: JSON, rng: random.Random) -> JSON:
    """A complete action body from a legal action (filling in a template's choices)."""
    body = {k: v for k, v in action.items() if k != "choices"}
    for name, options in (action.get("choices") or {}).items():
        if options:
            body[name] = rng.choice(list(options))
    return body


def pick(actions: list[JSON], rng: random.Random) -> JSON | None:
    if not actions:
        return None
    weights = [WEIGHTS.get(a.get("type", ""), 1.0) for a in actions]
    return concrete(rng.choices(actions, weights=weights, k=1)[0], rng)


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
    done = 0
    while not finished() and done < max_actions:
        options: list[tuple[int, JSON]] = []
        for seat in range(seats):
            state = view(seat) or {}
            for action in state.get("legal_actions") or []:
                options.append((seat, action))
        if not options:
            break
        on_turn = [(s, a) for s, a in options if a.get("type") != "throw"]
        pool = on_turn if on_turn and rng.random() > 0.1 else options
        seat = rng.choice(sorted({s for s, _ in pool}))
        body = pick([a for s, a in pool if s == seat], rng)
        if body is None:
            break
        try:
            act(seat, body)
        except Exception as exc:  # a rules refusal: try something else
            if getattr(exc, "status", None) not in (400, 409):
                raise
        done += 1
    return done
