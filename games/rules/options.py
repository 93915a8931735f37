"""Game options: one option's description and checks, and the options every ruleset has."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import Malformed
from .events import JSON


@dataclass(frozen=True)
class Option:
    """One game option, as ``GET /api/rulesets/`` describes it."""

    type: str  # "integer" | "boolean" | "string"
    default: Any
    description: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False

    def describe(self) -> JSON:
        out: JSON = {"type": self.type, "default": self.default}
        if self.choices is not None:
            out["enum"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.nullable:
            out["nullable"] = True
        if self.description:
            out["description"] = self.description
        return out

    def check(self, name: str, value: Any) -> Any:
        if value is None:
            if self.nullable:
                return None
            raise Malformed("options.%(name)s: must not be null.", "invalid_option", name=name)
        if self.type == "integer":
            if isinstance(value, bool) or not isinstance(value, int):
                raise Malformed(
                    "options.%(name)s: must be an integer.", "invalid_option", name=name
                )
        elif self.type == "boolean":
            if not isinstance(value, bool):
                raise Malformed(
                    "options.%(name)s: must be true or false.", "invalid_option", name=name
                )
        elif self.type == "string" and not isinstance(value, str):
            raise Malformed("options.%(name)s: must be a string.", "invalid_option", name=name)
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise Malformed(
                "options.%(name)s: must be one of %(allowed)s.",
                "invalid_option",
                name=name,
                allowed=allowed,
            )
        if self.minimum is not None and value < self.minimum:
            raise Malformed(
                "options.%(name)s: must be at least %(least)s.",
                "invalid_option",
                name=name,
                least=self.minimum,
            )
        if self.maximum is not None and value > self.maximum:
            raise Malformed(
                "options.%(name)s: must be at most %(most)s.",
                "invalid_option",
                name=name,
                most=self.maximum,
            )
        return value


COMMON_OPTIONS: dict[str, Option] = {
    "start_seat": Option(
        "integer",
        None,
        "Seat that starts round 1; null draws it at random.",
        minimum=0,
        nullable=True,
    ),
    "memory": Option(
        "string",
        "assisted",
        "assisted: the view shows every field card you know; strict: only in the answer "
        "to the action that revealed it.",
        choices=("assisted", "strict"),
    ),
    "max_timeouts": Option(
        "integer", 3, "Consecutive timeouts after which a player is marked absent.", minimum=1
    ),
    # The bot levels are games.bots.LEVELS (tests/bots checks that they agree).
    "stand_in": Option(
        "string",
        "rules",
        "Who plays an absent player's turns: rules (the automatic action of a timeout) "
        "or a bot level.",
        choices=("rules", "random", "basic", "expert"),
    ),
}
