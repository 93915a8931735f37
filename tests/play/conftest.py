"""Fixtures for the web table's browser tests: the system Chromium via Playwright."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="module")
def chromium():
    """The system Chromium driven by Playwright (never a downloaded browser).

    Module-scoped: Playwright's sync API allows one instance per thread at a
    time, and the replay viewer's tests start their own (session-scoped) one
    later in the run, so this one must be gone by then.
    """
    from tests.conftest import _missing

    if not os.path.exists(CHROMIUM):
        _missing(f"Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def artifacts():
    path = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(scope="session")
def live_server(request):
    """The table's pages, actions and live updates through ``pablo.asgi:application``
    (uvicorn), the path that waits without a thread (games/feed/), instead of
    pytest-django's WSGI server."""
    from tests.asgi_server import AsgiLiveServer

    request.getfixturevalue("django_db_setup")
    server = AsgiLiveServer()
    yield server
    server.stop()
