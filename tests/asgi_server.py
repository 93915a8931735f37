"""An ASGI live server for tests: ``pablo.asgi:application`` under uvicorn, in a thread.

What pytest-django's ``live_server`` is for WSGI, on the path production uses
for waiting (games/feed/): the same test database (in-memory SQLite
connections are shared with the server's executor threads, as Django's
``LiveServerThread`` does), static files through WhiteNoise.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any

from django.db import connections
from django.test.utils import modify_settings


class AsgiLiveServer:
    def __init__(self, host: str = "127.0.0.1") -> None:
        import uvicorn

        from pablo.asgi import application

        self.app = application
        with socket.socket() as s:
            s.bind((host, 0))
            self.port = s.getsockname()[1]
        self.url = f"http://{host}:{self.port}"
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": host})
        shared = {
            c.alias: c for c in connections.all() if c.vendor == "sqlite" and c.is_in_memory_db()
        }
        for conn in shared.values():
            conn.inc_thread_sharing()

        def adopt() -> None:
            for alias, conn in shared.items():
                connections[alias] = conn

        for executor in self.app.executors:
            executor.submit(adopt).result()
        config = uvicorn.Config(
            self.app, host=host, port=self.port, log_level="warning", lifespan="on"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > end or not self.thread.is_alive():
                raise RuntimeError("the ASGI test server did not start")
            time.sleep(0.02)

    def __str__(self) -> str:
        return self.url

    def close_connections(self) -> None:
        """Close the database connections of the server's threads (before the test
        database is dropped)."""
        for executor in self.app.executors:
            executor.submit(connections.close_all).result()

    def stop(self) -> None:
        self.close_connections()
        self.server.should_exit = True
        self.thread.join(10)


_shared: AsgiLiveServer | None = None


def shared() -> AsgiLiveServer:
    """This process's one server: ``pablo.asgi:application`` is one object per process,
    and a server's shutdown closes its executors for good, so every test module that
    serves through it shares one (call ``close_connections`` when done with it; the
    thread ends with the process)."""
    global _shared
    if _shared is None:
        _shared = AsgiLiveServer()
    return _shared


def run(coro: Any) -> Any:
    return asyncio.run(coro)
