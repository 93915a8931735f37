"""Attacks on the standalone fairness checker (``fairness_check.py``), replayed: each test
failed before its fix. A hostile replay must give lines that say what does not match
(exit 1) or "cannot read the replay" (exit 2), never a traceback nor a hang; a game URL
must not hand the player's token to another site."""

from __future__ import annotations

import copy
import http.server
import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.httpstub import replay_handler, serve

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "fairness_check.py"

BASE: dict[str, Any] = {
    "game": {},
    "fairness": {
        "commitment": "0" * 64,
        "server_seed": "00" * 32,
        "player_seeds": {},
        "draws": [],
    },
    "events": [{"seq": 1, "type": "game_created", "data": {"seats": 3, "ruleset": "pablo"}}],
}


def small_memory() -> None:
    """The checker's process may use 1 GB: a hostile replay that made it grab all the
    machine's memory fails here with a MemoryError, not by starving the test run."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def checker(*args: str, text: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(CHECKER), *args],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=small_memory,
    )


def run(text: str) -> subprocess.CompletedProcess:
    return checker("-", text=text)


def hostile(**header: Any) -> str:
    replay = copy.deepcopy(BASE)
    replay["events"][0]["data"].update(header)
    return json.dumps(replay)


CASES = {
    # JSON nested past the parser's recursion limit: a RecursionError from json.load
    "deeply nested JSON": ("[" * 100_000 + "]" * 100_000, 2),
    # int(float("inf")): OverflowError
    "seats: Infinity": (hostile(seats=float("inf")), 1),
    # a list of 10**12 player seeds: hung, then MemoryError
    "seats: 10**12": (hostile(seats=10**12), 1),
    # a deck of 10**10 jokers or 10**9 decks: MemoryError
    "jokers: 10**10": (hostile(options={"jokers": 10**10}), 1),
    "decks: 10**9": (hostile(ruleset="tamalou", options={"decks": 10**9}), 1),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_hostile_replay_gets_sentences_not_a_traceback(name):
    text, code = CASES[name]
    done = run(text)
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == code, (done.stdout, done.stderr[-2000:])
    said = done.stdout if code == 1 else done.stderr
    assert said.strip() and len(said) < 5000
    if code == 2:
        assert said.startswith("cannot read the replay")


def test_a_redirect_to_another_site_does_not_get_the_token():
    """urllib copies every header into a redirect: a game server (or whoever answers for
    it) that redirected the checker to another host or port received the player's API
    token there."""
    asked: list[tuple[str, str | None]] = []
    body = json.dumps(BASE).encode()

    Elsewhere = replay_handler(body, asked)
    elsewhere = serve(Elsewhere)
    target = f"http://127.0.0.1:{elsewhere.server_address[1]}/stolen/"

    class Redirecting(Elsewhere):
        def do_GET(self):
            asked.append((self.path, self.headers.get("Authorization")))
            if self.path.startswith("/api/"):  # same site first, then another one
                self.send_response(302)
                self.send_header("Location", "/moved/")
            else:
                self.send_response(302)
                self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()

    home = serve(Redirecting)
    try:
        url = f"http://127.0.0.1:{home.server_address[1]}/api/games/abc/"
        done = checker(url, "--token", "t0k")
    finally:
        for server in (home, elsewhere):
            server.shutdown()
            server.server_close()
    assert "Traceback" not in done.stderr, done.stderr
    # the same site keeps the token; another port is another site: it never sees it
    assert asked[:2] == [("/api/games/abc/replay/", "Token t0k"), ("/moved/", "Token t0k")]
    assert ("/stolen/", "Token t0k") not in asked, asked


def test_an_endless_answer_is_refused_not_read_into_memory():
    """A server that streams a replay without end was read whole into memory."""

    class Endless(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"x": "')
            chunk = b"a" * 65536
            try:
                for _ in range(100_000):  # 6.5 GB
                    self.wfile.write(chunk)
            except OSError:
                pass

        def log_message(self, *args):
            pass

    server = serve(Endless)
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/api/games/abc/"
        done = checker(url, "--token", "t0k")
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.startswith("cannot read the replay")
