"""The ASGI application (``pablo.asgi:application``): every path, and waiting for free.

Django's own ``ASGIHandler`` serves every request, with one difference in
threading and one in sending:

* **Threads.** Django gives each ASGI request a thread of its own for its
  synchronous code (middleware, DRF views), alive until the request ends: a
  long poll would keep one for up to 30 s. Here every request's synchronous
  code runs on one of ``THREADS`` shared single-thread executors instead (the
  least busy one; one request's calls always on the same thread, as Django
  expects). A waiting request occupies none of them, and the process holds at
  most ``THREADS`` database connections (one persistent connection per
  executor thread), whatever the number of waiting clients.
* **Waiting.** A ``GET /api/games/{id}/events/`` with ``wait`` > 0 first holds
  the game's subscription on the process's hub (``games.feed.hub``), then goes
  through Django as usual: middleware, authentication, the view. The view
  (``games.feed.waiting.answer``) answers at once when there is news; when
  there is none it hands back its answer so far marked pending, and
  ``send_response`` parks it on the hub -- an ``asyncio`` future, no thread,
  no connection, no query -- until the game's version passes ``after`` or the
  wait runs out. Woken, it reads the feed again on an executor thread (the
  same selectors, so the same redaction) and sends that.

Lifespan: the hub is closed on shutdown. ``uvicorn pablo.asgi:application``.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler

from games.feed import service, waiting

log = logging.getLogger(__name__)

FEED_PATH = re.compile(r"^/api/games/([0-9A-Fa-f-]{32,36})/events/?$")


class CountingExecutor(ThreadPoolExecutor):
    """A one-thread executor that knows how many calls it has queued or running."""

    def __init__(self, name: str) -> None:
        super().__init__(max_workers=1, thread_name_prefix=name)
        self.load = 0
        self._count_lock = threading.Lock()

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._count_lock:
            self.load += 1
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._done)
        return future

    def _done(self, _future: Future[Any]) -> None:
        with self._count_lock:
            self.load -= 1


def waiting_game(scope: dict[str, Any]) -> str | None:
    """The game id of a feed request that asks to wait (``wait`` > 0), else None."""
    if scope.get("method") != "GET":
        return None
    match = FEED_PATH.match(scope.get("path", ""))
    if match is None:
        return None
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    try:
        wait = float(query.get("wait", ["0"])[-1])
    except ValueError:
        return None
    if not wait > 0:
        return None
    raw = match.group(1).lower().replace("-", "")
    if len(raw) != 32:
        return None
    return f"{raw[:8]}-{raw[8:12]}-{raw[12:16]}-{raw[16:20]}-{raw[20:]}"


class Application(ASGIHandler):
    def __init__(self, threads: int | None = None) -> None:
        super().__init__()
        count = threads or int(getattr(settings, "PABLO_ASGI_THREADS", 0) or 0) or 8
        self.executors = [CountingExecutor(f"pablo-asgi-{i}") for i in range(count)]

    def _executor(self) -> CountingExecutor:
        return min(self.executors, key=lambda e: e.load)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        game_id = waiting_game(scope)
        async with ThreadSensitiveContext(executor=self._executor()):
            if game_id is None:
                await super().__call__(scope, receive, send)
                return
            hold = waiting.Hold(game_id)
            token = waiting.current_hold.set(hold)
            try:
                async with service.hub().hold(game_id):
                    await super().__call__(scope, receive, send)
            finally:
                waiting.current_hold.reset(token)
                if hold.pending is not None:
                    await waiting.release(hold.pending.slot)

    async def send_response(self, response: Any, send: Any) -> None:
        hold = waiting.current_hold.get()
        if (
            hold is not None
            and hold.pending is not None
            and getattr(response, "pablo_feed_pending", False)
        ):
            await self._park(hold, response)
        await super().send_response(response, send)

    async def _park(self, hold: waiting.Hold, response: Any) -> None:
        pending = hold.pending
        assert pending is not None
        version = await service.hub().wait(hold.game_id, pending.after, waiting.remaining(pending))
        if version is None:
            return  # the wait ran out: the answer so far (no events, the version it had)
        data = await sync_to_async(waiting.read_again)(pending)
        if data is not None:
            waiting.render(response, data)

    async def _lifespan(self, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await service.close_hubs()
                for executor in self.executors:
                    executor.shutdown(wait=False)
                await send({"type": "lifespan.shutdown.complete"})
                return


def application() -> Application:
    os.environ.setdefault("PABLO_SERVER", "asgi")
    return Application()
