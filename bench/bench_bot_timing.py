"""Benchmark: how soon bots move, with the processes of ``make run``, on each broker.

    .venv/bin/python bench/bench_bot_timing.py                 # both brokers, 100 moves each
    .venv/bin/python bench/bench_bot_timing.py --broker file --moves 50

For each broker it starts what ``scripts/run.sh`` starts -- a ``celery worker``
(threads, concurrency 2) and ``celery beat`` with the project's settings -- on a
database of its own:

* ``file``: the embedded default, SQLite and the file-system broker, in a
  temporary ``PABLO_VAR_DIR`` (exactly ``make run``'s configuration);
* ``redis``: PostgreSQL (``bench_pablo_bot_timing`` on ``PABLO_BENCH_PG``, default
  ``postgres://postgres@127.0.0.1:5432``) and Redis database ``PABLO_BENCH_REDIS_DB``
  (default 2) on ``PABLO_BENCH_REDIS`` (default ``redis://127.0.0.1:6379``).

Then this process plays seat 0 of 3-player Cabo games against two ``basic`` bots
(through ``services.games.game_act``, at once whenever the game waits for it) until the
bots have made ``--moves`` turn moves. A bot's lag is the time from the event that
made the game wait for it to its own first event, both from the event store
(``Event.created_at``). Goal: p95 <= ``PABLO_BOT_DELAY`` + 1 s (the delay is 1 s).
The actions that finish a bot's turn follow about a third of the delay apart
(``follow`` below: from a bot's event to its next one in the same turn). And the
person's wait -- from their action that ends their turn to the moment the game
waits for them again, two bots' turns later -- has the goal p95 <= 2 x (delay + 1 s).
Exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DELAY = 1.0
GOAL = DELAY + 1.0
WAIT_GOAL = 2 * (DELAY + 1.0)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def environment(broker: str, var: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "pablo.settings",
        "DJANGO_SECRET_KEY": "bench-only-" + "k" * 50,  # a throwaway key
        "PABLO_VAR_DIR": var,
        "PABLO_BOT_DELAY": str(DELAY),
        "PYTHONPATH": str(ROOT),
    }
    if broker == "file":
        env["DATABASE_URL"] = ""
        env["CELERY_BROKER_URL"] = ""
    else:
        pg = os.environ.get("PABLO_BENCH_PG", "postgres://postgres@127.0.0.1:5432")
        redis_url = os.environ.get("PABLO_BENCH_REDIS", "redis://127.0.0.1:6379")
        env["DATABASE_URL"] = f"{pg}/bench_pablo_bot_timing"
        env["CELERY_BROKER_URL"] = f"{redis_url}/{os.environ.get('PABLO_BENCH_REDIS_DB', '2')}"
    return env


def fresh_postgres(env: dict[str, str]) -> None:
    import psycopg

    server, name = env["DATABASE_URL"].rsplit("/", 1)
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def run_broker(broker: str, moves: int) -> dict[str, float]:
    """Set up, start worker + beat, measure in a child process; the figures."""
    var = tempfile.mkdtemp(prefix=f"pablo-bench-bots-{broker}-")
    env = environment(broker, var)
    if broker == "redis":
        import redis

        fresh_postgres(env)
        redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()
    python = str(BIN / "python")
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    celery = str(BIN / "celery")
    log = open(Path(var) / "celery.log", "wb")  # noqa: SIM115
    common = {"cwd": ROOT, "env": env, "stdout": log, "stderr": subprocess.STDOUT}
    procs = [
        subprocess.Popen(  # as scripts/run.sh starts them
            [
                celery,
                "-A",
                "pablo",
                "worker",
                "--loglevel=WARNING",
                "--pool=threads",
                "--concurrency=2",
            ],
            **common,
        ),
        subprocess.Popen([celery, "-A", "pablo", "beat", "--loglevel=WARNING"], **common),
    ]
    try:
        time.sleep(4)  # the worker's start
        out = subprocess.run(
            [python, __file__, "--measure", broker, "--moves", str(moves)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60 + moves * 8,
        )
        if out.returncode != 0:
            print(out.stdout, out.stderr, (Path(var) / "celery.log").read_text()[-3000:])
            raise SystemExit(f"the {broker} measurement failed")
        figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
        queue = Path(var) / "broker" / "queue"
        figures["queued_at_end"] = len(list(queue.iterdir())) if queue.exists() else 0
        return figures
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def measure(broker: str, moves: int) -> None:
    """In the child: play seat 0 of Cabo games against two bots; print the lags as JSON."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from games import rules
    from games.bots import decide, waits_for
    from games.bots.play import bot_view
    from games.models import Event, Game
    from games.selectors import games as game_selectors
    from games.services import games as game_services

    person, _ = get_user_model().objects.get_or_create(username="bencher")
    rng = random.Random(5)
    lags: list[float] = []
    follow: list[float] = []
    waits: list[float] = []
    timed_out = 0
    games = 0
    deadline = time.monotonic() + moves * 6 + 60
    while len(lags) < moves and time.monotonic() < deadline:
        game = game_services.game_create(
            user=person,
            ruleset="cabo",
            seats=3,
            turn_timeout=600,
            options={"start_seat": 0},
            bots=[{"seat": 1, "level": "basic"}, {"seat": 2, "level": "basic"}],
        )
        games += 1
        since = None  # when the person's last action ended their turn
        while time.monotonic() < deadline:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            state = game_selectors.game_state(game=game)
            legal = rules.get_ruleset("cabo").legal_actions(state, 0)
            if state.version % 20 == 0 and len(lags) + _bot_turns(game) >= moves:
                break  # enough bot turns: stop this game here
            if legal and waits_for(legal):
                if since is not None:
                    waits.append(time.monotonic() - since)
                    since = None
                body = decide("basic", "cabo", bot_view(state, 0), 0, rng)
                game_services.game_act(game_id=game.id, user=person, command=body)
                game.refresh_from_db()
                after = game_selectors.game_state(game=game)
                if 0 not in rules.get_ruleset("cabo").actors(after):
                    since = time.monotonic()  # the turn is over: the bots' turns begin
                continue
            time.sleep(0.02)
        rows = list(Event.objects.filter(game=game).order_by("seq"))
        timed_out += sum(1 for r in rows if r.type == "turn_timed_out")
        for before, row in itertools.pairwise(rows):
            # a bot's turn: its first event after the one that began the turn
            gap = (row.created_at - before.created_at).total_seconds()
            if row.seat in (1, 2) and row.type in ("drawn", "called"):
                lags.append(gap)
            elif row.seat in (1, 2) and before.seat == row.seat and before.seq + 1 == row.seq:
                follow.append(gap)  # the same bot's next action in its turn
    print(
        json.dumps(
            {
                "moves": len(lags),
                "games": games,
                "p50": statistics.median(lags) if lags else float("nan"),
                "p95": percentile(lags, 95) if lags else float("nan"),
                "max": max(lags) if lags else float("nan"),
                "timed_out": timed_out,
                "follow_p50": statistics.median(follow) if follow else float("nan"),
                "wait_p50": statistics.median(waits) if waits else float("nan"),
                "wait_p95": percentile(waits, 95) if waits else float("nan"),
            }
        )
    )


def _bot_turns(game: Any) -> int:
    from games.models import Event

    return Event.objects.filter(game=game, seat__in=(1, 2), type__in=("drawn", "called")).count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--broker", choices=["file", "redis", "both"], default="both")
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--measure", choices=["file", "redis"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.measure, args.moves)
        return
    brokers = ["file", "redis"] if args.broker == "both" else [args.broker]
    missed = False
    for broker in brokers:
        f = run_broker(broker, args.moves)
        ok = f["p95"] <= GOAL and f["moves"] >= args.moves and not f["timed_out"]
        ok = ok and f["wait_p95"] <= WAIT_GOAL
        missed |= not ok
        print(
            f"{broker:5}  bot moves {int(f['moves'])} in {int(f['games'])} games: "
            f"lag p50 {f['p50']:.2f} s, p95 {f['p95']:.2f} s, max {f['max']:.2f} s "
            f"(goal p95 <= {GOAL:.1f} s); the turn's next actions p50 {f['follow_p50']:.2f} s "
            f"apart; the person waits p50 {f['wait_p50']:.2f} s, p95 {f['wait_p95']:.2f} s "
            f"(goal p95 <= {WAIT_GOAL:.1f} s); timeouts {int(f['timed_out'])}; "
            f"messages left in the queue {int(f['queued_at_end'])}  {'ok' if ok else 'MISSED'}"
        )
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
