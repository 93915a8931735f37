"""The last events of a game as a seat saw them, cheaply, for the table page.

``selectors.event_views`` redacts each event against the state just before it
(the rules' ``event_view``), starting from a folded state that the fold cache
holds -- or, on a miss, by loading and folding the whole stream as model
objects (about 200 ms for 2,000 events). The table only shows the last few
events, so before asking for them this module offers the fold cache (``streams.remember``) the state
just before them, folded from plain rows (``values_list``: no model objects)
and kept here per game, advanced by the few events since the last request.
Redaction still happens only in the rules, through ``selectors.event_views``.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from typing import Any

from games import rules, selectors, streams
from games.models import Event, Game

KEEP = 256  # games

_states: OrderedDict[uuid.UUID, rules.State] = OrderedDict()
_lock = threading.Lock()


def _state_at(game: Game, version: int) -> rules.State:
    with _lock:
        known = _states.get(game.id)
    state = known.copy() if known is not None and known.version <= version else None
    start = state.version if state is not None else 0
    rows = (
        Event.objects.filter(game=game, seq__gt=start, seq__lte=version)
        .order_by("seq")
        .values_list("type", "data", "seat")
    )
    events = (rules.Event(type=t, data=d, seat=s) for t, d, s in rows)
    if state is None:
        state = rules.fold(events)
    else:
        for event in events:
            rules.apply(state, event)
    with _lock:
        _states[game.id] = state.copy()
        _states.move_to_end(game.id)
        while len(_states) > KEEP:
            _states.popitem(last=False)
    return state


def recent_events(*, game: Game, seat: int | None, count: int) -> list[dict[str, Any]]:
    """The game's last ``count`` events, each as ``seat`` saw it at its own moment."""
    after = max(0, game.version - count)
    if after >= 1:
        streams.remember(game.id, _state_at(game, after))
    return selectors.event_views(game=game, seat=seat, after=after)
