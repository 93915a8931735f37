"""Benchmark: the example bot (``clients/python/examples/bot.py``) plays N games at once.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/6 .venv/bin/python bench/bench_example_bot.py
    # --games 100, --ruleset pablo, --port 18720 (and the next one), --max-minutes 20

The production configuration on loopback, as ``bench_feed.py`` starts it (gunicorn
with ``gunicorn.conf.py``, ``uvicorn pablo.asgi:application --workers 2``, a Celery
worker and beat, Redis), in a database of its own (``bench_pablo_example_bot``:
created, migrated, dropped), with the production throttles but the actions' (see
``main``; ``--actions-limit`` keeps it) and the house bots'
production delay (``PABLO_BOT_DELAY``). One account makes ``--games`` games, each
against a house ``basic`` bot (seat 1), all at once; then the example bot runs, as
a user would run it -- its own process, through the official client
(``clients/python``), ``--url`` the ASGI process (which serves every path; the
proxy of docs/operations.md would send the feeds there and the rest to gunicorn)
-- until all its games have finished.

Measured from the event store afterwards (times are the events' stored ``at``):

* **move delay**: from the event that gave the bot the turn (its ``your_turn``
  account event's ``at``: the game event it was made from) to the bot's next
  action's event in that game; p50, p99, max;
* **timed-out turns** of the bot (``turn_timed_out`` events of its seat);
* **errors**: the example bot's exit status and the answers it retried, beside the
  409s it handles by deciding again (its last line: ``retried: {...}``).

Goals (issue 27): 0 timed-out turns, 0 errors beside handled 409s, move delay
p99 <= 1 s. Exits 1 when one is missed.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("PABLO_BENCH_DB", "bench_pablo_example_bot")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_feed

GOAL = 1.0


def main() -> int:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from games.models import AccountEvent, Event, Game
    from games.services import games as game_services

    DB_NAME, ROOT, Servers, pct = (
        bench_feed.DB_NAME,
        bench_feed.ROOT,
        bench_feed.Servers,
        bench_feed.pct,
    )
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--ruleset", default="pablo")
    parser.add_argument("--turn-timeout", type=int, default=300, help="seconds per turn")
    parser.add_argument("--port", type=int, default=18720)
    parser.add_argument("--feed-workers", type=int, default=2)
    parser.add_argument("--max-minutes", type=float, default=20.0)
    parser.add_argument(
        "--actions-limit", action="store_true", help="keep PABLO_THROTTLE_ACTIONS (120/min)"
    )
    args = parser.parse_args()
    broker = settings.CELERY_BROKER_URL
    if connection.vendor != "postgresql" or not broker.startswith("redis"):
        raise SystemExit("needs PostgreSQL and Redis (DATABASE_URL, CELERY_BROKER_URL)")
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(SystemExit("time is up")))
    signal.alarm(int(args.max_minutes * 60))
    creation = connection.creation
    creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    connection.settings_dict["NAME"] = DB_NAME
    print(f"load average {os.getloadavg()[0]:.2f}", flush=True)
    servers = None
    try:
        user = get_user_model().objects.create_user(username="example", password="!")
        token = Token.objects.create(user=user, key=secrets.token_hex(20)).key
        ids = []
        for _ in range(args.games):
            game = game_services.game_create(
                user=user, ruleset=args.ruleset, seats=2, turn_timeout=args.turn_timeout,
                options={}, bots=[{"seat": 1, "level": "basic"}],
            )  # fmt: skip
            ids.append(game.id)
        connection.close()
        # The production throttles, but for the actions' (PABLO_THROTTLE_ACTIONS, 120/min
        # per user): 100 games on one account ask for about 2,000 actions a minute, and at
        # 120 the bench measured the limit (a burst of actions a minute), not the bot or the
        # feed. --actions-limit keeps it.
        servers = Servers(args.port, args.feed_workers, broker, throttled=args.actions_limit)
        url = f"http://127.0.0.1:{servers.feed_port}"
        env = {**os.environ, "PYTHONPATH": str(ROOT / "clients/python")}
        started = time.monotonic()
        bot = subprocess.run(
            [sys.executable, str(ROOT / "clients/python/examples/bot.py"), "--url", url,
             "--token", token, "--games", str(args.games), "--seed", "1"],
            env=env, capture_output=True, text=True, timeout=args.max_minutes * 60,
        )  # fmt: skip
        took = time.monotonic() - started
        lines = bot.stdout.strip().splitlines()
        print(f"example bot: exit {bot.returncode} after {took:.0f} s; {lines[-1:]}", flush=True)
        if bot.returncode:
            print(bot.stderr[-3000:], flush=True)
        found = re.search(r"retried: (\{.*\})", bot.stdout)
        retried = ast.literal_eval(found.group(1)) if found else {}
        # the figures, from the event store
        seat = 0
        delays: list[float] = []
        turns = AccountEvent.objects.filter(user=user, type="your_turn").order_by("position")
        events: dict[str, list[tuple[float, int | None, str]]] = {}
        for event in Event.objects.filter(game_id__in=ids).order_by("game", "seq"):
            events.setdefault(str(event.game_id), []).append(
                (event.created_at.timestamp(), event.seat, event.type)
            )
        for turn in turns:
            began = turn.at.timestamp()
            mine = [
                at for at, s, kind in events.get(str(turn.game_id), [])
                if s == seat and at > began and kind != "turn_timed_out"
            ]  # fmt: skip
            if mine:
                delays.append(mine[0] - began)
        timed_out = sum(
            1 for evs in events.values() for _at, s, kind in evs
            if kind == "turn_timed_out" and s == seat
        )  # fmt: skip
        finished = Game.objects.filter(pk__in=ids, status="finished").count()
        errors = (1 if bot.returncode else 0) + sum(
            n for what, n in retried.items() if what != "409"
        )
        print(
            f"{finished}/{args.games} games finished in {took:.0f} s; {len(delays)} turns; "
            f"move delay p50 {pct(delays, 0.5) * 1000:.0f} ms, p99 {pct(delays, 0.99) * 1000:.0f}"
            f" ms, max {max(delays, default=float('nan')) * 1000:.0f} ms; timed-out turns "
            f"{timed_out}; errors {errors} (retried {retried}); load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        missed = []
        if timed_out:
            missed.append(f"{timed_out} timed-out turns")
        if errors:
            missed.append(f"{errors} errors")
        if not pct(delays, 0.99) <= GOAL:
            missed.append(f"move delay p99 {pct(delays, 0.99):.2f} s > {GOAL:.0f} s")
        if finished < args.games:
            missed.append(f"{args.games - finished} games unfinished")
        print("goals:", "all met" if not missed else "missed: " + "; ".join(missed))
        return 1 if missed else 0
    finally:
        if servers is not None:
            servers.stop()
        connection.close()
        creation.destroy_test_db(DB_NAME, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())
