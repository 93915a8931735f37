"""Helpers of the follower tests: games to append to, appends with and without the log's
ordering lock, the probe's table."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games.models import Event, Game
from games.store import sql
from tests.factories import UserFactory

from . import probe

#: The environment of a worker process that runs the probe follower besides the others.
PROBE_SETTINGS = {
    "DJANGO_SETTINGS_MODULE": "tests.followers.settings",
    "DJANGO_SECRET_KEY": "tests-followers-only-" + "f" * 50,
}


def games(count: int) -> list[Game]:
    owner = UserFactory(username="writer", password="pw")
    return [Game.objects.create(ruleset="skipbo", seats=2, created_by=owner) for _ in range(count)]


def note(game: Game) -> Event:
    return Event(game=game, seq=game.version + 1, type="note", data={}, created_at=timezone.now())


def append(game: Game) -> None:
    """One event, as the store appends it (the CTE: ordering lock, then the insert);
    inside the caller's transaction."""
    row = note(game)
    expected, game.version = game.version, row.seq
    game.updated_at = row.created_at
    assert sql.store(game, expected, [row]) == 1


def append_naively(game: Game) -> None:
    """One event numbered by the sequence alone, without the ordering lock."""
    row = note(game)
    game.version = row.seq
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO games_event (game_id, seq, type, seat, data, created_at)"
            " VALUES (%s, %s, 'note', NULL, '{}', now())",
            [game.id, row.seq],
        )


@pytest.fixture
def probe_table(require_postgres):
    with connection.cursor() as cursor:
        cursor.execute(probe.CREATE)
    yield probe.TABLE
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {probe.TABLE}")
