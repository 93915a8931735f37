"""Ratings on the real database: the follower's step, the rebuild, the API and pages."""

from __future__ import annotations

import random

from django.core.management import call_command
from django.db import transaction
from django.test import Client

from games import rules, store
from games.bots.play import chooser
from games.models import BotAccount, Event
from games.ratings import model
from games.ratings import services as ratings_services
from games.ratings.models import Cursor, Rating, RatingChange
from games.ratings.services import ratings_apply
from games.selectors import games as selectors
from games.services import bots, friends
from games.services import games as services

from .conftest import QUICK, follow, play


def snapshot():
    ratings = sorted(
        (r.user.username, r.ruleset, r.mu, r.sigma, r.rating, r.games, r.last_played_at)
        for r in Rating.objects.select_related("user")
    )
    changes = sorted(
        (str(c.game_id), c.user_id, c.seat, c.place, c.points, c.position, c.before, c.after)
        for c in RatingChange.objects.all()
    )
    return ratings, changes


def test_a_finished_game_changes_its_players_ratings_once(people):
    game = play([p.user for p in people], seed=1)
    follow()
    end = Event.objects.get(game_id=game, type="game_finished")
    # a batch handled again (a worker killed before its commit) is applied once
    assert ratings_apply([end]) == 0
    end = end.data
    rows = {c.seat: c for c in RatingChange.objects.filter(game_id=game)}
    assert {s: c.place for s, c in rows.items()} == dict(enumerate(end["places"]))
    first = next(c for c in rows.values() if c.place == 1)
    assert first.after > first.before
    assert Rating.objects.count() == 3 and all(r.games == 1 for r in Rating.objects.all())
    # the game's players carry their change
    answer = people[0].game(game)
    assert [p["rating_change"] for p in answer["players"]] == [
        rows[s].after - rows[s].before for s in range(3)
    ]


def test_the_rebuild_from_the_events_equals_the_live_ratings(people):
    users = [p.user for p in people]
    for seed in range(4):
        play(users[: 2 + seed % 2], seed=seed)
        follow()  # live: one game at a time, as the follower meets them
    play(users, rated=False, seed=9)
    play(users[:2], decks=[["1"] * 5], seed=10)  # stacked decks: never rated
    follow()
    live = snapshot()
    assert len(live[0]) == 3 and len(live[1]) == 2 + 3 + 2 + 3
    call_command("ratings", "--rebuild")
    assert snapshot() == live


def test_a_rebuild_in_many_batches_equals_the_live_ratings(people, monkeypatch):
    users = [p.user for p in people]
    for seed in range(5):
        play(users[: 2 + seed % 2], seed=seed)
    follow()
    live = snapshot()
    # the games' ends streamed two at a time: five games, three batches
    monkeypatch.setattr(ratings_services, "REBUILD_BATCH", 2)
    assert ratings_services.ratings_rebuild() == 5
    assert snapshot() == live


def test_a_new_model_version_rebuilds_by_itself(people, monkeypatch):
    users = [p.user for p in people[:2]]
    first = play(users)
    follow()
    monkeypatch.setattr(model, "VERSION", model.VERSION + "-next")
    RatingChange.objects.all().delete()  # what only a rebuild brings back
    second = play(users, seed=2)
    follow()
    assert Cursor.objects.get().version == model.VERSION
    assert RatingChange.objects.filter(game_id=first).count() == 2
    assert RatingChange.objects.filter(game_id=second).count() == 2
    assert all(r.games == 2 for r in Rating.objects.all())


def test_unrated_games_leave_no_rating_change(people):
    game = play([p.user for p in people[:2]], rated=False)
    follow()
    assert not RatingChange.objects.exists()
    assert all(p["rating_change"] is None for p in people[0].game(game)["players"])
    assert Event.objects.get(game_id=game, seq=1).data["rated"] is False


def test_the_leaderboard_and_player_api(people, anon, settings):
    settings.PABLO_LEADERBOARD_MIN_GAMES = 2
    ann, bob, cid = people
    for seed in range(3):
        play([ann.user, bob.user], seed=seed)
    play([ann.user, cid.user], seed=5)
    follow()
    board = ann.get("/api/ratings/skipbo/").json()
    assert board["count"] == 2 and [r["rank"] for r in board["results"]] == [1, 2]
    assert {r["username"] for r in board["results"]} == {"ann", "bob"}  # cid: one game
    ratings = [r["rating"] for r in board["results"]]
    assert ratings == sorted(ratings, reverse=True)
    assert board["results"][0].keys() == {"rank", "username", "rating", "games", "provisional"}
    assert ann.get("/api/ratings/cabo/").json()["count"] == 0
    assert ann.get("/api/ratings/nope/").status_code == 404
    assert anon.get("/api/ratings/skipbo/").status_code == 401
    me = ann.get("/api/players/ann/").json()
    assert me["username"] == "ann" and me["bot_account"] is False
    assert set(me["ratings"]) == {"skipbo"} and me["ratings"]["skipbo"]["games"] == 4
    assert len(me["recent"]) == 4
    assert ann.get("/api/players/nobody/").status_code == 404


def test_a_player_is_found_by_any_spelling_of_their_name(people):
    """Names are unique under trimming, NFKC and case folding: ``/api/players/ANN/`` is
    ann (it was a 404), and the page of another spelling sends to the name's own page."""
    ann, bob, _cid = people
    play([ann.user, bob.user], seed=1)
    follow()
    for spelling in ("ANN", "Ann", "\uff21\uff4e\uff4e"):  # (fullwidth)
        found = bob.get(f"/api/players/{spelling}/")
        assert found.status_code == 200 and found.json()["username"] == "ann", spelling
    assert bob.get("/api/players/anne/").status_code == 404
    page = Client().get("/players/ANN/")
    assert page.status_code == 302 and page["Location"] == "/players/ann/"
    assert Client().get("/players/ann/").status_code == 200


def test_private_games_are_listed_to_their_players_only(people):
    ann, bob, cid = people
    play([ann.user, bob.user], private=True)
    follow()
    assert len(bob.get("/api/players/ann/").json()["recent"]) == 1
    assert cid.get("/api/players/ann/").json()["recent"] == []


def test_the_pages_show_ratings_and_changes(people, client, settings):
    settings.PABLO_LEADERBOARD_MIN_GAMES = 1
    ann, bob, _ = people
    game = play([ann.user, bob.user])
    follow()
    change = RatingChange.objects.get(game_id=game, user=ann.user)
    client.force_login(ann.user)
    board = client.get("/ratings/?ruleset=skipbo").content.decode()
    assert "ann" in board and str(change.after) in board
    page = client.get("/players/ann/").content.decode()
    assert f"/replays/{game}/" in page and str(change.after) in page
    assert client.get("/players/nobody/").status_code == 404
    signed = f"{change.after - change.before:+d}".replace("+0", "±0")
    assert signed in client.get("/history/").content.decode()
    assert signed in client.get(f"/play/{game}/").content.decode()


def test_a_game_that_ends_during_a_rebuild_is_counted_once(people):
    users = [p.user for p in people[:2]]
    first = play(users)
    follow()
    second = play(users, seed=3)  # ended, not yet followed: after the cursor
    assert ratings_services.ratings_rebuild() == 1  # the rebuild stops at the cursor
    assert not RatingChange.objects.filter(game_id=second).exists()
    follow()
    assert RatingChange.objects.filter(game_id=first).count() == 2
    assert RatingChange.objects.filter(game_id=second).count() == 2
    assert all(r.games == 2 for r in Rating.objects.all())
    live = snapshot()
    ratings_services.ratings_rebuild()
    assert snapshot() == live


def test_an_account_no_longer_found_does_not_stop_the_follower(people):
    ann, bob, cid = (p.user for p in people)
    lost = play([ann, bob])
    type(bob).objects.filter(pk=bob.pk).update(username="robert")  # bob is gone by name
    kept = play([ann, cid], seed=4)
    follow()
    assert not RatingChange.objects.filter(game_id=lost).exists()
    assert RatingChange.objects.filter(game_id=kept).count() == 2


def test_aborted_and_cancelled_games_are_unrated(people):
    ann, bob, _ = (p.user for p in people)
    # a started rated game aborted (every player absent): no game_finished, no rating
    started = services.game_create(user=ann, ruleset="skipbo", seats=2, options=QUICK)
    services.game_join(game_id=started.id, user=bob)
    with transaction.atomic():
        stream = store.lock(started.id)
        assert stream.state.status == "active"
        store.append(stream, [rules.Event("game_aborted", {"reason": "every player is absent"})])
    # a waiting game its creator cancels
    waiting = services.game_create(user=ann, ruleset="skipbo", seats=2, options=QUICK)
    friends.game_cancel(game_id=waiting.id, user=ann)
    follow()
    assert Event.objects.filter(type="game_aborted").count() == 2
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert ratings_services.ratings_rebuild() == 0


def test_bot_accounts_are_rated_but_never_on_the_leaderboard(people, settings):
    settings.PABLO_LEADERBOARD_MIN_GAMES = 1
    ann, bob, cid = people
    BotAccount.objects.create(user=bob.user)  # a program's account
    play([ann.user, bob.user, cid.user], seed=6)
    follow()
    assert Rating.objects.filter(user=bob.user).exists()  # rated like anyone
    board = ann.get("/api/ratings/skipbo/").json()
    assert {r["username"] for r in board["results"]} == {"ann", "cid"}
    assert ann.get("/api/players/bob/").json()["bot_account"] is True


def test_a_person_whose_turns_a_stand_in_played_is_placed_last(people):
    """Bob never plays: each of his turns times out (a stand-in plays it, or he is
    absent): whatever the stand-in reached, the ratings place him last."""
    ann, bob, cid = (p.user for p in people)
    # Bob first: a deal that let Ann play out her five stock cards at once left Bob
    # without a turn, a person no stand-in ever played for (his place stood, tied)
    options = {**QUICK, "start_seat": 1}
    game = services.game_create(user=ann, ruleset="skipbo", seats=3, options=options)
    for user in (bob, cid):
        services.game_join(game_id=game.id, user=user)
    choose, rng, users = chooser("basic", "skipbo"), random.Random(7), [ann, bob, cid]
    for _ in range(3000):
        state = selectors.game_state(game=selectors.game_get(game.id))
        if state.status != "active":
            break
        seat = rules.get_ruleset("skipbo").actors(state)[0]
        if seat == 1:
            bots.game_timeout(game_id=game.id, turn_key=state.turn_key)
        else:
            services.game_act(game_id=game.id, user=users[seat], command=choose(state, seat, rng))
    assert state.status == "finished"
    follow()
    places = dict(RatingChange.objects.filter(game_id=game.id).values_list("seat", "place"))
    assert places[1] > max(places[0], places[2])
    assert len(places) == 3
