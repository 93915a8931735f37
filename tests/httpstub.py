"""A stand-in game server for the standalone checker's tests (``fairness_check.py URL``):
a thread that answers every GET with one JSON body and notes what it was asked."""

from __future__ import annotations

import http.server
import threading


def replay_handler(
    body: bytes, asked: list[tuple[str, str | None]]
) -> type[http.server.BaseHTTPRequestHandler]:
    """A handler class: every GET answers ``body`` (JSON) and appends (path,
    ``Authorization``) to ``asked``."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append((self.path, self.headers.get("Authorization")))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


def serve(handler: type[http.server.BaseHTTPRequestHandler]) -> http.server.HTTPServer:
    """``handler`` on a free loopback port, in a daemon thread (``shutdown()`` it)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
