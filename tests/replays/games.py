"""Finished games for the viewer's tests: random legal play through the pure engine,
stored as rows (``store``) without going through the services.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules import Event
from replays.autoplay import play
from tests.rules.table import Table


def engine_game(
    ruleset: str,
    seats: int = 3,
    *,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    decks: list[list[str]] | None = None,
    max_actions: int = 4000,
    timeouts: int = 0,
) -> Table:
    """A game played to its end by random legal moves (``timeouts``: deadlines let pass first)."""
    opts = {"start_seat": 0, **(options or {})}
    t = Table(ruleset, seats=seats, options=opts, decks=decks, seed=seed, check_fold=False)
    for _ in range(timeouts):
        if t.state.status == "active":
            t.timeout()
    rng = random.Random(seed)
    play(
        seats=seats,
        view=lambda s: t.view(s),
        act=t.act,
        finished=lambda: t.state.status != "active",
        rng=rng,
        max_actions=max_actions,
    )
    return t


def store(events: list[Event], *, names: list[str] | None = None):
    """Rows for a game's events (users, Game, Seat, Event); returns the Game."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games import rules
    from games.models import Event as EventRow
    from games.models import Game, Seat

    state = rules.fold(events)
    users = {}
    User = get_user_model()
    for seat in range(state.seats):
        username = (names or state.players)[seat] or f"p{seat}"
        users[seat] = User.objects.get_or_create(username=username)[0]
    header = events[0].data
    game = Game.objects.create(
        ruleset=header["ruleset"],
        seats=header["seats"],
        options=header["options"],
        turn_timeout=header["turn_timeout"],
        created_by=users[0],
        status=state.status,
        version=len(events),
        result=state.result,
        finished_at=timezone.now() if state.status in ("finished", "aborted") else None,
    )
    for seat, user in users.items():
        Seat.objects.create(game=game, seat=seat, user=user)
    rows = []
    for seq, e in enumerate(events, start=1):
        data = dict(e.data)
        if e.type == "player_joined" and names:
            data["username"] = names[e.data["seat"]]
        rows.append(EventRow(game=game, seq=seq, type=e.type, seat=e.seat, data=data))
    EventRow.objects.bulk_create(rows)
    return game
