"""Issue 29's "done when", in French: a player whose browser asks for French signs up,
starts a Tamalou game against a bot from the lobby, plays it (the first moves by
clicking, the rest driven by the test, the bot's moves by its own policy as a
worker would make them), asks for the game's analysis and reads it -- and no page
on the way shows an English word (a list of giveaway words, looked for in the
visible text and in what a screen reader says). Screenshots at 390 px.
"""

from __future__ import annotations

import random
import re
import time

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from games import rules
from games.bots import decide
from games.bots.play import bot_view
from games.models import Game, GameAnalysis
from games.selectors import games as game_selectors
from games.services import analysis as analysis_services
from games.services import bots as bot_services
from games.services import games as game_services
from tests.play.test_browser import PHONE, Player, choose, perform

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
]

#: English words that are no French words: one of them on a French page is a string
#: left untranslated. (Names -- Tamalou, Skip-Bo, the players' -- are no giveaways; nor
#: are words both languages have: "pile", "face", "score", "points", "bot".)
GIVEAWAYS = {
    "the", "and", "your", "you", "with", "from", "this", "that", "turn", "draw", "discard",
    "deck", "card", "cards", "round", "game", "games", "player", "players", "seat", "slot",
    "wins", "won", "lost", "called", "call", "sign", "log", "out", "new", "start", "join",
    "waiting", "history", "replays", "step", "back", "next", "previous", "first", "last",
    "moves", "mistake", "mistakes", "blunder", "blunders", "inaccuracy", "inaccuracies",
    "down", "empty", "hand", "power", "peek", "spy", "swap", "throw", "look", "reveal",
}  # fmt: skip

SAID = """() => {
  const spoken = Array.from(document.querySelectorAll('[aria-label],[title],[placeholder],[alt]'))
    .map(e => [e.getAttribute('aria-label'), e.getAttribute('title'),
               e.getAttribute('placeholder'), e.getAttribute('alt')].filter(Boolean).join(' '));
  return document.body.innerText + ' ' + spoken.join(' ') + ' ' + document.title;
}"""


def english_on(player: Player, where: str, names: set[str]) -> list[str]:
    text = player.page.evaluate(SAID)
    for name in names:  # a username is a name, in every language
        text = text.replace(name, " ")
    words = {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ]+", text)}
    return [f"{where}: {w}" for w in sorted(words & GIVEAWAYS)]


def bots_move(game_id) -> int:
    """Every bot that may act now makes its move (what the bots' worker does)."""
    game = game_selectors.game_get(game_id)
    state = game_selectors.game_state(game=game)
    bots = [seat for seat, user in seats_of(game).items() if " bot " in user.username]
    moved = 0
    for seat in bots:
        if seat in rules.get_ruleset(state.ruleset).actors(state):
            version = game_selectors.game_get(game_id).version
            moved += bot_services.game_bot_act(
                game_id=game_id, seat=seat, version=version, rng=random.Random(seat)
            )
    return moved


def seats_of(game: Game) -> dict[int, object]:
    return {s.seat: s.user for s in game.seat_set.select_related("user")}


def wait_for_version(player: Player, version: int) -> None:
    player.page.wait_for_selector(f'#table[data-version="{version}"]', timeout=15_000)


def test_a_french_player_signs_up_plays_tamalou_against_a_bot_and_reads_the_analysis(
    live_server, chromium, artifacts, settings
):
    settings.PABLO_ANALYSIS_ITERATIONS = 4
    zoe = Player(chromium, live_server.url, "zoé", PHONE)
    zoe.context.close()  # the same player, in a browser that asks for French
    zoe.context = chromium.new_context(viewport=PHONE, locale="fr-FR")
    zoe.page = zoe.context.new_page()
    p = zoe.page
    leaks: list[str] = []
    try:
        p.goto(f"{live_server.url}/")
        leaks += english_on(zoe, "welcome", set())
        p.click("a.btn[href$='/accounts/signup/']")
        leaks += english_on(zoe, "signup", set())
        p.fill("#id_username", "zoé")
        p.fill("#id_password1", "table-secret-1")
        p.fill("#id_password2", "table-secret-1")
        p.click("form.stack button[type=submit]")
        p.wait_for_url(f"{live_server.url}/")
        assert p.get_attribute("html", "lang") == "fr"
        leaks += english_on(zoe, "lobby", {"zoé"})
        p.screenshot(path=str(artifacts / "fr-lobby-phone.png"), full_page=True)

        # Tamalou, two seats, a basic bot in seat 1, from the lobby's form
        form = "form[data-ruleset='tamalou']"
        details = p.locator(f"details:has({form})")
        if details.get_attribute("open") is None:
            p.locator(f"details:has({form}) > summary").click()
        p.select_option(f"{form} select[name=seats]", "2")
        p.select_option(f"{form} select[name=bot_1]", "basic")
        leaks += english_on(zoe, "create form", {"zoé"})
        p.click(f"{form} button[type=submit]")
        p.wait_for_url(re.compile(r".*/play/[0-9a-f-]+/$"))
        game_id = p.url.rstrip("/").split("/")[-1]
        user = get_user_model().objects.get(username="zoé")
        names = {u.username for u in seats_of(Game.objects.get(pk=game_id)).values()}

        clicks, shot, rng = 0, False, random.Random(0)
        for _ in range(800):
            game = game_selectors.game_get(game_id)
            if game.status != "active":
                break
            state = game_selectors.game_data(game=game, user=user)["state"]
            if clicks >= 4 and {"type": "call"} in state["legal_actions"]:
                # she calls as soon as she may (before the bot draws): a short game
                game_services.game_act(game_id=game_id, user=user, command={"type": "call"})
                continue
            if bots_move(game_id):
                continue
            body = choose(state, 0, {"callers": {r: 0 for r in range(1, 50)}})
            assert body is not None, "nobody can act in an active game"
            if clicks < 4:  # her first moves by clicking, each page looked at first
                wait_for_version(zoe, game.version)
                leaks += english_on(zoe, f"table, before {body['type']}", names)
                if not shot:
                    p.screenshot(path=str(artifacts / "fr-table-phone.png"), full_page=True)
                    shot = True
                perform(zoe, body, 0)
                deadline = time.monotonic() + 15
                while game_selectors.game_get(game_id).version == game.version:
                    assert time.monotonic() < deadline, f"{body} by clicking did nothing"
                    time.sleep(0.05)
                clicks += 1
            else:  # then as a basic bot would play her seat (one that calls)
                full = game_selectors.game_state(game=game)
                if 0 in rules.get_ruleset(full.ruleset).actors(full):
                    move = decide("basic", full.ruleset, bot_view(full, 0), 0, rng)
                else:
                    continue
                game_services.game_act(game_id=game_id, user=user, command=move)
        game = game_selectors.game_get(game_id)
        if game.status != "finished":
            state = game_selectors.game_data(game=game, user=user)["state"]
            raise AssertionError(f"not finished at {game.version}: {state}")
        assert clicks == 4
        p.goto(f"{live_server.url}/play/{game_id}/")
        leaks += english_on(zoe, "the finished table", names)

        # the viewer: she asks for the analysis, the worker's work is done here
        p.goto(f"{live_server.url}/replays/{game_id}/")
        leaks += english_on(zoe, "viewer", names)
        p.click("form.analyse-form button[type=submit]")
        p.wait_for_load_state()
        row = GameAnalysis.objects.get(game_id=game_id)
        analysis_services.analysis_run(analysis_id=row.pk)
        assert GameAnalysis.objects.get(pk=row.pk).status == "done"
        p.goto(f"{live_server.url}/replays/{game_id}/?step=6")
        p.wait_for_selector("table.analysis-players")
        leaks += english_on(zoe, "the analysis", names)
        p.screenshot(path=str(artifacts / "fr-analysis-phone.png"), full_page=True)
        p.goto(f"{live_server.url}/history/")
        leaks += english_on(zoe, "history", names)
    finally:
        zoe.close()
    assert not leaks, "\n".join(leaks)
