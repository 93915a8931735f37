"""gunicorn settings for a bench: the project's own (gunicorn.conf.py), and each
request's time split by where it went, from Linux's scheduler statistics.

    gunicorn -c bench/gunicorn_timing.py pablo.wsgi ...   (PABLO_TIMING_LOG=<path>)

A line a request: method, path, status, then milliseconds: wall clock, the
handling thread's CPU, its wait for a CPU (run queue, /proc/thread-self/schedstat),
and the same two for its PostgreSQL backend over the request. Wall minus the
thread's CPU and run-queue wait is time spent waiting on something else (the
database, Redis, the network). ``bench_feed.py --timing-log`` starts the web so.
"""

import os
import threading
import time
from pathlib import Path

_here = Path(__file__).resolve().parents[1] / "gunicorn.conf.py"
exec(compile(_here.read_text(), str(_here), "exec"))  # (the project's settings)

_log = os.environ.get("PABLO_TIMING_LOG", "/tmp/pablo-timing.log")
_local = threading.local()


def _sched(path: str) -> tuple[int, int]:
    """(CPU ns, run-queue wait ns) so far of the thread or process at ``path``."""
    try:
        cpu, wait, _slices = Path(path).read_text().split()
    except (OSError, ValueError):
        return 0, 0
    return int(cpu), int(wait)


def _backend() -> int:
    from django.db import connection

    raw = connection.connection
    return raw.info.backend_pid if raw is not None and not raw.closed else 0


def pre_request(worker, req):
    pid = _backend()
    _local.start = (
        time.perf_counter(),
        _sched("/proc/thread-self/schedstat"),
        pid,
        _sched(f"/proc/{pid}/schedstat") if pid else (0, 0),
    )


def post_request(worker, req, environ, resp):
    start, (cpu0, wait0), pid0, (pg_cpu0, pg_wait0) = _local.start
    wall = time.perf_counter() - start
    cpu, wait = _sched("/proc/thread-self/schedstat")
    pid = _backend()
    pg = "- -"
    if pid and pid == pid0:
        pg_cpu, pg_wait = _sched(f"/proc/{pid}/schedstat")
        pg = f"{(pg_cpu - pg_cpu0) / 1e6:.1f} {(pg_wait - pg_wait0) / 1e6:.1f}"
    status = getattr(resp, "status_code", 0)
    line = (
        f"{time.time():.3f} {req.method} {req.path} {status} {wall * 1000:.1f} "
        f"{(cpu - cpu0) / 1e6:.1f} {(wait - wait0) / 1e6:.1f} {pg}\n"
    )
    with open(_log, "a") as out:
        out.write(line)
