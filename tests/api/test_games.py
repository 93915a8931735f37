"""POST/GET /api/games/, GET /api/games/{id}/, POST /api/games/{id}/join/."""

from __future__ import annotations

import hashlib

import pytest
from django.test import override_settings

from games.models import Event, Game, Seat
from tests.api.conftest import create
from tests.fixtures import SKIPBO_QUICK, SKIPBO_QUICK_OPTIONS

pytestmark = pytest.mark.django_db

UNKNOWN = "00000000-0000-0000-0000-000000000000"


def test_create_answers_the_game_with_state_null_while_waiting(ann):
    body = create(ann, ruleset="skipbo", seats=3, options={"stock_size": 10})
    game = Game.objects.get(pk=body["id"])
    assert body == {
        "id": str(game.id),
        "ruleset": "skipbo",
        "status": "waiting",
        "version": 2,  # game_created + player_joined(0)
        "seats": 3,
        "options": {
            "stock_size": 10,
            "start_seat": None,
            "memory": "assisted",
            "max_timeouts": 3,
            "stand_in": "rules",
        },
        "turn_timeout": 86400,
        "players": [
            {
                "seat": 0,
                "username": "ann",
                "score": 0,
                "absent": False,
                "bot": None,
                "bot_account": False,
                "rating_change": None,
            }
        ],
        "you": 0,
        "state": None,
        "created_at": body["created_at"],
        "fairness": {  # API.md "Fair deals": the commitment from the first answer on
            "commitment": hashlib.sha256(bytes(game.server_seed)).hexdigest(),
            "player_seeds": {"0": ""},
            "server_seed": None,
        },
        "private": False,  # games among friends
    }
    assert body["created_at"].endswith("Z")
    assert list(Event.objects.filter(game=game).values_list("seq", "type")) == [
        (1, "game_created"),
        (2, "player_joined"),
    ]
    assert list(Seat.objects.filter(game=game).values_list("seat", "user__username")) == [
        (0, "ann")
    ]
    assert (game.status, game.version, game.created_by.username) == ("waiting", 2, "ann")


@pytest.mark.parametrize(
    ("body", "code", "detail"),
    [
        ({"seats": 2}, "invalid", "ruleset: This field is required."),
        ({"ruleset": "skipbo"}, "invalid", "seats: This field is required."),
        ({"ruleset": "skipbo", "seats": "2"}, "invalid", "seats: A valid integer is required."),
        ({"ruleset": "skipbo", "seats": True}, "invalid", "seats: A valid integer is required."),
        (
            {"ruleset": "skipbo", "seats": 2, "turn_timeout": 0},
            "invalid",
            "turn_timeout: Ensure this value is greater than or equal to 1.",
        ),
        (
            {"ruleset": "skipbo", "seats": 2, "turn_timeout": 1_209_601},
            "invalid",
            "turn_timeout: Ensure this value is less than or equal to 1209600.",
        ),
        (
            {"ruleset": "skipbo", "seats": 2, "options": []},
            "invalid",
            'options: Expected a dictionary of items but got type "list".',
        ),
        (
            {"ruleset": "skipbo", "seats": 2, "decks": [["1", 2]]},
            "invalid",
            "decks[0][1]: Not a valid string.",
        ),
    ],
)
def test_create_malformed(ann, body, code, detail):
    response = ann.post("/api/games/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {"code": code, "detail": detail}
    assert not Game.objects.exists()


def test_create_rules_refusals(ann):
    cases = [
        ({"ruleset": "uno", "seats": 2}, "unknown_ruleset"),
        ({"ruleset": "skipbo", "seats": 7}, "invalid_seats"),
        ({"ruleset": "skipbo", "seats": 1}, "invalid_seats"),
        ({"ruleset": "skipbo", "seats": 2, "options": {"colour": 1}}, "invalid_option"),
        ({"ruleset": "skipbo", "seats": 2, "options": {"memory": "perfect"}}, "invalid_option"),
        ({"ruleset": "skipbo", "seats": 2, "options": {"start_seat": 2}}, "invalid_option"),
        ({"ruleset": "skipbo", "seats": 2, "options": {"max_timeouts": 0}}, "invalid_option"),
    ]
    for body, code in cases:
        response = ann.post("/api/games/", body, format="json")
        assert response.status_code == 400, body
        assert response.json()["code"] == code, body
    assert (
        ann.post(
            "/api/games/",
            {"ruleset": "skipbo", "seats": 2, "options": {"colour": 1}},
            format="json",
        )
        .json()["detail"]
        .startswith("options.colour: unknown option")
    )
    assert not Game.objects.exists()


def test_create_with_an_invalid_stacked_deck_names_the_list(ann):
    # Skip-Bo has twelve 1s: a thirteenth cannot be part of the deck; "KH" never is.
    response = ann.post(
        "/api/games/",
        {"ruleset": "skipbo", "seats": 2, "decks": [["1", "2"], ["1"] * 13 + ["KH"]]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_deck",
        "detail": "decks[1]: not part of one skipbo deck with these options: 1, KH.",
    }


@override_settings(PABLO_ALLOW_STACKED_DECKS=False)
def test_stacked_decks_disabled(ann):
    response = ann.post(
        "/api/games/", {"ruleset": "skipbo", "seats": 2, "decks": [["1"]]}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "code": "stacked_decks_disabled",
        "detail": "decks: stacked decks are disabled on this server.",
    }
    # Without decks it works.
    create(ann, ruleset="skipbo", seats=2)


def test_non_json_body_is_400(ann):
    response = ann.post("/api/games/", "ruleset=skipbo", content_type="text/plain")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    response = ann.post("/api/games/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"code": "parse_error", "detail": "The body is not valid JSON."}


def test_join_starts_the_game_when_full(ann, bob):
    game = create(
        ann, ruleset="skipbo", seats=2, options=SKIPBO_QUICK_OPTIONS, decks=[SKIPBO_QUICK]
    )
    response = bob.post(f"/api/games/{game['id']}/join/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "active"
    assert body["you"] == 1
    # Skip-Bo's score is the stock left (docs/skipbo.md): 5 each.
    assert body["players"] == [
        {
            "seat": 0,
            "username": "ann",
            "score": 5,
            "absent": False,
            "bot": None,
            "bot_account": False,
            "rating_change": None,
        },
        {
            "seat": 1,
            "username": "bob",
            "score": 5,
            "absent": False,
            "bot": None,
            "bot_account": False,
            "rating_change": None,
        },
    ]
    state = body["state"]
    assert state["turn"]["seat"] == 0
    assert state["hand"] == []  # bob sees no hand of his own yet, and never ann's
    assert state["hand_counts"] == {"0": 5, "1": 0}
    assert state["stock"] == {"0": {"top": "1", "count": 5}, "1": {"top": "9", "count": 5}}
    assert state["legal_actions"] == []  # not bob's turn
    # ann sees her hand: the five 7s after the two stocks.
    assert ann.game(game["id"])["state"]["hand"] == ["7", "7", "7", "7", "7"]
    row = Game.objects.get(pk=game["id"])
    assert row.status == "active"
    assert row.version == body["version"]
    assert row.deadline is not None and row.turn_key
    assert list(Seat.objects.filter(game=row).values_list("seat", "user__username")) == [
        (0, "ann"),
        (1, "bob"),
    ]


def test_join_refusals(ann, bob, cid):
    game = create(ann, ruleset="skipbo", seats=2)
    url = f"/api/games/{game['id']}/join/"
    assert ann.post(url).json() == {
        "code": "already_seated",
        "detail": "You already have a seat in this game.",
    }
    assert ann.post(url).status_code == 409
    assert bob.post(url).status_code == 200
    response = cid.post(url)
    assert response.status_code == 409
    assert response.json() == {
        "code": "game_not_waiting",
        "detail": "This game has already started.",
    }
    assert bob.post(f"/api/games/{UNKNOWN}/join/").status_code == 404
    assert bob.post("/api/games/not-a-uuid/join/").json() == {
        "code": "not_found",
        "detail": "No game with this id.",
    }


def test_detail_404_and_non_player_view(ann, bob, cid, quick_skipbo):
    response = ann.get(f"/api/games/{UNKNOWN}/")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "No game with this id."}
    seen = cid.game(quick_skipbo["id"])
    assert seen["you"] is None
    assert seen["state"]["hand"] == []
    assert seen["state"]["legal_actions"] == []
    assert seen["state"]["hand_counts"] == {"0": 5, "1": 0}


def test_list_filters_and_pagination(ann, bob, cid):
    waiting = create(ann, ruleset="skipbo", seats=2)
    active = create(bob, ruleset="skipbo", seats=2)
    cid.post(f"/api/games/{active['id']}/join/")
    for _ in range(20):
        create(cid, ruleset="skipbo", seats=3)
    everything = ann.get("/api/games/").json()
    assert everything["count"] == 22
    assert len(everything["results"]) == 20
    assert everything["next"].endswith("/api/games/?page=2")
    assert everything["previous"] is None
    assert len(ann.get("/api/games/?page=2").json()["results"]) == 2
    mine = ann.get("/api/games/?mine=true").json()
    assert mine["count"] == 1
    assert mine["results"] == [
        {
            "id": waiting["id"],
            "ruleset": "skipbo",
            "status": "waiting",
            "version": 2,
            "seats": 2,
            "options": waiting["options"],
            "turn_timeout": 86400,
            "players": [{"seat": 0, "username": "ann", "bot": None, "bot_account": False}],
            "you": 0,
            "result": None,
            "created_at": waiting["created_at"],
            "private": False,  # games among friends
        }
    ]
    act = ann.get("/api/games/?status=active").json()
    assert [g["id"] for g in act["results"]] == [active["id"]]
    assert act["results"][0]["you"] is None
    assert bob.get("/api/games/?status=active&mine=true").json()["count"] == 1
    assert bob.get("/api/games/?status=waiting&mine=true").json()["count"] == 0
    bad = ann.get("/api/games/?status=sleeping")
    assert bad.status_code == 400
    assert bad.json() == {"code": "invalid", "detail": 'status: "sleeping" is not a valid choice.'}
    assert ann.get("/api/games/?page=9").status_code == 404
