"""The pure rules: no Django, no DRF, no Celery, no clock, no random generator.

Importing the package registers every ruleset with the engine.
"""

from . import family, skipbo  # noqa: F401  (register the rulesets)
from .engine import (
    ACTION_TYPES,
    Chance,
    Context,
    Event,
    Malformed,
    NotAllowed,
    RulesError,
    Ruleset,
    State,
    act,
    come_back,
    create,
    event_view,
    fold,
    get_ruleset,
    join,
    rulesets,
    timeout,
    view,
)

__all__ = [
    "ACTION_TYPES",
    "Chance",
    "Context",
    "Event",
    "Malformed",
    "NotAllowed",
    "RulesError",
    "Ruleset",
    "State",
    "act",
    "come_back",
    "create",
    "event_view",
    "fold",
    "get_ruleset",
    "join",
    "rulesets",
    "timeout",
    "view",
]
