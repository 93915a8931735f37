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
    return timeouts_per_turn_of([game_id]).get(str(game_id), {})


def timeouts_per_turn_of(game_ids: list[Any]) -> dict[str, dict[tuple[str, int | None], int]]:
    """``timeouts_per_turn`` of many games in one query: game id (str) -> its counts
    (a game without a timeout is missing). Only the two kinds of event that count are
    read (a turn's key is the last ``deadline_set``'s), not every event's data."""
    found: dict[str, dict[tuple[str, int | None], int]] = {}
    game, key = None, ""
    rows = (
        Event.objects.filter(game_id__in=game_ids, type__in=("deadline_set", "turn_timed_out"))
        .order_by("game_id", "seq")
        .values_list("game_id", "type", "seat", "data")
    )
    for game_id, kind, seat, data in rows.iterator(chunk_size=2000):
        if game_id != game:
            game, key = game_id, ""
        if kind == "deadline_set":
            key = data["key"]
        else:
            counts = found.setdefault(str(game_id), {})
            counts[(key, seat)] = counts.get((key, seat), 0) + 1
    return found


class Receiver:
    """A local HTTP webhook receiver that records what it gets.

    ``statuses`` are answered in turn (then 200): ``Receiver([500])`` fails the
    first delivery and accepts the retry.
    """

    def __init__(self, statuses: list[int] | None = None, default: int = 200) -> None:
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
                    status = receiver.statuses.pop(0) if receiver.statuses else default
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
