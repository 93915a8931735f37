"""Every statement of the store that differs between PostgreSQL and SQLite, in one place.

PostgreSQL gets hand-written statements, bound on the server and prepared once
per connection (``execute_prepared``): the append is one CTE (update the
projection only where the row is still at the expected version, insert the
events from that update's ``RETURNING``, after the log's ordering lock
``ORDER_LOCK``), a load reads the snapshot and the
events after it in one statement (the rows as one ``json_agg`` string, one
``json.loads``). SQLite (the embedded default) gets the ORM or plain SQL doing
the same in two steps. Both store the same values: in particular the events'
``created_at`` is the writer's clock, not the field's ``auto_now_add``.
"""

from __future__ import annotations

import functools
import json
import time
import uuid
from collections.abc import Sequence
from typing import Any

import psycopg
from django.db import connection, transaction
from django.utils import timezone

from games import rules
from games.models import Event, Game, Snapshot

#: The projection's columns that the append writes.
PROJECTED = ("status", "version", "turn_key", "deadline", "result", "finished_at", "updated_at")


def postgres() -> bool:
    return connection.vendor == "postgresql"


# --------------------------------------------------------------------------- reads

_EVENTS = (
    "SELECT json_agg(json_build_array(type, seat, data) ORDER BY seq)::text FROM games_event"
    " WHERE game_id = %s AND seq > %s AND seq <= %s"
)


def _decoded(text: str | None) -> list[rules.Event]:
    return [rules.Event(t, d, s) for t, s, d in json.loads(text)] if text else []


def read_events(game_id: uuid.UUID, after: int, upto: int) -> list[rules.Event]:
    """The stream's events ``after < seq <= upto`` as engine events (no model objects)."""
    if postgres():
        with connection.cursor() as cursor:
            cursor.execute(_EVENTS, [game_id, after, upto])
            (text,) = cursor.fetchone()
        return _decoded(text)
    rows = Event.objects.filter(game_id=game_id, seq__gt=after, seq__lte=upto).order_by("seq")
    return [rules.Event(t, d, s) for t, s, d in rows.values_list("type", "seat", "data")]


_LOAD = """
SELECT s.version, s.state, (
    SELECT json_agg(json_build_array(e.type, e.seat, e.data) ORDER BY e.seq)::text
    FROM games_event e
    WHERE e.game_id = %s AND e.seq > COALESCE(s.version, 0) AND e.seq <= %s)
FROM (SELECT 1) AS one
LEFT JOIN games_snapshot s ON s.game_id = %s AND s.code = %s AND s.version <= %s
"""


def read_from_snapshot(
    game_id: uuid.UUID, upto: int, code: str
) -> tuple[int | None, bytes | None, list[rules.Event]]:
    """The game's snapshot of these rules (``code``) not past ``upto`` -- its version and
    pickled state, or None -- and the events after it up to ``upto``."""
    if postgres():
        ((base, blob, text),) = execute_prepared(_LOAD, [game_id, upto, game_id, code, upto])
        return base, blob, _decoded(text)
    found = (
        Snapshot.objects.filter(game_id=game_id, code=code, version__lte=upto)
        .values_list("version", "state")
        .first()
    )
    base, blob = found if found else (None, None)
    return base, blob, read_events(game_id, base or 0, upto)


_SAVE = """
INSERT INTO games_snapshot (game_id, version, code, state, updated_at)
VALUES (%s, %s, %s, %s, %s)
ON CONFLICT (game_id) DO UPDATE
SET version = EXCLUDED.version, code = EXCLUDED.code, state = EXCLUDED.state,
    updated_at = EXCLUDED.updated_at
WHERE games_snapshot.version < EXCLUDED.version OR games_snapshot.code <> EXCLUDED.code
"""


def write_snapshot(game_id: uuid.UUID, version: int, code: str, blob: bytes) -> None:
    if postgres():
        execute_prepared(_SAVE, [game_id, version, code, blob, timezone.now()])
    else:
        Snapshot.objects.filter(game_id=game_id).delete()
        Snapshot.objects.create(game_id=game_id, version=version, code=code, state=blob)


@functools.cache
def _lock_sql() -> str:
    """``SELECT ... FOR UPDATE`` of one game row, written once (the ORM's compiler costs
    more than the statement)."""
    columns = ", ".join(f'"{f.column}"' for f in Game._meta.concrete_fields)
    return f"SELECT {columns} FROM games_game WHERE id = %s FOR UPDATE"


def lock_row(key: uuid.UUID) -> Game | None:
    """The game row, locked until the end of the transaction (None: no such game)."""
    if postgres():
        found = list(Game.objects.raw(_lock_sql(), [key]))
        return found[0] if found else None
    return Game.objects.select_for_update().filter(pk=key).first()


# --------------------------------------------------------------------------- the append

_CTE = """
WITH bumped AS (
    UPDATE games_game
    SET version = %s, status = %s, turn_key = %s, deadline = %s, result = %s::jsonb,
        finished_at = %s, updated_at = %s
    WHERE id = %s AND version = %s
    RETURNING id
)
INSERT INTO games_event (game_id, seq, type, seat, data, created_at)
SELECT bumped.id, v.seq, v.type, v.seat, v.data, %s
FROM bumped
CROSS JOIN LATERAL (SELECT pg_advisory_xact_lock({lock}) WHERE bumped.id IS NOT NULL) AS ordered
CROSS JOIN (VALUES {values}) AS v(seq, type, seat, data)
ORDER BY v.seq
RETURNING 1
"""

#: The log's ordering lock (PostgreSQL): a transaction-level advisory lock taken
#: right before events are inserted and held until the commit, so that positions
#: (the sequence, ``games.models.NextPosition``) are handed out in commit order
#: (docs/design.md "The log and its followers").
ORDER_LOCK = int.from_bytes(b"pablolog", "big")


@functools.cache
def _cte_sql(count: int) -> str:
    values = ", ".join(["(%s::integer, %s::varchar, %s::smallint, %s::jsonb)"] * count)
    return _CTE.format(values=values, lock=ORDER_LOCK)


def store(game: Game, expected: int, rows: Sequence[Event]) -> int:
    """Bump the row from ``expected`` to ``game``'s projection and insert ``rows``, or
    nothing: the number of rows stored (0: the row was not at ``expected``)."""
    if postgres() and rows:
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
        return len(execute_prepared(_cte_sql(len(rows)), params))
    # No savepoint: a clash ends the whole transaction anyway.
    with transaction.atomic(savepoint=False):
        fields = {name: getattr(game, name) for name in PROJECTED}
        bumped = Game.objects.filter(pk=game.pk, version=expected).update(**fields)
        return insert_events(rows) if bumped else 0


_COLUMNS = ("game", "seq", "type", "seat", "data", "created_at")


def insert_events(rows: Sequence[Event]) -> int:
    """INSERT ``rows`` as they are, after taking the log's ordering lock (their
    positions are the column's default). Not ``bulk_create``: its ``auto_now_add`` would
    replace the ``created_at`` the writer set (the time PostgreSQL's CTE stores)."""
    if not rows:
        return 0
    fields = [Event._meta.get_field(name) for name in _COLUMNS]
    columns = ", ".join(f'"{f.column}"' for f in fields)
    values = ", ".join(["(" + ", ".join(["%s"] * len(fields)) + ")"] * len(rows))
    params: list[Any] = []
    for row in rows:
        params += [f.get_db_prep_save(getattr(row, f.attname), connection) for f in fields]
    with connection.cursor() as cursor:
        if postgres():
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ORDER_LOCK])
        cursor.execute(f"INSERT INTO games_event ({columns}) VALUES {values}", params)
    return len(rows)


def execute_prepared(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Run ``sql`` as a statement the server prepared once for this connection; its rows
    (none for a statement that returns none). PostgreSQL only.

    The append's CTE costs more to plan (~0.3 ms) than to run (~0.2 ms). Django's
    cursors bind on the client and never prepare; this one binds on the server and
    prepares at once (``prepare=True``). psycopg keeps the prepared statements per
    connection, forgets them at every rollback and prepares them again. Django turns
    psycopg's preparing off (``prepare_threshold`` None) unless the database's
    ``OPTIONS`` name a threshold; where they do not, it is turned on here for the
    statements that ask. A deployment behind a pooler that cannot keep prepared
    statements sets ``OPTIONS["prepare_threshold"] = None`` and statements here are
    then not prepared. Errors are Django's (``IntegrityError``...) and the statement
    shows in ``connection.queries`` when queries are logged, as with Django's cursors.
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
