"""Bots: opponents that play every ruleset through the same actions as people.

Pure code, like ``games.rules``: no Django, no database, no clock, and no
random generator of its own (one is handed in). A bot is a function of one
seat's view -- ``rules.view(state, seat)``, which carries that view's
``legal_actions`` -- and of the generator; it keeps no state between
decisions. Whatever it "remembers" is what the view shows: the view (with
``memory: assisted``) shows every card the seat was ever shown and where that
card is now, which is exactly what the seat's redacted event feed lets one
rebuild. So a bot's decision never depends on a card its seat did not see
(``tests/bots`` feeds bots views whose hidden cards differ and checks that the
decision is the same).

``decide(level, ruleset, view, seat, rng)`` returns one complete action body,
or None when the bot passes (a chance to act out of turn -- a throw, a call
after one's turn -- that it does not take). When the game waits for the seat
(its turn, its setup look, its power) a bot always returns an action.

Levels (docs/bots.md):

* ``random``: a uniformly random legal action when the game waits for it
  (calls included); templates' free parameters are filled with uniformly
  random legal values. Out of turn it takes one chance in four, then again a
  uniformly random one of its legal actions.
* ``basic``: heuristics per ruleset (``family.py``, ``skipbo.py``).
* ``expert``: flat Monte Carlo over determinizations of its view, with
  ``basic`` as the rollout policy (``expert.py``, ``worlds.py``, and the
  ruleset's kit: ``family_search.py``, ``skipbo.py``). Its budget is
  ``iterations`` (rollouts per decision), passed as a keyword.

Which levels play a ruleset is its bots' to say (``levels(ruleset)``:
``games.bots.strategy``); nothing here names a ruleset.
"""

from __future__ import annotations

import random
import re
from typing import Any

from . import expert, family_search, skipbo  # noqa: F401  (register the strategies)
from .common import JSON, concrete, waits_for
from .strategy import LEVELS, strategy_for
from .strategy import levels as _levels

#: Out of turn, a random bot takes one chance in this many.
RANDOM_OFF_TURN = 4


_NAME = re.compile(r"^(random|basic|expert) bot (\d+)$")


def bot_name(level: str, seat: int) -> str:
    """A bot's username: ``"basic bot 2"``. Unique within a game (the seat), and no
    person can register it (usernames have no spaces), so the name says it is a bot."""
    return f"{level} bot {seat}"


def bot_level(username: str | None) -> str | None:
    """The level of the bot with this username; None for a person."""
    match = _NAME.match(username or "")
    return match.group(1) if match else None


def levels(ruleset: str | None = None) -> list[str]:
    """The bot levels that play ``ruleset`` (``GET /api/rulesets/``: ``bot_levels``);
    every level there is when None."""
    return list(LEVELS) if ruleset is None else _levels(ruleset)


def random_decide(view: JSON, rng: random.Random) -> JSON | None:
    legal = view.get("legal_actions") or []
    if not legal:
        return None
    if not waits_for(legal) and rng.randrange(RANDOM_OFF_TURN):
        return None
    return concrete(rng.choice(legal), rng)


def decide(
    level: str, ruleset: str, view: JSON | None, seat: int, rng: random.Random, **budget: Any
) -> Any:
    """One action body for ``seat`` from its ``view`` (None: pass).

    ``budget``: the ``expert``'s ``iterations`` (the other levels take none).
    """
    if not view or not view.get("legal_actions"):
        return None
    if level == "random":
        return random_decide(view, rng)
    if level == "expert":
        return expert.decide(ruleset, view, seat, rng, **budget)
    if level != "basic":
        raise ValueError(f"unknown bot level {level!r}")
    return strategy_for(ruleset).basic(ruleset, view, seat, rng)


__all__ = ["LEVELS", "bot_level", "bot_name", "decide", "levels", "random_decide", "waits_for"]
