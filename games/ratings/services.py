"""Every write of the ratings: the follower's step and the rebuild.

Both run under the ``Cursor`` row's lock, so a game that ends while the ratings
are being rebuilt is counted once: the rebuild replays the games up to the
cursor's position, the follower only those after it (docs/ratings.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from games.models import Event

from . import model, outcomes
from .models import Cursor, Rating, RatingChange

#: Games read and rated per step of a rebuild.
REBUILD_BATCH = 5000

#: (user id, ruleset) -> the current rating, as it will be stored.
Ratings = dict[tuple[int, str], Rating]


@transaction.atomic
def ratings_apply(events: Iterable[Any]) -> int:
    """Rate the games whose ``game_finished`` is among ``events`` and after the cursor
    (idempotent: a position already applied is skipped); the number of games rated.
    A cursor of another model version is first rebuilt under the current one."""
    cursor = _locked_cursor()
    if cursor.version != model.VERSION:
        _rebuild(cursor)
    ends = [
        outcomes.End(e.game_id, e.position, e.created_at)
        for e in events
        if e.type == "game_finished" and e.position > cursor.position
    ]
    if not ends:
        return 0
    games = outcomes.read(ends)
    users = _users(games)
    keys = {
        (users[g.seats[s].username], g.ruleset)
        for g in games
        for s in model.counted(g)
        if g.seats[s].username in users
    }
    stored = {
        (r.user_id, r.ruleset): r
        for r in Rating.objects.filter(
            user_id__in={u for u, _ in keys}, ruleset__in={r for _, r in keys}
        )
    }
    touched, changes = _rate(games, ends, users, stored)
    _save_ratings([stored[k] for k in touched])
    _copy(RatingChange, CHANGE_COLUMNS, changes)
    cursor.position = ends[-1].position
    cursor.save(update_fields=["position"])
    return len(ends)


@transaction.atomic
def ratings_rebuild() -> int:
    """Every rating again from the events up to the cursor; the number of games read."""
    return _rebuild(_locked_cursor())


def _locked_cursor() -> Cursor:
    Cursor.objects.get_or_create(pk=1)
    return Cursor.objects.select_for_update().get(pk=1)


def _rebuild(cursor: Cursor) -> int:
    """Replay every ``game_finished`` up to the cursor, in log order, keeping the
    ratings in memory and writing each batch's changes at once."""
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    # Every game's end in one query, streamed (a server-side cursor): the log is
    # scanned once, not once a batch (a page of ``game_finished`` rows after a
    # position read most of the log again each time).
    finished = (
        Event.objects.filter(type="game_finished", position__lte=cursor.position)
        .order_by("position")
        .values_list("game_id", "position", "created_at")
        .iterator(chunk_size=REBUILD_BATCH)
    )
    stored: Ratings = {}
    users: dict[str, int] = {}
    done = 0
    while batch := [outcomes.End(*row) for row in itertools.islice(finished, REBUILD_BATCH)]:
        games = outcomes.read(batch)
        users.update(_users(games, known=users))
        _, changes = _rate(games, batch, users, stored)
        _copy(RatingChange, CHANGE_COLUMNS, changes)
        done += len(batch)
    _copy(
        Rating,
        RATING_COLUMNS,
        [(r.user_id, r.ruleset, r.mu, r.sigma, r.rating, r.games, r.last_played_at)
         for r in stored.values()],
    )  # fmt: skip
    cursor.version = model.VERSION
    cursor.save(update_fields=["version"])
    return done


def _users(games: Sequence[model.Finished], known: Iterable[str] = ()) -> dict[str, int]:
    """The account id of each person's username in ``games`` (but those ``known``)."""
    names = {p.username for g in games for p in g.seats if not p.bot}.difference(known)
    if not names:
        return {}
    return dict(get_user_model().objects.filter(username__in=names).values_list("username", "pk"))


def _rate(
    games: Sequence[model.Finished],
    ends: Sequence[outcomes.End],
    users: dict[str, int],
    stored: Ratings,
) -> tuple[set[tuple[int, str]], list[tuple[Any, ...]]]:
    """Rate ``games`` in their order from ``stored`` (updated in place); the keys it
    changed and one ``RatingChange`` row (``CHANGE_COLUMNS``) per rated seat."""
    touched: set[tuple[int, str]] = set()
    changes: list[tuple[Any, ...]] = []
    for game, end in zip(games, ends, strict=True):
        seats = model.counted(game)
        # An account no longer found under its name (renamed, deleted) leaves the game:
        # a follower that raised on it would stop at this game for good.
        people = [
            (s, (users[game.seats[s].username], game.ruleset))
            for s in seats
            if game.seats[s].username in users
        ]
        if len(people) < 2:
            continue
        rows = [stored.get(key) for _, key in people]
        before = [model.Skill(r.mu, r.sigma, r.games) if r else model.Skill() for r in rows]
        after = model.rate(before, [seats[s] for s, _ in people])
        for (seat, key), old, new, row in zip(people, before, after, rows, strict=True):
            rating = model.display(new.mu, new.sigma)
            if row is None:
                row = stored[key] = Rating(user_id=key[0], ruleset=game.ruleset)
            row.mu, row.sigma, row.games = new.mu, new.sigma, new.games
            row.rating, row.last_played_at = rating, end.created_at
            touched.add(key)
            changes.append(
                (game.game, key[0], game.ruleset, seat, seats[seat], game.seats[seat].points,
                 game.position, end.created_at, new.mu, new.sigma,
                 model.display(old.mu, old.sigma), rating)
            )  # fmt: skip
    return touched, changes


RATING_COLUMNS = ("user_id", "ruleset", "mu", "sigma", "rating", "games", "last_played_at")
CHANGE_COLUMNS = (
    "game_id", "user_id", "ruleset", "seat", "place", "points",
    "position", "at", "mu", "sigma", "before", "after",
)  # fmt: skip


def _save_ratings(rows: list[Rating]) -> None:
    Rating.objects.bulk_create(
        rows,
        batch_size=2000,
        update_conflicts=True,
        unique_fields=["user", "ruleset"],
        update_fields=["mu", "sigma", "rating", "games", "last_played_at"],
    )


def _copy(table: Any, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """Insert many rows at once: PostgreSQL's COPY (a rebuild writes hundreds of
    thousands; the ORM's ``bulk_create`` spent most of a rebuild preparing them),
    else the ORM."""
    if connection.vendor != "postgresql":
        table.objects.bulk_create([table(**dict(zip(columns, row, strict=True))) for row in rows])
        return
    sql = f"COPY {table._meta.db_table} ({', '.join(columns)}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)
