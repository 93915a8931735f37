"""The ASGI application (``pablo.asgi:application``): every path, and waiting for free.

Django's own ``ASGIHandler`` serves every request, with differences in
threading and in sending:

* **One hop.** The middleware chain is loaded synchronously, as under WSGI, and
  a request's whole synchronous part (middleware and view) runs in one call on
  an executor thread, instead of one hop between the loop and a thread per
  middleware method.
* **Threads.** Django gives each ASGI request a thread of its own for its
  synchronous code (middleware, DRF views), alive until the request ends: a
  long poll would keep one for up to 30 s. Here every request's synchronous
  code runs on one of ``THREADS`` shared single-thread executors instead (the
  least busy one; one request's calls always on the same thread, as Django
  expects). A waiting request occupies none of them, and the process holds at
  most ``THREADS`` database connections (one persistent connection per
  executor thread), whatever the number of waiting clients.
* **Waiting.** A ``GET`` (or ``HEAD``: Django answers it as a ``GET``)
  ``/api/games/{id}/events/`` with ``wait`` > 0, the id in any spelling the
  store accepts (``games.store.stream.game_key``: ``urn:uuid:…``, braces, no
  hyphens...), first holds
  the game's subscription on the process's hub (``games.feed.hub``), then goes
  through Django as usual: middleware, authentication, the view. The view
  (``games.feed.waiting.answer``) answers at once when there is news; when
  there is none it hands back its answer so far marked pending, and
  ``send_response`` parks it on the hub -- an ``asyncio`` future, no thread,
  no connection, no query -- until the game's version passes ``after`` or the
  wait runs out. Woken, it reads the feed again on an executor thread (the
  same selectors, so the same redaction) and sends that. The version the view
  read is handed to the hub (``Hub.learn``), and the pending answer's headers
  are kept (``fast.remember_headers``), for the fast path:
* **Nothing new, before Django.** A waiting feed request is first offered to
  ``games.feed.fast.serve``: a known token polling a game whose version the hub
  knows exactly, with nothing new, is answered on the loop (no Django, no
  thread, no query); anything else, or news, goes through Django as above.

``PABLO_FEED_DEBUG=1`` prints one line per request Django handles, per fast
answer and wake-up, and the executors' queueing and run times every 5 s.

Lifespan: the hub is closed on shutdown. ``uvicorn pablo.asgi:application``.
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import itertools
import logging
import os
import re
import signal
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted, RequestDataTooBig
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse
from django.urls import set_script_prefix
from rest_framework.exceptions import NotFound

from games.feed import fast, service, waiting
from games.feed.followers import account_key
from games.store.stream import game_key

log = logging.getLogger(__name__)

DEBUG = bool(os.environ.get("PABLO_FEED_DEBUG"))
FEED_PATH = re.compile(r"^/api/games/([^/]+)/events/?$")
ACCOUNT_PATH = re.compile(r"^/api/me/events/?$")
#: Django serves HEAD with the view's GET: both wait, so both are held here.
WAITING_METHODS = frozenset({"GET", "HEAD"})
#: At most this many games' facts in one query (``Application._facts``).
FACTS_BATCH = 500


class CountingExecutor(ThreadPoolExecutor):
    """A one-thread executor that knows how many calls it has queued or running."""

    def __init__(self, name: str) -> None:
        super().__init__(max_workers=1, thread_name_prefix=name)
        self.load = 0
        self._count_lock = threading.Lock()

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._count_lock:
            self.load += 1
        if DEBUG:
            fn = _timed(fn)
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._done)
        return future

    def _done(self, _future: Future[Any]) -> None:
        with self._count_lock:
            self.load -= 1


_times: list[tuple[float, float, str]] = []
_last_dump = [0.0]


def _timed(fn: Any) -> Any:
    queued = time.monotonic()

    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.monotonic()
        try:
            return fn(*args, **kwargs)
        finally:
            end = time.monotonic()
            _times.append((start - queued, end - start, getattr(fn, "__name__", "?")))
            if end - _last_dump[0] > 5:
                _last_dump[0] = end
                q = sorted(t[0] for t in _times)
                r = sorted(t[1] for t in _times)
                print(
                    f"FEEDDBG exec n {len(_times)} queue p50 {q[len(q) // 2] * 1000:.1f} "
                    f"p90 {q[int(len(q) * 0.9)] * 1000:.1f} run p50 {r[len(r) // 2] * 1000:.1f} "
                    f"p90 {r[int(len(r) * 0.9)] * 1000:.1f} ms",
                    flush=True,
                )
                _times.clear()

    return run


def _wait_asked(scope: dict[str, Any]) -> bool:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    try:
        wait = float(query.get("wait", ["0"])[-1])
    except ValueError:
        return False
    return wait > 0


def waiting_account(scope: dict[str, Any]) -> bool:
    """Is this a request of the account feed that asks to wait (``wait`` > 0)?"""
    return (
        scope.get("method") in WAITING_METHODS
        and ACCOUNT_PATH.match(scope.get("path", "")) is not None
        and _wait_asked(scope)
    )


def waiting_game(scope: dict[str, Any]) -> str | None:
    """The game id of a feed request that asks to wait (``wait`` > 0), else None.

    Every request the view would let wait must be recognised here, or it would wait
    on an executor thread: the methods Django routes to the view's ``get`` and every
    spelling of the id the store reads (``game_key``). (Whatever still slips past is
    answered at once by ``waiting.answer``, never held on a thread.)
    """
    if scope.get("method") not in WAITING_METHODS:
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
    try:
        return str(game_key(match.group(1)))
    except NotFound:
        return None


class _DroppedBody:
    """The stream of a request whose body was dropped past ``DATA_UPLOAD_MAX_MEMORY_SIZE``
    (``Application.read_body``): reading it fails as Django's ``request.body`` fails for
    an announced length past it. Django's multipart parser reads the stream itself and
    found it empty: a form posted past the limit was answered as one without its CSRF
    token (403), not as too large (400)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def read(self, *args: Any) -> bytes:
        raise RequestDataTooBig("Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.")

    readline = read

    def close(self) -> None:
        self.inner.close()


class Application(ASGIHandler):
    def __init__(self, threads: int | None = None) -> None:
        # The middleware chain as under WSGI, all synchronous: one hop to an executor
        # thread per request (run_get_response) instead of one per middleware method.
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        count = threads or int(getattr(settings, "PABLO_ASGI_THREADS", 0) or 0) or 16
        self.executors = [CountingExecutor(f"pablo-asgi-{i}") for i in range(count)]
        #: game id -> the read of its version under way (``_learn_game``)
        self._learning: dict[str, asyncio.Future[None]] = {}
        #: games whose facts are to be read, and the read under way (``_facts``)
        self._facts_wanted: dict[str, asyncio.Future[Any]] = {}
        self._facts_reading: asyncio.Task[None] | None = None

    async def read_body(self, receive: Any) -> Any:
        """Django's, with the body kept only up to ``DATA_UPLOAD_MAX_MEMORY_SIZE``: the
        rest is read and dropped, and ``too_large`` on the file says how long it was.
        (Django's keeps a body of any size, spilling it to disk, before a view that may
        never read it runs: a bare uvicorn took 30 MB for ``POST /api/me/bot/``.)"""
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is None:
            return await super().read_body(receive)
        seen = 0

        async def bounded() -> Any:
            nonlocal seen
            message = await receive()
            if message.get("body"):
                seen += len(message["body"])
                if seen > limit:
                    message = {**message, "body": b""}
            return message

        body_file = await super().read_body(bounded)
        body_file.received = seen
        if seen > limit:
            body_file.truncate(0)
            body_file.too_large = seen
        return body_file

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Django's ``ASGIHandler.handle`` with the request's synchronous part (the
        ``request_started`` signal, middleware, view) in one executor call."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        request, error_response = self.create_request(scope, body_file)
        if request is not None and getattr(body_file, "too_large", 0):
            # Reading the body now fails as Django fails a body announced too long
            # (RequestDataTooBig: the API's 400 body_too_large), chunked ones included.
            request.META["CONTENT_LENGTH"] = str(body_file.too_large)
            request._stream = _DroppedBody(body_file)
        elif (
            request is not None
            and getattr(body_file, "received", 0)
            and not request.META.get("CONTENT_LENGTH")
        ):
            # A chunked body announces no length, and DRF's parsers and Django's
            # multipart parser read a body of no length as empty: the fields of a
            # chunked POST were lost ("username: This field is required").
            request.META["CONTENT_LENGTH"] = str(body_file.received)
        if request is None:
            body_file.close()
            await self.send_response(error_response, send)
            await sync_to_async(error_response.close)()
            return

        async def process_request() -> Any:
            response = await sync_to_async(self._respond)(request)
            with contextlib.suppress(asyncio.CancelledError):  # the client went away
                await self.send_response(response, send)
            return response

        # As Django does: the client going away cancels the request (and its wait).
        tasks = [
            asyncio.create_task(self.listen_for_disconnect(receive)),
            asyncio.create_task(process_request()),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            if task.done():
                with contextlib.suppress(RequestAborted):
                    task.result()
            else:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        try:
            response = tasks[1].result()
        except asyncio.CancelledError:
            await sync_to_async(signals.request_finished.send)(sender=self.__class__)
        else:
            await sync_to_async(response.close)()
        body_file.close()

    def _respond(self, request: Any) -> Any:
        if DEBUG:
            print(f"FEEDDBG django {request.method} {request.path}", flush=True)
        signals.request_started.send(sender=self.__class__, scope=request.scope)
        response = self.get_response(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        return response

    def _executor(self) -> CountingExecutor:
        return min(self.executors, key=lambda e: e.load)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        if waiting_account(scope):
            await self._account(scope, receive, send)
            return
        game_id = waiting_game(scope)
        shape = None
        if game_id is not None:
            # nothing new for a known token: answered here, without Django (games.feed.fast)
            shape = fast.shape(scope)
            hub = service.hub()
            fast.teach_headers(shape)
            if fast.may_serve(shape) and (
                hub.exact(game_id) is None or not fast.knows_readers(game_id)
            ):
                assert shape is not None
                if await self._identify(shape.token) is not None:
                    await self._learn_game(hub, game_id)
            found = await fast.serve(shape, game_id, hub, receive, send)
            if found is None:
                fast.taught(shape)
                return
            receive = found
            scope = fast.expired(shape, scope)
        async with ThreadSensitiveContext(executor=self._executor()):
            if game_id is None:
                await super().__call__(scope, receive, send)
                return
            hold = waiting.Hold(game_id)
            hold.shape = shape
            token = waiting.current_hold.set(hold)
            try:
                hub = service.hub()
                async with hub.hold(game_id):
                    # (before the view reads the game: see Hub.learn)
                    hold.ticket = hub.ticket(game_id)
                    await super().__call__(scope, receive, send)
            finally:
                fast.taught(shape)
                waiting.current_hold.reset(token)
                if hold.pending is not None and hold.pending.slot.held:  # (client gone)
                    await fast.give_back(hold.pending.slot)

    async def _account(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The account feed's wait: its key on the hub (``account:<db>:<user id>``) is
        known only once the user is: before Django for a token the fast path knows (whose
        head, if the hub does not know it, is read with one query: ``_learn_head``), else
        after the view (which then reads again once the hub holds the key: ``_park``).
        So a new client costs one Django request (its token's), not two."""
        shape = fast.shape(scope, kind="account")
        fast.teach_headers(shape)
        who = None
        if shape is not None and fast.may_serve(shape):
            who = await self._identify(shape.token)
        if who is not None:
            key = account_key(who[0])
            hub = service.hub()
            if hub.exact(key) is None:
                await self._learn_head(hub, key, who[0])
            found = await fast.serve(shape, key, hub, receive, send, field="position")
            if found is None:
                fast.taught(shape)
                return
            receive = found
            scope = fast.expired(shape, scope)
        async with ThreadSensitiveContext(executor=self._executor()):
            hold = waiting.Hold("", account=True)
            hold.shape = shape
            token = waiting.current_hold.set(hold)
            try:
                await super().__call__(scope, receive, send)
            finally:
                fast.taught(shape)
                waiting.current_hold.reset(token)
                if hold.pending is not None and hold.pending.slot.held:  # (client gone)
                    await fast.give_back(hold.pending.slot)

    async def _identify(self, token: str) -> tuple[Any, int] | None:
        """The token's user for the fast path (``fast.identify``), None when unsure."""
        try:
            return await fast.identify(token)
        except Exception as exc:
            log.debug("feed: token unknown (%s): Django answers", exc)
            return None

    async def _learn_game(self, hub: Any, game_id: str) -> None:
        """Teach the hub a game's version and the fast path its readers with one query
        (``waiting.game_facts``) instead of a Django request per client: a feed process
        just started, or a game's first waiters here. Concurrent waits of one game share
        the read, and the games asked for at once share its query (``_facts``). As in
        the Django path, the version
        is read after the game's channel is confirmed subscribed (``Hub.ticket``)."""
        running = self._learning.get(game_id)
        if running is not None:
            await asyncio.shield(running)
            return
        running = self._learning[game_id] = asyncio.get_running_loop().create_future()
        try:
            async with hub.hold(game_id):
                ticket = hub.ticket(game_id)
                if ticket is None:
                    return  # Redis is away: Django's path
                facts = await self._facts(game_id)
                if facts is not None:
                    fast.learn_readers(game_id, facts[1])
                    hub.learn(game_id, facts[0], ticket)
        finally:
            del self._learning[game_id]
            running.set_result(None)

    async def _facts(self, game_id: str) -> tuple[int, frozenset[str] | None] | None:
        """``waiting.game_facts`` of the game, read together with those of every other
        game asked for meanwhile: one read at a time, and the games asked for while it
        runs are read by the next one in a single query. A process that just started
        under thousands of reconnecting clients learns their games in a few dozen
        queries instead of a query (and an executor hop) each, at the moment the two
        cores are busiest; a lone game is read at once, as before."""
        loop = asyncio.get_running_loop()
        wanted = self._facts_wanted.get(game_id)
        if wanted is None:
            wanted = self._facts_wanted[game_id] = loop.create_future()
        if self._facts_reading is None:
            self._facts_reading = loop.create_task(self._read_facts())
        return await asyncio.shield(wanted)

    async def _read_facts(self) -> None:
        try:
            while self._facts_wanted:
                batch = dict(itertools.islice(self._facts_wanted.items(), FACTS_BATCH))
                for game_id in batch:
                    del self._facts_wanted[game_id]
                read = sync_to_async(
                    waiting.games_facts, thread_sensitive=False, executor=self._executor()
                )
                try:
                    found = await read(list(batch))
                except Exception as exc:  # (answered by Django, as an unreadable game)
                    log.warning("feed: reading games' versions failed: %s", exc)
                    found = None
                for game_id, future in batch.items():
                    if not future.done():
                        future.set_result(None if found is None else found.get(game_id))
        finally:
            self._facts_reading = None

    async def _learn_head(self, hub: Any, key: str, user_id: Any) -> None:
        """Teach the hub an account's head with one query instead of a Django request: a
        known token's first wait (a client that just read where to start, or came back
        after its entry lingered out) is then the fast path's. The head is read after
        the key's channel is confirmed subscribed (``Hub.ticket``), as the Django path
        does, so anything stored after the read is heard."""
        async with hub.hold(key):
            ticket = hub.ticket(key)
            if ticket is None:
                return  # Redis is away: Django's path
            read = sync_to_async(
                waiting.account_head, thread_sensitive=False, executor=self._executor()
            )
            head = await read(user_id)
            if head is not None:
                hub.learn(key, head, ticket)

    async def send_response(self, response: Any, send: Any) -> None:
        hold = waiting.current_hold.get()
        if hold is not None and hold.version is not None:
            fast.learn_readers(hold.game_id, hold.readers)
            service.hub().learn(hold.game_id, hold.version, hold.ticket)
        if (
            hold is not None
            and hold.pending is not None
            and getattr(response, "pablo_feed_pending", False)
        ):
            fast.remember_headers(hold.shape, response)
            await self._park(hold, response)
            await fast.give_back(hold.pending.slot)
        if service.draining():  # (the process is stopping: the client polls again elsewhere)
            response["Connection"] = "close"
        await super().send_response(response, send)

    async def _park(self, hold: waiting.Hold, response: Any) -> None:
        pending = hold.pending
        assert pending is not None
        if hold.account:
            await self._park_account(hold, response)
            return
        version = await service.hub().wait(hold.game_id, pending.after, waiting.remaining(pending))
        if version is None:
            return  # the wait ran out: the answer so far (no events, the version it had)
        woke = time.time()
        # a fresh unit of work: on whichever executor is least busy now
        read = sync_to_async(waiting.read_again, thread_sensitive=False, executor=self._executor())
        data = await read(pending)
        if data is not None:
            service.hub().learn(hold.game_id, data["version"], hold.ticket)
            waiting.render(response, data)
        if DEBUG:
            print(
                f"FEEDDBG {woke:.3f} woke {hold.game_id[-8:]} v{version} read "
                f"{(time.time() - woke) * 1000:.0f} ms",
                flush=True,
            )

    async def _park_account(self, hold: waiting.Hold, response: Any) -> None:
        """Hold the account's key, read once more (what was stored before the hub
        listened is not missed), then wait as a game's feed does."""
        pending = hold.pending
        assert pending is not None
        hub = service.hub()
        read = sync_to_async(waiting.read_again, thread_sensitive=False, executor=self._executor())
        async with hub.hold(hold.game_id):
            ticket = hub.ticket(hold.game_id)
            data = await read(pending)
            if data is None:
                return
            if data["events"] or data["position"] != pending.after:
                waiting.render(response, data)
                return
            hub.learn(hold.game_id, data["position"], ticket)
            while True:
                version = await hub.wait(hold.game_id, pending.after, waiting.remaining(pending))
                if version is None:
                    return  # the wait ran out: the answer so far
                heard = hub.heard(hold.game_id)
                data = await read(pending)
                if data is None:
                    return
                if data["events"] or data["position"] != pending.after:
                    hub.learn(hold.game_id, data["position"], ticket)
                    waiting.render(response, data)
                    return
                # woken for nothing (a head heard above the one stored): the wait goes on
                hub.settle(hold.game_id, heard, data["position"])

    async def _lifespan(self, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                _profile_start()
                _drain_on_exit_signals()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                _profile_dump()
                await service.close_hubs()
                await fast.close()
                for executor in self.executors:
                    executor.shutdown(wait=False)
                await send({"type": "lifespan.shutdown.complete"})
                return


def _drain_on_exit_signals() -> None:
    """On SIGTERM (or SIGINT) the server stops taking connections and waits for the
    requests in flight: here every wait held on this loop's hub also ends at once
    (``Hub.drain``), so a stop under thousands of waiting clients takes a moment,
    not a whole wait (``--timeout-graceful-shutdown``). The server's own handler
    (uvicorn's, installed before the lifespan starts) still runs first."""
    if threading.current_thread() is not threading.main_thread():
        return  # (only the main thread sets signal handlers: a server run in a thread)
    loop = asyncio.get_running_loop()

    def drain() -> None:
        found = service._hubs.get(loop)
        if found is not None:
            found.drain()

    for signum in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(signum)
        if not callable(previous) or previous is signal.default_int_handler:
            continue  # (the default or ignored: not a server's, left alone)

        def handler(sig: int, frame: Any, previous: Any = previous) -> None:
            previous(sig, frame)
            with contextlib.suppress(RuntimeError):  # the loop is closed
                loop.call_soon_threadsafe(drain)

        signal.signal(signum, handler)


_profile: list[Any] = []


def _profile_start() -> None:
    """``PABLO_FEED_PROFILE=<path>``: cProfile the loop's thread, written to
    ``<path>.<pid>.<n>`` on SIGUSR1 (and started afresh) and on shutdown."""
    if not os.environ.get("PABLO_FEED_PROFILE"):
        return
    profile = cProfile.Profile(time.thread_time)  # (the loop thread's CPU, not the wall)
    _profile[:] = [profile, 0]
    profile.enable()
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, _profile_dump, True)


def _profile_dump(again: bool = False) -> None:
    if not _profile:
        return
    profile, n = _profile
    profile.disable()
    profile.dump_stats(f"{os.environ['PABLO_FEED_PROFILE']}.{os.getpid()}.{n}")
    if again:
        profile = cProfile.Profile(time.thread_time)
        _profile[:] = [profile, n + 1]
        profile.enable()
    else:
        _profile.clear()


def application() -> Application:
    os.environ.setdefault("PABLO_SERVER", "asgi")
    return Application()
