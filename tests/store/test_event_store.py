"""The database itself refuses UPDATE and DELETE of events (migration 0002)."""

from __future__ import annotations

import importlib
import sqlite3

import pytest
from django.db import DatabaseError, connection, transaction

from games.models import Event

pytestmark = pytest.mark.django_db

immutable = importlib.import_module("games.migrations.0002_event_immutable")


def test_orm_update_and_delete_are_refused(skipbo_game):
    events = Event.objects.filter(game=skipbo_game)
    count = events.count()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        events.filter(seq=1).update(type="forged")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        events.filter(seq=2).delete()
    row = events.get(seq=1)
    row.data = {"forged": True}
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        row.save()
    assert events.count() == count
    assert events.get(seq=1).type == "game_created"


def test_raw_sql_update_and_delete_are_refused(skipbo_game):
    for sql in (
        "UPDATE games_event SET type = 'forged'",
        "DELETE FROM games_event",
    ):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql)
    assert Event.objects.filter(game=skipbo_game, type="forged").count() == 0


def test_the_sqlite_triggers_refuse_too():
    """The SQLite variant of the triggers, whatever database the suite runs on."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE games_event (id INTEGER PRIMARY KEY, type TEXT)")
    for sql in immutable.SQLITE:
        db.execute(sql)
    db.execute("INSERT INTO games_event (type) VALUES ('game_created')")
    for sql in ("UPDATE games_event SET type = 'x'", "DELETE FROM games_event"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute(sql)
    assert db.execute("SELECT type FROM games_event").fetchall() == [("game_created",)]
