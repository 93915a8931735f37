"""Benchmark: our append path against a raw INSERT loop on the same database.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo .venv/bin/python bench/bench_append.py

Works in a database of its own (``bench_pablo_append``: created, migrated,
dropped). Three figures, measured in one run on the same database:

1. **raw**: one ``INSERT INTO games_event`` per transaction (autocommit), the
   floor any event store pays for a durable append.
2. **ours**: ``services.game_act`` -- one player action per transaction: lock
   the game row, fold (cached), decide, append the action's events, update
   the projection, render the caller's answer -- for two-player ``pablo``
   games played with legal actions.
3. **fold**: the pure engine folding the stored streams from scratch.

Prints the rates and the ratios ours/raw (per transaction and per event).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
os.environ["PABLO_TEST_DB_NAME"] = "bench_pablo_append"
os.environ["PABLO_FAST_PATH_SECONDS"] = "0"  # measure the append, not the broker

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402

from games import selectors, services  # noqa: E402
from games.models import Event, Game  # noqa: E402
from games.rules import engine  # noqa: E402

PREFERENCE = ["look", "draw", "discard", "skip", "peek", "spy", "swap", "replace"]


def choose(actions: list[dict]) -> dict:
    """A legal action, by a fixed preference (no calls and no throws: long games)."""
    actions = [a for a in actions if a["type"] in PREFERENCE]
    actions.sort(key=lambda a: (PREFERENCE.index(a["type"]), a.get("source") != "deck"))
    action = dict(actions[0])
    for name, values in action.pop("choices", {}).items():
        action[name] = values[0]
    return action


def play(games: int, actions_per_game: int, users: list) -> tuple[float, int, int]:
    """Seconds spent inside ``game_act``, actions done, events stored."""
    spent, done = 0.0, 0
    before = Event.objects.count()
    for _ in range(games):
        game = services.game_create(
            user=users[0],
            ruleset="pablo",
            seats=2,
            turn_timeout=86400,
            options={"start_seat": 0},
            decks=None,
        )
        services.game_join(game_id=game.id, user=users[1])
        for _ in range(actions_per_game):
            for user in users:
                data = selectors.game_data(game=Game.objects.get(pk=game.id), user=user)
                if any(a["type"] in PREFERENCE for a in data["state"]["legal_actions"]):
                    break
            command = choose(data["state"]["legal_actions"])
            started = time.perf_counter()
            services.game_act(game_id=game.id, user=user, command=command)
            spent += time.perf_counter() - started
            done += 1
    return spent, done, Event.objects.count() - before


def raw_inserts(count: int, game_id: uuid.UUID) -> float:
    """Seconds for ``count`` single-row INSERT transactions into the event table."""
    data = '{"source": "deck", "card": 17, "code": "7H"}'
    started = time.perf_counter()
    with connection.cursor() as cursor:
        for seq in range(1, count + 1):
            cursor.execute(
                "INSERT INTO games_event (game_id, seq, type, seat, data, created_at)"
                " VALUES (%s, %s, %s, %s, %s, CURRENT_TIMESTAMP)",
                [game_id.hex, seq, "drawn", 0, data],
            )
    return time.perf_counter() - started


def fold_all() -> tuple[float, int]:
    streams = [selectors.game_events(game) for game in Game.objects.filter(ruleset="pablo")]
    started = time.perf_counter()
    for stream in streams:
        engine.fold(stream)
    return time.perf_counter() - started, sum(len(s) for s in streams)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--actions", type=int, default=150, help="actions per game")
    args = parser.parse_args()

    creation = connection.creation
    creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        User = get_user_model()
        users = [User.objects.create_user(username=f"bench{i}", password="x") for i in (0, 1)]
        spent, actions, events = play(args.games, args.actions, users)
        fold_seconds, folded = fold_all()
        target = Game.objects.create(ruleset="raw", seats=2, created_by=users[0])
        raw = raw_inserts(actions, target.id)
    finally:
        creation.destroy_test_db(connection.settings_dict["NAME"], verbosity=0)

    raw_rate = actions / raw
    ours_rate = actions / spent
    print(f"database: {connection.vendor}")
    print(f"raw INSERT loop:   {raw_rate:8.0f} transactions/s (1 event each)")
    print(
        f"services.game_act: {ours_rate:8.0f} actions/s = {events / spent:.0f} events/s "
        f"({events / actions:.2f} events per action; {actions} actions in {spent:.2f} s)"
    )
    print(
        f"ratio ours/raw:    {ours_rate / raw_rate:.2f} per transaction, "
        f"{events / spent / raw_rate:.2f} per event"
    )
    print(f"fold (pure engine): {folded / fold_seconds:8.0f} events/s over {folded} events")


if __name__ == "__main__":
    main()
