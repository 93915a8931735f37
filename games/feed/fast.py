"""The fast path: a long poll with nothing new, answered before Django (issue 17).

An idle table re-polls ``GET /api/games/{id}/events/?after=n&wait=30`` every
~30 s. Through Django each poll costs ~4-5 ms of CPU (middleware, DRF, the
token, the game and seat queries, the wait counter) to learn what the hub
already knows: nothing happened. ``serve`` answers such a poll on the event
loop, without Django, without a thread and without a query, when **all** of
these hold (anything else, or anything unsure, goes to Django as before, which
gives the usual answers: 400, 401, 404, 429, the events):

* **the request's shape** (``shape``): ``GET``, only ``after`` (an integer)
  and ``wait`` (0 < wait <= 30) in the query, ``Authorization: Token <key>``, no
  cookie (the browser's table long-polls with its session: always Django), and
  only headers that do not change the answer (``ALLOWED_HEADERS``);
* **the answer's headers are known** by the time it is answered: the Django
  path answered a pending poll of the same shape (scheme, host, ``Accept``,
  proxy headers) in this process, and its headers were remembered
  (``remember_headers``): the fast answer carries exactly those (Vary, Allow,
  the security headers...), with its own Content-Length and its own
  Content-Language (``Accept-Language`` is not part of the shape: the language
  is ``games.languages``', as the middleware names it). The first request of
  a shape new to the process goes through Django to teach them
  (``teach_headers``); the others park here meanwhile; one whose wait runs out
  with them still unknown is answered by Django at once (``expired``);
* **the game's version is authoritative** (``Hub.exact``): read from the
  database by the Django path after the game's channel was confirmed
  subscribed on a healthy Redis connection, then raised by the messages
  since; forgotten when the connection breaks or restarts, when the game's
  entry lingers out, and ``hub.KNOWN_FOR`` seconds after that read; the hub's
  audit (one query every ``PABLO_FEED_AUDIT`` seconds) renews it and catches a
  message lost by its publisher. The embedded default (no Redis) never has
  one: its polls all go to Django;
* ``after`` >= that version (nothing new);
* **the token is known** (``identify``: accepted by the Django path of this
  process within ``tokens.FAST_TTL`` -- or of any process: its record in the
  shared cache, ``tokens.vouch``, read once and then remembered), and in **one Redis
  round trip** (one script) neither the token's revocation mark nor a newer
  change mark of its user exists -- then the user's wait counter
  (``PABLO_FEED_WAITS``, the same key and script as ``games.feed.limits``) is
  taken. Over the limit, the slot is given back and Django answers (429).

**Who may read the game**: a private game is seen only by its players (and
whoever presents its invite: an extra query parameter, so never this path). The
Django path, which checked the reader, tells the fast path who may read each
game (``learn_readers``: everyone for a public game, the players' ids for a
private one); a game it was not told of, or a reader not among them, goes to
Django, which answers the unknown game's 404.

Then the poll parks on the hub (``Hub.wait``): on timeout the answer is
``{"events": [], "version": <known>}`` rendered by DRF's ``JSONRenderer``; on
news (or an exactness lost meanwhile) the slot is given back and the request
goes through Django, which answers at once with the events, redacted by the
usual selectors; a client that goes away cancels the wait. The slot is given
back on every exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache, RedisSerializer
from rest_framework.renderers import JSONRenderer

from games import tokens
from games.feed import limits, resp
from games.feed.hub import Hub
from games.languages import from_accept_language

log = logging.getLogger(__name__)

DEBUG = bool(os.environ.get("PABLO_FEED_DEBUG"))
#: Request headers that may be present; the ones in ``SHAPE_HEADERS`` choose the
#: remembered answer headers, the others do not change the answer.
ALLOWED_HEADERS = frozenset(
    {
        b"host",
        b"authorization",
        b"accept",
        b"accept-encoding",
        b"accept-language",
        b"content-type",  # (a GET has no body to parse)
        b"user-agent",
        b"connection",
        b"cache-control",
        b"pragma",
        b"x-forwarded-for",
        b"x-forwarded-proto",
        b"x-forwarded-host",
        b"x-forwarded-port",
        b"x-real-ip",
        b"x-request-id",
    }
)
SHAPE_HEADERS = (b"host", b"accept", b"x-forwarded-proto", b"x-forwarded-host", b"x-forwarded-port")
ACCEPT = frozenset({None, b"*/*", b"application/json"})
TOKEN = re.compile(rb"^Token ([0-9A-Za-z]{1,128})$")
AFTER = re.compile(r"^[0-9]{1,10}$")
WAIT = re.compile(r"^[0-9]{1,2}(\.[0-9]{1,6})?$")
MAX_INT = 2**31 - 1
MAX_WAIT = 30.0
MAX_SHAPES = 64
#: games whose readers the fast path remembers (the oldest forgotten first)
MAX_READERS = 100_000
_renderer = JSONRenderer()

#: One round trip: refuse (-1) when the token is revoked or its user changed since
#: the read that vouched for it (``games.tokens``), else take a wait slot -- unless
#: that passes the limit (``ARGV[3]``): then nothing is counted and the expiry is left
#: alone (``games.feed.limits``), and the count above the limit is returned.
_TAKE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
local changed = redis.call('GET', KEYS[2])
if changed then
  local at = tonumber(changed)
  if (not at) or at >= tonumber(ARGV[1]) then return -1 end
end
local n = redis.call('INCRBY', KEYS[3], 1)
local most = tonumber(ARGV[3])
if most > 0 and n > most then
  redis.call('DECRBY', KEYS[3], 1)
  return n
end
redis.call('EXPIRE', KEYS[3], ARGV[2])
return n
"""


@dataclass
class Shape:
    token: str
    after: int
    wait: float
    key: tuple[Any, ...]
    #: this request went through Django to teach its shape's headers (``learn_headers``)
    teaches: bool = False
    #: parked here, its wait ran out with the headers still unknown: Django answers it
    #: at once instead (``expired``)
    ran_out: bool = False
    #: the answer's ``Content-Language``: the request's own (``Accept-Language`` is not
    #: part of the shape), as Django's middleware would name it
    language: bytes = b"en"


def shape(scope: dict[str, Any], kind: str = "game") -> Shape | None:
    """The parts of a waiting feed request the fast path needs, or None if it may not
    take it (see the module's docstring)."""
    if scope.get("method") != "GET":
        return None
    values: dict[bytes, bytes] = {}
    for name, value in scope.get("headers", ()):
        if name not in ALLOWED_HEADERS or name in values:
            return None
        values[name] = value
    match = TOKEN.match(values.get(b"authorization", b""))
    if match is None or values.get(b"accept") not in ACCEPT:
        return None
    try:
        query = parse_qsl(
            scope.get("query_string", b"").decode("ascii"),
            keep_blank_values=True,
            strict_parsing=True,
        )
    except (UnicodeDecodeError, ValueError):
        return None
    params = dict(query)
    if len(params) != len(query) or set(params) != {"after", "wait"}:
        return None
    if not AFTER.match(params["after"]) or not WAIT.match(params["wait"]):
        return None
    after, wait = int(params["after"]), float(params["wait"])
    if after > MAX_INT or not 0 < wait <= MAX_WAIT:
        return None
    key = (
        kind,
        scope.get("scheme", "http"),
        scope.get("root_path", ""),
        scope.get("path", "").endswith("/"),
        *(values.get(name) for name in SHAPE_HEADERS),
    )
    language = from_accept_language(values.get(b"accept-language", b"").decode("latin-1"))
    return Shape(match.group(1).decode("ascii"), after, wait, key, language=language.encode())


# ---------------------------------------------------------------------------- headers

#: shape key -> the Django answer's headers (``LENGTH`` in place of Content-Length,
#: ``LANGUAGE`` in place of Content-Language: each request's own)
_headers: dict[tuple[Any, ...], list[tuple[bytes, bytes | None]]] = {}
LENGTH: None = None
LANGUAGE = b"\0language"


def remember_headers(request: Shape | None, response: Any) -> None:
    """The headers of a pending (no news) Django answer to a request of this shape."""
    if request is None or request.key in _headers:
        return
    if response.status_code != 200 or response.cookies or response.streaming:
        return
    if response.get("Content-Type") != "application/json":
        return
    found: list[tuple[bytes, bytes | None]] = []
    for name, value in response.items():
        if name.lower() == "content-length":
            found.append((name.encode("ascii"), LENGTH))
        elif name.lower() == "content-language":
            found.append((name.encode("ascii"), LANGUAGE))
        else:
            found.append((name.encode("ascii"), value.encode("latin1")))
    if len(_headers) >= MAX_SHAPES:
        _headers.clear()
    _headers[request.key] = found
    _taught(request.key)  # (the requests waiting for them go on: ``learn_headers``)


#: shape key -> resolved once a Django answer of that shape taught its headers (or
#: the request that went to teach them ended without)
_teaching: dict[tuple[Any, ...], asyncio.Future[None]] = {}
#: how long a request of an unknown shape waits for the one teaching it
TEACH_WAIT = 5.0


async def learn_headers(request: Shape | None) -> None:
    """For a request of a shape whose answer headers this process does not know yet:
    let one go through Django to teach them, and the others wait for it (up to
    ``TEACH_WAIT`` seconds) instead of each going through Django -- a feed process
    just started under reconnecting clients. The request that teaches returns at
    once; ``taught`` must be called when it ends."""
    if request is None:
        return
    deadline = time.monotonic() + TEACH_WAIT
    while request.key not in _headers:
        running = _teaching.get(request.key)
        if running is None:
            _teaching[request.key] = asyncio.get_running_loop().create_future()
            request.teaches = True
            return
        left = deadline - time.monotonic()
        if left <= 0:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(running), left)


def teach_headers(request: Shape | None) -> None:
    """``learn_headers`` without waiting: a request of a shape whose headers are unknown
    and that nobody is teaching goes through Django to teach them (``teaches``); the
    others of its shape park on the fast path at once all the same -- the headers are
    needed only for the answer, a wait later (``serve``). A feed process just started
    under thousands of reconnecting clients thus sends one of them through Django, not
    everyone whose wait for the teacher ran out while the first Django request of a
    cold process was slow (9-11 s on a loaded machine)."""
    if request is None or request.key in _headers or request.key in _teaching:
        return
    _teaching[request.key] = asyncio.get_running_loop().create_future()
    request.teaches = True


def may_serve(request: Shape | None) -> bool:
    """May ``serve`` take this request (its shape; not the one teaching its headers)?"""
    return request is not None and not request.teaches


def expired(request: Shape | None, scope: dict[str, Any]) -> dict[str, Any]:
    """The scope Django gets for a request ``serve`` handed back: as sent, unless its
    wait ran out on the fast path with no headers to answer with (``Shape.ran_out``):
    then Django answers at once (the same "nothing new" after a wait that is over) and
    teaches them."""
    if request is None or not request.ran_out:
        return scope
    query = f"after={request.after}&wait=0.001".encode("ascii")
    return {**scope, "query_string": query}


def taught(request: Shape | None) -> None:
    """The request that went to teach its shape's headers has its answer (or none)."""
    if request is not None and request.teaches:
        request.teaches = False
        _taught(request.key)


def _taught(key: tuple[Any, ...]) -> None:
    running = _teaching.pop(key, None)
    if running is not None and not running.done():
        running.set_result(None)


def knows(request: Shape | None) -> bool:
    """Are the answer's headers for requests of this shape known (see ``serve``)?"""
    return request is not None and request.key in _headers


def render(version: int, field: str = "version") -> bytes:
    """``{"events": [], "version": version}`` as the view's ``JSONRenderer`` renders it
    (the account feed's: ``{"events": [], "position": position}``)."""
    return _renderer.render({"events": [], field: version}, "application/json")


def answer_headers(request: Shape, body: bytes) -> list[tuple[bytes, bytes]]:
    length = str(len(body)).encode("ascii")
    mine = {LENGTH: length, LANGUAGE: request.language}
    return [(name, mine.get(value, value)) for name, value in _headers[request.key]]


# ---------------------------------------------------------------------------- readers

#: game id -> None (a public game: any signed-in user) or the ids of the users who may
#: read it (a private game's players), as the Django path last saw them
_readers: OrderedDict[str, frozenset[str] | None] = OrderedDict()


def learn_readers(game_id: str, readers: frozenset[str] | None) -> None:
    """Who may read ``game_id`` (``friends.readers``), told by the Django path."""
    _readers[game_id] = readers
    _readers.move_to_end(game_id)
    while len(_readers) > MAX_READERS:
        _readers.popitem(last=False)


def knows_readers(game_id: str) -> bool:
    return game_id in _readers


def may_read(game_id: str, user_id: Any) -> bool:
    """Whether the fast path may answer ``user_id`` about ``game_id`` (unsure: no)."""
    if game_id not in _readers:
        return False
    readers = _readers[game_id]
    return readers is None or str(user_id) in readers


# ---------------------------------------------------------------------------- Redis


class _Counter:
    """The marks and the wait counter on Redis, asynchronously (one client per loop).

    One pipelined connection (``resp.Client``): a burst of polls (clients
    reconnecting, a wake-up of many) shares its round trips instead of queueing for
    a pool's connections or opening hundreds. The timeout is generous: a busy loop
    reads late, and a slot taken whose answer is lost is a slot lost until the
    counter expires."""

    def __init__(self, url: str) -> None:
        self.client = resp.Client(url, timeout=3.0, connect_timeout=1.0)
        self.take = self.client.script(_TAKE)
        self.change = self.client.script(limits.CHANGE)


_counters: dict[asyncio.AbstractEventLoop, _Counter | None] = {}


def _counter() -> _Counter | None:
    """This loop's counter when both caches are one Redis server, else None (the
    marks and the counter are then read on the executor)."""
    loop = asyncio.get_running_loop()
    if loop not in _counters:
        default, throttle = caches["default"], caches[limits.CACHE]
        same = (
            isinstance(default, RedisCache)
            and isinstance(throttle, RedisCache)
            and default._servers[0] == throttle._servers[0]
        )
        _counters[loop] = _Counter(default._servers[0]) if same else None
    return _counters[loop]


async def close() -> None:
    found = _counters.pop(asyncio.get_running_loop(), None)
    if found is not None:
        with contextlib.suppress(Exception):
            await found.client.close()


async def _take(token: str, user_id: Any, read_wall: int) -> str | None:
    """The user's wait slot (its counter's key), or None when the fast path may not go
    on (revoked, changed, over the limit, unknown): Django decides."""
    key = limits.key_for(user_id)
    most = limits.limit()
    counter = _counter()
    if counter is None:
        return await asyncio.get_running_loop().run_in_executor(
            None, _take_sync, token, user_id, read_wall
        )
    default, throttle = caches["default"], caches[limits.CACHE]
    marks = [default.make_key(k) for k in tokens.marks(token, user_id)]
    since = read_wall - int(tokens.MARGIN * 1000)
    keys = [*marks, throttle.make_key(key)]
    count = int(await counter.take(keys=keys, args=[since, limits.TTL, most]))
    if count < 0:
        tokens.forget(key=token)
        return None
    if most > 0 and count > most:  # (not counted)
        return None
    return key


def _take_sync(token: str, user_id: Any, read_wall: int) -> str | None:
    values = caches["default"].get_many(tokens.marks(token, user_id))
    if tokens.refused([values.get(k) for k in tokens.marks(token, user_id)], read_wall):
        tokens.forget(key=token)
        return None
    key = limits.key_for(user_id)
    most = limits.limit()
    count = limits.change(key, +1, most)
    if most > 0 and count > most:  # (not counted)
        return None
    return key


_serializer = RedisSerializer()


async def identify(token: str) -> tuple[Any, int] | None:
    """(user id, wall ms of the read that vouched for it) of a token this process's
    Django path accepted lately, or -- a token it does not know -- that any process's
    Django path accepted within ``tokens.FAST_TTL`` (its record in the shared cache,
    one round trip; then remembered here). None: unknown, Django decides. The marks
    are still to be checked (``_take`` does, on every poll)."""
    who = tokens.fast_user(token)
    if who is not None:
        return who
    counter = _counter()
    if counter is None:
        return None
    raw = await counter.client.execute("GET", caches["default"].make_key(tokens.vouched_key(token)))
    who = tokens.parse_vouched(None if raw is None else _serializer.loads(raw))
    if who is not None:
        tokens.remember_vouched(token, *who)
    return who


async def give_back(slot: limits.Slot) -> None:
    """Give a Django path's wait back from the loop (before its answer is sent: the
    client polls again at once, and must not find its own finished wait counted)."""
    key = slot.take()
    if key is not None:
        await _release(key)


async def _release(key: str) -> None:
    counter = _counter()
    if counter is not None:
        try:
            throttle = caches[limits.CACHE]
            await counter.change(keys=[throttle.make_key(key)], args=[-1, limits.TTL])
            return
        except Exception as exc:
            log.info("feed: giving a wait back on the loop failed (%s): on a thread", exc)
    try:
        await asyncio.get_running_loop().run_in_executor(None, limits.change, key, -1)
    except Exception as exc:  # the key expires on its own (limits.TTL)
        log.warning("feed: could not give a wait back: %s", exc)


# ---------------------------------------------------------------------------- serving

Receive = Callable[[], Awaitable[dict[str, Any]]]


async def serve(
    request: Shape | None,
    game_id: str,
    hub: Hub,
    receive: Receive,
    send: Any,
    field: str = "version",
) -> Receive | None:
    """Answer the poll here if the fast path may (None: answered, or the client is
    gone); otherwise the ``receive`` to hand Django (what was read from the client
    is given again)."""
    if not may_serve(request):
        return receive
    assert request is not None
    known = hub.exact(game_id)
    if known is None or request.after < known:
        return receive
    if field == "position" and request.after != known:
        return receive  # (the account feed answers an ``after`` beyond its head at once)
    started = time.monotonic()
    try:
        who = await identify(request.token)
        if who is None:
            return receive
        if field == "version" and not may_read(game_id, who[0]):
            return receive  # (a private game: Django answers a stranger the unknown game's 404)
        slot = await _take(request.token, who[0], who[1])
    except Exception as exc:
        log.debug("feed: fast path unsure (%s): Django answers", exc)
        return receive
    if slot is None:
        return receive
    read: list[dict[str, Any]] = []

    async def listen() -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            read.append(message)

    async def again() -> dict[str, Any]:
        if read:
            return read.pop(0)
        return await receive()

    listener = asyncio.ensure_future(listen())
    try:
        async with hub.hold(game_id):
            remaining = max(0.0, started + request.wait - time.monotonic())
            waiter = asyncio.ensure_future(hub.wait(game_id, request.after, remaining))
            try:
                await asyncio.wait({listener, waiter}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                if not waiter.done():
                    waiter.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await waiter
        if listener.done() or waiter.cancelled():
            return None  # the client went away
        version = waiter.result()
        if version is not None:
            if DEBUG:
                print(f"FEEDDBG fast woke {game_id[-8:]} v{version}", flush=True)
            return again  # news: Django reads and answers it
        known = hub.exact(game_id)
        if known is None or known > request.after:
            return again  # no longer sure: Django reads the database
        if request.key not in _headers:
            await learn_headers(request)  # (its teacher went long ago, or failed)
            if request.key not in _headers:
                request.ran_out = True
                return again  # Django answers (and teaches): ``expired``
    finally:
        if not listener.done():
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
        await _release(slot)
    body = render(known, field)
    hub.stats["fast"] += 1
    if DEBUG:
        print(f"FEEDDBG fast answered {game_id[-8:]} v{known}", flush=True)
    headers = answer_headers(request, body)
    if hub.draining:  # (the process is stopping: the client polls again elsewhere)
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})
    return None
