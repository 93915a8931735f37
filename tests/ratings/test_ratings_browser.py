"""A person sees their rating change on the finished table, their page, the
leaderboard and the lobby, in headless Chromium at desktop and 390 px."""

from __future__ import annotations

import pytest
from django.conf import settings

from games.ratings.models import RatingChange
from games.services import games as game_services
from tests.factories import UserFactory
from tests.play.test_browser import DESKTOP, PASSWORD, PHONE, Player
from tests.replays.test_charts_browser import TEXTS

from .conftest import follow, play

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
]


def no_sideways_scroll(player: Player) -> None:
    width = player.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"sideways scroll on the phone: {width}px"


def test_a_person_sees_their_ratings(live_server, chromium, artifacts, settings):
    """At desktop size, then 390 px wide: the same games (played once) on each page."""
    settings.PABLO_LEADERBOARD_MIN_GAMES = 2
    ann, bob, cid = (UserFactory(username=n, password=PASSWORD) for n in ("ann", "bob", "cid"))
    for seed in range(4):
        last = play([ann, bob, cid][: 2 + seed % 2], seed=seed)
    follow()
    # an open game of cid's: the lobby shows cid's rating in that ruleset
    game_services.game_create(user=cid, ruleset="skipbo", seats=3)
    change = RatingChange.objects.get(game_id=last, user=ann)
    signed = f"{change.after - change.before:+d}"
    cid_rating = cid.ratings.get(ruleset="skipbo").rating
    for viewport in (DESKTOP, PHONE):
        who = Player(chromium, live_server.url, "ann", viewport)
        try:
            who.login()
            sees_their_ratings(who, live_server.url, artifacts, last, change, signed, cid_rating)
        finally:
            who.context.close()


def sees_their_ratings(who, url, artifacts, last, change, signed, cid_rating) -> None:
    size = "phone" if who.phone else "desktop"
    page = who.page
    page.goto(f"{url}/play/{last}/")
    assert signed in page.locator(".standings").inner_text()
    page.screenshot(path=artifacts / f"ratings-table-{size}.png", full_page=True)
    page.goto(f"{url}/players/ann/")
    assert page.locator("svg.chart").count() == 1
    assert str(change.after) in page.locator("h2#h-skipbo").inner_text()
    assert page.locator(f'a[href="/replays/{last}/"]').count() >= 1
    page.screenshot(path=artifacts / f"ratings-player-{size}.png", full_page=True)
    if who.phone:
        no_sideways_scroll(who)
        # the chart's words are read, not guessed at (about 9 px at 390 px)
        texts = page.evaluate(TEXTS, "svg.chart")
        assert texts and all(t["inside"] and t["px"] >= 10 for t in texts), texts
    page.goto(f"{url}/ratings/?ruleset=skipbo")
    board = page.locator("table.leaderboard").inner_text()
    assert "ann" in board and str(change.after) in board
    page.screenshot(path=artifacts / f"ratings-board-{size}.png", full_page=True)
    if who.phone:
        no_sideways_scroll(who)
    page.goto(f"{url}/history/")
    assert signed in page.locator(".history-list").inner_text()
    page.goto(f"{url}/")
    assert f"cid ({cid_rating})" in page.locator(".game-list.open").inner_text()
    page.screenshot(path=artifacts / f"ratings-lobby-{size}.png", full_page=True)
    if who.phone:
        no_sideways_scroll(who)
