"""A minimal Redis pub/sub connection on asyncio streams (RESP2): SUBSCRIBE, UNSUBSCRIBE, PING.

Just what one subscriber per process needs, so the hub controls every byte
(no client library's own reconnect, buffering or locking in the way): one TCP
connection, commands written as they come, replies read by one reader loop.
``redis://[user:password@]host[:port][/db]`` and ``rediss://`` (TLS) URLs;
the database number does not matter to pub/sub (channels are server-wide).
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
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
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, url: str, timeout: float = 2.0) -> PubSubConnection:
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
            return data[:-2].decode()
        if kind == b"*":
            size = int(rest)
            if size < 0:
                return None
            return [await self.read() for _ in range(size)]
        raise Closed(f"unexpected reply {line[:20]!r}")

    def close(self) -> None:
        with contextlib.suppress(Exception):  # already gone
            self.writer.close()
