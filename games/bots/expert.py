"""The ``expert`` bot: flat Monte Carlo over determinizations, ``basic`` as the rollout.

For a decision that matters it lists its candidate actions, then repeats:
deal the cards it cannot see at random, consistently with its view
(``worlds.sample_world``: one *determinization*), and play every candidate
still in the race in that same world, the game going on with the ``basic``
policy for every seat to the ruleset's horizon (the round's end, or a short
horizon and a win-chance estimate). Every candidate meets the same worlds and the same
later luck, so candidates are compared pairwise, world by world: the noise of
the deal cancels out of their differences. A candidate whose paired gap to
the leader exceeds ``CUT_SE`` standard errors is dropped early; the search
stops when one candidate is left or the budget (``iterations``: rollouts) is
spent. docs/bots.md says why flat Monte Carlo rather than IS-MCTS.

The ruleset's bots say what is worth a search (``Expert.candidates``: None
when ``basic``'s choice stands, e.g. the Pablo family's setup look) and may
take the decision among the candidates their own way (``Expert.choose``: the
family searches a call to the round's end first); this module never names a
ruleset (``games.bots.strategy``). The expert plays only the rulesets whose
bots give it a kit (``strategy.levels``).

It is a pure function of its inputs: the generator it samples with is
seeded from the view itself (``seed_for``), never from the clock or a global
generator, so the same view always gives the same decision -- and views that
differ only in cards the seat cannot see are the same view.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .common import JSON, waits_for
from .strategy import Result, basic_choice, expert_of
from .worlds import rollout, sample_world

#: Rollouts per decision with the default budget (the setting ``PABLO_EXPERT_ITERATIONS``).
DEFAULT_ITERATIONS = 96
#: Worlds every candidate meets before any is dropped.
MIN_WORLDS = 6
#: A candidate this many standard errors (of its paired gap) behind the leader is dropped.
CUT_SE = 2.5
#: What a game won (lost) is worth in points when a rollout's round ends the game.
GAME_END_POINTS = 25.0
#: Another action must beat basic's choice by this many standard errors.
DEVIATE_SE = 1.0
#: At a rollout's horizon, what not knowing one of one's own cards costs (points).
UNKNOWN_COST = 1.0


def canonical(value: Any) -> str:
    """Plain data as one text, dictionaries in key order: equal data, equal text."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k!r}:{canonical(value[k])}" for k in sorted(value)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    return repr(value)


def seed_for(ruleset: str, view: JSON, seat: int, salt: str = "") -> int:
    """A seed that is a function of the decision's inputs only."""
    text = canonical([ruleset, seat, salt, view])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


# --------------------------------------------------------------------------- objectives

Objective = Callable[[Result, int], float]


def game_objective(result: Result, seat: int) -> float:
    """What the expert maximises: its lead in game totals (or its win chance).

    A rollout cut at its horizon (one lap) counts the fields as they stand,
    and each own card the seat does not know as ``UNKNOWN_COST`` points more.
    """
    if result.win_chance is not None:
        return result.win_chance[seat]
    if result.field_totals is not None:
        totals = result.field_totals
        others = [t for s, t in enumerate(totals) if s != seat]
        lead = (sum(others) / len(others) if others else 0.0) - totals[seat]
        return lead - UNKNOWN_COST * result.unknown_own
    totals = result.game_totals or []
    others = [t for s, t in enumerate(totals) if s != seat]
    value = (sum(others) / len(others) if others else 0.0) - totals[seat]
    if result.winners is not None:
        value += GAME_END_POINTS if seat in result.winners else -GAME_END_POINTS
    return value


def points_objective(result: Result, seat: int) -> float:
    """What the analysis reports: minus the seat's round points (or its win chance)."""
    if result.win_chance is not None:
        return result.win_chance[seat]
    return -float((result.round_scores or [])[seat])


# --------------------------------------------------------------------------- candidates


def _key(action: JSON | None) -> str:
    return canonical(action)


def dedupe(actions: Sequence[JSON | None]) -> list[JSON | None]:
    seen: set[str] = set()
    out: list[JSON | None] = []
    for a in actions:
        k = _key(a)
        if k not in seen:
            seen.add(k)
            out.append(a)
    return out


def candidates(
    ruleset: str, view: JSON, seat: int, *, wide: bool = False
) -> list[JSON | None] | None:
    """The actions worth a search, the ``basic`` choice first; None: no search needed.

    ``wide`` (the analysis): every swap instead of the most promising few, and
    no shortcut for a power's peek or spy.
    """
    legal: list[JSON] = view.get("legal_actions") or []
    if not legal:
        return None
    return expert_of(ruleset).candidates(ruleset, view, seat, legal, wide)


# --------------------------------------------------------------------------- search


@dataclass
class Estimate:
    """One candidate's estimate: its values world by world (higher is better)."""

    action: JSON | None
    values: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else float("-inf")


def paired_gap(best: Estimate, other: Estimate) -> tuple[float, float]:
    """Mean and standard error of ``best - other`` over the worlds both met."""
    n = min(len(best.values), len(other.values))
    if n == 0:
        return 0.0, float("inf")
    diffs = [best.values[i] - other.values[i] for i in range(n)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, float("inf")
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def search(
    ruleset: str,
    view: JSON,
    seat: int,
    actions: Sequence[JSON | None],
    *,
    iterations: int = DEFAULT_ITERATIONS,
    objective: Objective = game_objective,
    early_cut: bool = True,
    keep: JSON | None = None,
    seed: int | None = None,
    lap: bool = False,
) -> list[Estimate]:
    """Estimate each of ``actions`` over shared determinizations (see the module's doc).

    ``keep``: an action never dropped early (the analysis keeps the one taken).
    """
    rng = random.Random(seed_for(ruleset, view, seat) if seed is None else seed)
    estimates = [Estimate(a) for a in actions]
    active = list(range(len(estimates)))
    keep_key = _key(keep) if keep is not None else None
    spent = 0
    worlds = 0
    off_turn_pass = not waits_for(view.get("legal_actions") or [])
    while spent < iterations and active:
        if len(active) == 1 and worlds >= MIN_WORLDS:
            break
        world = sample_world(ruleset, view, seat, rng)
        luck = rng.getrandbits(64)
        for i in active:
            w = world.copy()
            result = rollout(
                ruleset,
                w,
                seat,
                estimates[i].action,
                random.Random(luck),
                skip_first_chance=off_turn_pass,
                lap=lap,
            )
            estimates[i].values.append(objective(result, seat))
        spent += len(active)
        worlds += 1
        if early_cut and worlds >= MIN_WORLDS and len(active) > 1:
            lead = max(active, key=lambda i: estimates[i].mean)
            still = []
            for i in active:
                if i == lead or _key(estimates[i].action) == keep_key:
                    still.append(i)
                    continue
                gap, se = paired_gap(estimates[lead], estimates[i])
                if gap > 0 and (gap > CUT_SE * se):
                    continue
                still.append(i)
            active = still
    return estimates


def best_of(estimates: list[Estimate]) -> Estimate:
    """The leader; ties go to the earlier candidate (``basic``'s choice comes first)."""
    top = max(e.mean for e in estimates)
    return next(e for e in estimates if e.mean >= top - 1e-9)


def choose(estimates: list[Estimate]) -> Estimate:
    """The expert's pick: the leader if it beats ``basic``'s choice (the first) clearly.

    With a few dozen worlds the best of several means is partly the luckiest
    one; ``basic`` is a sound player, so its choice stands unless another
    beats it by ``DEVIATE_SE`` standard errors of their paired gap.
    """
    lead = best_of(estimates)
    gap, se = paired_gap(lead, estimates[0])
    return lead if gap > DEVIATE_SE * se else estimates[0]


def decide(
    ruleset: str, view: JSON | None, seat: int, rng: random.Random | None = None, **kw: Any
) -> JSON | None:
    """The expert's action for ``seat`` from its ``view`` (None: pass).

    ``iterations``: the budget in rollouts (default ``DEFAULT_ITERATIONS``).
    ``rng`` is accepted like every level's and not used: the search seeds its
    own generator from the view.
    """
    if not view or not view.get("legal_actions"):
        return None
    actions = candidates(ruleset, view, seat)
    if actions is None:
        return basic_choice(ruleset, view, seat)
    iterations = kw.get("iterations") or DEFAULT_ITERATIONS
    own = expert_of(ruleset).choose
    if own is not None:
        return own(ruleset, view, seat, actions, iterations)
    return choose(search(ruleset, view, seat, actions, iterations=iterations)).action
