"""A click is never dropped (UI.md, the table's script), in headless Chromium.

Each race is made to happen every time: Playwright's ``page.route`` holds the answer
of a redraw or of an action while the test clicks again or moves another player
through the services, then lets it go. A click that meets a table in flight is
applied on the redrawn table when the same choice is still there (a card picked, an
overtaken action sent again at the new version), or the player is told in words.
"""

from __future__ import annotations

import re
import time

import pytest
from django.conf import settings

from games.models import Event
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import games as game_services
from tests.play.test_browser import DESKTOP, PASSWORD, Player

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
]

# ann 0 1 2 3, ben 12 12 13 13, the discard pile's 5; ann draws a 7 (Cabo: peek)
DECK = ["0", "1", "2", "3", "12", "12", "13", "13", "5", "7", *["4", "6", "8", "9", "10", "11"] * 2]


def people(*names):
    return [account_services.user_register(username=n, password=PASSWORD)[0] for n in names]


def two_player(ann, ben, ruleset="cabo"):
    game = game_services.game_create(
        user=ann, ruleset=ruleset, seats=2, options={"start_seat": 0}, decks=[DECK]
    )
    game_services.game_join(game_id=game.id, user=ben)
    return game


def look(game, *users):
    for user in users:
        game_services.game_act(
            game_id=game.id, user=user, command={"type": "look", "positions": [0, 1]}
        )


class Held:
    """The requests whose URL matches ``pattern``, held until ``release``."""

    def __init__(self, page, pattern: str):
        self.page = page
        self.pattern = re.compile(pattern)
        self.routes: list = []
        page.route(self.pattern, lambda route: self.routes.append(route))

    def wait(self) -> None:
        end = time.monotonic() + 10
        while not self.routes:
            assert time.monotonic() < end, f"no request matched {self.pattern.pattern}"
            self.page.wait_for_timeout(20)  # (lets Playwright deliver the route)

    def release(self) -> None:
        for route in self.routes:
            route.continue_()
        self.page.unroute(self.pattern)


def signed_in(chromium, live_server, name):
    player = Player(chromium, live_server.url, name, DESKTOP)
    player.login()
    return player


def test_a_second_card_clicked_while_the_first_is_drawn_is_picked_too(live_server, chromium):
    """Two quick clicks on two cards: the second met the table the first was redrawing,
    whose link still picked that card alone; its own redraw won, and the first pick was
    lost. Now the second waits for the first and is picked on the table it drew."""
    ann, ben = people("ann", "ben")
    game = two_player(ann, ben)
    player = signed_in(chromium, live_server, "ann")
    try:
        p = player.page
        p.goto(f"{live_server.url}/play/{game.id}/")
        p.locator("#table a.pick[data-ref='f0.1']").wait_for()
        held = Held(p, r"partial=1&sel=f0\.0$")
        p.click("#table a.pick[data-ref='f0.0']")
        held.wait()
        p.click("#table a.pick[data-ref='f0.1']")
        p.wait_for_timeout(300)  # (the second click's own redraw, before the fix, lands here)
        held.release()
        p.wait_for_selector('#table[data-sel="f0.0,f0.1"]', timeout=5_000)
        p.locator("#table button[data-action]", has_text="Look at your slots 0 and 1").click()
        p.wait_for_selector('#table[data-sel=""]')
        assert Event.objects.filter(game_id=game.id, seat=0, type="looked").exists()
    finally:
        player.close()


def test_a_card_clicked_while_an_action_is_in_flight_is_picked_after_it(live_server, chromium):
    """Ann discards the 7 she drew and at once clicks her slot 0 (the 7's power: peek at
    it). The click met the buttons in flight and was dropped without a word; now it is
    picked on the table after the discard, where the peek offers that card."""
    ann, ben = people("ann", "ben")
    game = two_player(ann, ben)
    look(game, ann, ben)
    game_services.game_act(game_id=game.id, user=ann, command={"type": "draw", "source": "deck"})
    player = signed_in(chromium, live_server, "ann")
    try:
        p = player.page
        p.goto(f"{live_server.url}/play/{game.id}/")
        discard = p.locator('#table button[data-action=\'{"type":"discard"}\']')
        discard.wait_for()
        held = Held(p, r"/api/games/[^/]+/actions/$")
        discard.click()
        held.wait()
        p.click("#table a.pick[data-ref='f0.0']")
        held.release()
        p.wait_for_selector('#table[data-sel="f0.0"]', timeout=5_000)
        assert p.inner_text("#notice") == ""
        assert Event.objects.filter(game_id=game.id, seat=0, type="discarded").count() == 1
    finally:
        player.close()


def test_a_click_on_a_button_in_flight_reaches_the_script(live_server, chromium):
    """A button in flight used to be disabled: a person's click on it never reached the
    script (the browser swallows it) and nothing said so. Now it waits in line: here
    the other pile's button is gone after the draw, and the player is told."""
    ann, ben = people("ann", "ben")
    game = two_player(ann, ben)
    look(game, ann, ben)
    player = signed_in(chromium, live_server, "ann")
    try:
        p = player.page
        p.goto(f"{live_server.url}/play/{game.id}/")
        deck = p.locator("#table button[data-action*='\"deck\"']")
        other = p.locator('#table button[data-action*=\'"source":"discard"\']')
        deck.wait_for()
        held = Held(p, r"/api/games/[^/]+/actions/$")
        deck.click()
        held.wait()
        other.click(force=True)  # as a person does: no waiting for the button to be enabled
        held.release()
        p.locator("#notice .notice").wait_for(timeout=5_000)
        assert "Choose again" in p.inner_text("#notice")
        assert p.locator("#table .pile.held").count() == 1  # drawn once
    finally:
        player.close()


def test_an_overtaken_click_still_legal_is_sent_again(live_server, chromium):
    """Ben looks at his cards while ann's page has not seen it yet: her look is refused
    by the version check, but it is still hers to make with the same words. The table
    sends it again at the new version instead of telling her to do it again."""
    ann, ben = people("ann", "ben")
    game = two_player(ann, ben)
    player = signed_in(chromium, live_server, "ann")
    try:
        p = player.page
        p.route("**/events/**", lambda route: route.abort())  # no live redraw
        p.goto(f"{live_server.url}/play/{game.id}/?sel=f0.0,f0.1")
        look_button = p.locator("#table button[data-action]", has_text="Look at your slots 0 and 1")
        look_button.wait_for()
        look(game, ben)
        look_button.click()
        end = time.monotonic() + 10
        while not Event.objects.filter(game_id=game.id, seat=0, type="looked").exists():
            assert time.monotonic() < end, p.inner_text("#notice") or "ann's look was dropped"
            p.wait_for_timeout(50)
        p.wait_for_selector(f'#table[data-version="{game_selectors.game_get(game.id).version}"]')
        assert p.inner_text("#notice") == ""
    finally:
        player.close()
