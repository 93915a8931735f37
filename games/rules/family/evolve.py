"""Evolving: each event's handler on a ``FamilyState``, and what it teaches each seat."""

from __future__ import annotations

from .. import round_reveal
from ..events import JSON, Event
from ..evolve import Handlers
from ..state import State
from .knowledge import shown
from .presets import Preset
from .state import SLOTS, FamilyState, as_family

_ON = Handlers("family")


def apply(preset: Preset, state: State, event: Event) -> None:
    s = as_family(state)
    d = event.data
    _ON[event.type](preset, s, event.seat, d)
    public, private = shown(preset, s, event)
    if public:
        for k in s.known:
            k.update(public)
    for seat, cards in private.items():
        s.known[seat].update(cards)


@_ON.on("round_started")
def _on_round_started(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    n = s.seats
    s.round = d["round"]
    s.codes = list(d["deck"])
    s.fields = [[SLOTS * i + k for k in range(SLOTS)] for i in range(n)]
    s.discard = [SLOTS * n]
    s.serial = 1
    s.draw = list(range(SLOTS * n + 1, len(s.codes)))
    s.held = s.held_from = s.turn_seat = None
    s.stage = "look"
    s.turn_no = 0
    s.start_seat = d["start_seat"]
    s.phase = "setup"
    s.looked = [not preset.setup_look] * n
    s.known = [set() for _ in range(n + 1)]
    s.power = None
    s.callers = []
    s.call_window = None
    s.match_open = preset.throwing == "match"


@_ON.on("looked")
def _on_looked(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    assert seat is not None
    s.looked[seat] = True


@_ON.on("turn_started")
def _on_turn_started(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    s.phase = "turn"
    s.turn_seat = d["seat"]
    s.turn_no = d["turn"]
    s.stage = "draw"
    s.held = s.held_from = None
    s.power = None
    s.call_window = d["may_call"]


@_ON.on("drawn")
def _on_drawn(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    card = s.draw.pop(0) if d["source"] == "deck" else s.discard.pop()
    assert card == d["card"]
    s.held = card
    s.held_from = d["source"]
    s.stage = "hold"
    s.call_window = None


@_ON.on("reshuffled")
def _on_reshuffled(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    order = list(d["order"])
    s.draw = order
    s.discard = s.discard[-1:]
    gone = set(order)
    for k in s.known:
        k.difference_update(gone)


@_ON.on("discarded")
def _on_discarded(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    s.discard.append(d["card"])
    s.serial = d["serial"]
    s.held = s.held_from = None
    if preset.throwing == "match":
        s.match_open = True
    power = d["power"]
    if power is not None:
        s.power = {"kind": power["kind"], "optional": power["optional"], "spied": False}
        s.stage = "power"
    else:
        s.stage = "done"


@_ON.on("replaced")
def _on_replaced(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    assert seat is not None
    f = s.fields[seat]
    held = d["card"]
    if d["correct"]:
        for out in d["out"]:
            f[out["position"]] = None
            s.discard.append(out["card"])
        f[d["positions"][0]] = held
        if preset.throwing == "match":
            s.match_open = True
    elif d["new_position"] is not None:
        f.append(held)
    else:
        s.discard.append(held)
    s.serial = d["serial"]
    s.held = s.held_from = None
    s.stage = "done"


@_ON.on("peeked")
def _on_peeked(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    s.power = None
    s.stage = "done"


@_ON.on("spied")
def _on_spied(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    if s.power is not None and s.power["kind"] == "spy_swap":
        s.power["spied"] = True
    else:
        s.power = None
        s.stage = "done"


@_ON.on("swapped")
def _on_swapped(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    assert seat is not None
    mine, theirs = d["mine"]["card"], d["theirs"]["card"]
    s.fields[seat][d["position"]] = theirs
    s.fields[d["seat"]][d["their_position"]] = mine
    s.power = None
    s.stage = "done"


@_ON.on("power_skipped")
def _on_power_skipped(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    s.power = None
    s.stage = "done"


@_ON.on("thrown")
def _on_thrown(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    assert seat is not None
    if not d["correct"]:
        return
    s.fields[d["seat"]][d["position"]] = None
    s.discard.append(d["card"])
    s.serial = d["serial"]
    if preset.throwing == "match":
        s.match_open = False
    if d["given"] is not None:
        s.fields[seat][d["give_position"]] = None
        s.fields[d["seat"]][d["position"]] = d["given"]["card"]


@_ON.on("penalty")
def _on_penalty(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    assert seat is not None
    card = s.draw.pop(0)
    assert card == d["card"]
    s.fields[seat].append(card)


@_ON.on("called")
def _on_called(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    assert seat is not None
    s.callers.append(seat)
    s.call_window = None
    if preset.call_when == "instead_of_draw":
        s.stage = "done"


@_ON.on("round_ended")
def _on_round_ended(preset: Preset, s: FamilyState, seat: int | None, d: JSON) -> None:
    s.scores = [d["game_totals"][str(i)] for i in range(s.seats)]
    s.rounds.append({"round": d["round"], "totals": d["totals"], "scores": d["scores"]})
    s.reveal = round_reveal.round_reveal(s.ruleset, s.callers, d, preset.value)
    s.stage = "done"
    s.held = s.held_from = None
    s.power = None
    s.call_window = None
