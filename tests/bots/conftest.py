from tests.api.conftest import ann, bob, make_player  # noqa: F401
