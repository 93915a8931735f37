"""What got in a new player's way at the table (issue 28), in headless Chromium.

Each test sets a game up through the services, then looks at the page a person
sees: a race told in the players' words and a click never lost, the "Last
moves" list, a cancelled game, the forms, the header on a phone.
"""

from __future__ import annotations

import random

import pytest
from django.conf import settings

from games import rules
from games.bots import decide
from games.bots.play import bot_view
from games.models import Event
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import games as game_services
from tests.play.test_browser import DESKTOP, PASSWORD, PHONE, Player, sign_in

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
]


def people(*names):
    return [account_services.user_register(username=n, password=PASSWORD)[0] for n in names]


def two_player_cabo(ann, ben, **options):
    game = game_services.game_create(
        user=ann, ruleset="cabo", seats=2, options={"start_seat": 0, **options}
    )
    game_services.game_join(game_id=game.id, user=ben)
    return game


def play_turn(game, seat, user):
    """``seat`` plays its whole turn as a basic bot would."""
    rng = random.Random(seat)
    while True:
        state = game_selectors.game_state(game=game_selectors.game_get(game.id))
        if seat not in rules.get_ruleset(state.ruleset).actors(state):
            return
        body = decide("basic", state.ruleset, bot_view(state, seat), seat, rng)
        game_services.game_act(game_id=game.id, user=user, command=body)


def signed_in(chromium, live_server, name, viewport=DESKTOP):
    player = Player(chromium, live_server.url, name, viewport)
    player.login()
    return player


def test_a_race_is_told_in_the_players_words(live_server, chromium, artifacts):
    """Ben throws a card onto the discard pile while ann's page has not seen it yet:
    ann's throw (onto the card that was on top) is refused by the version check and is
    no longer hers to make, so the table says what ben did, not "version 7". (A click
    still legal with the same words is sent again instead: test_click_races_browser.)"""
    ann, ben = people("ann", "ben")
    # ben's 5D matches the discard pile's 5C: his throw is right and takes the top
    deck = ["AC", "2C", "3C", "4C", "5D", "10D", "10H", "QC", "5C", "6D", "6H", "2S", "3S"]
    game = game_services.game_create(
        user=ann, ruleset="pablo", seats=2, options={"start_seat": 0}, decks=[deck]
    )
    game_services.game_join(game_id=game.id, user=ben)
    for user in (ann, ben):
        game_services.game_act(
            game_id=game.id, user=user, command={"type": "look", "positions": [0, 1]}
        )
    player = signed_in(chromium, live_server, "ann")
    try:
        p = player.page
        p.route("**/events/**", lambda route: route.abort())  # no live redraw
        p.goto(f"{live_server.url}/play/{game.id}/?sel=f0.2")
        throw = p.locator('#table button[data-action*=\'"type":"throw"\']').first
        throw.wait_for()
        legal = game_selectors.game_data(game=game_selectors.game_get(game.id), user=ben)
        theirs = next(
            a
            for a in legal["state"]["legal_actions"]
            if a["type"] == "throw" and a["seat"] == 1 and a["position"] == 0
        )
        game_services.game_act(game_id=game.id, user=ben, command=theirs)
        throw.click()
        p.locator("#notice .notice").wait_for()
        said = p.inner_text("#notice")
        p.screenshot(path=str(artifacts / "newcomer-race.png"))
        assert "version" not in said, said
        assert "ben" in said and "your move was not made" in said, said
        assert not Event.objects.filter(game_id=game.id, seat=0, type="thrown").exists()
    finally:
        player.close()


def test_a_click_while_an_action_is_in_flight_is_never_dropped(live_server, chromium):
    """A live redraw used to switch the buttons on again while an action was in flight,
    and a click on them then did nothing at all. Now it waits for the answer: sent if
    its button is still there, else the player is told."""
    ann, ben = people("ann", "ben")
    game = two_player_cabo(ann, ben)
    for user in (ann, ben):
        game_services.game_act(
            game_id=game.id, user=user, command={"type": "look", "positions": [0, 1]}
        )
    player = signed_in(chromium, live_server, "ann")
    try:
        p = player.page
        p.goto(f"{live_server.url}/play/{game.id}/")
        deck = "#table button[data-action*='\"deck\"']"
        discard = "#table button[data-action*='\"discard\"']"
        p.locator(deck).first.wait_for()
        # the first click sends; a redraw switches the buttons on; a click on another
        p.evaluate(
            """([deck, discard]) => { document.querySelector(deck).click();
                const other = document.querySelector(discard);
                other.disabled = false; other.click(); }""",
            [deck, discard],
        )
        p.locator("#notice .notice").wait_for(timeout=10_000)
        assert "Choose again" in p.inner_text("#notice")
        assert p.locator("#table .pile.held").count() == 1  # drawn once
    finally:
        player.close()


def test_last_moves_read_in_order_and_say_your_turn_to_you(live_server, chromium, artifacts):
    """ "Last moves" was newest first but numbered 1, 2, 3 from the top, and told nina
    "Now it is nina's turn"."""
    ann, ben = people("ann", "ben")
    game = two_player_cabo(ann, ben)
    for user in (ann, ben):
        game_services.game_act(
            game_id=game.id, user=user, command={"type": "look", "positions": [0, 1]}
        )
    play_turn(game, 0, ann)  # a turn each
    play_turn(game, 1, ben)
    player = signed_in(chromium, live_server, "ann", PHONE)
    try:
        p = player.page
        p.goto(f"{live_server.url}/play/{game.id}/")
        moves = p.locator("#table section.log ol > li").all_inner_texts()
        p.screenshot(path=str(artifacts / "newcomer-last-moves-390.png"), full_page=True)
        assert moves[-1] == "Now it is your turn.", moves
        assert not any("ann's turn" in m for m in moves), moves
        told = [i for i, m in enumerate(moves) if "ben's turn" in m]
        ben_moved = [i for i, m in enumerate(moves) if m.startswith("ben ")]
        assert told and ben_moved and told[-1] < ben_moved[-1], moves  # as it happened
        # numbered as it reads: 1 at the top, counting down the page
        assert p.evaluate("document.querySelector('#table section.log ol').reversed") is False
    finally:
        player.close()


def test_a_cancelled_game_says_so_and_who_after_asking_first(live_server, chromium, artifacts):
    """A cancelled game looked like a broken finished one (a trophy, "Game over", a replay
    button); Cancel asked nothing and the lobby said nothing after."""
    ann, _ben = people("ann", "ben")
    game = game_services.game_create(user=ann, ruleset="cabo", seats=2)
    player = signed_in(chromium, live_server, "ann")
    viewer = signed_in(chromium, live_server, "ben", PHONE)
    try:
        p = player.page
        p.goto(f"{live_server.url}/play/{game.id}/")
        yes = p.get_by_role("button", name="Yes, cancel the game")
        assert not yes.is_visible()  # it asks first
        p.get_by_text("Cancel this game").click()
        yes.click()
        p.wait_for_url(f"{live_server.url}/")
        assert "You cancelled your game" in p.inner_text("main")
        for who, page, said in (
            (player, p, "You cancelled"),
            (viewer, viewer.page, "ann cancelled"),
        ):
            page.goto(f"{live_server.url}/play/{game.id}/")
            result = page.inner_text("#table section.result")
            page.screenshot(path=str(artifacts / f"newcomer-cancelled-{who.name}.png"))
            assert "Cancelled" in result and said in result, result
            assert "Game over" not in result and "won" not in result
            assert page.locator("#table .result svg, #table a[href^='/replays/']").count() == 0
            assert page.locator("#table .board").count() == 0  # no empty board
            assert f"{said} the game before it started." in page.inner_text("#table .log")
    finally:
        player.close()
        viewer.close()


def test_history_shows_places_and_points_never_lost_without_a_loser(live_server, chromium):
    """History called every game a player did not win "Lost", even in Skip-Bo and Cabo,
    where nobody loses: places and points per ruleset instead."""
    from tests.play.test_site import finished_skipbo

    ann, ben = people("ann", "ben")
    finished_skipbo(ann, ben)
    player = signed_in(chromium, live_server, "ben", PHONE)
    try:
        p = player.page
        p.goto(f"{live_server.url}/history/")
        text = p.inner_text("main")
        assert "2nd of 2" in text and "lost" not in text.lower(), text
        assert p.inner_text("table.history-table td[data-label=Places]") == "2nd \u00d71"
        assert "cards left in stock" in p.inner_text(".history-list")
    finally:
        player.close()


def test_the_phone_historys_labels_follow_french_typography(live_server, chromium):
    """On a phone the history's table labels its cells ("Jouées: 2") by CSS, without the
    narrow no-break space French puts before a colon (every message has it)."""
    from tests.play.test_site import finished_skipbo

    ann, ben = people("ann", "ben")
    finished_skipbo(ann, ben)
    labels = {}
    for lang in ("fr", "en"):
        context = chromium.new_context(viewport=PHONE, locale=lang)
        p = context.new_page()
        try:
            sign_in(p, live_server.url, "ann")
            p.goto(f"{live_server.url}/history/")
            labels[lang] = p.evaluate(
                """() => getComputedStyle(document.querySelector(
                    'table.history-table td[data-label]'), '::before').content"""
            )
        finally:
            context.close()
    assert "\u202f:" in labels["fr"], labels
    assert "\u202f" not in labels["en"] and ": " in labels["en"], labels


def test_the_phone_header_is_one_line_with_the_rest_behind_a_menu(live_server, chromium, artifacts):
    """The phone header took three lines (about 125 px on every page)."""
    people("ann")
    for js in (True, False):
        player = Player(chromium, live_server.url, "ann", PHONE, js=js)
        try:
            p = player.page
            sign_in(p, live_server.url, "ann")
            header = p.locator("header.site")
            assert header.bounding_box()["height"] <= 64, header.bounding_box()
            history = p.get_by_role("link", name="Your history")
            assert not history.is_visible()
            p.screenshot(path=str(artifacts / f"header-390-js{int(js)}.png"))
            # by keyboard: to "Menu", open it, then the links
            p.keyboard.press("Tab")
            for _ in range(3):
                if p.evaluate("document.activeElement.tagName") == "SUMMARY":
                    break
                p.keyboard.press("Tab")
            assert p.evaluate("document.activeElement.textContent").strip() == "Menu"
            p.keyboard.press("Enter")
            assert history.is_visible()
            p.screenshot(path=str(artifacts / f"header-390-open-js{int(js)}.png"))
            history.click()
            p.wait_for_url("**/history/")
            # the language switch is behind the menu too, and works by keyboard alone
            french = p.get_by_role("button", name="Fran\u00e7ais")
            assert not french.is_visible()
            assert p.locator("header.site").bounding_box()["height"] <= 64
            p.locator("header.site summary").focus()
            p.keyboard.press("Enter")
            assert french.is_visible()
            french.focus()
            p.keyboard.press("Enter")
            p.wait_for_url("**/history/")
            p.wait_for_selector("html[lang=fr]", state="attached")
            assert p.locator("header.site summary").inner_text().strip() == "Menu"
            assert p.locator("header.site").bounding_box()["height"] <= 64
            p.screenshot(path=str(artifacts / f"header-390-fr-js{int(js)}.png"))
            p.locator("header.site summary").focus()  # and back: the account remembers it
            p.keyboard.press("Enter")
            p.get_by_role("button", name="English").focus()
            p.keyboard.press("Enter")
            p.wait_for_selector("html[lang=en]", state="attached")
        finally:
            player.close()
    player = signed_in(chromium, live_server, "ann")  # a desktop: everything at once
    try:
        p = player.page
        assert p.get_by_role("link", name="Your history").is_visible()
        assert p.get_by_role("button", name="Deutsch").is_visible()
        assert not p.locator("header.site summary").is_visible()
        assert p.locator("header.site").bounding_box()["height"] <= 64
    finally:
        player.close()


def test_the_create_form_opens_one_ruleset_and_reads_on_a_phone(live_server, chromium, artifacts):
    """Opening Cabo left Pablo open (a 2,500 px page); on a phone the memory help was cut
    ("...cards you h")."""
    people("ann")
    player = signed_in(chromium, live_server, "ann", PHONE)
    try:
        p = player.page
        cabo = p.locator("details.ruleset-form:has(form[data-ruleset='cabo'])")
        cabo.locator("> summary").click()
        assert cabo.get_attribute("open") is not None
        assert p.locator("details.ruleset-form[open]").count() == 1  # the others closed
        cabo.locator("details.more > summary").click()
        help_ = cabo.locator("[id$='opt_memory_helptext']")
        p.screenshot(path=str(artifacts / "create-cabo-390.png"), full_page=True)
        box = help_.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert help_.evaluate("e => e.scrollWidth <= e.clientWidth")
        # no choice of any select is cut: each fits its box beside the arrow
        cut = cabo.locator("select").evaluate_all(
            """(selects) => { const c = document.createElement("canvas").getContext("2d");
                const shown = selects.filter(s => s.getClientRects().length > 0);
                return shown.flatMap(s => { c.font = getComputedStyle(s).font;
                  const wide = o => c.measureText(o.text).width + 36 > s.clientWidth;
                  return [...s.options].filter(wide).map(o => s.name + ": " + o.text); }); }"""
        )
        assert cut == [], cut
        assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        player.close()


#: Each select's choices wider than its box beside the arrow (measured in the select's font).
CUT_CHOICES = """(selects) => { const c = document.createElement("canvas").getContext("2d");
    const shown = selects.filter(s => s.getClientRects().length > 0);
    return shown.flatMap(s => { c.font = getComputedStyle(s).font;
      const wide = o => c.measureText(o.text).width + 36 > s.clientWidth;
      return [...s.options].filter(wide).map(o => s.form.dataset.ruleset + " " + s.name + ": "
        + o.text); }); }"""

#: Each text box whose default, written inside it, is wider than the box.
CUT_PLACEHOLDERS = """(boxes) => { const c = document.createElement("canvas").getContext("2d");
    return boxes.filter(b => b.getClientRects().length > 0).filter(b => {
      c.font = getComputedStyle(b).font; const style = getComputedStyle(b);
      const room = b.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return c.measureText(b.placeholder).width > room; })
      .map(b => b.name + ": " + b.placeholder); }"""


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_no_choice_of_the_create_forms_is_cut_on_a_phone(live_server, chromium, artifacts, lang):
    """At 390 px in German (and French) the seats' and the stand-in's choices were cut
    ("ein Zufallsbot (irgendein erlaubter Z"): every form of every ruleset, all open."""
    people("ann")
    context = chromium.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": lang})
    p = context.new_page()
    try:
        sign_in(p, live_server.url, "ann")
        assert p.locator("html").get_attribute("lang") == lang
        cut, overflow = [], []
        rulesets = p.locator("form.create").evaluate_all("fs => fs.map(f => f.dataset.ruleset)")
        for ruleset in rulesets:
            form = p.locator(f"details.ruleset-form:has(form[data-ruleset='{ruleset}'])")
            form.evaluate("d => { d.open = true; d.querySelector('details.more').open = true; }")
            seats = form.locator("select[name=seats]")
            seats.select_option(seats.locator("option").last.get_attribute("value"))  # every seat
            cut += form.locator("select").evaluate_all(CUT_CHOICES)
            overflow += form.locator(".help, label, legend").evaluate_all(
                "(es) => es.filter(e => e.scrollWidth > e.clientWidth + 1"
                " || e.getBoundingClientRect().right > innerWidth).map(e => e.textContent)"
            )
            overflow += form.locator("input[placeholder]").evaluate_all(CUT_PLACEHOLDERS)
            assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], ruleset
            if ruleset == "pablo":
                p.screenshot(path=str(artifacts / f"create-{lang}-390.png"), full_page=True)
        assert cut == [], cut
        assert overflow == [], overflow
    finally:
        context.close()


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_skipbo_opponents_discard_piles_stay_on_one_row(live_server, chromium, artifacts, seats):
    """At 1280 px an opponent's discard piles 3 and 4 wrapped to a second row beside a
    large empty area."""
    (ann,) = people("ann")
    bots = [{"seat": s, "level": "basic"} for s in range(1, seats)]
    game = game_services.game_create(user=ann, ruleset="skipbo", seats=seats, bots=bots)
    player = signed_in(chromium, live_server, "ann")
    try:
        p = player.page
        p.route("**/events/**", lambda route: route.abort())  # the board as it is
        p.goto(f"{live_server.url}/play/{game.id}/")
        p.screenshot(path=str(artifacts / f"skipbo-{seats}-desktop.png"), full_page=True)
        for seat in range(1, seats):
            row = p.locator(f"#table li.seat[data-seat='{seat}'] .sb-row > .pile")
            tops = {round(box["y"]) for box in (row.nth(i).bounding_box() for i in range(5))}
            assert len(tops) == 1, (seat, tops)
    finally:
        player.close()
