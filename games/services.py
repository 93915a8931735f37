"""Every write to a game: create, join, act, enforce a deadline, rebuild the projection.

Each command service runs in one transaction and:

1. locks the game row (``select_for_update``; the sweep of overdue games may
   already hold it, with SKIP LOCKED, in an outer transaction -- re-locking
   one's own row is immediate);
2. folds the stream (``selectors.game_state``: cached, never twice per call);
3. checks ``expected_version`` (409 ``version_conflict``);
4. asks the pure engine for the new events (``Context`` = the game's stacked
   decks + the OS generator, and ``timezone.now()``);
5. appends them with seqs ``version + 1 ...`` (``bulk_create``; the unique
   ``(game, seq)`` constraint is the last line of defence: a clash is a lost
   race and becomes 409 ``version_conflict`` with nothing stored);
6. updates the ``Game`` projection (and ``Seat`` rows) with
   ``save(update_fields=...)``;
7. on commit: offers the new state to the fold cache and sends
   ``games.signals.events_appended``.
"""

from __future__ import annotations

import json
import logging
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.renderers import JSONRenderer

from games import fairness, selectors
from games.chance import DeckChance
from games.deadlines import parse_deadline
from games.models import Event, FairDraw, Game, IdempotentAnswer, Seat
from games.rules import engine
from games.rules.cards import missing_from
from games.signals import events_appended
from pablo.exceptions import ApplicationError, Conflict, Forbidden, NotFound

logger = logging.getLogger(__name__)

JSON = dict[str, Any]

MIN_TURN_TIMEOUT = 1
MAX_TURN_TIMEOUT = 1_209_600  # 14 days
DEFAULT_TURN_TIMEOUT = 86_400
TERMINAL_EVENTS = ("game_finished", "game_aborted")


@dataclass(frozen=True)
class ActionAnswer:
    """The answer to an action: HTTP status and the rendered JSON body.

    Kept as bytes so that a repeat with the same ``Idempotency-Key`` returns
    the first answer byte for byte.
    """

    status: int
    body: bytes
    replayed: bool = False

    @property
    def data(self) -> JSON:
        return json.loads(self.body)


def render(data: Any) -> bytes:
    return JSONRenderer().render(data)


# --------------------------------------------------------------------------- helpers


def _context(game: Game) -> engine.Context:
    chance = _fair_chance(game) or DeckChance(decks=game.stacked_decks)
    return engine.Context(chance=chance, now=timezone.now())


# --- fair deals (#12, games/fairness.py) ------------------------------------------------
# A game with a server seed draws from the committed generator; its draws are kept on
# the game object until ``_fair_flush`` stores them with the events (same transaction).


def _fair_chance(game: Game) -> fairness.FairChance | None:
    if game.server_seed is None:
        return None

    def history() -> fairness.History:
        draws = FairDraw.objects.filter(game=game)
        last_deal = draws.filter(kind=fairness.KIND_DEAL).order_by("-k").first()
        return fairness.History(
            next_k=draws.count(),
            round=last_deal.round if last_deal else None,
            deck=list(last_deal.output) if last_deal else None,
        )

    chance = fairness.FairChance(
        server_seed=bytes(game.server_seed),
        seeds=fairness.seeds_by_seat(game.player_seeds or {}, game.seats),
        history=history,
    )
    game._fair_chance = chance  # type: ignore[attr-defined]
    return chance


def new_server_seed() -> bytes:
    """A game's secret seed: 32 bytes from the operating system's generator."""
    return secrets.token_bytes(fairness.SEED_BYTES)


def _fair_rows(game: Game) -> list[FairDraw]:
    """The draws of the chance last handed out for ``game`` (once)."""
    chance = getattr(game, "_fair_chance", None)
    if chance is None:
        return []
    game._fair_chance = None  # type: ignore[attr-defined]
    return [FairDraw(game=game, **draw) for draw in chance.finish()]


def _fair_flush(game: Game) -> None:
    rows = _fair_rows(game)
    if rows:
        FairDraw.objects.bulk_create(rows)


# --- end fair deals ---------------------------------------------------------------------


def _lock(game_id: Any) -> Game:
    """The game row, locked until the end of the transaction; ``NotFound`` (404)."""
    try:
        key = game_id if isinstance(game_id, uuid.UUID) else uuid.UUID(str(game_id))
        return Game.objects.select_for_update().get(pk=key)
    except (ValueError, Game.DoesNotExist):
        raise NotFound("No game with this id.") from None


def _seat(state: engine.State, user: Any) -> int:
    """``user``'s seat in the game; ``Forbidden`` (403) for a non-player."""
    if user.username not in state.players:
        raise Forbidden("You are not a player of this game.", "not_a_player")
    return state.players.index(user.username)


#: The ``Game`` fields that mirror the folded state (``_copy_state``).
PROJECTED = ("status", "version", "turn_key", "deadline", "result", "finished_at", "updated_at")


def _copy_state(game: Game, state: engine.State, finished_at: datetime | None) -> None:
    """Copy the folded state onto the game object (not saved; ``updated_at`` not set)."""
    game.status = state.status
    game.version = state.version
    game.turn_key = state.turn_key or ""
    game.deadline = parse_deadline(state.deadline) if state.status == "active" else None
    game.result = state.result
    if state.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        game.finished_at = game.finished_at or finished_at
    else:
        game.finished_at = None


def _project(game: Game, state: engine.State, finished_at: datetime | None) -> None:
    """Copy the folded state onto the game row."""
    _copy_state(game, state, finished_at)
    game.save(update_fields=PROJECTED)


def _sync_seats(game: Game, state: engine.State) -> None:
    """Make the ``Seat`` rows match the players of ``state`` (joins only ever add)."""
    have = set(Seat.objects.filter(game=game).values_list("seat", flat=True))
    missing = {s: name for s, name in enumerate(state.players) if name and s not in have}
    if not missing:
        return
    users = get_user_model().objects.filter(username__in=missing.values())
    by_name = {u.username: u for u in users}
    Seat.objects.bulk_create(
        [Seat(game=game, seat=s, user=by_name[name]) for s, name in missing.items()]
    )


def _store(
    game: Game,
    state: engine.State | None,
    events: Sequence[engine.Event],
    viewer: int | None = None,
    view: bool = False,
) -> tuple[engine.State, list[Event], list[JSON]]:
    """Append ``events`` after ``state`` (None: a new game), project, notify on commit.

    Returns the new state (``state`` is consumed), the stored rows and, with
    ``view``, each event as ``viewer`` saw it (redacted against the state
    just before it).
    """
    start = 0 if state is None else state.version
    rows = [
        Event(game=game, seq=start + i, type=e.type, seat=e.seat, data=e.data)
        for i, e in enumerate(events, start=1)
    ]
    try:
        # No savepoint (two round trips per action): a clash ends the whole
        # transaction anyway, and an enclosing atomic block rolls back to its own.
        with transaction.atomic(savepoint=False):
            Event.objects.bulk_create(rows)
            _fair_flush(game)  # fair deals (#12)
    except IntegrityError:
        raise Conflict(
            "Someone else changed this game at the same moment; reload it and try again.",
            "version_conflict",
        ) from None
    views: list[JSON] = []
    for row, event in zip(rows, events, strict=True):
        if state is None:
            state = engine.fold([event])
            data = dict(event.data)
        else:
            data = engine.event_view(state, event, viewer) if view else {}
            engine.apply(state, event)
        if view:
            views.append(selectors.event_data(row, data))
    assert state is not None
    finished_at = next((r.created_at for r in rows if r.type in TERMINAL_EVENTS), None)
    _project(game, state, finished_at)
    if any(e.type == "player_joined" for e in events):
        _sync_seats(game, state)
    selectors.remember_state(game.id, state)
    game_id, version = game.id, state.version
    transaction.on_commit(lambda: _notify(game_id, version, rows))
    return state, rows, views


def _notify(game_id: Any, version: int, rows: list[Event]) -> None:
    answers = events_appended.send_robust(
        sender=Game, game_id=game_id, version=version, events=rows
    )
    for receiver, answer in answers:
        if isinstance(answer, Exception):
            logger.error(
                "events_appended receiver %r failed for game %s",
                receiver,
                game_id,
                exc_info=(type(answer), answer, answer.__traceback__),
            )


# --------------------------------------------------------------------------- accounts


@transaction.atomic
def user_register(*, username: str, password: str) -> tuple[Any, str]:
    """A new account and its API token."""
    users = get_user_model()
    try:
        with transaction.atomic():
            user = users.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise ApplicationError(
            "username: A user with that username already exists.", "username_taken"
        ) from None
    token, _ = Token.objects.get_or_create(user=user)
    return user, token.key


def user_token(*, request: Any, username: str, password: str) -> str:
    """The API token of the account with these credentials (created on first use)."""
    user = authenticate(request=request, username=username, password=password)
    if user is None or not user.is_active:
        raise ApplicationError(
            "Unable to log in with the given username and password.", "invalid_credentials"
        )
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


# --------------------------------------------------------------------------- commands


@transaction.atomic
def game_create(
    *,
    user: Any,
    ruleset: str,
    seats: int,
    turn_timeout: int = DEFAULT_TURN_TIMEOUT,
    options: JSON | None = None,
    decks: list[list[str]] | None = None,
    bots: list[JSON] | None = None,
    seed: str = "",
) -> Game:
    """A new game with ``user`` in seat 0 (starts at once if it has one seat).

    ``bots``: ``[{"seat", "level"}]`` seats taken by bots at once (games/bot_turns.py).
    """
    if isinstance(turn_timeout, bool) or not isinstance(turn_timeout, int):
        raise ApplicationError("turn_timeout: must be an integer number of seconds.")
    if not MIN_TURN_TIMEOUT <= turn_timeout <= MAX_TURN_TIMEOUT:
        raise ApplicationError(
            f"turn_timeout: must be from {MIN_TURN_TIMEOUT} to {MAX_TURN_TIMEOUT} seconds."
        )
    # --- bots (issue #11): validated before anything is written
    from games import bot_turns

    bot_seats = bot_turns.check_bots(bots, seats)
    events = engine.create(
        ruleset,
        seats=seats,
        options={} if options is None else options,
        turn_timeout=turn_timeout,
        creator=user.username,
    )
    header = events[0].data
    rules = engine.get_ruleset(header["ruleset"])
    if decks:
        if not settings.PABLO_ALLOW_STACKED_DECKS:
            raise ApplicationError(
                "decks: stacked decks are disabled on this server.", "stacked_decks_disabled"
            )
        full = rules.deck(header["options"])
        for index, deck in enumerate(decks):
            bad = missing_from(deck, full)
            if bad:
                raise ApplicationError(
                    f"decks[{index}]: not part of one {rules.id} deck with these options: "
                    f"{', '.join(bad)}.",
                    "invalid_deck",
                )
    game = Game.objects.create(
        ruleset=rules.id,
        seats=header["seats"],
        options=header["options"],
        turn_timeout=header["turn_timeout"],
        created_by=user,
        stacked_decks=[list(d) for d in decks] if decks else None,
        # fair deals (#12): a secret seed from the OS; none with stacked decks.
        server_seed=None if decks else new_server_seed(),
        player_seeds=None if decks else {"0": seed},
    )
    state, _, _ = _store(game, None, events)
    if bot_seats:  # --- bots (issue #11)
        bot_turns.add_bots(game, state, bot_seats)
    return game


@transaction.atomic
def game_join(*, game_id: Any, user: Any, seed: str = "") -> Game:
    """``user`` takes the lowest free seat; the last seat starts the game.

    ``seed`` is the player's fair-deal seed: stored before the join's events are
    decided, so the start's draws (if this is the last seat) already hold it.
    """
    game = _lock(game_id)
    state = selectors.game_state(game=game)
    # fair deals (#12): the joiner's seed, before anything is drawn
    free = [s for s, name in enumerate(state.players) if name is None]
    joining = game.player_seeds is not None and state.status == "waiting" and free
    if joining and user.username not in state.players:
        game.player_seeds = {**game.player_seeds, str(free[0]): seed}
    events = engine.join(state, user.username, _context(game))
    if joining:
        game.save(update_fields=["player_seeds"])
    _store(game, state, events)
    return game


@transaction.atomic
def game_come_back(*, game_id: Any, user: Any) -> Game:
    """An absent ``user`` is back: their turns are no longer played for them."""
    game = _lock(game_id)
    state = selectors.game_state(game=game)
    _store(game, state, engine.come_back(state, _seat(state, user)))
    return game


@transaction.atomic
def game_act(
    *,
    game_id: Any,
    user: Any,
    command: JSON,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> ActionAnswer:
    """``user`` does ``command`` (a shape-checked action body without ``expected_version``).

    The answer is ``{"version", "events", "game"}`` (events and game as the
    caller sees them). With ``idempotency_key``, the first successful answer
    is stored and returned again for every repeat; refusals are not stored.
    """
    game = _lock(game_id)
    if idempotency_key is not None:
        # Looked up under the row lock: a concurrent repeat waits for the first
        # request's commit and then finds its answer.
        stored = IdempotentAnswer.objects.filter(user=user, game=game, key=idempotency_key).first()
        if stored is not None:
            return ActionAnswer(status=stored.status, body=bytes(stored.body), replayed=True)
    state = selectors.game_state(game=game)
    seat = _seat(state, user)
    if expected_version is not None and expected_version != state.version:
        raise Conflict(
            f"The game is at version {state.version}, not {expected_version}; "
            "reload it and decide again.",
            "version_conflict",
        )
    events = engine.act(state, seat, command, _context(game))
    new_state, _rows, views = _store(game, state, events, viewer=seat, view=True)
    data = {
        "version": new_state.version,
        "events": views,
        "game": selectors.game_data(game=game, user=user, state=new_state, recent=events),
    }
    answer = ActionAnswer(status=201, body=render(data))
    if idempotency_key is not None:
        IdempotentAnswer.objects.create(
            user=user, game=game, key=idempotency_key, status=answer.status, body=answer.body
        )
    return answer


@transaction.atomic
def game_timeout(*, game_id: Any, turn_key: str) -> int:
    """Enforce the deadline of turn ``turn_key``; the number of events stored (0 when stale).

    Safe to call inside an outer transaction that already locked the row.
    """
    try:
        game = _lock(game_id)
    except NotFound:
        return 0
    if game.status != Game.Status.ACTIVE or game.turn_key != turn_key:
        return 0
    state = selectors.game_state(game=game)
    events = engine.timeout(state, turn_key, _context(game))
    if not events:
        return 0
    _store(game, state, events)
    return len(events)


@transaction.atomic
def game_timeout_many(*, games: Sequence[Game]) -> dict[Any, int]:
    """``game_timeout`` for a batch of games at once (the deadline sweep, games/deadlines.py).

    ``games`` are rows the caller's transaction has locked (``SELECT ... FOR
    UPDATE``), as read under that lock; each is enforced for its own
    ``turn_key``. The same writes as ``game_timeout`` game by game, in three
    statements for the whole batch: one read of every stream, one insert of
    every new event, one update of every projection. Returns the number of
    events stored per game id (games that were stale are left out). A game
    whose rules raise is logged and left out; the rest go on.
    """
    live = [g for g in games if g.status == Game.Status.ACTIVE and g.turn_key]
    streams: dict[Any, list[engine.Event]] = {g.id: [] for g in live}
    for row in Event.objects.filter(game_id__in=list(streams)).order_by("game_id", "seq"):
        streams[row.game_id].append(selectors.to_engine(row))
    stored: dict[Any, int] = {}
    batch: list[tuple[Game, engine.State, list[Event]]] = []
    for game in live:
        try:
            state = engine.fold(streams[game.id])
            if state.version != game.version:
                raise RuntimeError(f"stream has {state.version} events, row says {game.version}")
            events = engine.timeout(state, game.turn_key, _context(game))
        except Exception:
            logger.exception("timeout of game %s (turn %s) failed", game.id, game.turn_key)
            continue
        if not events:
            continue
        rows = [
            Event(game=game, seq=state.version + i, type=e.type, seat=e.seat, data=e.data)
            for i, e in enumerate(events, start=1)
        ]
        for event in events:
            engine.apply(state, event)
        batch.append((game, state, rows))
        stored[game.id] = len(rows)
    if not batch:
        return stored
    Event.objects.bulk_create([row for _, _, rows in batch for row in rows])
    FairDraw.objects.bulk_create([d for game, _, _ in batch for d in _fair_rows(game)])  # #12
    now = timezone.now()
    for game, state, rows in batch:
        ended = next((r.created_at for r in rows if r.type in TERMINAL_EVENTS), now)
        _copy_state(game, state, ended)
        game.updated_at = now  # bulk_update leaves auto_now fields alone
        selectors.remember_state(game.id, state)
        game_id, version = game.id, state.version
        transaction.on_commit(lambda g=game_id, v=version, r=rows: _notify(g, v, r))
    Game.objects.bulk_update([game for game, _, _ in batch], PROJECTED)
    return stored


@transaction.atomic
def game_rebuild_projection(*, game_id: Any) -> Game:
    """Recompute the ``Game`` projection and ``Seat`` rows from the events alone."""
    game = _lock(game_id)
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    state = engine.fold(selectors.to_engine(row) for row in rows)
    finished_at = next((r.created_at for r in reversed(rows) if r.type in TERMINAL_EVENTS), None)
    game.finished_at = None
    _project(game, state, finished_at)
    _sync_seats(game, state)
    return game
