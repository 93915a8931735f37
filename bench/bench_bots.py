"""Bots: how strong ``basic`` is, and how fast the pure engine plays whole games.

    .venv/bin/python bench/bench_bots.py            # --games 1000 --speed-games 1000

No database (the pure engine only). Two parts, with their goals:

1. ``basic`` against ``random`` in 2-player games, ``--games`` per ruleset
   (half with ``basic`` in seat 0, half in seat 1; a shared win counts half):
   the win rate of ``basic`` with its 95 % Wilson interval. Goal: >= 0.80 in
   every ruleset.
2. 4-player ``cabo`` between ``random`` bots: complete games per second of
   CPU time of this one process (one core; the machine is shared, so CPU time
   and not wall time). Goal: >= 300. Beside it, the yardstick: folding the
   very same games' events again (``rules.fold``, the floor of evolving a
   state), so the ratio says what deciding and the bots cost on top of it.

3. ``expert`` against ``basic`` in 2-player games, ``--expert-games`` per
   ruleset (seats alternating, a shared win counts half), the rulesets
   interleaved game by game so that a run stopped early (``--max-seconds``)
   has played them evenly: the win rate with its 95 % Wilson interval, and
   the CPU time of each of the expert's decisions (p50, p95, max). Goals: a win
   rate >= 0.60 (``skipbo``: >= 0.55) with the interval's lower bound above
   0.5; decisions within 1 s at p95.

``--parts basic,speed,expert`` chooses the parts (default: all).
Exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-" + "k" * 50)  # a throwaway key

import games.bots.expert as expert_bot
from games import rules
from games.bots.driver import Unfinished
from games.bots.play import play_game
from games.chance import DeckChance


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval (as ``manage.py simulate``; no Django here)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


RULESETS = ("pablo", "pablo-50", "tamalou", "cabo", "skipbo")
GOAL_WIN = 0.80
GOAL_SPEED = 300.0
GOAL_EXPERT = {"pablo": 0.60, "pablo-50": 0.60, "tamalou": 0.60, "cabo": 0.60, "skipbo": 0.55}
GOAL_DECISION_P95 = 1.0  # seconds


def strength(ruleset: str, games: int, seed: int) -> tuple[float, float, float, int, float]:
    wins = 0.0
    done = 0
    started = time.process_time()
    for i in range(games):
        basic = i % 2
        levels = ["random", "random"]
        levels[basic] = "basic"
        try:
            out = play_game(
                ruleset,
                levels,
                chance=DeckChance(random.Random(f"{seed}:{ruleset}:deck:{i}")),
                rng=random.Random(f"{seed}:{ruleset}:bots:{i}"),
            )
        except Unfinished:
            continue
        done += 1
        if basic in out.winners:
            wins += 1 / len(out.winners)
    rate = wins / done if done else 0.0
    low, high = wilson(wins, done)
    return rate, low, high, done, time.process_time() - started


def speed(games: int, seed: int) -> tuple[float, float, float]:
    streams: list[list[rules.Event]] = []
    started = time.process_time()
    for i in range(games):
        stream: list[rules.Event] = []
        play_game(
            "cabo",
            ["random"] * 4,
            chance=DeckChance(random.Random(f"{seed}:speed:deck:{i}")),
            rng=random.Random(f"{seed}:speed:bots:{i}"),
            stream=stream,
        )
        streams.append(stream)
    played = time.process_time() - started
    started = time.process_time()
    for stream in streams:
        rules.fold(stream)
    folded = time.process_time() - started
    events = sum(len(s) for s in streams) / games
    return games / played, games / folded, events


class Timed:
    """Wraps the expert's ``decide`` to record the CPU time of each decision."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.inner = expert_bot.decide

    def __call__(self, *args, **kwargs):
        started = time.process_time()
        try:
            return self.inner(*args, **kwargs)
        finally:
            self.times.append(time.process_time() - started)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def expert_game(job: tuple[str, int, int]) -> tuple[str, int, float | None, float, list[float]]:
    """One expert-vs-basic game: (ruleset, i, the expert's share of the win or None when
    unfinished, CPU s, the CPU s of each of the expert's decisions)."""
    ruleset, i, seed = job
    timed = Timed()
    expert_bot.decide = timed
    expert = i % 2
    levels = ["basic", "basic"]
    levels[expert] = "expert"
    t0 = time.process_time()
    try:
        out = play_game(
            ruleset,
            levels,
            chance=DeckChance(random.Random(f"{seed}:{ruleset}:expert-deck:{i}")),
            rng=random.Random(f"{seed}:{ruleset}:expert-bots:{i}"),
            max_actions=20_000,
        )
    except Unfinished:
        share = None
    else:
        share = 1 / len(out.winners) if expert in out.winners else 0.0
    finally:
        expert_bot.decide = timed.inner
    return ruleset, i, share, time.process_time() - t0, timed.times


def _recorded(out: str, seed: int) -> list[dict]:
    if not out or not os.path.exists(out):
        return []
    with open(out) as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [d for d in rows if d.get("seed") == seed]


def expert_strength(
    rulesets: list[str], games: int, seed: int, max_seconds: float, jobs: int, out: str
) -> bool:
    """The games interleaved ruleset by ruleset, on ``jobs`` processes (each game is a
    function of its seed alone, so the result does not depend on ``jobs``); every
    finished game is appended to ``out`` (JSON lines) as it comes."""
    wins = dict.fromkeys(rulesets, 0.0)
    done = dict.fromkeys(rulesets, 0)
    unfinished = dict.fromkeys(rulesets, 0)
    cpu = dict.fromkeys(rulesets, 0.0)
    times: list[float] = []
    started = time.monotonic()
    stopped = False
    work = [(ruleset, i, seed) for i in range(games) for ruleset in rulesets]
    # A run stopped part way goes on where it stopped: the games ``out`` holds count.
    for d in _recorded(out, seed):
        if d["ruleset"] in wins and d["i"] < games and (d["ruleset"], d["i"], seed) in work:
            work.remove((d["ruleset"], d["i"], seed))
            cpu[d["ruleset"]] += d["cpu"]
            times += d.get("decisions", [])
            if d["share"] is None:
                unfinished[d["ruleset"]] += 1
            else:
                done[d["ruleset"]] += 1
                wins[d["ruleset"]] += d["share"]
    if len(work) < games * len(rulesets):
        print(f"  {games * len(rulesets) - len(work)} games already in {out}", flush=True)
    record = open(out, "a") if out else None  # noqa: SIM115 (closed below)
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for n, (ruleset, i, share, spent, decisions) in enumerate(
            pool.imap(expert_game, work, chunksize=1), 1
        ):
            cpu[ruleset] += spent
            times += decisions
            if share is None:
                unfinished[ruleset] += 1
            else:
                done[ruleset] += 1
                wins[ruleset] += share
            if record is not None:
                line = {
                    "ruleset": ruleset,
                    "i": i,
                    "seed": seed,
                    "share": share,
                    "cpu": spent,
                    "decisions": [round(t, 5) for t in decisions],
                }
                record.write(json.dumps(line) + "\n")
                record.flush()
            if n % (10 * len(rulesets)) == 0:
                line = ", ".join(f"{r} {wins[r]:g}/{done[r]}" for r in rulesets)
                print(f"  after {n // len(rulesets)} rounds of games: {line}", flush=True)
            if time.monotonic() - started > max_seconds:
                stopped = True
                pool.terminate()
                break
    if record is not None:
        record.close()
    ok = True
    print(f"expert vs basic, 2 players (seed {seed}); goal {games} games per ruleset")
    for ruleset in rulesets:
        n = done[ruleset]
        rate = wins[ruleset] / n if n else 0.0
        low, high = wilson(wins[ruleset], n)
        good = rate >= GOAL_EXPERT[ruleset] and low > 0.5
        ok &= good
        print(
            f"  {ruleset:9} win rate {rate:.3f} (95 % {low:.3f}-{high:.3f}) over {n} games"
            f" ({unfinished[ruleset]} unfinished), {cpu[ruleset] / max(n, 1):.1f} CPU s/game"
            f"  [{'ok' if good else 'MISSED'}]",
            flush=True,
        )
    p95 = quantile(times, 0.95)
    ok &= p95 <= GOAL_DECISION_P95
    print(
        f"  expert decisions: {len(times)}, CPU p50 {quantile(times, 0.5) * 1000:.1f} ms, "
        f"p95 {p95 * 1000:.1f} ms, max {max(times, default=0) * 1000:.0f} ms"
        f"  [{'ok' if p95 <= GOAL_DECISION_P95 else 'MISSED'}]"
    )
    if stopped:
        print(f"  stopped after {max_seconds:.0f} s of wall time (--max-seconds)")
        ok = False
    return ok


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--speed-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    parser.add_argument("--parts", default="basic,speed,expert")
    parser.add_argument("--expert-games", type=int, default=1000)
    parser.add_argument("--max-seconds", type=float, default=float("inf"))
    parser.add_argument("--jobs", type=int, default=1, help="processes for the expert games")
    parser.add_argument("--out", default="", help="append each expert game to this JSON-lines file")
    args = parser.parse_args()
    parts = args.parts.split(",")
    ok = True
    if "expert" in parts:
        rulesets = args.rulesets.split(",")
        ok &= expert_strength(
            rulesets, args.expert_games, args.seed, args.max_seconds, args.jobs, args.out
        )
    if "basic" not in parts and "speed" not in parts:
        return 0 if ok else 1
    print(f"basic vs random, 2 players, {args.games} games per ruleset (seed {args.seed})")
    for ruleset in args.rulesets.split(",") if "basic" in parts else ():
        rate, low, high, done, cpu = strength(ruleset, args.games, args.seed)
        mark = "ok" if rate >= GOAL_WIN else "MISSED"
        ok &= rate >= GOAL_WIN
        print(
            f"  {ruleset:9} win rate {rate:.3f} (95 % {low:.3f}-{high:.3f}) over {done} games,"
            f" {done / cpu:.0f} games/CPU s  [{mark}]",
            flush=True,
        )
    if "speed" not in parts:
        return 0 if ok else 1
    rate, fold_rate, events = speed(args.speed_games, args.seed)
    mark = "ok" if rate >= GOAL_SPEED else "MISSED"
    ok &= rate >= GOAL_SPEED
    print(
        f"cabo, 4 random bots, {args.speed_games} games ({events:.0f} events each): "
        f"{rate:.0f} games/CPU s; yardstick fold of the same events {fold_rate:.0f} games/CPU s; "
        f"ratio {rate / fold_rate:.2f}  [{mark}]"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
