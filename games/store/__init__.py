"""One game's event stream: load, lock, append, announce. Every write goes through here.

Create, join, come back, act, a bot's move, a timeout one by one or the
deadline sweep's batch: each is a service (``games.services``) over this
package; every read that needs a state comes through it too (through
``games.selectors``). Nothing else writes events, the projection or the cache.

=================  ==========================================================
module             job
=================  ==========================================================
``cache``          per-process LRU of recent states and of the rows last written
``load``           the events of a stream, the state at a version
``snapshots``      one pickled state per game, so a cold load folds few events
``stream``         a writer's hold on a game: ``lock``, ``latest``, its chance
``write``          ``append``: events + fair draws in one statement, projection, announcement
``batch``          many streams at once (deadline sweep), ``rebuild``
``sql``            every PostgreSQL / SQLite fork of the above, in one place
``signals``        ``events_appended``
=================  ==========================================================
"""

from .batch import append_many, rebuild
from .cache import cached
from .cache import clear as clear_cache
from .load import events, state, to_engine
from .snapshots import SNAPSHOT_EVERY, code_version
from .stream import Stale, Stream, game_key, latest, lock
from .write import Appended, append, event_data, parse_deadline, start

__all__ = [
    "SNAPSHOT_EVERY",
    "Appended",
    "Stale",
    "Stream",
    "append",
    "append_many",
    "cached",
    "clear_cache",
    "code_version",
    "event_data",
    "events",
    "game_key",
    "latest",
    "lock",
    "parse_deadline",
    "rebuild",
    "start",
    "state",
    "to_engine",
]
