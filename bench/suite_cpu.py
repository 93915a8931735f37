"""Where a command's CPU goes, by kind of process: ``python bench/suite_cpu.py -- make test``.

Runs the command and, until it ends, reads every process's CPU time from /proc five
times a second. A process counts for what it used while the command ran (its time
at the first reading is taken off, so the machine's own services weigh only what
they did meanwhile). A process is put in a kind by its command line or, for a child
spawned by ``multiprocessing`` (uvicorn's workers, the Celery worker's heavy lanes),
by its parent's: the pytest-xdist workers, Chromium with Playwright's driver,
Celery workers and beat, the web servers, ``manage.py``, PostgreSQL, Redis, the rest
by name. Processes shorter than a reading are missed: the figures are a floor.

Prints a table of CPU seconds per kind, the total, and the wall time. Linux only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from collections import Counter

HZ = os.sysconf("SC_CLK_TCK")

KINDS = (  # (kind, words of the command line that say it), first match wins
    ("pytest (test processes)", ("xdist", "pytest", "exec(eval(sys.stdin")),
    ("Chromium and Playwright's driver", ("chrom", "playwright")),
    ("Celery worker and beat (lanes included)", ("celery",)),
    ("uvicorn and gunicorn", ("uvicorn", "gunicorn")),
    ("manage.py", ("manage.py",)),
    ("PostgreSQL", ("postgres",)),
    ("Redis", ("redis-server",)),
)


def read(pid: str) -> tuple[str, int, float, str] | None:
    """(start time, parent, CPU seconds, command line) of ``pid``, None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    name = stat[stat.index("(") + 1 : stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2 :].split()
    cpu = (int(fields[11]) + int(fields[12])) / HZ
    return fields[19], int(fields[1]), cpu, cmdline or f"[{name}]"


def kind_of(cmdline: str) -> str | None:
    low = cmdline.lower()
    for kind, words in KINDS:
        if any(word in low for word in words):
            return kind
    return None


class Sampler:
    def __init__(self) -> None:
        self.first: dict[tuple[str, str], float] = {}
        self.last: dict[tuple[str, str], tuple[float, str]] = {}
        self.kinds: dict[int, str] = {}
        self.stop = threading.Event()
        self.scan(first=True)

    def scan(self, first: bool = False) -> None:
        found = {}
        for pid in os.listdir("/proc"):
            if pid.isdigit() and (seen := read(pid)) is not None:
                found[int(pid)] = seen
        for pid, (start, parent, cpu, cmdline) in found.items():
            key = (str(pid), start)
            if key in self.last and cmdline.startswith("["):  # (an ending process shows
                self.last[key] = (cpu, self.last[key][1])  # no command line: its kind stays)
                continue
            kind = kind_of(cmdline)
            if kind is None and ("spawn_main" in cmdline or "multiprocessing" in cmdline):
                kind = self.kinds.get(parent) or (
                    kind_of(found[parent][3]) if parent in found else None
                )
            if kind is None:  # by its program's name ([name]: a kernel thread)
                kind = cmdline if cmdline.startswith("[") else cmdline.split()[0].rsplit("/")[-1]
            self.kinds[pid] = kind
            if first:
                self.first[key] = cpu
            self.last[key] = (cpu, kind)

    def run(self) -> None:
        while not self.stop.wait(0.2):
            self.scan()

    def totals(self) -> Counter[str]:
        out: Counter[str] = Counter()
        for key, (cpu, kind) in self.last.items():
            out[kind] += cpu - self.first.get(key, 0.0)
        return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=12, help="kinds listed (the rest summed)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- the command to run")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("a command to run: python bench/suite_cpu.py -- make test")
    sampler = Sampler()
    thread = threading.Thread(target=sampler.run, daemon=True)
    thread.start()
    started = time.monotonic()
    status = subprocess.call(command)
    wall = time.monotonic() - started
    sampler.stop.set()
    thread.join()
    sampler.scan()
    totals = sampler.totals()
    ranked = [(k, v) for k, v in totals.most_common() if v >= 0.05]
    shown, rest = ranked[: args.top], sum(v for _, v in ranked[args.top :])
    total = sum(v for _, v in ranked)
    print(f"\n{' '.join(command)}: exit {status}, {wall:.0f} s wall, {total:.0f} CPU-s")
    print("| processes | CPU s | share |\n|---|---|---|")
    for kind, cpu in shown + ([("the rest", rest)] if rest else []):
        print(f"| {kind} | {cpu:.0f} | {100 * cpu / total:.0f} % |")
    return status


if __name__ == "__main__":
    sys.exit(main())
