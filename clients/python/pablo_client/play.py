"""Playing through the API: the hand-written layer over the generated calls.

``Player`` does what every program that plays needs and the generated calls leave
to it:

- **where to act**: ``turns()`` (``GET /api/me/turns/``) lists the games that wait
  for the account, soonest deadline first; ``play()`` acts in them in that order,
  then in each game the feed says waits for it, on ``parallel`` threads;
- **when to look again**: ``events()`` / ``follow()`` read the account's own feed
  (``GET /api/me/events/?after=p&wait=s``), one long poll for all its games;
- **acting safely**: ``act()`` sends the decided action with ``expected_version``
  (the version the decision was made on) and a fresh ``Idempotency-Key``; a ``409``
  means the game moved on, so it reads the game and decides again;
- **retrying**: a ``429`` waits the ``Retry-After`` the server gave; a ``5xx`` or a
  lost connection backs off (exponentially, with jitter) and sends the same request
  again, the same ``Idempotency-Key`` included, so an action is never stored twice.

This module is not generated: ``scripts/client.sh`` leaves it alone.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

import httpx

from . import models
from .api.games import games_act, games_retrieve
from .api.me import me_events, me_turns
from .client import AuthenticatedClient

JSON = dict[str, Any]
#: What a program decides with: the game as its seat sees it -> one action body
#: (a dict as ``POST /api/games/{id}/actions/`` takes it), or None to do nothing now.
Decide = Callable[[models.Game], JSON | None]


class Answer(Protocol):
    status_code: int
    headers: Any
    content: bytes


class ApiError(Exception):
    """An answer the layer does not handle by itself (a 400, 403, 404, or a 5xx that
    outlasted every retry): its status and the body's ``code`` and ``detail``."""

    def __init__(self, answer: Answer) -> None:
        self.status = int(answer.status_code)
        body = _json(answer.content)
        self.code = body.get("code", "") if isinstance(body, dict) else ""
        self.detail = body.get("detail", "") if isinstance(body, dict) else ""
        super().__init__(f"{self.status} {self.code}: {self.detail or answer.content[:200]!r}")


def _json(content: bytes) -> Any:
    try:
        return httpx.Response(200, content=content).json()
    except ValueError:
        return None


def _action_models() -> dict[str, type]:
    """Action type -> its generated request model (``DrawActionRequest`` for
    ``"draw"``), found in the generated models, so a new action needs no code here."""
    found: dict[str, type] = {}
    for name in dir(models):
        if name.endswith("ActionRequest"):
            enum = getattr(models, name[: -len("Request")] + "TypeEnum", None)
            if enum is not None:
                for member in enum:
                    found[member.value] = getattr(models, name)
    return found


ACTIONS = _action_models()


def fill(template: JSON, rng: random.Random | None = None) -> JSON:
    """A complete action from one of ``state.legal_actions``: a template's free
    parameters (``"choices": {name: [allowed values]}``) each take one allowed value
    (at random, or the first without ``rng``)."""
    body = {k: v for k, v in template.items() if k != "choices"}
    for name, values in (template.get("choices") or {}).items():
        body[name] = rng.choice(values) if rng else values[0]
    return body


def retry_after(headers: Any, default: float) -> float:
    """Seconds to wait after a ``429``: ``Retry-After``, else ``RateLimit-Reset``."""
    for name in ("Retry-After", "RateLimit-Reset"):
        value = headers.get(name)
        if value is not None:
            try:
                return max(float(value), 0.0)
            except ValueError:
                pass
    return default


class Player:
    """One account's program: ``Player(url, token)``.

    ``wait``: seconds a feed read may be held by the server (0-30); ``retries``:
    how many times a ``5xx`` or a lost connection is tried again before ``ApiError``
    (or the transport's exception); ``backoff``: the first pause, doubled each time
    up to ``max_backoff``. ``sleep`` is for tests.
    """

    def __init__(
        self,
        url: str,
        token: str,
        *,
        wait: float = 30,
        retries: int = 6,
        backoff: float = 0.5,
        max_backoff: float = 30,
        attempts: int = 5,
        sleep: Callable[[float], None] = time.sleep,
        client: AuthenticatedClient | None = None,
    ) -> None:
        self.client = client or AuthenticatedClient(
            base_url=url.rstrip("/"),
            token=token,
            prefix="Token",
            timeout=httpx.Timeout(wait + 30),
        )
        self.wait = wait
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.attempts = attempts
        self.sleep = sleep
        #: answers that were retried, by status (``"transport"`` for lost connections)
        self.retried: dict[str, int] = {}
        self._counting = threading.Lock()
        self.client.get_httpx_client()  # made once here: threads share it (httpx allows)

    # -- the one way every request goes -------------------------------------------

    def send(self, request: Callable[[], Any]) -> Any:
        """``request()`` until its answer is neither a ``429`` nor a ``5xx``: waits
        ``Retry-After`` on a ``429`` (as long as the server asks), backs off on a
        ``5xx`` or a transport error (``retries`` times)."""
        pause = self.backoff
        failures = 0
        while True:
            try:
                answer = request()
            except httpx.TransportError:
                if failures >= self.retries:
                    raise
                self._count("transport")
            else:
                status = int(answer.status_code)
                if status == 429:
                    self._count("429")
                    self.sleep(retry_after(answer.headers, pause))
                    continue
                if status < 500:
                    return answer
                if failures >= self.retries:
                    raise ApiError(answer)
                self._count(str(status))
            failures += 1
            self.sleep(pause * random.uniform(0.5, 1.0))
            pause = min(pause * 2, self.max_backoff)

    def _count(self, what: str) -> None:
        with self._counting:
            self.retried[what] = self.retried.get(what, 0) + 1

    def _ok(self, answer: Any, *statuses: int) -> Any:
        if int(answer.status_code) not in statuses:
            raise ApiError(answer)
        return answer.parsed

    # -- reads ----------------------------------------------------------------------

    def turns(self) -> list[models.Turn]:
        """The games waiting for this account now, soonest deadline first."""
        return self._ok(self.send(lambda: me_turns.sync_detailed(client=self.client)), 200)

    def game(self, game_id: Any) -> models.Game:
        """A game as this account's seat sees it."""
        answer = self.send(
            lambda: games_retrieve.sync_detailed(uuid.UUID(str(game_id)), client=self.client)
        )
        return self._ok(answer, 200)

    def events(
        self, after: int | None = None, wait: float | None = None
    ) -> tuple[list[models.AccountEvent], int]:
        """The account's feed after position ``after``: (events, the position to read
        from next). Without ``after``: no events, the current position. ``wait``
        (default: the player's) holds the read until something arrives."""
        if after is None:
            answer = self.send(lambda: me_events.sync_detailed(client=self.client))
        else:
            held = self.wait if wait is None else wait
            answer = self.send(
                lambda: me_events.sync_detailed(client=self.client, after=after, wait=held)
            )
        feed = self._ok(answer, 200)
        return feed.events, feed.position

    def follow(self, after: int | None = None) -> Iterator[models.AccountEvent]:
        """Every event of the account's feed from now (or after ``after``) on, forever."""
        position = self.events()[1] if after is None else after
        while True:
            events, position = self.events(position)
            yield from events

    # -- acting -----------------------------------------------------------------------

    def act(self, game: Any, decide: Decide) -> models.ActionAnswer | None:
        """Decide on ``game`` (a ``Game``, or an id to read it) and send the action with
        ``expected_version`` and a fresh ``Idempotency-Key``. On a ``409`` (the game
        moved on, or the move is not allowed any more) read the game and decide again,
        ``attempts`` times. None when ``decide`` chose nothing or no attempt went in."""
        for attempt in range(self.attempts):
            if attempt or not isinstance(game, models.Game):
                game = self.game(game.id if isinstance(game, models.Game) else game)
            body = decide(game)
            if body is None:
                return None
            request = ACTIONS[body["type"]].from_dict({**body, "expected_version": game.version})
            key = str(uuid.uuid4())  # one decision, one key: its retries are the same request
            answer = self.send(
                lambda request=request, key=key, game_id=game.id: games_act.sync_detailed(
                    game_id, client=self.client, body=request, idempotency_key=key
                )
            )
            if int(answer.status_code) == 201:
                return answer.parsed
            if int(answer.status_code) != 409:
                raise ApiError(answer)
            self._count("409")
        return None

    def play_turns(self, decide: Decide) -> int:
        """One pass over the turn list, soonest deadline first, one game after the
        other: ``play_game`` in each. The number of actions that went in."""
        return sum(self.play_game(turn.game, decide) for turn in self.turns())

    def play_game(self, game: Any, decide: Decide) -> int:
        """In one game (a ``Game``, or an id to read it): act, and go on acting while
        the answer shows the seat still on turn (``on_turn``); nothing when it is not.
        The number of actions that went in."""
        if not isinstance(game, models.Game):
            game = self.game(game)
        acted = 0
        while on_turn(game):
            answer = self.act(game, lambda seen: decide(seen) if on_turn(seen) else None)
            if answer is None:
                break
            acted += 1
            game = answer.game
        return acted

    def play(
        self,
        decide: Decide,
        *,
        on_event: Callable[[models.AccountEvent], None] | None = None,
        until: Callable[[], bool] | None = None,
        parallel: int = 1,
    ) -> None:
        """Play every game that waits for this account, soonest deadline first, and
        each game the account's feed then says waits for it (``your_turn``); each
        event read goes to ``on_event``. Forever, or until ``until()`` is true (asked
        after each read). Games are played on ``parallel`` threads, one game never on
        two at once, so a move in one game does not wait for the moves of the others
        (the feed is read meanwhile); a failure in a game is raised here."""
        position = self.events()[1]
        with _Games(parallel, lambda game: self.play_game(game, decide)) as games:
            games.start(turn.game for turn in self.turns())
            while True:
                events, position = self.events(position)
                for event in events:
                    if on_event is not None:
                        on_event(event)
                games.raise_failure()
                if until is not None and until():
                    return
                if events:
                    games.start(e.game for e in events if e.type_ == "your_turn")
                else:  # a whole wait without news: look at the turn list once more
                    games.start(turn.game for turn in self.turns())


class _Games:
    """Games played on a pool of threads: ``start(ids)`` plays each (``play``) unless
    it is being played already, in which case it is played once more when that ends,
    since the news may have come after its last look."""

    def __init__(self, threads: int, play: Callable[[Any], Any]) -> None:
        self.pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="pablo-game")
        self.play = play
        self.lock = threading.Lock()
        self.running: dict[str, bool] = {}  # game -> asked again while running
        self.failures: list[BaseException] = []

    def __enter__(self) -> _Games:
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)

    def start(self, games: Iterable[Any]) -> None:
        for game in games:
            key = str(game)
            with self.lock:
                if key in self.running:
                    self.running[key] = True
                    continue
                self.running[key] = False
            self.pool.submit(self._run, key)

    def _run(self, game: str) -> None:
        while True:
            try:
                self.play(game)
            except BaseException as failure:  # raised in play(), on the main thread
                with self.lock:
                    self.failures.append(failure)
                    del self.running[game]
                return
            with self.lock:
                if not self.running[game]:
                    del self.running[game]
                    return
                self.running[game] = False

    def raise_failure(self) -> None:
        with self.lock:
            if self.failures:
                raise self.failures[0]


def on_turn(game: models.Game) -> bool:
    """Whether the viewer's seat may act now for itself: its turn (``state.turn.seat``)
    or the setup phase (everyone's), with something in ``legal_actions``."""
    if game.state is None or game.you is None or not game.state["legal_actions"]:
        return False
    state = game.state.additional_properties
    return (state.get("turn") or {}).get("seat") == game.you or state.get("phase") == "setup"
