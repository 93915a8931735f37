"""Issue 19's second "done when", in headless Chromium: three people play a private
Pablo game joined by its invite link (a fourth, without the link, cannot join) and
start a rematch from the finished table; the others find it offered on their
finished table and in their lobby.

The game is short and known: with "exactly 42 loses" ben holds 10 10 10 Q (42)
and loses when round 1 ends (ann calls after her first turn; nobody replaces).
"""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from games.models import Game
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from tests.play.test_browser import (
    DESKTOP,
    FRENCH_DRAWS,
    PASSWORD,
    PHONE,
    Player,
    check_page,
    play_to_the_end,
)

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
]

PLAN = {
    "seats": 3,
    "options": {"forty_two": True},
    "decks": [
        [
            *["AC", "2C", "3C", "4C"],  # ann
            *["10C", "10D", "10H", "QC"],  # ben: 42
            *["5S", "6S", "7C", "8C"],  # cara
            "KS",  # the discard pile's first card
            *FRENCH_DRAWS,
        ]
    ],
    "callers": {1: 0},
}


def test_a_private_game_by_invite_link_and_its_rematch(live_server, chromium, artifacts):
    for name in ("ben", "cara", "dan"):
        account_services.user_register(username=name, password=PASSWORD)
    ann = Player(chromium, live_server.url, "ann", DESKTOP)
    ben = Player(chromium, live_server.url, "ben", PHONE)
    cara = Player(chromium, live_server.url, "cara", DESKTOP)
    dan = Player(chromium, live_server.url, "dan", DESKTOP)
    players = [ann, ben, cara]
    try:
        ann.signup()
        p = ann.page
        form = "form[data-ruleset='pablo']"
        p.select_option(f"{form} select[name=seats]", "3")
        p.check(f"{form} input[name=opt_forty_two]")
        p.check(f"{form} input[name=private]")
        p.fill(f"{form} input[name=turn_amount]", "2")
        p.select_option(f"{form} select[name=turn_unit]", "hours")
        p.click(f"details:has({form}) details.more > summary")
        p.select_option(f"{form} select[name=opt_start_seat]", "0")
        p.fill(f"{form} textarea[name=decks]", json.dumps(PLAN["decks"]))
        p.click(f"{form} button[type=submit]")
        p.wait_for_load_state()
        assert p.locator(f"{form} .field-error").count() == 0, p.inner_text(f"{form}")
        p.wait_for_url(re.compile(r".*/play/[0-9a-f-]+/$"))
        game_id = p.url.rstrip("/").split("/")[-1]
        assert Game.objects.get(pk=game_id).private
        # the table shows its player the invite link
        link = p.input_value("#invite-link")
        assert re.fullmatch(rf"{re.escape(live_server.url)}/play/{game_id}/\?invite=[\w-]+", link)
        p.screenshot(path=str(artifacts / "table-private-invite-desktop.png"), full_page=True)
        # "Copy the link" (shown with JavaScript): the link in the clipboard, said politely
        ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
        p.click("#table button[data-copy]")
        p.wait_for_function("document.getElementById('invite-copied').textContent !== ''")
        assert p.evaluate("navigator.clipboard.readText()") == link
        assert "copied" in p.inner_text("#invite-copied")
        p.set_viewport_size(PHONE)
        shot = artifacts / "table-private-invite-copied-phone.png"
        p.locator(".invite").screenshot(path=str(shot))
        p.set_viewport_size(DESKTOP)

        # dan, without the link: not in his lobby, no Join on the table, a forged join is
        # the answer of an unknown game
        dan.login()
        assert dan.page.locator(f"[data-join='{game_id}']").count() == 0
        dan.page.goto(f"{live_server.url}/play/{game_id}/")
        assert dan.page.locator("#table button:has-text('Join')").count() == 0
        status = dan.page.evaluate(
            """async (id) => {
                const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
                const r = await fetch(`/api/games/${id}/join/`, {method: "POST",
                    headers: {"Content-Type": "application/json", "X-CSRFToken": token},
                    body: "{}"});
                return r.status;
            }""",
            game_id,
        )
        assert status == 404
        wrong = dan.page.evaluate(
            """async (id) => {
                const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
                const r = await fetch(`/api/games/${id}/join/`, {method: "POST",
                    headers: {"Content-Type": "application/json", "X-CSRFToken": token},
                    body: JSON.stringify({invite: "not-the-token"})});
                return r.status;
            }""",
            game_id,
        )
        assert wrong == 404

        # ben and cara open the invite link signed in and join
        for pl in (ben, cara):
            pl.login()
            pl.page.goto(link)
            button = pl.page.locator("#table button:has-text('Join this game')")
            assert button.count() == 1
            if pl is ben:
                pl.page.screenshot(
                    path=str(artifacts / "table-private-join-phone.png"), full_page=True
                )
            button.click()
            # selectors, not a script to evaluate: the page's CSP forbids eval
            pl.page.wait_for_selector("#table", timeout=10_000)
            pl.page.wait_for_selector(
                "#table button[data-action*=join]", state="detached", timeout=10_000
            )
        game = Game.objects.get(pk=game_id)
        assert game.status == "active"
        users = [get_user_model().objects.get(username=n) for n in ("ann", "ben", "cara")]
        for pl in players:
            pl.page.goto(f"{live_server.url}/play/{game_id}/")
        ann.page.evaluate("window.__sameDocument = true")
        game = play_to_the_end(players, users, game_id, PLAN, "pablo-private", artifacts)
        assert game.status == "finished"
        assert ann.page.evaluate("window.__sameDocument === true")
        for pl in players:
            pl.page.wait_for_selector(f"#table .result a[href$='/replays/{game_id}/']")
            check_page(pl, game, users[players.index(pl)])

        # ann starts the rematch from her finished table
        ann.page.click("#table button:has-text('Rematch')")
        ann.page.wait_for_url(lambda url: game_id not in url and "/play/" in url)
        new_id = ann.page.url.rstrip("/").split("/")[-1]
        assert new_id != game_id
        new = Game.objects.get(pk=new_id)
        assert new.private and new.status == "waiting"
        assert (new.ruleset, new.seats, new.turn_timeout) == ("pablo", 3, 7200)
        assert new.options.get("forty_two") is True
        # ben's finished table says so without a reload, and takes him there
        ben.page.wait_for_selector("#table .rematch-offered", timeout=10_000)
        assert "Rematch offered" in ben.page.inner_text("#table .result")
        ben.page.screenshot(path=str(artifacts / "table-rematch-offered-phone.png"), full_page=True)
        ben.page.click("#table button:has-text('Rematch')")
        ben.page.wait_for_url(f"**/play/{new_id}/")
        # cara finds it in her lobby
        cara.page.goto(f"{live_server.url}/")
        offered = cara.page.locator(".rematches button:has-text('Rematch')")
        assert offered.count() == 1
        cara.page.screenshot(
            path=str(artifacts / "lobby-rematch-offered-desktop.png"), full_page=True
        )
        offered.click()
        cara.page.wait_for_url(f"**/play/{new_id}/")
        new.refresh_from_db()
        assert new.status == "active"  # the third seat taken: it starts
        seated = {
            p["username"] for p in game_selectors.game_data(game=new, user=users[0])["players"]
        }
        assert seated == {"ann", "ben", "cara"}
        # dan still sees neither game among his open games
        dan.page.goto(f"{live_server.url}/")
        assert new_id not in dan.page.content()
    finally:
        for pl in (*players, dan):
            pl.close()
