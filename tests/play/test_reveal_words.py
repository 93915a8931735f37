"""What a stranger misread at the table (issue 29's look in Chromium).

- The reveal marked the round's winner "lowest", also when a kamikaze (Cabo: 12 12
  13 13) won the round holding 50: the badge says "won the round".
- A finished game's bar still said "Cabo called by cara" beside "The game is
  over.": the call is the last round's, told by its reveal; the bar says it only
  while the game runs.
"""

from __future__ import annotations

import re

import pytest

from games.selectors import games as game_selectors
from games.services import games as game_services
from tests.play.test_browser import PLANS, choose
from tests.play.test_reveal import cabo_after_round_one, client_for  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db


def _reveal(html: str) -> str:
    found = re.search(r'<section class="reveal".*?</section>', html, re.S)
    assert found, "no reveal"
    return found.group(0)


def test_the_kamikaze_won_the_round_and_is_not_called_lowest(cabo_after_round_one):  # noqa: F811
    game, users = cabo_after_round_one
    reveal = _reveal(client_for(users[0]).get(f"/play/{game.id}/").content.decode())
    ben = re.search(
        r'<li class="reveal-seat[^"]*">\s*<h3><span class="name">ben<.*?</li>', reveal, re.S
    )
    assert ben, reveal
    assert "won the round" in ben.group(0) and "holds <strong>50</strong>" in ben.group(0)
    assert "lowest" not in reveal
    # the others did not win it
    assert reveal.count("won the round") == 1


def test_a_finished_tables_bar_tells_no_call(cabo_after_round_one):  # noqa: F811
    game, users = cabo_after_round_one
    plan = PLANS["cabo"]
    for _ in range(80):
        game = game_selectors.game_get(game.id)
        if game.status != "active":
            break
        states = [game_selectors.game_data(game=game, user=u)["state"] for u in users]
        wishes = [(s, choose(st, s, plan)) for s, st in enumerate(states)]
        wishes = [(s, b) for s, b in wishes if b is not None]
        seat, body = next(((s, b) for s, b in wishes if b["type"] == "call"), wishes[0])
        game_services.game_act(game_id=game.id, user=users[seat], command=body)
    assert game.status == "finished"
    html = client_for(users[0]).get(f"/play/{game.id}/").content.decode()
    bar = html[html.index('<div class="bar">') : html.index("</div>", html.index('class="bar"'))]
    assert "The game is over." in bar
    assert 'class="called"' not in bar and "called by" not in bar, bar
    # the call is still told, by the last round's reveal
    assert "cara called Cabo, and it failed (+54)." in _reveal(html)
