"""The pure rules: no Django, no DRF, no Celery, no clock, no random generator.

This package's namespace is the rules' public face: callers write
``from games import rules`` and ``rules.act(...)``, ``rules.fold(...)``,
``rules.Event``. Each name lives in the module of its job (docs/design.md,
"The rules"); importing the package registers every ruleset.
"""

from . import family, skipbo, words  # noqa: F401  (register the rulesets)
from .errors import Malformed, NotAllowed, RulesError
from .events import ACTION_TYPES, ENGINE_EVENTS, JSON, Chance, Context, Event, iso
from .evolve import apply, fold
from .lifecycle import (
    Acted,
    act,
    act_in_place,
    act_seen,
    come_back,
    create,
    join,
    timeout,
    timeout_in_place,
)
from .options import COMMON_OPTIONS, Option
from .protocol import Presentation, Ruleset
from .registry import (
    action_card,
    action_cards,
    action_piles,
    all_options,
    get_ruleset,
    register,
    rulesets,
    unregister,
    validate_options,
)
from .state import State
from .visibility import event_view, reveal, view

__all__ = [
    "ACTION_TYPES",
    "COMMON_OPTIONS",
    "ENGINE_EVENTS",
    "JSON",
    "Acted",
    "Chance",
    "Context",
    "Event",
    "Malformed",
    "NotAllowed",
    "Option",
    "Presentation",
    "RulesError",
    "Ruleset",
    "State",
    "act",
    "act_in_place",
    "act_seen",
    "action_card",
    "action_cards",
    "action_piles",
    "all_options",
    "apply",
    "come_back",
    "create",
    "event_view",
    "fold",
    "get_ruleset",
    "iso",
    "join",
    "register",
    "reveal",
    "rulesets",
    "timeout",
    "timeout_in_place",
    "unregister",
    "validate_options",
    "view",
    "words",
]
