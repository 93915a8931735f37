"""Benchmark: drawing any step of a 2,000-event game in the replay viewer.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo .venv/bin/python bench/bench_replay.py

Works in a database of its own (``bench_pablo_replay``, created, migrated and
dropped; without DATABASE_URL a temporary SQLite file). For a Cabo game and a
Skip-Bo game of at least ``--events`` events (default 2,000, made by random
legal play through the pure engine and written straight into the event
store), it requests ``/replays/<id>/?step=n[&as=s]`` through Django's test
client -- the whole server side: URL routing, the selectors, the views,
the templates -- and times each request:

* **cold**: the first request of a game (in a warmed-up process): the events
  are loaded and one fold of the whole stream builds the replay -- checkpoints
  every 32 events, the steps and their all-cards sentences, the chart;
* **warm**: ``--requests`` random steps (default 300) from random
  perspectives (all cards or a seat), the case every click after the first.

Goal (bench/README.md): warm max <= 50 ms (the exit status says whether it was
met); cold is reported.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
if os.environ.get("DATABASE_URL"):
    os.environ["PABLO_TEST_DB_NAME"] = "bench_pablo_replay"
else:
    os.environ["PABLO_VAR_DIR"] = tempfile.mkdtemp(prefix="pablo-bench-")
    os.environ["PABLO_TEST_DB_NAME"] = os.path.join(os.environ["PABLO_VAR_DIR"], "bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from replays import selectors  # noqa: E402
from tests.replays.games import engine_game, store  # noqa: E402

GOAL_MS = 50.0


def long_game(ruleset: str, seats: int, events: int, options: dict) -> list:
    for seed in range(1, 200):
        t = engine_game(ruleset, seats, seed=seed, options=options, max_actions=50_000)
        if t.state.status == "finished" and len(t.events) >= events:
            return t.events
    raise SystemExit(f"no {ruleset} game of {events} events found")


def ms(values: list[float]) -> str:
    values = sorted(values)
    p = lambda q: values[min(len(values) - 1, int(q * len(values)))]  # noqa: E731
    return (
        f"p50 {statistics.median(values):6.1f} ms   p95 {p(0.95):6.1f} ms   "
        f"max {values[-1]:6.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    ok = True
    try:
        client = Client()
        rng = random.Random(args.seed)
        # warm the process up (URL resolver, templates compiled) on a short game, so
        # that "cold" below is the cost of a long game's first page, not of Django's
        small = store(engine_game("pablo", 2, seed=1).events)
        for seat in ("", "&as=0"):
            assert client.get(f"/replays/{small.id}/?step=1{seat}").status_code == 200
        cases = [
            ("cabo", 4, {}),
            ("skipbo", 4, {}),
        ]
        for ruleset, seats, options in cases:
            events = long_game(ruleset, seats, args.events, options)
            game = store(events)
            selectors._CACHE.clear()
            start = time.perf_counter()
            response = client.get(f"/replays/{game.id}/?step=0")
            cold = (time.perf_counter() - start) * 1000
            assert response.status_code == 200
            replay = selectors.game_replay(game)
            if os.environ.get("BENCH_DEBUG"):
                for _ in range(3):
                    t0 = time.perf_counter()
                    loaded = selectors.load_events(game)
                    t1 = time.perf_counter()
                    selectors.build_replay(str(game.id), game.version, loaded)
                    t2 = time.perf_counter()
                    print(f"  load {1000 * (t1 - t0):.1f} ms, build {1000 * (t2 - t1):.1f} ms")
            warm: list[float] = []
            for _ in range(args.requests):
                step = rng.randint(0, replay.last)
                seat = rng.choice([None, *range(seats)])
                url = f"/replays/{game.id}/?step={step}" + ("" if seat is None else f"&as={seat}")
                start = time.perf_counter()
                response = client.get(url)
                warm.append((time.perf_counter() - start) * 1000)
                if os.environ.get("BENCH_DEBUG") and warm[-1] > GOAL_MS:
                    print("  slow:", url, f"{warm[-1]:.1f} ms")
                assert response.status_code == 200, url
            verdict = "ok" if max(warm) <= GOAL_MS else f"OVER the {GOAL_MS:.0f} ms goal"
            ok = ok and max(warm) <= GOAL_MS
            print(
                f"{ruleset:7} {len(events):5} events, {replay.last + 1:5} steps, {seats} seats\n"
                f"  cold (first request, builds the replay): {cold:6.1f} ms\n"
                f"  warm ({args.requests} random steps/perspectives): {ms(warm)}  [{verdict}]"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
