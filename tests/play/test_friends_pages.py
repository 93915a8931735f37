"""Games among friends on the pages, without JavaScript (forms, POST-redirect-GET):
a private game's invite link, Join by it only, Cancel for its creator, Rematch on a
finished table and "rematch offered" on the others' tables and lobbies."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import selectors, services
from games.models import Game
from tests.fixtures import SKIPBO_QUICK, SKIPBO_QUICK_OPTIONS

pytestmark = pytest.mark.django_db


def user(name):
    return services.user_register(username=name, password="secret-pw-1")[0]


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
    game = services.game_create(user=ann, ruleset="cabo", seats=3)
    services.game_join(game_id=game.id, user=ben)
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
    game = services.game_create(
        user=ann, ruleset="skipbo", seats=2, options=SKIPBO_QUICK_OPTIONS, decks=[SKIPBO_QUICK]
    )
    services.game_join(game_id=game.id, user=ben)
    for _ in range(5):
        services.game_act(
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
    assert selectors.seat_of(game=new, user=ben) == 1
    assert "Rematch offered" not in b.get("/").content.decode()
