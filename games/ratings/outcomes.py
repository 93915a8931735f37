"""Finished games as the ratings see them, read from their events alone."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, NamedTuple

from django.db import connection

from games.models import Event

from . import model

#: A seat's turns (``deadline_set``) matter only in a game where someone timed out or
#: was absent: those are read in a second query, for those games only, since an
#: ordinary game has one per turn and they would be most of what a rebuild reads.
TURNS = "deadline_set"
STAND_IN = frozenset({"turn_timed_out", "player_absent"})


class End(NamedTuple):
    """A ``game_finished`` event: what the ratings need of its row."""

    game_id: Any
    position: int
    created_at: Any


def read(ends: Sequence[End]) -> list[model.Finished]:
    """The ``Finished`` of each game in ``ends`` (in their order), from its events of
    ``model.EVENT_TYPES``: one query, and one more when a game had a stand-in."""
    by_game: dict[str, list[tuple[int, str, int | None, Any]]] = defaultdict(list)
    stood_in = set()
    base = [t for t in model.EVENT_TYPES if t != TURNS]
    for row in _rows([e.game_id for e in ends], base):
        by_game[str(row[0])].append(row[1:])
        if row[2] in STAND_IN:
            stood_in.add(row[0])
    if stood_in:
        for row in _rows(list(stood_in), [TURNS]):
            by_game[str(row[0])].append(row[1:])
    out = []
    for end in ends:
        events = sorted(by_game[str(end.game_id)], key=lambda e: e[0])
        out.append(model.finished(str(end.game_id), end.position, [e[1:] for e in events]))
    return out


def _rows(game_ids: list[Any], types: list[str]) -> Any:
    """``(game id, seq, type, seat, data)`` of those games' events of ``types``.

    On PostgreSQL, one JSON document for them all, decoded at once: a rebuild
    reads half a million rows, and decoding each row's ``data`` apart (the ORM's
    way) was a large share of its time."""
    if connection.vendor == "postgresql":
        sql = (
            "SELECT json_agg(json_build_array(game_id, seq, type, seat, data))::text"
            f" FROM {Event._meta.db_table} WHERE game_id = ANY(%s) AND type = ANY(%s)"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [[str(g) for g in game_ids], list(types)])
            (text,) = cursor.fetchone()
        return json.loads(text) if text else []
    return Event.objects.filter(game_id__in=game_ids, type__in=types).values_list(
        "game_id", "seq", "type", "seat", "data"
    )
