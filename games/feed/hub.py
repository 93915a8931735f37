"""The process's hub: asyncio waiters per game, woken by one Redis subscription.

One ``Hub`` per event loop (one per ASGI worker process). Waiters of a game
park on an ``asyncio.Future``: no thread, no database connection, no query
while nothing happens. The hub keeps **one** Redis connection in subscribed
mode and multiplexes it over the games somebody waits on: the first waiter of
a game SUBSCRIBEs to the game's channel, the last one's departure
UNSUBSCRIBEs (``LINGER`` seconds later). A message on a channel (the game's
new version, published by whichever process appended, see ``games.feed.publish``) wakes that game's
waiters whose ``after`` is below it. An append in this very process wakes
them directly too (``wake_local``), which is all the embedded default has.

**When the fan-out is away** (no Redis configured -- the embedded default --,
Redis down or restarting, the connection silent for too long), the hub runs
one shared re-check: every ``recheck`` seconds, one query reads the versions
of every game this process has waiters on, and wakes those that moved on.
One query per process per period, whatever the number of waiters; never a
busy loop. After the connection comes back the hub re-subscribes and checks
once more (what was appended during the gap), then stops re-checking.

**Exact versions and the audit.** ``known`` is a lower bound of a game's
version; it is *exact* (``exact``: the fast path of ``games.feed.fast`` answers
"nothing new" from it) when it was read from the database after the game's
channel was confirmed subscribed on the current connection (``ticket`` /
``learn``), for ``KNOWN_FOR`` seconds, and forgotten whenever the connection
ends. While the subscription is healthy the hub audits every ``audit``
seconds (``PABLO_FEED_AUDIT``, 20): one query reads the versions of every
subscribed game, renews their exactness and wakes the waiters of a game that
moved on unheard (a message its publisher could not send). The
feed itself is read from the database by ``seq``, so a lost or late wake-up
delays an answer but never loses or reorders an event.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from games.feed.resp import Closed, PubSubConnection

log = logging.getLogger(__name__)

#: Seconds between two PINGs on a quiet subscription, and how long a PONG may take.
PING_EVERY = 5.0
PING_GRACE = 3.0
DEBUG = bool(os.environ.get("PABLO_FEED_DEBUG"))
#: Seconds a game stays subscribed after its last waiter left: a client polls again
#: at once after each answer, and finds the subscription (and the versions heard) there.
LINGER = 5.0
#: Seconds a version read from the database stays authoritative (``exact``): the
#: fast path (games.feed.fast) answers "nothing new" from it meanwhile. Messages
#: raise it but do not renew it: a message its publisher failed to send (Redis
#: briefly unreachable from the writer, the writer killed) would otherwise leave
#: the version stale for as long as the subscription lives. The audit renews it.
KNOWN_FOR = 60.0
#: Seconds between two audits while the subscription is healthy: one query reads
#: the versions of every game this process has subscribed, renews their exact
#: versions and wakes the waiters of any that moved on unheard (a lost message).
AUDIT_EVERY = 20.0


@dataclass(eq=False)
class Waiter:
    after: int
    #: the version heard above ``after``; None: answer now with nothing new (``drain``)
    future: asyncio.Future[int | None]


@dataclass
class _Game:
    holds: int = 0
    waiters: set[Waiter] = field(default_factory=set)
    #: highest version heard while subscribed (0: none)
    known: int = 0
    #: ``known`` is the game's version, not just a lower bound, until this
    #: ``time.monotonic()`` (0: not known to be exact); see ``learn``
    exact_until: float = 0.0
    #: the hub's ``generation`` when ``exact_until`` was set
    exact_generation: int = -1
    #: set once the server confirmed the SUBSCRIBE of the game's channel
    subscribed: asyncio.Event = field(default_factory=asyncio.Event)
    #: the pending UNSUBSCRIBE of a game nobody holds any more (see LINGER)
    linger: asyncio.TimerHandle | None = None


class Hub:
    """Waiters of this event loop, per game.

    ``versions(ids)`` is a blocking function giving ``{game_id: version}`` from
    the database (run in a thread by the re-check); ``channel(game_id)`` names
    a game's Redis channel.
    """

    def __init__(
        self,
        *,
        url: str | None,
        channel: Callable[[str], str],
        versions: Callable[[list[str]], dict[str, int]],
        recheck: float = 0.5,
        audit: float = AUDIT_EVERY,
    ) -> None:
        self.url = url
        self.channel = channel
        self.versions = versions
        self.recheck = max(0.05, recheck)
        self.audit = max(0.1, audit)
        self.games: dict[str, _Game] = {}
        self.by_channel: dict[str, str] = {}
        self.loop = asyncio.get_running_loop()
        self.conn: PubSubConnection | None = None
        self.healthy = False
        #: changes whenever the subscription connection starts or ends: a version
        #: learnt under one generation says nothing under the next
        self.generation = 0
        self.stats = {
            "wakes": 0,
            "messages": 0,
            "rechecks": 0,
            "audits": 0,
            "reconnects": 0,
            "fast": 0,
        }
        self._closing = False
        #: the process is stopping (``drain``): every wait ends at once
        self.draining = False
        #: the first connection was tried (a hold does not wait for a Redis that is away)
        self._tried = False
        self._last_rx = 0.0
        self._pinged = 0.0
        self._tasks = [self.loop.create_task(self._checker())]
        if url:
            self._tasks.append(self.loop.create_task(self._subscriber()))

    # ------------------------------------------------------------------ waiting

    @contextlib.asynccontextmanager
    async def hold(self, game_id: str, confirm: float = 1.0) -> Any:
        """Keep ``game_id`` subscribed for the block (the first hold subscribes, the
        last one's exit unsubscribes). Waits up to ``confirm`` seconds for Redis to
        confirm the subscription, so that anything appended after this returns is
        heard; when Redis is away it returns at once (the re-check covers)."""
        game = self.games.get(game_id)
        if game is None:
            game = self.games[game_id] = _Game()
            self.by_channel[self.channel(game_id)] = game_id
            if self.conn is not None:
                self._send("SUBSCRIBE", self.channel(game_id))
        elif game.linger is not None:
            game.linger.cancel()
            game.linger = None
        game.holds += 1
        try:
            connecting = self.url is not None and not self._tried  # (a new hub)
            if (self.healthy or connecting) and not game.subscribed.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(game.subscribed.wait(), confirm)
            yield game
        finally:
            game.holds -= 1
            if game.holds <= 0 and not game.waiters and game.linger is None:
                game.linger = self.loop.call_later(LINGER, self._drop, game_id)

    def _drop(self, game_id: str) -> None:
        game = self.games.get(game_id)
        if game is None or game.holds > 0 or game.waiters:
            return
        del self.games[game_id]
        self.by_channel.pop(self.channel(game_id), None)
        if self.conn is not None:
            self._send("UNSUBSCRIBE", self.channel(game_id))

    async def wait(self, game_id: str, after: int, timeout: float) -> int | None:
        """Until the game has a version above ``after`` (returns the version heard)
        or ``timeout`` seconds pass (returns None). Call inside ``hold(game_id)``."""
        game = self.games[game_id]
        if game.known > after:
            return game.known
        if self.draining:
            return None
        waiter: Waiter = Waiter(after, self.loop.create_future())
        game.waiters.add(waiter)
        try:
            return await asyncio.wait_for(waiter.future, timeout)
        except TimeoutError:
            return None
        finally:
            game.waiters.discard(waiter)

    # ------------------------------------------------------------------ exact versions

    def ticket(self, game_id: str) -> int | None:
        """Taken *before* a database read of the game's version: the subscription's
        generation if the game's channel is confirmed subscribed on a healthy
        connection (anything committed after the read will be heard), else None."""
        game = self.games.get(game_id)
        if game is None or not self.healthy or not game.subscribed.is_set():
            return None
        return self.generation

    def learn(self, game_id: str, version: int, ticket: int | None) -> None:
        """The game's version as read from the database after ``ticket`` was taken:
        ``known`` becomes exact for ``KNOWN_FOR`` seconds, unless the subscription
        broke (or was never confirmed) in between."""
        game = self.games.get(game_id)
        if (
            game is None
            or ticket is None
            or ticket != self.generation
            or not self.healthy
            or not game.subscribed.is_set()
        ):
            return
        if version > game.known:
            game.known = version
        game.exact_until = time.monotonic() + KNOWN_FOR
        game.exact_generation = ticket

    def exact(self, game_id: str) -> int | None:
        """The game's version if the hub knows it exactly now (see ``learn``), else None."""
        game = self.games.get(game_id)
        if (
            game is None
            or not self.healthy
            or game.exact_generation != self.generation
            or not game.subscribed.is_set()
            or game.exact_until <= time.monotonic()
        ):
            return None
        return game.known

    def _new_generation(self) -> None:
        self.generation += 1
        for game in self.games.values():
            game.exact_until = 0.0

    def heard(self, game_id: str) -> int:
        """The highest version heard of ``game_id`` (0: none, or not held)."""
        game = self.games.get(game_id)
        return game.known if game is not None else 0

    def settle(self, game_id: str, heard: int, version: int) -> None:
        """A read of the database (``version``) found less than was heard (``heard``,
        taken before that read): a message above the truth (from a stranger on the
        same channel). Lower ``known`` to the truth -- unless something was heard
        since, which the next read will see."""
        game = self.games.get(game_id)
        if game is not None and game.known == heard and version < heard:
            game.known = version

    def wake(self, game_id: str, version: int) -> None:
        """A new version of ``game_id``: wake its waiters below it (on the hub's loop)."""
        game = self.games.get(game_id)
        if game is None:
            return
        if version > game.known:
            game.known = version
        for waiter in list(game.waiters):
            if version > waiter.after and not waiter.future.done():
                waiter.future.set_result(version)
                self.stats["wakes"] += 1

    def drain(self) -> None:
        """The process is stopping (SIGTERM: ``games.feed.asgi``): every wait, held or
        still to come, ends now as if it had run out -- the client is answered at once
        with the version it has ("nothing new", correct long-poll behaviour) and polls
        again, on a process that stays, instead of the stop waiting up to a whole wait
        for it (uvicorn's ``--timeout-graceful-shutdown``)."""
        self.draining = True
        for game in self.games.values():
            for waiter in game.waiters:
                if not waiter.future.done():
                    waiter.future.set_result(None)

    def wake_threadsafe(self, game_id: str, version: int) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed
            self.loop.call_soon_threadsafe(self.wake, game_id, version)

    def waiting(self) -> int:
        return sum(len(g.waiters) for g in self.games.values())

    # ------------------------------------------------------------------ Redis

    def _send(self, *parts: str) -> None:
        try:
            assert self.conn is not None
            self.conn.send(*parts)
        except Exception as exc:  # the reader notices and reconnects
            log.debug("feed: cannot send %s: %s", parts[0], exc)

    async def _subscriber(self) -> None:
        delay = 0.2
        watchdog = self.loop.create_task(self._watchdog())
        try:
            while not self._closing:
                was_up = await self._subscribe_once()
                if self._closing:
                    return
                delay = 0.2 if was_up else min(delay * 2, 5.0)
                await asyncio.sleep(delay)
        finally:
            watchdog.cancel()

    async def _subscribe_once(self) -> bool:
        """One connection's life; True if it was subscribed at some point."""
        was_up = False
        try:
            assert self.url is not None
            self._new_generation()
            self.conn = await PubSubConnection.open(self.url)
            self._last_rx = time.monotonic()
            self._pinged = 0.0
            games = list(self.games)
            for game in self.games.values():
                game.subscribed.clear()
                game.known = 0
            for part in chunks(games, 500):
                self.conn.send("SUBSCRIBE", *[self.channel(g) for g in part])
            pending = {self.channel(g) for g in games}
            while pending:  # (a silent server is closed by the watchdog)
                reply = await self._read_one()
                if isinstance(reply, list) and reply and reply[0] == "subscribe":
                    pending.discard(reply[1])
            if self.stats["reconnects"]:
                log.warning("feed: Redis subscription is back (%d games)", len(games))
            self.healthy = was_up = self._tried = True
            self.stats["reconnects"] += 1
            # what was appended while nobody listened: one re-check
            await self._recheck_once()
            while True:
                await self._read_one()
        except asyncio.CancelledError:
            raise
        except (OSError, Closed, TimeoutError, asyncio.IncompleteReadError) as exc:
            if self.healthy:
                log.warning(
                    "feed: Redis subscription lost (%s); re-checking every %.1f s",
                    exc,
                    self.recheck,
                )
            self.healthy = False
        except Exception:
            log.exception("feed: subscriber failed")
            self.healthy = False
        finally:
            self._tried = True
            self.healthy = False
            self._new_generation()
            if self.conn is not None:
                self.conn.close()
                self.conn = None
        return was_up

    async def _watchdog(self) -> None:
        """A quiet subscription is PINGed; one that stays silent is closed (reconnect)."""
        while True:
            await asyncio.sleep(1.0)
            if self.conn is None:
                continue
            now = time.monotonic()
            if now - self._last_rx < PING_EVERY:
                self._pinged = 0.0
            elif not self._pinged:
                self._pinged = now
                self._send("PING")
            elif now - self._pinged > PING_GRACE:
                log.warning("feed: Redis did not answer a PING; reconnecting")
                self.conn.close()

    async def _read_one(self) -> Any:
        assert self.conn is not None
        reply = await self.conn.read()
        self._last_rx = time.monotonic()
        if isinstance(reply, list) and reply:
            kind = reply[0]
            if kind == "message" and len(reply) == 3:
                self.stats["messages"] += 1
                if DEBUG:
                    game = self.games.get(self.by_channel.get(reply[1], ""))
                    print(
                        f"FEEDDBG {time.time():.3f} msg {reply[1][-8:]} v{reply[2]} "
                        f"waiters {len(game.waiters) if game else None}",
                        flush=True,
                    )
                game_id = self.by_channel.get(reply[1])
                if game_id is not None:
                    with contextlib.suppress(ValueError):
                        self.wake(game_id, int(reply[2]))
            elif kind == "subscribe":
                game_id = self.by_channel.get(reply[1])
                if game_id is not None:
                    self.games[game_id].subscribed.set()
        elif isinstance(reply, Exception):
            raise Closed(str(reply))
        return reply

    # ------------------------------------------------------------------ re-check

    async def _checker(self) -> None:
        """While the fan-out is away: one query per period for every waited game.
        While it is up: one query per ``audit`` seconds for every subscribed game."""
        audit_at = time.monotonic() + self.audit
        while not self._closing:
            await asyncio.sleep(self.recheck)
            try:
                if not self.healthy and any(g.waiters for g in self.games.values()):
                    await self._recheck_once()
                elif self.healthy and time.monotonic() >= audit_at:
                    audit_at = time.monotonic() + self.audit
                    await self._audit()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away too: try again later
                log.warning("feed: re-check failed: %s", exc)

    async def _audit(self) -> None:
        ticket = self.generation
        games = {gid: g for gid, g in self.games.items() if g.subscribed.is_set()}
        if not games or not self.healthy:
            return
        self.stats["audits"] += 1
        found = await self.loop.run_in_executor(None, self.versions, list(games))
        for game_id, version in found.items():
            if self.games.get(game_id) is games[game_id]:  # (not dropped and subscribed again)
                self.learn(game_id, version, ticket)
            self.wake(game_id, version)

    async def _recheck_once(self) -> None:
        ids = [gid for gid, g in self.games.items() if g.waiters]
        if not ids:
            return
        self.stats["rechecks"] += 1
        found = await self.loop.run_in_executor(None, self.versions, ids)
        for game_id, version in found.items():
            self.wake(game_id, version)

    async def close(self) -> None:
        self._closing = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.conn is not None:
            self.conn.close()


def chunks(items: list[str], size: int) -> Iterable[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
