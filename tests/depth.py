"""How deep the random-game sweeps go: ``PABLO_TEST_DEPTH`` (default 1) scales them.

The property tests of the rules (hypothesis' examples: whole random games checked
after every event) and the bots' legality sweep play a fixed number of games, so
that a run is repeatable and its time known. ``make test`` plays the default counts,
sized to keep the whole suite within CI's time budget; ``PABLO_TEST_DEPTH=4 make
test ARGS="-m slow tests/rules tests/bots"`` plays four times as many (a deeper run
before a release or after a change to the rules; docs/design.md "Testing").
"""

from __future__ import annotations

import math
import os


def depth() -> float:
    value = os.environ.get("PABLO_TEST_DEPTH") or "1"
    try:
        scale = float(value)
    except ValueError:
        raise ValueError(f"PABLO_TEST_DEPTH must be a number, not {value!r}") from None
    if not scale > 0:
        raise ValueError(f"PABLO_TEST_DEPTH must be above 0, not {value!r}")
    return scale


def scaled(default: int) -> int:
    """``default`` games scaled by ``PABLO_TEST_DEPTH`` (at least one)."""
    return max(1, math.ceil(default * depth()))
