"""The platform for programs: players from the API's fixtures, the feed's servers, a
live ASGI server in this process."""

import pytest

from tests.api.conftest import (  # noqa: F401
    Player,
    ann,
    anon,
    bob,
    cid,
    make_player,
    quick_skipbo,
)
from tests.feed.conftest import pg_servers  # noqa: F401  (uvicorn on the test database)


@pytest.fixture
def asgi_server(transactional_db):
    """``pablo.asgi:application`` under uvicorn in this process, on the test database:
    what a program meets (its long polls through the fast path)."""
    from tests.asgi_server import AsgiLiveServer

    server = AsgiLiveServer()
    yield server
    server.stop()
