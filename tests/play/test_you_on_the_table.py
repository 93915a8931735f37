"""The player reading at their own table is "you" everywhere on it (issue 29).

The boards, the reveal and the scores call the viewer "You"; the sentences of
"Last moves" (and so the live region, which says those sentences) must too:
"You drew from the deck", "Round 1 ends after the call: you +50, ben +3". The
replay viewer, read by anyone, keeps everyone's names.
"""

from __future__ import annotations

import html
import re

import pytest
from django.utils import translation

from games import rules
from tabletop.describe import describe
from tabletop.layouts import layout
from tests.fixtures import start_skipbo, user
from tests.play.test_reveal import cabo_after_round_one, client_for  # noqa: F401  (a fixture)
from tests.replays.games import engine_game

LANGUAGES = ("en", "fr", "de")
YOU = {"en": "You", "fr": "Toi", "de": "Du"}
OWN = re.compile(r"(You|Your|Timeout: your|Now it is your turn)\b")


def _said(t, reader: int | None, viewer: int | None) -> list[tuple[int | None, str]]:
    """Every sentence of ``t``'s events as ``viewer`` saw them, told to ``reader``."""
    names = [f"p{s}" for s in range(t.state.seats)]
    kind = layout(t.state.ruleset).cards
    out = []
    for event, data in zip(t.events, t.event_views(viewer), strict=True):
        for text in describe(
            event, data, names, kind, viewer=viewer, ruleset=t.state.ruleset, reader=reader
        ):
            out.append((event.seat, text))
    return out


@pytest.fixture(scope="module")
def games():
    """A whole game of each ruleset, random legal play, a turn let time out first."""
    return [engine_game(rs.id, seats=3, seed=7, timeouts=1) for rs in rules.rulesets()]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sentence_names_its_reader(games, lang):
    with translation.override(lang):
        for t in games:
            for seat in range(t.state.seats):
                name = re.compile(rf"(?<!\w)p{seat}(?!\w)")
                told = _said(t, seat, seat)
                named = [text for _, text in told if name.search(text)]
                assert not named, (t.state.ruleset, lang, seat, named[:5])
                # the player's own moves are said to them in the second person
                own = [text for actor, text in told if actor == seat]
                assert own, (t.state.ruleset, seat)
                assert all("%(" not in text for _, text in told)
                # and everyone else still reads their name (the viewer's words are
                # the same sentences, with a name instead of "you")
                others = _said(t, (seat + 1) % t.state.seats, seat)
                assert any(name.search(text) for _, text in others), (t.state.ruleset, seat)


def test_own_moves_start_with_you(games):
    """English: the sentences of the reader's own moves address them ("You drew ...")."""
    for t in games:
        with translation.override("en"):
            told = _said(t, 0, 0)
        own = [text for actor, text in told if actor == 0]
        wrong = [s for s in own if not OWN.match(s)]
        assert not wrong, (t.state.ruleset, wrong[:5])


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment)))


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_after_a_round_calls_the_viewer_you(cabo_after_round_one, lang):  # noqa: F811
    game, users = cabo_after_round_one
    page = client_for(users[0]).get(f"/play/{game.id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    table = page[page.index('<div id="table"') :]
    log = re.search(r'<section class="log".*?</section>', table, re.S)
    scores = re.search(r'<section class="scores".*?</section>', table, re.S)
    reveal = re.search(r'<section class="reveal".*?</section>', table, re.S)
    assert log and scores and reveal
    ann = re.compile(r"(?<!\w)ann(?!\w)")
    for part in (log, scores, reveal):
        assert not ann.search(_text(part.group(0))), (lang, _text(part.group(0)))
    # ann's round: +50 (a failed call, RULES.md); the others by their names
    you = {"en": "you", "fr": "toi", "de": "du"}[lang]
    assert re.search(rf"(?<!\w){you} \+50\b", _text(log.group(0))), _text(log.group(0))
    assert "ben" in _text(log.group(0))
    assert f">{YOU[lang]}<" in scores.group(0) and f">{YOU[lang]}<" in reveal.group(0)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_calls_the_viewer_you_in_their_games(lang):
    """The lobby's rows name the players of each game: the reader is "You" there too."""
    ann, ben, cara = user("ann"), user("ben"), user("cara")
    start_skipbo(ann, ben)  # ann's move
    start_skipbo(ben, ann)  # ben's move
    start_skipbo(ben, cara)  # not ann's: named as it is
    page = client_for(ann).get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    rows = [_text(r).strip() for r in re.findall(r"<span class=\"g-pl\">.*?</span>", page)]
    assert sorted(rows) == sorted([f"{YOU[lang]}, ben", f"ben, {YOU[lang]}"]), rows


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_callers_badge_beside_you_is_no_third_person_verb(cabo_after_round_one, lang):  # noqa: F811
    """The reveal's badge beside the caller read "Du hat angesagt" and "Toi a annoncé"
    on the caller's own table: a badge, like "won the round", is a word that fits
    beside any name, "you" included."""
    game, users = cabo_after_round_one
    page = client_for(users[0]).get(f"/play/{game.id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    reveal = re.search(r'<section class="reveal".*?</section>', page, re.S).group(0)
    heading = next(h for h in re.findall(r"<h3>.*?</h3>", reveal, re.S) if "badge call" in h)
    said = _text(heading).strip()
    assert said.startswith(f"{YOU[lang]} "), said  # ann called: her own heading
    assert not re.search(r"(?<!\w)(hat|a|has)(?!\w)", said), said
