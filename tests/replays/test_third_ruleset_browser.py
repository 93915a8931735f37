"""The viewer draws a third kind of ruleset (tests/eights.py) in Chromium by its protocol alone.

Crazy Eights names nothing outside the rules and its bots: its board is one the
pages draw (``family``: a row of cards per seat), its cards are French ones and
its events say themselves (``Ruleset.describe``). A game of it, stored, opens in
the viewer: the deal, each step, the end, and a seat's own eyes that show no
card of the other hand. Screenshots: test-artifacts/viewer-eights-*.png.
"""

from __future__ import annotations

import pytest
from django.conf import settings

from games.selectors.games import game_events
from replays.steps import build_replay, table_views
from tests.replays.test_views import _hidden

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
]


def at_step(page, n: int) -> None:
    page.wait_for_selector(f'#replay[data-step="{n}"]', timeout=10_000)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_crazy_eights_game_in_the_viewer(live_server, chromium, stored, artifacts, eights, width):
    game, _ = stored(eights, 2, seed=7, names=["ann", "ben"])
    replay = build_replay(str(game.id), game.version, game_events(game))
    name = "desktop" if width > 600 else "phone"
    context = chromium.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/replays/{game.id}/")
        at_step(page, 0)
        assert "ann and ben sit down; the hands are dealt." in page.inner_text(".now")
        # every card face up: both hands of seven, the pile's top
        assert page.locator("#replay .seat").count() == 2
        assert page.locator("#replay .seat .card.face").count() == 14
        page.keyboard.press("ArrowRight")
        at_step(page, 1)
        said = page.inner_text(".now")
        assert "ann put" in said or "ann drew" in said, said
        assert "_" not in said  # its own words, no fallback spelling the event type
        page.screenshot(path=str(artifacts / f"viewer-eights-{name}.png"), full_page=True)
        page.keyboard.press("End")
        at_step(page, replay.last)
        assert "Game over" in page.inner_text(".now")

        # ben's eyes at step 3: ann's hand face down, none of its codes in the page
        page.goto(f"{live_server.url}/replays/{game.id}/?step=3&as=1")
        at_step(page, 3)
        god, _, _ = table_views(replay, replay.steps[3], None)
        mine, _, _ = table_views(replay, replay.steps[3], 1)
        hidden = _hidden(god, mine, 1)
        assert hidden, "the test needs face-down cards"
        html = page.content()
        for code in hidden:
            assert f'data-code="{code}"' not in html
        page.screenshot(path=str(artifacts / f"viewer-eights-ben-{name}.png"), full_page=True)
    finally:
        context.close()
