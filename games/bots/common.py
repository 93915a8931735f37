"""Helpers shared by the bots: legal-action templates and what the game waits for."""

from __future__ import annotations

import random
from typing import Any

JSON = dict[str, Any]

#: Actions a seat may take without the game waiting for it (out of turn).
OPTIONAL_TYPES = frozenset({"throw", "call"})


def waits_for(legal: list[JSON]) -> bool:
    """Does the game wait for this seat (anything but a throw or a call is legal)?

    Cabo's call replaces the draw, so it comes with a ``draw``: the game waits.
    """
    return any(a.get("type") not in OPTIONAL_TYPES for a in legal)


def concrete(action: JSON, rng: random.Random) -> JSON:
    """A complete body from a legal action: each free parameter a uniform legal choice."""
    body = {k: v for k, v in action.items() if k != "choices"}
    for name, options in (action.get("choices") or {}).items():
        if options:
            body[name] = rng.choice(list(options))
    return body


def find(legal: list[JSON], type_: str, **params: Any) -> JSON | None:
    """The body of the legal action of ``type_`` that allows ``params`` (None if none)."""
    for action in legal:
        if action.get("type") != type_:
            continue
        choices = action.get("choices") or {}
        ok = True
        for name, value in params.items():
            if name in choices:
                if value not in choices[name]:
                    ok = False
                    break
            elif name in action:
                if action[name] != value:
                    ok = False
                    break
            else:
                ok = False
                break
        if ok:
            body = {k: v for k, v in action.items() if k != "choices"}
            body.update(params)
            return body
    return None
