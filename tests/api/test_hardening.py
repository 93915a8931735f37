"""Issue 18, item 9: hardening headers, token rotation, sign-up's ``next=``.

* a Content-Security-Policy without inline script, and a Permissions-Policy,
  on every page (the pages have no inline script left to allow);
* ``Cache-Control: no-store`` on the token page;
* HSTS ``includeSubDomains`` / ``preload`` only when a setting asks;
* ``POST /api/auth/token/rotate/``: a new token, the old one 401 at once --
  in every process, not only the one that rotated it;
* sign-up's ``next=`` refuses an ``http://`` downgrade, as log-in does.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import tokens as authentication

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db


def inline_scripts(html: str) -> list[str]:
    """``<script>`` elements with code in them (not ``src=``, not JSON data)."""
    found = []
    for attrs, body in re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S | re.I):
        if "src=" in attrs or "application/json" in attrs:
            continue
        if body.strip():
            found.append(body.strip()[:80])
    found += re.findall(r"\son[a-z]+\s*=", html, re.I)  # onclick=, onerror= ...
    return found


@pytest.fixture
def pages(ann, bob, quick_skipbo):
    """A signed-in client and the paths of every kind of page."""
    client = Client()
    client.force_login(get_user_model().objects.get(username="ann"))
    game = quick_skipbo["id"]
    return client, [
        "/",
        f"/play/{game}/",
        f"/play/{game}/?partial=1",
        "/replays/",
        "/accounts/token/",
        "/api/docs/",
        "/api/games/",
        "/no-such-page/",
    ]


def test_every_page_has_a_csp_without_inline_script_and_a_permissions_policy(pages):
    client, paths = pages
    anonymous = ["/", "/accounts/login/", "/accounts/signup/", "/admin/login/", "/api/rulesets/"]
    for who, path in [*((client, p) for p in paths), *((Client(), p) for p in anonymous)]:
        response = who.get(path)
        assert response.status_code < 500, path
        csp = response["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["script-src"] == "'self'", (path, csp)
        assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
        assert "camera=()" in response["Permissions-Policy"], path
        if response["Content-Type"].startswith("text/html"):
            html = response.content.decode()
            assert inline_scripts(html) == [], (path, inline_scripts(html))


def test_the_replay_viewer_has_no_inline_script_or_style():
    from django.core.management import call_command

    call_command("demo", "--if-empty", verbosity=0)  # finished games, with their charts
    client = Client()
    listing = client.get("/replays/").content.decode()
    viewers = sorted(set(re.findall(r'href="(/replays/[0-9a-f-]{36}/)', listing)))
    assert viewers, listing[:2000]
    for path in [*viewers, viewers[0] + "?step=9999"]:
        html = client.get(path).content.decode()
        assert inline_scripts(html) == [] and ' style="' not in html, path


def test_the_api_docs_have_no_script_and_no_inline_style():
    # Swagger UI needed 'unsafe-inline' styles on /api/docs/; the reference needs none.
    answer = Client().get("/api/docs/")
    html = answer.content.decode()
    assert inline_scripts(html) == [] and ' style="' not in html and "<style" not in html
    directives = dict(d.strip().split(" ", 1) for d in answer["Content-Security-Policy"].split(";"))
    assert directives["style-src"] == "'self'"
    admin = Client().get("/admin/login/")["Content-Security-Policy"]
    assert "style-src 'self' 'unsafe-inline'" in admin  # Django's admin still needs it


def test_the_token_page_is_never_cached(ann):
    client = Client()
    client.force_login(get_user_model().objects.get(username="ann"))
    for answer in (client.get("/accounts/token/"), client.post("/accounts/token/")):
        assert answer.status_code == 200
        assert "no-store" in answer["Cache-Control"]


def _settings(tmp_path: Path, **env: str) -> dict:
    if (ROOT / ".env").exists():
        pytest.skip("a .env file beside manage.py would fill in the variables")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PABLO_"))}
    clean.update(DJANGO_SETTINGS_MODULE="pablo.settings", PABLO_VAR_DIR=str(tmp_path),
                 DJANGO_SECRET_KEY="own-" + "Zq8" * 20, **env)  # fmt: skip
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, "
        "s.SECURE_HSTS_PRELOAD]))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True,
                         text=True)  # fmt: skip
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_hsts_preload_and_subdomains_only_when_asked(tmp_path):
    seconds, subdomains, preload = _settings(tmp_path, DJANGO_HTTPS="1")
    assert seconds > 0 and not subdomains and not preload
    _, subdomains, preload = _settings(
        tmp_path,
        DJANGO_HTTPS="1",
        DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
        DJANGO_SECURE_HSTS_PRELOAD="1",
    )
    assert subdomains and preload


# --------------------------------------------------------------------------- token rotation


def test_rotating_the_token_kills_the_old_one_at_once(ann):
    old = Token.objects.get(user__username="ann").key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {old}")
    assert client.get("/api/games/").status_code == 200  # now in this process's cache
    answer = client.post("/api/auth/token/rotate/")
    assert answer.status_code == 200
    new = answer.json()["token"]
    assert new != old and set(answer.json()) == {"token"}
    assert client.get("/api/games/").status_code == 401
    client.credentials(HTTP_AUTHORIZATION=f"Token {new}")
    assert client.get("/api/games/").status_code == 200
    assert APIClient().post("/api/auth/token/rotate/").status_code == 401


def test_another_process_that_remembers_the_old_token_refuses_it_too(ann):
    """Another worker process still holds the old token in its per-process cache."""
    token = Token.objects.get(user__username="ann")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/games/").status_code == 200
    remembered = dict(authentication._known)
    assert client.post("/api/auth/token/rotate/").status_code == 200
    # what a second process would still have in memory, well within its TTL
    authentication._known.update(remembered)
    assert all(hit[0] > time.monotonic() for hit in remembered.values())
    assert client.get("/api/games/").status_code == 401


def test_the_token_page_rotates_the_token(ann):
    old = Token.objects.get(user__username="ann").key
    client = Client()
    client.force_login(get_user_model().objects.get(username="ann"))
    page = client.get("/accounts/token/").content.decode()
    assert 'name="rotate"' in page
    answer = client.post("/accounts/token/", {"rotate": "1"})
    assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]
    new = Token.objects.get(user__username="ann").key
    assert new != old and new in answer.content.decode() and old not in answer.content.decode()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {old}")
    assert api.get("/api/games/").status_code == 401


# --------------------------------------------------------------------------- next=


def test_sign_up_refuses_an_http_downgrade_as_log_in_does():
    get_user_model().objects.create_user(username="ann2", password="xx-secret-77")
    target = "http://testserver/replays/"
    login = Client().post(
        f"/accounts/login/?next={target}",
        {"username": "ann2", "password": "xx-secret-77"},
        secure=True,
    )
    assert login.status_code == 302 and not login["Location"].startswith("http://")
    signup = Client().post(
        f"/accounts/signup/?next={target}",
        {"username": "newbie", "password1": "xx-secret-77", "password2": "xx-secret-77"},
        secure=True,
    )
    assert signup.status_code == 302 and not signup["Location"].startswith("http://")
    ok = Client().post(
        "/accounts/signup/?next=/replays/",
        {"username": "newbie2", "password1": "xx-secret-77", "password2": "xx-secret-77"},
        secure=True,
    )
    assert ok["Location"] == "/replays/"
