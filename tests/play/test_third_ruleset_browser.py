"""A third kind of ruleset (tests/eights.py) played at the web table in Chromium, by clicking.

Crazy Eights names nothing outside the rules and its bots: the lobby offers it
(its options are the rules'), the table lays its hands on a board the pages
draw (``family``), offers its actions with the house's verbs and its own word
for one (``skip``: "Pass", ``Presentation.verbs``), and says its events in its
own words (``Ruleset.describe``). Ann (desktop) starts a game from the lobby
with a stacked deck, Ben (phone) joins from his, and both play it to the end by
clicking a card, then the verb. Screenshots: test-artifacts/table-eights-*.png.
"""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from games.models import Game
from games.rules.cards import french_deck
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from tests.play.test_browser import (
    DESKTOP,
    PASSWORD,
    PHONE,
    Player,
    check_page,
    create_game,
    join_from_lobby,
    perform,
    wait_version,
)

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
]

ANN = ["2H", "3H", "4H", "5H", "6H", "7H", "9H"]
BEN = ["10H", "JH", "QH", "KH", "2C", "3C", "4C"]
PLAN = {"seats": 2, "options": {}, "callers": {}}


def deck() -> list[str]:
    """Ann puts her hearts on the ace, Ben his until he must draw and pass: Ann wins."""
    rest = [c for c in french_deck() if c not in ANN + BEN + ["AH"]]
    return [*ANN, *BEN, "AH", *rest]


def choose(state: dict) -> dict | None:
    """The test's oracle: the first card that fits, else draw, else pass."""
    legal = state.get("legal_actions") or []
    throws = [a for a in legal if a["type"] == "throw"]
    return (throws or legal or [None])[0]


def test_crazy_eights_by_clicking(live_server, chromium, artifacts, eights):
    for name in ("ann", "ben"):
        account_services.user_register(username=name, password=PASSWORD)
    ann = Player(chromium, live_server.url, "ann", DESKTOP)
    ben = Player(chromium, live_server.url, "ben", PHONE)
    players = [ann, ben]
    try:
        for p in players:
            p.login()
        game_id = create_game(ann, eights, {**PLAN, "decks": [deck()]})
        join_from_lobby(ben, game_id)
        users = [get_user_model().objects.get(username=name) for name in ("ann", "ben")]
        game = Game.objects.get(pk=game_id)
        words = set()
        passed = False
        for n in range(60):
            game.refresh_from_db()
            wait_version(players, game.version)
            for pl, user in zip(players, users, strict=True):
                check_page(pl, game, user)
            if game.status != "active":
                break
            seat = next(
                s
                for s, u in enumerate(users)
                if game_selectors.game_data(game=game, user=u)["state"]["legal_actions"]
            )
            state = game_selectors.game_data(game=game, user=users[seat])["state"]
            body = choose(state)
            assert body is not None
            page = players[seat].page
            words.add(page.inner_text("#table"))
            if body["type"] == "skip":
                # the ruleset's own word for the house's verb
                assert page.locator("#table button:has-text('Pass')").count() == 1
                passed = True
            if n == 2:
                for pl, name in ((ann, "desktop"), (ben, "phone")):
                    pl.page.screenshot(
                        path=str(artifacts / f"table-eights-{name}.png"), full_page=True
                    )
            before = game.version
            perform(players[seat], body, seat)
            deadline = time.monotonic() + 15
            while Game.objects.get(pk=game_id).version == before:
                assert time.monotonic() < deadline, f"{body} from seat {seat} did nothing"
                time.sleep(0.05)
        game.refresh_from_db()
        assert game.status == "finished", game.status
        assert passed, "the game was meant to need a pass"
        wait_version(players, game.version)
        ann.page.screenshot(path=str(artifacts / "table-eights-end-desktop.png"), full_page=True)
        text = ann.page.inner_text("#table")
        # its events in its own words (no fallback spelling an event type)
        assert "put" in " ".join(words) and "card_put" not in " ".join(words)
        assert "ann" in text
    finally:
        for p in players:
            p.close()
