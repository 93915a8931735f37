"""GET /api/me/events/: the account's own feed, written by the ``account_feed`` follower.

The follower is caught up by hand here (``catch_up``), as the worker does after
each append; the live long poll is in test_account_feed_live.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import DatabaseError

from games import followers
from games.feed.followers import NAME, TYPES
from games.models import AccountEvent, FollowerPosition, Game
from games.services import bots as bot_services
from tests.api.conftest import create
from tests.fixtures import SKIPBO_QUICK, SKIPBO_QUICK_OPTIONS, STOCK_TO_PILE_0

pytestmark = pytest.mark.django_db

FIELDS = {"position", "type", "game", "at", "data"}
#: The keys of each type's data: public facts only.
DATA = {
    "game_started": {"ruleset", "seat"},
    "your_turn": {"deadline", "seat", "version", "turn"},
    "turn_timed_out": {"seat"},
    "game_finished": {"result", "status", "seat"},
    "rematch_offered": {"rematch", "seat"},
}


def follower() -> followers.Follower:
    return next(f for f in followers.registered() if f.name == NAME)


def catch_up() -> int:
    return followers.follow(follower())


def feed(client: Any, **query: Any) -> dict[str, Any]:
    response = client.get("/api/me/events/", query)
    assert response.status_code == 200, response.content
    return response.json()


def everything(client: Any) -> list[dict[str, Any]]:
    return feed(client, after=0)["events"]


def quick(first: Any, second: Any, *, start_seat: int = 0, **extra: Any) -> str:
    options = {**SKIPBO_QUICK_OPTIONS, "start_seat": start_seat}
    game = create(first, ruleset="skipbo", seats=2, options=options, decks=[SKIPBO_QUICK], **extra)
    body = {"invite": game["invite"]} if extra.get("private") else {}
    answer = second.post(f"/api/games/{game['id']}/join/", body, format="json")
    assert answer.status_code == 200 and answer.json()["status"] == "active"
    return game["id"]


def kinds(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["type"], e["game"]) for e in events]


def test_the_contract_gapless_and_ordered_across_games(ann, bob, anon):
    assert feed(ann) == {"events": [], "position": 0}
    one = quick(ann, bob, turn_timeout=600)  # ann on turn
    two = quick(ann, bob, start_seat=1, turn_timeout=3600)  # bob on turn
    for _ in range(5):
        ann.ok(one, STOCK_TO_PILE_0)  # ann wins game one
    catch_up()
    mine = everything(ann)
    assert kinds(mine) == [
        ("game_started", one),
        ("your_turn", one),
        ("game_started", two),
        ("game_finished", one),
    ]
    assert [e["position"] for e in mine] == [1, 2, 3, 4]
    for event in mine:
        assert set(event) == FIELDS and set(event["data"]) == DATA[event["type"]]
        assert event["type"] in TYPES
    game = ann.game(one)
    turn = mine[1]["data"]
    assert turn["seat"] == 0 and turn["deadline"] is not None and turn["version"] >= 1
    assert mine[0]["data"] == {"ruleset": "skipbo", "seat": 0}
    assert mine[3]["data"] == {
        "result": game["state"]["result"],
        "status": "finished",
        "seat": 0,
    }
    theirs = everything(bob)
    assert kinds(theirs) == [
        ("game_started", one),
        ("game_started", two),
        ("your_turn", two),
        ("game_finished", one),
    ]
    assert theirs[2]["data"]["deadline"] == ann.game(two)["state"]["turn"]["deadline"]
    # without after: where to wait from; after p: exactly what follows p
    assert feed(ann) == {"events": [], "position": 4}
    assert feed(ann, after=2) == {"events": mine[2:], "position": 4}
    assert feed(ann, after=4) == {"events": [], "position": 4}
    assert feed(ann, after=99) == {"events": [], "position": 4}  # beyond: the newest
    assert ann.head("/api/me/events/", {"after": 0}).status_code == 200
    # errors
    assert anon.get("/api/me/events/").status_code == 401
    for bad in ({"after": -1}, {"after": "x"}, {"wait": 31}, {"wait": "soon"}, {"after": 2**40}):
        answer = ann.get("/api/me/events/", bad)
        assert answer.status_code == 400, bad
        assert set(answer.json()) == {"code", "detail"}


def test_pages_resume_exactly(ann, bob, monkeypatch):
    from games.selectors import programs

    for _ in range(3):
        quick(ann, bob, turn_timeout=600)
    catch_up()
    monkeypatch.setattr(programs, "FEED_PAGE", 2)
    monkeypatch.setattr(programs.account_events, "__kwdefaults__", {"limit": 2})
    seen: list[dict[str, Any]] = []
    after = 0
    while True:
        page = feed(ann, after=after)
        assert len(page["events"]) <= 2
        if not page["events"]:
            break
        seen += page["events"]
        after = page["position"]
    assert [e["position"] for e in seen] == list(range(1, 7))
    assert after == 6


def test_timeouts_and_rematches(ann, bob):
    one = quick(ann, bob, turn_timeout=600, private=True)
    for _ in range(5):
        ann.ok(one, STOCK_TO_PILE_0)
    two = quick(ann, bob, start_seat=1, turn_timeout=600)
    catch_up()
    start, anns = feed(bob)["position"], feed(ann)["position"]
    game = Game.objects.get(pk=two)
    assert bot_services.game_timeout(game_id=two, turn_key=game.turn_key) > 0  # bob's turn
    answer = ann.post(f"/api/games/{one}/rematch/", {}, format="json")
    assert answer.status_code in (200, 201), answer.content
    rematch = answer.json()["id"]
    catch_up()
    news = feed(bob, after=start)["events"]
    assert [e["type"] for e in news] == ["turn_timed_out", "rematch_offered"]
    assert news[0]["game"] == two and news[0]["data"] == {"seat": 1}
    assert news[1]["game"] == one and news[1]["data"] == {"rematch": rematch, "seat": 1}
    # the turn passed to ann
    assert [(e["type"], e["game"]) for e in feed(ann, after=anns)["events"]] == [("your_turn", two)]
    # the one who asked for the rematch is not offered it
    assert "rematch_offered" not in [e["type"] for e in everything(ann)]


def test_an_aborted_game_ends_too(ann, bob):
    game = create(ann, ruleset="skipbo", seats=2, private=True)
    assert ann.post(f"/api/games/{game['id']}/cancel/", {}, format="json").status_code == 200
    catch_up()
    # never started: nothing to tell (a game nobody else sat at)
    assert everything(bob) == []
    ended = everything(ann)
    assert [e["type"] for e in ended] == ["game_finished"]
    assert ended[0]["data"] == {
        "result": {"winners": [], "losers": []},
        "status": "aborted",
        "seat": 0,
    }


def test_never_a_card(ann, bob, cid):
    """A Pablo-family game dealt from a shuffled deck: no card code of the whole game
    (the unredacted replay's) appears in the account feeds."""
    game = create(ann, ruleset="pablo", seats=3, turn_timeout=600)
    for player in (bob, cid):
        assert player.post(f"/api/games/{game['id']}/join/").status_code == 200
    catch_up()
    events = Game.objects.get(pk=game["id"]).events.order_by("seq")
    codes = {code for event in events for code in event.data.get("deck", [])}
    assert len(codes) > 10  # the deal is in the log, unredacted
    for player in (ann, bob, cid):
        text = json.dumps(everything(player))
        assert everything(player)[0]["type"] == "game_started"
        assert not [code for code in codes if f'"{code}"' in text]
        for event in everything(player):
            assert set(event["data"]) == DATA[event["type"]]


def test_a_crash_between_handle_and_commit_loses_and_doubles_nothing(ann, bob, monkeypatch):
    one = quick(ann, bob, turn_timeout=600)
    quick(ann, bob, start_seat=1, turn_timeout=600)
    for _ in range(5):
        ann.ok(one, STOCK_TO_PILE_0)
    real = FollowerPosition.save

    def crash(self, *args, **kwargs):
        if self.name == NAME:
            raise DatabaseError("the worker died before its commit")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(FollowerPosition, "save", crash)
    with pytest.raises(DatabaseError):
        catch_up()
    assert not AccountEvent.objects.exists()  # rolled back with the position
    monkeypatch.setattr(FollowerPosition, "save", real)
    catch_up()
    once = everything(ann), everything(bob)
    assert [e["position"] for e in once[0]] == [1, 2, 3, 4]
    # handled again from the start (a position lost, a second reader): nothing doubles
    FollowerPosition.objects.filter(name=NAME).update(position=0)
    catch_up()
    assert (everything(ann), everything(bob)) == once
    assert AccountEvent.objects.count() == len(once[0]) + len(once[1])


def test_the_follower_skips_what_it_stored_in_a_batch_cut_midway(ann, bob):
    """A batch boundary inside one append: every item stored once, in order."""
    quick(ann, bob, turn_timeout=600)
    quick(ann, bob, start_seat=1, turn_timeout=600)
    feed_follower = follower()
    feed_follower.batch = 1
    try:
        catch_up()
    finally:
        feed_follower.batch = 500
    assert [e["position"] for e in everything(bob)] == [1, 2, 3]
    assert [e["type"] for e in everything(bob)] == ["game_started", "game_started", "your_turn"]


def test_house_bots_get_no_rows_a_bot_account_does(ann, bob):
    assert bob.post("/api/me/bot/").status_code == 200  # bob: a program's account
    game = create(
        ann,
        ruleset="skipbo",
        seats=3,
        options={"start_seat": 0},
        bots=[{"seat": 2, "level": "random"}],
    )
    assert bob.post(f"/api/games/{game['id']}/join/").status_code == 200
    catch_up()
    assert [e["type"] for e in everything(ann)] == ["game_started", "your_turn"]
    assert [e["type"] for e in everything(bob)] == ["game_started"]
    users = set(AccountEvent.objects.values_list("user__username", flat=True))
    assert users == {"ann", "bob"}  # not the house bot's account
