"""Fixtures for the viewer's tests: finished games stored as rows (browser: tests/browser.py)."""

from __future__ import annotations

import pytest

from tests.replays.games import engine_game, store

NAMES = ["ann", "ben", "cara", "dan"]


@pytest.fixture(autouse=True)
def replay_cache(settings):
    """The default cache (where the viewer keeps its replays), in memory and empty for
    every test."""
    from django.core.cache import cache

    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "replays-tests",
        },
    }
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def stored():
    """``stored(ruleset, seats=…, **engine_game kwargs)`` -> (Game, Table)."""

    def make(ruleset: str, seats: int = 3, *, names: list[str] | None = None, **kwargs):
        t = engine_game(ruleset, seats, **kwargs)
        game = store(t.events, names=names or NAMES[:seats])
        return game, t

    return make
