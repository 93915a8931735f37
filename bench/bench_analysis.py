"""The analysis' speed: a 4-player Cabo game of about 300 decisions, default budget.

    .venv/bin/python bench/bench_analysis.py      # --iterations 120 --seed 4

No database (the pure core, ``games.bots.analysis``, which the worker's task
runs). Plays 4-player Cabo games between ``basic`` bots (a random player
ends a game in three or four rounds) until one has 250-350 analysable
decisions, then analyses it on this one process and reports the CPU time
(``time.process_time``: the machine is shared). Goal: within 120 s. Exits 1
when missed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots import analysis
from games.bots.play import play_game
from games.chance import DeckChance

GOAL_SECONDS = 120.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=analysis.DEFAULT_ITERATIONS)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    for i in range(200):
        stream: list = []
        play_game(
            "cabo",
            ["basic"] * 4,
            chance=DeckChance(random.Random(f"{args.seed}:{i}")),
            rng=random.Random(i),
            stream=stream,
        )
        events = list(enumerate(stream, start=1))
        found = analysis.decisions(events)
        if 250 <= len(found) <= 350:
            break
    else:
        print("no game of 250-350 decisions in 200")
        return 1
    started = time.process_time()
    result = analysis.analyse(events, iterations=args.iterations)
    cpu = time.process_time() - started
    marks = sum(1 for d in result["decisions"] if d["mark"])
    ok = cpu <= GOAL_SECONDS
    print(
        f"4-player cabo, {len(found)} decisions ({len(result['decisions'])} with a choice, "
        f"{marks} marked), {args.iterations} rollouts each: {cpu:.1f} CPU s "
        f"(goal <= {GOAL_SECONDS:.0f})  [{'ok' if ok else 'MISSED'}]"
    )
    for p in result["players"]:
        print(
            f"  seat {p['seat']}: loss {p['loss']:.1f} points, marks "
            f"{p['inaccuracy']}/{p['mistake']}/{p['blunder']}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
