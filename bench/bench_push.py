"""Benchmark: Web Push from a move to the push service, and 10,000 pushes at once.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pablo .venv/bin/python bench/bench_push.py
    # PABLO_BENCH_REDIS_DB=13 (flushed before and after); --moves 60, --burst 10000, --games 2000

Loopback only, the production configuration: ``pablo.settings`` (not the tests'),
PostgreSQL, Redis as broker and cache, a Celery worker as docker-compose starts
it (``-Q celery,notifications``, the prefork pool, one process per core) and
beat; the push service is ``tests/pushservice.py``'s stand-in in this process
(a threaded HTTP server answering 201). ``PABLO_PUSH_ALLOW_PRIVATE`` is set only
so that the stand-in on 127.0.0.1 may be reached. Works in a database of its own
(``bench_pablo_push``: created, migrated, dropped).

1. **A move that gives a player the turn -> the push reaches the stand-in.**
   Two players, one device each, ten ``pablo`` games; moves are made through
   ``services.games.game_act`` one at a time, and for each move that passes the
   turn, the time from the move's return (its commit) to the stand-in's receipt
   of the push with that game's ``Topic``: p50, p95, max (goal p95 <= 2 s). The
   whole path: the notifications follower (woken by the commit's hint), its
   ``PushDelivery`` row, the ``games.deliver_push`` task, encryption, VAPID, POST.
2. **10,000 pushes queued at once**: 2,000 games ending together, five devices
   each (``game_over``): the rows written in one transaction, as the follower
   writes them, then one task each enqueued; the time from the first enqueue to
   the last receipt (goal <= 60 s), and none lost, none twice (each device and
   game exactly once at the stand-in; every row ``sent``). A sample of 100 is
   decrypted and its VAPID JWT checked as the tests do.

Exits non-zero when a goal is missed.
"""

from __future__ import annotations

import argparse
import collections
import os
import secrets
import statistics
import sys
import tempfile
import time
import urllib.parse
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchkit import bench_redis  # noqa: E402

os.environ["DJANGO_SETTINGS_MODULE"] = "pablo.settings"
DB_NAME = os.environ.get("PABLO_BENCH_DB", "bench_pablo_push")
os.environ["PABLO_BENCH_DB"] = DB_NAME
BROKER = bench_redis(13)  # PABLO_BENCH_REDIS_DB, flushed before and after
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-push-" + secrets.token_urlsafe(40))
os.environ["PABLO_PUSH_ALLOW_PRIVATE"] = "1"  # the stand-in is on 127.0.0.1
os.environ["PABLO_VAPID_SUBJECT"] = "mailto:bench@example.org"

from bench_append import act_once, new_game  # noqa: E402  (django.setup() too)
from benchkit import close_databases, open_databases, percentile, verdict  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import transaction  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.models import Game, PushDelivery, PushSubscription  # noqa: E402
from games.notifications import push  # noqa: E402
from tests.processes import Processes, database_url  # noqa: E402
from tests.pushservice import PushService  # noqa: E402

GOALS = {"move_p95_s": 2.0, "burst_s": 60.0}
PAIR = push.make_keys()


class Stamped(list):
    """The stand-in's record, each request with the time it arrived."""

    def append(self, item: dict) -> None:
        item["at"] = time.time()
        super().append(item)


def topic(game_id: object) -> str:
    return str(game_id).replace("-", "")


def subscribe(service: PushService, user: object) -> PushSubscription:
    keys = service.device().body()
    return PushSubscription.objects.create(
        user=user,
        endpoint=keys["endpoint"],
        p256dh=keys["keys"]["p256dh"],
        auth=keys["keys"]["auth"],
    )


def arrived(service: PushService, game_id: object, after: float, timeout: float) -> float | None:
    wanted = topic(game_id)
    end = time.time() + timeout
    while time.time() < end:
        with service.lock:
            for request in reversed(service.requests):
                if request["at"] < after:
                    break
                if request["headers"].get("Topic") == wanted:
                    return request["at"]
        time.sleep(0.005)
    return None


def moves(service: PushService, users: list, count: int) -> list[float]:
    """Delays (s) from a move that passes the turn to its push at the stand-in."""
    games = [new_game(users) for _ in range(10)]
    delays: list[float] = []
    lost = 0
    i = 0
    while len(delays) + lost < count:
        game = games[i % len(games)]
        i += 1
        if game.status != "active":
            games[games.index(game)] = game = new_game(users)
        before = game.turn_key
        while True:
            act_once(game, users)
            if game.turn_key != before or game.status != "active":
                break
        done = time.time()
        if game.status != "active":
            continue
        at = arrived(service, game.id, done - 0.5, 10.0)
        if at is None:
            lost += 1
        else:
            delays.append(max(0.0, at - done))
        time.sleep(0.2)  # one move at a time, as people play
    if lost:
        print(f"  {lost} moves brought no push within 10 s", flush=True)
    return delays


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process and its children (the prefork pool)."""
    import psutil

    root = psutil.Process(pid)
    total = 0.0
    for proc in [root, *root.children(recursive=True)]:
        try:
            times = proc.cpu_times()
            total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def burst(
    service: PushService, users: list, games_n: int, per_game: int, worker_pid: int
) -> dict[str, float]:
    owner = users[0]
    User = get_user_model()
    people = [User.objects.create_user(username=f"burst{d}", password="x") for d in range(per_game)]
    devices = [subscribe(service, person) for person in people]
    created = timezone.now()
    game_rows = [
        Game(
            id=uuid.uuid4(),
            ruleset="pablo",
            seats=2,
            status="finished",
            created_by=owner,
            options={},
        )
        for _ in range(games_n)
    ]
    Game.objects.bulk_create(game_rows, batch_size=500)
    site = "http://127.0.0.1"
    with transaction.atomic():
        rows = PushDelivery.objects.bulk_create(
            [
                PushDelivery(
                    subscription=device,
                    game=g,
                    turn="end",
                    kind="game_over",
                    next_try=created,
                    message={
                        "kind": "game_over",
                        "game": str(g.id),
                        "title": "Pablo game over",
                        "body": "You finished 2nd.",
                        "url": f"{site}/play/{g.id}/",
                    },
                )
                for g in game_rows
                for device in devices
            ],
            batch_size=1000,
        )
    ids = [row.pk for row in rows]
    already = len(service.requests)
    cpu = cpu_seconds(worker_pid)
    start = time.time()
    push.enqueue(ids)
    queued = time.time() - start
    total = len(ids)
    last_count, last_change = 0, time.time()
    while len(service.requests) - already < total and time.time() - last_change < 60:
        time.sleep(0.1)  # until all arrived, or nothing more for 60 s
        if len(service.requests) != last_count:
            last_count, last_change = len(service.requests), time.time()
    cpu = cpu_seconds(worker_pid) - cpu
    got = service.requests[already:]
    last = max((r["at"] for r in got), default=float("inf"))
    per = collections.Counter((r["path"], r["headers"].get("Topic")) for r in got)
    wanted = {
        (urllib.parse.urlsplit(d.endpoint).path, topic(g.id)) for g in game_rows for d in devices
    }
    seen = set(per)
    lost = len(wanted - seen)
    twice = sum(n - 1 for n in per.values() if n > 1)
    time.sleep(1.0)  # the rows' commits after the answers
    sent = PushDelivery.objects.filter(pk__in=ids, status="sent").count()
    for request in got[:: max(1, len(got) // 100)][:100]:
        service.open(request, PAIR["public_key"])  # raises on a bad JWT or body
    return {
        "total": total,
        "queued_s": queued,
        "burst_s": last - start,
        "lost": lost,
        "twice": twice,
        "sent_rows": sent,
        "cpu_ms": cpu * 1000 / max(1, len(got)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--per-game", type=int, default=5)
    args = parser.parse_args()
    client = open_databases(DB_NAME, BROKER)
    tmp = Path(tempfile.mkdtemp(prefix="bench-push-"))
    procs = Processes(
        tmp,
        DATABASE_URL=database_url(),
        CELERY_BROKER_URL=BROKER,
        DJANGO_SETTINGS_MODULE="pablo.settings",
        PABLO_VAPID_PRIVATE_KEY=PAIR["private_key"],
        PABLO_VAPID_PUBLIC_KEY=PAIR["public_key"],
    )
    for name in ("PABLO_TEST_DB_NAME", "PABLO_FAST_PATH_SECONDS", "PABLO_ALLOW_STACKED_DECKS"):
        procs.env.pop(name, None)  # the service's defaults
    service = PushService()
    service.requests = Stamped()
    missed: list[str] = []
    out: dict[str, float] = {}
    try:
        with override_settings(
            PABLO_VAPID_PRIVATE_KEY=PAIR["private_key"], PABLO_VAPID_PUBLIC_KEY=PAIR["public_key"]
        ):
            User = get_user_model()
            users = [User.objects.create_user(username=f"bench{i}", password="x") for i in (0, 1)]
            for user in users:
                subscribe(service, user)
            worker_options = ["-Q", "celery,notifications", "--without-heartbeat",
                              "--without-gossip", "--without-mingle"]  # fmt: skip
            worker = procs.worker("worker", options=worker_options)
            procs.beat()

            delays = moves(service, users, args.moves)
            out["move_p95_s"] = percentile(delays, 0.95) if delays else float("inf")
            print(
                f"move -> push at the stand-in, {len(delays)} turns passed: "
                f"p50 {statistics.median(delays) * 1000:.0f} ms, "
                f"p95 {out['move_p95_s'] * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms "
                f"(goal p95 <= 2 s)",
                flush=True,
            )

            found = burst(service, users, args.games, args.per_game, worker.pid)
            out["burst_s"] = found["burst_s"]
            print(
                f"{found['total']} pushes queued at once ({args.games} games x {args.per_game} "
                f"devices; enqueued in {found['queued_s']:.1f} s): all at the stand-in "
                f"{found['burst_s']:.1f} s after the first enqueue "
                f"({found['total'] / found['burst_s']:.0f}/s; goal <= 60 s); "
                f"{found['lost']} lost, {found['twice']} twice, {found['sent_rows']} rows sent",
                flush=True,
            )
            print(
                f"  the worker's CPU per push: {found['cpu_ms']:.1f} ms (its processes, user +"
                f" system): {found['total']} pushes on 2 free cores would take"
                f" {found['total'] * found['cpu_ms'] / 2000:.0f} s",
                flush=True,
            )
            if found["lost"] or found["twice"]:
                missed.append(f"{found['lost']} lost, {found['twice']} twice")
            print("counters:", push.counters(), flush=True)
    except BaseException:
        print(procs.logs())
        raise
    finally:
        procs.close()
        service.close()
        close_databases(DB_NAME, client)
    return verdict(out, GOALS, missed)


if __name__ == "__main__":
    sys.exit(main())
