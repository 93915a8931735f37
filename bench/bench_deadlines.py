"""Benchmark: enforcing 10,000 overdue games; the lag of the sweep at idle.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo .venv/bin/python bench/bench_deadlines.py

Works in a database of its own (``bench_pablo_deadlines``, created, migrated
and dropped; SQLite runs too, in a temporary file, but without SKIP LOCKED).

1. **Throughput.** 10,000 two-player Skip-Bo games whose turn is overdue are
   written straight into the event store (streams made by the pure engine,
   ``bulk_create``), then ``--sweepers`` processes (default 2, one per core)
   run ``games.turns.deadlines.sweep`` at once until no game is due. Prints the
   rate (games/s) and the lag past each deadline (p50, p99) -- in this phase
   the lag is mostly the backlog's queueing time.
2. **Idle lag.** ``--idle`` games (default 200) fall due one by one over
   ``--spread`` seconds while the sweep runs every ``PABLO_SWEEP_SECONDS``
   (the beat interval): a loop in this process, or with ``--celery`` a real
   ``celery worker`` + ``celery beat`` (broker: ``CELERY_BROKER_URL``, Redis
   database ``PABLO_BENCH_REDIS_DB`` = 2, else the file-system broker).
   Prints the lag p50 / p99; the fast path is off, so this is the sweep's
   own lag.

Goals (bench/README.md): >= 500 games/s on a 2-core machine; idle lag p99 <= 2 s.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote, urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-" + "k" * 50)  # a throwaway key
if os.environ.get("DATABASE_URL"):
    os.environ["PABLO_TEST_DB_NAME"] = "bench_pablo_deadlines"
else:
    os.environ["PABLO_VAR_DIR"] = tempfile.mkdtemp(prefix="pablo-bench-")
    os.environ["PABLO_TEST_DB_NAME"] = os.path.join(os.environ["PABLO_VAR_DIR"], "bench.sqlite3")
# the throughput phase measures enforcement, not the broker
os.environ["PABLO_FAST_PATH_SECONDS"] = "0"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import rules  # noqa: E402
from games.chance import DeckChance  # noqa: E402
from games.models import Event, Game, Seat  # noqa: E402
from games.turns import deadlines  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def make_games(count: int, *, due_in: list[float], users: list, turn_timeout: int) -> list:
    """``count`` started Skip-Bo games; game i's deadline is ``due_in[i]`` s from now."""
    now = timezone.now()
    rng = random.Random(7)
    games, seats, rows = [], [], []
    for i in range(count):
        a, b = users[(2 * i) % len(users)], users[(2 * i + 1) % len(users)]
        created = now + timedelta(seconds=due_in[i] - turn_timeout)
        ctx = rules.Context(chance=DeckChance(random.Random(rng.random())), now=created)
        events = rules.create(
            "skipbo",
            seats=2,
            options={"start_seat": 0},
            turn_timeout=turn_timeout,
            creator=a.username,
        )
        state = rules.fold(events)
        joined = rules.join(state, b.username, ctx)
        for event in joined:
            rules.apply(state, event)
        events += joined
        game = Game(
            ruleset="skipbo",
            seats=2,
            options=state.options,
            turn_timeout=turn_timeout,
            created_by=a,
            status="active",
            version=state.version,
            turn_key=state.turn_key,
            deadline=deadlines.parse_deadline(state.deadline),
        )
        games.append(game)
        seats += [Seat(game=game, seat=0, user=a), Seat(game=game, seat=1, user=b)]
        rows += [
            Event(game=game, seq=n, type=e.type, seat=e.seat, data=e.data)
            for n, e in enumerate(events, start=1)
        ]
    Game.objects.bulk_create(games, batch_size=1000)
    Seat.objects.bulk_create(seats, batch_size=2000)
    Event.objects.bulk_create(rows, batch_size=2000)
    return games


def lags(games: list, since=None) -> list[float]:
    """Seconds from each game's first deadline (or ``since``, if later) to its timeout."""
    deadline = {g.id: max(g.deadline, since) if since else g.deadline for g in games}
    rows = Event.objects.filter(game_id__in=deadline, type="turn_timed_out").values_list(
        "game_id", "created_at"
    )
    first: dict = {}
    for game_id, at in rows:
        first[game_id] = min(at, first.get(game_id, at))
    return [(first[g] - deadline[g]).total_seconds() for g in first]


def _sweeper(_: int) -> tuple[int, float]:
    connections.close_all()  # a fresh connection per process
    start = time.monotonic()
    done = 0
    while True:
        n = deadlines.sweep(budget=3600)
        done += n
        if n == 0:
            break
    connections.close_all()
    return done, time.monotonic() - start


GOAL_RATE = 500.0  # games/s
GOAL_IDLE_P99 = 2.0  # seconds


def throughput(games_count: int, sweepers: int, users: list) -> float:
    print(f"writing {games_count} overdue games ...", flush=True)
    t = time.monotonic()
    due = [-5.0 + 4.0 * i / games_count for i in range(games_count)]  # due 5..1 s ago
    games = make_games(games_count, due_in=due, users=users, turn_timeout=86400)
    print(f"  written in {time.monotonic() - t:.1f} s", flush=True)
    connections.close_all()
    start = time.monotonic()
    start_wall = timezone.now()
    with multiprocessing.get_context("fork").Pool(sweepers) as pool:
        results = pool.map(_sweeper, range(sweepers))
    elapsed = time.monotonic() - start
    enforced = sum(n for n, _ in results)
    timed_out = Event.objects.filter(type="turn_timed_out").count()
    lag = lags(games, since=start_wall)
    print(
        f"throughput: {enforced} games enforced by {sweepers} sweepers in {elapsed:.2f} s "
        f"= {enforced / elapsed:.0f} games/s  (per sweeper: {[n for n, _ in results]})"
    )
    print(
        f"  lag past the deadline: p50 {percentile(lag, 50):.2f} s, "
        f"p99 {percentile(lag, 99):.2f} s (from the sweep's start: the backlog's queueing)"
    )
    assert enforced == games_count == timed_out, (enforced, games_count, timed_out)
    return enforced / elapsed


def _celery_processes(interval: float) -> list[subprocess.Popen[bytes]]:
    """A real ``celery worker`` and ``celery beat`` on the bench database."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        database = f"sqlite:///{s['NAME']}"
    else:
        auth = quote(s["USER"] or "") + (":" + quote(s["PASSWORD"]) if s.get("PASSWORD") else "")
        database = f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    var = tempfile.mkdtemp(prefix="pablo-bench-celery-")
    env = {**os.environ, "DATABASE_URL": database, "PABLO_VAR_DIR": var}
    env["PABLO_SWEEP_SECONDS"] = str(interval)
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if broker.startswith("redis"):
        import redis

        parsed = urlparse(broker)
        db = os.environ.get("PABLO_BENCH_REDIS_DB", "2")
        env["CELERY_BROKER_URL"] = f"redis://{parsed.hostname}:{parsed.port or 6379}/{db}"
        redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()
    celery = str(Path(sys.executable).with_name("celery"))
    log = open(os.path.join(var, "celery.log"), "wb")  # noqa: SIM115
    common = {"cwd": ROOT, "env": env, "stdout": log, "stderr": subprocess.STDOUT}
    worker = [celery, "-A", "pablo", "worker", "--pool=solo", "--without-gossip"]
    worker += ["--without-mingle", "--without-heartbeat", "--loglevel=WARNING"]
    beat = [celery, "-A", "pablo", "beat", f"--schedule={var}/beat", "--loglevel=WARNING"]
    procs = [subprocess.Popen(worker, **common), subprocess.Popen(beat, **common)]
    print(f"  celery worker + beat, broker {env.get('CELERY_BROKER_URL', 'filesystem')}")
    return procs


def idle_lag(count: int, spread: float, users: list, *, celery: bool = False) -> float:
    interval = float(os.environ.get("PABLO_SWEEP_SECONDS", "1.0"))
    procs = _celery_processes(interval) if celery else []
    due = [(8.0 if celery else 2.0) + spread * i / count for i in range(count)]
    games = make_games(count, due_in=due, users=users, turn_timeout=3600)
    end = time.monotonic() + due[-1] + 3 * interval + 1
    while time.monotonic() < end:
        started = time.monotonic()
        if not celery:
            deadlines.sweep()
        time.sleep(max(0.0, interval - (time.monotonic() - started)))
    for proc in procs:
        proc.terminate()
    for proc in procs:
        proc.wait(30)
    lag = lags(games)
    how = "celery beat + worker" if celery else "in-process"
    print(
        f"idle ({how}): {len(lag)}/{count} games due over {spread:.0f} s, "
        f"sweep every {interval} s: "
        f"lag p50 {percentile(lag, 50):.2f} s, p99 {percentile(lag, 99):.2f} s, "
        f"max {max(lag):.2f} s, mean {statistics.mean(lag):.2f} s"
    )
    assert len(lag) == count
    return percentile(lag, 99)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--sweepers", type=int, default=2)
    parser.add_argument("--idle", type=int, default=200)
    parser.add_argument("--spread", type=float, default=10.0)
    parser.add_argument(
        "--celery", action="store_true", help="idle phase with a real celery worker and beat"
    )
    args = parser.parse_args()

    print(f"database: {connection.vendor}", flush=True)
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        User = get_user_model()
        users = [User.objects.create_user(f"bench{i}", password=None) for i in range(20)]
        rate = throughput(args.games, args.sweepers, users)
        p99 = idle_lag(args.idle, args.spread, users, celery=args.celery) if args.idle else 0.0
    finally:
        connections.close_all()
        connection.creation.destroy_test_db(old_name, verbosity=0)
    missed = []
    if rate < GOAL_RATE:
        missed.append(f"rate {rate:.0f} < {GOAL_RATE:.0f} games/s")
    if p99 > GOAL_IDLE_P99:
        missed.append(f"idle lag p99 {p99:.2f} > {GOAL_IDLE_P99} s")
    print("goals missed: " + "; ".join(missed) if missed else "goals met")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
