"""Whole games at the web table in a real headless Chromium (system /usr/bin/chromium).

One browser context per player (the second one phone-sized, 390 px): the first
player signs up, starts the game from the lobby form (stacked decks, which the
test settings allow, keep each game short and known in advance), the others log
in (in cabo, the 3-player game of the web table's "done when": sign up) and join
from their lobby, and everybody plays to the end by clicking cards
and buttons only. The test reads the database only to decide what to click (an
oracle) and to wait for the version; every action goes through the pages.

Checked on the way: every player's page follows each move without a reload
(the long-poll), the HTML a seat sees names no card its API view hides, no
sideways scroll at 390 px, buttons at least 44 px high, a double click sends one
action, and the pages without JavaScript. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from django.conf import settings

from games.models import Event, Game
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import bots as bot_services
from games.services import games as game_services
from tests.poll import wait_for

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
]

NAMES = ["ann", "ben", "cara", "dan"]
PASSWORD = "table-secret-1"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

CABO_DRAWS = ["4", "5", "6", "6", "5", "4", "3", "2", "1", "0", "1", "2", "3", "4", "5", "6"]
CABO_DRAWS_2 = ["4", "5", "6", "6", "5", "4", "3", "3", "4", "6"]
FRENCH_DRAWS = ["2D", "3D", "4D", "5D", "6D", "2H", "3H", "4H", "5H", "6H", "2S", "3S", "4S"]

#: ruleset -> how a short, known game goes: seats, options, decks, who calls in which round.
PLANS = {
    # seat 1 ends round 1 with exactly 42 (10+10+10+Q): loses at once
    "pablo": {
        "seats": 2,
        "options": {"forty_two": True},
        "decks": [["AC", "2C", "3C", "4C", "10C", "10D", "10H", "QC", "5C", *FRENCH_DRAWS]],
        "callers": {1: 0},
    },
    # seat 1 scores 40 a round: over 50 after round 2
    "pablo-50": {
        "seats": 2,
        "options": {},
        "decks": [["AC", "2C", "3C", "4C", "JC", "QC", "KC", "10C", "5C", *FRENCH_DRAWS]] * 2,
        "callers": {1: 0, 2: 0},
    },
    # seat 1 calls with 40, not the lowest: 50 a round, 100 after round 2
    "tamalou": {
        "seats": 2,
        "options": {},
        "decks": [["AC", "2C", "3C", "4C", "JC", "QC", "KC", "10C", "5C", *FRENCH_DRAWS]] * 2,
        "callers": {1: 1, 2: 1},
    },
    # round 1: ben's kamikaze (12 12 13 13) gives ann and cara 50; round 2: cara calls
    # with 49, not the lowest: 50 + 54 > 100. Ann tries a (wrong) double replace.
    "cabo": {
        "seats": 3,
        "options": {},
        "decks": [
            ["0", "1", "2", "3", "12", "12", "13", "13", "1", "2", "3", "4", "5", *CABO_DRAWS],
            ["0", "1", "2", "3", "0", "1", "1", "2", "13", "13", "12", "11", "5", *CABO_DRAWS_2],
        ],
        "callers": {1: 0, 2: 2},
        "multi_replace": (0, 2, [1, 2]),  # seat, round, positions
    },
    # ann cannot play at first and discards; ben neither; then ann draws the 1 and
    # empties her stock: 1 from the hand, then 2..6 from the stock.
    "skipbo": {
        "seats": 2,
        "options": {"stock_size": 5},
        "decks": [
            [
                *["2", "3", "4", "5", "6", "12", "12", "12", "12", "12"],
                *["9", "10", "11", "7", "7", "8", "8", "8", "8", "8", "1", "9", "9", "9", "9"],
            ]
        ],
        "callers": {},
    },
}


def canon(body: dict) -> str:
    return json.dumps(body, separators=(",", ":"), sort_keys=True)


def sign_in(page, live_url: str, name: str) -> None:
    """Log ``name`` in through the log-in form; back on the lobby."""
    page.goto(f"{live_url}/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{live_url}/")


class Player:
    def __init__(self, chromium, live_url: str, name: str, viewport: dict, js: bool = True):
        self.name = name
        self.url = live_url
        self.context = chromium.new_context(viewport=viewport, java_script_enabled=js)
        self.page = self.context.new_page()
        self.js = js
        self.phone = viewport["width"] <= 400

    def login(self) -> None:
        sign_in(self.page, self.url, self.name)

    def signup(self) -> None:
        p = self.page
        p.goto(f"{self.url}/")
        p.click("a.btn:has-text('Sign up')")
        p.fill("#id_username", self.name)
        p.fill("#id_password1", PASSWORD)
        p.fill("#id_password2", PASSWORD)
        p.click("form.stack button[type=submit]")
        p.wait_for_url(f"{self.url}/")

    def close(self) -> None:
        self.context.close()


def create_game(player: Player, ruleset: str, plan: dict) -> str:
    p = player.page
    form = f"form[data-ruleset='{ruleset}']"
    summary = p.locator(f"details:has({form}) > summary")
    if not p.locator(f"details:has({form})").get_attribute("open") is not None:
        summary.click()
    p.select_option(f"{form} select[name=seats]", str(plan["seats"]))
    p.fill(f"{form} input[name=turn_amount]", "2")
    p.select_option(f"{form} select[name=turn_unit]", "hours")
    p.click(f"details:has({form}) details.more > summary")
    p.select_option(f"{form} select[name=opt_start_seat]", "0")
    for name, value in plan["options"].items():
        if value is True:
            p.check(f"{form} input[name=opt_{name}]")
        else:
            p.fill(f"{form} input[name=opt_{name}]", str(value))
    p.fill(f"{form} textarea[name=decks]", json.dumps(plan["decks"]))
    p.click(f"{form} button[type=submit]")
    p.wait_for_url(re.compile(r".*/play/[0-9a-f-]+/$"))
    return p.url.rstrip("/").split("/")[-1]


def join_from_lobby(player: Player, game_id: str) -> None:
    p = player.page
    p.goto(f"{player.url}/")
    p.click(f"button[data-join='{game_id}']")
    p.wait_for_url(f"**/play/{game_id}/")


def refs_of(body: dict, seat: int) -> list[str]:
    t = body["type"]
    if t in ("look", "replace"):
        return [f"f{seat}.{p}" for p in body["positions"]]
    if t == "peek":
        return [f"f{seat}.{body['position']}"]
    if t == "spy":
        return [f"f{body['seat']}.{body['position']}"]
    if t == "swap":
        return [f"f{seat}.{body['position']}", f"f{body['seat']}.{body['their_position']}"]
    if t == "play":
        src = {"hand": f"h:{body.get('card')}", "stock": "st"}.get(
            body["from"], f"d{body.get('discard_pile')}"
        )
        return [src, f"b{body['pile']}"]
    if t == "end":
        return [f"h:{body['card']}", f"d{body['discard_pile']}"]
    if t == "throw":  # select the card, then choose the verb
        gift = [f"f{seat}.{body['give_position']}"] if "give_position" in body else []
        return [f"f{body['seat']}.{body['position']}", *gift]
    return []


def choose(state: dict, seat: int, plan: dict) -> dict | None:
    """The test's oracle: what this seat does now (from its own API view)."""
    legal = state.get("legal_actions") or []
    by_type: dict[str, list[dict]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    if not legal:
        return None
    if "look" in by_type:
        return {"type": "look", "positions": [0, 1]}
    if "call" in by_type and plan["callers"].get(state.get("round")) == seat:
        return {"type": "call"}
    if "draw" in by_type:
        return {"type": "draw", "source": "deck"}
    multi = plan.get("multi_replace")
    if "replace" in by_type and multi and multi[:2] == (seat, state.get("round")):
        return {"type": "replace", "positions": multi[2]}
    if "discard" in by_type:
        return {"type": "discard"}
    if "skip" in by_type:
        return {"type": "skip"}
    if "swap" in by_type:
        a = by_type["swap"][0]
        return {
            "type": "swap",
            "position": a["choices"]["position"][0],
            "seat": a["seat"],
            "their_position": a["choices"]["their_position"][0],
        }
    plays = by_type.get("play", [])
    for source in ("stock", "hand", "discard"):
        for a in plays:
            if a["from"] == source:
                return a
    if "end" in by_type:
        return by_type["end"][0]
    return None


def visible_codes(game: Game, user) -> set[str]:
    """Every string the seat's API view and its event feed show (cards among them)."""
    data = game_selectors.game_data(game=game, user=user)
    out: set[str] = set()

    def walk(v):
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(data["state"])
    walk(game_selectors.event_views(game=game, seat=data["you"], after=0))
    return out


def check_page(player: Player, game: Game, user) -> None:
    html = player.page.content()
    shown = set(re.findall(r'data-code="([^"]+)"', html))
    hidden = shown - visible_codes(game, user)
    assert not hidden, f"{player.name} sees {hidden}"
    if player.phone:
        width = player.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"sideways scroll on the phone: {width}px"
        heights = player.page.evaluate(
            "Array.from(document.querySelectorAll('#table button, #table .btn'))"
            ".filter(b => b.offsetParent).map(b => b.getBoundingClientRect().height)"
        )
        assert all(h >= 43.5 for h in heights), heights


def wait_version(players: list[Player], version: int) -> None:
    for pl in players:
        if pl.js:
            try:
                pl.page.wait_for_selector(f'#table[data-version="{version}"]', timeout=10_000)
            except Exception:
                seen = pl.page.get_attribute("#table", "data-version")
                raise AssertionError(f"{pl.name}'s page stays at {seen}, not {version}") from None
        else:
            pl.page.goto(pl.page.url.split("?")[0])


def perform(player: Player, body: dict, seat: int) -> None:
    """Do ``body`` by clicking: the cards it needs, then its button."""
    p = player.page
    refs = refs_of(body, seat)
    for i in range(len(refs)):
        sel = ",".join(refs[: i + 1])
        p.click(f"#table a.pick[data-sel='{sel}'] >> nth=0")
        if player.js:
            p.wait_for_selector(f'#table[data-sel="{sel}"]')
        else:
            p.wait_for_load_state()
    button = p.locator(f"#table button[data-action='{canon(body)}']").first
    button.click()


def play_to_the_end(players, users, game_id, plan, ruleset, artifacts, max_actions=80) -> Game:
    game = Game.objects.get(pk=game_id)
    shots = False
    for n in range(max_actions):
        game.refresh_from_db()
        wait_version(players, game.version)
        for pl, u in zip(players, users, strict=True):
            check_page(pl, game, u)
        if game.status != "active":
            return game
        if n == 5 and not shots:
            shots = True
            players[0].page.screenshot(
                path=str(artifacts / f"table-{ruleset}-desktop.png"), full_page=True
            )
            players[1].page.screenshot(
                path=str(artifacts / f"table-{ruleset}-phone.png"), full_page=True
            )
        wishes = [
            (seat, choose(game_selectors.game_data(game=game, user=u)["state"], seat, plan))
            for seat, u in enumerate(users)
        ]
        wishes = [(s, b) for s, b in wishes if b is not None]
        assert wishes, "nobody can act in an active game"
        # a call right after one's turn comes before the next player's draw
        seat, body = next(((s, b) for s, b in wishes if b["type"] == "call"), wishes[0])
        before = game.version
        perform(players[seat], body, seat)
        deadline = time.monotonic() + 10
        while Game.objects.get(pk=game_id).version == before:
            assert time.monotonic() < deadline, f"{body} from {players[seat].name} did nothing"
            time.sleep(0.02)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("ruleset", ["pablo", "pablo-50", "tamalou", "cabo", "skipbo"])
def test_a_whole_game_by_clicking(live_server, chromium, artifacts, ruleset):
    plan = PLANS[ruleset]
    seats = plan["seats"]
    users = [None] * seats
    # cabo is the "done when" of the web table: a newcomer signs up, starts a
    # 3-player game from the lobby, two friends sign up in their own browsers
    # (one on a phone) and join from the lobby. The others' friends log in to
    # accounts made through the API.
    newcomers = ruleset == "cabo"
    if not newcomers:
        for name in NAMES[1:seats]:
            account_services.user_register(username=name, password=PASSWORD)
    players = [
        Player(chromium, live_server.url, NAMES[i], PHONE if i == 1 else DESKTOP)
        for i in range(seats)
    ]
    try:
        players[0].signup()
        if ruleset == "cabo":
            players[0].page.screenshot(path=str(artifacts / "lobby-desktop.png"), full_page=True)
        game_id = create_game(players[0], ruleset, plan)
        for pl in players[1:]:
            if newcomers:
                pl.signup()
            else:
                pl.login()
            if ruleset == "cabo" and pl.phone:
                pl.page.screenshot(path=str(artifacts / "lobby-phone.png"), full_page=True)
                check_page(pl, Game.objects.get(pk=game_id), None)
            join_from_lobby(pl, game_id)
        from django.contrib.auth import get_user_model

        users = [get_user_model().objects.get(username=n) for n in NAMES[:seats]]
        players[0].page.evaluate("window.__sameDocument = true")
        game = play_to_the_end(players, users, game_id, plan, ruleset, artifacts)
        assert game.status == "finished"
        # the first player's page followed the whole game without a reload
        assert players[0].page.evaluate("window.__sameDocument === true")
        for pl in players:
            pl.page.wait_for_selector(f"#table .result a[href$='/replays/{game_id}/']")
        players[0].page.screenshot(path=str(artifacts / f"table-{ruleset}-over.png"))
        players[1].page.screenshot(path=str(artifacts / f"table-{ruleset}-over-phone.png"))
    finally:
        for pl in players:
            pl.close()


def _two_player_cabo(chromium, live_url, js=True):
    ann = account_services.user_register(username="ann", password=PASSWORD)[0]
    ben = account_services.user_register(username="ben", password=PASSWORD)[0]
    game = game_services.game_create(
        user=ann, ruleset="cabo", seats=2, options={"start_seat": 0}, decks=PLANS["cabo"]["decks"]
    )
    game_services.game_join(game_id=game.id, user=ben)
    players = [
        Player(chromium, live_url, "ann", DESKTOP, js),
        Player(chromium, live_url, "ben", PHONE, js),
    ]
    for pl in players:
        pl.login()
        pl.page.goto(f"{live_url}/play/{game.id}/")
    return game, [ann, ben], players


def test_double_click_sends_one_action(live_server, chromium):
    game, _users, players = _two_player_cabo(chromium, live_server.url)
    try:
        page = players[0].page
        posts = []
        page.on(
            "request",
            lambda r: posts.append(r.url) if r.method == "POST" and "/actions/" in r.url else None,
        )
        page.click("#table a.pick[data-sel='f0.0']")
        page.wait_for_selector('#table[data-sel="f0.0"]')
        page.click("#table a.pick[data-sel='f0.0,f0.1']")
        look = '{"positions":[0,1],"type":"look"}'
        game.refresh_from_db()
        before = game.version
        page.dblclick(f"#table button[data-action='{look}']")
        deadline = time.monotonic() + 5
        while game.version == before and time.monotonic() < deadline:
            time.sleep(0.05)
            game.refresh_from_db()
        page.wait_for_selector(f'#table[data-version="{game.version}"]')
        time.sleep(0.3)
        assert len(posts) == 1
        # ben's page shows ann's look without a reload
        players[1].page.wait_for_selector(f'#table[data-version="{game.version}"]')
        assert "ann looked at" in players[1].page.inner_text("#table .log")
    finally:
        for pl in players:
            pl.close()


def test_an_overtaken_action_still_offered_is_sent_again_at_the_new_version(live_server, chromium):
    """ben looks meanwhile: ann's page is behind, her Look is refused as stale (409), and
    since the redrawn table still offers the same Look, it is sent again once at the new
    version: applied, no error shown (docs/table.md; a refusal told in players' words
    when the action is gone is tests/play/test_newcomer_browser.py's)."""
    game, users, players = _two_player_cabo(chromium, live_server.url)
    try:
        page = players[0].page
        page.click("#table a.pick[data-sel='f0.0']")
        page.wait_for_selector('#table[data-sel="f0.0"]')
        page.click("#table a.pick[data-sel='f0.0,f0.1']")
        page.wait_for_selector('#table[data-sel="f0.0,f0.1"]')
        page.evaluate("window.__poll_off = true")
        game_services.game_act(
            game_id=game.id, user=users[1], command={"type": "look", "positions": [2, 3]}
        )
        # The live feed wakes the page at once (games/feed/): let it catch up and
        # poll again, then make the page stale by hand.
        now = Game.objects.get(pk=game.id).version
        page.wait_for_selector(f'#table[data-version="{now}"]')
        page.wait_for_timeout(300)
        page.evaluate("document.getElementById('table').dataset.version = '1'")
        before = Game.objects.get(pk=game.id).version
        page.click("#table button[data-action*='look']")
        wait_for(lambda: Game.objects.get(pk=game.id).version > before, 30, what="the look")
        events = list(Event.objects.filter(game=game, seq__gt=before))
        assert events and events[0].seat == 0, events  # ann's look, at the new version
        assert page.locator("#notice .notice.error").count() == 0
    finally:
        for pl in players:
            pl.close()


def test_without_javascript(live_server, chromium, artifacts):
    game, users, players = _two_player_cabo(chromium, live_server.url, js=False)
    plan = {"callers": {}}
    ann, ben = players
    try:
        # ben picks two cards (plain links) and leaves the page open
        ben.page.click("#table a.pick[data-sel='f1.0']")
        ben.page.click("#table a.pick[data-sel='f1.0,f1.1']")
        assert ben.page.url.endswith("?sel=f1.0,f1.1")
        # ann looks meanwhile (forms, POST-redirect-GET)
        perform(ann, {"type": "look", "positions": [0, 1]}, 0)
        ann.page.wait_for_load_state()
        assert ann.page.url.endswith(f"/play/{game.id}/")
        # ben's Look comes from an old page: refused in words (what ann did), nothing stored
        before = Game.objects.get(pk=game.id).version
        ben.page.click("#table button[data-action*='look']")
        ben.page.wait_for_load_state()
        said = ben.page.inner_text("#notice")
        assert "ann looked at" in said and "your move was not made" in said, said
        assert Game.objects.get(pk=game.id).version == before
        for _ in range(6):
            game.refresh_from_db()
            wait_version(players, game.version)
            for pl, u in zip(players, users, strict=True):
                check_page(pl, game, u)
            wishes = [
                (seat, choose(game_selectors.game_data(game=game, user=u)["state"], seat, plan))
                for seat, u in enumerate(users)
            ]
            seat, body = next((s, b) for s, b in wishes if b is not None)
            before = game.version
            perform(players[seat], body, seat)
            players[seat].page.wait_for_load_state()
            assert Game.objects.get(pk=game.id).version > before
        ann.page.screenshot(path=str(artifacts / "table-nojs.png"), full_page=True)
    finally:
        for pl in players:
            pl.close()


def test_a_throw_onto_anothers_card_gives_one_of_yours(live_server, chromium, artifacts):
    """ben's matching card, then one of ann's cards, then the button."""
    ann = account_services.user_register(username="ann", password=PASSWORD)[0]
    ben = account_services.user_register(username="ben", password=PASSWORD)[0]
    deck = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "5D", "9D", "10D", "JD"]
    game = game_services.game_create(
        user=ann, ruleset="pablo", seats=2, options={"start_seat": 1}, decks=[deck]
    )
    game_services.game_join(game_id=game.id, user=ben)
    for u in (ann, ben):
        game_services.game_act(
            game_id=game.id, user=u, command={"type": "look", "positions": [0, 1]}
        )
    players = [
        Player(chromium, live_server.url, "ann", DESKTOP),
        Player(chromium, live_server.url, "ben", PHONE),
    ]
    try:
        for pl in players:
            pl.login()
            pl.page.goto(f"{live_server.url}/play/{game.id}/")
        page = players[0].page
        page.screenshot(path=str(artifacts / "table-pablo-throws-desktop.png"), full_page=True)
        # no Throw button under every card: click ben's card, then choose the verb
        assert page.locator("#table .board button").count() == 0
        page.click("#table a.pick[data-sel='f1.0']")
        page.wait_for_selector('#table[data-sel="f1.0"]')
        assert "give in exchange" in page.inner_text("#table .hint")
        plain = {"type": "throw", "seat": 1, "position": 0, "onto": 1}
        assert page.locator(f"#table button[data-action='{canon(plain)}']").count() == 1
        page.click("#table a.pick[data-sel='f1.0,f0.3']")
        page.wait_for_selector('#table[data-sel="f1.0,f0.3"]')
        page.screenshot(path=str(artifacts / "table-pablo-give-desktop.png"), full_page=True)
        body = {"type": "throw", "seat": 1, "position": 0, "onto": 1, "give_position": 3}
        button = page.locator(f"#table button[data-action='{canon(body)}']")
        assert button.inner_text().startswith("Throw ben's slot 0, giving your slot 3")
        before = Game.objects.get(pk=game.id).version
        button.click()
        deadline = time.monotonic() + 10
        while Game.objects.get(pk=game.id).version == before:
            assert time.monotonic() < deadline, "the throw did nothing"
            time.sleep(0.02)
        thrown = Event.objects.get(game=game, type="thrown")
        assert thrown.data["correct"] and thrown.data["given"]["code"] == "4C"
        game.refresh_from_db()
        wait_version(players, game.version)
        for pl, u in zip(players, (ann, ben), strict=True):
            check_page(pl, game, u)
        assert "ann gave a card from their slot 3" in players[1].page.inner_text("#table .log")
        players[1].page.screenshot(
            path=str(artifacts / "table-pablo-give-phone.png"), full_page=True
        )
    finally:
        for pl in players:
            pl.close()


def test_an_absent_player_comes_back(live_server, chromium):
    """ann misses the setup's deadline (max_timeouts 1): her table offers Come back."""
    ann = account_services.user_register(username="ann", password=PASSWORD)[0]
    ben = account_services.user_register(username="ben", password=PASSWORD)[0]
    game = game_services.game_create(
        user=ann, ruleset="cabo", seats=2, options={"start_seat": 1, "max_timeouts": 1}
    )
    game_services.game_join(game_id=game.id, user=ben)
    game_services.game_act(game_id=game.id, user=ben, command={"type": "look", "positions": [0, 1]})
    game.refresh_from_db()
    assert bot_services.game_timeout(game_id=game.id, turn_key=game.turn_key) > 0

    def absent() -> bool:
        data = game_selectors.game_data(game=Game.objects.get(pk=game.id), user=ann)
        return bool(data["players"][0]["absent"])

    assert absent()
    player = Player(chromium, live_server.url, "ann", PHONE)
    try:
        player.login()
        page = player.page
        page.goto(f"{live_server.url}/play/{game.id}/")
        assert "You were marked absent" in page.inner_text("#table")
        page.evaluate("window.__sameDocument = true")
        game.refresh_from_db()
        check_page(player, game, ann)
        before = game.version
        page.click("#table button:has-text('Come back')")
        deadline = time.monotonic() + 10
        while absent():
            assert time.monotonic() < deadline, "Come back did nothing"
            time.sleep(0.02)
        game.refresh_from_db()
        assert game.version > before
        page.wait_for_selector(f'#table[data-version="{game.version}"]')
        assert page.locator("#table button:has-text('Come back')").count() == 0
        assert "You were marked absent" not in page.inner_text("#table")
        assert page.evaluate("window.__sameDocument === true")  # no reload
        assert "You are back." in page.inner_text("#table .log")  # (ann's own table)
    finally:
        player.close()


def pablo_after_the_looks(seats: int, *, start_seat: int) -> tuple[list[Any], Any]:
    """A Pablo game of the first ``seats`` of NAMES (registered here), every player
    having looked at slots 0 and 1: (users, game)."""
    register = account_services.user_register
    users = [register(username=n, password=PASSWORD)[0] for n in NAMES[:seats]]
    game = game_services.game_create(
        user=users[0], ruleset="pablo", seats=seats, options={"start_seat": start_seat}
    )
    for u in users[1:]:
        game_services.game_join(game_id=game.id, user=u)
    for u in users:
        game_services.game_act(
            game_id=game.id, user=u, command={"type": "look", "positions": [0, 1]}
        )
    return users, game


def test_a_four_player_pablo_table_fits_two_phone_screens(live_server, chromium, artifacts):
    """Issue 19: at 390 px a 4-player table (the seats, the piles, the actions, the log
    and the scores) fits in two screen heights, and no button sits under every card."""
    users, game = pablo_after_the_looks(4, start_seat=1)
    for u in users[1:3]:  # a few turns, so that the log has lines
        game_services.game_act(game_id=game.id, user=u, command={"type": "draw", "source": "deck"})
        game_services.game_act(game_id=game.id, user=u, command={"type": "discard"})
        for _ in range(3):  # a power card's power (a random deal: any of them)
            data = game_selectors.game_data(game=game_selectors.game_get(game.id), user=u)
            legal = data["state"]["legal_actions"]
            if data["state"]["turn"]["seat"] != data["you"] or not legal:
                break
            body = next((a for a in legal if a["type"] == "skip"), legal[0])
            body = {k: v for k, v in body.items() if k != "choices"} | {
                name: values[0] for name, values in (body.get("choices") or {}).items()
            }
            game_services.game_act(game_id=game.id, user=u, command=body)
    player = Player(chromium, live_server.url, "ann", PHONE)
    try:
        player.login()
        page = player.page
        page.goto(f"{live_server.url}/play/{game.id}/")
        game.refresh_from_db()
        check_page(player, game, users[0])
        assert page.locator("#table .board button").count() == 0
        height = page.evaluate("document.documentElement.scrollHeight")
        page.screenshot(path=str(artifacts / "table-pablo-4-phone.png"), full_page=True)
        assert height <= 2 * PHONE["height"], f"{height}px: more than two screens"
        page.set_viewport_size(DESKTOP)
        page.screenshot(path=str(artifacts / "table-pablo-4-desktop.png"), full_page=True)
    finally:
        player.close()


def test_a_long_field_of_another_player_wraps_on_a_phone(live_server, chromium, artifacts):
    """Wrong throws give a player penalty cards: a field of 8 or more. At 390 px the
    other players' fields (two seats side by side) wrap onto a second row instead of
    running off the board (sideways scroll, slot numbers unreadable over the page)."""
    users, game = pablo_after_the_looks(3, start_seat=0)
    ben = users[1]
    for _ in range(12):  # ben throws his own cards until his field has 9 slots
        data = game_selectors.game_data(game=game_selectors.game_get(game.id), user=ben)
        if len(data["state"]["fields"]["1"]) >= 9:
            break
        throw = next(
            a for a in data["state"]["legal_actions"] if a["type"] == "throw" and a.get("seat") == 1
        )
        body = {k: v for k, v in throw.items() if k not in ("choices", "give_position")}
        body |= {n: vs[0] for n, vs in (throw.get("choices") or {}).items() if n != "give_position"}
        game_services.game_act(game_id=game.id, user=ben, command=body)
    data = game_selectors.game_data(game=game_selectors.game_get(game.id), user=ben)
    assert len(data["state"]["fields"]["1"]) >= 9
    player = Player(chromium, live_server.url, "ann", PHONE)
    try:
        player.login()
        page = player.page
        page.goto(f"{live_server.url}/play/{game.id}/")
        game.refresh_from_db()
        page.screenshot(path=str(artifacts / "table-pablo-long-field-phone.png"), full_page=True)
        check_page(player, game, users[0])  # no sideways scroll
        outside = page.evaluate(
            """Array.from(document.querySelectorAll('#table .board .seat')).flatMap(seat => {
                const box = seat.getBoundingClientRect();
                return Array.from(seat.querySelectorAll('.slot'))
                    .filter(s => s.getBoundingClientRect().right > box.right + 0.5)
                    .map(s => seat.querySelector('h3').innerText + ' ' + s.innerText);
            })"""
        )
        assert not outside, f"slots outside their seat: {outside}"
    finally:
        player.close()
