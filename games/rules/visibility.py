"""What a seat may see: the dispatch to the ruleset's ``view``, ``event_view`` and ``reveal``.

Redaction happens here and nowhere else: in the rulesets' own ``view`` and
``event_view``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .events import ENGINE_EVENTS, JSON, Event
from .registry import get_ruleset
from .state import State


def event_view(before: State, event: Event, seat: int | None) -> JSON:
    """``event.data`` as ``seat`` saw it when it happened."""
    if event.type in ENGINE_EVENTS:
        return dict(event.data)
    return get_ruleset(before.ruleset).event_view(before, event, seat)


def view(
    state: State, seat: int | None, recent: Sequence[Event] = (), *, memory: str | None = None
) -> JSON | None:
    """The API ``state`` object for ``seat``; None while the game waits for players.

    ``memory``: the ``memory`` option to read the game with (None: the game's own);
    ``"assisted"`` is what a seat *knows* (the bots decide from it, replays show it).
    """
    if state.status == "waiting":
        return None
    return get_ruleset(state.ruleset).view(state, seat, recent, memory=memory)


def reveal(state: State) -> JSON | None:
    """The table with every card face up, for the replay viewer of a finished game.

    Same shape as ``view(state, None)`` but hiding nothing: the Pablo family
    shows every ``fields`` slot's code and ``held``; Skip-Bo adds ``hands``
    (``{seat: [codes]}``). A ruleset opts in by providing ``reveal(state)``;
    None when it does not (the viewer then merges the seats' own views).
    """
    if state.status == "waiting":
        return None
    own = getattr(get_ruleset(state.ruleset), "reveal", None)
    if own is None:
        return None
    result: JSON = own(state)
    return result
