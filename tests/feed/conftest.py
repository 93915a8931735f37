"""Feed servers for the live-feed tests: ``uvicorn pablo.asgi:application`` (and gunicorn)
as processes of their own (``tests.processes``), pointed at the test database and the
test Redis database.

Their database connections carry ``application_name`` (``PGAPPNAME``), so a test
can count them in ``pg_stat_activity`` and see whether they ran a query.
"""

from __future__ import annotations

import pytest

from tests.processes import Processes, database_url


@pytest.fixture
def pg_servers(require_postgres: None, processes: Processes, redis_broker: str) -> Processes:
    """Servers on the test database (PostgreSQL) and the test Redis database, which they
    share for the fan-out and the wait counter."""
    processes.env.update(
        DATABASE_URL=database_url(),
        CELERY_BROKER_URL=redis_broker,
        DJANGO_LOG_LEVEL="WARNING",
        PABLO_TEST_KEEP_THROTTLE_CACHE="1",  # the wait counter, shared by every process
        PABLO_TEST_KEEP_DEFAULT_CACHE="1",  # the token and user marks (games/api/auth.py)
    )
    return processes
