"""Issue 18: the Content-Security-Policy breaks nothing in a real Chromium.

The policy forbids inline script and style (``pablo/headers.py``). Chromium
reports every blocked script, style or connection on the console; here the
table (with its long-poll script), the replay viewer (with its chart) and the
API reference (plain HTML, no inline style: its ``style-src`` is ``'self'`` too)
load, work, and report no violation.
"""

from __future__ import annotations

import pytest
from django.conf import settings

from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import games as game_services
from tests.play.test_browser import PLANS, choose

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
]


def finished_game(users) -> None:
    """A short, known game of two rounds played to its end by the browser tests' oracle:
    the viewer's replay with its totals chart (``manage.py demo``'s five bot games cost
    far more, and the page is the same)."""
    plan = PLANS["pablo-50"]
    game = game_services.game_create(
        user=users[0], ruleset="pablo-50", seats=2, options={"start_seat": 0}, decks=plan["decks"]
    )
    game_services.game_join(game_id=game.id, user=users[1])
    for _ in range(200):
        current = game_selectors.game_get(game.id)
        if current.status != "active":
            return
        states = [game_selectors.game_data(game=current, user=u)["state"] for u in users]
        wishes = [(seat, choose(state, seat, plan)) for seat, state in enumerate(states)]
        wishes = [(seat, body) for seat, body in wishes if body is not None]
        seat, body = next(((s, b) for s, b in wishes if b["type"] == "call"), wishes[0])
        game_services.game_act(game_id=game.id, user=users[seat], command=body)
    raise AssertionError("the game did not end")


def test_no_csp_violation_on_the_table_the_viewer_and_the_api_docs(chromium, live_server):
    ann, _ = account_services.user_register(username="cspann", password="table-secret-1")
    bob, _ = account_services.user_register(username="cspbob", password="table-secret-1")
    finished_game([ann, bob])
    game = game_services.game_create(user=ann, ruleset="skipbo", seats=2, options={"start_seat": 0})
    game_services.game_join(game_id=game.id, user=bob)
    context = chromium.new_context()
    page = context.new_page()
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text))
    page.on("pageerror", lambda e: said.append(str(e)))
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "cspann")
    page.fill("input[name=password]", "table-secret-1")
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.wait_for_timeout(1500)  # the table's script starts its long poll
    page.goto(f"{live_server.url}/replays/")
    page.click("a[href^='/replays/'][href$='/']")
    page.wait_for_load_state("networkidle")
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector("article.reference h1", timeout=20_000)
    blocked = [t for t in said if "Content Security Policy" in t or "Refused to" in t]
    context.close()
    assert blocked == [], blocked
