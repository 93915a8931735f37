"""Shared helpers for the stacked-deck scenario tests of the Pablo family.

They use the public interface only: ``Table`` (engine create/join/act/timeout/view),
the API.md state object, ``state.scores`` and the rules errors' ``code``/``status``.

A deck is written the way RULES.md §2 deals it: every seat's four slots, then the
card turned up on the discard pile, then the draw pile, top first::

    deal([["5H", "6H", "7H", "8H"], ["2S", "3S", "4S", "5S"]], "10C", ["JC", "QC"])

Where RULES.md / API.md leave room, the scenario tests decide (or accept either):

- error codes not pinned by docs/design.md are accepted from a small set (e.g. a
  power action the discard does not give: ``no_power``, ``illegal_action`` or
  ``wrong_stage``); a command that is "never valid" may be 400 or 409 where the
  API's line between the two is unclear (replacing several slots in pablo, spying
  on one's own card);
- pablo: a wrong throw that finds no card to draw costs no penalty; whether the
  round ends right then or at the next draw from the empty pile is left open (the
  score is the same: as if nobody had called);
- cabo: a player timing out while holding the taken discard top discards it
  (RULES.md §8 "holding a card: discard it"), although a player could not;
- pablo-50: after a K's spy on the protected caller, a swap that nobody can take
  is skipped at once (the turn ends); an ``advanced`` Q discarded by a player with
  no card skips the swap and deals one card into a new slot;
- knowledge: a card swapped away stays known to whoever knew it; a card that went
  face up and was then reshuffled into the draw pile is forgotten by everyone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from games import rules
from games.rules import Malformed, NotAllowed, RulesError
from tests.rules.table import Table

JSON = dict[str, Any]

#: The status the API gives each rules error (``games.api.exceptions.STATUSES``; the
#: API tests hold the two tables equal: tests/api/test_robustness.py).
RULES_STATUSES: tuple[tuple[type[RulesError], int], ...] = (
    (Malformed, 400),
    (NotAllowed, 409),
    (RulesError, 409),
)


def seated_game(
    ruleset: str, seats: int, options: dict, ctx: rules.Context
) -> tuple[rules.State, list[rules.Event], Callable[[list[rules.Event]], None]]:
    """A game created by ``p0`` and joined by ``p1``... (played straight on the rules):
    its state, its events, and ``store`` that applies new events and keeps them."""
    events: list[rules.Event] = rules.create(
        ruleset, seats=seats, options=options, turn_timeout=60, creator="p0"
    )
    state = rules.fold(events)

    def store(new: list[rules.Event]) -> None:
        for event in new:
            rules.apply(state, event)
        events.extend(new)

    for joining in range(1, seats):
        store(rules.join(state, f"p{joining}", ctx))
    return state, events, store


def status_of(err: Exception) -> int | None:
    """The HTTP status of a rules error (None: not a rules error)."""
    return next((status for cls, status in RULES_STATUSES if isinstance(err, cls)), None)


def deal(fields: Sequence[Sequence[str]], top: str, draws: Iterable[str] = ()) -> list[str]:
    """One round's stacked deck in deal order."""
    return [code for field in fields for code in field] + [top, *draws]


def table(
    ruleset: str,
    fields: Sequence[Sequence[str]],
    top: str,
    draws: Iterable[str] = (),
    *,
    options: JSON | None = None,
    later: Sequence[Sequence[str]] = (),
    turn_timeout: int = 86400,
) -> Table:
    """A started game with round 1 stacked (and ``later`` rounds' decks), start seat 0."""
    opts = {"start_seat": 0, **(options or {})}
    decks = [deal(fields, top, draws), *[list(d) for d in later]]
    return Table(ruleset, seats=len(fields), options=opts, decks=decks, turn_timeout=turn_timeout)


def refused(
    t: Table, seat: int, command: JSON, code: str | set[str] | None, status: int | None = 409
) -> RulesError:
    """``command`` by ``seat`` is refused with ``code`` and ``status``; nothing changes.

    ``code=None`` / ``status=None`` accept any code / either status, where RULES.md and
    API.md leave the choice open (e.g. 400 "never valid" vs 409 "not now").
    """
    before = t.state.copy()
    count = len(t.events)
    with pytest.raises(RulesError) as caught:
        t.act(seat, command)
    err = caught.value
    if code is not None:
        codes = {code} if isinstance(code, str) else code
        assert err.code in codes, f"code {err.code!r} ({err.detail}), expected {codes}"
    if status is not None:
        assert status_of(err) == status, f"status {status_of(err)} ({err.code}: {err.detail})"
    assert len(t.events) == count
    assert t.state == before
    return err


def look_all(t: Table, positions: Sequence[int] = (0, 1)) -> None:
    """Every seat looks at ``positions`` in the setup phase."""
    for seat in range(t.state.seats):
        t.act(seat, {"type": "look", "positions": list(positions)})


def serial(t: Table) -> int:
    return t.view(None)["discard"]["serial"]


def top(t: Table) -> str | None:
    return t.view(None)["discard"]["top"]


def turn(t: Table) -> tuple[int | None, str | None]:
    tn = t.view(None)["turn"] or {}
    return tn.get("seat"), tn.get("stage")


def field(t: Table, viewer: int | None, seat: int) -> list[str | None]:
    return t.view(viewer)["fields"][str(seat)]


def held(t: Table, viewer: int | None) -> str | None:
    return t.view(viewer).get("held")


def draw(t: Table, seat: int, source: str = "deck") -> list:
    return t.act(seat, {"type": "draw", "source": source})


def discard(t: Table, seat: int) -> list:
    return t.act(seat, {"type": "discard"})


def replace(t: Table, seat: int, *positions: int) -> list:
    return t.act(seat, {"type": "replace", "positions": list(positions)})


def call(t: Table, seat: int) -> list:
    return t.act(seat, {"type": "call"})


def skip(t: Table, seat: int) -> list:
    return t.act(seat, {"type": "skip"})


def throw(
    t: Table, by: int, seat: int, position: int, give: int | None = None, onto: int | None = None
) -> list:
    body: JSON = {
        "type": "throw",
        "seat": seat,
        "position": position,
        "onto": serial(t) if onto is None else onto,
    }
    if give is not None:
        body["give_position"] = give
    return t.act(by, body)


def draw_discard(t: Table, seat: int) -> None:
    """``seat`` draws from the deck and discards; an optional power is skipped."""
    draw(t, seat)
    discard(t, seat)
    if turn(t) == (seat, "power"):
        skip(t, seat)


def rounds(t: Table) -> list[JSON]:
    return t.view(None)["rounds"]


def totals(t: Table, round_no: int) -> dict[int, int]:
    [r] = [r for r in rounds(t) if r["round"] == round_no]
    return {int(s): v for s, v in r["totals"].items()}


def scores(t: Table, round_no: int) -> dict[int, int]:
    [r] = [r for r in rounds(t) if r["round"] == round_no]
    return {int(s): v for s, v in r["scores"].items()}


def action_types(t: Table, seat: int | None) -> set[str]:
    return {a["type"] for a in t.view(seat)["legal_actions"]}


def assert_hidden(t: Table, viewer: int | None, seat: int, positions: Iterable[int]) -> None:
    """``viewer`` sees the cards at ``positions`` of ``seat``'s field face down."""
    f = field(t, viewer, seat)
    for p in positions:
        assert f[p] == "?", f"seat {viewer} sees {seat}:{p} = {f[p]!r}"


def assert_public_only(t: Table) -> None:
    """A non-player sees no field card and no held card drawn from the deck."""
    v = t.view(None)
    for f in v["fields"].values():
        assert all(c in ("?", None) for c in f), v["fields"]
    assert v["legal_actions"] == []


def types(events: list) -> list[str]:
    return [e.type for e in events]


def expand(action: JSON) -> list[JSON]:
    """Complete bodies from a legal_actions entry: each choice once, the others at their first."""
    choices = action.get("choices")
    base = {k: v for k, v in action.items() if k != "choices"}
    if not choices:
        return [base]
    first = {k: v[0] for k, v in choices.items()}
    out = []
    for key, values in choices.items():
        for value in values:
            out.append({**base, **first, key: value})
    return out


def check_legal(t: Table) -> int:
    """Every action a view offers is accepted by the engine (tried, nothing stored)."""
    tried = 0
    for seat in range(t.state.seats):
        for action in t.view(seat)["legal_actions"]:
            for body in expand(action):
                rules.act(t.state, seat, body, t.ctx)  # raises RulesError if refused
                tried += 1
    return tried


def codes_seen(t: Table, seat: int | None, pattern: str) -> set[str]:
    """Every card code (matching ``pattern``) in the event views of ``seat``."""
    text = json.dumps(t.event_views(seat))
    return set(re.findall(pattern, text))


FRENCH_CODE = r'"((?:10|[2-9AJQK])[SHDC]|JK)"'


def play_out(
    t: Table, caller: int | None, max_turns: int = 30, *, call_replaces_turn: bool = False
) -> None:
    """Turns of draw + discard until the round changes.

    ``caller`` calls on their first turn: right after it, or instead of it with
    ``call_replaces_turn`` (Cabo's "Cabo" is a turn of its own).
    """
    start_round = t.view(None)["round"]
    called = False
    for _ in range(max_turns):
        if t.state.status != "active" or t.view(None)["round"] != start_round:
            return
        seat, stage = turn(t)
        assert stage == "draw", (seat, stage)
        calls_now = seat == caller and not called
        if not (calls_now and call_replaces_turn):
            assert seat is not None
            draw_discard(t, seat)
        if calls_now:
            assert seat is not None
            call(t, seat)
            called = True
    raise AssertionError("the round did not end")
