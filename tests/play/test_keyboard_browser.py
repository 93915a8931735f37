"""The table by keyboard alone, and what a screen reader is told (docs/table.md
"Accessibility"), in headless Chromium.

A whole Cabo game against two bots and a
Skip-Bo turn are played with Tab, Enter and Escape only: no mouse event, no
click. After every key the focused element shows its outline and lies inside
the window. Then the polite live region: two people at one table, and each
seat's announcements are the "Last moves" sentences of that seat's own view --
never a card the seat did not see.
"""

from __future__ import annotations

import re
import time

import pytest
from django.conf import settings as django_settings

from games.bots import waits_for
from games.models import Game
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import bots as bot_services
from games.services import games as game_services
from tests.play.test_browser import DESKTOP, PASSWORD, PHONE, PLANS, Player, canon, choose, refs_of
from tests.play.test_cabo_bots import ROUND, ann_wants

ON_SQLITE = django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
    pytest.mark.timeout(600),
]

FOCUSED = r"""sel => {
    const a = document.activeElement, t = document.querySelector(sel);
    if (!a || !a.matches(sel)) {
        // which way to Tab: towards the target in the page's order (Tab or Shift+Tab)
        const back = t && a && a !== document.body &&
            (a.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_PRECEDING);
        return {found: false, back: !!back, at: a ? a.outerHTML.slice(0, 90) : ""};
    }
    const r = a.getBoundingClientRect(), s = getComputedStyle(a);
    const alpha = (s.outlineColor.match(/rgba\(.*,\s*([\d.]+)\)$/) || [0, 1])[1];
    return {found: true, outline: s.outlineStyle, width: parseFloat(s.outlineWidth),
            colour: s.outlineColor, opaque: parseFloat(alpha) >= 0.9,
            inside: r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth};
}"""


def tab_to(page, selector: str, presses: int = 200) -> None:
    """Tab (or Shift+Tab, whichever way is shorter) until ``selector`` has the focus;
    its outline must show and it must not be out of sight (WCAG 2.4.11: not
    entirely hidden)."""
    visited = []
    for _ in range(presses):
        seen = page.evaluate(FOCUSED, selector)
        if seen["found"]:
            assert seen["outline"] != "none" and seen["width"] >= 2, (selector, seen)
            assert seen["opaque"], (selector, seen)  # an outline in a clear colour hides it
            assert seen["inside"], f"{selector} has the focus out of sight"
            return
        visited.append(seen["at"])
        page.keyboard.press("Shift+Tab" if seen["back"] else "Tab")
    raise AssertionError(f"Tab never reached {selector}; the focus went to: {visited[:40]}")


def by_keyboard(page, body: dict, seat: int) -> None:
    """``body`` with the keyboard: each card it needs (Tab, Enter), then its button."""
    refs = refs_of(body, seat)
    for i in range(len(refs)):
        sel = ",".join(refs[: i + 1])
        tab_to(page, f"#table a.pick[data-sel='{sel}']")
        page.keyboard.press("Enter")
        page.wait_for_selector(f'#table[data-sel="{sel}"]')
    tab_to(page, f"#table button[data-action='{canon(body)}']")
    page.keyboard.press("Enter")


def login(player: Player) -> None:
    p = player.page
    p.goto(f"{player.url}/accounts/login/")
    p.fill("#id_username", player.name)
    p.fill("#id_password", PASSWORD)
    p.keyboard.press("Enter")
    p.wait_for_url(f"{player.url}/")


def no_mouse(page) -> None:
    page.evaluate(
        """() => { window.__mouse = 0;
        for (const t of ['mousedown', 'mouseup', 'pointerdown'])
            addEventListener(t, e => { if (e.isTrusted) window.__mouse++; }, true); }"""
    )


def stacked_two(ruleset: str, *, start_seat: int):
    """ann and ben at a started two-seat game of ``ruleset`` with its plan's stacked deck."""
    plan = PLANS[ruleset]
    ann, ben = (
        account_services.user_register(username=n, password=PASSWORD)[0] for n in ("ann", "ben")
    )
    game = game_services.game_create(
        user=ann,
        ruleset=ruleset,
        seats=2,
        options={"start_seat": start_seat, **plan["options"]},
        decks=plan["decks"],
    )
    game_services.game_join(game_id=game.id, user=ben)
    return ann, ben, game


def test_a_whole_cabo_game_against_bots_by_keyboard(live_server, chromium):
    """The bots move through ``bot_services.game_bot_act`` (what the worker calls) as soon
    as they may, so the page follows their moves by its long poll."""
    ann = account_services.user_register(username="ann", password=PASSWORD)[0]
    game = game_services.game_create(
        user=ann,
        ruleset="cabo",
        seats=3,
        options={"start_seat": 0},
        decks=[ROUND, ROUND],
        bots=[{"seat": 1, "level": "basic"}, {"seat": 2, "level": "basic"}],
    )
    player = Player(chromium, live_server.url, "ann", PHONE)
    try:
        login(player)
        p = player.page
        p.goto(f"{live_server.url}/play/{game.id}/")
        no_mouse(p)
        escaped = False
        end = time.monotonic() + 300
        while True:
            game.refresh_from_db()
            if game.status != "active":
                break
            state = game_selectors.game_data(game=game, user=ann)["state"]
            assert time.monotonic() < end, (game.version, state.get("turn"), state["phase"])
            legal = state.get("legal_actions") or []
            if not (legal and waits_for(legal)):
                for seat in (1, 2):
                    bot_services.game_bot_act(game_id=game.id, seat=seat, version=game.version)
                continue
            p.wait_for_selector(f'#table[data-version="{game.version}"]', timeout=10_000)
            body = ann_wants(state)
            if body["type"] == "look" and not escaped:
                # Escape puts the picked card back, the focus staying on it
                tab_to(p, "#table a.pick[data-sel='f0.0']")
                p.keyboard.press("Enter")
                p.wait_for_selector('#table[data-sel="f0.0"]')
                p.keyboard.press("Escape")
                p.wait_for_selector('#table[data-sel=""]')
                assert p.evaluate("document.activeElement.dataset.ref") == "f0.0"
                escaped = True
            before = game.version
            by_keyboard(p, body, 0)
            deadline = time.monotonic() + 10
            while Game.objects.get(pk=game.id).version == before:
                if p.locator("#notice .notice.error").count():
                    break  # a bot moved in the same moment: decide again
                assert time.monotonic() < deadline, f"{body} did nothing"
                time.sleep(0.02)
        assert game.status == "finished" and escaped
        p.wait_for_selector(f"#table .result a[href$='/replays/{game.id}/']")
        tab_to(p, f"#table .result a[href$='/replays/{game.id}/']")
        assert p.evaluate("window.__mouse") == 0  # the same page all game long, no mouse
        p.keyboard.press("Enter")
        p.wait_for_url(re.compile(rf".*/replays/{game.id}/$"))
    finally:
        player.close()


def test_a_skipbo_turn_by_keyboard(live_server, chromium):
    plan = PLANS["skipbo"]
    ann, _ben, game = stacked_two("skipbo", start_seat=0)
    player = Player(chromium, live_server.url, "ann", DESKTOP)
    try:
        login(player)
        p = player.page
        p.goto(f"{live_server.url}/play/{game.id}/")
        no_mouse(p)
        for _ in range(20):
            game.refresh_from_db()
            state = game_selectors.game_data(game=game, user=ann)["state"]
            if (state.get("turn") or {}).get("seat") != 0:
                break
            p.wait_for_selector(f'#table[data-version="{game.version}"]', timeout=10_000)
            by_keyboard(p, choose(state, 0, plan), 0)
            p.wait_for_selector(f'#table:not([data-version="{game.version}"])', timeout=10_000)
        game.refresh_from_db()
        assert (game_selectors.game_data(game=game, user=ann)["state"]["turn"] or {}).get(
            "seat"
        ) == 1
        assert p.evaluate("window.__mouse") == 0
    finally:
        player.close()


def test_a_throw_by_keyboard_shows_the_focus_on_its_card(live_server, chromium):
    """A card that may be thrown (a "quiet" pick, open out of turn too) had its focus
    outline drawn in a clear colour: Tab reached it and nothing showed where."""
    ann, ben, game = stacked_two("pablo", start_seat=1)
    for u in (ann, ben):
        game_services.game_act(
            game_id=game.id, user=u, command={"type": "look", "positions": [0, 1]}
        )
    player = Player(chromium, live_server.url, "ann", PHONE)
    try:
        login(player)
        p = player.page
        p.goto(f"{live_server.url}/play/{game.id}/")
        no_mouse(p)
        tab_to(p, "#table a.pick.quiet[data-sel='f0.3']")  # ben's turn: ann may throw
        p.keyboard.press("Enter")
        p.wait_for_selector('#table[data-sel="f0.3"]')
        tab_to(p, '#table button[data-action*=\'"type":"throw"\']')
        assert p.evaluate("window.__mouse") == 0
    finally:
        player.close()


def test_each_seat_hears_only_what_its_view_shows(live_server, chromium):
    """Two people at a Pablo table; moves are made by the server while both pages
    listen. Each live region repeats that seat's "Last moves" sentences: ann hears
    her own looked-at cards, ben hears that she looked, not what."""
    plan = PLANS["pablo"]
    ann, ben, game = stacked_two("pablo", start_seat=0)
    players = [Player(chromium, live_server.url, n, DESKTOP) for n in ("ann", "ben")]
    try:
        for pl in players:
            login(pl)
            pl.page.goto(f"{live_server.url}/play/{game.id}/")
        users = [ann, ben]
        for _ in range(4):
            current = game_selectors.game_get(game.id)
            for seat, u in enumerate(users):
                body = choose(game_selectors.game_data(game=current, user=u)["state"], seat, plan)
                if body is not None:
                    game_services.game_act(game_id=game.id, user=u, command=body)
                    break
        version = game_selectors.game_get(game.id).version
        heard = []
        for pl in players:
            pl.page.wait_for_selector(f'#table[data-version="{version}"]', timeout=10_000)
            heard.append(pl.page.inner_text("#announce"))
            assert pl.page.get_attribute("#announce", "aria-live") == "polite"
        for seat, text in enumerate(heard):
            log = players[seat].page.locator("#table .log li")
            said = [spoken(log.nth(i)) for i in range(log.count())]
            for line in filter(None, text.splitlines()):
                assert any(line.startswith(s) or s in line for s in said), (seat, line, said)
        # ann heard the two cards she looked at (suits said as words); ben heard the
        # look, not the cards -- and the other way round for ben's look
        # (each seat's own moves are said as "You …": the table calls its viewer "you")
        look = r"{} looked at their slots \d and \d"
        own = r"You looked at your slots \d and \d: \w+ (clubs|diamonds|hearts|spades) and "
        for seat, (me, other) in enumerate((("ann", "ben"), ("ben", "ann"))):
            assert re.search(own, heard[seat])
            assert not re.search(look.format(me), heard[seat])
            assert re.search(look.format(other) + r"\.", heard[seat])
            assert not re.search(look.format(other) + ":", heard[seat])
    finally:
        for pl in players:
            pl.close()


def spoken(li) -> str:
    return li.evaluate(
        """li => { const c = li.cloneNode(true);
        c.querySelectorAll('svg[aria-label]')
            .forEach(s => s.replaceWith(' ' + s.getAttribute('aria-label')));
        return c.textContent.replace(/\\s+/g, ' ').trim(); }"""
    )
