"""The account page's notification settings: per kind and channel, the timezone (the
browser's when none is set), the quiet hours (play/notify_settings.py)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from games.models import NotificationSettings
from games.services import accounts as account_services
from tests.fixtures import user

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")


def signed_in(name: str = "ann") -> tuple[Client, object]:
    u = user(name)
    c = Client()
    c.force_login(u)
    return c, u


def form(**changes: str) -> dict[str, str]:
    """Every switch on, no quiet hours, then ``changes``."""
    data = {
        f"{k}__{c}": "on"
        for k in ("your_turn", "reminder", "game_over", "rematch", "seat_taken")
        for c in ("push", "email", "webhook")
    }
    data |= {"timezone": "Europe/Paris", "quiet_start": "", "quiet_end": ""}
    data.update(changes)
    return {k: v for k, v in data.items() if v != "off"}


@pytest.mark.django_db
def test_the_account_page_shows_and_saves_the_settings():
    c, u = signed_in()
    page = c.get("/accounts/token/").content.decode()
    assert 'id="notifications"' in page and 'name="reminder__email"' in page
    assert 'action="/accounts/notifications/"' in page
    answer = c.post(
        "/accounts/notifications/",
        form(reminder__email="off", rematch__push="off", quiet_start="22:00", quiet_end="07:30"),
    )
    assert answer.status_code == 302 and answer["Location"] == "/accounts/token/#notifications"
    prefs = NotificationSettings.objects.get(user=u)
    assert prefs.kinds == {"reminder": {"email": False}, "rematch": {"push": False}}
    assert prefs.timezone == "Europe/Paris"
    assert prefs.quiet_hours == {"start": "22:00", "end": "07:30"}
    page = c.get("/accounts/token/").content.decode()
    assert 'value="22:00"' in page and 'value="Europe/Paris"' in page
    assert 'name="reminder__email" id="id_reminder__email">' in page  # unchecked
    assert 'name="reminder__push" id="id_reminder__push" checked>' in page
    # the same through the API
    api_client = APIClient()
    api_client.force_authenticate(u)
    api = api_client.get("/api/me/notifications/").json()
    assert api["kinds"]["reminder"]["email"] is False and api["quiet_hours"]["start"] == "22:00"
    # no quiet hours again
    c.post("/accounts/notifications/", form())
    prefs.refresh_from_db()
    assert prefs.quiet_hours is None and prefs.kinds == {}


@pytest.mark.django_db
def test_refusals_are_shown_and_change_nothing():
    c, u = signed_in()
    answer = c.post("/accounts/notifications/", form(timezone="Mars/Olympus"), follow=True)
    assert "This is not a timezone name we know." in answer.content.decode()
    answer = c.post("/accounts/notifications/", form(quiet_start="22:00"), follow=True)
    assert "Give both ends of the quiet hours, or neither." in answer.content.decode()
    assert not NotificationSettings.objects.filter(user=u).exists()
    assert Client().post("/accounts/notifications/", form()).status_code == 302  # to log in
    assert c.get("/accounts/notifications/").status_code == 405


@pytest.mark.django_db
def test_the_browsers_timezone_is_kept_only_when_none_is_set():
    c, u = signed_in()
    sent = {"timezone": "America/Montreal", "timezone_only": "1"}
    assert c.post("/accounts/notifications/", sent).status_code == 204
    assert NotificationSettings.objects.get(user=u).timezone == "America/Montreal"
    c.post("/accounts/notifications/", {"timezone": "Asia/Tokyo", "timezone_only": "1"})
    assert NotificationSettings.objects.get(user=u).timezone == "America/Montreal"
    c2, u2 = signed_in("bob")
    c2.post("/accounts/notifications/", {"timezone": "Nowhere/Land", "timezone_only": "1"})
    assert not NotificationSettings.objects.filter(user=u2).exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table")
def test_the_form_in_chromium_takes_the_browsers_timezone(chromium, live_server, artifacts):
    u, _ = account_services.user_register(username="tzann", password="table-secret-1")
    from playwright.sync_api import expect

    for width, height in ((1280, 900), (390, 844)):
        context = chromium.new_context(
            viewport={"width": width, "height": height}, timezone_id="Europe/Berlin"
        )
        page = context.new_page()
        said: list[str] = []
        page.on("console", lambda m, said=said: said.append(m.text))
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "tzann")
        page.fill("input[name=password]", "table-secret-1")
        page.click("main button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        page.goto(f"{live_server.url}/accounts/token/#notifications")
        expect(page.locator("[data-timezone]")).to_have_value("Europe/Berlin")
        page.wait_for_load_state("networkidle")
        if width == 1280:
            page.uncheck("#id_seat_taken__webhook")
            page.fill("#id_quiet_start", "23:00")
            page.fill("#id_quiet_end", "07:00")
            page.click(".notify-settings button[type=submit]")
            page.wait_for_url(f"{live_server.url}/accounts/token/#notifications")
        scroll = page.evaluate("document.documentElement.scrollWidth")
        page.locator("#notifications").screenshot(path=str(artifacts / f"notify-{width}.png"))
        context.close()
        assert scroll <= width, f"sideways scrolling at {width} px"
        assert [t for t in said if "Content Security Policy" in t or "Refused to" in t] == []
    # WCAG: no serious axe-core violation in the section, in English and in French
    from tests.play.test_a11y_browser import violations

    for lang in ("en", "fr"):
        context = chromium.new_context(
            viewport={"width": 390, "height": 844},
            bypass_csp=True,  # axe is injected as a script of the test's
            extra_http_headers={"Accept-Language": lang},
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "tzann")
        page.fill("input[name=password]", "table-secret-1")
        page.click("main button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        page.goto(f"{live_server.url}/accounts/token/")
        bad = violations(page)
        if lang == "fr":
            page.locator("#notifications").screenshot(path=str(artifacts / "notify-fr-390.png"))
        context.close()
        assert bad == [], (lang, bad)
    prefs = NotificationSettings.objects.get(user=u)
    assert prefs.timezone == "Europe/Berlin"
    assert prefs.quiet_hours == {"start": "23:00", "end": "07:00"}
    assert prefs.kinds == {"seat_taken": {"webhook": False}}
