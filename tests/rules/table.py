"""A table for rules tests: a game driven through the pure engine, no database.

    t = Table("pablo", seats=3, options={"start_seat": 0}, decks=[["5H", "KD", ...]])
    t.act(0, {"type": "look", "positions": [0, 1]})
    assert t.view(0)["fields"]["0"][:2] == ["5H", "KD"]

Every call checks that folding the stored events gives the live state.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from games import rules
from games.chance import DeckChance
from games.rules import Context, Event, State

START = datetime(2026, 1, 1, tzinfo=UTC)


class Table:
    def __init__(
        self,
        ruleset: str,
        seats: int = 2,
        options: dict[str, Any] | None = None,
        decks: list[list[str]] | None = None,
        seed: int = 0,
        turn_timeout: int = 86400,
        check_fold: bool = True,
    ) -> None:
        self.chance = DeckChance(random.Random(seed), decks)
        self.now = START
        self.check_fold = check_fold
        self.events: list[Event] = rules.create(
            ruleset,
            seats=seats,
            options=options or {},
            turn_timeout=turn_timeout,
            creator="p0",
        )
        self.state: State = rules.fold(self.events)
        for seat in range(1, seats):
            self._store(rules.join(self.state, f"p{seat}", self.ctx))

    @property
    def ctx(self) -> Context:
        return Context(chance=self.chance, now=self.now)

    def _store(self, events: list[Event]) -> list[Event]:
        for event in events:
            rules.apply(self.state, event)
        self.events += events
        if self.check_fold:
            assert rules.fold(self.events) == self.state, "fold(events) != live state"
        return events

    def act(self, seat: int, command: dict[str, Any]) -> list[Event]:
        """Do ``command`` as ``seat``; returns the new events (raises RulesError)."""
        return self._store(rules.act(self.state, seat, command, self.ctx))

    def timeout(self, *, advance: bool = True) -> list[Event]:
        """Let the current deadline pass and enforce it."""
        if advance:
            self.now += timedelta(seconds=self.state.turn_timeout)
        assert self.state.turn_key is not None
        return self._store(rules.timeout(self.state, self.state.turn_key, self.ctx))

    def view(self, seat: int | None = None, recent: list[Event] | None = None) -> dict[str, Any]:
        out = rules.view(self.state, seat, recent or [])
        assert out is not None
        return out

    def event_views(self, seat: int | None) -> list[dict[str, Any]]:
        """Every event's data as ``seat`` saw it at its own moment."""
        first, *rest = self.events
        state = rules.fold([first])
        out = [dict(first.data)]
        for event in rest:
            out.append(rules.event_view(state, event, seat))
            rules.apply(state, event)
        return out

    def types(self, events: list[Event] | None = None) -> list[str]:
        return [e.type for e in (self.events if events is None else events)]
