"""Benchmark: the write path against two yardsticks, measured in one run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo .venv/bin/python bench/bench_append.py
    # --quick: shorter phases; --skip-http / --skip-library; --port 8301 (and port + 1)

Works in a database of its own (``bench_pablo_append``: created, migrated,
dropped). Needs PostgreSQL; the library peer needs the ``bench`` extra
(``pip install -e '.[bench]'``).

1. **HTTP**: the real server and a minimal DRF append endpoint
   (``bench/yardstick_urls.py``: token auth, UPDATE the stream's version where
   it is the expected one, INSERT one event) each served by gunicorn
   ``-w 2 --threads 4``, hammered by 4 and by 16 keep-alive clients for a few
   seconds, three rounds alternating: median POSTs/s, ratio real/minimal.
   A real client plays two-player ``pablo`` games with legal actions, mostly
   from its own answers (draw and discard); a GET is made only when it cannot
   tell (counted, not timed apart).
2. **Service**: ``services.games.game_act`` on games at history ~20 (and the same
   without the log's ordering lock, to show what it costs), against the
   ``eventsourcing`` library (``Application`` + ``Aggregate`` on its PostgreSQL
   recorder, default settings) doing one command on aggregates of 20 events:
   commands/s each, interleaved, median of three.
3. **Cold and deep**: one action on a 2,000-event game with the state cache
   cleared first (p50), and warm actions at version ~20 against ~2,000 (p50s
   and their ratio).

Exits non-zero when a goal is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
DB_NAME = os.environ.get("PABLO_BENCH_DB", "bench_pablo_append")
os.environ["PABLO_TEST_DB_NAME"] = DB_NAME
os.environ["PABLO_FAST_PATH_SECONDS"] = "0"  # measure the append, not the broker
os.environ.setdefault("PABLO_ALLOW_STACKED_DECKS", "1")
# A throwaway key for this run and its servers (the settings refuse to start without one).
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-append-" + secrets.token_urlsafe(40))

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from games import rules, store  # noqa: E402
from games.bots.common import concrete  # noqa: E402
from games.models import Game  # noqa: E402
from games.selectors import games as game_selectors  # noqa: E402
from games.services import games as game_services  # noqa: E402

GOALS = {
    "http4": 0.7,
    "http16": 0.7,
    "service": 2.0,
    "cold_ms": 15.0,
    "deep": 1.25,
}
#: Actions per game (and commands per aggregate) in each round of the service phase: with
#: one (20 actions, ~20 ms) a round's ratio moved from 1.4 to 7.9 with the machine's noise.
PASSES = 5
PREFERENCE = ["look", "draw", "discard", "skip", "peek", "spy", "swap", "replace"]


def choose(actions: list[dict]) -> dict | None:
    """A legal action by a fixed preference (no calls, no throws: long games)."""
    actions = [a for a in actions if a["type"] in PREFERENCE]
    if not actions:
        return None
    actions.sort(key=lambda a: (PREFERENCE.index(a["type"]), a.get("source") != "deck"))
    action = dict(actions[0])
    for name, values in action.pop("choices", {}).items():
        action[name] = values[0]
    return action


def new_game(users: list) -> Game:
    game = game_services.game_create(
        user=users[0], ruleset="pablo", seats=2, turn_timeout=86400, options={"start_seat": 0}
    )
    game_services.game_join(game_id=game.id, user=users[1])
    return Game.objects.get(pk=game.id)


def act_once(game: Game, users: list) -> None:
    """One legal action of whoever can act (views from the cache)."""
    for user in users:
        data = game_selectors.game_data(game=game, user=user)
        action = choose(data["state"]["legal_actions"])
        if action is not None:
            game_services.game_act(game_id=game.id, user=user, command=action)
            game.refresh_from_db()
            return
    raise RuntimeError("nobody can act")


def advance(game: Game, users: list, version: int) -> Game:
    while game.version < version and game.status == "active":
        act_once(game, users)
    return game


# --------------------------------------------------------------------------- 2. service


def service_rate(games: list[Game], users: list, rounds: int) -> float:
    """Commands/s of services.games.game_act, one action per game per round (the caller's time
    to pick the action is not counted)."""
    spent, done = 0.0, 0
    for _ in range(rounds):
        for game in games:
            for user in users:
                data = game_selectors.game_data(game=game, user=user)
                action = choose(data["state"]["legal_actions"])
                if action is not None:
                    break
            else:
                continue
            started = time.perf_counter()
            game_services.game_act(game_id=game.id, user=user, command=action)
            spent += time.perf_counter() - started
            done += 1
            game.version += 1  # close enough for choosing; refreshed below
            game.refresh_from_db()
    return done / spent


@contextlib.contextmanager
def without_ordering_lock() -> Iterator[None]:
    """The append's statement without the log's ordering lock: what the lock costs."""
    from games.store import sql

    original = sql._CTE
    sql._CTE = "\n".join(line for line in original.splitlines() if "pg_advisory" not in line)
    sql._cte_sql.cache_clear()
    try:
        yield
    finally:
        sql._CTE = original
        sql._cte_sql.cache_clear()


def library_app():  # type: ignore[no-untyped-def]
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Table(Aggregate):
        def __init__(self) -> None:
            self.moves = 0

        @event("Acted")
        def act(self, card: int) -> None:
            self.moves += 1

    settings = connection.settings_dict
    app = Application(
        env={
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": settings["NAME"],
            "POSTGRES_HOST": settings.get("HOST") or "127.0.0.1",
            "POSTGRES_PORT": str(settings.get("PORT") or 5432),
            "POSTGRES_USER": settings.get("USER") or "postgres",
            "POSTGRES_PASSWORD": settings.get("PASSWORD") or "",
        }
    )
    return app, Table


def library_rate(app, ids: list, rounds: int) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    done = 0
    for _ in range(rounds):
        for aggregate_id in ids:
            table = app.repository.get(aggregate_id)
            table.act(card=done % 52)
            app.save(table)
            done += 1
    return done / (time.perf_counter() - started)


# --------------------------------------------------------------------------- 3. cold and deep


def long_active_game(users: list, target: int) -> Game:
    """A two-player Cabo game of about ``target`` events, still active: rows written
    straight from the pure engine (as the replay bench does)."""
    from games.models import Event, Seat

    for seed in range(1, 100):
        events, state = _play_cabo(users, target, random.Random(seed))
        if state.status == "active":
            break
    else:
        raise SystemExit(f"no cabo game of {target} events found")
    game = Game.objects.create(ruleset="cabo", seats=2, options=state.options,
                               turn_timeout=86400, created_by=users[0])  # fmt: skip
    for seat, user in enumerate(users):
        Seat.objects.create(game=game, seat=seat, user=user)
    Event.objects.bulk_create(
        Event(game=game, seq=i, type=e.type, seat=e.seat, data=e.data)
        for i, e in enumerate(events, start=1)
    )
    Game.objects.filter(pk=game.pk).update(version=len(events))
    game_services.game_rebuild_projection(game_id=game.id)
    return Game.objects.get(pk=game.pk)


def _play_cabo(users: list, target: int, rng: random.Random) -> tuple[list, rules.State]:
    from django.utils import timezone

    from games.chance import DeckChance

    names = [u.username for u in users]
    ctx = rules.Context(chance=DeckChance(rng=rng), now=timezone.now())
    events = rules.create("cabo", seats=2, options={}, turn_timeout=86400, creator=names[0])
    state = rules.fold(events)
    joined = rules.join(state, names[1], ctx)
    events += joined
    for e in joined:
        rules.apply(state, e)
    while len(events) < target and state.status == "active":
        options = []
        for seat in range(2):
            for action in rules.view(state, seat).get("legal_actions") or []:
                if action["type"] != "call":
                    options.append((seat, action))
        seat, action = rng.choice(options)
        try:
            new = rules.act(state, seat, concrete(action, rng), ctx)
        except rules.RulesError:
            continue
        events += new
        for e in new:
            rules.apply(state, e)
    return events, state


def timed_action(game: Game, users: list, rng: random.Random, *, cold: bool) -> float:
    """Seconds of one services.games.game_act (legal, random), optionally with the cache cleared."""
    state = game_selectors.game_state(game=game)
    options = []
    for seat in range(2):
        for action in rules.view(state, seat).get("legal_actions") or []:
            if action["type"] not in ("call", "throw"):
                options.append((seat, action))
    seat, action = rng.choice(options)
    if cold:
        store.clear_cache()
    started = time.perf_counter()
    game_services.game_act(game_id=game.id, user=users[seat], command=concrete(action, rng))
    spent = time.perf_counter() - started
    game.refresh_from_db()
    return spent


# --------------------------------------------------------------------------- 1. HTTP


def _request(conn: http.client.HTTPConnection, method: str, path: str, token: str,
             body: dict | None = None) -> tuple[int, bytes]:  # fmt: skip
    headers = {"Authorization": f"Token {token}"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    return response.status, response.read()


def real_client(port: int, game: dict, stop: float, counts: list) -> None:
    """Play ``game`` (id, two tokens) with legal actions until ``stop``; counts [posts, gets,
    refused, latencies of the POSTs answered 201 (seconds)]."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    tokens = game["tokens"]
    gid = game["id"]
    seat, body = 0, None
    while time.monotonic() < stop:
        if body is None:
            # Find out: whose turn, what is legal (a GET per seat).
            for s in (0, 1):
                status, raw = _request(conn, "GET", f"/api/games/{gid}/", tokens[s])
                counts[1] += 1
                data = json.loads(raw)
                if data["status"] != "active":
                    gid = game["spares"].pop()
                    break
                body = choose(data["state"]["legal_actions"])
                if body is not None:
                    seat = s
                    break
            if body is None:
                continue
        sent = time.perf_counter()
        status, raw = _request(conn, "POST", f"/api/games/{gid}/actions/", tokens[seat], body)
        if status != 201:
            body = None
            counts[2] += 1
            continue
        counts[0] += 1
        if len(counts) > 3:
            counts[3].append(time.perf_counter() - sent)
        data = json.loads(raw)
        state = data["game"]["state"]
        body = choose(state["legal_actions"]) if data["game"]["status"] == "active" else None
        if body is None and data["game"]["status"] == "active":
            seat, body = 1 - seat, {"type": "draw", "source": "deck"}  # the usual next move
    conn.close()


def yardstick_client(port: int, stream: dict, stop: float, counts: list[int]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    version = stream["version"]
    while time.monotonic() < stop:
        status, raw = _request(conn, "POST", f"/bench/append/{stream['id']}/", stream["token"],
                               {"expected_version": version})  # fmt: skip
        if status != 201:
            counts[2] += 1
            continue
        version = json.loads(raw)["version"]
        counts[0] += 1
    stream["version"] = version
    conn.close()


def _load_process(kind: str, port: int, jobs: list[dict], seconds: float, queue) -> None:  # type: ignore[no-untyped-def]
    start = time.monotonic() + 0.3
    while time.monotonic() < start:
        time.sleep(0.01)
    stop = start + seconds
    counts: list[list] = [[0, 0, 0, []] for _ in jobs]
    target = real_client if kind == "real" else yardstick_client
    threads = [
        threading.Thread(target=target, args=(port, job, stop, count))
        for job, count in zip(jobs, counts, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    samples = [x for c in counts for x in c[3]]
    queue.put([sum(c[i] for c in counts) for i in range(3)] + [jobs, samples])


def hammer(
    kind: str, port: int, jobs: list[dict], seconds: float, latencies: list | None = None
) -> tuple[float, list[int]]:
    """POSTs/s of ``len(jobs)`` clients in two processes for ``seconds``."""
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    halves = [jobs[0::2], jobs[1::2]]
    procs = [ctx.Process(target=_load_process, args=(kind, port, h, seconds, queue))
             for h in halves if h]  # fmt: skip
    for proc in procs:
        proc.start()
    results = [queue.get() for _ in procs]
    for proc in procs:
        proc.join()
    totals = [sum(r[i] for r in results) for i in range(3)]
    if latencies is not None:
        latencies.extend(x for r in results for x in r[4])
    if kind == "yard":
        done = [job for r in results for job in r[3]]
        by_id = {j["id"]: j for j in done}
        for job in jobs:
            job["version"] = by_id[job["id"]]["version"]
    return totals[0] / seconds, totals


def start_server(
    port: int, settings_module: str, root: Path = ROOT, kind: str = "gunicorn", **extra: str
) -> subprocess.Popen:
    """gunicorn ``-w 2 --threads 4`` of the checkout in ``root`` (or, ``kind="uvicorn"``,
    ``uvicorn pablo.asgi:application --workers 2``)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": settings_module,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PYTHONPATH": f"{ROOT / 'bench'}:{root}",
        "DJANGO_LOG_LEVEL": "WARNING",
        # The write path is measured, not the rate limits (120 actions/min per user):
        # both off for the real server, which the yardstick has none of either.
        "PABLO_THROTTLE_ACTIONS": "",
        "PABLO_THROTTLE_AUTH": "",
        **extra,
    }
    env.pop("PABLO_TEST_DB_NAME", None)
    if kind == "uvicorn":
        args = [str(ROOT / ".venv/bin/uvicorn"), "pablo.asgi:application", "--port", str(port),
                "--workers", "2", "--log-level", "warning", "--no-access-log"]  # fmt: skip
    else:
        args = [str(ROOT / ".venv/bin/gunicorn"), "pablo.wsgi", "-b", f"127.0.0.1:{port}",
                "-w", "2", "--threads", "4", "-k", "gthread", "--log-level", "warning"]  # fmt: skip
        help_text = subprocess.run([args[0], "--help"], capture_output=True, text=True).stdout
        if "--no-control-socket" in help_text:
            args.append("--no-control-socket")
    proc = subprocess.Popen(args, env=env, cwd=root, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/rulesets/")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.2)
    stop_server(proc)
    raise SystemExit(f"server on {port} did not start")


def stop_server(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


def http_phase(port: int, seconds: float, rounds: int, out: dict) -> None:
    User = get_user_model()
    players = [User.objects.create_user(username=f"h{i}", password="x") for i in range(32)]
    tokens = [Token.objects.get_or_create(user=u)[0].key for u in players]
    real_jobs = []
    yard_jobs = []
    for c in range(16):
        pair = players[2 * c : 2 * c + 2]
        games = [new_game(pair) for _ in range(6)]
        real_jobs.append({"id": str(games[0].id), "tokens": tokens[2 * c : 2 * c + 2],
                          "spares": [str(g.id) for g in games[1:]]})  # fmt: skip
        stream = Game.objects.create(ruleset="raw", seats=1, created_by=pair[0])
        yard_jobs.append({"id": str(stream.id), "token": tokens[2 * c], "version": 0})
    connection.close()  # the servers and the load processes have their own
    real = start_server(port, "pablo.settings")
    yard = start_server(port + 1, "yardstick_settings")
    try:
        for clients in (4, 16):
            hammer("real", port, real_jobs[:clients], 1.0)  # warm both
            hammer("yard", port + 1, yard_jobs[:clients], 1.0)
            ratios, reals, yards, gets = [], [], [], []
            for _ in range(rounds):
                r, rc = hammer("real", port, real_jobs[:clients], seconds)
                y, _yc = hammer("yard", port + 1, yard_jobs[:clients], seconds)
                reals.append(r)
                yards.append(y)
                ratios.append(r / y)
                gets.append(rc[1] / max(1, rc[0]))
            out[f"http{clients}"] = statistics.median(ratios)
            print(
                f"HTTP {clients:2d} clients: real {statistics.median(reals):6.0f} POSTs/s, "
                f"minimal {statistics.median(yards):6.0f} POSTs/s, ratio "
                f"{statistics.median(ratios):.2f} (rounds {', '.join(f'{x:.2f}' for x in ratios)};"
                f" {statistics.median(gets):.2f} GETs per action)",
                flush=True,
            )
    finally:
        stop_server(real)
        stop_server(yard)


def compare_phase(port: int, seconds: float, rounds: int, configs: list[tuple]) -> None:
    """HTTP actions of several server configurations side by side, in alternating
    rounds with the same clients and games: POSTs/s and the POSTs' p50/p99.

    ``configs``: (name, checkout root, "gunicorn" | "uvicorn", extra environment).
    """
    User = get_user_model()
    players = [User.objects.create_user(username=f"c{i}", password="x") for i in range(32)]
    tokens = [Token.objects.get_or_create(user=u)[0].key for u in players]
    jobs = []
    for c in range(16):
        pair = players[2 * c : 2 * c + 2]
        games = [new_game(pair) for _ in range(4 + 2 * rounds * len(configs))]
        jobs.append({"id": str(games[0].id), "tokens": tokens[2 * c : 2 * c + 2],
                     "spares": [str(g.id) for g in games[1:]]})  # fmt: skip
    connection.close()
    servers = []
    try:
        for i, (_name, root, kind, extra) in enumerate(configs):
            servers.append(start_server(port + 2 + i, "pablo.settings", root, kind, **extra))
        for clients in (4, 16):
            rates: dict[str, list[float]] = {c[0]: [] for c in configs}
            lats: dict[str, list[float]] = {c[0]: [] for c in configs}
            for i, _config in enumerate(configs):
                hammer("real", port + 2 + i, jobs[:clients], 1.0)  # warm
            for r in range(rounds):
                order = list(enumerate(configs))
                if r % 2:
                    order.reverse()  # neither goes first every time
                for i, (name, *_rest) in order:
                    rate, _c = hammer("real", port + 2 + i, jobs[:clients], seconds, lats[name])
                    rates[name].append(rate)
            first = configs[0][0]
            for name, *_rest in configs:
                ms = sorted(x * 1000 for x in lats[name])
                p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
                rate = statistics.median(rates[name])
                # each round's ratio to the first configuration's (the machine's load
                # drifts between rounds more than between neighbours), then the median
                ratio = statistics.median(
                    x / y for x, y in zip(rates[name], rates[first], strict=True)
                )
                print(
                    f"HTTP {clients:2d} clients, {name:>28}: {rate:6.0f} POSTs/s "
                    f"(paired ratio {ratio:.2f}), p50 {statistics.median(ms):5.1f} ms"
                    f", p99 {p99:5.1f} ms (rounds {', '.join(f'{x:.0f}' for x in rates[name])})",
                    flush=True,
                )
    finally:
        for proc in servers:
            stop_server(proc)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--skip-library", action="store_true")
    parser.add_argument("--port", type=int, default=8301)
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (median)")
    parser.add_argument("--deep", type=int, default=2000, help="events of the long game")
    parser.add_argument(
        "--compare",
        metavar="BEFORE_DIR",
        help="only the write path of this checkout's servers against the checkout in "
        "BEFORE_DIR (e.g. `git archive <commit> | tar -x -C DIR`), side by side",
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("needs PostgreSQL (DATABASE_URL=postgres://...)")
    rounds = 1 if args.quick else args.rounds
    seconds = 3.0 if args.quick else 4.0
    out: dict[str, float] = {}
    creation = connection.creation
    creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    connection.settings_dict["NAME"] = DB_NAME
    app = None
    try:
        if args.compare:
            before = Path(args.compare).resolve()
            compare_phase(args.port, 3.0, rounds, [
                ("before (gunicorn)", before, "gunicorn", {}),
                ("after (gunicorn)", ROOT, "gunicorn", {}),
                ("after (uvicorn, everything)", ROOT, "uvicorn", {}),
            ])  # fmt: skip
            return 0
        User = get_user_model()
        users = [User.objects.create_user(username=f"bench{i}", password="x") for i in (0, 1)]
        rng = random.Random(1)

        # 2. service against the library, history ~20
        games = [advance(new_game(users), users, 20) for _ in range(20)]
        rates, peer, ratios = [], [], []
        if not args.skip_library:
            app, table_cls = library_app()
            ids = []
            for _ in range(20):
                table = table_cls()
                for n in range(19):
                    table.act(card=n)
                app.save(table)
                ids.append(table.id)
        unordered = []
        for _ in range(rounds):
            games = [advance(new_game(users), users, 20) for _ in range(20)]
            with without_ordering_lock():
                unordered.append(service_rate(games, users, PASSES))
            games = [advance(new_game(users), users, 20) for _ in range(20)]
            ours = service_rate(games, users, PASSES)
            rates.append(ours)
            if not args.skip_library:
                theirs = library_rate(app, ids, PASSES)
                peer.append(theirs)
                ratios.append(ours / theirs)
        line = f"services.games.game_act at history ~20: {statistics.median(rates):6.0f} actions/s"
        if ratios:
            out["service"] = statistics.median(ratios)
            line += (
                f"; eventsourcing {statistics.median(peer):6.0f} commands/s; "
                f"ratio {out['service']:.2f} (rounds {', '.join(f'{x:.2f}' for x in ratios)})"
            )
        print(line, flush=True)
        cost = 1 - statistics.median(rates) / statistics.median(unordered)
        print(
            f"  the same without the log's ordering lock: {statistics.median(unordered):6.0f}"
            f" actions/s (the lock costs {cost:.1%})",
            flush=True,
        )

        # 3. cold and deep
        deep = long_active_game(users, args.deep)
        colds = [timed_action(deep, users, rng, cold=True) * 1000 for _ in range(25)]
        out["cold_ms"] = statistics.median(colds)
        print(
            f"cold action (cache cleared) at version ~{deep.version}: p50 {out['cold_ms']:.1f} ms"
            f" (min {min(colds):.1f}, max {max(colds):.1f})",
            flush=True,
        )
        deep_ms, shallow_ms = [], []
        for _ in range(6):
            shallow = long_active_game(users, 20)
            for _ in range(8):  # versions ~20 to ~40
                shallow_ms.append(timed_action(shallow, users, rng, cold=False) * 1000)
                deep_ms.append(timed_action(deep, users, rng, cold=False) * 1000)
        out["deep"] = statistics.median(deep_ms) / statistics.median(shallow_ms)
        print(
            f"warm action p50: version ~{shallow.version} {statistics.median(shallow_ms):.2f} ms,"
            f" ~{deep.version} {statistics.median(deep_ms):.2f} ms; ratio {out['deep']:.2f}",
            flush=True,
        )

        # 1. HTTP
        if not args.skip_http:
            http_phase(args.port, seconds, rounds, out)
    finally:
        if app is not None:
            app.close()
        connection.close()
        creation.destroy_test_db(DB_NAME, verbosity=0)

    missed = []
    for name, goal in GOALS.items():
        if name not in out:
            continue
        ok = out[name] <= goal if name in ("cold_ms", "deep") else out[name] >= goal
        if not ok:
            missed.append(f"{name} {out[name]:.2f} (goal {goal})")
    print("goals:", "all met" if not missed else "missed: " + "; ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
