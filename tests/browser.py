"""The browser tests' one place: the system Chromium (never a downloaded browser) and its fixtures.

Loaded for every test directory by ``tests/conftest.py`` (``pytest_plugins``),
so the web table's tests (tests/play) and the viewer's (tests/replays) share
one definition of ``chromium``, ``page`` and ``artifacts``.

``chromium`` is module-scoped: Playwright's sync API runs an event loop in the
test thread while it is open, and allows one instance per thread at a time, so
each browser test module opens its own and closes it before the next module
(and before the tests that run an event loop of their own). One Chromium per
worker for the whole session was weighed and left: a launch and close cost
0.3 s here (28 Nov 2026), about 36 modules open one, so it would save about
5 s of the suite's wall time over two workers, and every non-browser test of
the worker would then run beside Playwright's loop.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.needs import missing

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """The system Chromium driven by Playwright."""
    if not os.path.exists(CHROMIUM):
        missing(f"Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright  # only where a browser is wanted

    # Playwright's sync API runs an event loop in this thread; the ORM calls the
    # tests make beside it are still synchronous and safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    """A fresh tab (its own context: no cookies shared) in a desktop-sized window."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where browser tests leave screenshots (test-artifacts/, kept by CI)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
