"""Snapshots: one pickled folded state per game, so a cold load folds few events.

Written when an append crosses a multiple of ``SNAPSHOT_EVERY`` events and
after a load that had to fold as many; keyed by a fingerprint of the rules'
code (``code_version``), so other rules' snapshots are ignored. A projection,
never an event: ``rebuild`` drops it, a load writes it again. Pickle, not JSON:
states hold sets and tuples, and only the store writes the table.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import pickle
import uuid
from pathlib import Path

from django.db import DatabaseError, transaction

from games import rules

from . import sql

logger = logging.getLogger(__name__)

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


def load(game_id: uuid.UUID, upto: int) -> tuple[rules.State, int]:
    """The state at ``upto`` from the game's snapshot (if any, of these rules, not past
    ``upto``) and the events after it, read in one statement; and the snapshot's version
    (0: folded from the first event)."""
    base, blob, after = sql.read_from_snapshot(game_id, upto, code_version())
    if base is None or blob is None:
        return rules.fold(after), 0
    folded: rules.State = pickle.loads(bytes(blob))
    for event in after:
        rules.apply(folded, event)
    return folded, base


def save(game_id: uuid.UUID, folded: rules.State) -> None:
    """Keep ``folded`` as the game's snapshot (unless a newer one of these rules is kept).

    Never fails the caller: the snapshot is an optimisation (its own savepoint).
    """
    blob = pickle.dumps(folded, protocol=pickle.HIGHEST_PROTOCOL)
    try:
        with transaction.atomic():
            sql.write_snapshot(game_id, folded.version, code_version(), blob)
    except DatabaseError:
        logger.warning(
            "snapshot of game %s at %s not saved", game_id, folded.version, exc_info=True
        )
