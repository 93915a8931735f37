"""Bot accounts (POST /api/me/bot/): made before any game, shown in players lists,
the lobby and the table, kept off the people's leaderboard."""

from __future__ import annotations

from games.models import BotAccount
from tests.ratings.conftest import follow, play


def test_an_account_that_never_played_becomes_a_bot_for_good(ann, bob, anon):
    assert anon.post("/api/me/bot/").status_code == 401
    answer = ann.post("/api/me/bot/")
    assert answer.status_code == 200 and answer.json() == {"bot_account": True}
    assert ann.post("/api/me/bot/").json() == {"bot_account": True}  # again: nothing changes
    assert BotAccount.objects.filter(user=ann.user).count() == 1
    assert ann.get("/api/players/ann/").json()["bot_account"] is True
    created = bob.post("/api/games/", {"ruleset": "skipbo", "seats": 2}, format="json")
    assert created.status_code == 201, created.content
    game = created.json()["id"]
    assert ann.post(f"/api/games/{game}/join/", {}, format="json").status_code == 200
    players = {p["username"]: p for p in bob.game(game)["players"]}
    assert players["ann"]["bot_account"] is True and players["bob"]["bot_account"] is False
    listed = bob.get("/api/games/?mine=true").json()["results"][0]["players"]
    assert {p["username"]: p["bot_account"] for p in listed} == {"ann": True, "bob": False}


def test_an_account_that_sat_at_a_game_cannot(ann, bob):
    bob.post("/api/games/", {"ruleset": "skipbo", "seats": 2}, format="json")
    answer = bob.post("/api/me/bot/")
    assert answer.status_code == 409 and answer.json()["code"] == "has_played"
    assert not BotAccount.objects.exists()


def test_bot_accounts_are_kept_off_the_peoples_leaderboard(ann, bob, cid, settings):
    settings.PABLO_LEADERBOARD_MIN_GAMES = 1
    assert cid.post("/api/me/bot/").status_code == 200
    play([ann.user, bob.user, cid.user], seed=1)
    follow()
    board = ann.get("/api/ratings/skipbo/").json()
    assert {r["username"] for r in board["results"]} == {"ann", "bob"}


def test_the_lobby_and_the_table_mark_them(ann, bob, client):
    ann.post("/api/me/bot/")
    game = bob.post("/api/games/", {"ruleset": "skipbo", "seats": 2}, format="json").json()["id"]
    ann.post(f"/api/games/{game}/join/", {}, format="json")
    client.force_login(bob.user)
    lobby = client.get("/").content.decode()
    assert "ann: bot</span>" in lobby
    table = client.get(f"/play/{game}/").content.decode()
    assert 'class="badge bot-account"' in table
