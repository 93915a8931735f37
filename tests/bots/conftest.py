"""Fixtures shared with the API tests (players) and the worker tests (Celery processes)."""

from tests.api.conftest import ann, bob, make_player  # noqa: F401
