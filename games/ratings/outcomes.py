"""Finished games as the ratings see them, read from their events alone."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from games.models import Event

from . import model


def read(ends: Sequence[Any]) -> list[model.Finished]:
    """The ``Finished`` of each ``game_finished`` event in ``ends`` (in their order):
    one query for the events of every game (``model.EVENT_TYPES``)."""
    rows = (
        Event.objects.filter(game_id__in=[e.game_id for e in ends], type__in=model.EVENT_TYPES)
        .order_by("game_id", "seq")
        .values_list("game_id", "type", "seat", "data")
    )
    by_game: dict[Any, list[tuple[str, int | None, dict]]] = defaultdict(list)
    for game_id, kind, seat, data in rows:
        by_game[game_id].append((kind, seat, data))
    return [model.finished(str(e.game_id), e.position, by_game[e.game_id]) for e in ends]
