"""Knowledge: which cards an event shows, to everyone or to one seat only.

Folding records it in ``FamilyState.known``; ``view`` and ``event_view`` redact by it.
"""

from __future__ import annotations

from typing import Any

from ..events import Event
from .presets import Preset
from .state import SLOTS, FamilyState


def shown(preset: Preset, s: FamilyState, event: Event) -> tuple[list[int], dict[int, list[int]]]:
    """The cards ``event`` shows: (to everyone, {seat: to that seat only})."""
    d, seat, t = event.data, event.seat, event.type
    if t == "round_started":
        n = s.seats
        private = {}
        if not preset.setup_look:
            private = {i: [SLOTS * i, SLOTS * i + 1] for i in range(n)}
        return [SLOTS * n], private
    if seat is None:
        if t == "round_ended":
            return [c["card"] for f in d["fields"].values() for c in f if c], {}
        return [], {}
    if t == "looked":
        return [], {seat: [c["card"] for c in d["cards"]]}
    if t == "drawn":
        return ([d["card"]], {}) if d["source"] == "discard" else ([], {seat: [d["card"]]})
    if t in ("discarded", "thrown"):
        return [d["card"]], {}
    if t == "replaced":
        public = [o["card"] for o in d["out"]]
        if d["open"]:
            public.append(d["card"])
        return public, {seat: [d["card"]]}
    if t in ("peeked", "spied"):
        return [], {seat: [d["card"]]}
    if t == "swapped":
        return [], ({seat: [d["theirs"]["card"]]} if d["shows_received"] else {})
    if t == "penalty":
        return [], ({seat: [d["card"]]} if d["seen"] else {})
    return [], {}


def visible(preset: Preset, s: FamilyState, event: Event, seat: int | None) -> set[int]:
    public, private = shown(preset, s, event)
    out = set(public)
    if seat is not None:
        out.update(private.get(seat, ()))
    return out


def redact(value: Any, visible: set[int]) -> Any:
    if isinstance(value, list):
        return [redact(v, visible) for v in value]
    if isinstance(value, dict):
        hide = "card" in value and value["card"] not in visible
        return {
            k: redact(v, visible) for k, v in value.items() if not (hide and k in ("card", "code"))
        }
    return value
