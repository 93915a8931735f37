"""Attacks of a stranger (round 5), replayed: each test failed before its fix."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------- client addresses


@pytest.fixture
def _throttle_cache():
    from django.core.cache import caches

    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


def _token(client, username, password, forwarded):
    body = {"username": username, "password": password}
    return client.post(
        "/api/auth/token/",
        body,
        format="json",
        REMOTE_ADDR="10.0.0.9",
        HTTP_X_FORWARDED_FOR=forwarded,
    )


def test_a_port_in_the_forwarded_address_does_not_make_a_new_client(settings, _throttle_cache):
    """Some proxies write the client's address with its port into X-Forwarded-For
    (``192.0.2.7:50001``, ``[2001:db8::1]:443``); the whole text was the key, so every
    new connection (a new source port) was a new client: the log-in failures, sign-ups
    and auth calls per address were never reached."""
    from rest_framework.test import APIClient

    from tests.factories import UserFactory

    settings.PABLO_TRUSTED_PROXIES = 1
    settings.PABLO_THROTTLE_LOGIN_FAILURES = "3/hour"
    settings.PABLO_THROTTLE_AUTH = None
    UserFactory(username="ann5", password="right-one")
    client = APIClient()
    answers = [_token(client, "ann5", f"guess-{i}", f"192.0.2.7:{50001 + i}") for i in range(5)]
    assert [a.status_code for a in answers] == [400, 400, 400, 429, 429]
    assert _token(client, "ann5", "right-one", "192.0.2.7").status_code == 429
    assert _token(client, "ann5", "right-one", "198.51.100.1:443").status_code == 200

    answers = [
        _token(client, "ann5", f"guess-{i}", f"[2001:db8:1:2::{i + 1:x}]:{443 + i}")
        for i in range(4)
    ]
    assert [a.status_code for a in answers] == [400, 400, 400, 429]
    assert _token(client, "ann5", "right-one", "2001:db8:1:2::99").status_code == 429


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("192.0.2.7:50001", "192.0.2.7"),
        ("[2001:db8:1:2::1]", "2001:db8:1:2::/64"),
        ("[2001:db8:1:2::1]:443", "2001:db8:1:2::/64"),
        ("[::ffff:192.0.2.7]:443", "192.0.2.7"),
        (" 192.0.2.7 ", "192.0.2.7"),
        # an IPv4 client through a NAT64/SIIT translator (RFC 6052's well-known prefix):
        # each its own client, not all of IPv4 in one /64
        ("64:ff9b::192.0.2.7", "192.0.2.7"),
        ("64:ff9b::c633:6401", "198.51.100.1"),
        # a 6to4 host: its IPv4 address, not one of its 65,536 /64s
        ("2002:c000:242:7::1", "192.0.2.66"),
        ("2002:c000:242:ffff::1", "192.0.2.66"),
        # a Teredo client: its own IPv4 address, not its server's /64
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45"),
        # (kept as they were)
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("fe80::1%eth0", "fe80::/64"),
        ("not an address", "not an address"),
        ("", ""),
    ],
)
def test_the_spellings_of_a_client_address(address, expected):
    from games.api import throttling

    assert throttling.client_key(address) == expected


def test_an_ipv4_client_through_nat64_does_not_lock_out_every_other(settings, _throttle_cache):
    """Behind a NAT64/SIIT translator every IPv4 client arrives as 64:ff9b::a.b.c.d, one
    /64: a guesser at one IPv4 address locked every IPv4 user out of logging in."""
    from rest_framework.test import APIClient

    from tests.factories import UserFactory

    settings.PABLO_THROTTLE_LOGIN_FAILURES = "3/hour"
    settings.PABLO_THROTTLE_AUTH = None
    UserFactory(username="ann5", password="right-one")
    client = APIClient()
    body = {"username": "ann5", "password": "wrong"}
    for _ in range(4):
        client.post("/api/auth/token/", body, format="json", REMOTE_ADDR="64:ff9b::192.0.2.66")
    body = {"username": "ann5", "password": "right-one"}
    answer = client.post(
        "/api/auth/token/", body, format="json", REMOTE_ADDR="64:ff9b::198.51.100.1"
    )
    assert answer.status_code == 200, answer.content


def test_a_6to4_host_is_one_client_whatever_its_subnet(settings, _throttle_cache):
    """A 6to4 host (2002:aabb:ccdd::/48, RFC 3056) is one IPv4 address, a.b.c.d, and owns
    65,536 /64s: keyed by the /64, it changed its subnet id for each guess and passed the
    failure limit per address (and the sign-ups per address) 65,536 times over."""
    from rest_framework.test import APIClient

    from tests.factories import UserFactory

    settings.PABLO_THROTTLE_LOGIN_FAILURES = "3/hour"
    settings.PABLO_THROTTLE_AUTH = None
    UserFactory(username="ann5", password="right-one")
    client = APIClient()
    body = {"username": "ann5", "password": "wrong"}
    answers = [
        client.post("/api/auth/token/", body, format="json", REMOTE_ADDR=f"2002:c000:242:{i:x}::1")
        for i in range(1, 6)
    ]
    assert [a.status_code for a in answers] == [400, 400, 400, 429, 429]
    body = {"username": "ann5", "password": "right-one"}
    assert (
        client.post("/api/auth/token/", body, format="json", REMOTE_ADDR="192.0.2.66").status_code
        == 429
    )  # the same host over IPv4
    assert (
        client.post("/api/auth/token/", body, format="json", REMOTE_ADDR="198.51.100.1").status_code
        == 200
    )


def test_teredo_clients_of_one_server_are_not_one_client(settings, _throttle_cache):
    """Teredo (2001:0::/32, RFC 4380) puts its server's IPv4 address in the /64 and the
    client's own (NAT's) address, obfuscated, in the last 32 bits: keyed by the /64, every
    client of a Teredo server was one client, and one guesser locked them all out."""
    from rest_framework.test import APIClient

    from tests.factories import UserFactory

    settings.PABLO_THROTTLE_LOGIN_FAILURES = "3/hour"
    settings.PABLO_THROTTLE_AUTH = None
    UserFactory(username="ann5", password="right-one")
    client = APIClient()
    # server 65.54.227.120; clients 192.0.2.45 and 198.51.100.7 (bits inverted)
    guesser, owner = "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:0:4136:e378:8000:63bf:39cc:9bf8"
    body = {"username": "ann5", "password": "wrong"}
    for _ in range(4):
        client.post("/api/auth/token/", body, format="json", REMOTE_ADDR=guesser)
    body = {"username": "ann5", "password": "right-one"}
    assert (
        client.post("/api/auth/token/", body, format="json", REMOTE_ADDR=guesser).status_code == 429
    )
    assert (
        client.post("/api/auth/token/", body, format="json", REMOTE_ADDR=owner).status_code == 200
    )


# --------------------------------------------------------------------------- a script prefix


def test_a_script_prefix_does_not_take_the_auth_calls_out_of_their_limit(settings, _throttle_cache):
    """The API throttle picked the auth limit by ``request.path``, which carries the
    script prefix (``SCRIPT_NAME``: a mounted site, or the header gunicorn takes from
    a trusted peer -- a proxy on the same host or a unix socket): under any prefix,
    ``/api/auth/...`` calls were not counted at all. The route is ``path_info``."""
    from rest_framework.test import APIClient

    settings.PABLO_THROTTLE_AUTH = "3/min"
    settings.PABLO_THROTTLE_LOGIN_FAILURES = None
    client = APIClient()
    body = {"username": "nobody", "password": "wrong"}
    answers = [
        client.post("/api/auth/token/", body, format="json", SCRIPT_NAME="/pablo") for _ in range(5)
    ]
    assert [a.status_code for a in answers] == [400, 400, 400, 429, 429]
    assert answers[-1].json()["code"] == "throttled"


def test_a_script_prefix_does_not_make_an_api_answer_storable(ann):
    """``Cache-Control: no-store`` on every API answer was chosen by ``request.path``
    too: under a script prefix a shared cache could keep a player's view of a game."""
    response = ann.get("/api/me/turns/", SCRIPT_NAME="/pablo")
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "no-store"


# --------------------------------------------------------------------------- a proxy not declared


@pytest.mark.parametrize("remote", ["127.0.0.1", "::1", ""])
def test_a_proxy_left_undeclared_is_said_in_the_log(settings, caplog, remote):
    """Behind a proxy (on this host, or a unix socket: REMOTE_ADDR ``""``) with
    ``PABLO_TRUSTED_PROXIES`` left at 0, every client is the proxy's address: one
    client's sign-ups and log-in failures stopped everyone's, and nothing said why."""
    from django.test import RequestFactory

    from games.api import throttling

    settings.PABLO_TRUSTED_PROXIES = 0
    throttling._last_proxy_warning = 0.0
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR="192.0.2.7")
    with caplog.at_level("WARNING", logger="games.api.throttling"):
        # (still not read from the header)
        assert throttling.client_address(request) == throttling.client_key(remote)
        throttling.client_address(request)
    said = [r for r in caplog.records if "PABLO_TRUSTED_PROXIES" in r.getMessage()]
    assert len(said) == 1  # once a minute, not once a request


def test_a_client_sending_the_header_itself_is_not_a_proxy(settings, caplog):
    from django.test import RequestFactory

    from games.api import throttling

    settings.PABLO_TRUSTED_PROXIES = 0
    throttling._last_proxy_warning = 0.0
    request = RequestFactory().get("/", REMOTE_ADDR="198.51.100.1", HTTP_X_FORWARDED_FOR="1.2.3.4")
    with caplog.at_level("WARNING", logger="games.api.throttling"):
        assert throttling.client_address(request) == "198.51.100.1"
    assert not [r for r in caplog.records if "PABLO_TRUSTED_PROXIES" in r.getMessage()]
