"""Fixtures for the fault and abuse tests (private servers live in ``servers.py``)."""

from tests.api.conftest import make_player  # noqa: F401  (a fixture)
