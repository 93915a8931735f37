"""What the service benches share (bench_followers.py, bench_push.py): a Redis database
of their own as broker (``PABLO_BENCH_REDIS_DB``, flushed before and after), a
PostgreSQL database of their own (created and migrated, dropped at the end), the
percentile they report and the verdict against their goals.

``bench_redis`` runs before Django is set up (it chooses the broker the settings
read); the rest after (import this module's names once ``django.setup()`` has run,
as ``bench_append``'s import does)."""

from __future__ import annotations

import os
from typing import Any


def bench_redis(default: int) -> str:
    """The broker URL of the bench's Redis database (``PABLO_BENCH_REDIS_DB``, else
    ``default``), put into ``CELERY_BROKER_URL``; database 0 is refused."""
    number = int(os.environ.get("PABLO_BENCH_REDIS_DB", str(default)))
    if not 1 <= number <= 15:
        raise SystemExit("PABLO_BENCH_REDIS_DB: 1-15 (0 is the broker's)")
    url = os.environ["CELERY_BROKER_URL"] = f"redis://127.0.0.1:6379/{number}"
    return url


def percentile(values: list[float], q: float) -> float:
    """The ``q`` (0-1) percentile of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def open_databases(db_name: str, broker: str) -> Any:
    """PostgreSQL required; the broker's Redis database flushed; ``db_name`` created
    and migrated (any leftover replaced) and used from here on. The Redis client."""
    import redis
    from django.db import connection

    if connection.vendor != "postgresql":
        raise SystemExit("needs PostgreSQL (DATABASE_URL=postgres://...)")
    client = redis.Redis.from_url(broker)
    client.flushdb()
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    connection.settings_dict["NAME"] = db_name
    return client


def close_databases(db_name: str, client: Any) -> None:
    """Undo ``open_databases``: connections closed, ``db_name`` dropped, Redis flushed."""
    from django.db import connection, connections

    connections.close_all()
    connection.creation.destroy_test_db(db_name, verbosity=0)
    client.flushdb()
    client.close()


def verdict(out: dict[str, float], goals: dict[str, float], missed: list[str]) -> int:
    """Print whether every goal (``name: most allowed``) was met by ``out`` and nothing
    else was ``missed``; the exit status (1 when anything was missed)."""
    for name, goal in goals.items():
        if out.get(name, float("inf")) > goal:
            missed.append(f"{name} {out.get(name)} (goal {goal})")
    print("goals:", "all met" if not missed else "missed: " + "; ".join(missed))
    return 1 if missed else 0
