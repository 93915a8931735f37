"""Benchmark: how fast the ratings follow the log, and how fast they are rebuilt.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/8 \\
    nice .venv/bin/python bench/bench_ratings_speed.py --games 60 --rebuild 100000

Works in a database of its own (``bench_pablo_ratings``, created, migrated and
dropped), with bench_deadlines.py's real ``celery worker`` + ``beat``.

1. **Game end -> ratings readable.** ``--games`` two-player Skip-Bo games are
   played to their end through the services (the basic bot's choices); after
   the last action's commit the bench polls until the game's ``RatingChange``
   rows are there, written by the ratings follower in the worker (woken by the
   hint after the append; beat's run every second is the safety net). p50 / p99.
2. **Rebuild.** ``--rebuild`` synthetic finished games (2-5 people from 2,000
   accounts, random places, a few turns each) are written straight into the
   event store (``bulk_create``), then ``manage.py ratings --rebuild``'s
   service replays them all (its steps timed apart: read, rate, copy, commit).
   Goal: 100,000 games <= 60 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("PABLO_BENCH_REDIS_DB", "8")

import bench_deadlines
from bench_deadlines import percentile
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from games import rules
from games.bots.play import chooser
from games.followers import head
from games.ratings import outcomes
from games.ratings import services as ratings
from games.ratings.models import Cursor, RatingChange
from games.selectors import games as selectors
from games.services import games as services


def play(users: list, seed: int) -> tuple[str, float]:
    """A quick Skip-Bo game to its end through the services; its id and its end."""
    game = services.game_create(user=users[0], ruleset="skipbo", seats=2, options={"stock_size": 5})
    services.game_join(game_id=game.id, user=users[1])
    choose, rng = chooser("basic", "skipbo"), random.Random(seed)
    while True:
        state = selectors.game_state(game=selectors.game_get(game.id))
        seat = rules.get_ruleset("skipbo").actors(state)[0]
        services.game_act(game_id=game.id, user=users[seat], command=choose(state, seat, rng))
        if selectors.game_get(game.id).status == "finished":
            return str(game.id), time.perf_counter()


def latency(count: int) -> None:
    User = get_user_model()
    users = [User.objects.create_user(f"lat{i}", password=None) for i in range(6)]
    procs = bench_deadlines._celery_processes(1.0)
    try:
        waits = []
        # game -1 warms up: it waits for the worker's start and is not counted
        for i in range(-1, count):
            game, ended = play(random.Random(i).sample(users, 2), i)
            while not RatingChange.objects.filter(game_id=game).exists():
                if time.perf_counter() - ended > 120:
                    raise SystemExit(f"no rating 120 s after game {i} ended")
                time.sleep(0.005)
            if i >= 0:
                waits.append(time.perf_counter() - ended)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait()
    print(
        f"game end -> ratings readable, {count} games: p50 {percentile(waits, 50):.3f} s, "
        f"p99 {percentile(waits, 99):.3f} s, max {max(waits):.3f} s"
    )


def synthetic(count: int, people: int = 2000) -> None:
    """``count`` finished games written straight into the event store (COPY: the ORM
    took minutes for what is only the bench's setup)."""
    User = get_user_model()
    User.objects.bulk_create(User(username=f"p{i}", password="!") for i in range(people))
    users = list(User.objects.filter(username__startswith="p").values_list("pk", "username"))
    rng = random.Random(5)
    now = timezone.now()
    rulesets = ["pablo", "cabo", "tamalou", "skipbo"]
    games, events = [], []
    for _ in range(count):
        table = rng.sample(users, rng.randint(2, 5))
        ruleset = rng.choice(rulesets)
        places = rules.events.places([rng.random() for _ in table])
        stream = [
            ("game_created", 0, {"ruleset": ruleset, "seats": len(table), "rated": True}),
            *[("player_joined", s, {"seat": s, "username": u})
              for s, (_, u) in enumerate(table)],
            *[("deadline_set", None, {"seats": [s % len(table)]}) for s in range(8)],
            ("game_finished", None, {"winners": [places.index(1)], "losers": [],
                                     "places": places, "points": places}),
        ]  # fmt: skip
        game = uuid.uuid4()
        games.append(
            (game, ruleset, len(table), "{}", 86400, table[0][0], now, "finished",
             len(stream), "", now, now, False, "", "")
        )  # fmt: skip
        events += [
            (game, n, kind, seat, json.dumps(data), now)
            for n, (kind, seat, data) in enumerate(stream, 1)
        ]
    with connection.cursor() as cursor:
        columns = "id, ruleset, seats, options, turn_timeout, created_by_id, created_at, "
        columns += "status, version, turn_key, updated_at, finished_at, private, invite, "
        columns += "created_from"
        with cursor.cursor.copy(f"COPY games_game ({columns}) FROM STDIN") as copy:
            for row in games:
                copy.write_row(row)
        columns = "game_id, seq, type, seat, data, created_at"
        with cursor.cursor.copy(f"COPY games_event ({columns}) FROM STDIN") as copy:
            for row in events:
                copy.write_row(row)


def rebuild(count: int) -> None:
    start = time.perf_counter()
    synthetic(count)
    print(f"  {count} synthetic finished games written in {time.perf_counter() - start:.0f} s")
    Cursor.objects.update_or_create(pk=1, defaults={"position": head()})
    load = os.getloadavg()[0]
    server = server_cpu()
    sections = timed()
    start, cpu = time.perf_counter(), time.process_time()
    with transaction.atomic():
        rebuilt = ratings._rebuild(ratings._locked_cursor())
        committing = time.perf_counter()
    sections["commit"] = time.perf_counter() - committing
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    server = server_cpu() - server
    assert rebuilt >= count, rebuilt
    print(
        f"rebuild: {rebuilt} finished games in {took:.1f} s ({rebuilt / took:.0f} games/s); "
        f"CPU: {cpu:.1f} s in this process, {server:.1f} s in its PostgreSQL backend; "
        f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after, "
        f"on {os.cpu_count()} cores"
    )
    print("  wall-clock by section: " + ", ".join(f"{k} {v:.1f} s" for k, v in sections.items()))


def timed() -> dict[str, float]:
    """Wrap the rebuild's steps to add up their wall-clock time: ``read`` (the events
    of a batch; ``query`` is its database part, the JSON's decoding included), ``rate``
    (the model and the rows), ``copy`` (the rows written); then ``commit``."""
    sections: dict[str, float] = {}

    def wrap(module: Any, name: str, label: str) -> None:
        inner = getattr(module, name)

        def step(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                sections[label] = sections.get(label, 0.0) + time.perf_counter() - began

        setattr(module, name, step)

    wrap(outcomes, "read", "read")
    wrap(outcomes, "_rows", "query")
    wrap(ratings, "_rate", "rate")
    wrap(ratings, "_copy", "copy")
    return sections


def server_cpu() -> float:
    """CPU seconds of this connection's PostgreSQL backend (when it runs on this machine;
    else nan): the rebuild's time on a busy machine is mostly waiting for a core, and
    the CPU it used is what a quiet one would need."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rebuild", type=int, default=100_000)
    args = parser.parse_args()
    connection.settings_dict["TEST"]["NAME"] = "bench_pablo_ratings"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        if args.games:
            latency(args.games)
        if args.rebuild:
            rebuild(args.rebuild)
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
