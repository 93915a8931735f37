"""Games among friends (API.md): private games and invites, cancel, rematch, history."""

from __future__ import annotations

import re
import threading
import uuid

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Event, Game
from play import lobby
from tests.api.conftest import create
from tests.fixtures import SKIPBO_QUICK, SKIPBO_QUICK_OPTIONS

pytestmark = pytest.mark.django_db

STOCK_TO_PILE_0 = {"type": "play", "from": "stock", "pile": 0}


def finished_skipbo(ann, bob, **extra):
    """A finished 2-player Skip-Bo game: ann (seat 0) wins, bob has 5 stock cards left."""
    game = create(
        ann,
        ruleset="skipbo",
        seats=2,
        options=SKIPBO_QUICK_OPTIONS,
        decks=[SKIPBO_QUICK],
        turn_timeout=600,
        **extra,
    )
    body = {"invite": game["invite"]} if extra.get("private") else {}
    assert bob.post(f"/api/games/{game['id']}/join/", body, format="json").status_code == 200
    for _ in range(5):
        ann.ok(game["id"], STOCK_TO_PILE_0)
    final = ann.game(game["id"])
    assert final["status"] == "finished" and final["state"]["result"]["winners"] == [0]
    return final


def waiting_ids(client):
    response = client.get("/api/games/?status=waiting")
    assert response.status_code == 200
    return [g["id"] for g in response.json()["results"]]


# --------------------------------------------------------------------------- private games


def test_a_private_game_is_listed_to_its_players_only(ann, bob, cid):
    public = create(ann, ruleset="cabo", seats=3)
    private = create(ann, ruleset="cabo", seats=3, private=True)
    assert private["private"] is True and public["private"] is False
    assert public["id"] in waiting_ids(bob) and private["id"] not in waiting_ids(bob)
    assert private["id"] in waiting_ids(ann)
    # nor under any other status or in "mine" of someone else
    assert private["id"] not in [g["id"] for g in bob.get("/api/games/").json()["results"]]
    # once bob joined with the invite, it is listed to him too, but not to cid
    joined = bob.post(
        f"/api/games/{private['id']}/join/", {"invite": private["invite"]}, format="json"
    )
    assert joined.status_code == 200, joined.content
    assert private["id"] in waiting_ids(bob) and private["id"] not in waiting_ids(cid)


def test_the_invite_is_shown_to_the_players_only(ann, bob, cid):
    game = create(ann, ruleset="cabo", seats=3, private=True)
    invite = game["invite"]
    assert isinstance(invite, str) and len(invite) >= 20
    assert ann.game(game["id"])["invite"] == invite
    # a stranger gets the unknown game's 404; who presents the invite reads the game ...
    assert bob.get(f"/api/games/{game['id']}/").status_code == 404
    seen = bob.get(f"/api/games/{game['id']}/?invite={invite}")
    assert seen.status_code == 200, seen.content
    assert seen.json()["private"] is True and "invite" not in seen.json()  # ... not its invite
    joined = bob.post(f"/api/games/{game['id']}/join/", {"invite": invite}, format="json").json()
    assert joined["invite"] == invite and joined["you"] == 1
    listed = next(g for g in ann.get("/api/games/?mine=true").json()["results"])
    assert listed["invite"] == invite
    # the invite is metadata, never in the public feed
    feed = cid.get(f"/api/games/{game['id']}/events/").content.decode()
    assert invite not in feed
    assert not any(invite in str(e.data) for e in Event.objects.filter(game_id=game["id"]))
    # a public game has no invite
    public = create(ann, ruleset="cabo", seats=2)
    assert "invite" not in public and public["private"] is False


def test_joining_a_private_game_needs_its_invite_else_404_like_an_unknown_id(ann, bob, cid):
    game = create(ann, ruleset="cabo", seats=3, private=True)
    gid = game["id"]
    unknown = bob.post(f"/api/games/{uuid.uuid4()}/join/", {}, format="json")
    assert unknown.status_code == 404
    for body in ({}, {"invite": ""}, {"invite": "wrong"}, {"invite": game["invite"][:-1] + "x"}):
        answer = bob.post(f"/api/games/{gid}/join/", body, format="json")
        assert answer.status_code == 404, (body, answer.content)
        assert answer.json() == unknown.json()
    # a malformed body is still a 404 first (no "400" telling the game exists)
    answer = bob.post(f"/api/games/{gid}/join/", {"seed": 7}, format="json")
    assert answer.status_code == 404 and answer.json() == unknown.json()
    assert answer.content == unknown.content
    # with the invite: joined; a malformed body is now the 400 of a known game
    assert (
        bob.post(f"/api/games/{gid}/join/", {"invite": game["invite"], "seed": 7}, format="json")
    ).status_code == 400
    ok = bob.post(f"/api/games/{gid}/join/", {"invite": game["invite"]}, format="json")
    assert ok.status_code == 200 and ok.json()["you"] == 1
    # a seated player joining again: the ordinary 409, invite or not
    again = bob.post(f"/api/games/{gid}/join/", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_seated"
    # the last seat with the invite starts the game
    last = cid.post(f"/api/games/{gid}/join/", {"invite": game["invite"]}, format="json")
    assert last.status_code == 200 and last.json()["status"] == "active"


def test_a_refused_private_join_does_the_work_of_an_unknown_id(ann, bob):
    """Same timing by construction: the same statements, in the same order, and the same
    bytes back (wall-clock timing on a shared machine would only measure the machine)."""
    game = create(ann, ruleset="cabo", seats=3, private=True)

    def statements(game_id):
        with CaptureQueriesContext(connection) as queries:
            answer = bob.post(f"/api/games/{game_id}/join/", {"invite": "nope"}, format="json")
        assert answer.status_code == 404
        sql = []
        for query in queries.captured_queries:
            text = query["sql"].replace(str(game_id), "ID").replace(game_id.hex, "ID")
            sql.append(re.sub(r"s\d+_x\d+", "SP", text))  # savepoint names
        return answer.content, sql

    bob.post(f"/api/games/{uuid.uuid4()}/join/")  # the token is cached from now on
    private = statements(uuid.UUID(game["id"]))
    unknown = statements(uuid.uuid4())
    assert private == unknown


def test_a_public_game_ignores_an_invite(ann, bob):
    game = create(ann, ruleset="cabo", seats=2)
    answer = bob.post(f"/api/games/{game['id']}/join/", {"invite": "anything"}, format="json")
    assert answer.status_code == 200 and answer.json()["status"] == "active"


def test_private_must_be_a_boolean(ann):
    answer = ann.post(
        "/api/games/", {"ruleset": "cabo", "seats": 2, "private": "yes"}, format="json"
    )
    assert answer.status_code == 400 and "private" in answer.json()["detail"]


# --------------------------------------------------------------------------- cancel


def test_the_creator_cancels_a_waiting_game(ann, bob):
    game = create(ann, ruleset="cabo", seats=3)
    assert bob.post(f"/api/games/{game['id']}/join/").status_code == 200
    assert bob.post(f"/api/games/{game['id']}/cancel/").status_code == 403
    answer = ann.post(f"/api/games/{game['id']}/cancel/")
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "aborted"
    last = Event.objects.filter(game_id=game["id"]).order_by("-seq").first()
    assert last.type == "game_aborted" and last.data == {"reason": "cancelled"}
    assert game["id"] not in waiting_ids(bob)
    # the feed says it like any abort
    feed = bob.get(f"/api/games/{game['id']}/events/").json()["events"]
    assert feed[-1]["type"] == "game_aborted" and feed[-1]["data"] == {"reason": "cancelled"}
    # and it is over: no join, no second cancel
    assert bob.post(f"/api/games/{game['id']}/join/").status_code == 409
    again = ann.post(f"/api/games/{game['id']}/cancel/")
    assert again.status_code == 409 and again.json()["code"] == "game_not_waiting"


def test_cancel_codes(ann, bob, cid):
    assert ann.post(f"/api/games/{uuid.uuid4()}/cancel/").status_code == 404
    game = create(ann, ruleset="cabo", seats=2)
    assert cid.post(f"/api/games/{game['id']}/cancel/").status_code == 403
    assert bob.post(f"/api/games/{game['id']}/join/").status_code == 200  # started
    started = ann.post(f"/api/games/{game['id']}/cancel/")
    assert started.status_code == 409 and started.json()["code"] == "game_not_waiting"
    assert bob.post(f"/api/games/{game['id']}/cancel/").status_code == 403
    assert Game.objects.get(id=game["id"]).status == "active"
    # a private game: a stranger cannot tell it from an unknown id
    private = create(ann, ruleset="cabo", seats=2, private=True)
    assert cid.post(f"/api/games/{private['id']}/cancel/").status_code == 404
    assert ann.post(f"/api/games/{private['id']}/cancel/").status_code == 200


def test_cancel_needs_a_token(ann, anon):
    game = create(ann, ruleset="cabo", seats=2)
    assert anon.post(f"/api/games/{game['id']}/cancel/").status_code == 401


# --------------------------------------------------------------------------- rematch


def test_rematch_of_a_finished_game(ann, bob, cid):
    old = finished_skipbo(ann, bob)
    assert old["rematch"] is None  # finished, no rematch yet
    answer = bob.post(f"/api/games/{old['id']}/rematch/")
    assert answer.status_code == 201, answer.content
    new = answer.json()
    assert new["id"] != old["id"] and new["status"] == "waiting" and new["private"] is True
    assert (new["ruleset"], new["seats"], new["options"], new["turn_timeout"]) == (
        old["ruleset"],
        old["seats"],
        old["options"],
        old["turn_timeout"],
    )
    assert new["you"] == 0 and new["players"][0]["username"] == "bob"
    assert new["invite"]
    # the old game shows it to its players, not to others
    assert ann.game(old["id"])["rematch"] == new["id"]
    assert bob.game(old["id"])["rematch"] == new["id"]
    assert "rematch" not in cid.game(old["id"])
    # a second call, by either player: the same game, 200, with the invite
    again = ann.post(f"/api/games/{old['id']}/rematch/")
    assert again.status_code == 200 and again.json()["id"] == new["id"]
    assert again.json()["invite"] == new["invite"] and again.json()["you"] is None
    # ann joins it with the invite: it starts
    joined = ann.post(f"/api/games/{new['id']}/join/", {"invite": new["invite"]}, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "active"
    assert Game.objects.filter(rematch_of=old["id"]).count() == 1


def test_rematch_codes(ann, bob, cid):
    assert ann.post(f"/api/games/{uuid.uuid4()}/rematch/").status_code == 404
    game = create(ann, ruleset="cabo", seats=2)
    waiting = ann.post(f"/api/games/{game['id']}/rematch/")
    assert waiting.status_code == 409 and waiting.json()["code"] == "game_not_finished"
    bob.post(f"/api/games/{game['id']}/join/")
    active = ann.post(f"/api/games/{game['id']}/rematch/")
    assert active.status_code == 409 and active.json()["code"] == "game_not_finished"
    old = finished_skipbo(ann, bob)
    assert cid.post(f"/api/games/{old['id']}/rematch/").status_code == 403
    assert ann.post(f"/api/games/{old['id']}/rematch/", {"seed": 5}, format="json").status_code == (
        400
    )
    assert not Game.objects.filter(rematch_of=old["id"]).exists()


def test_rematch_of_a_private_game_is_hidden_from_strangers(ann, bob, cid):
    old = finished_skipbo(ann, bob, private=True)
    assert cid.post(f"/api/games/{old['id']}/rematch/").status_code == 404
    assert ann.post(f"/api/games/{old['id']}/rematch/").status_code == 201


def test_rematch_reseats_the_bots_at_once(ann):
    answer = ann.post(
        "/api/games/",
        {
            "ruleset": "skipbo",
            "seats": 3,
            "options": SKIPBO_QUICK_OPTIONS,
            "decks": [SKIPBO_QUICK + ["10"] * 5],
            "turn_timeout": 600,
            "bots": [{"seat": 1, "level": "random"}, {"seat": 2, "level": "basic"}],
        },
        format="json",
    )
    old = answer.json()
    assert old["status"] == "active"
    for _ in range(5):
        ann.ok(old["id"], STOCK_TO_PILE_0)
    assert ann.game(old["id"])["status"] == "finished"
    new = ann.post(f"/api/games/{old['id']}/rematch/").json()
    assert new["status"] == "active"  # every other seat a bot: it starts at once
    assert [(p["seat"], p["bot"]) for p in new["players"]] == [
        (0, None),
        (1, "random"),
        (2, "basic"),
    ]
    assert new["fairness"] is not None  # a rematch deals fairly (no stacked deck)


# --------------------------------------------------------------------------- history


def test_history_lists_finished_games_with_result_rank_and_score(ann, bob, cid):
    won = finished_skipbo(ann, bob)
    create(ann, ruleset="cabo", seats=2)  # waiting: not in the history
    answer = ann.get("/api/me/history/")
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert data["count"] == 1 and data["rulesets"] == [
        {"ruleset": "skipbo", "played": 1, "won": 1, "lost": 0}
    ]
    row = data["results"][0]
    assert row["id"] == won["id"] and row["ruleset"] == "skipbo" and row["you"] == 0
    assert (row["result"], row["rank"], row["score"]) == ("won", 1, 0)
    assert row["replay"] == f"/replays/{won['id']}/" and row["finished_at"]
    assert [(p["username"], p["score"], p["rank"]) for p in row["players"]] == [
        ("ann", 0, 1),
        ("bob", 5, 2),
    ]
    bobs = bob.get("/api/me/history/").json()
    assert (bobs["results"][0]["result"], bobs["results"][0]["rank"]) == ("lost", 2)
    assert bobs["results"][0]["score"] == 5
    assert bobs["rulesets"] == [{"ruleset": "skipbo", "played": 1, "won": 0, "lost": 1}]
    assert cid.get("/api/me/history/").json() == {
        "rulesets": [],
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }
    assert ann.get("/api/me/history/?ruleset=cabo").json()["count"] == 0
    assert ann.get("/api/me/history/?ruleset=skipbo").json()["count"] == 1
    assert ann.get("/api/me/history/?ruleset=chess").status_code == 400
    assert ann.get("/api/me/history/?page=9").status_code == 404


def test_history_needs_a_token(anon):
    assert anon.get("/api/me/history/").status_code == 401


def test_the_lobby_lists_a_private_game_to_its_players_only(ann, bob):
    private = create(ann, ruleset="cabo", seats=3, private=True)
    public = create(ann, ruleset="cabo", seats=3)
    open_for_bob = [row["id"] for row in lobby.context(bob.user)["open_games"]]
    assert public["id"] in open_for_bob and private["id"] not in open_for_bob
    waiting_for_ann = [row["id"] for row in lobby.context(ann.user)["waiting"]]
    assert private["id"] in waiting_for_ann


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_rematch_calls_at_once_make_one_game(require_postgres, ann, bob):
    old = finished_skipbo(ann, bob)
    answers = {}
    barrier = threading.Barrier(2)

    def call(player):
        barrier.wait()
        try:
            answers[player.user.username] = player.post(f"/api/games/{old['id']}/rematch/")
        finally:
            connection.close()

    threads = [threading.Thread(target=call, args=(p,)) for p in (ann, bob)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    codes = sorted(a.status_code for a in answers.values())
    assert codes == [200, 201], [a.content for a in answers.values()]
    assert len({a.json()["id"] for a in answers.values()}) == 1
    assert Game.objects.filter(rematch_of=old["id"]).count() == 1


def test_a_rematch_counts_against_the_games_limit(ann, bob, settings):
    settings.PABLO_THROTTLE_GAMES = "2/hour"
    caches["throttle"].clear()
    old = finished_skipbo(ann, bob)  # ann's first game
    rematch = ann.post(f"/api/games/{old['id']}/rematch/")  # the second of 2
    assert rematch.status_code == 201
    create_again = ann.post("/api/games/", {"ruleset": "cabo", "seats": 2}, format="json")
    assert create_again.status_code == 429 and create_again.json()["code"] == "throttled"
    assert "Retry-After" in create_again
    # bob's budget is his own: his rematch call is counted but answers the same game
    assert bob.post(f"/api/games/{old['id']}/rematch/").status_code == 200
    caches["throttle"].clear()
