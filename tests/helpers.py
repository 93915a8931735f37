"""Helpers for the deadline and notification tests: a game's state and events, a webhook
receiver."""

from __future__ import annotations

from typing import Any

from games import rules
from games.models import Event, Game
from games.selectors import games as game_selectors


def state(game: Game) -> rules.State:
    return game_selectors.game_state(game=Game.objects.get(id=game.id))


def types(game: Game) -> list[str]:
    rows = Event.objects.filter(game_id=game.id).order_by("seq")
    return list(rows.values_list("type", flat=True))


def timeouts_per_turn(game_id: Any) -> dict[tuple[str, int | None], int]:
    """``turn_timed_out`` events counted per (turn key, seat): a duplicate shows as 2."""
    counts: dict[tuple[str, int | None], int] = {}
    key = ""
    for row in Event.objects.filter(game_id=game_id).order_by("seq"):
        if row.type == "deadline_set":
            key = row.data["key"]
        elif row.type == "turn_timed_out":
            counts[(key, row.seat)] = counts.get((key, row.seat), 0) + 1
    return counts


class Receiver:
    """A local HTTP webhook receiver that records what it gets.

    ``statuses`` are answered in turn (then 200): ``Receiver([500])`` fails the
    first delivery and accepts the retry.
    """

    def __init__(self, statuses: list[int] | None = None) -> None:
        import http.server
        import threading

        self.statuses = list(statuses or [])
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.lock:
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    receiver.requests.append(
                        {
                            "path": self.path,
                            "headers": dict(self.headers),
                            "body": body,
                            "status": status,
                        }
                    )
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
