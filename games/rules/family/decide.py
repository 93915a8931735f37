"""Deciding: a command (or a timeout) of one seat -> the events it causes, or a ``RulesError``.

Each function works on a ``Work``: a private copy of the state that evolves as
events are emitted, so later steps of one command see the earlier ones.
"""

from __future__ import annotations

from ..errors import Malformed, NotAllowed
from ..events import ACTION_TYPES, JSON, Context, Event, places
from ..evolve import Work
from ..state import State
from .legal import power_choices, targets
from .presets import Preset, RoundOutcome
from .state import FamilyState, as_family, card_data, int_arg, occupied

TURN_ACTIONS = frozenset({"draw", "discard", "replace", "peek", "spy", "swap", "skip"})


def start(preset: Preset, state: State, ctx: Context) -> list[Event]:
    w = Work(as_family(state), ctx)
    seat = w.s.options.get("start_seat")
    drawn = seat is None
    if seat is None:
        seat = ctx.chance.choice(list(range(w.s.seats)))
    _deal(preset, w, 1, seat, drawn)
    return w.events


def _deal(preset: Preset, w: Work[FamilyState], round_no: int, start: int, drawn: bool) -> None:
    deck = w.ctx.chance.deck(round_no, preset.deck(w.s.options))
    data = {"round": round_no, "deck": list(deck), "start_seat": start, "start_drawn": drawn}
    w.emit("round_started", data)
    if not preset.setup_look:
        _begin_turn(preset, w, start, None)


def decide(preset: Preset, state: State, seat: int, command: JSON, ctx: Context) -> list[Event]:
    s = as_family(state)
    kind = command.get("type")
    if kind not in ACTION_TYPES:
        raise Malformed("type: unknown action %(kind)s.", kind=repr(kind))
    w = Work(s, ctx)
    if kind == "look":
        _look(preset, w, seat, command)
    elif kind == "throw":
        _throw(preset, w, seat, command)
    elif kind == "call":
        _call(preset, w, seat)
    elif kind in TURN_ACTIONS:
        _turn_action(preset, w, seat, kind, command)
    else:
        raise NotAllowed(
            "%(ruleset)s has no %(kind)s action.",
            "not_in_ruleset",
            ruleset=preset.name,
            kind=repr(kind),
        )
    return w.events


def _look(preset: Preset, w: Work[FamilyState], seat: int, command: JSON) -> None:
    s = w.s
    if not preset.setup_look:
        raise NotAllowed(
            "%(ruleset)s has no initial look: you know slots 0 and 1 from the deal.",
            "not_in_ruleset",
            ruleset=preset.name,
        )
    positions = command.get("positions")
    if (
        not isinstance(positions, list)
        or len(positions) != 2
        or any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in positions)
        or positions[0] == positions[1]
    ):
        raise Malformed("positions: name two different slots of your field.")
    if s.phase != "setup":
        raise NotAllowed("The initial look is over.", "wrong_stage")
    if s.looked[seat]:
        raise NotAllowed("You have already looked at two of your cards.", "already_looked")
    for p in positions:
        _own_slot(preset, s, seat, p)
    _do_look(preset, w, seat, positions)


def _do_look(preset: Preset, w: Work[FamilyState], seat: int, positions: list[int]) -> None:
    s = w.s
    cards = []
    for p in positions:
        card = s.fields[seat][p]
        assert card is not None
        cards.append({"position": p, **card_data(s, card)})
    w.emit("looked", {"positions": list(positions), "cards": cards}, seat)
    if all(s.looked):
        _begin_turn(preset, w, s.start_seat, None)


def _own_slot(preset: Preset, s: FamilyState, seat: int, position: int) -> int:
    f = s.fields[seat]
    if position >= len(f):
        raise NotAllowed("Your field has no slot %(slot)s.", "no_such_slot", slot=position)
    card = f[position]
    if card is None:
        raise NotAllowed("Your slot %(slot)s is empty.", "empty_slot", slot=position)
    return card


def _their_slot(preset: Preset, s: FamilyState, seat: int, position: int) -> int:
    f = s.fields[seat]
    if position >= len(f):
        raise NotAllowed(
            "Seat %(seat)s's field has no slot %(slot)s.", "no_such_slot", seat=seat, slot=position
        )
    card = f[position]
    if card is None:
        raise NotAllowed(
            "Seat %(seat)s's slot %(slot)s is empty.", "empty_slot", seat=seat, slot=position
        )
    return card


def _turn_action(preset: Preset, w: Work[FamilyState], seat: int, kind: str, command: JSON) -> None:
    s = w.s
    if s.phase != "turn":
        raise NotAllowed(
            "Play has not begun: every player looks at two cards first.", "wrong_stage"
        )
    if seat != s.turn_seat:
        raise NotAllowed("It is seat %(seat)s's turn.", "not_your_turn", seat=s.turn_seat)
    if kind == "draw":
        source = command.get("source")
        if source not in ("deck", "discard"):
            raise Malformed('source: must be "deck" or "discard".')
        if s.stage != "draw":
            raise NotAllowed("You have already drawn this turn.", "wrong_stage")
        if source == "discard":
            if not preset.draw_discard:
                raise NotAllowed(
                    "In %(ruleset)s you draw from the draw pile only.",
                    "not_in_ruleset",
                    ruleset=preset.name,
                )
            if not s.discard:
                raise NotAllowed("The discard pile is empty.", "illegal_action")
        _draw(preset, w, seat, source)
    elif kind == "discard":
        if s.stage != "hold":
            raise NotAllowed("You hold no card to discard.", "wrong_stage")
        if preset.discard_draw_must_replace and s.held_from == "discard":
            raise NotAllowed(
                "A card taken from the discard pile must replace one of your cards.",
                "illegal_action",
            )
        _discard(preset, w, seat, with_power=True)
    elif kind == "replace":
        _replace(preset, w, seat, command)
    else:
        _power(preset, w, seat, kind, command)


def _refill(preset: Preset, w: Work[FamilyState]) -> bool:
    """Reshuffle all but the discard top into a new draw pile; False if nothing to."""
    s = w.s
    if len(s.discard) <= 1:
        return False
    order = w.ctx.chance.shuffle(s.discard[:-1])
    w.emit("reshuffled", {"order": list(order)})
    return True


def _draw(preset: Preset, w: Work[FamilyState], seat: int, source: str) -> bool:
    """Draw for the player on turn; False when the round ended on an exhausted pile."""
    s = w.s
    if source == "deck":
        if not s.draw and not _refill(preset, w):
            _end_round(preset, w, "exhausted")
            return False
        card = s.draw[0]
    else:
        card = s.discard[-1]
    w.emit("drawn", {"source": source, **card_data(s, card)}, seat)
    return True


def _discard(preset: Preset, w: Work[FamilyState], seat: int, *, with_power: bool) -> None:
    s = w.s
    card = s.held
    assert card is not None
    code = s.codes[card]
    power = None
    if with_power and s.held_from == "deck" and preset.rank(code) in preset.powers:
        kind, optional = preset.powers[preset.rank(code)]
        power = {"kind": kind, "optional": optional}
    queen = (
        preset.empty_field_queen_draws(s.options)
        and not occupied(s.fields[seat])
        and preset.rank(code) == "Q"
    )
    if queen:
        power = None  # the extra card stands in for the swap the player cannot make
    data = {"card": card, "code": code, "serial": s.serial + 1, "power": power}
    w.emit("discarded", data, seat)
    if queen:
        _penalty(preset, w, seat, "queen", seen=True)
    if power is not None:
        if power_choices(preset, s, seat):
            return  # wait for the power action
        w.emit("power_skipped", {"reason": "impossible"}, seat)
    _end_turn(preset, w)


def _replace(preset: Preset, w: Work[FamilyState], seat: int, command: JSON) -> None:
    s, p = w.s, preset
    positions = command.get("positions")
    if (
        not isinstance(positions, list)
        or not positions
        or any(isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in positions)
        or len(set(positions)) != len(positions)
    ):
        raise Malformed("positions: name one or more different slots of your field.")
    if len(positions) > 1:
        if p.multi_replace == "none":
            raise NotAllowed(
                "In %(ruleset)s you replace one card at a time.",
                "not_in_ruleset",
                ruleset=preset.name,
            )
        if p.multi_replace == "pairs" and len(positions) > 4:
            raise Malformed("positions: a pair, triple or quadruple names 2 to 4 slots.")
    if s.stage != "hold":
        raise NotAllowed("You hold no card to replace with.", "wrong_stage")
    if len(positions) > 1 and s.held_from == "discard" and p.discard_draw_must_replace:
        raise NotAllowed(
            "A card taken from the discard pile replaces exactly one slot.", "illegal_action"
        )
    cards = [_own_slot(preset, s, seat, x) for x in positions]
    held = s.held
    assert held is not None
    correct = len({p.rank(s.codes[c]) for c in cards}) == 1
    new_position = None
    open_ = s.held_from == "discard"
    serial = s.serial
    if correct:
        serial += len(cards)
    elif p.multi_replace == "pairs":
        new_position = len(s.fields[seat])
    else:  # "equal": the held card goes face up onto the pile instead
        open_ = True
        serial += 1
    data = {
        "positions": list(positions),
        "card": held,
        "code": s.codes[held],
        "open": open_,
        "correct": correct,
        "out": [{"position": x, **card_data(s, c)} for x, c in zip(positions, cards, strict=True)],
        "new_position": new_position,
        "serial": serial,
    }
    w.emit("replaced", data, seat)
    _end_turn(preset, w)


def _power(preset: Preset, w: Work[FamilyState], seat: int, kind: str, command: JSON) -> None:
    s = w.s
    if kind == "skip":
        if s.stage != "power" or s.power is None:
            raise NotAllowed("There is no power to skip.", "wrong_stage")
        if not s.power["optional"] and power_choices(preset, s, seat):
            raise NotAllowed("This power is mandatory: carry it out.", "illegal_action")
        w.emit("power_skipped", {"reason": "skipped"}, seat)
        _end_turn(preset, w)
        return
    position = int_arg(command, "position")
    target = None
    if kind in ("spy", "swap"):
        target = int_arg(command, "seat")
        if target == seat:
            raise Malformed("seat: %(kind)s targets another player's card.", kind=kind)
    their_position = int_arg(command, "their_position") if kind == "swap" else 0
    power = s.power
    allowed = {
        "peek": ("peek",),
        "spy": ("spy", "spy_swap"),
        "swap": ("swap", "spy_swap"),
    }[kind]
    if s.stage != "power" or power is None:
        raise NotAllowed(
            "You have no power to use now: %(kind)s is not possible.", "wrong_stage", kind=kind
        )
    if power["kind"] not in allowed:
        raise NotAllowed("The card you discarded gives no %(kind)s power.", "no_power", kind=kind)
    if kind == "spy" and power.get("spied"):
        raise NotAllowed("You have already spied with this card.", "no_power")
    if kind == "peek":
        card = _own_slot(preset, s, seat, position)
        w.emit("peeked", {"position": position, **card_data(s, card)}, seat)
        _end_turn(preset, w)
    elif kind == "spy":
        assert target is not None
        card = _their_slot(preset, s, target, position)
        w.emit("spied", {"seat": target, "position": position, **card_data(s, card)}, seat)
        if power["kind"] == "spy_swap":
            if power_choices(preset, w.s, seat):
                return
            w.emit("power_skipped", {"reason": "impossible"}, seat)
        _end_turn(preset, w)
    else:
        assert target is not None
        if preset.protect_caller and target in s.callers:
            raise NotAllowed(
                "Seat %(seat)s called and is protected from swaps.", "protected_target", seat=target
            )
        mine = _own_slot(preset, s, seat, position)
        theirs = _their_slot(preset, s, target, their_position)
        _swap(preset, w, seat, position, target, their_position, mine, theirs)
        _end_turn(preset, w)


def _swap(
    preset: Preset,
    w: Work[FamilyState],
    seat: int,
    position: int,
    target: int,
    their: int,
    mine: int,
    theirs: int,
) -> None:
    s = w.s
    data = {
        "position": position,
        "seat": target,
        "their_position": their,
        "mine": card_data(s, mine),
        "theirs": card_data(s, theirs),
        "shows_received": preset.swap_shows_received,
    }
    w.emit("swapped", data, seat)


def _throw(preset: Preset, w: Work[FamilyState], seat: int, command: JSON) -> None:
    s, p = w.s, preset
    target = int_arg(command, "seat")
    position = int_arg(command, "position")
    onto = int_arg(command, "onto")
    give = command.get("give_position")
    if give is not None:
        give = int_arg(command, "give_position")
        if target == seat:
            raise Malformed("give_position: only with another player's card.")
    if p.throwing == "none":
        raise NotAllowed("%(ruleset)s has no throwing.", "not_in_ruleset", ruleset=preset.name)
    if s.phase != "turn":
        raise NotAllowed("Throwing starts when play begins.", "wrong_stage")
    if not s.discard:
        raise NotAllowed("The discard pile is empty: nothing to throw onto.", "no_open_match")
    if onto != s.serial:
        raise NotAllowed(
            "The discard pile has moved on: its top is now number %(serial)s.",
            "stale_discard",
            serial=s.serial,
        )
    if p.throwing == "match" and not s.match_open:
        raise NotAllowed("This discard has already been matched.", "no_open_match")
    if p.protect_caller and target != seat and target in s.callers:
        raise NotAllowed(
            "Seat %(seat)s called: their cards are protected.", "protected_target", seat=target
        )
    card = (
        _their_slot(preset, s, target, position)
        if target != seat
        else _own_slot(preset, s, seat, position)
    )
    given = None
    if give is not None:
        given = _own_slot(preset, s, seat, give)
    top = s.discard[-1]
    correct = p.rank(s.codes[card]) == p.rank(s.codes[top])
    data = {
        "seat": target,
        "position": position,
        "onto": onto,
        **card_data(s, card),
        "correct": correct,
        "serial": s.serial + 1 if correct else s.serial,
        "give_position": give if correct else None,
        "given": card_data(s, given) if correct and given is not None else None,
    }
    w.emit("thrown", data, seat)
    if not correct:
        _penalty(preset, w, seat, "wrong_throw", seen=p.penalty_seen)
    elif p.empty_field_ends_round and any(not occupied(f) for f in s.fields):
        _end_round(preset, w, "empty_field")


def _penalty(preset: Preset, w: Work[FamilyState], seat: int, reason: str, *, seen: bool) -> None:
    """A card from the draw pile into a new slot of ``seat`` (none left: nothing)."""
    s = w.s
    if not s.draw and not _refill(preset, w):
        return
    card = s.draw[0]
    data = {
        "reason": reason,
        **card_data(s, card),
        "position": len(s.fields[seat]),
        "seen": seen,
    }
    w.emit("penalty", data, seat)


def _call(preset: Preset, w: Work[FamilyState], seat: int) -> None:
    s, p = w.s, preset
    if s.phase != "turn":
        raise NotAllowed("You can call only during play.", "cannot_call")
    if seat in s.callers or (s.callers and not p.multiple_callers):
        raise NotAllowed("This round has already been called.", "already_called")
    if p.call_when == "instead_of_draw":
        if seat != s.turn_seat:
            raise NotAllowed("It is seat %(seat)s's turn.", "not_your_turn", seat=s.turn_seat)
        if s.stage != "draw":
            raise NotAllowed("Call instead of drawing, at the start of your turn.", "cannot_call")
        w.emit("called", {}, seat)
        _end_turn(preset, w)
        return
    if s.call_window != seat:
        raise NotAllowed(
            "You may call right after your own turn, before the next player draws.",
            "cannot_call",
        )
    w.emit("called", {}, seat)


def _begin_turn(preset: Preset, w: Work[FamilyState], seat: int, may_call: int | None) -> None:
    w.emit("turn_started", {"seat": seat, "turn": w.s.turn_no + 1, "may_call": may_call})


def _end_turn(preset: Preset, w: Work[FamilyState]) -> None:
    s, p = w.s, preset
    seat = s.turn_seat
    assert seat is not None
    nxt = (seat + 1) % s.seats
    if s.callers:
        first = s.callers[0]
        if (p.round_end == "caller_turn" and seat == first) or (
            p.round_end == "back_to_caller" and nxt == first
        ):
            _end_round(preset, w, "call")
            return
    may_call = seat if p.call_when == "after_turn" else None
    _begin_turn(preset, w, nxt, may_call)


def _end_round(preset: Preset, w: Work[FamilyState], reason: str) -> None:
    s, p = w.s, preset
    values = [[p.value(s.codes[c]) for c in f if c is not None] for f in s.fields]
    totals = [sum(v) for v in values]
    callers = [] if reason == "exhausted" else list(s.callers)
    scores, winners = p.score(RoundOutcome(totals, callers, reason, values))
    game = [p.adjust_total(s.scores[i] + scores[i]) for i in range(s.seats)]
    data = {
        "round": s.round,
        "reason": reason,
        "fields": {
            str(i): [None if c is None else card_data(s, c) for c in f]
            for i, f in enumerate(s.fields)
        },
        "totals": {str(i): t for i, t in enumerate(totals)},
        "scores": {str(i): t for i, t in enumerate(scores)},
        "game_totals": {str(i): t for i, t in enumerate(game)},
        "winners": list(winners),
    }
    w.emit("round_ended", data)
    if p.game_over(game, s.options):
        winners_, losers = p.result(game, s.options)
        # Winners first, then the others, losers last, each by the lower game total.
        keys = [(0 if i in winners_ else 2 if i in losers else 1, game[i]) for i in range(s.seats)]
        w.emit(
            "game_finished",
            {"winners": winners_, "losers": losers, "places": places(keys), "points": game},
        )
        return
    candidates = p.next_start(s.start_seat, totals, game, list(winners), s.seats)
    if len(candidates) == 1:
        _deal(preset, w, s.round + 1, candidates[0], False)
    else:
        _deal(preset, w, s.round + 1, w.ctx.chance.choice(candidates), True)


def actors(preset: Preset, state: State) -> list[int]:
    s = as_family(state)
    if s.status != "active":
        return []
    if s.phase == "setup":
        return [i for i in range(s.seats) if not s.looked[i]]
    if s.turn_seat is None or s.stage == "done":
        return []
    return [s.turn_seat]


def turn_key(preset: Preset, state: State) -> str | None:
    s = as_family(state)
    if s.status != "active" or s.round == 0:
        return None
    if s.phase == "setup":
        return f"r{s.round}:setup"
    return f"r{s.round}:t{s.turn_no}"


def timeout(preset: Preset, state: State, seat: int, ctx: Context) -> list[Event]:
    w = Work(as_family(state), ctx)
    s = w.s
    if s.phase == "setup":
        if not s.looked[seat]:
            _do_look(preset, w, seat, [0, 1])
        return w.events
    if seat != s.turn_seat:
        return w.events
    if s.stage == "draw":
        if _draw(preset, w, seat, "deck"):
            _discard(preset, w, seat, with_power=False)
    elif s.stage == "hold":
        _discard(preset, w, seat, with_power=False)
    elif s.stage == "power":
        assert s.power is not None
        auto = None
        if s.power["kind"] == "swap" and not s.power["optional"]:
            auto = _auto_swap(preset, s, seat)
        if auto is None:
            w.emit("power_skipped", {"reason": "timeout"}, seat)
        else:
            position, target, their = auto
            mine, theirs = s.fields[seat][position], s.fields[target][their]
            assert mine is not None and theirs is not None
            _swap(preset, w, seat, position, target, their, mine, theirs)
        _end_turn(preset, w)
    return w.events


def _auto_swap(preset: Preset, s: FamilyState, seat: int) -> tuple[int, int, int] | None:
    """Timeout swap: own lowest slot with the first targetable seat's lowest slot."""
    own = occupied(s.fields[seat])
    if not own:
        return None
    open_targets = targets(preset, s, seat, swap=True)
    for step in range(1, s.seats):
        t = (seat + step) % s.seats
        if t in open_targets:
            return own[0], t, open_targets[t][0]
    return None
