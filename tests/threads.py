"""Work released on several threads together, for tests of races."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.db import connection


def at_once(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` for i < count on as many threads, released together; their
    results in order (an exception in any is raised here). Each thread closes its
    database connection when done."""
    gate = threading.Barrier(count)

    def run(i: int) -> Any:
        gate.wait()
        try:
            return work(i)
        finally:
            connection.close()

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))
