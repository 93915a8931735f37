"""Determinization and rollouts: the machinery of the ``expert`` bot and of the analysis.

Pure, like the rest of ``games.bots``. Everything here starts from one seat's
*view* (the JSON of ``rules.view(state, seat)``), never from a true state:

* ``sample_world(ruleset, view, seat, rng)`` builds a complete state of the
  game that agrees with everything the view shows -- every card the seat
  knows stays where the view says it is, and the cards it does not know are
  dealt, at random, from what is left of the ruleset's deck. One such state is
  a *determinization*. How is the ruleset's own (its ``Expert.world``:
  ``family_search.py``, ``skipbo.py``).
* ``rollout(ruleset, world, seat, first, ...)`` plays the seat's candidate
  action in that world and the game on with the ruleset's ``basic`` policy for
  every seat, to the ruleset's horizon, and says how it ended (``Result``:
  round points, or a chance to win). The horizon and the scoring are the
  ruleset's own (its ``Expert.rollout``).

This module only binds the ruleset's pieces to a generator of the caller's
(``LocalChance``) and a fixed clock: the search stays a function of its inputs.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from games.rules import Context, State, get_ruleset

from .common import JSON
from .strategy import Result, expert_of, strategy_for

#: A fixed clock: the rules want one; deadlines do not matter in a simulation.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
#: A rollout longer than this many actions is cut and scored as it stands.
MAX_ROLLOUT_ACTIONS = 160


class LocalChance:
    """Chance inside a simulated world: a generator owned by the caller, never global."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def deck(self, round_no: int, cards: Any) -> list[str]:
        out = list(cards)
        self.rng.shuffle(out)
        return out

    def shuffle(self, items: Any) -> list[Any]:
        out = list(items)
        self.rng.shuffle(out)
        return out

    def choice(self, items: Any) -> Any:
        return self.rng.choice(list(items))


def sample_world(ruleset: str, view: JSON, seat: int, rng: random.Random) -> State:
    """One complete state agreeing with ``view`` (seat ``seat``), unknown cards at random."""
    return expert_of(ruleset).world(ruleset, view, seat, rng)


_NO_RNG = random.Random(0)  # the basic bot takes a generator but never draws from it


def rollout(
    ruleset: str,
    world: Any,
    seat: int,
    first: JSON | None,
    rng: random.Random,
    *,
    skip_first_chance: bool = False,
    lap: bool = False,
) -> Result:
    """Play ``first`` for ``seat`` in ``world`` (mutated), then ``basic`` for everyone.

    ``first`` None: the seat passes its chance to act out of turn. ``lap``: stop
    at the ruleset's shorter horizon when it has one (the seat's next turn).
    """
    rb: Any = get_ruleset(ruleset)
    basic = strategy_for(ruleset).basic

    def policy(state: Any, mover: int) -> JSON | None:
        return basic(ruleset, rb.view(state, mover), mover, _NO_RNG)

    # The world is the rollout's own: each decision evolves it in place (no copy, and
    # no second application of the events it decided).
    ctx = Context(chance=LocalChance(rng), now=EPOCH, scratch=True)
    return expert_of(ruleset).rollout(
        ruleset, world, seat, first, ctx, policy, skip_first_chance, lap
    )


__all__ = ["EPOCH", "MAX_ROLLOUT_ACTIONS", "LocalChance", "Result", "rollout", "sample_world"]
