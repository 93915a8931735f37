"""The viewer in a real headless Chromium (the system /usr/bin/chromium, via Playwright).

Opens a finished game from the list, steps with the keyboard and the buttons
(no full page load with JavaScript, plain links without), switches
perspective, and checks that in a seat's view no face-down card's code is in
the page's HTML. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from games.selectors.games import game_events
from replays.steps import build_replay, table_views
from tabletop.cards import card_name, card_short
from tests.replays.test_views import _hidden

AXE = Path(__file__).resolve().parent.parent / "assets" / "axe.min.js"

# A live-server test ends by flushing the tables; SQLite runs that flush as DELETEs, which
# the append-only event table's trigger refuses (PostgreSQL truncates).
ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
]


def at_step(page, n: int) -> None:
    page.wait_for_selector(f'#replay[data-step="{n}"]', timeout=10_000)


def test_open_step_and_switch_perspective(live_server, page, stored, artifacts):
    game, _ = stored("pablo", 3, seed=3, names=["ann", "ben", "cara"])
    page.goto(f"{live_server.url}/replays/")
    page.screenshot(path=str(artifacts / "replay-list.png"), full_page=True)
    page.click(f'a[href="/replays/{game.id}/"]')
    at_step(page, 0)
    assert "sit down; round 1 is dealt." in page.inner_text(".now")

    # JavaScript steps without a full page load: a marker on window survives
    page.evaluate("window.__sameDocument = true")
    page.keyboard.press("ArrowRight")
    at_step(page, 1)
    assert page.url.endswith("?step=1")
    page.keyboard.press("ArrowRight")
    at_step(page, 2)
    page.keyboard.press("ArrowLeft")
    at_step(page, 1)
    page.click("a.btn.main[data-key=next]")
    at_step(page, 2)
    page.click("a.btn.main[data-key=next]")
    at_step(page, 3)
    page.click("a.btn.main[data-key=prev]")
    at_step(page, 2)
    page.keyboard.press("End")
    replay = build_replay(str(game.id), game.version, game_events(game))
    at_step(page, replay.last)
    assert "Game over" in page.inner_text(".now")
    page.keyboard.press("Home")
    at_step(page, 0)
    assert page.evaluate("window.__sameDocument === true")
    # the browser's back button goes back a step
    page.go_back()
    at_step(page, replay.last)

    # the slider jumps
    page.fill("#step-slider", "12")
    page.dispatch_event("#step-slider", "change")
    at_step(page, 12)
    page.screenshot(path=str(artifacts / "pablo-step.png"), full_page=True)

    # switch to ben's eyes at the same step
    page.click(".perspective a:has-text('ben')")
    page.wait_for_url("**as=1**")
    at_step(page, 12)
    assert page.inner_text(".perspective a.active") == "ben"
    step = replay.steps[12]
    god, _, _ = table_views(replay, step, None)
    mine, _, _ = table_views(replay, step, 1)
    hidden = _hidden(god, mine, 1)
    assert hidden, "the test needs face-down cards"
    html = page.content()
    assert html.count('class="card back"') >= len(hidden)
    for code in hidden:
        assert f'data-code="{code}"' not in html
        assert card_name(code, "french") not in html
        assert card_short(code, "french") not in html
    page.screenshot(path=str(artifacts / "pablo-step-ben.png"), full_page=True)
    # stepping keeps the perspective
    page.keyboard.press("ArrowRight")
    at_step(page, 13)
    assert "as=1" in page.url


def test_plain_links_work_without_javascript(live_server, chromium, stored):
    game, _ = stored("cabo", 2, seed=4, names=["ann", "ben"])
    context = chromium.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/replays/{game.id}/?step=3")
        at_step(page, 3)
        page.click("a.btn.main[data-key=next]")
        at_step(page, 4)
        assert page.url.endswith("?step=4")
        page.fill("#step-slider", "9")
        page.click(".slider button[type=submit]")
        at_step(page, 9)
        page.click(".perspective a:has-text('ann')")
        at_step(page, 9)
        assert page.url.endswith("step=9&as=0")
    finally:
        context.close()


def test_skipbo_layout_and_phone_width(live_server, page, stored, artifacts):
    game, _ = stored("skipbo", 3, seed=3, names=["ann", "ben", "cara"], options={"stock_size": 5})
    page.goto(f"{live_server.url}/replays/{game.id}/?step=40")
    at_step(page, 40)
    assert page.locator(".table.skipbo .building").count() == 4
    assert page.locator(".seat").count() == 3
    page.screenshot(path=str(artifacts / "skipbo-step.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(f"{live_server.url}/replays/{game.id}/?step=40&as=0")
    at_step(page, 40)
    # nothing wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=str(artifacts / "skipbo-step-phone.png"), full_page=True)


@pytest.mark.parametrize("width", [1280, 390])
def test_screenshots_desktop_and_phone(live_server, chromium, stored, artifacts, width):
    """The list and a Pablo step with a call and a winner, at desktop and phone width
    (looked at by a person: test-artifacts/viewer-*.png); nothing wider than the phone."""
    game, _ = stored("pablo", 3, seed=3, names=["ann", "ben", "cara"])
    replay = build_replay(str(game.id), game.version, game_events(game))
    called = next(n for n, label in replay.jumps if label.endswith("called"))
    context = chromium.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    page = context.new_page()
    try:
        name = "desktop" if width > 600 else "phone"
        page.goto(f"{live_server.url}/replays/")
        page.screenshot(path=str(artifacts / f"viewer-list-{name}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # the filters (ruleset, player, Filter) are targets a thumb can hit
        filters = page.eval_on_selector_all(
            ".filters select, .filters input, .filters button",
            "els => els.map(e => e.getBoundingClientRect().height)",
        )
        assert len(filters) == 3 and min(filters) >= 44, filters
        for label, query in (("call", f"?step={called + 1}"), ("end", f"?step={replay.last}")):
            page.goto(f"{live_server.url}/replays/{game.id}/{query}")
            page.wait_for_selector("#replay")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(artifacts / f"viewer-{label}-{name}.png"), full_page=True)
        # every icon is drawn: an SVG with a size, not an empty box of a missing glyph
        boxes = page.eval_on_selector_all(
            "svg.icon", "els => els.map(e => [e.getBBox().width, e.getBBox().height])"
        )
        assert boxes and all(w > 0 and h > 0 for w, h in boxes)
        heights = page.eval_on_selector_all(
            ".stepper a.btn", "els => els.map(e => e.getBoundingClientRect().height)"
        )
        assert heights and min(heights) >= 44
        # the slider's Go, "Rounds and calls", "As a table": 44 px too (they were 36 and 23)
        controls = page.eval_on_selector_all(
            ".slider button, .jumps > summary, .scores details > summary",
            "els => els.map(e => [e.innerText, e.getBoundingClientRect().height])",
        )
        assert len(controls) == 3 and all(h >= 44 for _, h in controls), controls
        # label in name (WCAG 2.5.3): the step buttons and the language switch say
        # their visible words ("prev" was named "Previous step", "EN" "English")
        for lang in ("en", "fr", "de"):
            page.set_extra_http_headers({"Accept-Language": lang})
            page.reload()
            page.add_script_tag(path=str(AXE))
            found = page.evaluate(
                """() => axe.run(['.stepper', 'form.languages'],
                    {runOnly: ['label-content-name-mismatch']})
                    .then(r => r.violations.flatMap(v => v.nodes.map(n => n.html)))"""
            )
            assert not found, (lang, found)
        # the totals "As a table" of a long game scroll in their own box, never the page
        # (at 390 px an 18-round Cabo game's table cut the page off at the right)
        page.evaluate("document.querySelectorAll('.scores details').forEach(d => d.open = true)")
        page.evaluate(
            "document.querySelectorAll('.score-table tr').forEach(tr => { for (let i = 0;"
            " i < 20; i++) tr.insertAdjacentHTML('beforeend', '<td>1000</td>'); })"
        )
        box = page.locator(".table-scroll")
        assert box.evaluate("e => e.getBoundingClientRect().right") <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(artifacts / f"viewer-table-{name}.png"), full_page=True)
        assert page.screenshot(full_page=True)[16:20] == width.to_bytes(4, "big")  # PNG width
    finally:
        context.close()
