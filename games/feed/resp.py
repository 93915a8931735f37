"""Minimal Redis connections on asyncio streams (RESP2).

* ``PubSubConnection`` -- SUBSCRIBE, UNSUBSCRIBE, PING: just what one
  subscriber per process needs, so the hub controls every byte (no client
  library's own reconnect, buffering or locking in the way): one TCP
  connection, commands written as they come, replies read by one reader loop.
  The database number does not matter to pub/sub (channels are server-wide).
* ``Client`` -- the fast path's commands (``games.feed.fast``: a GET, two
  scripts), pipelined on one connection: every command of a loop iteration
  leaves in one write, the replies are matched in order. A poll's Redis call
  costs ~0.13 ms of CPU through redis-py's pooled asyncio client (found
  profiling a feed process under reconnecting clients, bench/README.md
  "--storm"), a few hundredths here; and a burst (thousands of clients
  reconnecting) shares round trips instead of queueing for a pool's
  connections.

``redis://[user:password@]host[:port][/db]`` and ``rediss://`` (TLS) URLs.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ssl
import time
from collections import deque
from typing import Any
from urllib.parse import unquote, urlparse


class Closed(ConnectionError):
    """The connection ended (the server went away or closed it)."""


def _command(*parts: str) -> bytes:
    out = [f"*{len(parts)}\r\n".encode()]
    for part in parts:
        raw = part.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(raw), raw))
    return b"".join(out)


class PubSubConnection:
    #: bulk strings as ``str`` (channel names, versions); bytes when False
    decode = True

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, url: str, timeout: float = 2.0, select: bool = False) -> Any:
        parsed = urlparse(url)
        host = parsed.hostname or "127.0.0.1"
        port = parsed.port or 6379
        context = ssl.create_default_context() if parsed.scheme == "rediss" else None
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, ssl=context), timeout
        )
        conn = cls(reader, writer)
        if parsed.password is not None:
            parts = ["AUTH"]
            if parsed.username:
                parts.append(unquote(parsed.username))
            parts.append(unquote(parsed.password))
            writer.write(_command(*parts))
            reply = await asyncio.wait_for(conn.read(), timeout)
            if isinstance(reply, Exception):
                writer.close()
                raise Closed(f"Redis refused AUTH: {reply}")
        db = parsed.path.strip("/")
        if select and db not in ("", "0"):
            writer.write(_command("SELECT", db))
            reply = await asyncio.wait_for(conn.read(), timeout)
            if isinstance(reply, Exception):
                writer.close()
                raise Closed(f"Redis refused SELECT {db}: {reply}")
        return conn

    def send(self, *parts: str) -> None:
        self.writer.write(_command(*parts))

    async def read(self) -> Any:
        """One reply: str/bytes, int, list, None, or an Exception for an error reply."""
        line = await self.reader.readline()
        if not line.endswith(b"\r\n"):
            raise Closed("connection closed")
        kind, rest = line[:1], line[1:-2]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            return RuntimeError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            size = int(rest)
            if size < 0:
                return None
            data = await self.reader.readexactly(size + 2)
            return data[:-2].decode() if self.decode else data[:-2]
        if kind == b"*":
            size = int(rest)
            if size < 0:
                return None
            return [await self.read() for _ in range(size)]
        raise Closed(f"unexpected reply {line[:20]!r}")

    def close(self) -> None:
        with contextlib.suppress(Exception):  # already gone
            self.writer.close()


class _Raw(PubSubConnection):
    decode = False


class Client:
    """Commands pipelined on one connection, opened on first use and again after a
    failure. ``execute`` raises ``Closed`` (or ``OSError``) when the connection fails
    or a reply takes longer than ``timeout`` seconds; an error reply is raised as
    ``RuntimeError``. Bulk replies are bytes."""

    def __init__(self, url: str, timeout: float = 3.0, connect_timeout: float = 1.0) -> None:
        self.url = url
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.conn: _Raw | None = None
        #: (reply's future, when its command was queued), in the order sent
        self.pending: deque[tuple[asyncio.Future[Any], float]] = deque()
        self.out: list[bytes] = []
        self._opening: asyncio.Future[_Raw] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = False

    async def _connection(self) -> _Raw:
        if self.conn is not None:
            return self.conn
        if self._closed:
            raise Closed("client closed")
        if self._opening is None:
            loop = asyncio.get_running_loop()
            self._opening = loop.create_future()
            try:
                conn = await _Raw.open(self.url, self.connect_timeout, select=True)
            except BaseException as exc:
                opening, self._opening = self._opening, None
                opening.set_exception(Closed(f"cannot connect: {exc!r}"))
                opening.exception()  # (retrieved: waiters, if any, get it too)
                raise
            self.conn = conn
            self._tasks = [
                loop.create_task(self._reader(conn)),
                loop.create_task(self._watchdog(conn)),
            ]
            opening, self._opening = self._opening, None
            opening.set_result(conn)
            return conn
        return await asyncio.shield(self._opening)

    async def execute(self, *parts: Any) -> Any:
        conn = await self._connection()
        assert conn is self.conn
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if not self.out:
            asyncio.get_running_loop().call_soon(self._flush)
        self.out.append(_command(*(str(p) if not isinstance(p, str) else p for p in parts)))
        self.pending.append((future, time.monotonic()))
        reply = await future
        if isinstance(reply, Exception):
            raise reply
        return reply

    def _flush(self) -> None:
        out, self.out, conn = self.out, [], self.conn
        if conn is None or not out:  # (it failed meanwhile: its commands were failed)
            return
        try:
            conn.writer.write(b"".join(out))
        except Exception as exc:
            self._fail(conn, exc)

    async def _reader(self, conn: _Raw) -> None:
        try:
            while True:
                reply = await conn.read()
                if not self.pending:
                    raise Closed("a reply nobody asked for")
                future, _queued = self.pending.popleft()
                if not future.done():
                    future.set_result(reply)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._fail(conn, exc)

    async def _watchdog(self, conn: _Raw) -> None:
        while self.conn is conn:
            await asyncio.sleep(min(1.0, self.timeout / 2))
            if self.pending and time.monotonic() - self.pending[0][1] > self.timeout:
                self._fail(conn, Closed(f"no reply within {self.timeout} s"))

    def _fail(self, conn: _Raw, exc: BaseException) -> None:
        """The connection is done for: close it, fail every command waiting on it."""
        if self.conn is not conn:
            return
        self.conn = None
        conn.close()
        pending, self.pending = self.pending, deque()
        self.out = []
        error = exc if isinstance(exc, (Closed, OSError)) else Closed(repr(exc))
        for future, _queued in pending:
            if not future.done():
                future.set_exception(error)
        current = asyncio.current_task()
        for task in self._tasks:
            if task is not current:
                task.cancel()

    def script(self, body: str) -> Script:
        return Script(self, body)

    async def close(self) -> None:
        self._closed = True
        if self.conn is not None:
            self._fail(self.conn, Closed("client closed"))
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class Script:
    """A Lua script run by its digest (EVALSHA), sent whole once the server says it
    does not know it (NOSCRIPT: a restarted or flushed Redis)."""

    def __init__(self, client: Client, body: str) -> None:
        self.client = client
        self.body = body
        self.sha = hashlib.sha1(body.encode()).hexdigest()  # (Redis names scripts so)

    async def __call__(self, keys: list[str], args: list[Any]) -> Any:
        try:
            return await self.client.execute("EVALSHA", self.sha, len(keys), *keys, *args)
        except RuntimeError as exc:
            if not str(exc).startswith("NOSCRIPT"):
                raise
        return await self.client.execute("EVAL", self.body, len(keys), *keys, *args)
