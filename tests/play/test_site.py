"""The lobby, the table's pages and the viewer are one site (templates/base.html); a
player's own history page; the lobby's lists as a fragment for its script."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.services import accounts as account_services
from games.services import games as game_services
from tests.fixtures import SKIPBO_QUICK, SKIPBO_QUICK_OPTIONS

pytestmark = pytest.mark.django_db

PAGES = ["/", "/accounts/login/", "/replays/"]


def _chrome(html: str) -> tuple[str, str]:
    header = re.search(r'<header class="site">.*?</header>', html, re.S)
    footer = re.search(r'<footer class="site">.*?</footer>', html, re.S)
    assert header and footer
    # the log-out form's CSRF token is masked afresh on every page
    plain = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", header.group(0))
    return plain, footer.group(0)


@pytest.mark.parametrize("signed_in", [False, True])
def test_every_page_has_the_same_header_navigation_and_footer(client, django_user_model, signed_in):
    if signed_in:
        client.force_login(django_user_model.objects.create_user("ann", password="pw"))
    chrome = set()
    for path in PAGES:
        response = client.get(path)
        assert response.status_code == 200, path
        html = response.content.decode()
        assert "tabletop/site.css" in html
        chrome.add(_chrome(html))
    assert len(chrome) == 1
    (header, footer) = chrome.pop()
    # in a player's words (issue 28: "on an immutable event log" was jargon)
    assert "immutable" not in footer and "event log" not in footer, footer
    for link in ("Lobby", "Replays"):
        assert f">{link}</a>" in header
    assert ("Log out ann" in header) if signed_in else (">Log in</a>" in header)


def user(name):
    return account_services.user_register(username=name, password="secret-pw-1")[0]


def chrome_of(html: str) -> tuple[str, str]:
    header = re.search(r'<header class="site">.*?</header>', html, re.S)
    footer = re.search(r'<footer class="site">.*?</footer>', html, re.S)
    assert header and footer
    strip = r'( aria-current="page"|\?next=[^"]*|name="csrfmiddlewaretoken" value="[^"]*")'
    return re.sub(strip, "", header.group(0)), footer.group(0)


def finished_skipbo(ann, ben):
    game = game_services.game_create(
        user=ann, ruleset="skipbo", seats=2, options=SKIPBO_QUICK_OPTIONS, decks=[SKIPBO_QUICK]
    )
    game_services.game_join(game_id=game.id, user=ben)
    for _ in range(5):
        game_services.game_act(
            game_id=game.id, user=ann, command={"type": "play", "from": "stock", "pile": 0}
        )
    return game


@pytest.mark.parametrize("signed_in", [True, False])
def test_viewer_lobby_and_table_share_header_nav_and_footer(signed_in):
    ann, ben = user("ann"), user("ben")
    game = finished_skipbo(ann, ben)
    client = Client()
    if signed_in:
        client.force_login(ann)
    pages = ["/", f"/play/{game.id}/", "/replays/", f"/replays/{game.id}/"]
    if signed_in:
        pages.append("/history/")
    seen = {url: chrome_of(client.get(url).content.decode()) for url in pages}
    first = seen["/"]
    for url, parts in seen.items():
        assert parts == first, url
    header = first[0]
    assert ">Lobby</a>" in header and ">Replays</a>" in header
    if signed_in:
        assert "Log out ann" in header and ">Your history</a>" in header
    else:
        assert ">Log in</a>" in header and "Your history" not in header


def test_history_lists_finished_games_with_result_rank_and_score():
    ann, ben = user("ann"), user("ben")
    game = finished_skipbo(ann, ben)
    for who, result, rank in ((ann, "won", "1st of 2"), (ben, "", "2nd of 2")):
        client = Client()
        client.force_login(who)
        html = client.get("/history/").content.decode()
        assert f'href="/replays/{game.id}/"' in html
        assert result in html and rank in html
        assert "Skip-Bo" in html  # per ruleset
    assert Client().get("/history/").status_code == 302  # log in first


@pytest.mark.parametrize(("lang", "average"), [("en", "1.5"), ("fr", "1,5"), ("de", "1,5")])
def test_the_historys_averages_are_written_in_the_readers_numbers(lang, average):
    """The history's average was "1.5 cartes restantes au talon" on a French page (the
    player page, beside it, said "1,5")."""
    from django.utils import translation

    from play.history import summary

    rows = [
        {"ruleset": "skipbo", "rank": rank, "score": score, "won": rank == 1, "lost": False}
        for rank, score in ((2, 3), (1, 0))
    ]
    with translation.override(lang):
        (skipbo,) = summary(rows)
    assert skipbo["average"].startswith(f"{average} "), skipbo["average"]
    with translation.override(lang):
        (whole,) = summary(rows[:1])
    assert whole["average"].startswith("3 "), whole["average"]  # no "3.0"


def test_the_lobby_lists_come_as_a_fragment_for_the_script():
    ann, ben = user("ann"), user("ben")
    client = Client()
    client.force_login(ben)
    game = game_services.game_create(user=ann, ruleset="cabo", seats=2)
    html = client.get("/?partial=1").content.decode()
    assert html.lstrip().startswith('<section class="games" id="lists"')
    assert f'data-join="{game.id}"' in html
    assert "<header" not in html


def test_a_shared_place_says_so_in_the_history():
    """Two players tied for the first place both read "1st of 3, shared"; the third
    "3rd of 3" (the places skip after a tie)."""
    from play.history import _row

    players = [
        {"seat": s, "username": name, "bot": None, "score": score, "rank": rank}
        for s, (name, score, rank) in enumerate((("ann", 4, 1), ("ben", 4, 1), ("cid", 9, 3)))
    ]
    row = {"id": "x", "ruleset": "cabo", "finished_at": None, "seats": 3, "result": "won"}
    words = [
        _row(
            {**row, "you": p["seat"], "rank": p["rank"], "score": p["score"], "players": players},
            [],
        )["rank_words"]
        for p in players
    ]
    assert words == ["1st of 3, shared", "1st of 3, shared", "3rd of 3"]
