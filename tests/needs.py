"""What a test needs from the machine: skip without it, or fail when CI says it must be there.

``PABLO_REQUIRE_SERVICES=1`` (as in CI) turns every such skip into a failure.
"""

from __future__ import annotations

import os

import pytest

REQUIRE_SERVICES = os.environ.get("PABLO_REQUIRE_SERVICES") == "1"


def missing(what: str) -> None:
    """Skip (saying why) -- or fail under ``PABLO_REQUIRE_SERVICES=1``."""
    message = f"needs {what}"
    if REQUIRE_SERVICES:
        pytest.fail(f"{message} (PABLO_REQUIRE_SERVICES=1)")
    pytest.skip(message)
