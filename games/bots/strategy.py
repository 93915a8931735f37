"""What the bots know of each ruleset: its ``Strategy``, registered by the ruleset's own bots.

The generic bots (``random``, the ``expert``'s search, the analysis, the
driver) never name a ruleset: they ask ``strategy_for(ruleset)``. A ruleset's bot
module (``family_search.py`` for the Pablo family, ``skipbo.py``; a test's
ruleset in its test) calls ``register`` at import with:

* ``basic``: the ``basic`` policy, a function of one seat's view (given the
  ruleset's id, and a generator it may ignore);
* ``expert`` (optional): what the flat Monte Carlo search needs -- a
  determinization of a view, a rollout, the candidates worth a search, the
  decision events the analysis reads, the analysis' marks and unit. A ruleset
  without it is offered ``random`` and ``basic`` only (``levels``), and is not
  analysed.

``random`` works on every ruleset's legal actions and needs nothing here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.rules import Context, Event, State

from .common import JSON

#: The levels, weakest first; ``random`` needs no strategy at all.
LEVELS = ("random", "basic", "expert")
#: The analysis marks a gap only beyond this many standard errors.
SIGNIFICANCE = 2.0


@dataclass
class Result:
    """How one rollout ended, from the point of view of every seat.

    A ruleset scored in points fills ``round_scores`` / ``game_totals`` (or,
    cut at its horizon, ``field_totals``); one scored by a chance to win fills
    ``win_chance``.
    """

    round_scores: list[int] | None  # the round's points per seat
    game_totals: list[int] | None  # game totals after the round
    winners: list[int] | None  # the game's winners, if it ended
    win_chance: list[float] | None  # estimated win probability per seat
    cut: bool = False  # the rollout was cut before the round's end
    #: Cut at the horizon: each seat's field total then, and how many of the
    #: seat's own cards it did not know.
    field_totals: list[int] | None = None
    unknown_own: int = 0


@dataclass(frozen=True)
class Marks:
    """The smallest gap of each mark, in the analysis' unit (points, or win probability)."""

    inaccuracy: float
    mistake: float
    blunder: float

    def mark(self, loss: float, stderr: float) -> str | None:
        """None unless ``loss`` exceeds ``SIGNIFICANCE`` standard errors, then by its size."""
        if loss <= SIGNIFICANCE * stderr:
            return None
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None


#: (ruleset, view, seat, rng) -> one seat's action from its view (None: pass).
Basic = Callable[[str, JSON, int, random.Random], JSON | None]
#: What a rollout plays for a seat of a simulated state.
Policy = Callable[[Any, int], JSON | None]


@dataclass(frozen=True)
class Expert:
    """What the ``expert`` search and the analysis need of a ruleset."""

    #: (ruleset, view, seat, rng) -> a complete state agreeing with the view.
    world: Callable[[str, JSON, int, random.Random], State]
    #: (ruleset, world, seat, first, ctx, policy, skip_first_chance, lap) -> Result:
    #: play ``first`` for the seat in the world (mutated), then ``policy`` for everyone.
    rollout: Callable[[str, Any, int, JSON | None, Context, Policy, bool, bool], Result]
    #: (ruleset, view, seat, legal, wide) -> the actions worth a search, ``basic``'s
    #: first; None: no search needed (``basic`` decides).
    candidates: Callable[[str, JSON, int, list[JSON], bool], list[JSON | None] | None]
    #: The analysis: the action body a decision event records (None: not analysed).
    taken: Callable[[Event], JSON | None]
    #: The analysis' marks, in its unit.
    marks: Marks
    #: "points" (a rollout's round points, lower is better) or "chance" (to win).
    unit: str
    #: (ruleset, view, seat, candidates, iterations) -> the action; None: the
    #: search's leader unless ``basic``'s choice is as good (``expert.choose``).
    choose: Callable[[str, JSON, int, Sequence[JSON | None], int], JSON | None] | None = None


@dataclass(frozen=True)
class Strategy:
    basic: Basic
    expert: Expert | None = None


_STRATEGIES: dict[str, Strategy] = {}


def register(ruleset: str, strategy: Strategy) -> Strategy:
    """The bots' knowledge of ``ruleset`` (its bot module at import; a test's own)."""
    _STRATEGIES[ruleset] = strategy
    return strategy


def unregister(ruleset: str) -> None:
    _STRATEGIES.pop(ruleset, None)


def strategy_for(ruleset: str) -> Strategy:
    """The ruleset's strategy; ``LookupError`` for a ruleset no bot module knows."""
    try:
        return _STRATEGIES[ruleset]
    except KeyError:
        raise LookupError(f"no bot strategy for ruleset {ruleset!r}") from None


def expert_of(ruleset: str) -> Expert:
    """The ruleset's expert kit; ``LookupError`` where the expert does not play it."""
    kit = strategy_for(ruleset).expert
    if kit is None:
        raise LookupError(f"the expert does not play ruleset {ruleset!r}")
    return kit


def levels(ruleset: str) -> list[str]:
    """The levels that play ``ruleset``: ``random`` always, ``basic`` and ``expert`` where
    its bots say so."""
    known = _STRATEGIES.get(ruleset)
    out = ["random"]
    if known is not None:
        out.append("basic")
        if known.expert is not None:
            out.append("expert")
    return out


def basic_choice(ruleset: str, view: JSON, seat: int) -> JSON | None:
    """``basic``'s action, with a generator it never draws from (the search's reference)."""
    return strategy_for(ruleset).basic(ruleset, view, seat, _NO_RNG)


_NO_RNG = random.Random(0)
