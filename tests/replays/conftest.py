"""Fixtures for the viewer's tests: finished games stored as rows."""

from __future__ import annotations

import pytest

from tests.browser import CHROMIUM, CHROMIUM_ARGS
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


@pytest.fixture(scope="session")
def chromium():
    """The system Chromium driven by Playwright (never a downloaded browser)."""
    import os

    from tests.conftest import _missing

    if not os.path.exists(CHROMIUM):
        _missing(f"Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls the
    # tests make beside it are still synchronous and safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture(scope="session")
def artifacts():
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path
