"""pablo_client.play against a scripted server (httpx's MockTransport): what it does
with each answer -- a 409 decides again on the new state with a new Idempotency-Key;
a 5xx or a lost connection sends the same request again (same key) after a backoff;
a 429 waits its Retry-After -- and the order it plays the turn list in."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
import pytest
from pablo_client.play import ApiError, Player, fill

from tests.fixtures import STOCK_TO_PILE_0


class Server:
    """Answers from a script: ``script[(method, path)]`` is a list of answers, each a
    (status, body, headers), an exception to raise or a function of the request that
    gives the answer, taken in turn."""

    def __init__(self, script: dict[tuple[str, str], list[Any]]) -> None:
        self.script = script
        self.seen: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        answer = self.script[(request.method, request.url.path)].pop(0)
        if isinstance(answer, Exception):
            raise answer
        if callable(answer):
            answer = answer(request)
        status, body, headers = answer
        return httpx.Response(status, json=body, headers=headers)

    def posts(self) -> list[httpx.Request]:
        return [r for r in self.seen if r.method == "POST"]


def player(server: Server, sleeps: list[float]) -> Player:
    p = Player("http://pablo.test", "secret", sleep=sleeps.append)
    p.client.set_httpx_client(
        httpx.Client(
            base_url="http://pablo.test",
            headers={"Authorization": "Token secret"},
            transport=httpx.MockTransport(server),
        )
    )
    return p


@pytest.fixture
def moves(ann, quick_skipbo):
    """A real game as ann sees it, and the real answer to her move in it."""
    before = ann.game(quick_skipbo["id"])
    answer = ann.ok(quick_skipbo["id"], STOCK_TO_PILE_0)
    return before, answer


def test_409_decides_again_5xx_and_lost_connections_retry_the_same_request_429_waits(moves):
    before, answer = moves
    game = f"/api/games/{before['id']}/"
    action = game + "actions/"
    conflict = {"code": "version_conflict", "detail": "The game moved on."}
    server = Server(
        {
            ("GET", game): [(200, before, {}), (200, answer["game"], {})],
            ("POST", action): [
                (503, {"code": "unavailable", "detail": "…"}, {}),
                httpx.ConnectError("reset"),
                (429, {"code": "throttled", "detail": "…"}, {"Retry-After": "3"}),
                (409, conflict, {}),
                (201, answer, {}),
            ],
        }
    )
    sleeps: list[float] = []
    decided: list[int] = []

    def decide(g):
        decided.append(g.version)
        return fill(g.state["legal_actions"][0])

    result = player(server, sleeps).act(before["id"], decide)
    assert result is not None and result.version == answer["version"]
    posts = server.posts()
    keys = [r.headers["Idempotency-Key"] for r in posts]
    versions = [json.loads(r.content)["expected_version"] for r in posts]
    assert len(set(keys[:4])) == 1 and keys[4] != keys[0]  # one decision, one key
    assert versions == [before["version"]] * 4 + [answer["game"]["version"]]
    assert decided == [before["version"], answer["game"]["version"]]
    assert 0.25 <= sleeps[0] <= 0.5 and 0.5 <= sleeps[1] <= 1.0 and sleeps[2] == 3.0
    assert all(r.headers["Authorization"] == "Token secret" for r in server.seen)


def test_a_refusal_that_retrying_cannot_fix_is_raised(moves):
    before, _ = moves
    game = f"/api/games/{before['id']}/"
    body = {"code": "not_a_player", "detail": "You have no seat in this game."}
    server = Server(
        {("GET", game): [(200, before, {})], ("POST", game + "actions/"): [(403, body, {})]}
    )
    with pytest.raises(ApiError) as refused:
        player(server, []).act(before["id"], lambda g: fill(g.state["legal_actions"][0]))
    assert (refused.value.status, refused.value.code) == (403, "not_a_player")


def test_the_turn_list_is_played_in_its_order_and_the_feed_resumes_where_it_stopped(moves):
    before, answer = moves
    other = {**before, "id": "00000000-0000-4000-8000-000000000001"}
    turns = [
        {"game": other["id"], "ruleset": "skipbo", "deadline": None, "version": 9},
        {"game": before["id"], "ruleset": "skipbo", "deadline": None, "version": 9},
    ]
    event = {"type": "your_turn", "game": other["id"], "at": "2026-01-01T00:00:00Z"}
    done = {**answer, "game": {**answer["game"], "state": {**answer["game"]["state"]}}}
    done["game"]["state"]["turn"] = {"seat": 1, "stage": "play", "deadline": None}
    server = Server(
        {
            ("GET", "/api/me/turns/"): [(200, turns, {})],
            ("GET", f"/api/games/{other['id']}/"): [(200, other, {})],
            ("GET", f"/api/games/{before['id']}/"): [(200, before, {})],
            ("POST", f"/api/games/{other['id']}/actions/"): [(201, done, {})],
            ("POST", f"/api/games/{before['id']}/actions/"): [(201, done, {})],
            ("GET", "/api/me/events/"): [
                (200, {"events": [], "position": 41}, {}),
                (200, {"events": [{**event, "position": 42, "data": {}}], "position": 42}, {}),
            ],
        }
    )
    p = player(server, [])
    assert p.play_turns(lambda g: fill(g.state["legal_actions"][0])) == 2
    assert [r.url.path for r in server.posts()] == [
        f"/api/games/{other['id']}/actions/",
        f"/api/games/{before['id']}/actions/",
    ]
    feed = p.follow()
    first = next(feed)
    assert (first.position, first.type_, str(first.game)) == (42, "your_turn", other["id"])
    reads = [dict(r.url.params) for r in server.seen if r.url.path == "/api/me/events/"]
    assert reads == [{"wait": "0.0"}, {"after": "41", "wait": "30"}]


def test_games_are_played_at_once_and_a_game_asked_for_while_played_is_played_again(moves):
    """``play(parallel=2)``: each game's action is held until the other game's has
    arrived too, which only threads get past; and ``your_turn`` for a game that is
    being played has it looked at once more when that ends."""
    before, answer = moves
    other = {**before, "id": "00000000-0000-4000-8000-000000000001"}
    done = {**answer, "game": {**answer["game"], "state": {**answer["game"]["state"]}}}
    done["game"]["state"]["turn"] = {"seat": 1, "stage": "play", "deadline": None}
    both = threading.Barrier(3, timeout=10)  # the two actions and the feed's read
    asked_again = threading.Event()

    def held(_request):
        both.wait()  # BrokenBarrierError (a 500 here, then ApiError) when one at a time
        asked_again.wait(10)
        return (201, done, {})

    def news(_request):
        both.wait()  # both actions are under way: the feed says one game waits again
        your_turn = {"type": "your_turn", "game": other["id"], "at": "2026-01-01T00:00:00Z"}
        return (200, {"events": [{**your_turn, "position": 42, "data": {}}], "position": 42}, {})

    def quiet(_request):
        asked_again.set()
        return (200, {"events": [], "position": 42}, {})

    turns = [
        {"game": g["id"], "ruleset": "skipbo", "deadline": None, "version": 9}
        for g in (other, before)
    ]
    server = Server(
        {
            ("GET", "/api/me/turns/"): [(200, turns, {})],
            ("GET", f"/api/games/{other['id']}/"): [(200, other, {}), (200, done["game"], {})],
            ("GET", f"/api/games/{before['id']}/"): [(200, before, {})],
            ("POST", f"/api/games/{other['id']}/actions/"): [held],
            ("POST", f"/api/games/{before['id']}/actions/"): [held],
            ("GET", "/api/me/events/"): [(200, {"events": [], "position": 41}, {}), news, quiet],
        }
    )
    reads = []
    p = player(server, [])
    p.play(
        lambda g: fill(g.state["legal_actions"][0]),
        on_event=reads.append,
        until=lambda: len(reads) and asked_again.is_set(),
        parallel=2,
    )
    assert len(server.posts()) == 2
    assert [r.url.path for r in server.seen].count(f"/api/games/{other['id']}/") == 2
    assert not server.script[("GET", f"/api/games/{other['id']}/")]


def test_a_failure_in_a_game_played_on_a_thread_is_raised_by_play(moves):
    before, _ = moves
    body = {"code": "not_a_player", "detail": "You have no seat in this game."}
    turns = [{"game": before["id"], "ruleset": "skipbo", "deadline": None, "version": 9}]
    game = f"/api/games/{before['id']}/"
    server = Server(
        {
            ("GET", "/api/me/turns/"): [(200, turns, {})] * 100,
            ("GET", game): [(200, before, {})] * 100,
            ("POST", game + "actions/"): [(403, body, {})],
            ("GET", "/api/me/events/"): [(200, {"events": [], "position": 41}, {})]
            + [lambda _r: (time.sleep(0.05), (200, {"events": [], "position": 41}, {}))[1]] * 100,
        }
    )
    with pytest.raises(ApiError) as refused:
        player(server, []).play(lambda g: fill(g.state["legal_actions"][0]), parallel=4)
    assert refused.value.code == "not_a_player"
