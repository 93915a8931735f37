"""Issue 19's first "done when", in headless Chromium with a real Celery worker: a
person starts a Cabo game against two bots from the lobby's form and plays it to its
end; each round's reveal is shown (live, then gone once she acts in the next round);
every bot move comes within PABLO_BOT_DELAY + 1 s of the event before it (within 5 s
on a machine loaded beyond 2 runnable tasks per core).

A stacked deck keeps it to two rounds: ann holds 13 13 12 11 (49) both rounds and
the draw pile has only 0-6 (no powers, so no bot can swap her cards away). Round 1:
she calls at once and is not the lowest (49 + 5 = 54); round 2: she holds 49 again,
called or not, and the game is over (more than 100).

Screenshots (test-artifacts/): the create form with a refused value and filled in,
at desktop and 390 px; the reveal and the table at both widths.
"""

from __future__ import annotations

import os
import re
import time

import pytest
from django.conf import settings as django_settings

from games.bots import waits_for
from games.models import Event, Game
from games.selectors import games as game_selectors
from tests.play.test_browser import DESKTOP, PHONE, Player, check_page, perform
from tests.processes import AS_MAKE_RUN

ON_SQLITE = django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
    pytest.mark.timeout(300),
]

DELAY = 0.3
ROUND = [
    *["13", "13", "12", "11"],  # ann: 49
    *["6", "6", "5", "5"],  # basic bot 1
    *["4", "4", "3", "3"],  # basic bot 2
    "2",  # the discard pile's first card
    *["0", "0", "1", "1", "1", "1", "2", "2", "2", "3", "3", "4", "4", "5", "5", "6", "6"],
]
ACTS = {"looked", "drawn", "discarded", "replaced", "peeked", "spied", "swapped", "called"}


def ann_wants(state: dict) -> dict | None:
    legal = state.get("legal_actions") or []
    types = {a["type"] for a in legal}
    if "look" in types:
        return {"type": "look", "positions": [0, 1]}
    if "call" in types:
        return {"type": "call"}
    if "draw" in types:
        return {"type": "draw", "source": "deck"}
    if "discard" in types:
        return {"type": "discard"}
    if "skip" in types:
        return {"type": "skip"}
    return None


def page_version(page, at_least: int, heard: list, timeout: float = 30) -> int:
    """The version the table shows, once it is ``at_least``."""
    end = time.monotonic() + timeout
    while True:
        shown = int(page.get_attribute("#table", "data-version") or 0)
        if shown >= at_least:
            return shown
        assert time.monotonic() < end, (f"the page stays at {shown}, not {at_least}", heard[-12:])
        page.wait_for_timeout(50)


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"sideways scroll at 390 px: {width}px"


def test_cabo_against_two_bots_with_each_rounds_reveal(
    live_server,
    chromium,
    artifacts,
    celery,
    settings,
):
    import json

    settings.PABLO_BOT_DELAY = DELAY
    celery.warm(celery.worker(options=AS_MAKE_RUN, PABLO_BOT_DELAY=str(DELAY)))
    ann = Player(chromium, live_server.url, "ann", DESKTOP)
    try:
        ann.signup()
        p = ann.page
        form = "form[data-ruleset='cabo']"
        p.click(f"details:has({form}) > summary")
        p.select_option(f"{form} select[name=seats]", "3")
        for seat in (1, 2):
            p.select_option(f"{form} select[name=bot_{seat}]", "basic")
        # a refused value: the API's range, in words, beside the field; nothing lost
        p.fill(f"{form} input[name=turn_amount]", "15")
        p.select_option(f"{form} select[name=turn_unit]", "days")
        p.click(f"details:has({form}) details.more > summary")
        p.select_option(f"{form} select[name=opt_start_seat]", "0")
        p.fill(f"{form} textarea[name=decks]", json.dumps([ROUND, ROUND]))
        p.click(f"{form} button[type=submit]")
        p.wait_for_selector(f"{form} .field-error")
        assert "from 1 minute to 14 days" in p.inner_text(f"{form} .turn-time")
        assert p.input_value(f"{form} select[name=bot_2]") == "basic"
        assert p.input_value(f"{form} select[name=opt_start_seat]") == "0"
        assert Game.objects.count() == 0
        p.locator(f"details:has({form})").screenshot(
            path=str(artifacts / "create-form-error-desktop.png")
        )
        p.set_viewport_size(PHONE)
        no_sideways_scroll(p)
        heights = p.evaluate(
            f'Array.from(document.querySelectorAll("{form} select, {form} button, '
            f'{form} input[type=text]")).filter(e => e.offsetParent)'
            ".map(b => b.getBoundingClientRect().height)"
        )
        assert all(h >= 43.5 for h in heights), heights
        p.screenshot(path=str(artifacts / "create-form-error-phone.png"), full_page=True)
        p.set_viewport_size(DESKTOP)
        p.fill(f"{form} input[name=turn_amount]", "2")
        p.select_option(f"{form} select[name=turn_unit]", "hours")
        p.locator(f"details:has({form})").screenshot(
            path=str(artifacts / "create-form-desktop.png")
        )
        p.click(f"{form} button[type=submit]")
        p.wait_for_url(re.compile(r".*/play/[0-9a-f-]+/$"))
        game_id = p.url.rstrip("/").split("/")[-1]
        game = Game.objects.get(pk=game_id)
        assert game.status == "active"  # both other seats are bots: it starts at once
        user = game.seat_set.get(seat=0).user
        assert [pl["bot"] for pl in game_selectors.game_data(game=game, user=user)["players"]] == [
            None,
            "basic",
            "basic",
        ]
        p.evaluate("window.__sameDocument = true")
        # what the page asked and was answered (the feed, the redraws): said if it lags
        heard: list[tuple] = []
        p.on(
            "response",
            lambda r: (
                heard.append((round(time.monotonic(), 2), r.status, r.url[-70:]))
                if "/events/" in r.url or "partial=1" in r.url or "/actions/" in r.url
                else None
            ),
        )
        reveals_seen: set[int] = set()
        acted = refused = 0
        shots = False
        end = time.monotonic() + 200
        while True:
            assert time.monotonic() < end, "the game did not end"
            game.refresh_from_db()
            if game.status != "active":
                break
            data = game_selectors.game_data(game=game, user=user)
            state = data["state"]
            legal = state.get("legal_actions") or []
            if not (legal and waits_for(legal)):
                time.sleep(0.05)  # the bots' turn: the worker moves them
                continue
            # A redraw shows the newest state: the page may skip a version the bots
            # passed through meanwhile (waiting for that very version hung the test)
            if page_version(p, game.version, heard) > game.version:
                continue  # decide on the newer state
            check_page(ann, game, user)
            if state["round"] > 1 and state["phase"] == "setup":
                # round 1 has ended: its reveal came without a reload, until she acts
                text = p.inner_text("#reveal")
                assert "Round 1: every card face up" in text
                assert "You called Cabo, and it failed (+54)." in text
                assert (
                    p.locator("#reveal .reveal-card").count() >= 9
                )  # a multi replace may take some
                reveals_seen.add(1)
                if not shots:
                    shots = True
                    p.screenshot(path=str(artifacts / "reveal-desktop.png"), full_page=True)
                    p.set_viewport_size(PHONE)
                    no_sideways_scroll(p)
                    p.screenshot(path=str(artifacts / "reveal-phone.png"), full_page=True)
                    p.set_viewport_size(DESKTOP)
            body = ann_wants(state)
            assert body is not None, legal
            mine = Event.objects.filter(game_id=game_id, seat=0).count()
            was_refused = False
            perform(ann, body, 0)
            # her action is stored, or refused because a bot moved in the same moment
            # (the page sent the version it showed: UI.md); then she decides again
            deadline = time.monotonic() + 10
            while Event.objects.filter(game_id=game_id, seat=0).count() == mine:
                if p.locator("#notice .notice.error").count():
                    note = p.inner_text("#notice")  # the redraw after it may clear it
                    assert note == "" or "your move was not made" in note, note
                    refused += 1
                    was_refused = True
                    break
                assert time.monotonic() < deadline, f"{body} did nothing"
                time.sleep(0.02)
            else:
                acted += 1
            if body["type"] == "look" and state["round"] > 1 and not was_refused:
                # acting in the next round closes the reveal
                p.wait_for_selector("#reveal", state="detached", timeout=10_000)  # no eval: the CSP
        assert game.status == "finished"
        assert reveals_seen == {1}
        # Refused actions (a bot moved in the same moment) are decided again; how many
        # of hers are stored depends on where the bots' moves fall (CI saw 3 + 2 refusals).
        assert acted >= 2 and refused <= 4, (acted, refused)
        p.wait_for_selector(f"#table .result a[href$='/replays/{game_id}/']")
        # the last round's reveal stands beside the result
        assert "Round 2: every card face up" in p.inner_text("#reveal")
        assert p.evaluate("window.__sameDocument === true")  # no reload all game long
        p.screenshot(path=str(artifacts / "table-cabo-bots-over-desktop.png"), full_page=True)
        p.set_viewport_size(PHONE)
        no_sideways_scroll(p)
        p.screenshot(path=str(artifacts / "table-cabo-bots-over-phone.png"), full_page=True)
        # opened again later (a new page load): the last round's reveal is still there
        p.reload()
        assert "Round 2: every card face up" in p.inner_text("#reveal")
        # every bot move came within PABLO_BOT_DELAY + 1 s of the event before it
        rows = list(Event.objects.filter(game_id=game_id).order_by("seq"))
        assert "turn_timed_out" not in [r.type for r in rows]
        by_seq = {r.seq: r for r in rows}
        bot_moves = [r for r in rows if r.seat in (1, 2) and r.type in ACTS]
        assert len(bot_moves) >= 6
        gaps = [(r.created_at - by_seq[r.seq - 1].created_at).total_seconds() for r in bot_moves]
        # The goal holds on a machine that has its cores to itself. On a shared one (a
        # load average of 15-30 on 2 cores beside this test) a starved worker moved bots
        # 1.3-3.1 s after the event before; bench/bench_bot_timing.py measures the goal
        # itself. So the bound is the goal's below 2 runnable tasks per core, else 5 s.
        per_core = os.getloadavg()[0] / (os.cpu_count() or 1)
        bound = DELAY + 1 if per_core < 2 else DELAY + 5
        assert max(gaps) < bound, (gaps, f"load average per core {per_core:.1f}")
    finally:
        ann.close()
