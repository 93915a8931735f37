"""Benchmark: the followers of the log under a production-like load, in one run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo .venv/bin/python bench/bench_followers.py
    # PABLO_BENCH_REDIS_DB=14 (flushed before and after); --quick: shorter phases, 15 s down

PostgreSQL, Redis, a real Celery worker (``--pool=threads --concurrency=2``, as
``scripts/run.sh`` starts it) and beat, on loopback only; works in a database
of its own (``bench_pablo_followers``: created, migrated, dropped). The worker
runs every follower of the service plus the tests' probe follower
(``tests.followers.probe``: it records each event it handles in a table, in the
follower's transaction), which counts what was handled: nothing lost, nothing
twice.

1. **Lag at 100 actions/s**: four writer threads play two-player ``pablo``
   games through ``game_act`` (``games.services.games``) at 100 actions/s in all; the probe's lag
   per event (from the event's ``created_at`` to the start of the ``handle``
   that got it; the probe is the last follower of each run, so its lag
   includes the others'): p50, p99, max.
2. **Sixteen writers**: 16 threads act on 16 games as fast as they can while
   the followers read.
3. **Worker stopped**: SIGKILL, 60 s (``--outage``) of writes at 100 actions/s,
   a new worker: how long after its start each follower reached the log's head
   as it was at the restart.
4. **The bots follower's cost**: its ``handle`` per batch of the events of
   100 actions in games where a bot plays (one second at 100 actions/s),
   timed in this process.

At the end every event of the run must be in the probe's table exactly once,
and every follower at the head. Exits non-zero when a goal is missed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchkit import bench_redis  # noqa: E402

DB_NAME = os.environ.get("PABLO_BENCH_DB", "bench_pablo_followers")
os.environ["PABLO_BENCH_DB"] = DB_NAME
BROKER = bench_redis(14)  # PABLO_BENCH_REDIS_DB, flushed before and after

from bench_append import act_once, new_game  # noqa: E402  (django.setup() too)
from benchkit import close_databases, open_databases, percentile, verdict  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, connections  # noqa: E402

from games.models import Event, FollowerPosition  # noqa: E402
from tests.followers import probe  # noqa: E402
from tests.processes import Processes, database_url  # noqa: E402

GOALS = {"lag_p99_s": 1.0, "catch_up_s": 10.0}


def write(games: list, users: list, rate: float, seconds: float, threads: int) -> int:
    """``threads`` writers acting on their share of ``games``, ``rate`` actions/s in all
    (0: as fast as they can); the number of actions stored."""
    done = [0] * threads
    stop = time.monotonic() + seconds

    def writer(i: int) -> None:
        mine = games[i::threads]
        interval = threads / rate if rate else 0.0
        due = time.monotonic()
        n = 0
        try:
            while time.monotonic() < stop:
                game = mine[n % len(mine)]
                if game.status != "active":
                    game = mine[n % len(mine)] = new_game(users)
                act_once(game, users)
                n += 1
                due += interval
                pause = due - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
        finally:
            done[i] = n
            connections.close_all()

    workers = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    return sum(done)


def probed() -> list[tuple[int, float]]:
    """(position, when its handle started) of every event the probe handled."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT position, started FROM {probe.TABLE} ORDER BY position")
        return list(cursor.fetchall())


def positions() -> dict[str, int]:
    return dict(FollowerPosition.objects.values_list("name", "position"))


def head() -> int:
    return Event.objects.order_by("-position").values_list("position", flat=True).first() or 0


def wait_caught_up(target: int, timeout: float) -> dict[str, float]:
    """Seconds until each follower's position reached ``target`` (absent: not in time)."""
    started = time.monotonic()
    reached: dict[str, float] = {}
    names = set(positions())
    while time.monotonic() - started < timeout:
        for name, position in positions().items():
            if position >= target and name not in reached:
                reached[name] = time.monotonic() - started
        if names and reached.keys() >= names:
            break
        time.sleep(0.05)
    return reached


def lags_since(after: int) -> list[float]:
    created = dict(Event.objects.filter(position__gt=after).values_list("position", "created_at"))
    return [started - created[p].timestamp() for p, started in probed() if p in created]


def follower_costs(start: int, end: int) -> list[tuple[str, float]]:
    """Each follower of this process timed over the events ``start`` < position <= ``end``
    (read again from ``start``: handling them twice is allowed); ms per 100 events."""
    from games.followers import follow, registered

    found = []
    for follower in registered():
        FollowerPosition.objects.filter(name=follower.name).update(position=start)
        started = time.perf_counter()
        while positions()[follower.name] < end:
            follow(follower)
        found.append((follower.name, (time.perf_counter() - started) * 1e5 / (end - start)))
    return found


def bots_cost(users: list) -> float:
    """ms of the bots follower's ``handle`` for the events of 100 actions in 100 games where
    a bot plays (in this process; the tasks it enqueues go to the stopped worker's queue)."""
    from games.services import games as game_services
    from games.turns.followers import BotTurns

    games = [
        game_services.game_create(
            user=users[0],
            ruleset="pablo",
            seats=2,
            turn_timeout=86400,
            options={"start_seat": 0},
            bots=[{"seat": 1, "level": "basic"}],
        )
        for _ in range(100)
    ]
    top = head()
    for game in games:  # one action each: the worst case, one state per event
        act_once(game, users[:1])
    events = list(Event.objects.filter(position__gt=top).order_by("position"))
    follower = BotTurns()
    spent = []
    for _ in range(5):
        started = time.perf_counter()
        follower.handle(events)
        spent.append((time.perf_counter() - started) * 1000)
    return statistics.median(spent)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--outage", type=float, default=60.0, help="seconds the worker is down")
    args = parser.parse_args()
    client = open_databases(DB_NAME, BROKER)
    steady = 10.0 if args.quick else 30.0
    outage = 15.0 if args.quick else args.outage
    out: dict[str, float] = {}
    with connection.cursor() as cursor:
        cursor.execute(probe.CREATE)
    tmp = Path(tempfile.mkdtemp(prefix="bench-followers-"))
    procs = Processes(tmp, DATABASE_URL=database_url(), CELERY_BROKER_URL=BROKER)
    procs.env.update(
        DJANGO_SETTINGS_MODULE="tests.followers.settings",
        PABLO_TEST_KEEP_DEFAULT_CACHE="1",  # the hint's key shared with this process
        PABLO_FAST_PATH_SECONDS="0",
        PROBE_BATCH="500",
    )
    for name in ("PABLO_TEST_DB_NAME", "PABLO_SWEEP_SECONDS", "PABLO_WEBHOOK_BACKOFF"):
        procs.env.pop(name, None)  # the service's defaults, not the tests' faster sweeps
    worker_options = ["--pool=threads", "--concurrency=2", "--without-heartbeat",
                      "--without-gossip", "--without-mingle"]  # fmt: skip
    missed = []
    try:
        User = get_user_model()
        users = [User.objects.create_user(username=f"bench{i}", password="x") for i in (0, 1)]
        games = [new_game(users) for _ in range(16)]
        first = head()
        worker = procs.worker("worker", options=worker_options)
        procs.beat()

        # 1. lag at 100 actions/s
        since = head()
        done = write(games, users, 100.0, steady, 4)
        wait_caught_up(head(), 30)
        lags = lags_since(since)
        out["lag_p99_s"] = percentile(lags, 0.99)
        print(
            f"lag at {done / steady:.0f} actions/s ({done} actions, {steady:.0f} s): "
            f"p50 {statistics.median(lags) * 1000:.0f} ms, p99 {out['lag_p99_s'] * 1000:.0f} ms,"
            f" max {max(lags) * 1000:.0f} ms (goal p99 <= 1 s)",
            flush=True,
        )

        # 2. sixteen writers
        since = head()
        done = write(games, users, 0.0, 10.0, 16)
        reached = wait_caught_up(head(), 30)
        print(
            f"16 writers: {done} actions in 10 s ({done / 10:.0f}/s); every follower at the"
            f" head {max(reached.values(), default=float('nan')):.1f} s after they stopped",
            flush=True,
        )

        # 3. the worker stopped, then restarted
        procs.kill(worker)
        down = head()
        done = write(games, users, 100.0, outage, 4)
        target = head()
        behind = {name: target - p for name, p in positions().items()}
        worker = procs.worker("worker", wait=False, options=worker_options)
        reached = wait_caught_up(target, 120)
        slowest = max(reached.values()) if reached.keys() >= behind.keys() else float("inf")
        out["catch_up_s"] = slowest
        print(
            f"worker down {outage:.0f} s ({done} actions meanwhile, up to {max(behind.values())}"
            f" events behind): every follower at the head {slowest:.1f} s after the worker's"
            f" start (" + ", ".join(f"{n} {s:.1f} s" for n, s in sorted(reached.items())) + ")",
            flush=True,
        )

        # nothing lost, nothing twice
        wait_caught_up(head(), 60)
        stored = list(
            Event.objects.filter(position__gt=first)
            .order_by("position")
            .values_list("position", flat=True)
        )
        seen = [p for p, _ in probed() if p > first]
        lost = len(set(stored) - set(seen))
        doubled = len(seen) - len(set(seen))
        print(f"probe: {len(stored)} events stored, {lost} lost, {doubled} handled twice")
        if lost or doubled:
            missed.append(f"{lost} lost, {doubled} doubled")
        late = {n: p for n, p in positions().items() if p < stored[-1]}
        if late:
            missed.append(f"followers behind at the end: {late}")

        # 4. each follower's cost (worker stopped: tasks enqueued just wait in the queue)
        procs.close()
        print(f"each follower again over the {target - down} events of the outage, here:")
        for follower, ms in follower_costs(down, target):
            print(f"  {follower}: {ms:.1f} ms per 100 events", flush=True)
        ms = bots_cost(users)
        print(f"bots follower: handle of 100 events in games with a bot {ms:.1f} ms", flush=True)
    except BaseException:
        print(procs.logs())
        raise
    finally:
        procs.close()
        close_databases(DB_NAME, client)
    return verdict(out, GOALS, missed)


if __name__ == "__main__":
    sys.exit(main())
