"""The table's tests run against the ASGI application (the browser fixtures are in
tests/browser.py, shared by every directory)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def live_server(request):
    """The table's pages, actions and live updates through ``pablo.asgi:application``
    (uvicorn), the path that waits without a thread (games/feed/), instead of
    pytest-django's WSGI server."""
    from tests.asgi_server import shared

    request.getfixturevalue("django_db_setup")
    server = shared()  # (one per process: tests/programs serve through it too)
    yield server
    server.close_connections()
