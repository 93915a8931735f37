"""PostgreSQL restarted while clients act (docs/operations.md "Faults").

Against gunicorn (2 processes x 4 threads, persistent connections) on a
private PostgreSQL: players act and read in threads while the database is
restarted. During the outage every answer is a 2xx, a 409 the rules gave, or
``503 {"code": "unavailable"}`` with ``Retry-After`` -- never a 500. Once the
database is back every request succeeds, without restarting the service (no
stale connection is handed to a request). No event is half-stored: each
game's feed is 1..version without a gap, and every 201 a client got is in it.
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from typing import Any

import pytest

from tests.faults.servers import Postgres, call
from tests.processes import Processes

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.timeout(300)]

JSON = dict[str, Any]


def complete(action: JSON, rng: random.Random) -> JSON:
    body = {k: v for k, v in action.items() if k != "choices"}
    for name, values in action.get("choices", {}).items():
        body[name] = rng.choice(values)
    return body


def pick(game: JSON, rng: random.Random) -> JSON | None:
    """A legal action of the viewer's (no throws; a call only when nothing else is legal), or None.

    No voluntary calls: rounds then run long, so no game can end before the
    outage (a faster write path had finished all four within the first seconds).
    """
    actions = [
        a for a in (game.get("state") or {}).get("legal_actions", []) if a["type"] != "throw"
    ]
    calls = [a for a in actions if a["type"] == "call"]
    others = [a for a in actions if a["type"] != "call"]
    if calls and not others:
        return complete(calls[0], rng)
    return complete(rng.choice(others), rng) if others else None


@pytest.fixture
def stack(tmp_path):
    pg = Postgres()
    service = Processes(
        tmp_path, DATABASE_URL=pg.url, CELERY_BROKER_URL="", PABLO_SWEEP_SECONDS="0.5"
    )
    try:
        service.manage("migrate", "--noinput", "-v0")
        yield pg, service
    finally:
        service.close()
        pg.close()


class Client(threading.Thread):
    """Plays one game's two seats: reads, then acts with an Idempotency-Key until it sticks."""

    def __init__(self, base: str, game_id: str, tokens: list[str], seed: int) -> None:
        super().__init__(daemon=True)
        self.base, self.game_id, self.tokens = base, game_id, tokens
        self.rng = random.Random(seed)
        self.stop = threading.Event()
        self.statuses: list[int] = []
        self.bad: list[tuple[int, Any, dict[str, str]]] = []
        self.acted: list[int] = []  # versions of the 201s this client got

    def request(self, method: str, path: str, body: Any, token: str, **headers: str) -> Any:
        status, head, data = call(self.base, method, path, body, token, **headers)
        self.statuses.append(status)
        if status >= 500:
            good = (
                status == 503
                and isinstance(data, dict)
                and data.get("code") == "unavailable"
                and int(head.get("Retry-After", "0")) > 0
            )
            if not good:
                self.bad.append((status, data, head))
        return status, data

    def run(self) -> None:
        path = f"/api/games/{self.game_id}/"
        key, body, seat = None, None, 0
        while not self.stop.is_set():
            if key is None:
                seat = self.rng.randrange(2)
                status, game = self.request("GET", path, None, self.tokens[seat])
                if status != 200:
                    time.sleep(0.2)
                    continue
                if game["status"] != "active":
                    time.sleep(0.2)  # keep reading: an outage is still seen
                    continue
                body = pick(game, self.rng)
                if body is None:
                    continue
                body["expected_version"] = game["version"]
                key = uuid.uuid4().hex
            status, answer = self.request(
                "POST", path + "actions/", body, self.tokens[seat], Idempotency_Key=key
            )
            if status == 201:
                self.acted.append(answer["version"])
                key = None
            elif status in (400, 409):
                key = None  # refused (e.g. the other seat moved first): decide again
            else:
                time.sleep(0.2)  # 503: retry the same action with the same key


def test_postgres_restart_while_clients_act(stack):
    pg, service = stack
    base = service.web(workers=2, threads=4)
    tokens = []
    for i in range(8):
        status, _, data = call(
            base, "POST", "/api/auth/register/", {"username": f"p{i}", "password": "secret-pw"}
        )
        assert status == 201, data
        tokens.append(data["token"])
    clients = []
    for g in range(4):
        pair = tokens[2 * g : 2 * g + 2]
        status, _, game = call(
            base, "POST", "/api/games/", {"ruleset": "pablo", "seats": 2}, pair[0]
        )
        assert status == 201, game
        assert call(base, "POST", f"/api/games/{game['id']}/join/", None, pair[1])[0] == 200
        clients.append(Client(base, game["id"], pair, seed=g))
    for client in clients:
        client.start()
    time.sleep(3)
    before = sum(len(c.acted) for c in clients)
    pg.restart()  # fast shutdown: every session is cut, mid-transaction included
    time.sleep(1)
    pg.stop()
    time.sleep(3)  # an outage the clients notice
    pg.start()
    time.sleep(3)
    for client in clients:
        client.stop.set()
    for client in clients:
        client.join(60)
    statuses = [s for c in clients for s in c.statuses]
    assert [b for c in clients for b in c.bad] == [], service.logs()
    assert 503 in statuses  # the outage was seen ...
    # ... and play goes on after it: in the clients' games while any is still
    # running (random play may have ended them all), and in a new game at once.
    running = [
        c for c in clients if call(base, "GET", f"/api/games/{c.game_id}/", None,
                                   c.tokens[0])[2]["status"] == "active"
    ]  # fmt: skip
    if running:
        assert sum(len(c.acted) for c in clients) > before
    status, _, game = call(base, "POST", "/api/games/", {"ruleset": "cabo", "seats": 2}, tokens[0])
    assert status == 201, game
    assert call(base, "POST", f"/api/games/{game['id']}/join/", None, tokens[1])[0] == 200
    status, _, answer = call(
        base, "POST", f"/api/games/{game['id']}/actions/",
        {"type": "look", "positions": [0, 1]}, tokens[0],
    )  # fmt: skip
    assert status == 201, answer

    # Right after: every request succeeds (no stale connection is handed out).
    for client in clients:
        for i in range(10):
            status, _, game = call(base, "GET", f"/api/games/{client.game_id}/", None,
                                   client.tokens[i % 2])  # fmt: skip
            assert status == 200, (status, game)
            feed = call(base, "GET", f"/api/games/{client.game_id}/events/?after=0", None,
                        client.tokens[i % 2])  # fmt: skip
            assert feed[0] == 200, feed
    # Nothing half-stored: each feed is 1..version, and every 201 is in it once.
    for client in clients:
        _, _, feed = call(base, "GET", f"/api/games/{client.game_id}/events/?after=0", None,
                          client.tokens[0])  # fmt: skip
        seqs = [e["seq"] for e in feed["events"]]
        assert seqs == list(range(1, feed["version"] + 1))
        assert set(client.acted) <= set(seqs) and len(set(client.acted)) == len(client.acted)
    rows = pg.psql(
        "SELECT g.id, g.version, count(e.id), max(e.seq) FROM games_game g "
        "LEFT JOIN games_event e ON e.game_id = g.id GROUP BY g.id, g.version",
        db="pablo",
    )
    for _id, version, count, top in json.loads(rows):
        assert version == count == top
    print("statuses:", {s: statuses.count(s) for s in sorted(set(statuses))})
