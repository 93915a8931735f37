"""Throttling (API.md "Throttling", games/api/throttling.py) and the production settings.

The test settings turn the limits off; each test here turns on the ones it
checks with the ``settings`` fixture, on the per-test in-memory throttle cache.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import caches
from django.http import HttpResponse
from django.test import RequestFactory
from rest_framework.test import APIClient

from games.api import throttling
from tests.factories import UserFactory

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _empty_throttle_cache():
    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


@pytest.fixture
def limits(settings):
    settings.PABLO_THROTTLE_LOGIN_FAILURES = "10/hour"
    settings.PABLO_THROTTLE_AUTH = None
    settings.PABLO_THROTTLE_ACTIONS = None
    return settings


def token(client: APIClient, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(
        "/api/auth/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
    )


@pytest.mark.django_db
def test_a_wrong_password_30_times_in_a_row_gets_429s(limits):
    UserFactory(username="ann", password="right-one")
    client = APIClient()
    answers = [token(client, "ann", f"guess-{i}") for i in range(30)]
    assert [a.status_code for a in answers[:10]] == [400] * 10
    assert [a.status_code for a in answers[10:]] == [429] * 20
    refused = answers[-1]
    assert refused.json()["code"] == "throttled" and refused.json()["detail"]
    assert 3500 < int(refused["Retry-After"]) <= 3600
    # the right password from that address is refused too, until Retry-After passes ...
    assert token(client, "ann", "right-one").status_code == 429
    # ... but not from another address, and not for another username from this one
    assert token(client, "ann", "right-one", address="10.0.0.2").status_code == 200
    UserFactory(username="bob", password="bobs-pass")
    assert token(client, "bob", "bobs-pass").status_code == 200


@pytest.mark.django_db
def test_the_failure_window_slides(limits, monkeypatch):
    UserFactory(username="ann", password="right-one")
    client = APIClient()
    clock = [1000.0]
    monkeypatch.setattr(throttling._Limit, "timer", lambda self: clock[0])
    for _ in range(10):
        assert token(client, "ann", "wrong").status_code == 400
    answer = token(client, "ann", "right-one")
    assert answer.status_code == 429 and answer["Retry-After"] == "3600"
    clock[0] += 3599
    assert token(client, "ann", "right-one")["Retry-After"] == "1"
    clock[0] += 2
    assert token(client, "ann", "right-one").status_code == 200


@pytest.mark.django_db
def test_successes_do_not_count(limits):
    UserFactory(username="ann", password="right-one")
    client = APIClient()
    for _ in range(9):
        assert token(client, "ann", "wrong").status_code == 400
    for _ in range(20):
        assert token(client, "ann", "right-one").status_code == 200
    assert token(client, "ann", "wrong").status_code == 400  # the tenth failure
    assert token(client, "ann", "right-one").status_code == 429


@pytest.mark.django_db
def test_every_auth_call_counts_per_address(settings):
    settings.PABLO_THROTTLE_AUTH = "5/min"
    client = APIClient()
    for i in range(3):
        body = {"username": f"u{i}", "password": "secret-pw"}
        assert client.post("/api/auth/register/", body, format="json").status_code == 201
    assert token(client, "u0", "secret-pw", address="127.0.0.1").status_code == 200
    assert token(client, "u0", "nope", address="127.0.0.1").status_code == 400
    refused = client.post("/api/auth/register/", {"username": "u9", "password": "secret-pw"})
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert token(client, "u0", "secret-pw", address="10.9.9.9").status_code == 200
    # reading rulesets is not an auth call
    assert client.get("/api/rulesets/").status_code == 200


@pytest.mark.django_db
def test_actions_per_user_over_all_games(settings, make_player):
    settings.PABLO_THROTTLE_ACTIONS = "3/min"
    ann, bob = make_player("ann"), make_player("bob")  # API clients with tokens
    games = []
    for _ in range(2):
        created = ann.post(
            "/api/games/",
            {"ruleset": "pablo", "seats": 2, "options": {"start_seat": 0}},
            format="json",
        )
        assert created.status_code == 201
        assert bob.post(f"/api/games/{created.json()['id']}/join/").status_code == 200
        games.append(created.json()["id"])
    look = {"type": "look", "positions": [0, 1]}
    assert ann.act(games[0], look).status_code == 201
    assert ann.act(games[1], look).status_code == 201
    assert ann.act(games[0], look).status_code == 409  # refused actions count too
    refused = ann.act(games[1], look)
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert "Retry-After" in refused
    # nothing stored for the refused one; bob is not affected; reading is not throttled
    assert bob.act(games[1], look).status_code == 201
    assert ann.get(f"/api/games/{games[1]}/").status_code == 200


@pytest.mark.django_db
def test_web_login_helper_counts_failures_from_django_authenticate(limits):
    from django.contrib.auth import authenticate

    UserFactory(username="ann", password="right-one")
    factory = RequestFactory()
    calls = []

    def login_view(request):
        user = authenticate(
            request, username=request.POST["username"], password=request.POST["password"]
        )
        calls.append(user is not None)
        return HttpResponse("ok" if user else "bad", status=200 if user else 400)

    view = throttling.throttle_web_auth(login_view)

    def post(password: str, address: str = "10.1.1.1"):
        request = factory.post(
            "/accounts/login/", {"username": "ann", "password": password}, REMOTE_ADDR=address
        )
        return view(request)

    assert [post("wrong").status_code for _ in range(10)] == [400] * 10
    refused = post("right-one")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 3500
    assert len(calls) == 10  # the refused attempt never reached the form
    assert post("right-one", address="10.1.1.2").status_code == 200
    # failures on the web and the API add up: the API refuses ann from 10.1.1.1 as well
    assert token(APIClient(), "ann", "right-one", address="10.1.1.1").status_code == 429


@pytest.mark.django_db
def test_web_auth_helper_counts_every_post_per_address(settings):
    settings.PABLO_THROTTLE_AUTH = "2/min"
    request = RequestFactory().post("/accounts/signup/", {"username": "x"}, REMOTE_ADDR="10.2.2.2")
    assert throttling.check_web_auth(request) is None
    assert throttling.check_web_auth(request) is None
    assert 1 <= throttling.check_web_auth(request) <= 60


def test_client_address_trusts_only_the_configured_proxies(settings):
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.9", HTTP_X_FORWARDED_FOR="6.6.6.6, 1.2.3.4"
    )
    settings.PABLO_TRUSTED_PROXIES = 0
    assert throttling.client_address(request) == "10.0.0.9"
    settings.PABLO_TRUSTED_PROXIES = 1
    assert throttling.client_address(request) == "1.2.3.4"


@pytest.mark.django_db
def test_an_unreachable_cache_lets_requests_through(limits, monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionError("cache away")

    cache = caches["throttle"]
    monkeypatch.setattr(cache, "get", broken)
    monkeypatch.setattr(cache, "set", broken)
    UserFactory(username="ann", password="right-one")
    client = APIClient()
    for _ in range(12):
        assert token(client, "ann", "wrong").status_code == 400
    assert token(client, "ann", "right-one").status_code == 200


# --------------------------------------------------------------------------- settings


def _run(code: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    if (ROOT / ".env").exists():
        pytest.skip("a .env file beside manage.py would fill in the variables")
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_", "PABLO_CACHE"))
    }
    clean.update(DJANGO_SETTINGS_MODULE="pablo.settings", PABLO_VAR_DIR=str(tmp_path), **env)
    return subprocess.run(
        [sys.executable, *code.split("\0")], cwd=ROOT, env=clean, capture_output=True, text=True
    )


SHOW = "-c\0import django, json; django.setup(); from django.conf import settings as s; " + (
    "print(json.dumps([s.SECRET_KEY, s.CACHES['throttle']['BACKEND']]))"
)


def test_without_debug_and_key_the_service_refuses_to_start(tmp_path):
    out = _run(SHOW, tmp_path)
    assert out.returncode != 0
    assert "DJANGO_SECRET_KEY is not set: set it to a long random string" in out.stderr


def test_debug_keeps_a_local_key_in_var(tmp_path):
    first = _run(SHOW, tmp_path, DJANGO_DEBUG="1")
    assert first.returncode == 0, first.stderr
    key, backend = json.loads(first.stdout)
    assert len(key) >= 50 and (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
    again = json.loads(_run(SHOW, tmp_path, DJANGO_DEBUG="1").stdout)
    assert again[0] == key  # kept, so sessions survive a restart
    # the embedded default's throttle cache is shared by processes: files, not memory
    assert backend == "django.core.cache.backends.filebased.FileBasedCache"


def test_with_a_redis_broker_the_throttle_cache_is_redis(tmp_path):
    out = _run(
        SHOW, tmp_path, DJANGO_SECRET_KEY="k" * 50, CELERY_BROKER_URL="redis://127.0.0.1:6379/0"
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)[1] == "django.core.cache.backends.redis.RedisCache"


def test_check_deploy_passes_with_the_documented_production_settings(tmp_path):
    out = _run(
        "manage.py\0check\0--deploy\0--fail-level=WARNING",
        tmp_path,
        DJANGO_SECRET_KEY="a-long-random-production-secret-" + "q7Zp" * 10,
        DJANGO_HTTPS="1",
        DJANGO_ALLOWED_HOSTS="cards.example.org",
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout
