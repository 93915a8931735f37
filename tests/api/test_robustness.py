"""Odd input never becomes a 500; a pablo game through the API shows a drawn card
to its drawer only, in the answer, the state and the feed."""

from __future__ import annotations

import pytest

from games.api.exceptions import STATUSES
from games.rules import RulesError
from tests.api.conftest import create
from tests.rules.helpers import RULES_STATUSES

pytestmark = pytest.mark.django_db

ODD_BODIES = [
    None,
    1,
    "look",
    [],
    {"type": None},
    {"type": ["look"]},
    {"type": "look", "positions": "01"},
    {"type": "look", "positions": [0, 2**40]},
    {"type": "look", "positions": [0, 1.0]},
    {"type": "look", "positions": [[0], [1]]},
    {"type": "look", "positions": {"a": 1}},
    {"type": "throw", "seat": 2**70, "position": 0, "onto": 1},
    {"type": "throw", "seat": 1, "position": 0, "onto": 1, "give_position": []},
    {"type": "swap", "position": 0, "seat": -1, "their_position": 0},
    {"type": "draw", "source": ["deck"]},
    {"type": "draw", "source": "deck", "expected_version": -1},
    {"type": "play", "from": None, "pile": 0},
    {"type": "end", "card": {"x": 1}},
    {"type": "look", "positions": [0, 1], "expected_version": True},
    {"type": "replace", "positions": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 2**31 - 1]},
    {"type": "peek", "position": 999_999},
    {"type": "call", "extra": {"deep": [1, 2, {"x": None}]}},
]


@pytest.fixture
def pablo_game(ann, bob, cid):
    # Deal (RULES.md §2): ann 5H 6H 7H 8H, bob 2S 3S 4S 5S, cid 9C 10C JC QC;
    # the discard top 10D; the draw pile starts with KS, then 3D.
    deck = ["5H", "6H", "7H", "8H", "2S", "3S", "4S", "5S", "9C", "10C", "JC", "QC"]
    game = create(
        ann,
        ruleset="pablo",
        seats=3,
        options={"start_seat": 0},
        decks=[[*deck, "10D", "KS", "3D"]],
    )
    bob.post(f"/api/games/{game['id']}/join/")
    cid.post(f"/api/games/{game['id']}/join/")
    return game["id"]


@pytest.mark.parametrize("body", ODD_BODIES)
def test_odd_action_bodies_are_400_or_409(ann, pablo_game, body):
    response = ann.post(f"/api/games/{pablo_game}/actions/", body, format="json")
    assert response.status_code in (400, 409), response.content
    assert set(response.json()) == {"code", "detail"}


@pytest.mark.parametrize(
    "body",
    [
        {"ruleset": "pablo", "seats": 2**80},
        {"ruleset": "pablo", "seats": 3, "options": {"start_seat": 2**80}},
        {"ruleset": "pablo", "seats": 3, "options": {"jokers": "2"}},
        {"ruleset": "pablo", "seats": 3, "options": {"jokers": None}},
        {"ruleset": "pablo", "seats": 3, "decks": "AS"},
        {"ruleset": "pablo", "seats": 3, "decks": [[None]]},
        {"ruleset": "pablo", "seats": 3, "decks": [["AS"] * 2]},
        {"ruleset": ["pablo"], "seats": 3},
        {"ruleset": "pablo\x00", "seats": 3},
        {"ruleset": "tamalou", "seats": 12},
        {"ruleset": "skipbo", "seats": 6, "options": {"stock_size": 30}},
    ],
)
def test_odd_game_bodies_are_400(ann, body):
    response = ann.post("/api/games/", body, format="json")
    assert response.status_code == 400, response.content
    assert set(response.json()) == {"code", "detail"}


def test_a_drawn_card_is_shown_to_its_drawer_only(ann, bob, cid, pablo_game):
    for player in (ann, bob, cid):
        player.ok(pablo_game, {"type": "look", "positions": [0, 1]})
    answer = ann.ok(pablo_game, {"type": "draw", "source": "deck"})
    assert answer["game"]["state"]["held"] == "KS"  # the top of the draw pile
    assert "KS" in str(answer["events"])
    assert bob.game(pablo_game)["state"]["held"] is None
    version = answer["version"]
    for other in (bob, cid):
        feed = other.get(f"/api/games/{pablo_game}/events/").json()["events"]
        assert "KS" not in str(feed)
    mine = ann.get(f"/api/games/{pablo_game}/events/").json()["events"]
    assert "KS" in str(mine)
    # ann discards it: now the K of spades is face up, for everyone, from that event on.
    ann.ok(pablo_game, {"type": "discard"})
    feed = bob.get(f"/api/games/{pablo_game}/events/").json()["events"]
    assert "KS" not in str([e for e in feed if e["seq"] <= version])
    assert "KS" in str([e for e in feed if e["seq"] > version])
    assert bob.game(pablo_game)["state"]["discard"]["top"] == "KS"


def test_strict_memory_shows_a_look_in_its_answer_only(ann, bob):
    deck = ["5H", "6H", "7H", "8H", "2S", "3S", "4S", "5S", "10D"]
    game = create(
        ann, ruleset="pablo", seats=2, options={"start_seat": 0, "memory": "strict"}, decks=[deck]
    )
    bob.post(f"/api/games/{game['id']}/join/")
    answer = ann.ok(game["id"], {"type": "look", "positions": [0, 1]})
    assert answer["game"]["state"]["fields"]["0"] == ["5H", "6H", "?", "?"]
    assert ann.game(game["id"])["state"]["fields"]["0"] == ["?", "?", "?", "?"]
    # The feed is not affected by memory (API.md): the look's event shows ann her cards.
    feed = ann.get(f"/api/games/{game['id']}/events/").json()["events"]
    assert "5H" in str(feed) and "6H" in str(feed)
    assert "5H" not in str(bob.get(f"/api/games/{game['id']}/events/").json()["events"])


def test_the_rules_tests_map_rules_errors_to_the_apis_statuses():
    """tests/rules (no Django) keep their own table of the rules errors' statuses: the same."""
    ours = [(cls, status) for cls, status in STATUSES if issubclass(cls, RulesError)]
    assert ours == list(RULES_STATUSES)
