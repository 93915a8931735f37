"""Fixtures for the fair-deal tests: the API tests' players."""

from tests.api.conftest import make_player  # noqa: F401  (a fixture)
