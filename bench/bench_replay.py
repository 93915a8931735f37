"""Benchmark: drawing any step of a 2,000-event game in the replay viewer.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo_bench_viewer \\
        .venv/bin/python bench/bench_replay.py

Works in a database of its own (``bench_pablo_replay`` on that server, created,
migrated and dropped; without DATABASE_URL a temporary SQLite file) and with
Django's default cache -- where the viewer keeps its replays -- set to what
production uses: files in a temporary folder, or ``PABLO_BENCH_CACHE_URL`` (a
django-environ cache URL, e.g. ``redis://127.0.0.1:6379/9``; that database is
cleared). For a Cabo game and a Skip-Bo game of at least ``--events`` events
(default 2,000, made by random legal play through the pure engine and written
straight into the event store), it requests ``/replays/<id>/?step=n[&as=s]``
through Django's test client -- the whole server side: URL routing, the
selectors, the views, the templates -- and times each request:

* **fresh process**: ``--fresh`` new Python processes (default 5 each) that
  request one page of another game (their very first request: Django's own
  lazy imports, template compilation), then the long game's step 0 -- once
  with no replay cached (the process loads the events and folds them), once
  with the replay cached (another worker built it);
* **cold, in process**: ``--cold`` requests (default 20) of a random step and
  perspective after the cached replay was deleted;
* **warm**: ``--requests`` random steps (default 300) from random
  perspectives (all cards or a seat), the case of every click after the first.

Beside them, in the same run, the yardstick: loading the stream and folding it
once (``selectors.games.game_events`` + ``rules.fold``), the least a first page can cost.

Goal (bench/README.md): every step <= 50 ms, the first of a game included.
The exit status checks the p50 of every row and the p99 of the in-process
rows (cold and warm); every p99 and maximum is printed, with the median CPU
time of the process beside the wall clock (the difference is time spent
waiting: for the database, for a core), and the full garbage collections that
ran inside measured requests.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-" + "k" * 50)  # a throwaway key
CHILD = "--child" in sys.argv
if not CHILD:  # a child inherits its parent's: the same shared replay cache
    os.environ["PABLO_VAR_DIR"] = TEMP_DIR = tempfile.mkdtemp(prefix="pablo-bench-")
CACHE_URL = os.environ.get("PABLO_BENCH_CACHE_URL", "")
if os.environ.get("DATABASE_URL"):
    os.environ["PABLO_TEST_DB_NAME"] = "bench_pablo_replay"
else:
    os.environ["PABLO_TEST_DB_NAME"] = os.path.join(os.environ["PABLO_VAR_DIR"], "bench.sqlite3")

import django  # noqa: E402

django.setup()

import environ  # noqa: E402
from django.conf import settings  # noqa: E402

# The viewer's cache is Django's default one; here, as in production, one that every
# process shares (never a per-process LocMem).
settings.CACHES = {
    **settings.CACHES,
    "default": environ.Env.cache_url_config(CACHE_URL)
    if CACHE_URL
    else {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.path.join(os.environ["PABLO_VAR_DIR"], "cache"),
    },
}

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from games import rules  # noqa: E402
from games.selectors import games as game_selectors  # noqa: E402
from replays import steps  # noqa: E402
from tests.replays.games import engine_game, store  # noqa: E402

GOAL_MS = 50.0


def long_game(ruleset: str, seats: int, events: int, options: dict) -> list:
    for seed in range(1, 200):
        t = engine_game(ruleset, seats, seed=seed, options=options, max_actions=50_000)
        if t.state.status == "finished" and len(t.events) >= events:
            return t.events
    raise SystemExit(f"no {ruleset} game of {events} events found")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summary(timings: list[tuple[float, float]]) -> str:
    """Wall-clock p50, p99 and max, and the median CPU time of the process."""
    values = [wall for wall, _ in timings]
    cpu = statistics.median(c for _, c in timings)
    return (
        f"p50 {statistics.median(values):6.1f}   p99 {pct(values, 0.99):6.1f}   "
        f"max {max(values):6.1f} ms   (CPU p50 {cpu:5.1f} ms)"
    )


def walls(timings: list[tuple[float, float]]) -> list[float]:
    return [wall for wall, _ in timings]


FULL_GC: list[float] = []  # durations of the full collections, ms
_gc_start = [0.0]


def _gc_watch(phase: str, info: dict) -> None:
    if info["generation"] == 2:
        if phase == "start":
            _gc_start[0] = time.perf_counter()
        else:
            FULL_GC.append((time.perf_counter() - _gc_start[0]) * 1000)


gc.callbacks.append(_gc_watch)


def random_url(rng: random.Random, base: str, seats: int, last: int) -> str:
    """A random step of the game at ``base``, all cards or through a random seat's eyes."""
    seat = rng.choice([None, *range(seats)])
    step = rng.randint(0, last)
    return f"{base}?step={step}" + ("" if seat is None else f"&as={seat}")


def timed(client: Client, url: str) -> tuple[float, float]:
    """(wall-clock ms, CPU ms of this process) of one request."""
    start, cpu = time.perf_counter(), time.process_time()
    response = client.get(url)
    took = (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000
    assert response.status_code == 200, url
    return took


def child(db_name: str, first_url: str, url: str) -> None:
    """A fresh process: its very first request, then the timed one (JSON on stdout)."""
    settings.ALLOWED_HOSTS = ["testserver"]
    connection.settings_dict["NAME"] = db_name
    client = Client()
    first = timed(client, first_url)
    FULL_GC.clear()
    took = timed(client, url)
    print(json.dumps({"first": first, "took": took, "full_gc": len(FULL_GC)}))


def fresh(db_name: str, first_url: str, url: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", db_name, first_url, url],
        check=True,
        capture_output=True,
        text=True,
        env=os.environ,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def forget(game) -> None:
    """No replay of ``game`` cached anywhere."""
    cache.delete(f"replay:{game.id}:{game.version}:{steps.code_version()}")


def yardstick(game) -> tuple[float, float]:
    """Loading the stream and folding it once: the least a first page can cost."""
    start, cpu = time.perf_counter(), time.process_time()
    rules.fold(game_selectors.game_events(game))
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--cold", type=int, default=20)
    parser.add_argument("--fresh", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", nargs=3, metavar=("DB", "FIRST_URL", "URL"))
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return 0

    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    db_name = connection.settings_dict["NAME"]
    cache.clear()
    print(f"cache: {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}")
    ok = True
    try:
        client = Client()
        rng = random.Random(args.seed)
        # warm the process up (URL resolver, templates compiled) on a short game, so
        # that "cold" below is the cost of a long game's first page, not of Django's
        small = store(engine_game("pablo", 2, seed=1).events)
        first_url = f"/replays/{small.id}/?step=1"
        for seat in ("", "&as=0"):
            timed(client, first_url + seat)
        cases = [("cabo", 4, {}), ("skipbo", 4, {})]
        for ruleset, seats, options in cases:
            events = long_game(ruleset, seats, args.events, options)
            game = store(events)
            base = f"/replays/{game.id}/"
            # Making the game left this process tens of thousands of objects: collect
            # them now, or the full collection they are due would land in a measured
            # request (the full collections inside measured requests are counted).
            gc.collect()

            # fresh processes: nothing cached, then the replay cached by another process
            fresh_build, fresh_hit, fresh_first, fresh_gc = [], [], [], 0
            for _ in range(args.fresh):
                forget(game)
                got = fresh(db_name, first_url, f"{base}?step=0")
                fresh_build.append(tuple(got["took"]))
                fresh_first.append(tuple(got["first"]))
                hit = fresh(db_name, first_url, f"{base}?step=0")
                fresh_hit.append(tuple(hit["took"]))
                fresh_gc += got["full_gc"] + hit["full_gc"]
            replay = steps.game_replay(game)
            args_url = (rng, base, seats, replay.last)

            FULL_GC.clear()
            cold, floor = [], []
            for _ in range(args.cold):
                forget(game)
                cold.append(timed(client, random_url(*args_url)))
                floor.append(yardstick(game))
            cold_gc = len(FULL_GC)

            FULL_GC.clear()
            warm = [timed(client, random_url(*args_url)) for _ in range(args.requests)]
            warm_gc = list(FULL_GC)

            rows = {
                f"fresh process, step 0, nothing cached ({args.fresh}x)": fresh_build,
                f"fresh process, step 0, cached by another ({args.fresh}x)": fresh_hit,
                f"cold in process, nothing cached ({args.cold}x)": cold,
                f"warm, random steps and perspectives ({args.requests}x)": warm,
            }
            over = [name for name, t in rows.items() if statistics.median(walls(t)) > GOAL_MS]
            over += [
                f"p99 {name}" for name in list(rows)[2:] if pct(walls(rows[name]), 0.99) > GOAL_MS
            ]
            ok = ok and not over
            verdict = "ok" if not over else f"OVER the {GOAL_MS:.0f} ms goal: {'; '.join(over)}"
            ratio = statistics.median(walls(cold)) / statistics.median(walls(floor))
            print(
                f"{ruleset:7} {len(events):5} events, {replay.last + 1:5} steps, {seats} seats"
                f"  [{verdict}]"
            )
            for name, t in rows.items():
                print(f"  {name:55} {summary(t)}")
            print(
                f"  {'yardstick: load the stream + fold it once (' + str(args.cold) + 'x)':55} "
                f"{summary(floor)}\n"
                f"  cold page / yardstick (p50): {ratio:.2f}\n"
                f"  (a fresh process's very first request, another game: {summary(fresh_first)})\n"
                f"  full garbage collections in measured requests: fresh {fresh_gc}, "
                f"cold {cold_gc}, warm {len(warm_gc)}"
                + (f" ({', '.join(f'{d:.0f} ms' for d in warm_gc)})" if warm_gc else "")
            )
    finally:
        cache.clear()
        connection.creation.destroy_test_db(old_name, verbosity=0)
        shutil.rmtree(TEMP_DIR, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
