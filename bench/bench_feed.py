"""Benchmark: K clients waiting on the live feed while a driver plays 5 actions/s elsewhere.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/6 .venv/bin/python bench/bench_feed.py --k 0,1000,5000
    # --seconds 40 (measured per K), --feed-workers 2, --port 18700 (and the next one),
    # --settle 5 (seconds from the last client opened to the measure)

The production configuration on loopback, in a database of its own
(``bench_pablo_feed``: created, migrated, dropped): gunicorn with
``gunicorn.conf.py`` (3 workers x 16 threads) serves the actions,
``uvicorn pablo.asgi:application`` serves the waits (as the proxy of
docs/operations.md would route them), a Celery worker and beat run beside
them, and the fan-out is the broker's Redis.

For each K:

* K idle clients wait (``GET /api/games/{id}/events/?after=v&wait=30``, again as
  soon as one answers) on the feed process, spread over K/5 games nobody plays,
  five clients per user (``PABLO_FEED_WAITS`` is 8), one keep-alive connection
  each, opened over 30 s (one wait), so that their
  polls are spread over time as real clients' are;
* a driver plays 5 actions/s (one every 0.2 s) over HTTP in 10 other games, and
  two watchers per driven game wait on the feed like the idle clients;
* measured over ``--seconds``: the actions' latency (p50, p99) and how many were
  done, the delivery delay (an event's stored time ``at`` -> a watcher has it;
  p50, p99), errors (anything but 200/201 and the game's own refusals, and broken
  connections), the CPU (share of one core) and memory (RSS) of the feed and web
  processes, and the most PostgreSQL connections of the database at once.

``--account``: the same with the account feed (``GET /api/me/events/?after=p&wait=30``,
issue 27) instead of the games' feeds: K idle accounts, one client each (every
one its own account feed), and the driven games' players as watchers of their
own account feeds; delivery is an account event's ``at`` (the game event it was
made from) -> the watcher has it, so it includes the ``account_feed`` follower's
lag in the worker (woken by the append's hint, beat's run every second as the
safety net). Goal (issue 27): delivery p99 <= 1 s with 5,000 account feeds waiting.

Loopback only; every process it starts is stopped at the end, also on Ctrl-C.
Raises its own file-descriptor limit (and its servers'): K connections need K
descriptors on each side.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import multiprocessing
import os
import random
import resource
import secrets
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
DB_NAME = os.environ.get("PABLO_BENCH_DB", "bench_pablo_feed")
os.environ["PABLO_TEST_DB_NAME"] = DB_NAME
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-feed-" + secrets.token_urlsafe(40))

import django  # noqa: E402

django.setup()

try:
    import psutil
except ImportError:  # (a dev dependency; without it the CPU and memory are read in /proc)
    psutil = None
import redis  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from games.services import games as game_services  # noqa: E402

WAIT = 30
DEBUG = bool(os.environ.get("PABLO_BENCH_DEBUG"))
PER_USER = 5
GAMES_PER_K = 5  # K/5 idle games
DRIVEN = 10
RATE = 5.0  # actions per second


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def raise_fd_limit(want: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for limit in (max(want, hard), hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
            return limit
        except (ValueError, OSError):
            continue
    return soft


# --------------------------------------------------------------------------- setup


def make_users(n: int, prefix: str) -> list[tuple[Any, str]]:
    User = get_user_model()
    users = User.objects.bulk_create(
        [User(username=f"{prefix}{i}", password="!") for i in range(n)], batch_size=1000
    )
    users = list(User.objects.filter(username__startswith=prefix).order_by("id"))
    tokens = Token.objects.bulk_create(
        [Token(key=secrets.token_hex(20), user=u) for u in users], batch_size=1000
    )
    return [(t.user, t.key) for t in tokens]


def make_games(n: int, owners: list[Any], seats: int = 2) -> list[str]:
    """``n`` waiting games (nobody plays them: the idle clients' games)."""
    out = []
    for i in range(n):
        game = game_services.game_create(
            user=owners[i % len(owners)], ruleset="pablo", seats=seats, turn_timeout=86400,
            options={"start_seat": 0},
        )  # fmt: skip
        out.append(str(game.id))
    return out


def make_driven(players: list[tuple[Any, str]]) -> list[dict]:
    jobs = []
    for c in range(DRIVEN):
        (a, ta), (b, tb) = players[2 * c], players[2 * c + 1]
        ids = []
        for _ in range(6):
            game = game_services.game_create(
                user=a, ruleset="pablo", seats=2, turn_timeout=86400, options={"start_seat": 0}
            )
            game_services.game_join(game_id=game.id, user=b)
            ids.append(str(game.id))
        jobs.append({"id": ids[0], "spares": ids[1:], "tokens": [ta, tb], "body": None, "seat": 0})
    return jobs


# --------------------------------------------------------------------------- servers


class Servers:
    def __init__(self, port: int, feed_workers: int, broker: str, throttled: bool = False,
                 feed_nice: int = 0, access_log: str = "", timing_log: str = "",
                 feed_policy: str = "") -> None:  # fmt: skip
        self.port = port
        self.feed_port = port + 1
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "pablo.settings",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
            "CELERY_BROKER_URL": broker,
            "DJANGO_DEBUG": "0",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT),
            "PABLO_THROTTLE_ACTIONS": "",  # the driver's rate is the bench's, not a user's
            "PABLO_VAR_DIR": str(Path("/tmp") / f"bench-feed-{os.getpid()}"),
        }
        if throttled:  # (the production throttles)
            del self.env["PABLO_THROTTLE_ACTIONS"]
        self.env.pop("PABLO_TEST_DB_NAME", None)
        bin_ = ROOT / ".venv/bin"
        gunicorn = [str(bin_ / "gunicorn"), "pablo.wsgi", "-b", f"127.0.0.1:{port}",
                    "--log-level", "warning"]  # fmt: skip
        help_text = subprocess.run([gunicorn[0], "--help"], capture_output=True, text=True)
        if "--no-control-socket" in help_text.stdout:
            gunicorn.append("--no-control-socket")
        if timing_log:  # each request's time split by where it went (bench/gunicorn_timing.py)
            gunicorn += ["-c", str(ROOT / "bench/gunicorn_timing.py")]
            self.env["PABLO_TIMING_LOG"] = timing_log
        if access_log:  # each request's wall clock and time taken (ms), to set beside the bench's
            gunicorn += ["--access-logfile", access_log,
                         "--access-logformat", "%(t)s %(M)s ms %(m)s %(U)s %(s)s"]  # fmt: skip
        feed = [str(bin_ / "uvicorn"), "pablo.asgi:application", "--port", str(self.feed_port),
                "--workers", str(feed_workers), "--log-level", "info", "--no-access-log",
                "--http", "httptools", "--loop", "uvloop",
                "--backlog", "4096", "--timeout-keep-alive", "60",
                "--timeout-graceful-shutdown", "35"]  # fmt: skip
        if feed_nice:  # the waits yield the CPU to the actions (docs/operations.md)
            feed = ["nice", "-n", str(feed_nice), *feed]
        if feed_policy:  # (chrt: "batch" never preempts on waking, "idle" yields to all)
            feed = ["chrt", f"--{feed_policy}", "0", *feed]
        self.feed_args = feed
        self.procs: dict[str, subprocess.Popen] = {}
        self.log = open(Path(self.env["PABLO_VAR_DIR"] + ".log"), "wb")  # noqa: SIM115
        Path(self.env["PABLO_VAR_DIR"]).mkdir(exist_ok=True)
        for name, args in (
            ("web", gunicorn),
            ("feed", feed),
            ("worker", [str(bin_ / "celery"), "-A", "pablo", "worker", "--loglevel=WARNING"]),
            (
                "beat",
                [
                    str(bin_ / "celery"),
                    "-A",
                    "pablo",
                    "beat",
                    "--loglevel=WARNING",
                    "-s",
                    self.env["PABLO_VAR_DIR"] + "/beat",
                ],
            ),
        ):
            self.procs[name] = subprocess.Popen(
                args, env=self.env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        try:
            for p in (port, self.feed_port):
                wait_http(p)
        except BaseException:
            self.stop()  # (what started is stopped: main() never got hold of them)
            raise

    def restart_feed(self) -> float:
        """Stop the feed processes as a deploy does (SIGTERM: running waits end, slots are
        given back), start new ones; the seconds it took until they answer."""
        started = time.monotonic()
        proc = self.procs["feed"]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        self.procs["feed"] = subprocess.Popen(
            self.feed_args, env=self.env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        wait_http(self.feed_port, timeout=300)  # (a loaded machine starts Django slowly)
        return time.monotonic() - started

    def tree(self, name: str) -> list[Any]:
        if psutil is None:
            return proc_tree(self.procs[name].pid)
        try:
            root = psutil.Process(self.procs[name].pid)
            return [root, *root.children(recursive=True)]
        except psutil.Error:
            return []

    def usage(self, names: tuple[str, ...]) -> tuple[float, float]:
        """(CPU seconds so far, RSS bytes) of these processes and their children."""
        cpu = rss = 0.0
        for name in names:
            for proc in self.tree(name):
                if psutil is None:
                    found = proc_usage(proc)
                    cpu, rss = cpu + found[0], rss + found[1]
                    continue
                with contextlib.suppress(psutil.Error):
                    times = proc.cpu_times()
                    cpu += times.user + times.system
                    rss += proc.memory_info().rss
        return cpu, rss

    @staticmethod
    def outside() -> dict[str, float]:
        """CPU seconds so far of what the storm shares the machine with: Redis, PostgreSQL
        and this process (the clients' loop)."""
        found = {"redis": 0.0, "postgres": 0.0, "clients": 0.0}
        if psutil is None:
            return found
        for proc in psutil.process_iter(["name"]):
            name = proc.info["name"] or ""
            key = "redis" if name.startswith("redis") else "postgres" if name == "postgres" else ""
            if proc.pid == os.getpid():
                key = "clients"
            if key:
                with contextlib.suppress(psutil.Error):
                    times = proc.cpu_times()
                    found[key] += times.user + times.system
        return found

    def stop(self) -> None:
        for proc in self.procs.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        self.log.close()


def proc_tree(root: int) -> list[int]:
    """``root`` and its descendants, from /proc (when psutil is not installed)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def proc_usage(pid: int) -> tuple[float, float]:
    """(CPU seconds, RSS bytes) of one process, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, int(fields[21]) * os.sysconf("SC_PAGE_SIZE")


def wait_http(port: int, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/rulesets/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"server on {port} did not start")


# --------------------------------------------------------------------------- waiting clients


class Feed:
    """K waiting clients and the watchers, on one asyncio loop in a thread."""

    def __init__(self, port: int, account: bool = False, nice: int = 0) -> None:
        self.port = port
        self.account = account
        self.loop = asyncio.new_event_loop()
        self.nice = nice
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.tasks: list[asyncio.Task] = []
        self.errors = 0
        self.answers = 0
        self.delays: list[float] = []
        self.measuring = False
        self.stop_flag = False
        self.open = 0
        #: the storm (``--storm``): clients whose connection ended wait for ``gate``, then
        #: reconnect at a random moment within ``window`` seconds
        self.gate: asyncio.Event | None = None
        self.window = 10.0
        self.gate_at = 0.0
        self.storm_errors = 0
        self.reconnected: list[float] = []  # when each client reconnected (after the gate)
        self.first: list[tuple[float, float]] = []  # (reconnected, first answer) per client
        #: how late the loop ran a 0.1 s timer, each time: the clients' own queueing, which
        #: a first answer's delay includes (the loop reads 10,000 clients' answers)
        self.loop_lag: list[float] = []
        asyncio.run_coroutine_threadsafe(self._tick(), self.loop)

    def _run(self) -> None:
        if self.nice:  # this thread only (Linux: a thread's own niceness), not the servers
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)
        self.loop.run_forever()

    async def _tick(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.1)
            self.loop_lag.append(time.monotonic() - before - 0.1)

    def start(self, jobs: list[tuple[str, str, bool]], per_second: float = 1000) -> None:
        """jobs: (game id, token, is a watcher); opened at ``per_second``."""
        self.stop_flag = False

        async def opener() -> None:
            for i, (gid, token, watcher) in enumerate(jobs):
                self.tasks.append(self.loop.create_task(self.client(gid, token, watcher)))
                if i % 50 == 49:
                    await asyncio.sleep(50 / per_second)

        asyncio.run_coroutine_threadsafe(opener(), self.loop).result()

    async def client(self, gid: str, token: str, watcher: bool) -> None:
        after = -1
        storming = False  # reconnected in the storm, not answered yet
        since = 0.0
        while not self.stop_flag:
            if self.gate is not None and not watcher and after >= 0:
                await self.gate.wait()  # (the new feed process is up)
                await asyncio.sleep(random.uniform(0, self.window))
                storming, since = True, time.monotonic()
                self.reconnected.append(since)
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError:
                self.errors += self.measuring
                self.storm_errors += storming
                await asyncio.sleep(1)
                continue
            self.open += 1
            try:
                while not self.stop_flag:
                    if self.account:
                        path = "/api/me/events/"
                        if after >= 0:
                            path += f"?after={after}&wait={WAIT}"
                    elif after < 0:
                        path = f"/api/games/{gid}/events/?after=1000000"
                    else:
                        path = f"/api/games/{gid}/events/?after={after}&wait={WAIT}"
                    writer.write(
                        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        f"Authorization: Token {token}\r\n\r\n".encode()
                    )
                    status, body = await read_response(reader)
                    got = time.time()
                    if status != 200:
                        if status == 0 and self.gate is not None and not self.gate.is_set():
                            break  # the feed process is being restarted (``--storm``)
                        self.errors += self.measuring
                        if status == 0:
                            self.storm_errors += storming
                            break
                        self.storm_errors += storming
                        await asyncio.sleep(1)
                        continue
                    data = json.loads(body)
                    self.answers += self.measuring
                    if storming:
                        storming = False
                        self.first.append((since, time.monotonic()))
                    if watcher and after >= 0 and self.measuring:
                        for event in data["events"]:
                            stored = datetime.fromisoformat(event["at"].replace("Z", "+00:00"))
                            self.delays.append(got - stored.timestamp())
                            if DEBUG and got - stored.timestamp() > 1:
                                print("LATE", gid[-8:], after, event.get("seq"), event["type"],
                                      event["at"], f"{got:.3f}", flush=True)  # fmt: skip
                    after = data["position"] if self.account else data["version"]
            except (OSError, asyncio.IncompleteReadError, ValueError):
                if self.gate is None or self.gate.is_set():
                    self.errors += self.measuring
                    self.storm_errors += storming
            finally:
                self.open -= 1
                writer.close()

    def keep(self, count: int) -> None:
        """Close every client but the first ``count`` (the watchers)."""

        async def drop() -> None:
            gone = self.tasks[count:]
            del self.tasks[count:]
            for task in gone:
                task.cancel()
            await asyncio.gather(*gone, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(drop(), self.loop).result(120)

    def stop(self) -> None:
        self.stop_flag = True

        async def cancel() -> None:
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            self.tasks.clear()

        asyncio.run_coroutine_threadsafe(cancel(), self.loop).result(60)


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    line = await reader.readline()
    if not line:
        return 0, b""
    status = int(line.split()[1])
    length = 0
    while True:
        header = await reader.readline()
        if header in (b"\r\n", b""):
            break
        name, _, value = header.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return status, await reader.readexactly(length)


# --------------------------------------------------------------------------- the driver


PREFERENCE = ("draw", "discard", "replace", "skip", "look", "end", "peek", "spy", "swap", "call")


def choose(actions: list[dict], turns: bool = False) -> dict | None:
    """A legal action by a fixed preference (throws last: long, steady games). ``turns``:
    never a throw (an off-turn action), so every action moves the game's turns on: the
    account feed tells a player of their turns, not of the throws."""
    if turns:
        actions = [a for a in actions if a["type"] != "throw"]
    actions = sorted(
        actions,
        key=lambda a: (
            PREFERENCE.index(a["type"]) if a["type"] in PREFERENCE else len(PREFERENCE),
            a.get("source") != "deck",
        ),
    )
    if not actions:
        return None
    action = dict(actions[0])
    for name, values in action.pop("choices", {}).items():
        action[name] = values[0]
    return action


class Driver:
    """5 actions/s over HTTP, round robin over the driven games, in a process of its own
    (``start``): the clients' asyncio loop (``Feed``) holds this process's GIL for
    most of a storm, and an action timed behind it would measure the bench, not the
    service. What it measures comes back through a queue: ``latencies``, ``done`` and
    ``errors`` (while ``measuring``), ``failures``."""

    def __init__(self, port: int, jobs: list[dict], turns: bool = False) -> None:
        self.port = port
        self.jobs = jobs
        self.turns = turns
        context = multiprocessing.get_context("fork")  # (before any thread: see main)
        self._measuring = context.Value("b", 0)
        self._records = context.SimpleQueue()
        self.halt = context.Event()
        self._process = context.Process(target=self.run, daemon=True)
        self._latencies: list[float] = []
        self._sent: list[float] = []
        self._done = self._errors = 0
        self._failures: list[str] = []

    def start(self) -> None:
        self._process.start()

    def join(self, timeout: float) -> None:
        self._process.join(timeout)
        if self._process.is_alive():
            self._process.kill()

    @property
    def measuring(self) -> bool:
        return bool(self._measuring.value)

    @measuring.setter
    def measuring(self, value: bool) -> None:
        self._measuring.value = int(value)

    def _record(self, kind: str, value: Any = None) -> None:  # (in the driver's process)
        self._records.put((kind, value))

    def _drain(self) -> None:
        while not self._records.empty():
            kind, value = self._records.get()
            if kind == "latency":
                self._latencies.append(value[0])
                self._sent.append(value[1])
                self._done += 1
            elif kind == "error":
                self._errors += 1
            else:
                self._failures.append(value)

    def reset(self) -> None:
        """Forget what was measured so far (the next phase starts)."""
        self._drain()
        self._latencies, self._sent, self._done, self._errors = [], [], 0, 0

    def slowest(self, count: int) -> list[tuple[float, float]]:
        """The ``count`` slowest actions measured: (seconds, the wall clock when sent)."""
        self._drain()
        return sorted(zip(self._latencies, self._sent, strict=True), reverse=True)[:count]

    @property
    def latencies(self) -> list[float]:
        self._drain()
        return self._latencies

    @property
    def done(self) -> int:
        self._drain()
        return self._done

    @property
    def errors(self) -> int:
        self._drain()
        return self._errors

    @property
    def failures(self) -> list[str]:
        self._drain()
        return self._failures

    def request(self, conn: http.client.HTTPConnection, method: str, path: str, token: str,
                body: dict | None = None) -> tuple[int, Any]:  # fmt: skip
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers=headers)  # fmt: skip
        answer = conn.getresponse()
        raw = answer.read()
        return answer.status, json.loads(raw) if raw else None

    def find(self, conn: http.client.HTTPConnection, job: dict) -> None:
        """Whose move, and which (a GET per seat); the next game when this one is over."""
        for seat in (0, 1):
            status, data = self.request(
                conn, "GET", f"/api/games/{job['id']}/", job["tokens"][seat]
            )
            if status != 200:
                if self.measuring:
                    self._record("error")
                return
            if data["status"] != "active":
                job["id"] = job["spares"].pop()
                return
            body = choose(data["state"]["legal_actions"], self.turns)
            if body is not None:
                job["seat"], job["body"] = seat, body
                return
        job["id"] = job["spares"].pop()  # nobody can act: leave it

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        tick = time.monotonic()
        i = 0
        while not self.halt.is_set():
            tick += 1 / RATE
            job = self.jobs[i % len(self.jobs)]
            i += 1
            try:
                while job["body"] is None:
                    self.find(conn, job)
                sent, wall = time.monotonic(), time.time()
                path = f"/api/games/{job['id']}/actions/"
                status, data = self.request(conn, "POST", path, job["tokens"][job["seat"]],
                                            job["body"])  # fmt: skip
                took = time.monotonic() - sent
                if status == 201:
                    if self.measuring:
                        self._record("latency", (took, wall))
                    state = data["game"]["state"]
                    active = data["game"]["status"] == "active"
                    job["body"] = choose(state["legal_actions"], self.turns) if active else None
                    if job["body"] is None and active:
                        job["seat"], job["body"] = 1 - job["seat"], {"type": "draw",
                                                                     "source": "deck"}  # fmt: skip
                else:
                    job["body"] = None
                    if (status >= 500 or status == 429) and self.measuring:
                        self._record("error")
            except Exception as exc:
                if self.measuring:
                    self._record("error")
                self._record("failure", repr(exc))
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            delay = tick - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            else:
                tick = time.monotonic()  # behind: do not burst to catch up


# --------------------------------------------------------------------------- the storm


def storm(args: Any, servers: Servers, feed: Feed, driver: Driver, idle: list, idle_p99: float
          ) -> int:  # fmt: skip
    """``--storm N``: N clients wait (opened over one wait, then a wait more: each one's
    token was accepted by a Django path, as a connected client's is), the feed processes
    are restarted (SIGTERM, as a deploy), and every client reconnects at a random moment
    within ``--storm-window`` seconds of the new processes' start, polling on from the
    version it knew. Measured from that start: until every client reconnected and
    until every one had its first answer, each one's first answer's delay (its wait
    is 30 s: a client is answered "in time" within 31 s), the errors (anything but a
    200 after the new processes are up), and the actions' p99 meanwhile against their
    idle p99 (K = 0 above). Returns 1 if a goal is missed."""
    n = len(idle)
    feed.start(idle, per_second=max(args.open_rate, n / WAIT))
    time.sleep(WAIT + args.settle)  # every client through one wait at least
    print(f"storm: {n} clients waiting, {feed.open} open; restarting the feed", flush=True)
    feed.gate = asyncio.Event()
    feed.window = args.storm_window
    driver.measuring = feed.measuring = False
    took = servers.restart_feed()
    driver.reset()
    feed.errors, feed.storm_errors = 0, 0
    feed.reconnected, feed.first, feed.loop_lag = [], [], []
    cpu0, web0 = servers.usage(("feed",))[0], servers.usage(("web",))[0]
    outside0 = servers.outside()
    gate_at = time.monotonic()
    driver.measuring = True
    feed.loop.call_soon_threadsafe(feed.gate.set)
    limit = args.storm_window + WAIT + 90
    while len(feed.first) < n and time.monotonic() - gate_at < limit:
        time.sleep(0.5)
    elapsed = time.monotonic() - gate_at
    driver.measuring = False
    cpu = (servers.usage(("feed",))[0] - cpu0) / elapsed
    web = (servers.usage(("web",))[0] - web0) / elapsed
    shares = ", ".join(f"{name} {(at - outside0[name]) / elapsed * 100:.0f} %"
                       for name, at in servers.outside().items())  # fmt: skip
    answered = len(feed.first)
    opened = max(feed.reconnected) - gate_at if feed.reconnected else float("nan")
    last = max((a for _r, a in feed.first), default=gate_at) - gate_at
    delays = [a - r for r, a in feed.first]
    lat = [x * 1000 for x in driver.latencies]
    act = pct(lat, 0.99)
    errors = feed.storm_errors + driver.errors
    late = sum(d > WAIT + 1 for d in delays) + (n - answered)
    print(
        f"storm {n}: feed restarted in {took:.1f} s; reconnected within {opened:.1f} s, "
        f"{answered} answered, the last {last:.1f} s after the start; first answer's delay "
        f"p50 {pct(delays, 0.5):.1f} s, p99 {pct(delays, 0.99):.1f} s, max "
        f"{max(delays, default=float('nan')):.1f} s ({late} later than {WAIT + 1} s); "
        f"errors {errors}; actions p50 {pct(lat, 0.5):.0f} ms, p99 {act:.0f} ms "
        f"(idle {idle_p99:.0f} ms), {driver.done / elapsed:.2f}/s; feed CPU {cpu * 100:.0f} %, "
        f"web {web * 100:.0f} %, {shares}; "
        f"the clients' loop late p99 {pct(feed.loop_lag, 0.99) * 1000:.0f} ms, max "
        f"{max(feed.loop_lag, default=0) * 1000:.0f} ms; "
        f"load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    slow = ", ".join(
        f"{took * 1000:.0f} ms at {time.strftime('%H:%M:%S', time.gmtime(at))}"
        f".{int(at % 1 * 1000):03d} (+{at - (time.time() - (time.monotonic() - gate_at)):.1f} s)"
        for took, at in driver.slowest(5)
    )
    print(f"storm: the slowest actions: {slow}", flush=True)
    missed = []
    if late:
        missed.append(f"{late} clients not answered within {WAIT + 1} s")
    if errors:
        missed.append(f"{errors} errors")
    if not act <= 2 * idle_p99:
        missed.append(f"actions p99 {act:.0f} ms > 2 x {idle_p99:.0f} ms")
    print("storm goals:", "all met" if not missed else "missed: " + "; ".join(missed), flush=True)
    feed.gate = None
    return 1 if missed else 0


# --------------------------------------------------------------------------- main


def pg_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [DB_NAME])
        return int(cursor.fetchone()[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--k", default="0,1000,5000", help="comma-separated K values")
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--feed-workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=18700)
    parser.add_argument("--feed-nice", type=int, default=0,
                        help="the feed processes' niceness (nice -n)")  # fmt: skip
    parser.add_argument("--clients-nice", type=int, default=0,
                        help="the clients' loop's niceness: in service the clients are "
                        "other machines, here they share the service's cores")  # fmt: skip
    parser.add_argument("--open-rate", type=float, default=50, help="least new clients/s")
    parser.add_argument("--max-minutes", type=float, default=30.0, help="stops by itself")
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds between the last client opened and the measure")  # fmt: skip
    parser.add_argument("--account", action="store_true",
                        help="the account feed: one idle client per account")  # fmt: skip
    parser.add_argument("--storm", type=int, default=0,
                        help="N clients waiting, the feed restarted, all reconnect")  # fmt: skip
    parser.add_argument("--storm-window", type=float, default=10.0,
                        help="the storm's clients reconnect within this many seconds")  # fmt: skip
    parser.add_argument("--access-log", default="",
                        help="the web's access log, with each request's time (ms)")  # fmt: skip
    parser.add_argument("--timing-log", default="",
                        help="where the web's requests' time went")  # fmt: skip
    parser.add_argument("--feed-policy", choices=["", "batch", "idle"], default="",
                        help="the feed processes' scheduling policy (chrt)")  # fmt: skip
    args = parser.parse_args()
    if args.storm:
        args.k = "0"
    per_user = 1 if args.account else PER_USER
    ks = [int(x) for x in args.k.split(",")]
    biggest = max([*ks, args.storm])
    broker = settings.CELERY_BROKER_URL
    if connection.vendor != "postgresql" or not broker.startswith("redis"):
        raise SystemExit("needs PostgreSQL and Redis (DATABASE_URL, CELERY_BROKER_URL)")
    fds = raise_fd_limit(biggest * 2 + 4096)
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(SystemExit("time is up")))
    signal.alarm(int(args.max_minutes * 60))
    creation = connection.creation
    creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    connection.settings_dict["NAME"] = DB_NAME
    # A new database numbers its users from 1 again: wait counters (PABLO_FEED_WAITS)
    # left in Redis by an earlier run (its servers killed mid-wait) would count
    # against this run's users of the same ids.
    counters = redis.Redis.from_url(broker)
    stale = list(counters.scan_iter(match="pablo-throttle:*feed-waits:*", count=1000))
    if stale:
        counters.delete(*stale)
    servers = feed = driver = None
    storm_row = 1
    rows: dict[int, tuple[float, float, int]] = {}
    print(f"load average {os.getloadavg()[0]:.2f}; file descriptors {fds}", flush=True)
    try:
        players = make_users(2 * DRIVEN, "driver")
        idle_users = make_users(max(1, biggest // per_user), "idle")
        idle_games = make_games(max(1, biggest // GAMES_PER_K), [u for u, _ in idle_users[:50]])
        jobs = make_driven(players)
        connection.close()
        servers = Servers(args.port, args.feed_workers, broker, feed_nice=args.feed_nice,
                          access_log=args.access_log, timing_log=args.timing_log,
                          feed_policy=args.feed_policy)  # fmt: skip
        driver = Driver(args.port, jobs, turns=args.account)
        driver.start()  # (forked before the feed's thread exists)
        feed = Feed(servers.feed_port, account=args.account, nice=args.clients_nice)
        watchers = [(job["id"], players[2 * c + s][1], True)
                    for c, job in enumerate(jobs) for s in (0, 1)]  # fmt: skip
        feed.start(watchers)
        print(
            f"{'K':>6} {'actions/s':>9} {'act p50':>8} {'act p99':>8} {'deliv p50':>9} "
            f"{'deliv p99':>9} {'errors':>6} {'feed CPU':>8} {'feed RSS':>8} {'web CPU':>7} "
            f"{'PG conns':>8} {'open':>6} {'load':>5}",
            flush=True,
        )
        for k in ks:
            if k + 1024 > fds:
                print(f"{k:>6} skipped: needs about {k + 1024} open files here, the limit is "
                      f"{fds} (and may not be raised)", flush=True)  # fmt: skip
                continue
            idle = [(idle_games[i % len(idle_games)], idle_users[i // per_user][1], False)
                    for i in range(k)]  # fmt: skip
            # opened over one wait's length: their polls are spread as real clients' are
            feed.start(idle, per_second=max(args.open_rate, k / WAIT))
            time.sleep(args.settle)
            driver.reset()
            feed.delays, feed.errors, feed.answers = [], 0, 0
            cpu0 = {n: servers.usage((n,))[0] for n in ("feed", "web")}
            started = time.monotonic()
            driver.measuring = feed.measuring = True
            conns = 0
            rss = 0.0
            while time.monotonic() - started < args.seconds:
                time.sleep(2)
                conns = max(conns, pg_connections())
                rss = max(rss, servers.usage(("feed",))[1])
            driver.measuring = feed.measuring = False
            elapsed = time.monotonic() - started
            cpu = {n: (servers.usage((n,))[0] - cpu0[n]) / elapsed for n in ("feed", "web")}
            lat = [x * 1000 for x in driver.latencies]
            rows[k] = (pct(lat, 0.99), pct(feed.delays, 0.99), driver.errors + feed.errors)
            print(
                f"{k:>6} {driver.done / elapsed:>9.2f} {pct(lat, 0.5):>6.0f}ms "
                f"{pct(lat, 0.99):>6.0f}ms"
                f" {pct(feed.delays, 0.5) * 1000:>7.0f}ms {pct(feed.delays, 0.99) * 1000:>7.0f}ms"
                f" {driver.errors + feed.errors:>6} {cpu['feed'] * 100:>7.0f}% "
                f"{rss / 2**20:>6.0f}MB {cpu['web'] * 100:>6.0f}% {conns:>8} {feed.open:>6} "
                f"{os.getloadavg()[0]:>5.1f}",
                flush=True,
            )
            # the idle clients go; the watchers stay
            feed.keep(len(watchers))
            left = time.monotonic()
            keys = [f"pablo-throttle:1:feed-waits:{u.pk}" for u, _ in idle_users] or ["-"]
            while True:  # every wait's slot comes back once its client left (give them 20 s)
                time.sleep(1)
                held = sum(int(v or 0) for v in counters.mget(keys))
                if not held or time.monotonic() - left > 20:
                    break
            if held or time.monotonic() - left > 3:
                print(f"  wait slots of the idle users still held {time.monotonic() - left:.0f} s "
                      f"after they left: {held}", flush=True)  # fmt: skip
            if driver.failures:
                print("  driver:", "; ".join(sorted(set(driver.failures))[:5]), flush=True)
                driver.failures.clear()
            time.sleep(2)
        if args.storm:
            idle = [(idle_games[i % len(idle_games)], idle_users[i // per_user][1], False)
                    for i in range(args.storm)]  # fmt: skip
            storm_row = storm(args, servers, feed, driver, idle, rows[0][0])
    finally:
        if driver is not None:
            driver.halt.set()
            driver.join(10)
        if feed is not None:
            with contextlib.suppress(Exception):
                feed.stop()
        if servers is not None:
            servers.stop()
        connection.close()
        creation.destroy_test_db(DB_NAME, verbosity=0)
    if args.storm:
        return storm_row
    # Goals (issue 17): at K = 5,000 actions' p99 within 2x their p99 at K = 0,
    # delivery p99 <= 1 s, no errors.
    if 0 in rows and 5000 in rows:
        act0 = rows[0][0]
        act, delivery, errors = rows[5000]
        missed = []
        if not act <= 2 * act0:
            missed.append(f"actions p99 {act:.0f} ms > 2 x {act0:.0f} ms")
        if not delivery <= 1.0:
            missed.append(f"delivery p99 {delivery:.2f} s > 1 s")
        if errors:
            missed.append(f"{errors} errors")
        what = "the account feed" if args.account else "the games' feeds"
        verdict = "all met" if not missed else "missed: " + "; ".join(missed)
        print(f"goals at K = 5000 ({what}):", verdict)
        return 1 if missed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
