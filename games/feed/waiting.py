"""The feed request's answer, on the thread path (gunicorn) and the waiting path (ASGI).

``answer`` is what ``GET /api/games/{id}/events/`` does once DRF has
authenticated the caller and the view has found the game and parsed the
query: the same selectors, the same redaction, on both paths.

* ``wait`` = 0: the events after ``after`` at once (``selectors.games.event_feed``).
* ``wait`` > 0: first a slot of the user's ``PABLO_FEED_WAITS`` (else 429
  ``throttled`` with ``Retry-After``). Then

  - served by gunicorn (no hub): ``sleep_until_news`` polls the database on
    this thread, then the feed is read; under ASGI a request the handler did
    not hold (``asgi.waiting_game`` missed it) is answered at once instead, as
    if ``wait`` were 0: no request ever sleeps on an executor thread;
  - served by the ASGI application (``games.feed.asgi``, which set
    ``current_hold``): the feed is read once; if it has news it is the answer,
    otherwise the answer so far (no events, the current version) is returned
    marked ``pending`` and the handler parks it on the hub without a thread or
    a connection (``finish``), then reads the feed again when woken.
"""

from __future__ import annotations

import contextvars
import logging
import time
from dataclasses import dataclass
from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, close_old_connections, connection
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import Throttled
from rest_framework.response import Response

from games import friends
from games.feed import limits
from games.feed.followers import account_key
from games.models import Game
from games.notifications import push
from games.selectors import games as game_selectors
from games.selectors import programs as program_selectors

log = logging.getLogger(__name__)

#: Long polling on a thread: how often the feed looks for news, and the longest wait.
POLL_INTERVAL = 0.2
MAX_WAIT = 30

TOO_MANY = gettext_lazy(
    "You are waiting on %(n)s feeds at once already; wait for one of them to answer "
    "(or close a table) and retry."
)


@dataclass
class Pending:
    game: Game | None  # None: the account feed (``account_answer``)
    user: Any
    after: int
    version: int
    until: float  # time.monotonic() when the wait gives up
    slot: limits.Slot


class Hold:
    """What the ASGI handler knows of one feed request: its key on the hub (a game's
    id; for the account feed, ``account:<user id>``, set by the view once it knows
    the user), and the pending wait the view hands back (``pending``)."""

    def __init__(self, game_id: str, *, account: bool = False) -> None:
        self.game_id = game_id
        self.account = account
        self.pending: Pending | None = None
        #: the game's version as the view read it (the hub learns it: ``Hub.learn``)
        self.version: int | None = None
        #: who may read the game (``friends.readers``), told to the fast path with it
        self.readers: frozenset[str] | None = None
        #: ``Hub.ticket`` taken before the view ran; the request's ``fast.Shape``
        self.ticket: int | None = None
        self.shape: Any = None


#: set by the ASGI handler around a feed request with ``wait`` > 0
current_hold: contextvars.ContextVar[Hold | None] = contextvars.ContextVar(
    "pablo_feed_hold", default=None
)


def _current_version(game: Game) -> int:
    return Game.objects.filter(pk=game.pk).values_list("version", flat=True).get()


def _poll_version(game: Game) -> int:
    return _poll(lambda: _current_version(game))


def _poll(read: Any) -> int:
    """The game's version, asked by a long poll between two of its sleeps.

    The connection was used a moment ago, so it is not health-checked before each
    poll: Django's check (``CONN_HEALTH_CHECKS``) is a query of its own, and with
    many clients waiting it doubled the queries of the poll loop (found profiling
    the crowd, bench/README.md). If the connection broke meanwhile (PostgreSQL
    restarted), it is closed and the poll asked once more on a new one; a second
    failure is the request's (503).
    """
    try:
        return int(read())
    except DatabaseError:
        if connection.in_atomic_block:
            raise
        close_old_connections()
        return int(read())


def sleep_until_news(game: Game, after: int, wait: float) -> None:
    """The thread path's wait: while ``game`` has nothing after ``after``, poll the
    database every ``POLL_INTERVAL`` seconds for at most ``wait`` (and ``MAX_WAIT``)
    seconds; ``game`` is refreshed if it moved.

    Outside a transaction each check sees the latest commit; a connection that broke
    while waiting is replaced once (``_poll_version``). No transaction and no lock is
    held while it sleeps.
    """
    version = game.version
    if version > after or wait <= 0:
        return
    give_up = time.monotonic() + min(wait, MAX_WAIT)
    while version <= after and time.monotonic() < give_up:
        time.sleep(min(POLL_INTERVAL, max(0.0, give_up - time.monotonic())))
        version = _poll_version(game)
    if version != game.version:
        game.refresh_from_db()


def answer(request: Any, *, game: Game, after: int, wait: float) -> Response:
    user = request.user
    if wait <= 0:
        return Response(game_selectors.event_feed(game=game, user=user, after=after))
    started = time.monotonic()
    slot = limits.acquire(user)
    if slot is None:
        raise Throttled(wait=limits.RETRY_AFTER, detail=str(TOO_MANY) % {"n": limits.limit()})
    push.mark_looking(game.pk, user.pk, wait)  # no "your turn" push to an open table
    hold = current_hold.get()
    if hold is None or hold.game_id != str(game.pk):
        # Not held by the ASGI handler: gunicorn waits here, on its thread; under ASGI
        # (a request the handler did not recognise) no thread may sleep: answer at once.
        try:
            if not isinstance(request._request, ASGIRequest):
                sleep_until_news(game, after, wait)
            return Response(game_selectors.event_feed(game=game, user=user, after=after))
        finally:
            slot.release()
    try:
        data = game_selectors.event_feed(game=game, user=user, after=after)
    except BaseException:
        slot.release()
        raise
    hold.readers = friends.readers(game)
    hold.version = data["version"]
    if data["version"] > after:
        slot.release()
        return Response(data)
    hold.pending = Pending(
        game=game,
        user=user,
        after=after,
        version=data["version"],
        until=started + min(wait, MAX_WAIT),
        slot=slot,
    )
    response = Response(data)
    response.pablo_feed_pending = True  # type: ignore[attr-defined]
    # given back when the answer is closed (in the request's last executor call);
    # the handler gives it back itself if the client went away before
    response._resource_closers.append(slot.release)
    return response


def account_answer(request: Any, *, after: int | None, wait: float) -> Response:
    """``GET /api/me/events/``: the account feed (``selectors.programs.account_events``),
    waiting as the game feed does when there is nothing after ``after``.

    It waits only when ``after`` is the account's newest position: without ``after``
    there is nothing to wait for (the answer says where to start), and an ``after``
    beyond the newest position is answered at once with that position.
    """
    user = request.user
    if after is None or wait <= 0:
        return Response(program_selectors.account_events(user=user, after=after))
    started = time.monotonic()
    slot = limits.acquire(user)
    if slot is None:
        raise Throttled(wait=limits.RETRY_AFTER, detail=str(TOO_MANY) % {"n": limits.limit()})
    hold = current_hold.get()
    if hold is None or not hold.account:
        try:
            if not isinstance(request._request, ASGIRequest):
                give_up = time.monotonic() + min(wait, MAX_WAIT)
                head = program_selectors.account_head(user.pk)
                while head == after and time.monotonic() < give_up:
                    time.sleep(min(POLL_INTERVAL, max(0.0, give_up - time.monotonic())))
                    head = _poll(lambda: program_selectors.account_head(user.pk))
            return Response(program_selectors.account_events(user=user, after=after))
        finally:
            slot.release()
    try:
        data = program_selectors.account_events(user=user, after=after)
    except BaseException:
        slot.release()
        raise
    hold.game_id = account_key(user.pk)
    if data["events"] or data["position"] != after:
        slot.release()
        return Response(data)
    hold.pending = Pending(
        game=None,
        user=user,
        after=after,
        version=data["position"],
        until=started + min(wait, MAX_WAIT),
        slot=slot,
    )
    response = Response(data)
    response.pablo_feed_pending = True  # type: ignore[attr-defined]
    response._resource_closers.append(slot.release)
    return response


def account_head(user_id: Any) -> int | None:
    """The account feed's newest position (on an executor thread: ``asgi``), or None if
    the database could not be read (Django's path then answers)."""
    try:
        return program_selectors.account_head(user_id)
    except DatabaseError as exc:
        log.warning("feed: reading an account's head failed: %s", exc)
        close_old_connections()
        return None


def game_facts(game_id: str) -> tuple[int, frozenset[str] | None] | None:
    """(version, ``friends.readers``) of a game, read for the fast path of a feed
    process that does not know the game yet; None when there is no such game or the
    database could not be read (Django answers)."""
    found = games_facts([game_id])
    return None if found is None else found.get(game_id)


def games_facts(game_ids: list[str]) -> dict[str, tuple[int, frozenset[str] | None]] | None:
    """``game_facts`` of several games (canonical ids) with one query, and one more for
    the readers of the private ones among them: a feed process just started learns the games its
    reconnecting clients wait on in batches (on an executor thread: ``asgi``). A game
    that does not exist is left out; None when the database could not be read."""
    try:
        rows = list(Game.objects.filter(pk__in=game_ids).values_list("pk", "version", "private"))
        readers = friends.readers_of_many({pk: private for pk, _v, private in rows})
        return {str(pk): (int(v), readers[pk]) for pk, v, _p in rows}
    except DatabaseError as exc:
        log.warning("feed: reading games' versions failed: %s", exc)
        close_old_connections()
        return None


def read_again(pending: Pending) -> dict[str, Any] | None:
    """After a wake-up (in a thread): the feed after ``after`` now, or None if the
    database could not be read (the client then polls again: nothing is lost)."""
    try:
        if pending.game is None:
            return program_selectors.account_events(user=pending.user, after=pending.after)
        game = game_selectors.game_get(pending.game.pk)
        return game_selectors.event_feed(game=game, user=pending.user, after=pending.after)
    except DatabaseError as exc:
        what = pending.game.pk if pending.game is not None else "account feed"
        log.warning("feed: reading %s after a wake-up failed: %s", what, exc)
        close_old_connections()  # a broken one goes; the thread's healthy one stays
        return None


def render(response: Any, data: dict[str, Any]) -> None:
    """Put ``data`` in the DRF ``response`` rendered as the view would have."""
    body = response.accepted_renderer.render(
        data, response.accepted_media_type, response.renderer_context
    )
    response.content = body
    if response.has_header("Content-Length"):
        response["Content-Length"] = str(len(body))


def remaining(pending: Pending) -> float:
    return max(0.0, pending.until - time.monotonic())
