"""Games among friends on the pages, without JavaScript (forms, POST-redirect-GET):
a private game's invite link, Join by it only, Cancel for its creator, Rematch on a
finished table and "rematch offered" on the others' tables and lobbies."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import friends as friend_services
from games.services import games as game_services
from tests.fixtures import SKIPBO_QUICK, SKIPBO_QUICK_OPTIONS

pytestmark = pytest.mark.django_db


def user(name):
    return account_services.user_register(username=name, password="secret-pw-1")[0]


def client_for(u):
    c = Client()
    c.force_login(u)
    return c


def test_a_private_game_is_joined_by_its_invite_link_only():
    ann, ben, dan = user("ann"), user("ben"), user("dan")
    a = client_for(ann)
    r = a.post(
        "/play/new/",
        {"ruleset": "cabo", "seats": "2", "turn_amount": "1", "turn_unit": "days", "private": "on"},
    )
    assert r.status_code == 302
    game_id = r["Location"].split("/")[2]
    html = a.get(f"/play/{game_id}/").content.decode()
    invite = re.search(rf'value="http://testserver/play/{game_id}/\?invite=([\w-]+)"', html)
    assert invite and 'id="invite-link"' in html, html
    token = invite.group(1)
    # dan without the link: not in his lobby, no Join on the table, a join refused as unknown
    d = client_for(dan)
    assert game_id not in d.get("/").content.decode()
    assert "Join this game" not in d.get(f"/play/{game_id}/").content.decode()
    assert d.post(f"/play/{game_id}/join/").status_code == 404
    assert d.post(f"/play/{game_id}/join/", {"invite": "wrong"}).status_code == 404
    # ben by the link: Join, carrying the invite
    b = client_for(ben)
    html = b.get(f"/play/{game_id}/?invite={token}").content.decode()
    assert "Join this game" in html and f'name="invite" value="{token}"' in html
    assert b.post(f"/play/{game_id}/join/", {"invite": token}).status_code == 302
    assert Game.objects.get(pk=game_id).status == "active"


def test_the_creator_cancels_a_waiting_game_and_nobody_else_can():
    ann, ben = user("ann"), user("ben")
    game = game_services.game_create(user=ann, ruleset="cabo", seats=3)
    game_services.game_join(game_id=game.id, user=ben)
    b = client_for(ben)
    assert "Cancel this game" not in b.get(f"/play/{game.id}/").content.decode()
    r = b.post(f"/play/{game.id}/cancel/", follow=True)
    assert 'class="notice error"' in r.content.decode()
    assert Game.objects.get(pk=game.id).status == "waiting"
    a = client_for(ann)
    assert "Cancel this game" in a.get(f"/play/{game.id}/").content.decode()
    r = a.post(f"/play/{game.id}/cancel/")
    assert r.status_code == 302 and r["Location"] == "/"
    assert Game.objects.get(pk=game.id).status == "aborted"


def test_rematch_from_a_finished_table_and_offered_to_the_others():
    ann, ben = user("ann"), user("ben")
    game = game_services.game_create(
        user=ann, ruleset="skipbo", seats=2, options=SKIPBO_QUICK_OPTIONS, decks=[SKIPBO_QUICK]
    )
    game_services.game_join(game_id=game.id, user=ben)
    for _ in range(5):
        game_services.game_act(
            game_id=game.id, user=ann, command={"type": "play", "from": "stock", "pile": 0}
        )
    a, b = client_for(ann), client_for(ben)
    html = a.get(f"/play/{game.id}/").content.decode()
    assert """data-action='{"type":"rematch"}'""" in html and ">Rematch</button>" in html
    r = a.post(f"/play/{game.id}/rematch/")
    assert r.status_code == 302
    new_id = r["Location"].split("/")[2]
    new = Game.objects.get(pk=new_id)
    assert new.private and new.status == "waiting" and new.ruleset == "skipbo"
    # ann's finished table now links to it; ben's offers it, and so does his lobby
    assert f'href="/play/{new_id}/"' in a.get(f"/play/{game.id}/").content.decode()
    html = b.get(f"/play/{game.id}/").content.decode()
    assert "Rematch offered" in html and "Rematch: join it" in html
    lobby = b.get("/").content.decode()
    assert "Rematch offered" in lobby and f'action="/play/{game.id}/rematch/"' in lobby
    r = b.post(f"/play/{game.id}/rematch/")
    assert r["Location"] == f"/play/{new_id}/"
    new.refresh_from_db()
    assert new.status == "active"
    assert game_selectors.seat_of(game=new, user=ben) == 1
    assert "Rematch offered" not in b.get("/").content.decode()


def test_a_private_game_is_unknown_to_anyone_but_its_players_and_invite_holders():
    """API.md "Games among friends": table, feed, state, replay and analysis of a private
    game answer a stranger -- signed in or not -- the unknown game's 404, byte for byte
    (issue 28: anyone with the address could watch it and its replay)."""
    from rest_framework.test import APIClient

    ann, dan = user("ann"), user("dan")
    game = game_services.game_create(user=ann, ruleset="cabo", seats=2, private=True)
    friend_services.game_cancel(game_id=game.id, user=ann)  # aborted: it has a replay too
    unknown = "00000000-0000-4000-8000-000000000000"
    api = APIClient()
    api.force_authenticate(dan)
    for tail in ("", "events/", "replay/", "analysis/"):
        mine, none = (api.get(f"/api/games/{g}/{tail}") for g in (game.id, unknown))
        assert (mine.status_code, mine.content) == (404, none.content), tail
    for visitor in (Client(), client_for(dan)):
        for path in ("/play/{}/", "/play/{}/?partial=1", "/replays/{}/"):
            mine, none = (visitor.get(path.format(g)) for g in (game.id, unknown))
            strip = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')
            assert mine.status_code == none.status_code == 404, path
            assert strip.sub(b"", mine.content) == strip.sub(b"", none.content), path
    # a player, and whoever holds the invite (signed out too), see it
    assert client_for(ann).get(f"/play/{game.id}/").status_code == 200
    assert client_for(ann).get(f"/replays/{game.id}/").status_code == 200
    assert Client().get(f"/play/{game.id}/?invite={game.invite}").status_code == 200
    assert Client().get(f"/replays/{game.id}/?invite={game.invite}").status_code == 200
    assert api.get(f"/api/games/{game.id}/?invite={game.invite}").status_code == 200


def test_a_wrong_or_cut_invite_says_so_and_offers_no_join():
    """Issue 28: a cut invite link showed Join, then "No game with this id." (or a bare
    "Not Found" without JavaScript)."""
    ann, ben = user("ann"), user("ben")
    game = game_services.game_create(user=ann, ruleset="cabo", seats=2, private=True)
    for visitor in (Client(), client_for(ben)):
        page = visitor.get(f"/play/{game.id}/?invite={game.invite[:-3]}")
        html = page.content.decode()
        assert page.status_code == 404
        assert "the invite is not valid" in html and "Join" not in html, html


@pytest.mark.parametrize("private", [False, True])
def test_a_cancelled_tables_invites_nobody(private):
    """Issue 28 item 9: a cancelled game still said "Share this page's address: friends
    who open it can join", showed its invite link and a "free seat"."""
    ann, ben = user("ann"), user("ben")
    game = game_services.game_create(user=ann, ruleset="cabo", seats=3, private=private)
    game_services.game_join(game_id=game.id, user=ben, invite=game.invite if private else None)
    friend_services.game_cancel(game_id=game.id, user=ann)
    for who in (ann, ben):
        html = client_for(who).get(f"/play/{game.id}/").content.decode()
        assert "cancelled this game before it started" in html
        for word in ("can join", "free seat", "invite link", "invite=", "Join"):
            assert word not in html, (who.username, word)
