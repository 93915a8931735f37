"""Reading a game's stream: its events, and its state at a version.

The state comes from the per-process cache (``cache``) when it holds it; only
the events after the cached version are read; a game nobody here has seen
starts from its snapshot (``snapshots``) and folds the rows after it.
"""

from __future__ import annotations

import uuid

from games import rules
from games.models import Event, Game

from . import cache, snapshots, sql


def events(game_id: uuid.UUID, *, after: int = 0, upto: int | None = None) -> list[rules.Event]:
    """The stream's events ``after < seq <= upto`` as engine events, in order (no models)."""
    upto = 2**31 - 1 if upto is None else upto
    if after >= upto:
        return []
    return sql.read_events(game_id, after, upto)


def to_engine(row: Event) -> rules.Event:
    return rules.Event(type=row.type, data=row.data, seat=row.seat)


def state(game: Game, version: int | None = None) -> rules.State:
    """The folded state at ``version`` (default: the row's version); a private copy."""
    version = game.version if version is None else version
    known = cache.cached(game.id, version)
    if known is not None and known.version == version:
        return known.copy()
    if known is not None:
        folded = known.copy()
        for event in events(game.id, after=known.version, upto=version):
            rules.apply(folded, event)
    else:
        folded, base = snapshots.load(game.id, version)
        if folded.version == version and version - base >= snapshots.SNAPSHOT_EVERY:
            snapshots.save(game.id, folded)
    if folded.version != version:
        raise RuntimeError(
            f"game {game.id}: stream has {folded.version} events, expected {version}"
        )
    cache.remember(game.id, folded)
    return folded
