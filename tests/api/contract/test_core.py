"""Black-box contract tests: statements of /work/shared/API.md not pinned elsewhere in tests/api.

Everything goes through the HTTP client; expectations are worked out by hand from
RULES.md with stacked decks (the arithmetic sits beside each assertion).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.test import override_settings

from games.models import Game
from games.services import bots as bot_services
from tests.api.conftest import create

pytestmark = pytest.mark.django_db

GAME_KEYS = {
    "id",
    "ruleset",
    "status",
    "version",
    "seats",
    "options",
    "turn_timeout",
    "players",
    "you",
    "state",
}
FAMILY_STATE_KEYS = {
    "round",
    "phase",
    "turn",
    "held",
    "discard",
    "deck",
    "fields",
    "called_by",
    "legal_actions",
    "rounds",
    "result",
}
SKIPBO_STATE_KEYS = {
    "round",
    "phase",
    "turn",
    "hand",
    "hand_counts",
    "stock",
    "discards",
    "building",
    "deck",
    "legal_actions",
    "rounds",
    "result",
}

#: pablo, 2 seats: ann 5H 6H 7H 8H, bob 2S 3S 4S 5S, discard 5D; draw pile KS, 3D, 4C, ...
PABLO_DECK = ["5H", "6H", "7H", "8H", "2S", "3S", "4S", "5S", "5D", "KS", "3D", "4C"]


def error(response, status: int, code: str | None = None) -> dict:
    """The one error shape: exactly {"code", "detail"}, a non-empty sentence."""
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"code", "detail"}, body
    assert isinstance(body["detail"], str) and body["detail"]
    if code is not None:
        assert body["code"] == code, body
    return body


def version(client, gid: str) -> int:
    return client.game(gid)["version"]


def parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


@pytest.fixture
def pablo(ann, bob) -> str:
    game = create(ann, ruleset="pablo", seats=2, options={"start_seat": 0}, decks=[PABLO_DECK])
    assert bob.post(f"/api/games/{game['id']}/join/").status_code == 200
    return game["id"]


@pytest.fixture
def pablo_playing(ann, bob, pablo) -> str:
    ann.ok(pablo, {"type": "look", "positions": [0, 1]})
    bob.ok(pablo, {"type": "look", "positions": [2, 3]})
    return pablo


# ------------------------------------------------------------------------------ rulesets


def test_rulesets_players_ranges_and_option_descriptions(anon):
    response = anon.get("/api/rulesets/")
    assert response.status_code == 200
    by_id = {r["id"]: r for r in response.json()}
    # RULES.md: pablo/pablo-50/cabo 2-8, tamalou 2-12 (two decks), skipbo 2-6.
    assert {k: (r["min_players"], r["max_players"]) for k, r in by_id.items()} == {
        "pablo": (2, 8),
        "pablo-50": (2, 8),
        "tamalou": (2, 12),
        "cabo": (2, 8),
        "skipbo": (2, 6),
    }
    for ruleset in by_id.values():
        assert set(ruleset) == {
            "id",
            "name",
            "min_players",
            "max_players",
            "options",
            "bot_levels",
        }
        assert {"random", "basic"} <= set(ruleset["bot_levels"])  # API.md "Bots"
        assert isinstance(ruleset["name"], str) and ruleset["name"]
        assert {"start_seat", "memory", "max_timeouts"} <= set(ruleset["options"])
        for option in ruleset["options"].values():
            assert {"type", "default"} <= set(option)
    pablo = by_id["pablo"]["options"]
    assert pablo["jokers"]["default"] == 1
    assert pablo["forty_two"] == pablo["forty_two"] | {"type": "boolean", "default": False}
    assert by_id["tamalou"]["options"]["decks"]["default"] == 1
    assert by_id["skipbo"]["options"]["stock_size"]["default"] is None


def test_schema_and_docs_are_public(anon):
    assert anon.get("/api/schema/").status_code == 200
    assert anon.get("/api/docs/").status_code == 200


# ------------------------------------------------------------------------------ create


@pytest.mark.parametrize("turn_timeout", [1, 1_209_600])
def test_turn_timeout_bounds_are_inclusive(ann, turn_timeout):
    body = create(ann, ruleset="pablo", seats=2, turn_timeout=turn_timeout)
    assert body["turn_timeout"] == turn_timeout


@pytest.mark.parametrize(
    ("ruleset", "seats", "options"),
    [
        ("pablo", 2, {}),
        ("pablo", 8, {}),
        ("pablo-50", 8, {}),
        ("cabo", 8, {}),
        ("tamalou", 6, {}),
        ("tamalou", 12, {"decks": 2}),
        ("skipbo", 6, {}),
    ],
)
def test_seats_within_range(ann, ruleset, seats, options):
    body = create(ann, ruleset=ruleset, seats=seats, options=options)
    assert (body["ruleset"], body["seats"], body["status"]) == (ruleset, seats, "waiting")
    assert body["turn_timeout"] == 86400  # the default


@pytest.mark.parametrize(
    ("ruleset", "seats", "options"),
    [("pablo", 9, {}), ("cabo", 1, {}), ("tamalou", 7, {}), ("tamalou", 13, {"decks": 2})],
)
def test_seats_out_of_range(ann, ruleset, seats, options):
    response = ann.post(
        "/api/games/", {"ruleset": ruleset, "seats": seats, "options": options}, format="json"
    )
    error(response, 400, "invalid_seats")
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"jokers": 3}, "jokers"),  # out of range
        ({"jokers": "1"}, "jokers"),  # wrong type
        ({"forty_two": "yes"}, "forty_two"),
        ({"forty_two": 1}, "forty_two"),
        ({"start_seat": "0"}, "start_seat"),
        ({"start_seat": -1}, "start_seat"),
        ({"max_timeouts": 1.5}, "max_timeouts"),
        ({"memory": 1}, "memory"),
        ({"stock_size": 10}, "stock_size"),  # a skipbo option: unknown in pablo
    ],
)
def test_bad_options_name_the_field(ann, options, field):
    response = ann.post(
        "/api/games/", {"ruleset": "pablo", "seats": 2, "options": options}, format="json"
    )
    body = error(response, 400, "invalid_option")
    assert body["detail"].startswith(f"options.{field}: "), body
    assert not Game.objects.exists()


def test_start_seat_null_is_accepted(ann):
    body = create(ann, ruleset="pablo", seats=2, options={"start_seat": None})
    assert body["options"]["start_seat"] is None


@pytest.mark.parametrize(
    "decks",
    [
        [["ZZ"]],  # not a card code
        [["5H", "5H"]],  # one deck has one 5H
        [["JK", "JK"]],  # jokers: 1 by default
        [["0"]],  # a cabo code, not a French card
    ],
)
def test_a_deck_list_not_part_of_the_deck_is_400(ann, decks):
    response = ann.post(
        "/api/games/", {"ruleset": "pablo", "seats": 2, "decks": decks}, format="json"
    )
    body = error(response, 400, "invalid_deck")
    assert body["detail"].startswith("decks[0]")
    assert not Game.objects.exists()


def test_two_jokers_fit_a_two_joker_deck(ann):
    create(ann, ruleset="pablo", seats=2, options={"jokers": 2}, decks=[["JK", "JK"]])


@override_settings(PABLO_ALLOW_STACKED_DECKS=False)
def test_stacked_decks_refused_when_the_setting_is_off(ann):
    response = ann.post(
        "/api/games/", {"ruleset": "pablo", "seats": 2, "decks": [PABLO_DECK]}, format="json"
    )
    error(response, 400, "stacked_decks_disabled")
    assert not Game.objects.exists()


@override_settings(PABLO_ALLOW_STACKED_DECKS=True)
def test_stacked_decks_accepted_when_the_setting_is_on(ann):
    create(ann, ruleset="pablo", seats=2, decks=[PABLO_DECK])


def test_a_prefix_deck_deals_its_cards_and_shuffles_the_rest(ann, bob):
    # Only five cards are stacked: ann's four (slots 0-3), then bob's slot 0 (deal
    # order, RULES.md); the rest comes shuffled from the 53 - 5 = 48 other cards.
    game = create(
        ann,
        ruleset="pablo",
        seats=2,
        options={"start_seat": 0},
        decks=[["AS", "2S", "3S", "4S", "9D"]],
    )
    gid = game["id"]
    bob.post(f"/api/games/{gid}/join/")
    ann.ok(gid, {"type": "look", "positions": [0, 3]})
    state = ann.game(gid)["state"]
    assert state["fields"]["0"] == ["AS", "?", "?", "4S"]
    assert state["discard"]["count"] == 1
    assert state["discard"]["top"] not in {"AS", "2S", "3S", "4S", "9D"}
    assert state["deck"] == {"count": 53 - 9}  # 8 dealt + 1 turned up
    bob.ok(gid, {"type": "look", "positions": [0, 1]})
    slot0, slot1 = bob.game(gid)["state"]["fields"]["1"][:2]
    assert slot0 == "9D"
    assert slot1 not in {"AS", "2S", "3S", "4S", "9D", "?"}


# ------------------------------------------------------------------------------ join, list


def test_join_takes_the_lowest_free_seat_and_starts_when_full(ann, bob, cid):
    gid = create(ann, ruleset="pablo", seats=3)["id"]
    joined = bob.post(f"/api/games/{gid}/join/")
    assert joined.status_code == 200
    assert (joined.json()["you"], joined.json()["status"]) == (1, "waiting")
    assert joined.json()["state"] is None
    last = cid.post(f"/api/games/{gid}/join/").json()
    assert (last["you"], last["status"]) == (2, "active")
    assert [(p["seat"], p["username"]) for p in last["players"]] == [
        (0, "ann"),
        (1, "bob"),
        (2, "cid"),
    ]


def test_join_a_full_game_is_409(ann, bob, make_player):
    gid = create(ann, ruleset="pablo", seats=2)["id"]
    bob.post(f"/api/games/{gid}/join/")
    error(make_player("dan").post(f"/api/games/{gid}/join/"), 409, "game_not_waiting")
    error(bob.post(f"/api/games/{gid}/join/"), 409)  # seated and started


def test_list_status_filter_and_page_shape(ann, bob, pablo):
    waiting = create(ann, ruleset="cabo", seats=2)["id"]
    page = bob.get("/api/games/?status=waiting").json()
    assert set(page) == {"count", "next", "previous", "results"}
    assert [g["id"] for g in page["results"]] == [waiting]
    assert page["count"] == 1 and page["next"] is None and page["previous"] is None
    active = bob.get("/api/games/?status=active&mine=true").json()
    assert [g["id"] for g in active["results"]] == [pablo]
    assert bob.get("/api/games/?status=finished").json()["count"] == 0


# ------------------------------------------------------------------------------ game object


def test_detail_404_for_an_unknown_id(ann):
    error(ann.get("/api/games/00000000-0000-0000-0000-000000000000/"), 404, "not_found")


def test_game_object_fields_for_players_and_strangers(ann, bob, cid, pablo):
    for client, you in [(ann, 0), (bob, 1), (cid, None)]:
        game = client.game(pablo)
        assert set(game) >= GAME_KEYS
        assert game["you"] == you
        assert set(game["state"]) >= FAMILY_STATE_KEYS
        assert game["players"] == [
            {
                "seat": 0,
                "username": "ann",
                "score": 0,
                "absent": False,
                "bot": None,
                "bot_account": False,
                "rating_change": None,
            },
            {
                "seat": 1,
                "username": "bob",
                "score": 0,
                "absent": False,
                "bot": None,
                "bot_account": False,
                "rating_change": None,
            },
        ]
    # version is the seq of the last event.
    feed = cid.get(f"/api/games/{pablo}/events/").json()
    assert cid.game(pablo)["version"] == feed["version"] == feed["events"][-1]["seq"]


def test_setup_phase_state(ann, bob, cid, pablo):
    game = bob.game(pablo)
    state = game["state"]
    assert (state["round"], state["phase"]) == (1, "setup")
    assert state["turn"]["seat"] is None  # null in setup
    assert state["turn"]["stage"] == "look"
    # The setup phase times out one turn_timeout (86400 s) after the game started.
    deadline = parse(state["turn"]["deadline"])
    started = Game.objects.get(pk=pablo).updated_at
    assert abs(deadline - started - timedelta(seconds=86400)) < timedelta(seconds=5)
    assert state["held"] is None
    assert state["discard"] == {"top": "5D", "count": 1, "serial": 1}  # the dealt card
    assert state["deck"] == {"count": 53 - 9}  # 52 + 1 joker, 2 x 4 dealt, 1 turned up
    assert state["fields"] == {"0": ["?"] * 4, "1": ["?"] * 4}
    assert state["called_by"] == []
    assert state["rounds"] == []
    assert state["result"] is None
    assert [a["type"] for a in state["legal_actions"]] == ["look"]
    assert cid.game(pablo)["state"]["legal_actions"] == []  # a stranger may do nothing


def test_look_then_play_begins(ann, bob, cid, pablo):
    answer = ann.ok(pablo, {"type": "look", "positions": [0, 1]})
    assert answer["game"]["state"]["fields"]["0"] == ["5H", "6H", "?", "?"]
    assert bob.game(pablo)["state"]["fields"]["0"] == ["?"] * 4
    error(ann.act(pablo, {"type": "look", "positions": [2, 3]}), 409, "already_looked")  # once only
    assert ann.game(pablo)["state"]["legal_actions"] == []  # bob has not looked yet
    state = bob.ok(pablo, {"type": "look", "positions": [2, 3]})["game"]["state"]
    assert state["fields"]["1"] == ["?", "?", "4S", "5S"]
    assert state["phase"] == "turn"
    assert (state["turn"]["seat"], state["turn"]["stage"]) == (0, "draw")
    assert parse(state["turn"]["deadline"]) > parse(answer["game"]["state"]["turn"]["deadline"])


def test_a_throw_in_setup_is_refused(ann, pablo):
    before = version(ann, pablo)
    error(
        ann.act(pablo, {"type": "throw", "seat": 0, "position": 0, "onto": 1}), 409, "wrong_stage"
    )
    assert version(ann, pablo) == before


# ------------------------------------------------------------------------------ a pablo round


def test_a_pablo_round_through_the_api(ann, bob, cid, pablo_playing):
    gid = pablo_playing
    # bob throws ann's slot 0 (5H, unseen by him) on the dealt 5D and gives his slot 0
    # (2S, unseen by him too) into the emptied slot.
    answer = bob.ok(gid, {"type": "throw", "seat": 0, "position": 0, "onto": 1, "give_position": 0})
    state = answer["game"]["state"]
    assert state["discard"] == {"top": "5H", "count": 2, "serial": 2}
    assert state["fields"] == {"0": ["?", "?", "?", "?"], "1": [None, "?", "4S", "5S"]}
    # ann knew 5H, not the 2S she was given.
    assert ann.game(gid)["state"]["fields"]["0"] == ["?", "6H", "?", "?"]

    # ann throws bob's 5S (slot 3) on 5H; no card given.
    state = ann.ok(gid, {"type": "throw", "seat": 1, "position": 3, "onto": 2})["game"]["state"]
    assert state["discard"] == {"top": "5S", "count": 3, "serial": 3}
    assert state["fields"]["1"] == [None, "?", "?", None]

    # A stale onto: refused, nothing stored.
    before = version(ann, gid)
    error(
        bob.act(gid, {"type": "throw", "seat": 1, "position": 2, "onto": 2}), 409, "stale_discard"
    )
    assert version(ann, gid) == before

    # A wrong throw is a legal action (201): ann's 6H (slot 1) is not a 5. It is shown to
    # all and stays; ann takes the draw pile's top (KS) into a new slot 4, unseen.
    answer = ann.act(gid, {"type": "throw", "seat": 0, "position": 1, "onto": 3})
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert set(body) == {"version", "events", "game"}
    assert body["version"] == body["game"]["version"] == before + len(body["events"])
    state = body["game"]["state"]
    assert state["fields"]["0"] == ["?", "6H", "?", "?", "?"]
    assert state["deck"] == {"count": 44 - 1}
    assert state["discard"] == {"top": "5S", "count": 3, "serial": 3}
    assert cid.game(gid)["state"]["fields"]["0"] == ["?", "6H", "?", "?", "?"]

    # Not bob's turn; ann may not discard before drawing (wrong stage).
    before = version(ann, gid)
    error(bob.act(gid, {"type": "draw", "source": "deck"}), 409, "not_your_turn")
    error(ann.act(gid, {"type": "discard"}), 409, "wrong_stage")
    error(
        ann.act(gid, {"type": "play", "from": "stock", "pile": 0}), 409, "not_in_ruleset"
    )  # not in pablo
    assert version(ann, gid) == before

    # ann draws 3D: she sees it, nobody else does.
    state = ann.ok(gid, {"type": "draw", "source": "deck"})["game"]["state"]
    assert state["held"] == "3D"
    assert (state["turn"]["seat"], state["turn"]["stage"]) == (0, "hold")
    assert state["deck"] == {"count": 42}
    assert bob.game(gid)["state"].get("held") is None
    assert cid.game(gid)["state"].get("held") is None
    state = ann.ok(gid, {"type": "discard"})["game"]["state"]
    assert state["discard"] == {"top": "3D", "count": 4, "serial": 4}
    assert {"type": "call"} in [
        {k: v for k, v in a.items() if k != "choices"} for a in state["legal_actions"]
    ]
    state = ann.ok(gid, {"type": "call"})["game"]["state"]
    assert state["called_by"] == [0]
    assert (state["turn"]["seat"], state["turn"]["stage"]) == (1, "draw")

    # bob takes the 3D from the discard pile: everyone sees it; the serial stays at 4.
    state = bob.ok(gid, {"type": "draw", "source": "discard"})["game"]["state"]
    assert state["held"] == "3D"
    assert state["discard"] == {"top": "5S", "count": 3, "serial": 4}
    for client in (ann, cid):
        seen = client.game(gid)["state"]
        assert seen["held"] == "3D"
        assert seen["discard"] == {"top": "5S", "count": 3, "serial": 4}
    # An empty slot (0) and a missing one (9) cannot be replaced.
    before = version(ann, gid)
    error(bob.act(gid, {"type": "replace", "positions": [0]}), 409, "empty_slot")
    error(bob.act(gid, {"type": "replace", "positions": [9]}), 409, "no_such_slot")
    assert version(ann, gid) == before
    state = bob.ok(gid, {"type": "replace", "positions": [1]})["game"]["state"]
    assert state["discard"] == {"top": "3S", "count": 4, "serial": 5}
    assert state["fields"]["1"] == [None, "3D", "4S", None]
    # ann knows the 3D (it was face up), not bob's 4S.
    assert ann.game(gid)["state"]["fields"]["1"] == [None, "3D", "?", None]

    # ann (the first caller) plays one more turn: draws 4C, discards: the round ends.
    ann.ok(gid, {"type": "draw", "source": "deck"})
    answer = ann.ok(gid, {"type": "discard"})
    game = answer["game"]
    # ann: 2S 6H 7H 8H KS = 2 + 6 + 7 + 8 + 13 = 36; bob: 3D 4S = 7. The caller ann is
    # not strictly lowest: +25. bob scores his total, 7.
    assert game["state"]["rounds"] == [
        {"round": 1, "totals": {"0": 36, "1": 7}, "scores": {"0": 25, "1": 7}}
    ]
    assert [p["score"] for p in game["players"]] == [25, 7]
    assert game["status"] == "active"
    state = game["state"]
    assert (state["round"], state["phase"], state["called_by"]) == (2, "setup", [])
    assert state["discard"]["count"] == state["discard"]["serial"] == 1  # a new round
    assert state["result"] is None


def test_pablo_replay_409_while_running_and_viewer_404(ann, cid, pablo):
    error(cid.get(f"/api/games/{pablo}/replay/"), 409, "game_not_finished")
    assert cid.get(f"/replays/{pablo}/").status_code == 404


#: pablo-50, 2 seats: ann 5H 6H 7H 8H, bob 2S 3S 4S 5S, discard 9D; draw pile 6D, 2C, ...
PABLO50_DECK = ["5H", "6H", "7H", "8H", "2S", "3S", "4S", "5S", "9D", "6D", "2C"]


def test_pablo50_no_open_match_and_a_protected_caller(ann, bob, cid):
    gid = create(ann, ruleset="pablo-50", seats=2, options={"start_seat": 0}, decks=[PABLO50_DECK])[
        "id"
    ]
    bob.post(f"/api/games/{gid}/join/")
    ann.ok(gid, {"type": "look", "positions": [0, 1]})
    bob.ok(gid, {"type": "look", "positions": [0, 1]})
    before = version(ann, gid)
    # pablo-50 draws from the draw pile only.
    error(ann.act(gid, {"type": "draw", "source": "discard"}), 409, "not_in_ruleset")
    assert version(ann, gid) == before
    # ann draws 6D and discards it (a 6 has no power): a match opens on the 6 (serial 2).
    ann.ok(gid, {"type": "draw", "source": "deck"})
    state = ann.ok(gid, {"type": "discard"})["game"]["state"]
    assert state["discard"] == {"top": "6D", "count": 2, "serial": 2}
    state = ann.ok(gid, {"type": "call"})["game"]["state"]
    assert state["called_by"] == [0]
    # After the call, nobody else may throw the caller's cards.
    before = version(ann, gid)
    protected = error(bob.act(gid, {"type": "throw", "seat": 0, "position": 1, "onto": 2}), 409)
    assert version(ann, gid) == before
    # ann throws her own 6H: correct, the match closes.
    state = ann.ok(gid, {"type": "throw", "seat": 0, "position": 1, "onto": 2})["game"]["state"]
    assert state["discard"] == {"top": "6H", "count": 3, "serial": 3}
    assert state["fields"]["0"] == ["5H", None, "?", "?"]
    # Another throw on the 6H: no open match, refused (not a wrong throw).
    before = version(ann, gid)
    closed = error(bob.act(gid, {"type": "throw", "seat": 1, "position": 0, "onto": 3}), 409)
    assert version(ann, gid) == before
    assert (protected["code"], closed["code"]) == ("protected_target", "no_open_match")
    assert bob.game(gid)["state"]["fields"]["1"] == ["2S", "3S", "?", "?"]  # no penalty


# ------------------------------------------------------------------------------ malformed


@pytest.mark.parametrize(
    "body",
    [
        {"type": "throw", "seat": 2, "position": 0, "onto": 1},  # seat >= seats
        {"type": "throw", "seat": 1, "position": -1, "onto": 1},
        {"type": "throw", "seat": 1, "position": 0},  # onto missing
        {"type": "throw", "seat": 1, "position": 0, "onto": "1"},
        {"type": "throw", "seat": 1, "position": 0, "onto": 1, "give_position": 1},  # own card
        {"type": "spy", "seat": -1, "position": 0},
        {"type": "swap", "position": 0, "seat": 5, "their_position": 0},
        {"type": "look", "positions": [3, 3]},
        {"type": "look", "positions": [0, 1, 2]},
        {"type": "replace", "positions": "0"},
        {"type": "peek", "position": -2},
        {"type": "call", "expected_version": -1},
        {"type": "hop"},
    ],
)
def test_malformed_pablo_actions_are_400_even_when_not_allowed_now(ann, bob, pablo, body):
    before = version(ann, pablo)
    error(bob.act(pablo, body), 400)  # bob could do none of these now
    assert version(ann, pablo) == before


def test_a_stranger_is_403(cid, pablo):
    error(cid.act(pablo, {"type": "look", "positions": [0, 1]}), 403, "not_a_player")


def test_expected_version_on_a_pablo_action(ann, pablo):
    now = version(ann, pablo)
    body = error(
        ann.act(pablo, {"type": "look", "positions": [0, 1], "expected_version": now + 1}),
        409,
        "version_conflict",
    )
    assert str(now) in body["detail"]
    assert version(ann, pablo) == now
    assert ann.ok(pablo, {"type": "look", "positions": [0, 1], "expected_version": now})


def test_idempotency_key_is_per_user_and_game(ann, bob, pablo):
    look = {"type": "look", "positions": [0, 1]}
    first = ann.act(pablo, look, HTTP_IDEMPOTENCY_KEY="same")
    assert first.status_code == 201
    assert ann.act(pablo, look, HTTP_IDEMPOTENCY_KEY="same").content == first.content
    # bob's use of the same key is his own action.
    other = bob.act(pablo, look, HTTP_IDEMPOTENCY_KEY="same")
    assert other.status_code == 201
    assert other.json()["game"]["you"] == 1


# ------------------------------------------------------------------------------ events


def test_event_shape_and_non_player_feed(cid, pablo):
    response = cid.get(f"/api/games/{pablo}/events/?after=0&wait=0")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"events", "version"}
    for event in body["events"]:
        assert set(event) == {"seq", "type", "seat", "at", "data"}
        assert event["at"].endswith("Z")
    # The deal never shows a stranger the dealt cards.
    text = str(body["events"])
    for code in ("5H", "6H", "7H", "8H", "2S", "3S", "4S", "5S", "KS", "3D", "4C"):
        assert f"'{code}'" not in text, code


@pytest.mark.parametrize("wait", ["-1", "31"])
def test_wait_out_of_bounds(ann, pablo, wait):
    error(ann.get(f"/api/games/{pablo}/events/?wait={wait}"), 400)


def test_a_timeout_is_turn_timed_out_with_the_seat(ann, bob, cid, pablo_playing):
    gid = pablo_playing
    before = version(ann, gid)
    game = Game.objects.get(pk=gid)
    assert bot_services.game_timeout(game_id=gid, turn_key=game.turn_key) > 0
    events = cid.get(f"/api/games/{gid}/events/?after={before}").json()["events"]
    timed_out = [e for e in events if e["type"] == "turn_timed_out"]
    assert timed_out and timed_out[0]["seat"] == 0  # ann was on turn
    assert bob.game(gid)["state"]["turn"]["seat"] == 1


# ------------------------------------------------------------------------------ replays


def test_finished_game_replay_and_viewer(ann, bob, cid, quick_skipbo):
    gid = quick_skipbo["id"]
    for _ in range(5):  # ann plays her stock 1..5 onto building pile 0 and wins
        ann.ok(gid, {"type": "play", "from": "stock", "pile": 0})
    replay = cid.get(f"/api/games/{gid}/replay/")
    assert replay.status_code == 200
    assert set(replay.json()) == {"game", "events", "fairness"}  # API.md "Replays"
    assert replay.json()["fairness"] is None  # stacked decks: no fair-deal commitment
    listing = cid.get("/replays/")
    assert listing.status_code == 200
    assert gid in listing.content.decode()
    for query in ("", "?step=3", "?step=3&as=1"):
        assert cid.get(f"/replays/{gid}/{query}").status_code == 200, query


def test_skipbo_state_keys(ann, quick_skipbo):
    state = ann.game(quick_skipbo["id"])["state"]
    assert set(state) >= SKIPBO_STATE_KEYS
    assert not {"held", "fields", "called_by"} & set(state)
    assert (state["phase"], state["turn"]["seat"], state["turn"]["stage"]) == ("turn", 0, "play")
    assert state["discards"] == {"0": [[], [], [], []], "1": [[], [], [], []]}
    assert state["building"] == [None, None, None, None]
    assert state["deck"] == {"count": 162 - 10 - 5}  # two stocks of 5, ann's hand of 5


def test_a_drawn_card_in_the_feed_stays_hidden_after_it_is_discarded(ann, bob, cid, pablo_playing):
    gid = pablo_playing
    before = version(ann, gid)
    drawn = ann.ok(gid, {"type": "draw", "source": "deck"})  # KS, the draw pile's top
    assert "KS" in str(drawn["events"])
    assert drawn["game"]["state"]["held"] == "KS"
    seen_then = bob.get(f"/api/games/{gid}/events/?after={before}").json()["events"]
    assert "KS" not in str(seen_then)
    ann.ok(gid, {"type": "discard"})  # now the KS is face up for all
    later = bob.get(f"/api/games/{gid}/events/?after={before}").json()["events"]
    assert later[: len(seen_then)] == seen_then  # the draw still shows bob no card
    assert "KS" in str(later[len(seen_then) :])
    assert cid.get(f"/api/games/{gid}/events/?after={before}").json()["events"] == later
    # ann's own feed keeps what she saw at the draw.
    mine = ann.get(f"/api/games/{gid}/events/?after={before}").json()["events"]
    assert mine[: len(drawn["events"])] == drawn["events"]


def test_the_replay_list_shows_finished_games_only(ann, cid, pablo):
    assert pablo not in cid.get("/replays/").content.decode()
