"""Regression tests for the reviewer's mends (each names what it guards)."""

from __future__ import annotations

import http.server
import threading
from typing import Any

import pytest

from games.notifications import webhooks


class _Redirector:
    """POST /hook answers 302 to /inner on the same server; GETs are recorded."""

    def __init__(self) -> None:
        self.gets: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.send_response(302)
                self.send_header("Location", "/inner")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self) -> None:
                outer.gets.append(self.path)
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_webhook_redirects_are_not_followed():
    # A public receiver could otherwise bounce the delivery (as a GET) to a private
    # address that check_destination refused: the 302 is the answer, not retried.
    redirector = _Redirector()
    try:
        assert webhooks.post_webhook(redirector.url, "s", '{"event":"x"}') == 302
    finally:
        redirector.close()
    assert redirector.gets == []


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://hooks.example.org/services/T0/B0/s3cr3t?token=abc", "https://hooks.example.org"),
        ("http://user:pw@10.0.0.1:8080/x", "http://10.0.0.1:8080"),
    ],
)
def test_webhook_urls_in_logs_lose_path_query_and_credentials(url, shown):
    assert webhooks.loggable(url) == shown


@pytest.mark.django_db
def test_a_batch_failing_at_its_last_statement_is_enforced_game_by_game(monkeypatch):
    # game_timeout_many has already copied the new turns onto the locked rows' objects
    # when bulk_update runs; the fallback must still name the turns that were due.
    from games.models import Game
    from games.turns import deadlines
    from tests.fixtures import start_skipbo, user
    from tests.helpers import timeouts_per_turn

    ann, bob = user("ann"), user("bob")
    games = [start_skipbo(ann, bob, turn_timeout=60, ago=61) for _ in range(3)]

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the update failed")

    monkeypatch.setattr(Game.objects, "bulk_update", broken)
    assert deadlines.sweep() == 3  # one timeout per game, by the one-by-one fallback
    assert all(timeouts_per_turn(g.id) == {(g.turn_key, 0): 1} for g in games)
