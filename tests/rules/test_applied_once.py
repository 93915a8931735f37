"""An action's events are applied once to the state that is worked on: the ruleset's
decision evolves it as it emits them (``Context.scratch``), nothing applies them again
(before, the decision's copy and then the caller's state each applied them)."""

from __future__ import annotations

import pytest

from games import rules
from games.rules import Event, State
from tests.rules.helpers import table

DRAW = {"type": "draw", "source": "deck"}


@pytest.fixture
def applied(monkeypatch):
    """Every event the ruleset applies, by any path, as (the state's id, its type)."""
    seen: list[tuple[int, str]] = []
    ruleset = rules.get_ruleset("pablo")
    real = ruleset.apply

    def apply(state: State, event: Event) -> None:
        seen.append((id(state), event.type))
        real(state, event)

    monkeypatch.setattr(ruleset, "apply", apply)
    return seen


def looked():
    """A pablo game past its setup: seat 0 draws next."""
    fields = [["5H", "6H", "7H", "8H"], ["2S", "3S", "4S", "5S"]]
    t = table("pablo", fields, "10C", ["JC", "QC", "9D", "9S"])
    for seat in (0, 1):
        t.act(seat, {"type": "look", "positions": [0, 1]})
    return t


def rulesets_events(events: list[Event]) -> list[str]:
    """The types of the events the ruleset applies (the engine applies its own)."""
    return [e.type for e in events if e.type not in ENGINE]


ENGINE = frozenset(
    {"player_joined", "game_started", "deadline_set", "turn_timed_out", "player_absent",
     "player_returned", "game_finished", "game_aborted"}
)  # fmt: skip


def test_an_action_in_place_applies_each_of_its_events_once_to_that_state(applied):
    t = looked()
    state = t.state.copy()
    applied.clear()
    events = rules.act_in_place(state, 0, DRAW, t.ctx)
    assert rulesets_events(events) == ["drawn"]
    assert applied == [(id(state), "drawn")]
    assert state == rules.fold([*t.events, *events])


def test_an_action_on_a_copy_applies_its_events_once_and_leaves_the_state(applied):
    t = looked()
    before = t.state.copy()
    applied.clear()
    events = rules.act(t.state, 0, DRAW, t.ctx)
    assert [kind for _, kind in applied] == rulesets_events(events) == ["drawn"]
    assert t.state == before


def test_act_seen_redacts_each_event_against_the_state_just_before_it(applied):
    t = looked()
    t.act(0, DRAW)
    state = t.state.copy()
    applied.clear()
    acted = rules.act_seen(state, 0, {"type": "discard"}, t.ctx)
    assert [kind for _, kind in applied] == rulesets_events(acted.events)
    reference = t.state.copy()
    expected = []
    for event in acted.events:
        expected.append(rules.event_view(reference, event, 0))
        rules.apply(reference, event)
    assert acted.seen == expected
    assert state == reference
