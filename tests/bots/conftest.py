"""Fixtures shared with the API tests (players) and the worker tests (Celery processes)."""

from tests.api.conftest import ann, bob, make_player  # noqa: F401
from tests.processes import celery, pytest_runtest_makereport, redis_broker  # noqa: F401
