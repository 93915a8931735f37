"""The round's reveal on the table (issue 19): at a round's end every player's cards
face up with their values, who called and whether it worked, the round's points and
the totals; it stays until the player closes it or acts in the next round, and a
player opening the table later still sees it."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import games as game_services
from tests.play.test_browser import PLANS, choose

pytestmark = pytest.mark.django_db


def user(name):
    return account_services.user_register(username=name, password="secret-pw-1")[0]


def client_for(u):
    c = Client()
    c.force_login(u)
    return c


def play_until_round_ends(game, users, plan):
    """Every seat acts by the browser tests' oracle until round 1 has ended."""
    for _ in range(60):
        game = game_selectors.game_get(game.id)
        states = [game_selectors.game_data(game=game, user=u)["state"] for u in users]
        if states[0]["round"] > 1 or game.status != "active":
            return
        wishes = [(s, choose(st, s, plan)) for s, st in enumerate(states)]
        wishes = [(s, b) for s, b in wishes if b is not None]
        seat, body = next(((s, b) for s, b in wishes if b["type"] == "call"), wishes[0])
        game_services.game_act(game_id=game.id, user=users[seat], command=body)
    raise AssertionError("round 1 did not end")


@pytest.fixture
def cabo_after_round_one():
    plan = PLANS["cabo"]
    users = [user(n) for n in ("ann", "ben", "cara")]
    game = game_services.game_create(
        user=users[0], ruleset="cabo", seats=3, options={"start_seat": 0}, decks=plan["decks"]
    )
    for u in users[1:]:
        game_services.game_join(game_id=game.id, user=u)
    play_until_round_ends(game, users, plan)
    return game, users


def test_the_reveal_shows_every_card_the_call_and_the_points(cabo_after_round_one):
    game, users = cabo_after_round_one
    html = client_for(users[0]).get(f"/play/{game.id}/").content.decode()
    section = re.search(r'<section class="reveal".*?</section>', html, re.S)
    assert section, "no reveal after round 1"
    text = section.group(0)
    assert "Round 1: every card face up" in text
    # ann called (the plan's caller in round 1), but ben's 12 12 13 13 is a kamikaze
    assert "You called Cabo, and it failed (+50)." in text
    # ... and the kamikaze is named: why everyone but ben scored 50
    assert "ben held 12, 12, 13 and 13, a kamikaze: ben scores 0 and everyone else 50." in text
    mine = client_for(users[1]).get(f"/play/{game.id}/").content.decode()
    assert "You held 12, 12, 13 and 13, a kamikaze: you score 0 and everyone else 50." in mine
    # every seat's four cards face up with their values: ben's 12 12 13 13
    ben = text[text.index(">ben<") :]
    assert [int(v) for v in re.findall(r'<span class="value">(-?\d+)</span>', ben)[:4]] == [
        12,
        12,
        13,
        13,
    ]
    assert len(re.findall(r'class="reveal-card"', text)) == 12
    assert "round <strong>+" in text and "total <strong>" in text
    # a visitor (public view) sees the same reveal: every card is face up in it
    assert "every card face up" in Client().get(f"/play/{game.id}/").content.decode()


def test_the_reveal_stays_until_closed_or_the_player_acts(cabo_after_round_one):
    game, (ann, ben, cara) = cabo_after_round_one
    a, b = client_for(ann), client_for(ben)
    # ben acts in round 2 (his setup look): his reveal is over, ann's stays
    game_services.game_act(game_id=game.id, user=ben, command={"type": "look", "positions": [0, 1]})
    assert 'class="reveal"' not in b.get(f"/play/{game.id}/").content.decode()
    assert 'class="reveal"' in a.get(f"/play/{game.id}/").content.decode()
    # ann opens the table again later: still there; she closes it (no JavaScript)
    assert 'class="reveal"' in a.get(f"/play/{game.id}/").content.decode()
    r = a.post(f"/play/{game.id}/close-reveal/", {"round": "1"})
    assert r.status_code == 302
    assert 'class="reveal"' not in a.get(f"/play/{game.id}/").content.decode()
    # cara has neither acted nor closed it
    assert 'class="reveal"' in client_for(cara).get(f"/play/{game.id}/").content.decode()
    # a forged round number does nothing harmful
    assert a.post(f"/play/{game.id}/close-reveal/", {"round": "²"}).status_code == 302


def test_the_reveal_keeps_names_as_they_are_written():
    """Issue 28: "Ben called Cabo" for a player who is "ben" everywhere else."""
    from play import reveal

    shown = {"round": 1, "calls": [{"seat": 1, "succeeded": True}], "scores": {"1": 0}}
    for you, said in ((0, "ben called Cabo, and it worked (+0)."), (1, "You called Cabo")):
        built = reveal.build(shown, ["ann", "ben"], you, "cabo", "cabo", "Cabo", None)
        assert built["call"].startswith(said), built["call"]
