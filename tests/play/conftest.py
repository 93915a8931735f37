"""The table's tests run against the ASGI application (the browser fixtures are in
tests/browser.py, shared by every directory)."""

from __future__ import annotations

import pytest


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
