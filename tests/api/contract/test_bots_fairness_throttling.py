"""Black-box contract tests of API.md's sections "Bots", "Fair deals (commit and
reveal)" and "Throttling", and of the fields `seed`, `bots`, `players[].bot`
and `fairness`.

Written from the contract's text alone, through the HTTP client only. The
fair-deal generator below is this file's own few-line reading of the
contract's formula, not the project's code, so a replay that it reproduces is
checkable by anyone holding the commitment from the game's first answer.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches

from games.bots.driver import drive
from tests.api.conftest import create

pytestmark = pytest.mark.django_db

HEX64 = re.compile(r"[0-9a-f]{64}")


def error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"code", "detail"}, body
    assert isinstance(body["detail"], str) and body["detail"]
    if code is not None:
        assert body["code"] == code, body
    return body


# ------------------------------------------------------------------------------ bots


def test_every_ruleset_lists_at_least_random_and_basic_bots(anon):
    rulesets = anon.get("/api/rulesets/").json()
    assert {r["id"] for r in rulesets} == {"pablo", "pablo-50", "tamalou", "cabo", "skipbo"}
    for ruleset in rulesets:
        assert isinstance(ruleset["bot_levels"], list), ruleset
        assert {"random", "basic"} <= set(ruleset["bot_levels"]), ruleset


@pytest.mark.parametrize(
    "bots",
    [
        [{"seat": 0, "level": "basic"}],  # seat 0 is the creator's
        [{"seat": 3, "level": "basic"}],  # seat >= seats
        [{"seat": 7, "level": "random"}],
        [{"seat": 1, "level": "grandmaster"}],  # unknown level
        [{"seat": -1, "level": "basic"}],
    ],
)
def test_bad_bots_are_400_naming_the_field(ann, bots):
    response = ann.post(
        "/api/games/", {"ruleset": "pablo", "seats": 3, "bots": bots}, format="json"
    )
    body = error(response, 400)
    assert "bots" in body["detail"], body
    # nothing was created
    assert ann.get("/api/games/?mine=true").json()["count"] == 0


@pytest.mark.parametrize("ruleset", ["pablo", "pablo-50", "tamalou", "cabo", "skipbo"])
def test_a_game_whose_other_seats_are_all_bots_is_active_on_creation(ann, ruleset):
    game = create(
        ann,
        ruleset=ruleset,
        seats=3,
        bots=[{"seat": 1, "level": "random"}, {"seat": 2, "level": "basic"}],
    )
    assert game["status"] == "active"
    assert game["you"] == 0
    by_seat = {p["seat"]: p for p in game["players"]}
    assert set(by_seat) == {0, 1, 2}
    assert by_seat[0]["username"] == "ann" and by_seat[0]["bot"] is None
    assert by_seat[1]["bot"] == "random" and by_seat[2]["bot"] == "basic"
    assert game["state"] is not None and game["state"]["phase"] in {"setup", "turn"}


def test_bot_usernames_are_unique_within_a_game(ann):
    game = create(
        ann,
        ruleset="pablo",
        seats=5,
        bots=[{"seat": s, "level": "basic"} for s in (1, 2, 3, 4)],
    )
    names = [p["username"] for p in game["players"]]
    assert len(names) == 5 and len(set(names)) == 5, names
    assert all(isinstance(n, str) and n for n in names)


def test_bots_fill_only_their_seats_and_people_have_bot_null(ann, bob, cid):
    game = create(ann, ruleset="cabo", seats=4, bots=[{"seat": 2, "level": "basic"}])
    assert game["status"] == "waiting"
    assert {p["seat"]: p["bot"] for p in game["players"]} == {0: None, 2: "basic"}
    joined = bob.post(f"/api/games/{game['id']}/join/").json()
    assert joined["you"] == 1  # the lowest free seat; seat 2 is the bot's
    assert joined["status"] == "waiting"
    joined = cid.post(f"/api/games/{game['id']}/join/").json()
    assert joined["you"] == 3
    assert joined["status"] == "active"  # the last seat taken starts it
    assert {p["seat"]: p["bot"] for p in joined["players"]} == {
        0: None,
        1: None,
        2: "basic",
        3: None,
    }
    # the game summary list shows the same
    listed = [g for g in bob.get("/api/games/?mine=true").json()["results"]]
    assert [g["id"] for g in listed] == [game["id"]]


def test_stand_in_option_defaults_to_rules_and_takes_a_bot_level(ann, anon):
    for ruleset in anon.get("/api/rulesets/").json():
        assert ruleset["options"]["stand_in"]["default"] == "rules", ruleset["id"]
    assert create(ann, ruleset="pablo", seats=2)["options"]["stand_in"] == "rules"
    game = create(ann, ruleset="pablo", seats=2, options={"stand_in": "basic"})
    assert game["options"]["stand_in"] == "basic"
    response = ann.post(
        "/api/games/",
        {"ruleset": "pablo", "seats": 2, "options": {"stand_in": "grandmaster"}},
        format="json",
    )
    assert "stand_in" in error(response, 400)["detail"]


# ------------------------------------------------------------------------------ fairness shape


def check_fairness_shape(game: dict) -> dict:
    fairness = game["fairness"]
    assert set(fairness) >= {"commitment", "player_seeds", "server_seed"}, fairness
    assert HEX64.fullmatch(fairness["commitment"]), fairness
    return fairness


def test_fairness_from_the_first_answer(ann):
    game = create(ann, ruleset="pablo", seats=3, seed="ann's entropy ✓")
    fairness = check_fairness_shape(game)
    assert fairness["server_seed"] is None
    assert fairness["player_seeds"] == {"0": "ann's entropy ✓"}


def test_seed_defaults_to_empty_and_bots_seeds_are_empty(ann, bob):
    game = create(ann, ruleset="pablo", seats=3, bots=[{"seat": 2, "level": "random"}])
    assert game["fairness"]["player_seeds"] == {"0": "", "2": ""}
    joined = bob.post(f"/api/games/{game['id']}/join/").json()
    assert joined["fairness"]["player_seeds"] == {"0": "", "1": "", "2": ""}
    assert joined["fairness"]["commitment"] == game["fairness"]["commitment"]
    assert joined["fairness"]["server_seed"] is None


def test_a_seed_on_join_is_public_at_once(ann, bob, cid, anon):
    game = create(ann, ruleset="pablo", seats=3, seed="a")
    joined = bob.post(f"/api/games/{game['id']}/join/", {"seed": "bob-42"}, format="json")
    assert joined.status_code == 200, joined.content
    assert joined.json()["fairness"]["player_seeds"] == {"0": "a", "1": "bob-42"}
    # everyone, even a signed-out-like stranger with a token, sees it at once
    seen = cid.get(f"/api/games/{game['id']}/").json()
    assert seen["fairness"]["player_seeds"] == {"0": "a", "1": "bob-42"}
    assert seen["fairness"]["commitment"] == game["fairness"]["commitment"]


def test_sixty_four_characters_are_fine(ann, bob):
    game = create(ann, ruleset="pablo", seats=2, seed="x" * 64)
    response = bob.post(f"/api/games/{game['id']}/join/", {"seed": "é" * 64}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["fairness"]["player_seeds"] == {"0": "x" * 64, "1": "é" * 64}


def test_a_seed_over_64_characters_is_400(ann, bob):
    response = ann.post(
        "/api/games/", {"ruleset": "pablo", "seats": 2, "seed": "x" * 65}, format="json"
    )
    assert "seed" in error(response, 400)["detail"]
    assert ann.get("/api/games/?mine=true").json()["count"] == 0
    game = create(ann, ruleset="pablo", seats=2)
    response = bob.post(f"/api/games/{game['id']}/join/", {"seed": "y" * 65}, format="json")
    assert "seed" in error(response, 400)["detail"]
    after = ann.game(game["id"])
    assert after["status"] == "waiting" and len(after["players"]) == 1


def test_stacked_deck_games_have_fairness_null(ann, bob):
    game = create(ann, ruleset="pablo", seats=2, decks=[["5H", "6H"]])
    assert game["fairness"] is None
    joined = bob.post(f"/api/games/{game['id']}/join/").json()
    assert joined["fairness"] is None


def test_a_finished_stacked_game_and_its_replay_have_fairness_null(ann, bob, quick_skipbo):
    gid = quick_skipbo["id"]
    assert quick_skipbo["fairness"] is None
    for _ in range(5):  # ann's stock 1..5 onto building pile 0 wins
        ann.ok(gid, {"type": "play", "from": "stock", "pile": 0})
    assert ann.game(gid)["status"] == "finished"
    assert ann.game(gid)["fairness"] is None
    replay = bob.get(f"/api/games/{gid}/replay/").json()
    assert replay["fairness"] is None


@pytest.mark.parametrize("seed", [12345, ["a"], {"a": 1}])
def test_a_seed_that_is_not_a_string_is_400(ann, bob, seed):
    response = ann.post(
        "/api/games/", {"ruleset": "pablo", "seats": 2, "seed": seed}, format="json"
    )
    assert "seed" in error(response, 400)["detail"]
    game = create(ann, ruleset="pablo", seats=2)
    response = bob.post(f"/api/games/{game['id']}/join/", {"seed": seed}, format="json")
    assert "seed" in error(response, 400)["detail"]


def test_a_seed_cannot_change_once_given(ann, bob):
    game = create(ann, ruleset="pablo", seats=3, seed="first")
    error(ann.post(f"/api/games/{game['id']}/join/", {"seed": "second"}, format="json"), 409)
    bob.post(f"/api/games/{game['id']}/join/", {"seed": "b1"}, format="json")
    error(bob.post(f"/api/games/{game['id']}/join/", {"seed": "b2"}, format="json"), 409)
    assert ann.game(game["id"])["fairness"]["player_seeds"] == {"0": "first", "1": "b1"}


def test_server_seed_stays_secret_while_the_game_runs(ann, bob, cid):
    game = create(ann, ruleset="pablo", seats=2)
    bob.post(f"/api/games/{game['id']}/join/")
    for client in (ann, bob, cid):
        seen = client.game(game["id"])
        assert seen["status"] == "active"
        assert seen["fairness"]["server_seed"] is None
        assert seen["fairness"]["commitment"] == game["fairness"]["commitment"]
    error(cid.get(f"/api/games/{game['id']}/replay/"), 409, "game_not_finished")


# ------------------------------------------------------------------------------ the generator
# API.md, "Fair deals": this test's own implementation of the contract's formula.


def byte_stream(server_seed: bytes, seeds: list[str], k: int) -> Iterator[int]:
    message = "pablo-fair/v1\n" + "\n".join(seeds) + "\n" + str(k)
    counter = 0
    while True:
        block = hmac.new(server_seed, f"{message}:{counter}".encode(), hashlib.sha256).digest()
        yield from block
        counter += 1


def uniform(stream: Iterator[int], n: int) -> int:
    limit = n * (2**32 // n)
    while True:
        x = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if x < limit:
            return x % n


def shuffle(items: list[str], stream: Iterator[int]) -> list[str]:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = uniform(stream, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def utf8_sorted(codes: list[str]) -> list[str]:
    return sorted(codes, key=lambda code: code.encode())


#: RULES.md: `pablo` with one joker, 53 cards.
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
PABLO_DECK = [rank + suit for rank in RANKS for suit in "SHDC"] + ["JK"]


def test_the_generator_reading_is_self_consistent():
    """A sanity check of this file's generator (not of the service)."""
    a = shuffle(utf8_sorted(PABLO_DECK), byte_stream(b"\0" * 32, ["", ""], 0))
    b = shuffle(utf8_sorted(PABLO_DECK), byte_stream(b"\0" * 32, ["", ""], 1))
    assert sorted(a) == sorted(PABLO_DECK) and a != b
    assert utf8_sorted(["AS", "10H", "JK", "2C"]) == ["10H", "2C", "AS", "JK"]


# ------------------------------------------------------------------------------ a whole game


PRIORITY = ["call", "look", "skip", "draw", "discard", "peek", "spy", "swap", "replace"]


def fill(action: dict) -> dict:
    """A complete body from a legal action or a template (its first choice of each)."""
    body = {k: v for k, v in action.items() if k != "choices"}
    for name, values in action.get("choices", {}).items():
        body[name] = values[0]
    return body


def pick(legal: list[dict]) -> dict | None:
    wanted = [a for a in legal if a["type"] != "throw"]
    for kind in PRIORITY:
        for action in wanted:
            if action["type"] == kind and action.get("source", "deck") == "deck":
                return fill(action)
    return fill(wanted[0]) if wanted else None


def play_out(players: dict[int, Any], game_id: str, limit: int = 600) -> dict:
    """Plays a Pablo-family game to its end (the one driver): draw, discard, call whenever
    possible."""
    states: dict[int, dict] = {}

    def finished() -> bool:
        states.update({seat: client.game(game_id) for seat, client in players.items()})
        return states[0]["status"] != "active"

    def next_move() -> tuple[int, dict]:
        choices = {seat: pick(state["state"]["legal_actions"]) for seat, state in states.items()}
        # a call first (its window closes when the next player acts)
        calls = [seat for seat, choice in choices.items() if choice and choice["type"] == "call"]
        acting = [seat for seat, choice in choices.items() if choice]
        seat = (calls or acting)[0]
        assert choices[seat] is not None, states
        return seat, choices[seat]

    drive(
        finished=finished,
        next_move=next_move,
        act=lambda seat, body: players[seat].ok(game_id, body),
        max_actions=limit,
    )
    if states[0]["status"] != "active":
        return states[0]
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("seats", "jokers", "seeds"),
    [
        (2, 1, ["ann seed", "bob:seed\n2"]),
        (3, 2, ["", "b", "ü → ✓"]),  # a two-joker deck; seeds of any UTF-8 text
    ],
)
def test_a_finished_game_reveals_a_seed_that_reproduces_every_draw(
    make_player, seats, jokers, seeds
):
    players = {seat: make_player(f"p{seat}") for seat in range(seats)}
    game = create(
        players[0],
        ruleset="pablo",
        seats=seats,
        seed=seeds[0],
        options={"start_seat": None, "jokers": jokers},
    )
    commitment = game["fairness"]["commitment"]
    gid = game["id"]
    for seat in range(1, seats):
        joined = players[seat].post(f"/api/games/{gid}/join/", {"seed": seeds[seat]}, format="json")
        assert joined.status_code == 200, joined.content
    first_discard = joined.json()["state"]["discard"]["top"]
    looked = {}
    for seat, client in players.items():
        answer = client.ok(gid, {"type": "look", "positions": [0, 1]})["game"]
        looked[seat] = answer["state"]["fields"][str(seat)][:2]
    first_seat = players[0].game(gid)["state"]["turn"]["seat"]

    final = play_out(players, gid)
    assert final["status"] == "finished"
    fairness = final["fairness"]
    assert fairness["commitment"] == commitment
    assert fairness["player_seeds"] == {str(seat): seed for seat, seed in enumerate(seeds)}
    server_hex = fairness["server_seed"]
    assert HEX64.fullmatch(server_hex), server_hex  # 32 bytes, lower-case hex
    assert hashlib.sha256(bytes.fromhex(server_hex)).hexdigest() == commitment

    replay = players[1].get(f"/api/games/{gid}/replay/")
    assert replay.status_code == 200, replay.content
    replay = replay.json()
    assert {"game", "events", "fairness"} <= set(replay)
    assert replay["fairness"]["commitment"] == commitment
    assert replay["fairness"]["server_seed"] == server_hex
    draws = replay["fairness"]["draws"]
    assert [d["k"] for d in draws] == list(range(len(draws)))
    assert {d["kind"] for d in draws} <= {"deal", "reshuffle", "start_seat"}
    assert [d["kind"] for d in draws].count("start_seat") == 1  # round 1 only, start_seat null
    rounds_played = len(final["state"]["rounds"])
    deals = [d for d in draws if d["kind"] == "deal"]
    assert [d["round"] for d in deals] == list(range(1, rounds_played + 1))

    deck = PABLO_DECK + ["JK"] * (jokers - 1)
    server_seed = bytes.fromhex(server_hex)
    for draw in draws:
        stream = byte_stream(server_seed, seeds, draw["k"])
        if draw["kind"] == "start_seat":
            assert draw["input"] is None
            assert draw["output"] == uniform(stream, seats), draw
        elif draw["kind"] == "deal":
            assert draw["input"] == utf8_sorted(deck), draw
            assert draw["output"] == shuffle(draw["input"], stream), draw
        else:
            assert draw["input"] == utf8_sorted(draw["input"]), draw
            assert draw["output"] == shuffle(draw["input"], stream), draw

    # the recorded draws are the ones the game used
    start = next(d for d in draws if d["kind"] == "start_seat")
    assert start["output"] == first_seat
    deal = deals[0]["output"]
    for seat, cards in looked.items():  # seat s gets cards 4s..4s+3 in slots 0-3
        assert cards == deal[4 * seat : 4 * seat + 2], (seat, cards)
    assert first_discard == deal[4 * seats]  # then the face-up card


def test_fairness_of_a_finished_game_is_visible_to_strangers(ann, bob, cid):
    game = create(ann, ruleset="pablo", seats=2, options={"start_seat": 0})
    bob.post(f"/api/games/{game['id']}/join/")
    play_out({0: ann, 1: bob}, game["id"])
    seen = cid.game(game["id"])
    assert (
        hashlib.sha256(bytes.fromhex(seen["fairness"]["server_seed"])).hexdigest()
        == (game["fairness"]["commitment"])
    )
    draws = cid.get(f"/api/games/{game['id']}/replay/").json()["fairness"]["draws"]
    assert draws and all(d["kind"] != "start_seat" for d in draws)  # start_seat was given


# ------------------------------------------------------------------------------ throttling


@pytest.fixture
def throttle(settings):
    caches["throttle"].clear()
    yield settings
    caches["throttle"].clear()


def throttled(response) -> int:
    error(response, 429, "throttled")
    retry = response.headers.get("Retry-After")
    assert retry is not None and retry.isdigit() and int(retry) >= 1, retry
    return int(retry)


def token(client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(
        "/api/auth/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
    )


def test_auth_calls_are_counted_per_address(throttle, anon):
    throttle.PABLO_THROTTLE_AUTH = "3/min"
    for n in range(3):
        response = anon.post(
            "/api/auth/register/",
            {"username": f"user{n}", "password": "a long pass phrase"},
            format="json",
            REMOTE_ADDR="10.0.0.1",
        )
        assert response.status_code == 201, response.content
    throttled(
        anon.post(
            "/api/auth/register/",
            {"username": "user9", "password": "a long pass phrase"},
            format="json",
            REMOTE_ADDR="10.0.0.1",
        )
    )
    throttled(token(anon, "user0", "a long pass phrase", "10.0.0.1"))  # any /api/auth/ call
    assert token(anon, "user0", "a long pass phrase", "10.0.0.2").status_code == 200


def test_auth_limit_counts_web_log_ins_and_sign_ups(throttle, anon, client):
    throttle.PABLO_THROTTLE_AUTH = "3/min"
    client.post(
        "/accounts/signup/",
        {"username": "webby", "password1": "a long pass phrase", "password2": "a long pass phrase"},
        REMOTE_ADDR="10.0.0.5",
    )
    client.post(
        "/accounts/login/",
        {"username": "webby", "password": "a long pass phrase"},
        REMOTE_ADDR="10.0.0.5",
    )
    assert token(anon, "webby", "a long pass phrase", "10.0.0.5").status_code == 200
    throttled(token(anon, "webby", "a long pass phrase", "10.0.0.5"))
    response = client.post(
        "/accounts/login/",
        {"username": "webby", "password": "a long pass phrase"},
        REMOTE_ADDR="10.0.0.5",
    )
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) >= 1


def test_actions_are_counted_per_user_over_all_their_games(throttle, ann, bob):
    games = []
    for _ in range(3):
        game = create(ann, ruleset="pablo", seats=2)
        bob.post(f"/api/games/{game['id']}/join/")
        games.append(game["id"])
    throttle.PABLO_THROTTLE_ACTIONS = "2/min"
    ann.ok(games[0], {"type": "look", "positions": [0, 1]})
    ann.ok(games[1], {"type": "look", "positions": [0, 1]})
    throttled(ann.act(games[2], {"type": "look", "positions": [0, 1]}))
    # nothing was stored by the refused action
    assert ann.game(games[2])["state"]["fields"]["0"] == ["?", "?", "?", "?"]
    # another user has a counter of their own
    bob.ok(games[2], {"type": "look", "positions": [0, 1]})


def test_failed_log_ins_block_even_the_right_password_until_retry_after(throttle, ann, anon):
    throttle.PABLO_THROTTLE_LOGIN_FAILURES = "3/hour"
    for _ in range(3):
        assert token(anon, "ann", "wrong").status_code == 400
    throttled(token(anon, "ann", "wrong"))
    throttled(token(anon, "ann", "secret-pw"))  # the right password, same address
    # another address is not affected, nor another username from this address
    assert token(anon, "ann", "secret-pw", "10.9.9.9").status_code == 200
    assert token(anon, "nobody", "wrong").status_code == 400


def test_a_successful_log_in_does_not_count(throttle, ann, anon):
    throttle.PABLO_THROTTLE_LOGIN_FAILURES = "3/hour"
    assert token(anon, "ann", "wrong").status_code == 400
    for _ in range(5):
        assert token(anon, "ann", "secret-pw").status_code == 200
    assert token(anon, "ann", "wrong").status_code == 400
    assert token(anon, "ann", "secret-pw").status_code == 200
    assert token(anon, "ann", "wrong").status_code == 400  # the third failure
    throttled(token(anon, "ann", "secret-pw"))


def test_the_block_ends_when_retry_after_passes(throttle, ann, anon):
    throttle.PABLO_THROTTLE_LOGIN_FAILURES = "2/s"
    assert token(anon, "ann", "wrong").status_code == 400
    assert token(anon, "ann", "wrong").status_code == 400
    retry = throttled(token(anon, "ann", "secret-pw"))
    assert retry <= 2
    time.sleep(retry + 0.2)
    assert token(anon, "ann", "secret-pw").status_code == 200


def test_web_log_in_failures_count_with_the_api_ones(throttle, ann, anon, client):
    throttle.PABLO_THROTTLE_LOGIN_FAILURES = "3/hour"
    assert token(anon, "ann", "wrong").status_code == 400
    response = client.post(
        "/accounts/login/", {"username": "ann", "password": "wrong"}, REMOTE_ADDR="10.0.0.1"
    )
    assert response.status_code == 200  # the form again, with its error
    assert token(anon, "ann", "wrong").status_code == 400
    throttled(token(anon, "ann", "secret-pw"))
    response = client.post(
        "/accounts/login/", {"username": "ann", "password": "secret-pw"}, REMOTE_ADDR="10.0.0.1"
    )
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) >= 1
    response = client.post(
        "/accounts/login/", {"username": "ann", "password": "secret-pw"}, REMOTE_ADDR="10.0.0.7"
    )
    assert response.status_code == 302  # logged in from elsewhere


def test_the_binding_defaults_of_the_limits_and_the_bot_delay():
    """API.md: 10/hour, 60/min, 120/min; PABLO_BOT_DELAY 1 s (the production
    settings, read in a fresh process with none of these variables set)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PABLO_")}
    env.update(DJANGO_SETTINGS_MODULE="pablo.settings", DJANGO_DEBUG="1")
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.PABLO_THROTTLE_LOGIN_FAILURES, s.PABLO_THROTTLE_AUTH, "
        "s.PABLO_THROTTLE_ACTIONS, float(s.PABLO_BOT_DELAY))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ["10/hour", "60/min", "120/min", "1.0"]
