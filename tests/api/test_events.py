"""GET /api/games/{id}/events/ (redaction as of each event, after, wait) and
GET /api/games/{id}/replay/."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection

from games.feed import waiting
from games.models import Game
from tests.api.conftest import create

pytestmark = pytest.mark.django_db

STOCK_TO_PILE_0 = {"type": "play", "from": "stock", "pile": 0}


def feed(client, gid, query=""):
    response = client.get(f"/api/games/{gid}/events/{query}")
    assert response.status_code == 200, response.content
    return response.json()


def drawn(events):
    return [e for e in events if e["type"] == "cards_drawn"]


def test_a_drawn_card_is_seen_by_its_drawer_only(ann, bob, cid, quick_skipbo):
    gid = quick_skipbo["id"]
    as_ann, as_bob, as_cid = feed(ann, gid), feed(bob, gid), feed(cid, gid)
    assert as_ann["version"] == quick_skipbo["version"]
    assert [e["seq"] for e in as_ann["events"]] == list(range(1, quick_skipbo["version"] + 1))
    assert [e["type"] for e in as_ann["events"]] == [e["type"] for e in as_bob["events"]]
    # ann's first hand: card ids 10..14, five 7s (after the two stocks of 5).
    [mine] = drawn(as_ann["events"])
    assert mine["seat"] == 0
    assert mine["data"] == {
        "seat": 0,
        "cards": [{"card": i, "code": "7"} for i in range(10, 15)],
    }
    [theirs] = drawn(as_bob["events"])
    assert theirs["data"] == {"seat": 0, "count": 5}
    assert drawn(as_cid["events"])[0]["data"] == {"seat": 0, "count": 5}
    # The deal shows only the stock tops, to everyone.
    dealt = next(e for e in as_bob["events"] if e["type"] == "round_started")
    assert dealt["data"]["deck"] == {"count": 162 - 2 * 5}  # a count, not the cards
    assert dealt["data"]["stock"] == {"0": {"top": "1", "count": 5}, "1": {"top": "9", "count": 5}}


def test_the_feed_never_changes_later(ann, bob, quick_skipbo):
    gid = quick_skipbo["id"]
    before = feed(bob, gid)
    ann.ok(gid, STOCK_TO_PILE_0)
    ann.ok(gid, STOCK_TO_PILE_0)
    after = feed(bob, gid)
    assert after["events"][: len(before["events"])] == before["events"]
    assert after["version"] == before["version"] + 2
    # `after=n` gives the same events as the tail of the whole feed.
    tail = feed(bob, gid, f"?after={before['version']}")
    assert tail["events"] == after["events"][len(before["events"]) :]
    assert feed(bob, gid, f"?after={after['version']}")["events"] == []
    assert feed(bob, gid, "?after=9999")["events"] == []


def test_action_answer_events_match_the_feed(ann, quick_skipbo):
    gid = quick_skipbo["id"]
    answer = ann.ok(gid, STOCK_TO_PILE_0)
    assert feed(ann, gid, f"?after={quick_skipbo['version']}")["events"] == answer["events"]


@pytest.mark.parametrize(
    ("query", "field"),
    [("?after=-1", "after"), ("?after=x", "after"), ("?wait=31", "wait"), ("?wait=no", "wait")],
)
def test_bad_query(ann, quick_skipbo, query, field):
    response = ann.get(f"/api/games/{quick_skipbo['id']}/events/{query}")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["detail"].startswith(f"{field}: ")


def test_events_of_an_unknown_game(ann):
    response = ann.get("/api/games/00000000-0000-0000-0000-000000000000/events/")
    assert response.status_code == 404


def test_wait_returns_after_the_wait_when_nothing_happens(ann, quick_skipbo):
    gid, version = quick_skipbo["id"], quick_skipbo["version"]
    started = time.monotonic()
    body = feed(ann, gid, f"?after={version}&wait=0.5")
    assert time.monotonic() - started >= 0.45
    assert body == {"events": [], "version": version}


def test_wait_returns_at_once_when_there_is_news(ann, quick_skipbo):
    started = time.monotonic()
    body = feed(ann, quick_skipbo["id"], "?after=1&wait=30")
    assert time.monotonic() - started < 5
    assert body["events"][0]["seq"] == 2


def test_replay_409_until_finished_then_unredacted(ann, bob, cid, quick_skipbo):
    gid = quick_skipbo["id"]
    response = cid.get(f"/api/games/{gid}/replay/")
    assert response.status_code == 409
    assert response.json() == {
        "code": "game_not_finished",
        "detail": "The replay opens when the game is finished.",
    }
    # ann plays her stock 1, 2, 3, 4, 5 onto pile 0: her stock is empty, she wins.
    for _ in range(5):
        last = ann.ok(gid, STOCK_TO_PILE_0)
    assert last["events"][-1]["type"] == "game_finished"
    assert last["events"][-1]["data"] == {
        "winners": [0],
        "losers": [],
        "places": [1, 2],
        "points": [0, 5],
    }
    assert last["game"]["status"] == "finished"
    assert last["game"]["state"]["result"]["winners"] == [0]
    assert last["game"]["state"]["result"]["losers"] == []
    response = cid.get(f"/api/games/{gid}/replay/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"game", "events", "fairness"}  # API.md "Replays"
    assert body["game"]["status"] == "finished"
    assert body["game"]["you"] is None
    assert len(body["events"]) == last["version"]
    # Unredacted: the non-player sees ann's drawn cards and the whole dealt deck.
    assert drawn(body["events"])[0]["data"]["cards"][0] == {"card": 10, "code": "7"}
    dealt = next(e for e in body["events"] if e["type"] == "round_started")
    assert dealt["data"]["deck"][:15] == [
        "1", "2", "3", "4", "5", "9", "9", "9", "9", "9", "7", "7", "7", "7", "7",
    ]  # fmt: skip
    # The game list shows the result and the finished status.
    summary = cid.get("/api/games/?status=finished").json()["results"][0]
    assert summary["result"] == {"winners": [0], "losers": []}


def test_finished_game_refuses_actions(ann, quick_skipbo):
    gid = quick_skipbo["id"]
    for _ in range(5):
        ann.ok(gid, STOCK_TO_PILE_0)
    response = ann.act(gid, STOCK_TO_PILE_0)
    assert response.status_code == 409
    assert response.json()["code"] == "game_not_active"


def test_waiting_game_state_is_null_and_feed_works(ann, bob):
    game = create(ann, ruleset="skipbo", seats=3)
    assert bob.game(game["id"])["state"] is None
    events = feed(bob, game["id"])["events"]
    assert [e["type"] for e in events] == ["game_created", "player_joined"]
    assert events[1]["data"] == {"seat": 0, "username": "ann"}


@pytest.mark.django_db(transaction=True)
def test_a_long_poll_replaces_a_connection_that_broke_while_it_waited(
    require_postgres, ann, quick_skipbo
):
    """PostgreSQL restarted (here: the backend killed) between two polls of a long poll."""
    game = Game.objects.get(pk=quick_skipbo["id"])
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        [pid] = cursor.fetchone()
    params = {k: v for k, v in connection.get_connection_params().items() if k != "context"}
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    assert waiting._poll_version(game) == quick_skipbo["version"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid
