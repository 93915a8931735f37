"""attack6: the kamikaze sentence with names made of HTML and format characters, for a
player, the kamikaze and a non-player; the API and the replay carry ``kamikaze``."""

from __future__ import annotations

import re

import pytest

from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import games as game_services
from play import reveal
from tests.play.test_browser import PLANS
from tests.play.test_reveal import client_for, play_until_round_ends

pytestmark = pytest.mark.django_db


def test_the_sentence_keeps_format_and_html_characters_as_written():
    shown = {
        "round": 1,
        "calls": [{"seat": 0, "succeeded": False}],
        "scores": {"0": 50},
        "kamikaze": 1,
    }
    names = ["%(name)s", "<b>%(name)s%%</b>"]
    built = reveal.build(shown, names, None, "cabo", "cabo", "Cabo", None)
    assert built["call"].endswith(
        "<b>%(name)s%%</b> held 12, 12, 13 and 13, a kamikaze: <b>%(name)s%%</b> scores 0 "
        "and everyone else 50."
    ), built["call"]
    assert built["call"].startswith("%(name)s called Cabo")


def test_html_names_are_escaped_on_the_table_and_the_reveal_reaches_api_and_strangers():
    plan = PLANS["cabo"]
    names = ["ann", "<b>ben</b>", "cara"]
    users = [account_services.user_without_login(username=n) for n in names]
    game = game_services.game_create(
        user=users[0], ruleset="cabo", seats=3, options={"start_seat": 0}, decks=plan["decks"]
    )
    for u in users[1:]:
        game_services.game_join(game_id=game.id, user=u)
    play_until_round_ends(game, users, plan)
    html = client_for(users[0]).get(f"/play/{game.id}/").content.decode()
    text = re.search(r'<section class="reveal".*?</section>', html, re.S).group(0)
    assert "<b>ben</b>" not in text
    assert "&lt;b&gt;ben&lt;/b&gt; held 12, 12, 13 and 13, a kamikaze" in text
    stranger = account_services.user_without_login(username="zed")
    for who in (users[0], stranger):
        data = client_for(who).get(f"/api/games/{game.id}/").json()
        assert data["state"]["reveal"]["kamikaze"] == 1, data["state"]["reveal"]
    from games.models import Game

    fresh = Game.objects.get(pk=game.id)
    for who in users:
        state = game_selectors.game_data(game=fresh, user=who)["state"]
        assert state["reveal"]["kamikaze"] == 1
