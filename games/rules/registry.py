"""Which rulesets exist (each registers itself on import) and the options each takes."""

from __future__ import annotations

from .errors import Malformed
from .events import JSON
from .options import COMMON_OPTIONS, Option
from .protocol import Ruleset

_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` known by its id (the shipped ones at import; tests add their own)."""
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def unregister(ruleset_id: str) -> None:
    """Forget a ruleset ``register`` added (a test's own ruleset, when it is done)."""
    _REGISTRY.pop(ruleset_id, None)


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        raise Malformed(
            "ruleset: unknown ruleset %(ruleset)s.", "unknown_ruleset", ruleset=repr(ruleset_id)
        ) from None


def rulesets() -> list[Ruleset]:
    return list(_REGISTRY.values())


def all_options(ruleset: Ruleset) -> dict[str, Option]:
    return {**ruleset.options, **COMMON_OPTIONS}


def validate_options(ruleset: Ruleset, seats: int, options: JSON) -> JSON:
    """Options with defaults filled in; ``Malformed`` naming the field otherwise."""
    if not isinstance(options, dict):
        raise Malformed("options: must be an object.", "invalid_option")
    specs = all_options(ruleset)
    unknown = sorted(set(options) - set(specs))
    if unknown:
        raise Malformed(
            "options.%(name)s: unknown option for %(ruleset)s; known: %(known)s.",
            "invalid_option",
            name=unknown[0],
            ruleset=ruleset.id,
            known=", ".join(sorted(specs)),
        )
    clean = {
        name: spec.check(name, options.get(name, spec.default)) for name, spec in specs.items()
    }
    if clean["start_seat"] is not None and clean["start_seat"] >= seats:
        raise Malformed(
            "options.start_seat: must be below seats (%(seats)s).", "invalid_option", seats=seats
        )
    ruleset.check_options(seats, clean)
    return clean


def action_cards() -> list[str]:
    """Every card code some ruleset's actions name (``play``/``end``'s ``card``), in order."""
    out: list[str] = []
    for ruleset in _REGISTRY.values():
        out += [code for code in ruleset.action_cards if code not in out]
    return out


def action_card(value: object) -> str | None:
    """A card code as a client may write it (``"7"``, ``7``, ``"sb"``) in the one spelling
    a ruleset's actions use (``"7"``, ``"SB"``); None when no ruleset's actions name it."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    code = value.upper()
    return code if code in action_cards() else None


def action_piles() -> int:
    """How many piles the actions may name by index (``pile``, ``discard_pile``)."""
    return max((ruleset.action_piles for ruleset in _REGISTRY.values()), default=0)
