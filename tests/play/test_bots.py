"""Skip-Bo against three bots, started from the lobby and played in the browser,
with a real Celery worker moving the bots (issue #11's "done when", at the table).

A stacked deck keeps it short: every bot's hand and stock are high cards (no 1,
no Skip-Bo card), so each bot can only end its turn with a discard; the person
(seat 0, last to move) has 1-5 on her stock and empties it in one turn.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from django.conf import settings as django_settings

from games.bots import waits_for
from games.models import Event, Game
from games.selectors import games as game_selectors
from tests.play.test_browser import PHONE, Player, check_page, choose, perform
from tests.processes import AS_MAKE_RUN

ON_SQLITE = django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
    pytest.mark.timeout(240),
]

DELAY = 0.3
DECK = [
    *["1", "2", "3", "4", "5"],  # ann's stock, top first
    *["12"] * 5,  # the bots' stocks
    *["11"] * 5,
    *["10"] * 5,
    *["2", "3", "4", "5", "6"],  # the bots' hands (drawn at their turns' starts)
    *["7", "8", "9", "2", "3"],
    *["4", "5", "6", "7", "8"],
    *["9", "9", "9", "9", "9"],  # ann's hand
]


def test_skipbo_against_three_bots_from_the_lobby(
    live_server,
    chromium,
    artifacts,
    celery,
    settings,
):
    settings.PABLO_BOT_DELAY = DELAY  # the countdown is set where the move is committed
    celery.warm(celery.worker(options=AS_MAKE_RUN, PABLO_BOT_DELAY=str(DELAY)))
    ann = Player(chromium, live_server.url, "ann", PHONE)  # the create form on a phone too
    try:
        ann.signup()
        p = ann.page
        form = "form[data-ruleset='skipbo']"
        p.click(f"details:has({form}) > summary")
        p.select_option(f"{form} select[name=seats]", "4")
        for seat in (1, 2, 3):  # who plays each seat: a basic bot
            p.select_option(f"{form} select[name=bot_{seat}]", "basic")
        # the seats beyond the chosen number of players are not offered
        assert not p.locator(f"{form} select[name=bot_4]").is_visible()
        p.fill(f"{form} input[name=opt_stock_size]", "5")
        p.click(f"details:has({form}) details.more > summary")
        p.select_option(f"{form} select[name=opt_start_seat]", "1")
        p.fill(f"{form} textarea[name=decks]", json.dumps([DECK]))
        p.screenshot(path=str(artifacts / "lobby-bots-phone.png"), full_page=True)
        assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        heights = p.evaluate(
            f'Array.from(document.querySelectorAll("{form} select, {form} button"))'
            ".filter(b => b.offsetParent)"  # the seats beyond the players are hidden
            ".map(b => b.getBoundingClientRect().height)"
        )
        assert all(h >= 43.5 for h in heights), heights
        p.click(f"{form} button[type=submit]")
        p.wait_for_url(re.compile(r".*/play/[0-9a-f-]+/$"))
        game_id = p.url.rstrip("/").split("/")[-1]
        game = Game.objects.get(pk=game_id)
        assert game.status == "active"  # every other seat is a bot: it starts at once
        data = game_selectors.game_data(game=game, user=game.seat_set.get(seat=0).user)
        assert [pl["bot"] for pl in data["players"]] == [None, "basic", "basic", "basic"]
        p.evaluate("window.__sameDocument = true")
        user = game.seat_set.get(seat=0).user
        end = time.monotonic() + 120
        while True:
            assert time.monotonic() < end, "the game did not end"
            game.refresh_from_db()
            if game.status != "active":
                break
            state = game_selectors.game_data(game=game, user=user)["state"]
            legal = state.get("legal_actions") or []
            if not (legal and waits_for(legal)):
                time.sleep(0.05)  # the bots' turn: the worker moves them
                continue
            # ann's turn: her page shows the bots' moves without a reload
            p.wait_for_selector(f'#table[data-version="{game.version}"]', timeout=30_000)
            check_page(ann, game, user)
            body = choose(state, 0, {"callers": {}})
            assert body is not None
            perform(ann, body, 0)
            before = game.version
            deadline = time.monotonic() + 10
            while Game.objects.get(pk=game_id).version == before:
                assert time.monotonic() < deadline, f"{body} did nothing"
                time.sleep(0.02)
        assert game.status == "finished"
        p.wait_for_selector(f"#table .result a[href$='/replays/{game_id}/']")
        assert p.evaluate("window.__sameDocument === true")
        p.screenshot(path=str(artifacts / "table-skipbo-bots-over-phone.png"), full_page=True)
        rows = list(Event.objects.filter(game_id=game_id).order_by("seq"))
        assert "turn_timed_out" not in [r.type for r in rows]
        bot_moves = [r for r in rows if r.seat in (1, 2, 3) and r.type == "card_discarded"]
        assert {r.seat for r in bot_moves} == {1, 2, 3}
        by_seq = {r.seq: r for r in rows}
        for row in bot_moves:  # each bot moved DELAY after the event before it, promptly
            gap = (row.created_at - by_seq[row.seq - 1].created_at).total_seconds()
            assert DELAY * 0.9 <= gap < 3.0, (row.seq, row.seat, gap)
        final = game_selectors.game_data(game=game, user=user)["state"]["result"]
        assert final["winners"] == [0]
    finally:
        ann.close()
