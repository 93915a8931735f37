# ruff: noqa: E501  (the table of malformed bodies reads best one case per line)
"""POST /api/games/{id}/actions/: success, error order and bodies, expected_version,
Idempotency-Key (sequential repeats; concurrent repeats are in tests/store)."""

from __future__ import annotations

import pytest

from games.models import Event, IdempotentAnswer
from tests.api.conftest import create

pytestmark = pytest.mark.django_db

UNKNOWN = "00000000-0000-0000-0000-000000000000"
STOCK_TO_PILE_0 = {"type": "play", "from": "stock", "pile": 0}


def test_play_answers_version_events_and_game(ann, quick_skipbo):
    gid = quick_skipbo["id"]
    before = quick_skipbo["version"]
    response = ann.act(gid, STOCK_TO_PILE_0)
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"version", "events", "game"}
    # One card_played: stock top "1" (card id 0) onto empty pile 0; the new stock top
    # is card id 1, a "2" (SKIPBO_QUICK deals seat 0's stock 1..5 top first).
    assert body["version"] == before + 1
    [event] = body["events"]
    assert event["seq"] == before + 1
    assert event["type"] == "card_played"
    assert event["seat"] == 0
    assert event["at"].endswith("Z")
    assert event["data"] == {
        "seat": 0,
        "from": "stock",
        "card": 0,
        "code": "1",
        "pile": 0,
        "value": 1,
        "stock_top": {"card": 1, "code": "2"},
    }
    game = body["game"]
    assert game["version"] == body["version"]
    assert game["you"] == 0
    assert game["state"]["stock"]["0"] == {"top": "2", "count": 4}
    assert game["state"]["building"][0] == {"next": 2, "count": 1, "top": "1"}
    assert Event.objects.filter(game_id=gid).count() == body["version"]


def test_error_order_404_403_400_409(ann, bob, cid, quick_skipbo):
    gid = quick_skipbo["id"]
    # 404 first, whatever the body.
    assert ann.act(UNKNOWN, {"type": "dance"}).status_code == 404
    # 403 before 400: cid has no seat; the body is malformed too.
    response = cid.act(gid, {"type": "dance"})
    assert response.status_code == 403
    assert response.json() == {
        "code": "not_a_player",
        "detail": "You are not a player of this game.",
    }
    # 400 before 409: bob is not on turn, but the body is malformed.
    response = bob.act(gid, {"type": "play", "from": "stock", "pile": -1})
    assert response.status_code == 400
    # Well-formed, not bob's turn: 409.
    response = bob.act(gid, STOCK_TO_PILE_0)
    assert response.status_code == 409
    assert response.json() == {"code": "not_your_turn", "detail": "It is seat 0's turn, not yours."}
    assert Event.objects.filter(game_id=gid).count() == quick_skipbo["version"]


def test_waiting_game_is_not_active(ann):
    game = create(ann, ruleset="skipbo", seats=2)
    response = ann.act(game["id"], STOCK_TO_PILE_0)
    assert response.status_code == 409
    assert response.json() == {
        "code": "game_not_active",
        "detail": "The game is waiting, not active.",
    }
    # ... but a malformed body is still 400.
    assert ann.act(game["id"], {"type": "look", "positions": [1, 1]}).status_code == 400


@pytest.mark.parametrize(
    ("body", "code", "detail"),
    [
        ({}, "invalid", "type: This field is required."),
        ({"type": "dance"}, "invalid", None),
        ({"type": 5}, "invalid", None),
        ({"type": "look"}, "invalid", "positions: This field is required."),
        ({"type": "look", "positions": [1]}, "invalid", "positions: Ensure this field has at least 2 elements."),
        ({"type": "look", "positions": [1, 1]}, "invalid", "positions: Two different positions are needed."),
        ({"type": "look", "positions": [0, -1]}, "invalid", "positions[1]: Ensure this value is greater than or equal to 0."),
        ({"type": "look", "positions": [0, True]}, "invalid", "positions[1]: A valid integer is required."),
        ({"type": "draw"}, "invalid", "source: This field is required."),
        ({"type": "draw", "source": "hat"}, "invalid", 'source: "hat" is not a valid choice.'),
        ({"type": "replace", "positions": []}, "invalid", None),
        ({"type": "replace", "positions": [2, 2]}, "invalid", "positions: Each position may be named once."),
        ({"type": "peek", "position": "0"}, "invalid", "position: A valid integer is required."),
        ({"type": "peek", "position": 1.5}, "invalid", "position: A valid integer is required."),
        ({"type": "spy", "seat": 2, "position": 0}, "invalid_seat", "seat: This game has seats 0 to 1."),
        ({"type": "swap", "position": 0, "seat": 1}, "invalid", "their_position: This field is required."),
        ({"type": "throw", "seat": 1, "position": 0, "onto": -3}, "invalid", None),
        ({"type": "throw", "seat": 1, "position": 0, "onto": 3, "give_position": "2"}, "invalid", "give_position: A valid integer is required."),
        ({"type": "throw", "seat": 0, "position": 0, "onto": 3, "give_position": 2}, "invalid", "give_position: Only with another player's card."),
        ({"type": "play", "from": "hand", "pile": 0}, "invalid", "card: Name the hand card to play."),
        ({"type": "play", "from": "discard", "pile": 0}, "invalid", "discard_pile: Name your discard pile."),
        ({"type": "play", "from": "stock", "pile": 4}, "invalid", "pile: Ensure this value is less than or equal to 3."),
        ({"type": "play", "from": "hand", "card": "KH", "pile": 0}, "invalid", "card: Not a card code of any game's actions (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, SB)."),
        ({"type": "end", "card": "7", "discard_pile": 9}, "invalid", None),
        ({"type": "play", "from": "stock", "pile": 0, "expected_version": "3"}, "invalid", "expected_version: A valid integer is required."),
    ],
)  # fmt: skip
def test_malformed_bodies(ann, quick_skipbo, body, code, detail):
    response = ann.act(quick_skipbo["id"], body)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    if detail is not None:
        assert response.json()["detail"] == detail
    assert Event.objects.filter(game_id=quick_skipbo["id"]).count() == quick_skipbo["version"]


def test_body_must_be_a_json_object(ann, quick_skipbo):
    gid = quick_skipbo["id"]
    response = ann.act(gid, [STOCK_TO_PILE_0])
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    response = ann.post(f"/api/games/{gid}/actions/", "{", content_type="application/json")
    assert response.json() == {"code": "parse_error", "detail": "The body is not valid JSON."}
    response = ann.post(f"/api/games/{gid}/actions/", "type=call", content_type="text/plain")
    assert response.status_code == 400


def test_action_the_ruleset_lacks_is_409(ann, quick_skipbo):
    response = ann.act(quick_skipbo["id"], {"type": "draw", "source": "deck"})
    assert response.status_code == 409
    assert response.json()["code"] == "not_in_ruleset"


def test_expected_version(ann, quick_skipbo):
    gid, version = quick_skipbo["id"], quick_skipbo["version"]
    response = ann.act(gid, {**STOCK_TO_PILE_0, "expected_version": version - 1})
    assert response.status_code == 409
    assert response.json() == {
        "code": "version_conflict",
        "detail": f"The game is at version {version}, not {version - 1}; "
        "reload it and decide again.",
    }
    assert Event.objects.filter(game_id=gid).count() == version
    response = ann.act(gid, {**STOCK_TO_PILE_0, "expected_version": version})
    assert response.status_code == 201
    assert response.json()["version"] == version + 1


def test_idempotent_repeat_returns_the_first_answer_byte_for_byte(ann, quick_skipbo):
    gid = quick_skipbo["id"]
    first = ann.act(gid, STOCK_TO_PILE_0, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201
    stored = Event.objects.filter(game_id=gid).count()
    # Carried out again, the same body would play the 2: the key answers the first time.
    again = ann.act(gid, STOCK_TO_PILE_0, HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 201
    assert again.content == first.content
    assert again["Content-Type"] == "application/json"
    assert Event.objects.filter(game_id=gid).count() == stored
    assert IdempotentAnswer.objects.count() == 1
    # A new key is a new action: the 2 goes onto pile 0.
    third = ann.act(gid, STOCK_TO_PILE_0, HTTP_IDEMPOTENCY_KEY="k-2")
    assert third.status_code == 201
    assert third.json()["events"][0]["data"]["code"] == "2"


def test_refused_action_is_not_remembered(ann, bob, quick_skipbo):
    gid = quick_skipbo["id"]
    # Pile 1 is empty and needs a 1: fine. First a refusal with the key...
    refused = ann.act(gid, {**STOCK_TO_PILE_0, "expected_version": 1}, HTTP_IDEMPOTENCY_KEY="k")
    assert refused.status_code == 409
    assert not IdempotentAnswer.objects.exists()
    # ... then the retry with the same key is carried out.
    retried = ann.act(gid, STOCK_TO_PILE_0, HTTP_IDEMPOTENCY_KEY="k")
    assert retried.status_code == 201
    # The same key from another user in the same game is that user's own.
    other = bob.act(gid, STOCK_TO_PILE_0, HTTP_IDEMPOTENCY_KEY="k")
    assert other.status_code == 409
    assert other.json()["code"] == "not_your_turn"


def test_idempotency_key_too_long(ann, quick_skipbo):
    response = ann.act(quick_skipbo["id"], STOCK_TO_PILE_0, HTTP_IDEMPOTENCY_KEY="x" * 256)
    assert response.status_code == 400
    assert response.json()["detail"].startswith("Idempotency-Key:")
