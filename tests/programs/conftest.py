"""The platform for programs: players from the API's fixtures, the feed's servers."""

from tests.api.conftest import Player, ann, anon, bob, cid, make_player  # noqa: F401
from tests.feed.conftest import pg_servers  # noqa: F401  (uvicorn on the test database)
