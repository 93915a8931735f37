"""A game's event stream: load, fold, append at the expected version, project, announce.

Every write goes through here -- create, join, come back, act, a timeout one by
one or the deadline sweep's batch -- and so does every read that needs a state.

* **Load** (``lock`` for writes, ``state`` for reads): the state at a version
  comes from a per-process cache of recent states, keyed by game and version
  (LRU of ``CACHE_GAMES`` games, ``STATES_PER_GAME`` versions each, so a
  client following the feed starts from the version it last saw); only the
  events after the cached version are read, and a game nobody here has seen
  starts from its snapshot (below) and folds the rows after it, decoded
  without model objects (PostgreSQL: both in one statement, the rows as one
  ``json_agg`` string, one ``json.loads``). The cache holds private copies and
  takes a state only once it is committed (``on_commit``), so a rolled-back
  write never leaves a state the database lacks.
* **Lock** (``lock``): one read of the game row under ``SELECT ... FOR UPDATE``;
  the caller checks 404 / 403 on it and on its folded state, so an action reads
  the game once.
* **Append** (``append``): seqs ``version + 1 ...``, in one statement on
  PostgreSQL -- the projection (version, status, turn, deadline, result) is
  updated only where the row is still at the expected version, and the events
  are inserted from that update's ``RETURNING`` (a CTE): no update, no events.
  Elsewhere (SQLite) the same two steps run as a conditional UPDATE and an
  INSERT. Zero rows means someone else moved the game: 409
  ``version_conflict``, nothing stored; the unique ``(game, seq)`` constraint
  is the last line of defence.
* **Project**: the ``Game`` row in the same statement, ``Seat`` rows when
  someone joined (``sync_seats``); ``rebuild`` redoes both from the events.
* **Announce**: after the commit, ``games.signals.events_appended``.
* **Snapshots** (``Snapshot``, one row per game): the pickled state at a
  version, written when an append crosses a multiple of ``SNAPSHOT_EVERY``
  events and after a load that had to fold as many; keyed by a fingerprint of
  the rules' code (``code_version``), so other rules' snapshots are ignored.
  A projection, never an event: ``rebuild`` drops it, a load writes it again.
"""

from __future__ import annotations

import copy as _copy
import functools
import hashlib
import json
import logging
import pickle
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from games import errors, rules
from games.models import Event, Game, Seat, Snapshot
from games.signals import events_appended

logger = logging.getLogger(__name__)

JSON = dict[str, Any]

CACHE_GAMES = 512
STATES_PER_GAME = 4
TERMINAL_EVENTS = ("game_finished", "game_aborted")
#: The ``Game`` fields that mirror the folded state.
PROJECTED = ("status", "version", "turn_key", "deadline", "result", "finished_at", "updated_at")

# --------------------------------------------------------------------------- the state cache

_cache: OrderedDict[uuid.UUID, list[rules.State]] = OrderedDict()  # versions ascending
#: The game rows (their header: decks, creation time...) of the cached games, as last written.
_rows: dict[uuid.UUID, Game] = {}
_cache_lock = threading.Lock()


def cached(game_id: uuid.UUID, upto: int | None = None) -> rules.State | None:
    """The newest cached state of the game at a version <= ``upto`` (None: any); shared."""
    with _cache_lock:
        states = _cache.get(game_id)
        if not states:
            return None
        _cache.move_to_end(game_id)
        for state in reversed(states):
            if upto is None or state.version <= upto:
                return state
        return None


def _cache_put(game_id: uuid.UUID, state: rules.State) -> None:
    with _cache_lock:
        states = _cache.setdefault(game_id, [])
        if all(known.version != state.version for known in states):
            states.append(state)
            states.sort(key=lambda known: known.version)
            del states[:-STATES_PER_GAME]
        _cache.move_to_end(game_id)
        while len(_cache) > CACHE_GAMES:
            gone, _ = _cache.popitem(last=False)
            _rows.pop(gone, None)


def remember(
    game_id: uuid.UUID, state: rules.State, *, copy: bool = True, row: Game | None = None
) -> None:
    """Offer a state (and the row just written) to the cache: now outside a transaction,
    else once it commits."""
    private = state.copy() if copy else state
    header = _copy.copy(row) if row is not None else None

    def put() -> None:
        _cache_put(game_id, private)
        if header is not None:
            _rows[game_id] = header

    if connection.in_atomic_block:
        transaction.on_commit(put)
    else:
        put()


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()
        _rows.clear()


# --------------------------------------------------------------------------- reading events

_JSON_AGG = (
    "SELECT json_agg(json_build_array(type, seat, data) ORDER BY seq)::text FROM games_event"
    " WHERE game_id = %s AND seq > %s AND seq <= %s"
)


def events(game_id: uuid.UUID, *, after: int = 0, upto: int | None = None) -> list[rules.Event]:
    """The stream's events ``after < seq <= upto`` as engine events, in order (no models)."""
    upto = 2**31 - 1 if upto is None else upto
    if after >= upto:
        return []
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_JSON_AGG, [game_id, after, upto])
            (text,) = cursor.fetchone()
        return [rules.Event(t, d, s) for t, s, d in json.loads(text)] if text else []
    rows = Event.objects.filter(game_id=game_id, seq__gt=after, seq__lte=upto).order_by("seq")
    return [rules.Event(t, d, s) for t, s, d in rows.values_list("type", "seat", "data")]


def to_engine(row: Event) -> rules.Event:
    return rules.Event(type=row.type, data=row.data, seat=row.seat)


def state(game: Game, version: int | None = None) -> rules.State:
    """The folded state at ``version`` (default: the row's version); a private copy."""
    version = game.version if version is None else version
    known = cached(game.id, version)
    if known is not None and known.version == version:
        return known.copy()
    if known is not None:
        folded = known.copy()
        for event in events(game.id, after=known.version, upto=version):
            rules.apply(folded, event)
    else:
        folded, base = _load(game.id, version)
        if folded.version == version and version - base >= SNAPSHOT_EVERY:
            save_snapshot(game.id, folded)
    if folded.version != version:
        raise RuntimeError(
            f"game {game.id}: stream has {folded.version} events, expected {version}"
        )
    remember(game.id, folded)
    return folded


# --------------------------------------------------------------------------- snapshots

#: A snapshot is written when an append crosses a multiple of this many events, and
#: after a load that folded at least as many: a cold load folds fewer than twice this.
SNAPSHOT_EVERY = 100


@functools.cache
def code_version() -> str:
    """A fingerprint of the rules' code: a snapshot made by other rules is not used."""
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(Path(rules.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


_LOAD = """
SELECT s.version, s.state, (
    SELECT json_agg(json_build_array(e.type, e.seat, e.data) ORDER BY e.seq)::text
    FROM games_event e
    WHERE e.game_id = %s AND e.seq > COALESCE(s.version, 0) AND e.seq <= %s)
FROM (SELECT 1) AS one
LEFT JOIN games_snapshot s ON s.game_id = %s AND s.code = %s AND s.version <= %s
"""

_SAVE = """
INSERT INTO games_snapshot (game_id, version, code, state, updated_at)
VALUES (%s, %s, %s, %s, %s)
ON CONFLICT (game_id) DO UPDATE
SET version = EXCLUDED.version, code = EXCLUDED.code, state = EXCLUDED.state,
    updated_at = EXCLUDED.updated_at
WHERE games_snapshot.version < EXCLUDED.version OR games_snapshot.code <> EXCLUDED.code
"""


def _load(game_id: uuid.UUID, upto: int) -> tuple[rules.State, int]:
    """The state at ``upto`` from the game's snapshot (if any, of these rules, not past
    ``upto``) and the events after it, read in one statement; and the snapshot's version
    (0: folded from the first event)."""
    if connection.vendor == "postgresql":
        ((base, blob, text),) = execute_prepared(
            _LOAD, [game_id, upto, game_id, code_version(), upto]
        )
        after = [rules.Event(t, d, s) for t, s, d in json.loads(text)] if text else []
    else:
        found = (
            Snapshot.objects.filter(game_id=game_id, code=code_version(), version__lte=upto)
            .values_list("version", "state")
            .first()
        )
        base, blob = found if found else (None, None)
        after = events(game_id, after=base or 0, upto=upto)
    if base is None:
        return rules.fold(after), 0
    folded: rules.State = pickle.loads(bytes(blob))
    for event in after:
        rules.apply(folded, event)
    return folded, base


def save_snapshot(game_id: uuid.UUID, folded: rules.State) -> None:
    """Keep ``folded`` as the game's snapshot (unless a newer one of these rules is kept).

    Never fails the caller: the snapshot is an optimisation (its own savepoint).
    """
    blob = pickle.dumps(folded, protocol=pickle.HIGHEST_PROTOCOL)
    try:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                params = [game_id, folded.version, code_version(), blob, timezone.now()]
                execute_prepared(_SAVE, params)
            else:
                Snapshot.objects.filter(game_id=game_id).delete()
                Snapshot.objects.create(
                    game_id=game_id, version=folded.version, code=code_version(), state=blob
                )
    except DatabaseError:
        logger.warning(
            "snapshot of game %s at %s not saved", game_id, folded.version, exc_info=True
        )


# --------------------------------------------------------------------------- writing


def game_key(game_id: Any) -> uuid.UUID:
    """The UUID of a game id as sent (``NotFound`` for a malformed one)."""
    if isinstance(game_id, uuid.UUID):
        return game_id
    try:
        return uuid.UUID(str(game_id))
    except ValueError:
        raise errors.not_found() from None


@dataclass
class Stream:
    """A game row and its folded state (private: the caller may change it).

    ``locked``: read under ``SELECT ... FOR UPDATE``. An unlocked stream
    (``latest``) is this process's last word on the game; appending to it
    raises ``Stale`` when another writer moved the game meanwhile.
    """

    game: Game
    state: rules.State
    locked: bool = True
    #: The version the events of this transaction are appended after.
    version: int = field(init=False)

    def __post_init__(self) -> None:
        self.version = self.state.version

    def seat(self, user: Any) -> int:
        """``user``'s seat; ``Forbidden`` (403) for anyone else."""
        username = getattr(user, "username", None)
        if username is None or username not in self.state.players:
            raise errors.not_a_player()
        return self.state.players.index(username)


class Stale(Exception):
    """An append to an unlocked stream found the game moved on: nothing was stored."""


def latest(game_id: Any) -> Stream | None:
    """The game as this process last wrote it, without reading the database (None when
    this process has not written it). For an optimistic write: the append's version
    check tells whether it was still the latest (``Stale`` otherwise)."""
    key = game_key(game_id)
    with _cache_lock:
        row = _rows.get(key)
        states = _cache.get(key)
        known = states[-1] if states else None
    if row is None or known is None or row.version != known.version:
        return None
    return Stream(_copy.copy(row), known.copy(), locked=False)


@functools.cache
def _lock_sql() -> str:
    """``SELECT ... FOR UPDATE`` of one game row, written once (the ORM's compiler costs
    more than the statement)."""
    columns = ", ".join(f'"{f.column}"' for f in Game._meta.concrete_fields)
    return f"SELECT {columns} FROM games_game WHERE id = %s FOR UPDATE"


def lock(game_id: Any) -> Stream:
    """The game row locked until the end of the transaction, and its state (404 if none)."""
    key = game_key(game_id)
    if connection.vendor == "postgresql":
        found = list(Game.objects.raw(_lock_sql(), [key]))
        if not found:
            raise errors.not_found()
        game = found[0]
    else:
        try:
            game = Game.objects.select_for_update().get(pk=key)
        except Game.DoesNotExist:
            raise errors.not_found() from None
    return Stream(game, state(game))


@dataclass
class Appended:
    #: The new state; shared with the cache once committed: read it, never change it.
    state: rules.State
    rows: list[Event]
    views: list[JSON]


def start(game: Game, created: Sequence[rules.Event]) -> Appended:
    """The first events of a new game (``game`` just inserted at version 0)."""
    stream = Stream(game, rules.fold(created[:1]))
    stream.version = 0
    return _write(stream, created, stream.state, created[1:], views=None, start=True)


def append(
    stream: Stream, new: Sequence[rules.Event], *, viewer: int | None = None, view: bool = False
) -> Appended:
    """Append ``new`` after the stream's state (which it consumes); project; announce on commit.

    With ``view``, also each event as ``viewer`` saw it, redacted against the
    state just before it.
    """
    return _write(stream, new, stream.state, new, views=[] if view else None, viewer=viewer)


def _write(
    stream: Stream,
    new: Sequence[rules.Event],
    folded: rules.State,
    to_apply: Iterable[rules.Event],
    *,
    views: list[JSON] | None,
    viewer: int | None = None,
    start: bool = False,
) -> Appended:
    game, version = stream.game, stream.version
    now = timezone.now()
    rows = [
        Event(game=game, seq=version + i, type=e.type, seat=e.seat, data=e.data, created_at=now)
        for i, e in enumerate(new, start=1)
    ]
    seen: list[JSON] = []
    if views is not None:
        for event in new:
            seen.append(rules.event_view(folded, event, viewer))
            rules.apply(folded, event)
    else:
        for event in to_apply:
            rules.apply(folded, event)
    _copy_state(game, folded, now if any(r.type in TERMINAL_EVENTS for r in rows) else None)
    game.updated_at = now
    listening = _store(game, version, rows, locked=stream.locked)
    if folded.version // SNAPSHOT_EVERY > version // SNAPSHOT_EVERY:
        save_snapshot(game.id, folded)
    if start or any(e.type == "player_joined" for e in new):
        sync_seats(game, folded)
    # Appended.state is read-only from here on (it is the cached one).
    remember(game.id, folded, copy=False, row=game)
    announce(game.id, folded.version, rows, listening=listening)
    # After the store: the rows' times are the stored ones.
    return Appended(folded, rows, [event_data(r, d) for r, d in zip(rows, seen, strict=False)])


_CTE = """
WITH bumped AS (
    UPDATE games_game
    SET version = %s, status = %s, turn_key = %s, deadline = %s, result = %s::jsonb,
        finished_at = %s, updated_at = %s
    WHERE id = %s AND version = %s
    RETURNING id, {listening} AS listening
)
INSERT INTO games_event (game_id, seq, type, seat, data, created_at)
SELECT bumped.id, v.seq, v.type, v.seat, v.data, %s
FROM bumped, (VALUES {values}) AS v(seq, type, seat, data)
RETURNING (SELECT listening FROM bumped)
"""


def _store(game: Game, expected: int, rows: list[Event], *, locked: bool = True) -> bool | None:
    """Bump the row from ``expected`` to the new version and insert ``rows``, or nothing.

    Returns whether any player listens to notifications (PostgreSQL; else None).
    Nothing stored: ``version_conflict``, or ``Stale`` for an unlocked stream.
    """
    listening = None
    try:
        if connection.vendor == "postgresql" and rows:
            params: list[Any] = [
                game.version,
                game.status,
                game.turn_key,
                game.deadline,
                None if game.result is None else json.dumps(game.result),
                game.finished_at,
                game.updated_at,
                game.id,
                expected,
                game.updated_at,
            ]
            for row in rows:
                params += [row.seq, row.type, row.seat, json.dumps(row.data)]
            returned = execute_prepared(_cte_sql(len(rows)), params)
            stored = len(returned)
            listening = bool(returned[0][0]) if returned else None
        else:
            # No savepoint: a clash ends the whole transaction anyway.
            with transaction.atomic(savepoint=False):
                fields = {name: getattr(game, name) for name in PROJECTED}
                bumped = Game.objects.filter(pk=game.pk, version=expected).update(**fields)
                stored = len(Event.objects.bulk_create(rows)) if bumped else 0
    except IntegrityError:
        stored = -1
    if stored == 0 and not locked:
        raise Stale
    if stored != len(rows):
        raise errors.version_conflict()
    return listening


def execute_prepared(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Run ``sql`` as a statement the server prepared once for this connection; its rows
    (none for a statement that returns none).

    The append's CTE costs more to plan (~0.3 ms) than to run (~0.2 ms). Django's
    cursors bind on the client and never prepare; this one binds on the server and
    prepares at once (``prepare=True``). psycopg keeps the prepared statements per
    connection, forgets them at every rollback and prepares them again. Django turns
    psycopg's preparing off (``prepare_threshold`` None) unless the database's
    ``OPTIONS`` name a threshold; where they do not, it is turned on here for the
    statements that ask (Django's own cursors bind on the client and never prepare).
    A deployment behind a pooler that cannot keep prepared statements sets
    ``OPTIONS["prepare_threshold"] = None`` and statements here are then not prepared.
    Errors are Django's (``IntegrityError``...) and the statement shows in
    ``connection.queries`` when queries are logged, as with Django's cursors.
    """
    connection.ensure_connection()
    connection.validate_thread_sharing()
    raw = connection.connection
    if raw.prepare_threshold is None and "prepare_threshold" not in connection.settings_dict.get(
        "OPTIONS", {}
    ):
        raw.prepare_threshold = 2**31  # only what asks with prepare=True
    started = time.monotonic()
    try:
        with connection.wrap_database_errors, psycopg.Cursor(raw) as cursor:
            cursor.execute(sql, params, prepare=True)
            return cursor.fetchall() if cursor.description is not None else []
    finally:
        if connection.queries_logged:
            connection.queries_log.append({"sql": sql, "time": f"{time.monotonic() - started:.3f}"})


@functools.cache
def _cte_sql(count: int) -> str:
    values = ", ".join(["(%s::integer, %s::varchar, %s::smallint, %s::jsonb)"] * count)
    return _CTE.format(values=values, listening=_listening_sql("games_game.id"))


def _listening_sql(game: str) -> str:
    """Whether any player of ``game`` (an SQL expression) has a channel that would deliver
    (``SeatQuerySet.listening`` in SQL)."""
    user = get_user_model()._meta.db_table
    return f"""EXISTS (
            SELECT 1 FROM games_seat s
            JOIN "{user}" u ON u.id = s.user_id
            LEFT JOIN games_notificationsettings n ON n.user_id = s.user_id
            WHERE s.game_id = {game} AND (
                (n.user_id IS NULL AND u.email <> '')
                OR (n.email_enabled AND u.email <> '')
                OR (n.webhook_enabled AND n.webhook_url <> '')))"""


def _copy_state(game: Game, folded: rules.State, ended: datetime | None) -> None:
    """Copy the folded state onto the game object (not saved)."""
    game.status = folded.status
    game.version = folded.version
    game.turn_key = folded.turn_key or ""
    game.deadline = parse_deadline(folded.deadline) if folded.status == "active" else None
    game.result = folded.result
    if folded.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        game.finished_at = game.finished_at or ended
    else:
        game.finished_at = None


def parse_deadline(value: str | None) -> datetime | None:
    """A ``deadline_set`` event's ISO 8601 deadline as an aware datetime."""
    if not value:
        return None
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def sync_seats(game: Game, folded: rules.State) -> None:
    """Make the ``Seat`` rows match the players of ``folded`` (joins only ever add)."""
    have = set(Seat.objects.filter(game=game).values_list("seat", flat=True))
    missing = {s: name for s, name in enumerate(folded.players) if name and s not in have}
    if not missing:
        return
    users = get_user_model().objects.filter(username__in=missing.values())
    by_name = {u.username: u for u in users}
    Seat.objects.bulk_create(
        [Seat(game=game, seat=s, user=by_name[name]) for s, name in missing.items()]
    )


def announce(
    game_id: uuid.UUID, version: int, rows: list[Event], *, listening: bool | None = None
) -> None:
    """Send ``events_appended`` once the transaction commits (never if it rolls back).

    ``listening``: whether any player of the game has a notification channel on,
    when the writer knows (read with the locked row), so receivers need not ask.
    """
    transaction.on_commit(lambda: _send(game_id, version, rows, listening))


def _send(game_id: uuid.UUID, version: int, rows: list[Event], listening: bool | None) -> None:
    answers = events_appended.send_robust(
        sender=Game, game_id=game_id, version=version, events=rows, listening=listening
    )
    for receiver, answer in answers:
        if isinstance(answer, Exception):
            logger.error(
                "events_appended receiver %r failed for game %s",
                receiver,
                game_id,
                exc_info=(type(answer), answer, answer.__traceback__),
            )


def event_data(row: Event, data: JSON) -> JSON:
    """An event as the API shows it."""
    return {
        "seq": row.seq,
        "type": row.type,
        "seat": row.seat,
        "at": None if row.created_at is None else rules.iso(row.created_at),
        "data": data,
    }


# --------------------------------------------------------------------------- batches


def append_many(
    games: Sequence[Game], decide: Callable[[Game, rules.State], Sequence[rules.Event]]
) -> dict[Any, int]:
    """For each locked game: fold its stream, ``decide(game, state)`` -> new events; store all
    in three statements (one read of every stream, one INSERT, one UPDATE of the rows).

    ``games`` are rows the caller's transaction has locked, as read under that
    lock. Games whose ``decide`` raises are logged and left out; the rest go
    on. Returns the number of events stored per game id (games given no
    events are left out).
    """
    streams: dict[Any, list[rules.Event]] = {g.id: [] for g in games}
    if streams:
        query = Event.objects.filter(game_id__in=list(streams)).order_by("game_id", "seq")
        for game_id, kind, seat, data in query.values_list("game_id", "type", "seat", "data"):
            streams[game_id].append(rules.Event(kind, data, seat))
    now = timezone.now()
    done: list[tuple[Game, rules.State, list[Event]]] = []
    for game in games:
        try:
            folded = rules.fold(streams[game.id])
            if folded.version != game.version:
                raise RuntimeError(f"stream has {folded.version} events, row says {game.version}")
            new = decide(game, folded)
        except Exception:
            logger.exception("batch append to game %s (turn %s) failed", game.id, game.turn_key)
            continue
        if not new:
            continue
        rows = [
            Event(game=game, seq=folded.version + i, type=e.type, seat=e.seat, data=e.data)
            for i, e in enumerate(new, start=1)
        ]
        for event in new:
            rules.apply(folded, event)
        done.append((game, folded, rows))
    if not done:
        return {}
    Event.objects.bulk_create([row for _, _, rows in done for row in rows])
    for game, folded, rows in done:
        ended = next((r.created_at for r in rows if r.type in TERMINAL_EVENTS), now)
        _copy_state(game, folded, ended)
        game.updated_at = now  # bulk_update leaves auto_now fields alone
        remember(game.id, folded, copy=False)
        announce(game.id, folded.version, rows)
    Game.objects.bulk_update([game for game, _, _ in done], PROJECTED)
    return {game.id: len(rows) for game, _, rows in done}


def rebuild(game_id: Any) -> Game:
    """Recompute the ``Game`` projection and ``Seat`` rows from the events alone."""
    try:
        game = Game.objects.select_for_update().get(pk=game_key(game_id))
    except Game.DoesNotExist:
        raise errors.not_found() from None
    Snapshot.objects.filter(game=game).delete()  # a projection too: made again when needed
    stream_rows = list(Event.objects.filter(game=game).order_by("seq"))
    folded = rules.fold(to_engine(row) for row in stream_rows)
    ended = next((r.created_at for r in reversed(stream_rows) if r.type in TERMINAL_EVENTS), None)
    game.finished_at = None
    _copy_state(game, folded, ended)
    game.save(update_fields=PROJECTED)
    sync_seats(game, folded)
    return game
