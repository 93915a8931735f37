"""What a seat sees: the table (``view``), an event (``event_view``), all face up (``reveal``).

The only place a Pablo-family game hides anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from .. import round_reveal
from ..events import ENGINE_EVENTS, JSON, Event
from ..state import State
from .knowledge import redact, visible
from .legal import legal_actions, match_open
from .presets import Preset
from .state import SLOTS, as_family


def view(
    preset: Preset,
    state: State,
    seat: int | None,
    recent: Sequence[Event] = (),
    *,
    memory: str | None = None,
) -> JSON:
    """The API ``state`` object as ``seat`` sees it (``memory``: None for the game's option)."""
    s = as_family(state)
    viewer = s.seats if seat is None else seat
    over = s.status in ("finished", "aborted")
    shown: set[int] | None
    if s.status == "finished":
        shown = None  # every card was turned face up at the end
    elif (memory or s.options.get("memory")) == "strict":
        shown = set()
        for event in recent:
            if event.type == "round_started":
                shown = set()  # ids name the cards of one round only
            if event.type not in ENGINE_EVENTS:
                shown |= visible(preset, s, event, seat)
    else:
        shown = s.known[viewer] if s.known else set()

    codes = s.codes
    if shown is None:
        fields = {
            str(i): [None if c is None else codes[c] for c in f] for i, f in enumerate(s.fields)
        }
    else:
        fields = {
            str(i): [None if c is None else codes[c] if c in shown else "?" for c in f]
            for i, f in enumerate(s.fields)
        }
    held = None
    if s.held is not None and (
        s.held_from == "discard" or (seat is not None and seat == s.turn_seat)
    ):
        held = s.codes[s.held]
    setup = s.phase == "setup" and not over
    return {
        "round": s.round,
        "phase": "over" if over else s.phase,
        "turn": {
            "seat": None if setup or over else s.turn_seat,
            "stage": None if over else ("look" if setup else s.stage),
            "deadline": s.deadline,
        },
        "held": held,
        "discard": {
            "top": s.codes[s.discard[-1]] if s.discard else None,
            "count": len(s.discard),
            "serial": s.serial,
        },
        "deck": {"count": len(s.draw)},
        "fields": fields,
        "called_by": list(s.callers),
        "legal_actions": legal_actions(preset, s, seat),
        "rounds": [
            {"round": r["round"], "totals": dict(r["totals"]), "scores": dict(r["scores"])}
            for r in s.rounds
        ],
        "result": s.result,
        "power": (
            {"kind": s.power["kind"], "optional": s.power["optional"]}
            if s.power is not None and s.stage == "power" and not over
            else None
        ),
        "match_open": match_open(preset, s) and not over,
        "looked": [i for i, done in enumerate(s.looked) if done] if setup else None,
        "reveal": round_reveal.shown(s.reveal),  # the last round's end, public
    }


def reveal(preset: Preset, state: State) -> JSON:
    """Every card face up (the replay viewer)."""
    s = as_family(state)
    out = view(preset, s, None)
    out["fields"] = {
        str(i): [None if c is None else s.codes[c] for c in f] for i, f in enumerate(s.fields)
    }
    out["held"] = s.codes[s.held] if s.held is not None else None
    return out


def event_view(preset: Preset, before: State, event: Event, seat: int | None) -> JSON:
    s = as_family(before)
    d = event.data
    if event.type == "round_started":
        n = s.seats
        deck = d["deck"]
        top = SLOTS * n
        out: JSON = {
            "round": d["round"],
            "start_seat": d["start_seat"],
            "start_drawn": d["start_drawn"],
            "deck_count": len(deck),
            "discard": {"card": top, "code": deck[top]},
        }
        if not preset.setup_look and seat is not None:
            out["seen"] = [
                {"position": k, "card": SLOTS * seat + k, "code": deck[SLOTS * seat + k]}
                for k in (0, 1)
            ]
        return out
    if event.type == "reshuffled":
        return {"count": len(d["order"])}
    return cast(JSON, redact(d, visible(preset, s, event, seat)))
