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


@pytest.fixture(scope="module")
def asgi_server(request):
    """``pablo.asgi:application`` under uvicorn in this process, on the test database
    (``tests.asgi_server.shared``: one per process): what a program meets, its long
    polls through the fast path. Tests that use it are transactional."""
    from tests.asgi_server import shared

    request.getfixturevalue("django_db_setup")
    server = shared()
    yield server
    server.close_connections()
