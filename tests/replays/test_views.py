"""The viewer's pages through the Django test client, on games stored as rows.

Template tests: every event type of every ruleset is rendered (all cards and a
seat's view) and its sentence is on the page; a seat's view never carries the
code of a card that seat did not know.
"""

from __future__ import annotations

import re
import uuid
from html import unescape
from pathlib import Path

import pytest

from games import rules
from games.models import Game
from replays.steps import build_replay, table_views
from tabletop import describe as words
from tabletop.cards import card_name, card_short, words_html
from tests.replays.describe_cases import ALL_EVENTS, SEEDS
from tests.replays.games import engine_game, store

pytestmark = pytest.mark.django_db

RULESETS = ["pablo", "pablo-50", "tamalou", "cabo", "skipbo"]


def url(game, step=None, seat=None):
    params = []
    if step is not None:
        params.append(f"step={step}")
    if seat is not None:
        params.append(f"as={seat}")
    return f"/replays/{game.id}/" + ("?" + "&".join(params) if params else "")


def text_of(response) -> str:
    return unescape(response.content.decode())


# --------------------------------------------------------------------------- the list


def test_list_shows_finished_and_aborted_games_only(client, stored):
    finished, _ = stored("cabo", 2, seed=1)
    aborted, _ = stored("pablo", 2, seed=1, options={"max_timeouts": 1}, timeouts=1)
    running = store(engine_game("pablo", 2, seed=1, max_actions=3).events)
    assert aborted.status == "aborted" and running.status == "active"
    page = text_of(client.get("/replays/"))
    assert str(finished.id) in page
    assert str(aborted.id) in page and "aborted" in page
    assert str(running.id) not in page
    # players and winners by name (the winner is bold)
    names = [s.user.username for s in finished.seat_set.all()]
    assert all(n in page for n in names)
    winner = names[finished.result["winners"][0]]
    assert f'class="player winner">{winner}<' in page


def test_list_filters_by_ruleset_and_player(client, stored):
    cabo, _ = stored("cabo", 2, seed=1, names=["ann", "ben"])
    skipbo, _ = stored("skipbo", 2, seed=1, names=["cara", "dan"], options={"stock_size": 5})
    page = text_of(client.get("/replays/?ruleset=cabo"))
    assert str(cabo.id) in page and str(skipbo.id) not in page
    page = text_of(client.get("/replays/?player=Dan"))
    assert str(skipbo.id) in page and str(cabo.id) not in page
    page = text_of(client.get("/replays/?player=nobody"))
    assert "No finished games match these filters" in page


def test_list_is_paginated_by_twenty(client, stored):
    _, t = stored("pablo", 2, seed=1, options={"max_timeouts": 1}, timeouts=1)  # short
    for _ in range(21):
        store(t.events)
    first = text_of(client.get("/replays/"))
    assert first.count('class="game-link"') == 20
    assert "page 1 of 2" in first and "page=2" in first
    second = text_of(client.get("/replays/?page=2"))
    assert second.count('class="game-link"') == 2


# --------------------------------------------------------------------------- 404s


def test_running_or_unknown_games_are_404_and_leak_nothing(client):
    t = engine_game("pablo", 2, seed=1, max_actions=3)
    running = store(t.events)
    for target in (running.id, uuid.uuid4()):
        response = client.get(f"/replays/{target}/?step=1&as=0")
        assert response.status_code == 404
        # (the header's language form carries a random CSRF token: not the page's words)
        body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())
        assert "p0" not in body and "p1" not in body
    assert client.get("/replays/not-a-uuid/").status_code == 404


def test_waiting_game_is_404(client):
    events = rules.create("cabo", seats=2, options={}, turn_timeout=60, creator="ann")
    game = store(events)
    assert game.status == Game.Status.WAITING
    assert client.get(url(game)).status_code == 404


# --------------------------------------------------------------------------- one step


def test_step_parameters_are_clamped(client, stored):
    game, _ = stored("cabo", 2, seed=1)
    replay = build_replay(str(game.id), game.version, list(_events(game)))
    last = replay.last
    assert f"<strong>Step {last}</strong> of {last}" in text_of(client.get(url(game, 10**6)))
    assert "<strong>Step 0</strong>" in text_of(client.get(url(game, -3)))
    assert "<strong>Step 0</strong>" in text_of(client.get(url(game) + "?step=x&as=9"))


def _events(game):
    from games.selectors.games import game_events

    return game_events(game)


def test_navigation_links_are_plain_links_with_shareable_urls(client, stored):
    game, _ = stored("pablo", 3, seed=2)
    page = text_of(client.get(url(game, 5, 1)))
    assert 'href="?step=0&as=1"' in page  # first
    assert 'href="?step=4&as=1"' in page  # previous
    assert 'href="?step=6&as=1"' in page  # next
    assert 'href="?step=5"' in page  # the same step, all cards
    assert '<input id="step-slider" type="range" name="step"' in page
    assert '<input type="hidden" name="as" value="1">' in page
    assert "Round 1" in page


def test_pablo_step_draws_the_whole_table(client):
    # Stacked: ann 5H 6H 7H 8H, ben 2S 3S 4S 5S; KD turned up; the draw pile 7C 9D ...
    deck = ["5H", "6H", "7H", "8H", "2S", "3S", "4S", "5S", "KD", "7C", "9D"]
    from tests.rules.table import Table

    t = Table("pablo", seats=2, options={"start_seat": 0, "max_timeouts": 1}, decks=[deck])
    t.act(0, {"type": "look", "positions": [0, 1]})
    t.act(1, {"type": "look", "positions": [2, 3]})
    t.act(0, {"type": "draw", "source": "deck"})
    _finish(t)
    game = store(t.events, names=["ann", "ben"])
    # step 0 deal, 1 ann looks, 2 ben looks (+ ann's turn), 3 ann draws 7C
    page = client.get(url(game, 3)).content.decode()
    assert words_html("ann drew 7♣ from the deck.") in page  # the suit drawn as SVG
    for code in ("5H", "6H", "7H", "8H", "2S", "3S", "4S", "5S", "KD"):
        assert f'data-code="{code}"' in page  # all cards face up
    assert 'data-code="7C"' in page and "holds" in page  # the held card
    assert "43 cards" in page  # draw pile: 53 - 8 dealt - 1 (KD) - 1 (7C, held) = 43
    assert "1 card<" in page  # the discard pile holds KD
    assert "on turn" in page and "holding a card" in page
    # ann acted; she knows 5H, 6H (looked) and 7C (holds it) but not 7H, 8H, nor ben's cards
    assert 'aria-label="7 of hearts (not known to ann)"' in page
    assert 'aria-label="5 of hearts (not known to ann)"' not in page
    assert 'aria-label="2 of spades (not known to ann)"' in page
    assert 'aria-label="7 of clubs (not known to ann)"' not in page
    # ben's eyes: his slots 2 and 3 (4S, 5S), the discard top; ann's held 7C is hidden
    page = client.get(url(game, 3, 1)).content.decode()
    for code in ("4S", "5S", "KD"):
        assert f'data-code="{code}"' in page
    for code in ("5H", "6H", "7H", "8H", "2S", "3S", "7C"):
        assert f'data-code="{code}"' not in page
        assert card_name(code, "french") not in page
        assert words_html(card_short(code, "french")) not in page
    assert "ann drew from the deck." in page


def _finish(t):
    """End the game so that it can be viewed: everyone times out until aborted."""
    before = len(t.events)
    while t.state.status == "active":
        t.timeout()
    return t.events[before:]


# --------------------------------------------------------------------------- every event type


def _games(ruleset):
    """A few played games of ``ruleset`` that together emit its event types."""
    opts = {"stock_size": 5} if ruleset == "skipbo" else {}
    out = [engine_game(ruleset, 3, seed=s, options=opts) for s in SEEDS[ruleset]]
    # one timeout, then play on: turn_timed_out, later player_returned
    out.append(engine_game(ruleset, 2, seed=4, options=opts, timeouts=1))
    # every player absent: player_absent, game_aborted
    out.append(engine_game(ruleset, 2, seed=4, options={**opts, "max_timeouts": 1}, timeouts=2))
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_event_type_renders_in_both_views(client, ruleset):
    seen: set[str] = set()
    for t in _games(ruleset):
        game = store(t.events, names=["ann", "ben", "cara"][: t.state.seats])
        replay = build_replay(str(game.id), game.version, _events(game))
        by_event = {}
        for step in replay.steps:
            for i in range(step.main if step.main is not None else 0, step.event_index + 1):
                by_event.setdefault(t.events[i].type, step)
        for kind, step in by_event.items():
            if kind in seen:
                continue
            seen.add(kind)
            for seat in (None, 1):
                page = text_of(client.get(url(game, step.number, seat)))
                for sentence in replay.sentences(seat, step.number, step.number)[0]:
                    assert unescape(words_html(sentence)) in page, (kind, seat, sentence)
    expected = ALL_EVENTS[ruleset]
    assert expected <= seen | set(words.PRE_PLAY) - {"round_started"} | {"deadline_set"}, (
        expected - seen
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_seat_view_never_carries_a_card_it_did_not_know(client, ruleset):
    opts = {"stock_size": 5} if ruleset == "skipbo" else {}
    t = engine_game(ruleset, 3, seed=7, options=opts)
    game = store(t.events)
    replay = build_replay(str(game.id), game.version, t.events)
    kind = replay.kind
    checked = 0
    for number in range(1, min(replay.last, 40)):
        step = replay.steps[number]
        if any("round" in s.tags for s in replay.steps[max(1, number - 13) : number + 1]):
            continue  # the timeline may name a card of the last round
        god, _, _ = table_views(replay, step, None)
        for seat in range(3):
            mine, _, _ = table_views(replay, step, seat)
            hidden = _hidden(god, mine, seat)
            if not hidden:
                continue
            html = client.get(url(game, number, seat)).content.decode()
            for code in hidden:
                assert f'data-code="{code}"' not in html, (number, seat, code)
                if kind == "french":
                    assert words_html(card_short(code, kind)) not in html, (number, seat, code)
                    assert card_name(code, kind) not in html, (number, seat, code)
            checked += 1
    assert checked >= 5


def _hidden(god, mine, seat):
    """Codes the all-cards table shows where ``seat``'s own view shows a face-down card."""
    out = set()
    for key, slots in (god.get("fields") or {}).items():
        theirs = (mine.get("fields") or {}).get(key) or []
        for pos, code in enumerate(slots):
            if code not in (None, "?") and pos < len(theirs) and theirs[pos] == "?":
                out.add(code)
    for key, hand in (god.get("hands") or {}).items():
        if int(key) != seat:
            out.update(hand)
    known = set()
    for slots in (mine.get("fields") or {}).values():
        known.update(c for c in slots if c not in (None, "?"))
    known.update(mine.get("hand") or [])
    for key in ("discard",):
        if (mine.get(key) or {}).get("top"):
            known.add(mine[key]["top"])
    if mine.get("held"):
        known.add(mine["held"])
    for piles in (mine.get("discards") or {}).values():
        for pile in piles:
            known.update(pile)
    for st in (mine.get("stock") or {}).values():
        if st.get("top"):
            known.add(st["top"])
    for pile in mine.get("building") or []:
        if pile and pile.get("top"):
            known.add(pile["top"])
    return out - known  # equal codes that the seat does see (two 7s in Cabo) can't be told apart


# --------------------------------------------------------------------------- no symbol font

#: Unicode blocks whose characters need an emoji or symbol font: arrows, technical
#: symbols (⏮), enclosed alphanumerics, geometric shapes (◀), miscellaneous symbols
#: (♠ ★), dingbats, supplemental arrows and symbols, variation selectors, emoji (🏆).
SYMBOL_BLOCKS = [
    (0x2190, 0x21FF),
    (0x2300, 0x23FF),
    (0x2460, 0x24FF),
    (0x25A0, 0x27BF),
    (0x27F0, 0x27FF),
    (0x2900, 0x2BFF),
    (0xFE00, 0xFE0F),
    (0x1F000, 0x1FAFF),
]


def symbols_in(html: str) -> set[str]:
    return {c for c in html if any(lo <= ord(c) <= hi for lo, hi in SYMBOL_BLOCKS)}


def test_the_check_finds_symbols():
    assert symbols_in("⏮ ⏭ 🏆 📣 ♠ ◀ → ★ ✓") == set("⏮⏭🏆📣♠◀→★✓")
    assert symbols_in("ann drew a card — 7 of hearts… · é") == set()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_page_needs_a_symbol_font(client, stored, ruleset):
    game, _ = stored(ruleset, 3, seed=2, options={"stock_size": 5} if ruleset == "skipbo" else {})
    replay = build_replay(str(game.id), game.version, list(_events(game)))
    numbers = {0, 1, replay.last // 2, replay.last, *(n for n, _ in replay.jumps)}
    pages = [client.get("/replays/"), client.get("/replays/?page=2")]
    for number in sorted(numbers):
        for seat in (None, 0):
            pages.append(client.get(url(game, number, seat)))
    for response in pages:
        assert response.status_code == 200
        html = unescape(response.content.decode())
        assert not symbols_in(html), (response.request["QUERY_STRING"], symbols_in(html))
    # the pages did show what the symbols used to: suits, the trophy, the stepper's icons
    html = pages[-1].content.decode()
    assert 'class="icon icon-last"' in html and 'class="icon icon-trophy"' in html


def test_the_card_tags_draw_the_viewers_cards():
    """The web table draws cards with the same renderer (replays/templatetags/cards.py)."""
    from django.template import Context, Template

    from tabletop.cards import card_html

    html = Template(
        "{% load cards %}{% card code kind %}|{% card '?' kind %}|{% card None kind %}|"
        "{% card '7' 'cabo' size='held' %}|{{ said|card_words }}|{% icon 'trophy' label='won' %}"
    ).render(Context({"code": "7H", "kind": "french", "said": "ann drew 7♣ <b>"}))
    face, back, empty, cabo, said, trophy = html.split("|")
    assert face == card_html("7H", "french") and 'aria-label="7 of hearts"' in face
    assert back == card_html("?", "french") and 'aria-label="face-down card"' in back
    assert 'aria-label="empty slot"' in empty and "card-held" in cabo
    assert said == words_html("ann drew 7♣ <b>") and "&lt;b&gt;" in said
    assert 'aria-label="clubs"' in said and "♣" not in said
    assert 'role="img" aria-label="won"' in trophy


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "start one in the lobby"), ("fr", "lance-en une dans le salon"), ("de", "starte eine")],
)
def test_an_empty_list_sends_a_player_to_the_lobby_not_to_a_command(client, lang, words):
    """With no finished game the list spoke of ``python manage.py demo``, a developer's
    command, to players; it points to the lobby now, in the reader's language."""
    page = client.get("/replays/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert "manage.py" not in page
    assert f'<a href="/">{words}' in page


def test_times_are_in_the_readers_timezone_and_say_which(client, stored):
    """A signed-in reader whose account names a timezone sees the list's and the
    viewer's times in it; anyone else in UTC; either way the zone is named."""
    from datetime import UTC, datetime

    from django.contrib.auth import get_user_model

    from games.services import notifications as notification_services

    game, _ = stored("cabo", 2, seed=1)
    Game.objects.filter(pk=game.pk).update(finished_at=datetime(2026, 1, 15, 23, 30, tzinfo=UTC))
    reader = get_user_model().objects.create_user("tz_reader", password="x" * 12)
    notification_services.notification_settings_update(user=reader, timezone="Asia/Tokyo")
    signed_out = client.get("/replays/").content.decode()
    assert 'datetime="2026-01-15T23:30:00+00:00">Jan. 15, 2026, 11:30 p.m. UTC<' in signed_out
    client.force_login(reader)
    for path in ("/replays/", f"/replays/{game.id}/"):
        page = client.get(path).content.decode()
        assert "Jan. 16, 2026, 8:30 a.m. JST<" in page, path


def test_a_timezone_changed_elsewhere_reaches_a_signed_in_browser_at_once(client, stored):
    """The pages' timezone was read once per session and refreshed only by the account
    page of that browser: set through ``PATCH /api/me/notifications/`` (a program, or
    another device), an open session kept showing the old zone until it ended."""
    from datetime import UTC, datetime

    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    game, _ = stored("cabo", 2, seed=1)
    Game.objects.filter(pk=game.pk).update(finished_at=datetime(2026, 1, 15, 23, 30, tzinfo=UTC))
    reader = get_user_model().objects.create_user("tz_mover", password="x" * 12)
    client.force_login(reader)
    assert "Jan. 15, 2026, 11:30 p.m. UTC<" in client.get("/replays/").content.decode()
    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=reader).key}")
    for zone, shown in (
        ("Asia/Tokyo", "Jan. 16, 2026, 8:30 a.m. JST<"),
        ("America/New_York", "Jan. 15, 2026, 6:30 p.m. EST<"),
    ):
        answer = program.patch("/api/me/notifications/", {"timezone": zone}, format="json")
        assert answer.status_code == 200 and answer.json()["timezone"] == zone
        assert shown in client.get(f"/replays/{game.id}/").content.decode(), zone


def test_the_pages_and_the_settings_work_without_a_cache(client, stored, monkeypatch):
    """The pages' timezone is cached; a cache that is away (Redis down) must neither
    fail a page nor a change of the settings: the database answers."""
    from django.contrib.auth import get_user_model
    from django.core.cache import caches

    from games.services import notifications as notification_services

    def away(*args, **kwargs):
        raise ConnectionError("the cache is away")

    game, _ = stored("cabo", 2, seed=1)
    reader = get_user_model().objects.create_user("tz_nocache", password="x" * 12)
    client.force_login(reader)
    for name in ("get", "set", "delete"):
        monkeypatch.setattr(type(caches["default"]), name, away)
    notification_services.notification_settings_update(user=reader, timezone="Asia/Tokyo")
    assert " JST<" in client.get(f"/replays/{game.id}/").content.decode()


@pytest.mark.parametrize(
    "lang, said",
    [("en", ["1 point<", "0 points<", "2 points<"]), ("fr", ["1 point<", "0 point<", "2 points<"])],
)
def test_the_analysis_counts_points_in_the_singular_and_the_plural(client, stored, lang, said):
    """The analysis's "Lost" column said "1 points" (French "1 points", "0 points")."""
    from games.bots.analysis import ANALYSER
    from games.models import GameAnalysis

    game, _ = stored("cabo", 3, seed=4)
    players = [
        {"seat": s, "loss": loss, "inaccuracy": 0, "mistake": 0, "blunder": 0, "decisions": 5}
        for s, loss in enumerate((1.0, 0.2, 2.4))
    ]
    GameAnalysis.objects.create(
        game=game,
        analyser=ANALYSER,
        status=GameAnalysis.Status.DONE,
        progress=1.0,
        result={"analyser": ANALYSER, "decisions": [], "players": players},
    )
    page = client.get(f"/replays/{game.id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    cells = re.findall(r"<td>([^<]*points?)</td>", page)
    assert [c + "<" for c in cells] == said, cells


def test_a_cards_rank_and_suit_stay_on_one_line():
    """ "You looked at your slots 0 and 1: A♣ and 2 / ♣." -- a line broke between a
    rank and its suit's image."""
    html = str(words_html("You looked at your slots 0 and 1: A♣ and 10♦."))
    spans = re.findall(r'<span class="nowrap">(\w+)<svg[^>]*>.*?</svg></span>', html)
    assert spans == ["A", "10"], html
    assert html.startswith("You looked at your slots 0 and 1: <span") and html.endswith("</span>.")
    css = (Path(__file__).parents[2] / "tabletop/static/tabletop/site.css").read_text()
    assert re.search(r"\.nowrap\s*\{[^}]*white-space:\s*nowrap", css)
