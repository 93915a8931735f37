"""The installable app without a browser: the manifest, the service worker, the offline
page, the "Notify me" control's place and the account's devices (play/pwa.py)."""

from __future__ import annotations

import json
import re
import struct

import pytest
from django.test import Client

from games.models import PushSubscription
from games.notifications import push
from games.services import accounts as account_services
from tests.pushservice import PushService

pytestmark = pytest.mark.django_db
PAIR = push.make_keys()


@pytest.fixture
def vapid(settings):
    settings.PABLO_VAPID_PRIVATE_KEY = PAIR["private_key"]
    settings.PABLO_VAPID_PUBLIC_KEY = PAIR["public_key"]
    settings.PABLO_PUSH_ALLOW_PRIVATE = True


@pytest.fixture
def push_off(settings):
    settings.PABLO_VAPID_PRIVATE_KEY = settings.PABLO_VAPID_PUBLIC_KEY = ""
    settings.PABLO_VAPID_FILE = None


def user(name):
    u, _ = account_services.user_register(username=name, password="secret-pw")
    return u


def client_for(u, **kwargs):
    c = Client(**kwargs)
    c.force_login(u)
    return c


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_makes_an_installable_app_from_the_lobby():
    c = Client()
    r = c.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/manifest+json"
    m = json.loads(r.content)
    assert m["name"] == "Pablo" and m["short_name"] == "Pablo"
    assert m["display"] == "standalone" and m["start_url"] == "/" and m["scope"] == "/"
    assert re.fullmatch(r"#[0-9a-f]{6}", m["theme_color"])
    seen = set()
    for icon in m["icons"]:
        body = b"".join(c.get(icon["src"]).streaming_content)
        width, height = png_size(body)
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        seen.add((width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= seen


def test_the_service_worker_is_served_from_the_root_and_keeps_static_files_only():
    c = Client()
    r = c.get("/sw.js")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/javascript")
    assert r["Service-Worker-Allowed"] == "/" and r["Cache-Control"] == "no-cache"
    text = r.content.decode()
    config = json.loads(re.search(r"const PABLO = (\{.*?\});", text).group(1))
    assert config["static"] == "/static/" and config["offline"] == "/offline/"
    for url in config["kept"]:  # everything it keeps exists, and is a static file
        assert url.startswith("/static/"), url
        assert c.get(url).status_code == 200, url
    # the only cache writes: the install's (the offline page, then each listed static
    # file), and kept() under the static prefix
    assert text.count("cache.put(") == 1 and "cache.addAll(" not in text
    assert text.count("cache.add(") == 2
    assert "cache.add(PABLO.offline)" in text and "PABLO.kept.map((url) => cache.add(url))" in text
    assert "url.pathname.startsWith(PABLO.static)" in text
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])


def test_the_offline_page_names_nobody_and_holds_no_token():
    ann = user("ann")
    r = client_for(ann).get("/offline/")
    assert r.status_code == 200
    page = r.content.decode()
    assert "offline" in page.lower()
    assert "ann" not in page and "csrfmiddlewaretoken" not in page


def test_every_page_links_the_manifest_and_the_worker_script():
    page = Client().get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert "/static/play/push.js" in page and 'name="theme-color"' in page


def test_the_notify_control_is_offered_signed_in_when_push_is_on(vapid):
    assert 'id="push-control"' not in Client().get("/").content.decode()
    page = client_for(user("ann")).get("/").content.decode()
    assert 'id="push-control"' in page and "Notify me on this device" in page


def test_no_notify_control_when_push_is_off(push_off):
    page = client_for(user("ann")).get("/").content.decode()
    assert 'id="push-control"' not in page


def test_the_pages_subscribe_with_the_session_and_csrf(vapid):
    ann = user("ann")
    service = PushService()
    try:
        body = service.device().body()
    finally:
        service.close()
    c = client_for(ann, enforce_csrf_checks=True)
    refused = c.post("/api/me/push/", body, content_type="application/json")
    assert refused.status_code == 403  # no CSRF header: refused
    c.get("/")  # the page sets the CSRF cookie
    token = c.cookies["csrftoken"].value
    r = c.post("/api/me/push/", body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert r.status_code == 201, r.content
    assert [d["endpoint"] for d in c.get("/api/me/push/").json()] == [body["endpoint"]]


def test_the_account_page_lists_the_devices_and_removes_one_without_script(vapid):
    ann, bob = user("ann"), user("bob")
    mine = PushSubscription.objects.create(
        user=ann, endpoint="https://fcm.googleapis.com/fcm/send/abc", p256dh="x", auth="y"
    )
    theirs = PushSubscription.objects.create(
        user=bob,
        endpoint="https://updates.push.services.mozilla.com/wpush/v2/z",
        p256dh="x",
        auth="y",
    )
    c = client_for(ann)
    page = c.get("/accounts/token/").content.decode()
    assert "Chrome" in page and "Firefox" not in page
    assert f"/accounts/devices/{mine.pk}/remove/" in page
    assert c.get(f"/accounts/devices/{mine.pk}/remove/").status_code == 405
    r = c.post(f"/accounts/devices/{theirs.pk}/remove/", follow=True)
    assert PushSubscription.objects.filter(pk=theirs.pk).exists()  # another's: untouched
    assert "already removed" in r.content.decode()
    r = c.post(f"/accounts/devices/{mine.pk}/remove/", follow=True)
    assert not PushSubscription.objects.filter(pk=mine.pk).exists()
    assert "No device yet" in r.content.decode()


def test_the_account_page_needs_a_login():
    r = Client().get("/accounts/token/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_the_pwa_pages_and_controls_are_in_french_and_german(vapid):
    from games.services import games as game_services
    from tests.play.test_i18n import LANGUAGES, untranslated

    ann, bob = user("ann"), user("bob")
    game = game_services.game_create(user=ann, ruleset="skipbo", seats=2)
    game_services.game_join(game_id=game.id, user=bob)
    PushSubscription.objects.create(
        user=ann, endpoint="https://fcm.googleapis.com/fcm/send/abc", p256dh="x", auth="y"
    )
    pages = {}
    for lang in ("en", *LANGUAGES):
        pages[lang] = Client(HTTP_ACCEPT_LANGUAGE=lang)
        pages[lang].force_login(ann)
    paths = ["/", f"/play/{game.id}/", "/accounts/token/", "/offline/"]
    english = pages["en"].get(f"/play/{game.id}/").content.decode()
    assert "Notify me on this device" in english and "Home Screen" in english
    assert untranslated(pages, paths, {"ann", "bob", "Chrome"}) == {}
    for lang in LANGUAGES:
        manifest = json.loads(pages[lang].get("/manifest.webmanifest").content)
        assert manifest["lang"] == lang and "friends" not in manifest["description"]
