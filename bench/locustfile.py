"""The crowd (bench/README.md "A crowd"): players in concurrent games of mixed rulesets.

Run it with ``bench/locust_crowd.sh`` (it starts gunicorn on PostgreSQL, runs
locust headless for a bounded time and checks the result). Each locust user
is one player; two players share a game (``Table``). A player reads its game;
when it may act it sends a random legal action (no throws; calls now and
then) with ``expected_version`` and an ``Idempotency-Key``; otherwise it
long-polls the game's feed (``wait``) until the other moves. A finished game
is replaced by a new one of the next ruleset for the same pair.

Every 201 is recorded (game, seq, type of each event it returned) in
``CROWD_RECORD`` (JSON lines) for the check after the run: each must be in the
game's feed, in order, once. Loopback only: the host must be 127.0.0.1.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import threading
import uuid
from pathlib import Path
from typing import Any

from locust import HttpUser, between, events, task

RULESETS = ["pablo", "pablo-50", "tamalou", "cabo", "skipbo"]
WAIT = int(os.environ.get("CROWD_WAIT", "2"))
RECORD = os.environ.get("CROWD_RECORD", "crowd-record.jsonl")
PASSWORD = "crowd-secret"
RUN = os.environ.get("CROWD_RUN", uuid.uuid4().hex[:6])

_lock = threading.Lock()
_numbers = itertools.count()
_out = open(RECORD, "a")  # noqa: SIM115  (kept open for the run)


def record(game_id: str, answer: dict[str, Any]) -> None:
    line = {"game": game_id, "events": [[e["seq"], e["type"]] for e in answer["events"]]}
    with _lock:
        _out.write(json.dumps(line) + "\n")
        _out.flush()


class Table:
    """Two players and their current game; the first to see it finished deals a new one."""

    def __init__(self, number: int, tokens: list[str], game_id: str) -> None:
        self.number = number
        self.tokens = tokens
        self.game_id: str | None = game_id
        self.games = 1
        self.lock = threading.Lock()

    def deal(self, client: Any, finished: str | None) -> None:
        with self.lock:
            if self.game_id != finished:
                return  # the partner dealt already
            ruleset = RULESETS[(self.number + self.games) % len(RULESETS)]
            self.games += 1
            body = {"ruleset": ruleset, "seats": 2}
            created = client.post(
                "/api/games/", json=body, headers=_auth(self.tokens[0]), name="/api/games/"
            )
            game = created.json()
            client.post(
                f"/api/games/{game['id']}/join/",
                headers=_auth(self.tokens[1]),
                name="/api/games/[id]/join/",
            )
            self.game_id = game["id"]


#: Accounts and first games made by bench/locust_setup.py (CROWD_TABLES).
_tables = [
    Table(n, t["tokens"], t["game"])
    for n, t in enumerate(
        json.loads(Path(os.environ.get("CROWD_TABLES", "crowd-tables.json")).read_text())
    )
]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}"}


def _complete(action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    body = {k: v for k, v in action.items() if k != "choices"}
    for name, values in action.get("choices", {}).items():
        body[name] = rng.choice(values)
    return body


def pick(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
    actions = [a for a in actions if a["type"] != "throw"]
    plays = [a for a in actions if a["type"] == "play"]
    stock = [a for a in plays if a.get("from") == "stock"]
    if stock:
        return _complete(rng.choice(stock), rng)
    if plays and rng.random() < 0.8:
        return _complete(rng.choice(plays), rng)
    calls = [a for a in actions if a["type"] == "call"]
    others = [a for a in actions if a["type"] != "call"]
    if calls and (not others or rng.random() < 0.15):
        return _complete(calls[0], rng)
    return _complete(rng.choice(others), rng) if others else None


class Player(HttpUser):
    wait_time = between(0.05, 0.2)

    def on_start(self) -> None:
        assert self.host.startswith(("http://127.0.0.1", "http://localhost")), "loopback only"
        number = next(_numbers)
        self.seat = number % 2
        self.table = _tables[(number // 2) % len(_tables)]
        self.token = self.table.tokens[self.seat]
        self.rng = random.Random(number)

    @task
    def play(self) -> None:
        game_id = self.table.game_id
        if game_id is None:
            return
        headers = _auth(self.token)
        game = self.client.get(f"/api/games/{game_id}/", headers=headers, name="/api/games/[id]/")
        if game.status_code != 200:
            return
        game = game.json()
        if game["status"] != "active":
            self.table.deal(self.client, game_id)
            return
        body = pick(game["state"]["legal_actions"], self.rng)
        if body is None:  # not our turn: long-poll the feed until the other moves
            self.client.get(
                f"/api/games/{game_id}/events/?after={game['version']}&wait={WAIT}",
                headers=headers,
                name="/api/games/[id]/events/?wait",
            )
            return
        body["expected_version"] = game["version"]
        key = uuid.uuid4().hex
        with self.client.post(
            f"/api/games/{game_id}/actions/",
            json=body,
            headers={**headers, "Idempotency-Key": key},
            name="/api/games/[id]/actions/",
            catch_response=True,
        ) as answer:
            if answer.status_code == 201:
                record(game_id, answer.json())
                answer.success()
            elif answer.status_code == 409:
                answer.success()  # the partner (a throw, a call) moved first: decide again
            elif answer.status_code < 500:
                answer.failure(f"{answer.status_code}: {answer.text[:200]}")


@events.quitting.add_listener
def _close(environment: Any, **kwargs: Any) -> None:
    _out.close()
