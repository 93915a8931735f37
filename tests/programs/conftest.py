"""The platform for programs: players from the API's fixtures."""

from tests.api.conftest import Player, ann, anon, bob, cid, make_player  # noqa: F401
