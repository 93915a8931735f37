"""The Pablo family (pablo, pablo-50, tamalou, cabo): one engine, four presets.

The rules of docs/rules.md. Everything that differs between the rulesets is a field
or a small function of ``family_presets.Preset``; this module plays any of
them. docs/rules.md lists the differences and the decisions taken here.

Card ids are indexes into the round's dealt deck (recorded in
``round_started``). Deal order: seat 0 gets ids 0-3 in slots 0-3, seat 1 ids
4-7, ...; id ``4 * seats`` is turned up as the discard pile; the rest is the
draw pile, top first.

Events (all carry the truth; ``event_view`` redacts). A card is written as
``{"card": id, "code": code}`` (or flat ``"card"``/``"code"`` keys); redaction
drops both keys where the viewer did not see the card in that event.

===============  ==================================================================
event            data
===============  ==================================================================
round_started    ``{"round", "deck": [codes], "start_seat", "start_drawn"}``; others see
                 ``deck_count``, the face-up ``discard`` and (tamalou) their own ``seen``
looked           ``{"positions", "cards": [{"position", "card", "code"}]}`` (setup look)
turn_started     ``{"seat", "turn", "may_call"}``: ``may_call`` = the seat whose call
                 window is open (the previous player) or null
drawn            ``{"source": "deck" | "discard", "card", "code"}``
reshuffled       ``{"order": [ids]}`` the new draw pile, top first; others see ``count``
discarded        ``{"card", "code", "serial", "power": {"kind", "optional"} | null}``
replaced         ``{"positions", "card", "code", "open", "correct", "out": [{"position",
                 "card", "code"}], "new_position", "serial"}``
peeked           ``{"position", "card", "code"}``
spied            ``{"seat", "position", "card", "code"}``
swapped          ``{"position", "seat", "their_position", "mine": {card}, "theirs": {card},
                 "shows_received"}``
power_skipped    ``{"reason": "skipped" | "impossible" | "timeout"}``
thrown           ``{"seat", "position", "onto", "card", "code", "correct", "serial",
                 "give_position", "given": {card} | null}``
penalty          ``{"reason": "wrong_throw" | "queen", "card", "code", "position", "seen"}``
called           ``{}``
round_ended      ``{"round", "reason", "fields": {seat: [{card} | null]}, "totals",
                 "scores", "game_totals", "winners"}`` (every card turned face up)
===============  ==================================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar, cast

from . import engine, round_reveal
from .engine import JSON, Context, Event, Handlers, Malformed, NotAllowed, Option, State, Work
from .family_presets import PRESETS, Preset, RoundOutcome

SLOTS = 4  # dealt per player
TURN_ACTIONS = frozenset({"draw", "discard", "replace", "peek", "spy", "swap", "skip"})


@dataclass
class FamilyState(State):
    round: int = 0
    phase: str = "setup"  # setup | turn (the view says "over" once the game ended)
    codes: list[str] = field(default_factory=list)  # card id -> code, this round
    fields: list[list[int | None]] = field(default_factory=list)
    draw: list[int] = field(default_factory=list)  # top first
    discard: list[int] = field(default_factory=list)  # bottom -> top
    serial: int = 0
    held: int | None = None
    held_from: str | None = None  # deck | discard
    turn_seat: int | None = None
    stage: str = "look"  # look | draw | hold | power | done (between events of one action)
    turn_no: int = 0
    start_seat: int = 0
    looked: list[bool] = field(default_factory=list)
    #: per seat, then one more for the public (non-players): card ids they know
    known: list[set[int]] = field(default_factory=list)
    power: JSON | None = None  # {"kind", "optional", "spied"}
    callers: list[int] = field(default_factory=list)
    call_window: int | None = None
    match_open: bool = False
    rounds: list[JSON] = field(default_factory=list)
    #: The last finished round with every card face up (games/rules/round_reveal.py).
    reveal: JSON | None = None

    #: ``codes`` is only replaced (each round): ``copy`` shares it.
    SHARED: ClassVar[frozenset[str]] = State.SHARED | {"codes"}


_ON = Handlers("family")


def _fs(state: State) -> FamilyState:
    return cast(FamilyState, state)


def _occupied(f: Sequence[int | None]) -> list[int]:
    return [p for p, c in enumerate(f) if c is not None]


def _card(s: FamilyState, card: int) -> JSON:
    return {"card": card, "code": s.codes[card]}


def _int(command: JSON, name: str) -> int:
    value = command.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Malformed(f"{name}: must be a non-negative integer.")
    return value


class Family:
    #: Documented in the OpenAPI schema (the event feed's ``type``).
    event_types = {
        "round_started": "a round was dealt; the deck is shown to nobody in the feed",
        "looked": "setup: a player looked at two of their own slots",
        "turn_started": "a player's turn began (`may_call`: whose call window is open)",
        "drawn": "the player on turn drew from the deck or took the discard top",
        "reshuffled": "the discard pile (but its top) became the new draw pile",
        "discarded": "the held card went onto the discard pile (`power` if it has one)",
        "replaced": "the held card replaced one or more field slots",
        "peeked": "power: the actor looked at one of their own cards",
        "spied": "power: the actor looked at another player's card",
        "swapped": "power: two cards changed places between fields",
        "power_skipped": "a power was skipped (by choice, impossible, or on timeout)",
        "thrown": "a card was thrown onto the discard pile (`correct` or not)",
        "penalty": "a penalty card went into a new slot",
        "called": "the player called (Pablo / Cabo)",
        "round_ended": "the round was scored; every field card is shown",
    }

    """One Pablo-family ruleset: the shared engine driven by a ``Preset``."""

    def __init__(self, preset: Preset) -> None:
        self.preset = preset
        self.id = preset.id
        self.name = preset.name
        self.min_players = preset.min_players
        self.options: dict[str, Option] = dict(preset.options)

    # ----------------------------------------------------------------- set-up

    def max_players(self, options: JSON) -> int:
        return self.preset.max_players(options)

    @property
    def max_players_any(self) -> int:
        return self.preset.max_players_any

    def check_options(self, seats: int, options: JSON) -> None:
        self.preset.check_options(seats, options)

    def deck(self, options: JSON) -> list[str]:
        return self.preset.deck(options)

    def initial_state(self, header: JSON) -> FamilyState:
        return engine.base_header(FamilyState, header)

    def start(self, state: State, ctx: Context) -> list[Event]:
        w = Work(_fs(state), ctx)
        seat = w.s.options.get("start_seat")
        drawn = seat is None
        if seat is None:
            seat = ctx.chance.choice(list(range(w.s.seats)))
        self._deal(w, 1, seat, drawn)
        return w.events

    def _deal(self, w: Work[FamilyState], round_no: int, start: int, drawn: bool) -> None:
        deck = w.ctx.chance.deck(round_no, self.preset.deck(w.s.options))
        data = {"round": round_no, "deck": list(deck), "start_seat": start, "start_drawn": drawn}
        w.emit("round_started", data)
        if not self.preset.setup_look:
            self._begin_turn(w, start, None)

    # ----------------------------------------------------------------- deciding

    def decide(self, state: State, seat: int, command: JSON, ctx: Context) -> list[Event]:
        s = _fs(state)
        kind = command.get("type")
        if kind not in engine.ACTION_TYPES:
            raise Malformed(f"type: unknown action {kind!r}.")
        w = Work(s, ctx)
        if kind == "look":
            self._look(w, seat, command)
        elif kind == "throw":
            self._throw(w, seat, command)
        elif kind == "call":
            self._call(w, seat)
        elif kind in TURN_ACTIONS:
            self._turn_action(w, seat, kind, command)
        else:
            raise NotAllowed(f"{self.name} has no {kind!r} action.", "not_in_ruleset")
        return w.events

    def _look(self, w: Work[FamilyState], seat: int, command: JSON) -> None:
        s = w.s
        if not self.preset.setup_look:
            raise NotAllowed(
                f"{self.name} has no initial look: you know slots 0 and 1 from the deal.",
                "not_in_ruleset",
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
            self._own_slot(s, seat, p)
        self._do_look(w, seat, positions)

    def _do_look(self, w: Work[FamilyState], seat: int, positions: list[int]) -> None:
        s = w.s
        cards = []
        for p in positions:
            card = s.fields[seat][p]
            assert card is not None
            cards.append({"position": p, **_card(s, card)})
        w.emit("looked", {"positions": list(positions), "cards": cards}, seat)
        if all(s.looked):
            self._begin_turn(w, s.start_seat, None)

    def _own_slot(self, s: FamilyState, seat: int, position: int, what: str = "Your") -> int:
        f = s.fields[seat]
        if position >= len(f):
            raise NotAllowed(f"{what} field has no slot {position}.", "no_such_slot")
        card = f[position]
        if card is None:
            raise NotAllowed(f"{what} slot {position} is empty.", "empty_slot")
        return card

    def _their_slot(self, s: FamilyState, seat: int, position: int) -> int:
        return self._own_slot(s, seat, position, f"Seat {seat}'s")

    def _turn_action(self, w: Work[FamilyState], seat: int, kind: str, command: JSON) -> None:
        s = w.s
        if s.phase != "turn":
            raise NotAllowed(
                "Play has not begun: every player looks at two cards first.", "wrong_stage"
            )
        if seat != s.turn_seat:
            raise NotAllowed(f"It is seat {s.turn_seat}'s turn.", "not_your_turn")
        if kind == "draw":
            source = command.get("source")
            if source not in ("deck", "discard"):
                raise Malformed('source: must be "deck" or "discard".')
            if s.stage != "draw":
                raise NotAllowed("You have already drawn this turn.", "wrong_stage")
            if source == "discard":
                if not self.preset.draw_discard:
                    raise NotAllowed(
                        f"In {self.name} you draw from the draw pile only.", "not_in_ruleset"
                    )
                if not s.discard:
                    raise NotAllowed("The discard pile is empty.", "illegal_action")
            self._draw(w, seat, source)
        elif kind == "discard":
            if s.stage != "hold":
                raise NotAllowed("You hold no card to discard.", "wrong_stage")
            if self.preset.discard_draw_must_replace and s.held_from == "discard":
                raise NotAllowed(
                    "A card taken from the discard pile must replace one of your cards.",
                    "illegal_action",
                )
            self._discard(w, seat, with_power=True)
        elif kind == "replace":
            self._replace(w, seat, command)
        else:
            self._power(w, seat, kind, command)

    # -- drawing, discarding, replacing

    def _refill(self, w: Work[FamilyState]) -> bool:
        """Reshuffle all but the discard top into a new draw pile; False if nothing to."""
        s = w.s
        if len(s.discard) <= 1:
            return False
        order = w.ctx.chance.shuffle(s.discard[:-1])
        w.emit("reshuffled", {"order": list(order)})
        return True

    def _draw(self, w: Work[FamilyState], seat: int, source: str) -> bool:
        """Draw for the player on turn; False when the round ended on an exhausted pile."""
        s = w.s
        if source == "deck":
            if not s.draw and not self._refill(w):
                self._end_round(w, "exhausted")
                return False
            card = s.draw[0]
        else:
            card = s.discard[-1]
        w.emit("drawn", {"source": source, **_card(s, card)}, seat)
        return True

    def _discard(self, w: Work[FamilyState], seat: int, *, with_power: bool) -> None:
        s = w.s
        card = s.held
        assert card is not None
        code = s.codes[card]
        power = None
        if with_power and s.held_from == "deck" and self.preset.rank(code) in self.preset.powers:
            kind, optional = self.preset.powers[self.preset.rank(code)]
            power = {"kind": kind, "optional": optional}
        queen = (
            self.preset.empty_field_queen_draws(s.options)
            and not _occupied(s.fields[seat])
            and self.preset.rank(code) == "Q"
        )
        if queen:
            power = None  # the extra card stands in for the swap the player cannot make
        data = {"card": card, "code": code, "serial": s.serial + 1, "power": power}
        w.emit("discarded", data, seat)
        if queen:
            self._penalty(w, seat, "queen", seen=True)
        if power is not None:
            if self._power_choices(s, seat):
                return  # wait for the power action
            w.emit("power_skipped", {"reason": "impossible"}, seat)
        self._end_turn(w)

    def _replace(self, w: Work[FamilyState], seat: int, command: JSON) -> None:
        s, p = w.s, self.preset
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
                    f"In {self.name} you replace one card at a time.", "not_in_ruleset"
                )
            if p.multi_replace == "pairs" and len(positions) > 4:
                raise Malformed("positions: a pair, triple or quadruple names 2 to 4 slots.")
        if s.stage != "hold":
            raise NotAllowed("You hold no card to replace with.", "wrong_stage")
        if len(positions) > 1 and s.held_from == "discard" and p.discard_draw_must_replace:
            raise NotAllowed(
                "A card taken from the discard pile replaces exactly one slot.", "illegal_action"
            )
        cards = [self._own_slot(s, seat, x) for x in positions]
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
            "out": [{"position": x, **_card(s, c)} for x, c in zip(positions, cards, strict=True)],
            "new_position": new_position,
            "serial": serial,
        }
        w.emit("replaced", data, seat)
        self._end_turn(w)

    # -- powers

    def _targets(self, s: FamilyState, seat: int, *, swap: bool) -> dict[int, list[int]]:
        """Other seats' occupied slots that a spy (or a swap) may target."""
        out = {}
        for t in range(s.seats):
            if t == seat:
                continue
            if swap and self.preset.protect_caller and t in s.callers:
                continue
            slots = _occupied(s.fields[t])
            if slots:
                out[t] = slots
        return out

    def _power_choices(self, s: FamilyState, seat: int) -> list[JSON]:
        """The power actions ``seat`` can carry out now (without ``skip``)."""
        power = s.power
        if power is None:
            return []
        kind = power["kind"]
        own = _occupied(s.fields[seat])
        out: list[JSON] = []
        if kind == "peek" and own:
            out.append({"type": "peek", "choices": {"position": own}})
        if kind == "spy" or (kind == "spy_swap" and not power.get("spied")):
            for t, slots in self._targets(s, seat, swap=False).items():
                out.append({"type": "spy", "seat": t, "choices": {"position": slots}})
        if kind in ("swap", "spy_swap") and own:
            for t, slots in self._targets(s, seat, swap=True).items():
                out.append(
                    {
                        "type": "swap",
                        "seat": t,
                        "choices": {"position": own, "their_position": slots},
                    }
                )
        return out

    def _power(self, w: Work[FamilyState], seat: int, kind: str, command: JSON) -> None:
        s = w.s
        if kind == "skip":
            if s.stage != "power" or s.power is None:
                raise NotAllowed("There is no power to skip.", "wrong_stage")
            if not s.power["optional"] and self._power_choices(s, seat):
                raise NotAllowed("This power is mandatory: carry it out.", "illegal_action")
            w.emit("power_skipped", {"reason": "skipped"}, seat)
            self._end_turn(w)
            return
        position = _int(command, "position")
        target = None
        if kind in ("spy", "swap"):
            target = _int(command, "seat")
            if target == seat:
                raise Malformed(f"seat: {kind} targets another player's card.")
        their_position = _int(command, "their_position") if kind == "swap" else 0
        power = s.power
        allowed = {
            "peek": ("peek",),
            "spy": ("spy", "spy_swap"),
            "swap": ("swap", "spy_swap"),
        }[kind]
        if s.stage != "power" or power is None:
            raise NotAllowed(
                f"You have no power to use now: {kind} is not possible.", "wrong_stage"
            )
        if power["kind"] not in allowed:
            raise NotAllowed(f"The card you discarded gives no {kind} power.", "no_power")
        if kind == "spy" and power.get("spied"):
            raise NotAllowed("You have already spied with this card.", "no_power")
        if kind == "peek":
            card = self._own_slot(s, seat, position)
            w.emit("peeked", {"position": position, **_card(s, card)}, seat)
            self._end_turn(w)
        elif kind == "spy":
            assert target is not None
            card = self._their_slot(s, target, position)
            w.emit("spied", {"seat": target, "position": position, **_card(s, card)}, seat)
            if power["kind"] == "spy_swap":
                if self._power_choices(w.s, seat):
                    return
                w.emit("power_skipped", {"reason": "impossible"}, seat)
            self._end_turn(w)
        else:
            assert target is not None
            if self.preset.protect_caller and target in s.callers:
                raise NotAllowed(
                    f"Seat {target} called and is protected from swaps.", "protected_target"
                )
            mine = self._own_slot(s, seat, position)
            theirs = self._their_slot(s, target, their_position)
            self._swap(w, seat, position, target, their_position, mine, theirs)
            self._end_turn(w)

    def _swap(
        self,
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
            "mine": _card(s, mine),
            "theirs": _card(s, theirs),
            "shows_received": self.preset.swap_shows_received,
        }
        w.emit("swapped", data, seat)

    # -- throwing

    def _throw(self, w: Work[FamilyState], seat: int, command: JSON) -> None:
        s, p = w.s, self.preset
        target = _int(command, "seat")
        position = _int(command, "position")
        onto = _int(command, "onto")
        give = command.get("give_position")
        if give is not None:
            give = _int(command, "give_position")
            if target == seat:
                raise Malformed("give_position: only with another player's card.")
        if p.throwing == "none":
            raise NotAllowed(f"{self.name} has no throwing.", "not_in_ruleset")
        if s.phase != "turn":
            raise NotAllowed("Throwing starts when play begins.", "wrong_stage")
        if not s.discard:
            raise NotAllowed("The discard pile is empty: nothing to throw onto.", "no_open_match")
        if onto != s.serial:
            raise NotAllowed(
                f"The discard pile has moved on: its top is now number {s.serial}.",
                "stale_discard",
            )
        if p.throwing == "match" and not s.match_open:
            raise NotAllowed("This discard has already been matched.", "no_open_match")
        if p.protect_caller and target != seat and target in s.callers:
            raise NotAllowed(
                f"Seat {target} called: their cards are protected.", "protected_target"
            )
        card = (
            self._their_slot(s, target, position)
            if target != seat
            else self._own_slot(s, seat, position)
        )
        given = None
        if give is not None:
            given = self._own_slot(s, seat, give)
        top = s.discard[-1]
        correct = p.rank(s.codes[card]) == p.rank(s.codes[top])
        data = {
            "seat": target,
            "position": position,
            "onto": onto,
            **_card(s, card),
            "correct": correct,
            "serial": s.serial + 1 if correct else s.serial,
            "give_position": give if correct else None,
            "given": _card(s, given) if correct and given is not None else None,
        }
        w.emit("thrown", data, seat)
        if not correct:
            self._penalty(w, seat, "wrong_throw", seen=p.penalty_seen)
        elif p.empty_field_ends_round and any(not _occupied(f) for f in s.fields):
            self._end_round(w, "empty_field")

    def _penalty(self, w: Work[FamilyState], seat: int, reason: str, *, seen: bool) -> None:
        """A card from the draw pile into a new slot of ``seat`` (none left: nothing)."""
        s = w.s
        if not s.draw and not self._refill(w):
            return
        card = s.draw[0]
        data = {
            "reason": reason,
            **_card(s, card),
            "position": len(s.fields[seat]),
            "seen": seen,
        }
        w.emit("penalty", data, seat)

    # -- calling, turns, rounds

    def _call(self, w: Work[FamilyState], seat: int) -> None:
        s, p = w.s, self.preset
        if s.phase != "turn":
            raise NotAllowed("You can call only during play.", "cannot_call")
        if seat in s.callers or (s.callers and not p.multiple_callers):
            raise NotAllowed("This round has already been called.", "already_called")
        if p.call_when == "instead_of_draw":
            if seat != s.turn_seat:
                raise NotAllowed(f"It is seat {s.turn_seat}'s turn.", "not_your_turn")
            if s.stage != "draw":
                raise NotAllowed(
                    "Call instead of drawing, at the start of your turn.", "cannot_call"
                )
            w.emit("called", {}, seat)
            self._end_turn(w)
            return
        if s.call_window != seat:
            raise NotAllowed(
                "You may call right after your own turn, before the next player draws.",
                "cannot_call",
            )
        w.emit("called", {}, seat)

    def _begin_turn(self, w: Work[FamilyState], seat: int, may_call: int | None) -> None:
        w.emit("turn_started", {"seat": seat, "turn": w.s.turn_no + 1, "may_call": may_call})

    def _end_turn(self, w: Work[FamilyState]) -> None:
        s, p = w.s, self.preset
        seat = s.turn_seat
        assert seat is not None
        nxt = (seat + 1) % s.seats
        if s.callers:
            first = s.callers[0]
            if (p.round_end == "caller_turn" and seat == first) or (
                p.round_end == "back_to_caller" and nxt == first
            ):
                self._end_round(w, "call")
                return
        may_call = seat if p.call_when == "after_turn" else None
        self._begin_turn(w, nxt, may_call)

    def _end_round(self, w: Work[FamilyState], reason: str) -> None:
        s, p = w.s, self.preset
        values = [[p.value(s.codes[c]) for c in f if c is not None] for f in s.fields]
        totals = [sum(v) for v in values]
        callers = [] if reason == "exhausted" else list(s.callers)
        scores, winners = p.score(RoundOutcome(totals, callers, reason, values))
        game = [p.adjust_total(s.scores[i] + scores[i]) for i in range(s.seats)]
        data = {
            "round": s.round,
            "reason": reason,
            "fields": {
                str(i): [None if c is None else _card(s, c) for c in f]
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
            w.emit("game_finished", {"winners": winners_, "losers": losers})
            return
        candidates = p.next_start(s.start_seat, totals, game, list(winners), s.seats)
        if len(candidates) == 1:
            self._deal(w, s.round + 1, candidates[0], False)
        else:
            self._deal(w, s.round + 1, w.ctx.chance.choice(candidates), True)

    # ----------------------------------------------------------------- timeouts

    def actors(self, state: State) -> list[int]:
        s = _fs(state)
        if s.status != "active":
            return []
        if s.phase == "setup":
            return [i for i in range(s.seats) if not s.looked[i]]
        if s.turn_seat is None or s.stage == "done":
            return []
        return [s.turn_seat]

    def turn_key(self, state: State) -> str | None:
        s = _fs(state)
        if s.status != "active" or s.round == 0:
            return None
        if s.phase == "setup":
            return f"r{s.round}:setup"
        return f"r{s.round}:t{s.turn_no}"

    def timeout(self, state: State, seat: int, ctx: Context) -> list[Event]:
        w = Work(_fs(state), ctx)
        s = w.s
        if s.phase == "setup":
            if not s.looked[seat]:
                self._do_look(w, seat, [0, 1])
            return w.events
        if seat != s.turn_seat:
            return w.events
        if s.stage == "draw":
            if self._draw(w, seat, "deck"):
                self._discard(w, seat, with_power=False)
        elif s.stage == "hold":
            self._discard(w, seat, with_power=False)
        elif s.stage == "power":
            assert s.power is not None
            auto = None
            if s.power["kind"] == "swap" and not s.power["optional"]:
                auto = self._auto_swap(s, seat)
            if auto is None:
                w.emit("power_skipped", {"reason": "timeout"}, seat)
            else:
                position, target, their = auto
                mine, theirs = s.fields[seat][position], s.fields[target][their]
                assert mine is not None and theirs is not None
                self._swap(w, seat, position, target, their, mine, theirs)
            self._end_turn(w)
        return w.events

    def _auto_swap(self, s: FamilyState, seat: int) -> tuple[int, int, int] | None:
        """Timeout swap: own lowest slot with the first targetable seat's lowest slot."""
        own = _occupied(s.fields[seat])
        if not own:
            return None
        targets = self._targets(s, seat, swap=True)
        for step in range(1, s.seats):
            t = (seat + step) % s.seats
            if t in targets:
                return own[0], t, targets[t][0]
        return None

    # ----------------------------------------------------------------- folding

    def apply(self, state: State, event: Event) -> None:
        s = _fs(state)
        d = event.data
        _ON[event.type](self, s, event.seat, d)
        public, private = self._shown(s, event)
        if public:
            for k in s.known:
                k.update(public)
        for seat, cards in private.items():
            s.known[seat].update(cards)

    @_ON.on("round_started")
    def _on_round_started(self, s: FamilyState, seat: int | None, d: JSON) -> None:
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
        s.looked = [not self.preset.setup_look] * n
        s.known = [set() for _ in range(n + 1)]
        s.power = None
        s.callers = []
        s.call_window = None
        s.match_open = self.preset.throwing == "match"

    @_ON.on("looked")
    def _on_looked(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        assert seat is not None
        s.looked[seat] = True

    @_ON.on("turn_started")
    def _on_turn_started(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        s.phase = "turn"
        s.turn_seat = d["seat"]
        s.turn_no = d["turn"]
        s.stage = "draw"
        s.held = s.held_from = None
        s.power = None
        s.call_window = d["may_call"]

    @_ON.on("drawn")
    def _on_drawn(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        card = s.draw.pop(0) if d["source"] == "deck" else s.discard.pop()
        assert card == d["card"]
        s.held = card
        s.held_from = d["source"]
        s.stage = "hold"
        s.call_window = None

    @_ON.on("reshuffled")
    def _on_reshuffled(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        order = list(d["order"])
        s.draw = order
        s.discard = s.discard[-1:]
        gone = set(order)
        for k in s.known:
            k.difference_update(gone)

    @_ON.on("discarded")
    def _on_discarded(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        s.discard.append(d["card"])
        s.serial = d["serial"]
        s.held = s.held_from = None
        if self.preset.throwing == "match":
            s.match_open = True
        power = d["power"]
        if power is not None:
            s.power = {"kind": power["kind"], "optional": power["optional"], "spied": False}
            s.stage = "power"
        else:
            s.stage = "done"

    @_ON.on("replaced")
    def _on_replaced(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        assert seat is not None
        f = s.fields[seat]
        held = d["card"]
        if d["correct"]:
            for out in d["out"]:
                f[out["position"]] = None
                s.discard.append(out["card"])
            f[d["positions"][0]] = held
            if self.preset.throwing == "match":
                s.match_open = True
        elif d["new_position"] is not None:
            f.append(held)
        else:
            s.discard.append(held)
        s.serial = d["serial"]
        s.held = s.held_from = None
        s.stage = "done"

    @_ON.on("peeked")
    def _on_peeked(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        s.power = None
        s.stage = "done"

    @_ON.on("spied")
    def _on_spied(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        if s.power is not None and s.power["kind"] == "spy_swap":
            s.power["spied"] = True
        else:
            s.power = None
            s.stage = "done"

    @_ON.on("swapped")
    def _on_swapped(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        assert seat is not None
        mine, theirs = d["mine"]["card"], d["theirs"]["card"]
        s.fields[seat][d["position"]] = theirs
        s.fields[d["seat"]][d["their_position"]] = mine
        s.power = None
        s.stage = "done"

    @_ON.on("power_skipped")
    def _on_power_skipped(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        s.power = None
        s.stage = "done"

    @_ON.on("thrown")
    def _on_thrown(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        assert seat is not None
        if not d["correct"]:
            return
        s.fields[d["seat"]][d["position"]] = None
        s.discard.append(d["card"])
        s.serial = d["serial"]
        if self.preset.throwing == "match":
            s.match_open = False
        if d["given"] is not None:
            s.fields[seat][d["give_position"]] = None
            s.fields[d["seat"]][d["position"]] = d["given"]["card"]

    @_ON.on("penalty")
    def _on_penalty(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        assert seat is not None
        card = s.draw.pop(0)
        assert card == d["card"]
        s.fields[seat].append(card)

    @_ON.on("called")
    def _on_called(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        assert seat is not None
        s.callers.append(seat)
        s.call_window = None
        if self.preset.call_when == "instead_of_draw":
            s.stage = "done"

    @_ON.on("round_ended")
    def _on_round_ended(self, s: FamilyState, seat: int | None, d: JSON) -> None:
        s.scores = [d["game_totals"][str(i)] for i in range(s.seats)]
        s.rounds.append({"round": d["round"], "totals": d["totals"], "scores": d["scores"]})
        s.reveal = round_reveal.round_reveal(s.ruleset, s.callers, d, self.preset.value)
        s.stage = "done"
        s.held = s.held_from = None
        s.power = None
        s.call_window = None

    # ----------------------------------------------------------------- knowledge

    def _shown(self, s: FamilyState, event: Event) -> tuple[list[int], dict[int, list[int]]]:
        """The cards ``event`` shows: (to everyone, {seat: to that seat only})."""
        d, seat, t = event.data, event.seat, event.type
        if t == "round_started":
            n = s.seats
            private = {}
            if not self.preset.setup_look:
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

    def _visible(self, s: FamilyState, event: Event, seat: int | None) -> set[int]:
        public, private = self._shown(s, event)
        out = set(public)
        if seat is not None:
            out.update(private.get(seat, ()))
        return out

    # ----------------------------------------------------------------- viewing

    def view(self, state: State, seat: int | None, recent: Sequence[Event] = ()) -> JSON:
        s = _fs(state)
        viewer = s.seats if seat is None else seat
        over = s.status in ("finished", "aborted")
        shown: set[int] | None
        if s.status == "finished":
            shown = None  # every card was turned face up at the end
        elif s.options.get("memory") == "strict":
            shown = set()
            for event in recent:
                if event.type == "round_started":
                    shown = set()  # ids name the cards of one round only
                if event.type not in engine.ENGINE_EVENTS:
                    shown |= self._visible(s, event, seat)
        else:
            shown = s.known[viewer] if s.known else set()

        def code(card: int | None) -> str | None:
            if card is None:
                return None
            return s.codes[card] if shown is None or card in shown else "?"

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
            "fields": {str(i): [code(c) for c in f] for i, f in enumerate(s.fields)},
            "called_by": list(s.callers),
            "legal_actions": self.legal_actions(s, seat),
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
            "match_open": self._match_open(s) and not over,
            "looked": [i for i, done in enumerate(s.looked) if done] if setup else None,
            "reveal": round_reveal.shown(s.reveal),  # the last round's end, public
        }

    def _match_open(self, s: FamilyState) -> bool:
        if self.preset.throwing == "none" or s.phase != "turn" or not s.discard:
            return False
        return s.match_open if self.preset.throwing == "match" else True

    def reveal(self, state: State) -> JSON:
        """Every card face up (the replay viewer)."""
        s = _fs(state)
        out = self.view(s, None)
        out["fields"] = {
            str(i): [None if c is None else s.codes[c] for c in f] for i, f in enumerate(s.fields)
        }
        out["held"] = s.codes[s.held] if s.held is not None else None
        return out

    def event_view(self, before: State, event: Event, seat: int | None) -> JSON:
        s = _fs(before)
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
            if not self.preset.setup_look and seat is not None:
                out["seen"] = [
                    {"position": k, "card": SLOTS * seat + k, "code": deck[SLOTS * seat + k]}
                    for k in (0, 1)
                ]
            return out
        if event.type == "reshuffled":
            return {"count": len(d["order"])}
        return cast(JSON, _redact(d, self._visible(s, event, seat)))

    # ----------------------------------------------------------------- legal actions

    def legal_actions(self, state: State, seat: int | None) -> list[JSON]:
        s = _fs(state)
        p = self.preset
        if seat is None or s.status != "active":
            return []
        out: list[JSON] = []
        if s.phase == "setup":
            if p.setup_look and not s.looked[seat]:
                pairs = [list(c) for c in combinations(_occupied(s.fields[seat]), 2)]
                out.append({"type": "look", "choices": {"positions": pairs}})
            return out
        if s.phase != "turn":
            return out
        if seat == s.turn_seat:
            out += self._own_turn_actions(s, seat)
        if (
            p.call_when == "after_turn"
            and s.call_window == seat
            and seat not in s.callers
            and (p.multiple_callers or not s.callers)
        ):
            out.append({"type": "call"})
        if self._match_open(s):
            for t in range(s.seats):
                if p.protect_caller and t != seat and t in s.callers:
                    continue
                for pos in _occupied(s.fields[t]):
                    out.append({"type": "throw", "seat": t, "position": pos, "onto": s.serial})
        return out

    def _own_turn_actions(self, s: FamilyState, seat: int) -> list[JSON]:
        p = self.preset
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
            own = _occupied(s.fields[seat])
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
            choices_ = self._power_choices(s, seat)
            out += choices_
            if s.power["optional"] or not choices_:
                out.append({"type": "skip"})
        return out


def _redact(value: Any, visible: set[int]) -> Any:
    if isinstance(value, list):
        return [_redact(v, visible) for v in value]
    if isinstance(value, dict):
        hide = "card" in value and value["card"] not in visible
        return {
            k: _redact(v, visible) for k, v in value.items() if not (hide and k in ("card", "code"))
        }
    return value


def _iter_cards(value: Any) -> Iterable[tuple[int, str]]:
    """Every (card id, code) pair written in an event's data (tests, the viewer)."""
    if isinstance(value, list):
        for v in value:
            yield from _iter_cards(v)
    elif isinstance(value, dict):
        if "card" in value and "code" in value and isinstance(value["card"], int):
            yield value["card"], value["code"]
        for v in value.values():
            yield from _iter_cards(v)


RULESETS = {preset.id: engine.register(Family(preset)) for preset in PRESETS}
