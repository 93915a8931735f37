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

Exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-" + "k" * 50)  # a throwaway key

from games import rules
from games.bots.driver import Unfinished
from games.bots.play import play_game
from games.chance import DeckChance
from games.management.commands.simulate import wilson

RULESETS = ("pablo", "pablo-50", "tamalou", "cabo", "skipbo")
GOAL_WIN = 0.80
GOAL_SPEED = 300.0


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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--speed-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    args = parser.parse_args()
    ok = True
    print(f"basic vs random, 2 players, {args.games} games per ruleset (seed {args.seed})")
    for ruleset in args.rulesets.split(","):
        rate, low, high, done, cpu = strength(ruleset, args.games, args.seed)
        mark = "ok" if rate >= GOAL_WIN else "MISSED"
        ok &= rate >= GOAL_WIN
        print(
            f"  {ruleset:9} win rate {rate:.3f} (95 % {low:.3f}-{high:.3f}) over {done} games,"
            f" {done / cpu:.0f} games/CPU s  [{mark}]",
            flush=True,
        )
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
