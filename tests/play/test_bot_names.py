"""A house bot's name in the reader's language (``games.names.player_name``).

The username ("basic bot 1") is API data and stays; every page shows the bot in the
reader's words: the table (its players, "Last moves", the reveal), the lobby, the
history, the viewer with its charts and sentences, the player pages.
"""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from games.names import player_name, username_of
from games.selectors import games as game_selectors
from games.services import games as game_services
from games.turns.bots import play_stored_game

pytestmark = pytest.mark.django_db

WORDS = {"en": "basic bot 1", "fr": "bot simple 1", "de": "einfacher Bot 1"}


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_a_house_bot_is_named_in_the_readers_language(lang):
    with translation.override(lang):
        assert player_name("basic bot 1") == WORDS[lang]
        assert player_name("random bot 2") != "random bot 2" or lang == "en"
        assert player_name("expert bot 3").endswith(" 3")
        assert player_name("ann") == "ann"  # a person's name is never translated
        assert player_name("basic_bot_1") == "basic_bot_1"  # a person may take that one
        # the viewer's filter: a name as shown is the bot's username
        assert username_of(player_name("expert bot 3").upper()) == "expert bot 3"
        assert username_of("ann") == "ann"


def page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def test_no_page_says_basic_bot_to_a_french_or_german_reader():
    """Both languages read the same two games (played once: a whole bot game is most of
    the cost)."""
    game = play_stored_game("cabo", ["basic", "basic", "basic"], {}, rng=random.Random(5))
    person = get_user_model().objects.get(username="simulator")
    running = game_services.game_create(
        user=person,
        ruleset="cabo",
        seats=3,
        options={"start_seat": 0},
        bots=[{"seat": 1, "level": "basic"}, {"seat": 2, "level": "basic"}],
    )
    assert game_selectors.game_get(running.id).status == "active"
    last = game_selectors.game_get(game.id).version
    for lang in ("fr", "de"):
        client = Client(HTTP_ACCEPT_LANGUAGE=lang)
        client.force_login(person)
        paths = [
            "/",  # the lobby: the running game against two bots
            "/history/",
            f"/play/{running.id}/",
            f"/play/{game.id}/",  # over: the standings and the last round's reveal
            "/replays/",
            f"/replays/?player={WORDS[lang].replace(' ', '+')}",  # the filter takes it as shown
            f"/replays/{game.id}/",  # step 0 says who sits down; the totals chart's legend
            f"/replays/{game.id}/?step=5",
            f"/replays/{game.id}/?step=5&as=1",
            f"/replays/{game.id}/?step={last}",
        ]
        for path in paths:
            html = page(client, path)
            assert "basic bot" not in html, (lang, path)
            assert WORDS[lang] in html, (lang, path)
