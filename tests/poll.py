"""The one poll-until of the tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_for(
    predicate: Callable[[], Any], timeout: float, step: float = 0.1, what: str = ""
) -> Any:
    """Poll ``predicate`` every ``step`` seconds until it is truthy, and return its value;
    fail (an ``AssertionError`` naming ``what``) after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or predicate}")
        time.sleep(step)
