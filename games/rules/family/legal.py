"""What a seat may do now (``legal_actions``), and the choices a power or a throw offers."""

from __future__ import annotations

from itertools import combinations

from ..events import JSON
from ..state import State
from .presets import Preset
from .state import FamilyState, as_family, occupied


def legal_actions(preset: Preset, state: State, seat: int | None) -> list[JSON]:
    s = as_family(state)
    p = preset
    if seat is None or s.status != "active":
        return []
    out: list[JSON] = []
    if s.phase == "setup":
        if p.setup_look and not s.looked[seat]:
            pairs = [list(c) for c in combinations(occupied(s.fields[seat]), 2)]
            out.append({"type": "look", "choices": {"positions": pairs}})
        return out
    if s.phase != "turn":
        return out
    if seat == s.turn_seat:
        out += _own_turn_actions(preset, s, seat)
    if (
        p.call_when == "after_turn"
        and s.call_window == seat
        and seat not in s.callers
        and (p.multiple_callers or not s.callers)
    ):
        out.append({"type": "call"})
    if match_open(preset, s):
        serial = s.serial
        protected = s.callers if p.protect_caller else ()
        out += [
            {"type": "throw", "seat": t, "position": pos, "onto": serial}
            for t, field in enumerate(s.fields)
            if t == seat or t not in protected
            for pos, card in enumerate(field)
            if card is not None
        ]
    return out


def _own_turn_actions(preset: Preset, s: FamilyState, seat: int) -> list[JSON]:
    p = preset
    out: list[JSON] = []
    if s.stage == "draw":
        out.append({"type": "draw", "source": "deck"})
        if p.draw_discard and s.discard:
            out.append({"type": "draw", "source": "discard"})
        if p.call_when == "instead_of_draw" and not s.callers:
            out.append({"type": "call"})
    elif s.stage == "hold":
        if not (p.discard_draw_must_replace and s.held_from == "discard"):
            out.append({"type": "discard"})
        own = occupied(s.fields[seat])
        choices = [[x] for x in own]
        multi = p.multi_replace != "none" and not (
            p.discard_draw_must_replace and s.held_from == "discard"
        )
        if multi:
            top = 4 if p.multi_replace == "pairs" else len(own)
            for size in range(2, min(top, len(own)) + 1):
                choices += [list(c) for c in combinations(own, size)]
        if choices:
            out.append({"type": "replace", "choices": {"positions": choices}})
    elif s.stage == "power" and s.power is not None:
        choices_ = power_choices(preset, s, seat)
        out += choices_
        if s.power["optional"] or not choices_:
            out.append({"type": "skip"})
    return out


def targets(preset: Preset, s: FamilyState, seat: int, *, swap: bool) -> dict[int, list[int]]:
    """Other seats' occupied slots that a spy (or a swap) may target."""
    out = {}
    for t in range(s.seats):
        if t == seat:
            continue
        if swap and preset.protect_caller and t in s.callers:
            continue
        slots = occupied(s.fields[t])
        if slots:
            out[t] = slots
    return out


def power_choices(preset: Preset, s: FamilyState, seat: int) -> list[JSON]:
    """The power actions ``seat`` can carry out now (without ``skip``)."""
    power = s.power
    if power is None:
        return []
    kind = power["kind"]
    own = occupied(s.fields[seat])
    out: list[JSON] = []
    if kind == "peek" and own:
        out.append({"type": "peek", "choices": {"position": own}})
    if kind == "spy" or (kind == "spy_swap" and not power.get("spied")):
        for t, slots in targets(preset, s, seat, swap=False).items():
            out.append({"type": "spy", "seat": t, "choices": {"position": slots}})
    if kind in ("swap", "spy_swap") and own:
        for t, slots in targets(preset, s, seat, swap=True).items():
            out.append(
                {
                    "type": "swap",
                    "seat": t,
                    "choices": {"position": own, "their_position": slots},
                }
            )
    return out


def match_open(preset: Preset, s: FamilyState) -> bool:
    if preset.throwing == "none" or s.phase != "turn" or not s.discard:
        return False
    return s.match_open if preset.throwing == "match" else True
