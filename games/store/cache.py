"""The per-process cache of recent states, and of the rows this process last wrote.

Keyed by game and version: an LRU of ``CACHE_GAMES`` games, ``STATES_PER_GAME``
versions each, so a client following the feed starts from the version it last
saw. The cache holds private copies and takes a state only once it is
committed (``on_commit``), so a rolled-back write never leaves a state the
database lacks. Only the store writes here (``remember``); the rest of the
project reads through ``games.selectors``.
"""

from __future__ import annotations

import copy as _copy
import threading
import uuid
from collections import OrderedDict

from django.db import connection, transaction

from games import rules
from games.models import Game

CACHE_GAMES = 512
STATES_PER_GAME = 4

_cache: OrderedDict[uuid.UUID, list[rules.State]] = OrderedDict()  # versions ascending
#: The game rows (their header: decks, creation time...) of the cached games, as last written.
_rows: dict[uuid.UUID, Game] = {}
_lock = threading.Lock()


def cached(game_id: uuid.UUID, upto: int | None = None) -> rules.State | None:
    """The newest cached state of the game at a version <= ``upto`` (None: any); shared."""
    with _lock:
        states = _cache.get(game_id)
        if not states:
            return None
        _cache.move_to_end(game_id)
        for state in reversed(states):
            if upto is None or state.version <= upto:
                return state
        return None


def last_written(game_id: uuid.UUID) -> tuple[Game, rules.State] | None:
    """The row and state this process last wrote for the game, if they still agree
    (shared: copy before changing)."""
    with _lock:
        row = _rows.get(game_id)
        states = _cache.get(game_id)
        known = states[-1] if states else None
    if row is None or known is None or row.version != known.version:
        return None
    return row, known


def _put(game_id: uuid.UUID, state: rules.State) -> None:
    with _lock:
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
        _put(game_id, private)
        if header is not None:
            _rows[game_id] = header

    if connection.in_atomic_block:
        transaction.on_commit(put)
    else:
        put()


def clear() -> None:
    with _lock:
        _cache.clear()
        _rows.clear()
