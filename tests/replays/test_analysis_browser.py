"""Issue 20's done-when: a finished 4-player Cabo game among bots of mixed levels,
analysed from the viewer's button by a real Celery worker, in headless Chromium."""

from __future__ import annotations

import random
import re
import time

import pytest
from django.conf import settings as django_settings

from games.models import GameAnalysis
from games.turns.bots import play_stored_game
from tests.play.test_browser import DESKTOP, PHONE, Player

ON_SQLITE = django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL for the worker"),
    pytest.mark.timeout(600),
]


def test_a_cabo_game_analysed_from_the_viewer(live_server, chromium, artifacts, celery):
    game = play_stored_game(
        "cabo", ["basic", "expert", "random", "basic"], {}, rng=random.Random(5)
    )
    assert game.status == "finished"
    # A small budget: the machine is shared; the default's speed is measured in bench/.
    celery.worker(lanes=True, PABLO_ANALYSIS_ITERATIONS="24")
    ann = Player(chromium, live_server.url, "ann", DESKTOP)
    phone = None
    try:
        ann.signup()
        p = ann.page
        url = f"{live_server.url}/replays/{game.id}/"
        p.goto(url)
        p.click("form.analyse-form button[type=submit]")
        p.wait_for_url(re.compile(rf".*/replays/{game.id}/.*"))
        # The progress shows (reload to see it move): queued or running.
        assert p.locator(".analysis progress").count() == 1
        assert "Analysing" in p.inner_text(".analysis")
        p.screenshot(path=str(artifacts / "analysis-progress.png"), full_page=True)
        seen = set()
        end = time.monotonic() + 400
        while True:
            assert time.monotonic() < end, "the analysis did not finish"
            row = GameAnalysis.objects.get(game=game)
            seen.add(row.status)
            if row.status == "done":
                break
            assert row.status in ("queued", "running"), row.status
            time.sleep(1.0)
            p.reload()
        p.goto(url)
        summary = p.inner_text(".analysis-players")
        for name in ("simulator", "expert bot 1", "random bot 2", "basic bot 3"):
            assert name in summary
        assert p.locator(".analysis svg.analysis-chart polyline").count() == 4
        marks = p.locator(".analysis-marks a")
        assert marks.count() > 0  # the random bot blunders
        href = marks.first.get_attribute("href")
        p.goto(url + href)
        step = p.inner_text(".analysis-step")
        assert re.search(r"(Inaccuracy|Mistake|Blunder) · ", step), step
        assert re.search(r"(better than|slightly better)", step), step
        p.screenshot(path=str(artifacts / "analysis-desktop.png"), full_page=True)
        phone = Player(chromium, live_server.url, "ann", PHONE)
        phone.page.goto(url + href)
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.page.screenshot(path=str(artifacts / "analysis-phone.png"), full_page=True)
    finally:
        ann.close()
        if phone is not None:
            phone.close()
