"""Benchmark: fair shares -- a probe's bot and deadlines on time while attackers run heavy work.

    .venv/bin/python bench/bench_fair.py                        # both worker configurations
    .venv/bin/python bench/bench_fair.py --config plain --analyses 20 --expert-games 12

On PostgreSQL and Redis (``bench_bot_timing.environment("redis", ...)``: database
``bench_pablo_fair``, Redis database ``PABLO_BENCH_REDIS_DB``) it starts beat
and the workers of one configuration:

* ``plain``: one ``celery -A pablo worker --pool=threads --concurrency=2``, as
  ``make run`` starts it (heavy work in its lanes, games/lanes.py);
* ``split``: the production split of docs/operations.md -- ``-Q celery,notifications``
  with ``PABLO_HEAVY_LANES=0`` (prefork, concurrency 2) and ``nice -Q bots,analysis``
  (prefork, concurrency 2).

Then, for each attack -- one account, then five accounts (one address) sharing
the same load -- it queues ``--analyses`` analyses of finished games and starts
``--expert-games`` self-playing ``tamalou`` games (11 ``expert`` bots and an
``expert`` stand-in each: the issue's attack, made through the services, so
that the API's bounds per account and address do not refuse most of it), and
meanwhile measures:

* a probe playing Cabo against a ``basic`` bot: the bot's lag, from the event that
  made the game wait for it to the bot's first event (goal p95 <= PABLO_BOT_DELAY + 1 s);
* ``--deadlines`` two-player games nobody plays (turn time 3 s): how late after its
  deadline each timeout is stored (goal <= 2 s);
* the attackers' work: analyses done and expert moves stored during the window,
  and how long all their analyses took to finish (``--finish`` seconds at most).

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

from bench_bot_timing import BIN, GOAL, ROOT, environment, fresh_postgres, percentile

CONFIGS = {
    "plain": [["worker", "--pool=threads", "--concurrency=2"]],
    "split": [
        ["worker", "-Q", "celery,notifications", "--concurrency=2", "-n", "interactive@%h"],
        ["worker", "-Q", "bots,analysis", "--concurrency=2", "-n", "heavy@%h"],
    ],
}


def run_config(config: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    var = tempfile.mkdtemp(prefix=f"pablo-bench-fair-{config}-")
    env = environment("redis", var)
    env["DATABASE_URL"] = env["DATABASE_URL"].rsplit("/", 1)[0] + "/bench_pablo_fair"
    env["PABLO_ANALYSIS_ITERATIONS"] = str(args.iterations)
    import redis

    fresh_postgres(env)
    redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()
    python = str(BIN / "python")
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    celery = str(BIN / "celery")
    log = open(Path(var) / "celery.log", "wb")  # noqa: SIM115
    procs = []
    for worker in CONFIGS[config]:
        heavy = "bots,analysis" in worker
        wenv = {**env, "PABLO_HEAVY_LANES": "0"} if config == "split" and not heavy else env
        prefix = ["nice", "-n", "10"] if heavy else []
        procs.append(
            subprocess.Popen(
                [*prefix, celery, "-A", "pablo", *worker, "--loglevel=WARNING"],
                cwd=ROOT,
                env=wenv,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
    procs.append(
        subprocess.Popen(
            [celery, "-A", "pablo", "beat", "--loglevel=WARNING"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    )
    try:
        time.sleep(6)  # the workers' start
        out = subprocess.run(
            [python, __file__, "--measure", json.dumps(vars(args))],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=3600,
        )
        if out.returncode != 0:
            print(out.stdout, out.stderr, (Path(var) / "celery.log").read_text()[-3000:])
            raise SystemExit(f"the {config} measurement failed")
        return [json.loads(line) for line in out.stdout.strip().splitlines() if line[:1] == "{"]
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def measure(options: dict[str, Any]) -> None:
    """In the child: each attack in turn; one JSON line of figures per attack."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games import rules
    from games.bots import decide, waits_for
    from games.bots.play import bot_view
    from games.followers import follow_all
    from games.models import Event, Game, GameAnalysis
    from games.selectors import games as game_selectors
    from games.services import analysis as analysis_services
    from games.services import games as game_services
    from games.turns.bots import play_stored_game

    users = get_user_model().objects
    rng = random.Random(7)
    finished = [
        play_stored_game("cabo", ["random"] * 4, {}, rng=rng)
        for _ in range(2 * options["analyses"])
    ]
    follow_all()  # games made long ago, as an attacker's are: the followers handled them
    time.sleep(3)  # (the stale bot moves these games published are dropped by their workers)

    def attack(accounts: list[Any], games: list[Game]) -> list[int]:
        rows = [
            analysis_services.analysis_request(game=game, user=accounts[i % len(accounts)]).pk
            for i, game in enumerate(games)
        ]
        for i in range(options["expert_games"]):
            game_services.game_create(
                user=accounts[i % len(accounts)],
                ruleset="tamalou",
                seats=12,
                turn_timeout=2,  # the attacker never plays: its expert stand-in does
                options={"stand_in": "expert", "decks": 2},  # 12 seats need two decks
                bots=[{"seat": s, "level": "expert"} for s in range(1, 12)],
            )
        return rows

    def probe(name: str, moves: int) -> list[float]:
        person = users.create_user(username=name)
        lags: list[float] = []
        end = time.monotonic() + moves * 8 + 60
        while len(lags) < moves and time.monotonic() < end:
            game = game_services.game_create(
                user=person,
                ruleset="cabo",
                seats=2,
                turn_timeout=600,
                options={"start_seat": 0},
                bots=[{"seat": 1, "level": "basic"}],
            )
            while time.monotonic() < end:
                game.refresh_from_db()
                if game.status != Game.Status.ACTIVE:
                    break
                turns = Event.objects.filter(game=game, seat=1, type__in=("drawn", "called"))
                if len(lags) + turns.count() > moves:  # enough: a game to 100 takes minutes
                    break
                state = game_selectors.game_state(game=game)
                legal = rules.get_ruleset("cabo").legal_actions(state, 0)
                if legal and waits_for(legal):
                    body = decide("basic", "cabo", bot_view(state, 0), 0, rng)
                    game_services.game_act(game_id=game.id, user=person, command=body)
                else:
                    time.sleep(0.02)
            rows = list(Event.objects.filter(game=game).order_by("seq"))
            lags += [
                (row.created_at - before.created_at).total_seconds()
                for before, row in itertools.pairwise(rows)
                if row.seat == 1 and row.type in ("drawn", "called")
            ]
        return lags

    def deadlines(name: str, n: int) -> list[float]:
        a, b = users.create_user(username=f"{name}a"), users.create_user(username=f"{name}b")
        games = []
        for _ in range(n):
            game = game_services.game_create(
                user=a, ruleset="cabo", seats=2, turn_timeout=3, options={}
            )
            game_services.game_join(game_id=game.id, user=b)
            games.append(Game.objects.get(pk=game.id))
        time.sleep(8)
        late = []
        for game in games:
            row = Event.objects.filter(game=game, type="turn_timed_out").order_by("seq").first()
            late.append((row.created_at - game.deadline).total_seconds() if row else 99.0)
        return late

    for phase, count in (("one account", 1), ("five accounts, one address", 5)):
        accounts = [users.create_user(username=f"attacker{phase[:4]}{i}") for i in range(count)]
        half = options["analyses"]
        mine = finished[:half] if count == 1 else finished[half:]
        started, clock = timezone.now(), time.monotonic()
        rows = attack(accounts, mine)
        lags = probe(f"probe{count}", options["moves"])
        late = deadlines(f"late{count}", options["deadlines"])
        window = time.monotonic() - clock
        analyses = GameAnalysis.objects.filter(pk__in=rows)
        done_in_window = analyses.filter(status="done").count()
        expert_moves = (
            Event.objects.filter(
                game__created_by__in=accounts, game__ruleset="tamalou", created_at__gt=started
            )
            .exclude(seat=None)
            .count()
        )
        end = clock + options["finish"]
        while analyses.exclude(status="done").exists() and time.monotonic() < end:
            time.sleep(2)
        all_done = not analyses.exclude(status="done").exists()
        print(
            json.dumps(
                {
                    "phase": phase,
                    "moves": len(lags),
                    "p50": statistics.median(lags),
                    "p95": percentile(lags, 95),
                    "max": max(lags),
                    "deadline_max": max(late),
                    "deadline_p50": statistics.median(late),
                    "window": window,
                    "analyses": len(rows),
                    "done_in_window": done_in_window,
                    "all_done_after": time.monotonic() - clock if all_done else None,
                    "expert_moves": expert_moves,
                }
            ),
            flush=True,
        )
        # the next attack starts clean: the expert games end, the rest of the queue goes
        Game.objects.filter(created_by__in=accounts, status=Game.Status.ACTIVE).update(
            status=Game.Status.ABORTED
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", choices=["plain", "split", "both"], default="both")
    parser.add_argument("--analyses", type=int, default=20)
    parser.add_argument("--expert-games", type=int, default=12)
    parser.add_argument("--moves", type=int, default=30, help="probe bot moves per attack")
    parser.add_argument("--deadlines", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=120, help="PABLO_ANALYSIS_ITERATIONS")
    parser.add_argument("--finish", type=float, default=900, help="seconds to wait for analyses")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(json.loads(args.measure))
        return
    missed = False
    for config in ["plain", "split"] if args.config == "both" else [args.config]:
        for f in run_config(config, args):
            ok = f["p95"] <= GOAL and f["deadline_max"] <= 2.0 and f["all_done_after"] is not None
            missed |= not ok
            done = f["all_done_after"]
            finished = f"{done:.0f} s" if done is not None else "NOT within --finish"
            print(
                f"{config:5}  {f['phase']:27}  basic bot lag p50 {f['p50']:.2f} s, p95 "
                f"{f['p95']:.2f} s, max {f['max']:.2f} s ({f['moves']} moves; goal p95 <= "
                f"{GOAL:.1f} s)  deadlines late p50 {f['deadline_p50']:.2f} s, max "
                f"{f['deadline_max']:.2f} s (goal <= 2 s)  attackers: {f['done_in_window']}/"
                f"{f['analyses']} analyses done in the {f['window']:.0f} s window, all after "
                f"{finished}, "
                f"{f['expert_moves']} expert moves  {'ok' if ok else 'MISSED'}",
                flush=True,
            )
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
    main()
