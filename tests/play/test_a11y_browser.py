"""WCAG 2.2 AA, checked by a machine: axe-core in Chromium on every page a player meets.

axe-core is vendored as a test asset (tests/assets/axe.min.js, from npm's
``axe-core``; never fetched at run time) and injected into each page (the
context bypasses the site's CSP for that one script). A serious or critical
violation of the ``wcag2a``, ``wcag2aa``, ``wcag21a``, ``wcag21aa`` or ``wcag22aa`` rules
(WCAG 2.2 AA holds 2.1's level A: label in name, 2.5.3, among them) fails
the test: the welcome page, sign-up, the lobby with its create forms, each
ruleset's table mid-round and at the reveal (Skip-Bo: mid-game and over), the
viewer with an analysis, the replays and the history, a player's page (two
rulesets' charts), the leaderboard and the API reference (/api/docs/), at
desktop size and 390 px wide, in English, French and German. Every folded part
is opened first, the phone's menu included: what it shows must push the page
down, never cover a target.
No page scrolls sideways at 390 px in any of the three languages.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.conf import settings

from games import rules
from games.bots.play import chooser
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import analysis as analysis_services
from games.services import games as game_services
from games.turns.bots import play_stored_game
from tests.play.test_browser import DESKTOP, PASSWORD, PHONE, PLANS, choose
from tests.play.test_reveal import play_until_round_ends
from tests.ratings.conftest import follow

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(ON_SQLITE, reason="needs PostgreSQL: SQLite cannot flush the event table"),
    pytest.mark.timeout(900),
]

AXE = Path(__file__).resolve().parent.parent / "assets" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
FAMILY = ("pablo", "pablo-50", "tamalou", "cabo")


def violations(page) -> list[tuple]:
    """axe-core's serious and critical violations of the page: (rule, impact, first nodes)."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})
            .then(r => r.violations.map(v => [v.id, v.impact,
                v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + n.failureSummary)]))""",
        TAGS,
    )
    return [tuple(v) for v in found if v[1] in ("serious", "critical")]


def browse(chromium, url: str, viewport: dict, lang: str, login: str | None = None):
    context = chromium.new_context(
        viewport=viewport, bypass_csp=True, extra_http_headers={"Accept-Language": lang}
    )
    page = context.new_page()
    if login:
        page.goto(f"{url}/accounts/login/")
        page.fill("#id_username", login)
        page.fill("#id_password", PASSWORD)
        page.click("form.stack button[type=submit]")
        page.wait_for_url(f"{url}/")
    return context, page


def user(name):
    return account_services.user_register(username=name, password=PASSWORD)[0]


def family_game(ruleset: str, users, *, reveal: bool):
    plan = PLANS[ruleset]
    seats = plan["seats"]
    game = game_services.game_create(
        user=users[0],
        ruleset=ruleset,
        seats=seats,
        options={"start_seat": 0, **plan["options"]},
        decks=plan["decks"],
    )
    for u in users[1:seats]:
        game_services.game_join(game_id=game.id, user=u)
    if reveal:
        play_until_round_ends(game, users[:seats], plan)
    else:  # the looks and a draw: a card held mid-round
        for _ in range(seats + 1):
            current = game_selectors.game_get(game.id)
            for seat, u in enumerate(users[:seats]):
                body = choose(game_selectors.game_data(game=current, user=u)["state"], seat, plan)
                if body is not None:
                    game_services.game_act(game_id=game.id, user=u, command=body)
                    break
    return game


def rated_game(ruleset: str, users, options: dict, seed: int):
    """A rated game between people played to its end by the basic bot's choices."""
    game = game_services.game_create(
        user=users[0], ruleset=ruleset, seats=len(users), options=options
    )
    for u in users[1:]:
        game_services.game_join(game_id=game.id, user=u)
    choose, rng = chooser("basic", ruleset), random.Random(seed)
    for _ in range(3000):
        state = game_selectors.game_state(game=game_selectors.game_get(game.id))
        if state.status != "active":
            return game
        seat = rules.get_ruleset(ruleset).actors(state)[0]
        game_services.game_act(game_id=game.id, user=users[seat], command=choose(state, seat, rng))
    raise AssertionError("the game did not end")


def test_no_serious_violation_on_any_page(live_server, chromium, artifacts, settings):
    settings.PABLO_ANALYSIS_ITERATIONS = 4
    settings.PABLO_LEADERBOARD_MIN_GAMES = 2
    users = [user(n) for n in ("ann", "ben", "cara")]
    for seed in range(2):  # ann's page: two rulesets, each with its chart; the leaderboard
        skipbo_over = rated_game("skipbo", users[:2], {"stock_size": 5}, seed)
        rated_game("cabo", users[:2], {}, seed)
    follow()
    tables = []
    for ruleset in FAMILY:
        tables.append(family_game(ruleset, users, reveal=False))
        tables.append(family_game(ruleset, users, reveal=True))
    skipbo = game_services.game_create(
        user=users[0], ruleset="skipbo", seats=2, options={"stock_size": 5, "start_seat": 0}
    )
    game_services.game_join(game_id=skipbo.id, user=users[1])
    tables.append(skipbo)
    tables.append(skipbo_over)  # Skip-Bo has no rounds: its end is its reveal
    finished = play_stored_game("cabo", ["basic", "basic"], {}, rng=random.Random(3))
    analysis = analysis_services.analysis_request(game=finished, user=users[0])
    analysis_services.analysis_run(analysis_id=analysis.pk)
    signed_out = ["/", "/accounts/signup/", "/accounts/login/", "/api/docs/"]
    signed_in = ["/", "/history/", "/replays/", f"/replays/{finished.id}/?step=40"]
    signed_in += ["/players/ann/", "/ratings/?ruleset=skipbo"]
    signed_in += [f"/play/{t.id}/" for t in tables] + [f"/play/{skipbo.id}/?sel=st"]
    # what a person looks at in French and German at 390 px (test-artifacts/)
    shots = {"/": "lobby", f"/play/{tables[0].id}/": "table", signed_in[3]: "viewer"}
    shots |= {"/players/ann/": "player", "/ratings/?ruleset=skipbo": "leaderboard"}
    shots |= {"/api/docs/": "api-docs"}
    found = {}
    wide = {}  # no sideways scroll at 390 px, the longest German words included
    narrow = {}  # the header as wide as the window
    for lang, viewport in (("en", DESKTOP), ("en", PHONE), ("fr", PHONE), ("de", PHONE)):
        for login, paths in ((None, signed_out), ("ann", signed_in)):
            context, page = browse(chromium, live_server.url, viewport, lang, login)
            try:
                for path in paths:
                    page.goto(live_server.url + path)
                    # the create forms and every folded part are checked open
                    page.evaluate(
                        "document.querySelectorAll('details').forEach(d => d.open = true)"
                    )
                    bad = violations(page)
                    if bad:
                        found[(lang, viewport["width"], path)] = bad
                    width = page.evaluate("document.documentElement.scrollWidth")
                    if width > viewport["width"]:
                        wide[(lang, viewport["width"], path)] = width
                    # the site's header spans the window on every page (a page's own
                    # class once narrowed the whole <body>, header and all)
                    header = page.evaluate("document.querySelector('header').offsetWidth")
                    if header != viewport["width"]:
                        narrow[(lang, viewport["width"], path)] = header
                    shot = shots.get(path)
                    if shot and lang != "en":
                        page.screenshot(  # the API reference's first screen: it is long
                            path=str(artifacts / f"{shot}-{lang}-phone.png"),
                            full_page=shot != "api-docs",
                        )
            finally:
                context.close()
    assert not found, summary(found)
    assert not wide, wide
    assert not narrow, narrow


def summary(found: dict) -> str:
    """Each violated rule once, with the pages and elements it was found on."""
    rules: dict[str, set[str]] = {}
    for (lang, width, path), bad in found.items():
        for rule, impact, nodes in bad:
            for node in nodes:
                rules.setdefault(f"{rule} ({impact})", set()).add(
                    f"{lang} {width} {path}: {node.splitlines()[0]}"
                )
    return "\n".join(
        f"{rule}:\n  " + "\n  ".join(sorted(where)[:8]) for rule, where in sorted(rules.items())
    )
