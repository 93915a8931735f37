"""The installable app in a real Chromium (the system one: tests/browser.py).

Through the DevTools protocol: Chromium's own installability check of the
lobby (``Page.getInstallabilityErrors`` empty); a push delivered to the service
worker (``ServiceWorker.deliverPushMessage``) shows one notification for the
game, and its click takes the window to the game's table. Offline, a table is
never shown from a cache: the offline page is, and no cache holds a table, a
feed, an API answer or a replay. "Notify me on this device" subscribes through
the API with the session; on an iPhone the table says once that push needs the
Home Screen.
"""

from __future__ import annotations

import json
import time

import pytest
from django.conf import settings

from games.models import PushSubscription
from games.notifications import push
from games.services import accounts as account_services
from games.services import games as game_services
from tests.browser import CHROMIUM, CHROMIUM_ARGS
from tests.poll import wait_for
from tests.pushservice import PushService

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
]
PASSWORD = "table-secret-1"
PAIR = push.make_keys()
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)


@pytest.fixture
def vapid(settings):
    settings.PABLO_VAPID_PRIVATE_KEY = PAIR["private_key"]
    settings.PABLO_VAPID_PUBLIC_KEY = PAIR["public_key"]
    settings.PABLO_PUSH_ALLOW_PRIVATE = True


@pytest.fixture
def game(db):
    ann, _ = account_services.user_register(username="pwaann", password=PASSWORD)
    bob, _ = account_services.user_register(username="pwabob", password=PASSWORD)
    created = game_services.game_create(
        user=ann, ruleset="skipbo", seats=2, options={"start_seat": 0}
    )
    game_services.game_join(game_id=created.id, user=bob)
    return created


def log_in(page, url: str, name: str = "pwaann") -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{url}/")


def controlled(page) -> None:
    """Wait until the service worker controls the page (it claims it on activation)."""
    # (polled from here: wait_for_function's string would be an eval the CSP refuses)

    # An install that failed (a static file timed out on a loaded machine) is tried
    # again by the next page load, as a person's next visit would.
    loaded = [time.monotonic()]

    def claimed():
        page.wait_for_timeout(50)
        if page.evaluate("navigator.serviceWorker.controller !== null"):
            return True
        if time.monotonic() - loaded[0] > 20:
            page.reload()
            loaded[0] = time.monotonic()
        return False

    wait_for(claimed, 60, what="the service worker's control of the page")


@pytest.fixture
def profile(chromium, tmp_path):
    """A browser with a profile on disk: Chromium installs nothing from an incognito
    context (Playwright's ``new_context``), so its installability check needs one."""
    context = chromium.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        viewport={"width": 1280, "height": 900},
    )
    yield context
    context.close()


def test_the_lobby_passes_chromiums_installability_check(profile, live_server, vapid, game):
    context = profile
    page = context.pages[0] if context.pages else context.new_page()
    log_in(page, live_server.url)
    controlled(page)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    found = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert found == [], found


def test_offline_a_table_is_never_shown_from_a_cache(chromium, live_server, vapid, game):
    context = chromium.new_context()
    page = context.new_page()
    log_in(page, live_server.url)
    controlled(page)
    table = f"{live_server.url}/play/{game.id}/"
    page.goto(table)
    controlled(page)
    page.wait_for_selector("#table")
    page.goto(f"{live_server.url}/replays/")
    page.goto(table)  # twice, and the API and the feed were fetched by the table's script
    page.wait_for_timeout(500)
    kept = page.evaluate(
        """async () => {
            const urls = [];
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
            }
            return urls;
        }"""
    )
    assert "/offline/" in kept and any(u.startswith("/static/") for u in kept), kept
    assert all(u.startswith("/static/") or u == "/offline/" for u in kept), kept
    context.set_offline(True)
    page.goto(table)
    page.wait_for_selector("body.offline", timeout=10_000)
    html = page.content()
    assert 'id="table"' not in html and "pwabob" not in html and "pwaann" not in html
    answer = page.evaluate(
        f"fetch('/api/games/{game.id}/').then(r => 'answered ' + r.status, e => 'failed')"
    )
    context.close()
    assert answer == "failed"  # the API too: from the network or not at all


def test_a_push_shows_one_notification_per_game_and_its_click_opens_the_table(
    chromium, live_server, vapid, game, settings
):
    settings.PABLO_SITE_URL = live_server.url
    context = chromium.new_context()
    context.grant_permissions(["notifications"], origin=live_server.url)
    page = context.new_page()
    log_in(page, live_server.url)
    controlled(page)
    cdp = context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")

    def registration():
        page.wait_for_timeout(50)  # lets Playwright hand over the protocol's events
        found = [r for r in registrations if not r["isDeleted"]]
        return found[0]["registrationId"] if found else None

    registration_id = wait_for(registration, 60, what="the worker's registration")
    body = {"event": "your_turn", "game_id": str(game.id), "ruleset": "skipbo"}
    for payload in (push.message({**body, "event": "turn_reminder"}), push.message(body)):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": live_server.url,
                "registrationId": registration_id,
                "data": json.dumps(payload),
            },
        )
    shown_js = """navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns =>
        ns.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url})))"""

    def latest():
        page.wait_for_timeout(50)
        shown = page.evaluate(shown_js)
        return shown if shown and shown[0]["title"] == payload["title"] else None

    shown = wait_for(latest, 60, what="the notification")
    assert shown == [  # one per game: the newer replaced the reminder
        {
            "title": payload["title"],
            "body": payload["body"],
            "tag": str(game.id),
            "url": f"{live_server.url}/play/{game.id}/",
        }
    ]
    # The click (the worker's own handler, run in the worker): the window goes to the table.
    worker = context.service_workers[0]
    went = worker.evaluate(
        "self.registration.getNotifications().then(ns => openTable(ns[0])).then(c => c && c.url)"
    )
    page.wait_for_url(f"{live_server.url}/play/{game.id}/", timeout=20_000)
    page.wait_for_selector("#table")
    context.close()
    assert went == f"{live_server.url}/play/{game.id}/"


def test_notify_me_subscribes_this_device_with_the_session(
    chromium, live_server, vapid, game, artifacts
):
    service = PushService()
    device = service.device()
    context = chromium.new_context()
    context.grant_permissions(["notifications"], origin=live_server.url)
    # Headless Chromium has no push service of its own: the browser's subscribe() answers
    # with a stand-in subscription (its keys real, its endpoint the loopback stand-in).
    context.add_init_script(
        """(() => {
            const body = BODY;
            const fake = {endpoint: body.endpoint, toJSON: () => body, unsubscribe: () => {
                localStorage.removeItem("fake-push"); return Promise.resolve(true); }};
            PushManager.prototype.subscribe = function (options) {
                window.__pushKey = options.applicationServerKey.length;
                localStorage.setItem("fake-push", "1");
                return Promise.resolve(fake);
            };
            PushManager.prototype.getSubscription = () =>
                Promise.resolve(localStorage.getItem("fake-push") ? fake : null);
        })();""".replace("BODY", json.dumps(device.body()))
    )
    page = context.new_page()
    log_in(page, live_server.url)
    button = page.get_by_role("button", name="Notify me on this device")
    button.wait_for(timeout=20_000)
    page.screenshot(path=str(artifacts / "pwa-lobby-notify.png"))
    button.click()
    page.wait_for_selector("[data-push-state=on]:not([hidden])", timeout=20_000)
    assert page.evaluate("window.__pushKey") == 65  # the server's P-256 key, decoded
    rows = list(PushSubscription.objects.values_list("user__username", "endpoint"))
    assert rows == [("pwaann", device.endpoint)]
    # The table offers it too, and says it is on.
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.wait_for_selector("[data-push-state=on]:not([hidden])", timeout=20_000)
    # The account page names this device, and its Remove also ends the browser's subscription.
    page.goto(f"{live_server.url}/accounts/token/")
    page.wait_for_selector(".this-device:not([hidden])", timeout=20_000)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "pwa-devices-390.png"), full_page=True)
    page.get_by_role("button", name="Remove").click()
    page.wait_for_selector("text=No device yet")
    gone = page.evaluate("localStorage.getItem('fake-push')")
    context.close()
    service.close()
    assert not PushSubscription.objects.exists() and gone is None


def test_on_an_iphone_the_table_says_once_that_push_needs_the_home_screen(
    chromium, live_server, vapid, game, artifacts
):
    context = chromium.new_context(
        user_agent=IPHONE, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/play/{game.id}/")
    hint = page.locator("#ios-hint")
    hint.wait_for(state="visible", timeout=20_000)
    assert "Home Screen" in hint.inner_text()
    assert page.locator("#push-control").is_hidden()  # it cannot subscribe there
    page.screenshot(path=str(artifacts / "pwa-ios-hint-390.png"), full_page=True)
    page.get_by_role("button", name="Got it").click()
    assert hint.is_hidden()
    page.reload()
    page.wait_for_selector("#table")
    page.wait_for_timeout(500)
    assert hint.is_hidden()  # once: remembered on this device
    context.close()


def test_no_serious_axe_violation_on_the_devices_page_and_the_control(
    chromium, live_server, vapid, game
):
    from tests.play.test_a11y_browser import violations

    PushSubscription.objects.create(
        user=game.created_by,
        endpoint="https://fcm.googleapis.com/fcm/send/abc",
        p256dh="x",
        auth="y",
    )
    found = {}
    for width in (1280, 390):
        context = chromium.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
        page = context.new_page()
        log_in(page, live_server.url)
        page.get_by_role("button", name="Notify me on this device").wait_for(timeout=20_000)
        found[("lobby", width)] = violations(page)
        page.goto(f"{live_server.url}/accounts/token/")
        found[("devices", width)] = violations(page)
        context.close()
    assert all(v == [] for v in found.values()), found
